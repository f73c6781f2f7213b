package lib;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * How a course program's JVM was started, kept so that the next run of the same sources starts
 * the JVM straight, without JBang's own JVM before it (about 1.2 s of every {@code check.sh} on a
 * 2-core laptop). Called first in {@code main} by the programs that scripts/lib.sh runs with
 * {@code course_program}: when JBang ran the program, that function names a file in
 * {@code COURSE_LAUNCH_RECORD} (its name holds a hash of every source under scripts/ and the JDK),
 * and this writes to it the java program and its arguments up to the main class, one a line.
 * Nothing is written where the JVM's command line cannot be read whole (Windows gives none).
 */
public final class LaunchRecord {
    private LaunchRecord() {}

    /** Records this JVM's launch for the program {@code main}, started with {@code args}, if asked to. */
    public static void write(Class<?> main, String[] args) {
        String to = System.getenv("COURSE_LAUNCH_RECORD");
        if (to == null || to.isBlank()) return;
        Path file = Path.of(to);
        // The record is named for its program (Grade-<hash>): a program started below it does not take it.
        if (!file.getFileName().toString().startsWith(main.getSimpleName() + "-")) return;
        List<String> line = of(ProcessHandle.current().info(), main.getName(), List.of(args));
        if (line.isEmpty()) return;
        try {
            Files.createDirectories(file.getParent());
            Path temp = Files.createTempFile(file.getParent(), file.getFileName().toString(), ".tmp");
            Files.write(temp, line, StandardCharsets.UTF_8);
            Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException | UnsupportedOperationException e) {
            // no record: the next run goes through JBang again
        }
    }

    /**
     * The java program and its arguments up to {@code mainClass}, from {@code info}; empty unless
     * the line ends with the main class and then exactly {@code args}, and holds no argument file
     * ({@code @file}, which a launcher may delete) and no line break.
     */
    public static List<String> of(ProcessHandle.Info info, String mainClass, List<String> args) {
        if (info.command().isEmpty() || info.arguments().isEmpty()) return List.of();
        List<String> all = List.of(info.arguments().get());
        int end = all.size() - args.size();
        if (end < 1 || !all.subList(end, all.size()).equals(args) || !all.get(end - 1).equals(mainClass)) return List.of();
        List<String> jvm = all.subList(0, end);
        if (jvm.stream().anyMatch(a -> a.startsWith("@") || a.contains("\n") || a.contains("\r"))) return List.of();
        List<String> line = new ArrayList<>(jvm.size() + 1);
        line.add(info.command().get());
        line.addAll(jvm);
        return line;
    }
}
