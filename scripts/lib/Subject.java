package lib;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The server under test, for the grader and the race alike: the learner's exercise, the
 * reference solution, another file of the chapter, a server in any language started from a
 * command line, or one that already runs. Each knows the file it runs, how it is started
 * ({@link #launch}), the port of the backend it calls, the words that name it again, and whether
 * a whole grading of it is the learner's progress. {@link SubjectOptions} reads it from a
 * command line; a new way to name a server lands here once, for both jobs.
 */
public sealed interface Subject {
    /** {@code exercises/NN-*.java}, the learner's own: the only subject whose grading is progress. */
    record Exercise() implements Subject {}

    /** {@code solutions/NN-*.java}, the reference. */
    record Solution() implements Subject {}

    /** Another file of the chapter ({@code --file}), such as a broken variant of a solution. */
    record File(Path path) implements Subject {}

    /** A server already running at {@code url} ({@code --url}), with its process id when known ({@code --pid}). */
    record Running(String url, Long pid) implements Subject {}

    /**
     * A server in any language that the grader starts ({@code --command "python3 server.py"}),
     * {@code line} split into words as a shell would (quotes group, nothing is expanded); the
     * grader adds --port 0 and the chapter's options.
     */
    record Command(String line, List<String> words) implements Subject {
        public Command(String line) {
            this(line, ShellWords.split(line));
        }

        public Command {
            if (words.isEmpty()) throw new IllegalArgumentException("--command needs a command line, such as --command \"python3 server.py\"");
            words = List.copyOf(words);
        }
    }

    /** How a report names it (CheckReport's {@code target}, the server log's name): exercise, solution, file, url or command. */
    default String word() {
        return switch (this) {
            case Exercise e -> "exercise";
            case Solution s -> "solution";
            case File f -> "file";
            case Running r -> "url";
            case Command c -> "command";
        };
    }

    /** The file it runs for a chapter whose file is {@code fileName}, relative to the course's root; empty for a running server. */
    default Optional<Path> file(Path root, String fileName) {
        return switch (this) {
            case Exercise e -> Optional.of(root.resolve("exercises").resolve(fileName));
            case Solution s -> Optional.of(root.resolve("solutions").resolve(fileName));
            case File f -> Optional.of(f.path());
            case Running r -> Optional.empty();
            case Command c -> Optional.empty();
        };
    }

    /** The options that grade it again: none for the exercise. */
    default String again(Path root) {
        return switch (this) {
            case Exercise e -> "";
            case Solution s -> " --solution";
            case File f -> " --file " + named(root, f.path());
            case Running r -> " --url " + r.url() + (r.pid() == null ? "" : " --pid " + r.pid());
            case Command c -> " --command " + ShellWords.quoted(c.line());
        };
    }

    /** Whether a whole grading of it is kept as the learner's progress. */
    default boolean progress() {
        return this instanceof Exercise;
    }

    /**
     * The port of the backend its trips call: any free one for a server started here, which is
     * told the backend's address; 8081, the servers' default --backend, for one already running.
     */
    default int backendPort() {
        return this instanceof Running ? 8081 : 0;
    }

    /**
     * How a server is started, and how that is shown: the words, the environment, and the line
     * the learner reads ("jbang -R-Xmx64m exercises/05-virtual.java --port 0 ...").
     */
    record Launch(List<String> command, Map<String, String> env, String shown) {
        /** Starts it with {@code more} in its environment, its output in {@code log}, and waits for its ready line. */
        public Target start(Path log, Map<String, String> more) throws IOException {
            Map<String, String> all = new java.util.HashMap<>(env);
            all.putAll(more);
            Files.createDirectories(log.getParent());
            Files.deleteIfExists(log);
            return Target.start(command, all, log, Duration.ofSeconds(180));
        }
    }

    /**
     * How to start it for a chapter whose file is {@code fileName}: JBang ({@code jbang}, its
     * words) runs the file with {@code jvm} as the server JVM's options; a command gets them as
     * JDK_JAVA_OPTIONS (java reads it); either is given --port 0 and {@code args}. An
     * IOException when the file is not there; a running server is not started.
     */
    default Launch launch(Path root, List<String> jbang, String fileName, List<String> jvm, List<String> args) throws IOException {
        List<String> command = new ArrayList<>();
        Map<String, String> env = Map.of();
        String shown;
        switch (this) {
            case Running r -> throw new IllegalStateException("a running server is not started here: " + r.url());
            case Command c -> {
                command.addAll(c.words());
                if (!jvm.isEmpty()) env = Map.of("JDK_JAVA_OPTIONS", String.join(" ", jvm));
                shown = (env.isEmpty() ? "" : "JDK_JAVA_OPTIONS='" + env.get("JDK_JAVA_OPTIONS") + "' ") + c.line();
            }
            default -> {
                Path file = file(root, fileName).orElseThrow();
                String named = named(root, file);
                if (!Files.isRegularFile(file)) throw new IOException("no " + named);
                command.addAll(jbang);
                jvm.forEach(o -> command.add("-R" + o)); // JBang's options for the server's JVM
                command.add((this instanceof File ? runnable(root, file) : file).toString());
                shown = "jbang" + String.join("", jvm.stream().map(o -> " -R" + o).toList()) + " " + named;
            }
        }
        command.addAll(List.of("--port", "0"));
        command.addAll(args);
        return new Launch(command, env, shown + " --port 0" + String.join("", args.stream().map(a -> " " + a).toList()));
    }

    /**
     * A copy of a chapter's file runs wherever the learner keeps it: run as it is when every file
     * its {@code //SOURCES} names is found beside it; else, when they are all found from the
     * course's exercises/ or solutions/ (where the copy came from), a twin of it in
     * .results/copies/ (a folder per copy's path) whose {@code //SOURCES} name them by absolute path (the same lines, so a
     * compiler's line numbers still point into the copy). An IOException of one sentence otherwise.
     */
    private static Path runnable(Path root, Path file) throws IOException {
        List<String> lines = Files.readAllLines(file);
        List<String> sources = lines.stream().flatMap(l -> sources(l).stream()).toList();
        Path folder = file.toAbsolutePath().getParent();
        if (sources.stream().allMatch(s -> Files.isRegularFile(folder.resolve(s)))) return file;
        for (String from : List.of("exercises", "solutions")) {
            Path base = root.resolve(from).toAbsolutePath();
            if (!sources.stream().allMatch(s -> Files.isRegularFile(base.resolve(s)))) continue;
            List<String> twin = lines.stream().map(l -> sources(l).isEmpty() ? l : "//SOURCES " + String.join(" ",
                    sources(l).stream().map(s -> base.resolve(s).normalize().toString().replace('\\', '/')).toList())).toList();
            Path copy = root.resolve(".results/copies").resolve(Integer.toHexString(file.toAbsolutePath().hashCode())).resolve(file.getFileName());
            Files.createDirectories(copy.getParent());
            Files.write(copy, twin);
            return copy;
        }
        String missing = sources.stream().filter(s -> !Files.isRegularFile(folder.resolve(s))).findFirst().orElseThrow();
        throw new IOException(named(root, file) + " names //SOURCES " + missing
                + ", found neither beside it nor in exercises/ or solutions/: keep the //SOURCES line as the chapter's file has it");
    }

    /**
     * A chapter's file that is not there: one sentence that says how to get it back (exit 2). The
     * course's own exercise or solution comes back from git; a file the learner named is theirs to find.
     */
    static CommandError missing(Path root, Path file) {
        String named = named(root, file), course = named.replace('\\', '/');
        if (course.startsWith("exercises/") || course.startsWith("solutions/")) {
            return CommandError.environment("no " + course + " here: get the course's own back with `git checkout -- " + course + "`");
        }
        return CommandError.environment("no " + named + " here: check the path you gave");
    }

    /** A file as the learner names it: from the course's root when it is inside, else its absolute path. */
    private static String named(Path root, Path file) {
        Path path = file.toAbsolutePath().normalize();
        Path base = root.toAbsolutePath().normalize();
        return (path.startsWith(base) ? base.relativize(path) : path).toString();
    }

    /** The files a JBang {@code //SOURCES} line names; none for another line. */
    private static List<String> sources(String line) {
        return line.startsWith("//SOURCES ") ? List.of(line.substring("//SOURCES ".length()).trim().split("\\s+")) : List.of();
    }

    /** How a report and the learner name it: the command as given, the file from the course's root, or the URL (and pid). */
    default String label(Path root, String fileName) {
        return switch (this) {
            case Running r -> r.url() + (r.pid() == null ? "" : " (pid " + r.pid() + ")");
            case Command c -> c.line();
            default -> named(root, file(root, fileName).orElseThrow());
        };
    }
}
