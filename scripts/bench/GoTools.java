package bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Executor;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What the race's two load generators share: both are Go programs it runs as processes ({@link Bombardier}, {@link Vegeta}). */
final class GoTools {
    private GoTools() {}

    /** Pipe readers on their own threads (the common pool may have one thread on a small machine). */
    static final Executor READER = r -> Thread.ofPlatform().daemon().start(r);

    /**
     * The version ("v1.2.6") of Go module {@code module} that {@code binary} was built from, from
     * Go's build information in the binary: a tool built with "go build" from a module does not
     * know its own version. Null when the binary does not name it.
     */
    static String moduleVersion(Path binary, String module) throws IOException {
        String text = new String(Files.readAllBytes(binary), StandardCharsets.ISO_8859_1);
        Matcher m = Pattern.compile(Pattern.quote(module) + "\tv([0-9][0-9.]*)").matcher(text);
        return m.find() ? "v" + m.group(1) : null;
    }

    /** All of a pipe, as text ("" when it fails). */
    static String readAll(InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }
}
