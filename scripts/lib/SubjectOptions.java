package lib;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The options that name the server under test, shared by the grader (scripts/check.sh) and the
 * race (scripts/bench.sh) as a picocli mixin, with one set of rules and messages: the exercise
 * unless one of --solution, --file, --command or --url says otherwise; --pid only with --url.
 * The race's older spellings, --solution-vs-solution and --learner, mean the same.
 */
public final class SubjectOptions {
    @Option(names = "--solution", description = "the reference solution instead of the exercise (the race: against itself, a sanity check)")
    boolean solution;

    @Option(names = "--solution-vs-solution", hidden = true, description = "the race's older spelling of --solution")
    void selfRace(boolean given) {
        solution |= given;
    }

    @Option(names = "--file", paramLabel = "FILE", description = "another server file of the chapter (e.g. a copy you are trying out) instead of the exercise")
    Path file;

    @Option(names = "--learner", hidden = true, paramLabel = "FILE", description = "the race's older spelling of --file")
    void learner(Path given) {
        file = given;
    }

    @Option(names = "--command", paramLabel = "\"CMD\"", description = {"a server in any language, started as CMD --port 0 and the chapter's options",
            "(e.g. --command \"python3 server.py\"); it must print the ready line"})
    String command;

    @Option(names = "--url", paramLabel = "URL", description = "a server that is already running (any language or framework)")
    String url;

    @Option(names = "--pid", paramLabel = "PID", description = "with --url: its process, for the figures read from threads, files, CPU and memory")
    Long pid;

    /** The server these options name; a {@link CommandError} (usage) when they name two, or --pid without --url, or a file that is not there. */
    public Subject subject() {
        List<String> named = new ArrayList<>();
        if (solution) named.add("--solution");
        if (file != null) named.add("--file");
        if (command != null) named.add("--command");
        if (url != null) named.add("--url");
        if (named.size() > 1) throw CommandError.usage("one server at a time: " + String.join(" or ", named) + ", not both");
        if (pid != null && url == null) throw CommandError.usage("--pid goes with --url");
        if (solution) return new Subject.Solution();
        if (file != null) {
            Path path = file.toAbsolutePath().normalize();
            if (!Files.isRegularFile(path)) throw CommandError.usage("no file " + file + " (--file): give the path of a server's .java file");
            return new Subject.File(path);
        }
        if (command != null) {
            try {
                return new Subject.Command(command);
            } catch (IllegalArgumentException e) {
                throw CommandError.usage(e.getMessage());
            }
        }
        if (url != null) {
            try {
                Target.running(url, pid); // a URL it cannot read is a usage error, before anything starts
            } catch (IllegalArgumentException e) {
                throw CommandError.usage(e.getMessage());
            }
            return new Subject.Running(url, pid);
        }
        return new Subject.Exercise();
    }
}
