import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * What a grading grades: the learner's exercise, the reference solution, another file of the
 * chapter, a server in any language that the grader starts from a command line, or one that
 * already runs. Each knows the file it runs, the words
 * that grade it again, and whether a whole grading of it is the learner's progress.
 */
sealed interface Subject {
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
        Command(String line) {
            this(line, CommandLine.split(line));
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
            case File f -> " --file " + root.relativize(f.path().toAbsolutePath());
            case Running r -> " --url " + r.url() + (r.pid() == null ? "" : " --pid " + r.pid());
            case Command c -> " --command " + CommandLine.quoted(c.line());
        };
    }

    /** Whether a whole grading of it is kept as the learner's progress. */
    default boolean progress() {
        return this instanceof Exercise;
    }
}
