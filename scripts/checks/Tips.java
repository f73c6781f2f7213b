package checks;

import java.util.List;
import java.util.regex.Pattern;

/**
 * One-line tips for a server that did not start, read from its output: the compile errors the
 * chapters' pages see coming, said in the course's words. No tip when nothing matches.
 */
public final class Tips {
    /** A tip, and the output that calls for it. */
    private record Tip(Pattern output, String tip) {}

    private static final List<Tip> TIPS = List.of(
            new Tip(Pattern.compile("exception (java\\.util\\.concurrent\\.)?TimeoutException is never thrown|"
                    + "incompatible types: (java\\.util\\.concurrent\\.)?TimeoutException cannot be converted"),
                    "StructuredTaskScope's join() throws StructuredTaskScope.TimeoutException, not java.util.concurrent.TimeoutException:"
                            + " catch StructuredTaskScope.TimeoutException, and drop the import of the other."),
            new Tip(Pattern.compile("is a preview API and is disabled by default"),
                    "StructuredTaskScope is a preview API in Java 25: keep the //PREVIEW line under //JAVA 25 at the top of the file."),
            new Tip(Pattern.compile("class \\w+ is public, should be declared in a file named"),
                    "a file whose name starts with digits cannot hold a public class: remove 'public' before 'class'."));

    private Tips() {}

    /** The tips that {@code output} (a failed start's message, with the server's output) calls for. */
    public static List<String> forOutput(String output) {
        if (output == null) return List.of();
        return TIPS.stream().filter(t -> t.output().matcher(output).find()).map(Tip::tip).toList();
    }
}
