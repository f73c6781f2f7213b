package test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Commands the tests run to their end: the output in a log, a limit in time, and a command that
 * overruns stopped with everything it started. RoomTest, SiteTest, NoShellTests and TestBench's
 * races all run their scripts this way; Suite runs the self-test's programs with {@link #follow},
 * which also hands on each line as it is printed.
 */
final class Commands {
    private Commands() {}

    /** How a command ended: its exit status (-1: it did not end within {@code limit}) and the log of its output. */
    record Ended(int status, Path log, Duration limit) {
        boolean ok() {
            return status == 0;
        }

        /** Its whole output. */
        String output() throws IOException {
            return Files.exists(log) ? Files.readString(log) : "";
        }

        /** "exit N: " and its last {@code lines} lines of output, or that it did not end in time. */
        String said(int lines) throws IOException {
            if (status == -1) return "did not end in " + limit.toMinutes() + " minutes (" + log + ")";
            List<String> all = output().lines().toList();
            return "exit " + status + ": " + String.join(" ", all.subList(Math.max(0, all.size() - lines), all.size()));
        }
    }

    /** Runs {@code command} to its end, at most {@code limit}, its output (and errors) in {@code log}. */
    static Ended run(ProcessBuilder command, Path log, Duration limit) throws IOException, InterruptedException {
        Files.createDirectories(log.toAbsolutePath().getParent());
        Process p = command.redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
            stop(p);
            return new Ended(-1, log, limit);
        }
        return new Ended(p.exitValue(), log, limit);
    }

    /** The same for a command line. */
    static Ended run(Path log, Duration limit, String... command) throws IOException, InterruptedException {
        return run(new ProcessBuilder(command), log, limit);
    }

    /** A command started with {@link #start}: the process, and the thread that hands on its output. */
    record Started(Process process, Thread reader) {}

    /**
     * Starts {@code command}, its output (and errors) going to {@code log} and, line by line as
     * each is printed, to {@code line}; it ends when the process does.
     */
    static Started start(ProcessBuilder command, Path log, Consumer<String> line) throws IOException {
        Files.createDirectories(log.toAbsolutePath().getParent());
        Process p = command.redirectErrorStream(true).start();
        Thread reader = Thread.ofPlatform().daemon().name("output of " + command.command().getFirst()).start(() -> {
            try (var in = new java.io.BufferedReader(new java.io.InputStreamReader(p.getInputStream(), java.nio.charset.StandardCharsets.UTF_8));
                 var out = Files.newBufferedWriter(log)) {
                for (String s; (s = in.readLine()) != null; ) {
                    out.write(s);
                    out.newLine();
                    out.flush();
                    line.accept(s);
                }
            } catch (IOException e) {
                line.accept("(could not read its output: " + e.getMessage() + ")");
            }
        });
        return new Started(p, reader);
    }

    /**
     * Runs {@code command} to its end, at most {@code limit}, like {@link #run}, handing each line
     * of its output to {@code line} as soon as it is printed (a CI log shows where the run is).
     */
    static Ended follow(ProcessBuilder command, Path log, Duration limit, Consumer<String> line)
            throws IOException, InterruptedException {
        Started started = start(command, log, line);
        Process p = started.process();
        boolean ended = p.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS);
        if (!ended) stop(p);
        started.reader().join(10_000);
        return new Ended(ended ? p.exitValue() : -1, log, limit);
    }

    /** Stops a process and whatever it started: politely, then, after 10 s, forcibly. */
    static void stop(Process p) throws InterruptedException {
        List<ProcessHandle> children = p.descendants().toList();
        p.destroy();
        p.waitFor(10, TimeUnit.SECONDS);
        children.forEach(ProcessHandle::destroy);
        p.destroyForcibly();
        children.forEach(ProcessHandle::destroyForcibly);
    }
}
