package lib;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The JDK's {@code jcmd}, pointed at the server under test: {@link Inspect}'s way into a JVM's
 * threads, heap and flight recorder. A server that is not a JVM is told apart first, so a check
 * that needs jcmd is skipped with a sentence ({@link Unavailable}) rather than failed.
 */
public record Jcmd(long pid, boolean proc) {
    /** Runs {@code jcmd PID COMMAND...} and returns what it printed; {@link Failed} when it fails or takes over 30 s. */
    public String run(String... command) throws IOException {
        return run(Duration.ofSeconds(30), command);
    }

    /** {@link #run(String...)}, waiting at most {@code limit}. */
    public String run(Duration limit, String... command) throws IOException {
        if (Boolean.FALSE.equals(javaProcess())) throw notJava(command);
        List<String> args = new ArrayList<>();
        args.add(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString());
        args.add(String.valueOf(pid));
        args.addAll(List.of(command));
        // Its output goes to a file, so that the wait below is bounded: reading a pipe would wait as long as jcmd does.
        Path printed = Files.createTempFile("jcmd-", ".txt");
        try {
            Process p = new ProcessBuilder(args).redirectErrorStream(true).redirectOutput(printed.toFile()).start();
            try {
                if (!p.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
                    p.destroyForcibly();
                    throw failed("jcmd " + String.join(" ", command) + " took over " + limit.toSeconds() + " s");
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while running jcmd");
            }
            String out = Files.readString(printed, StandardCharsets.UTF_8);
            if (p.exitValue() != 0 || out.contains("Exception")) {
                if (out.contains("AttachNotSupportedException") && !Boolean.TRUE.equals(javaProcess())) throw notJava(command);
                throw failed("jcmd " + pid + " " + String.join(" ", command) + " failed: " + out.strip());
            }
            return out;
        } finally {
            Files.deleteIfExists(printed);
        }
    }

    /**
     * jcmd failed, or its answer came back cut short, while the server still runs: a look inside
     * the server failed, which says nothing of how the server behaves. A busy machine does it (the
     * attach API gives up after 10 s, a dump is cut short); the grader runs such a check again,
     * alone, before it gives a verdict.
     */
    public static final class Failed extends IOException {
        public Failed(String message) {
            super(message);
        }
    }

    /** {@link Failed} while the server runs; a plain IOException once it has exited, which is the server's doing. */
    IOException failed(String message) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)
                ? new Failed(message) : new IOException(message + " (process " + pid + " has exited)");
    }

    /**
     * Whether the server is a JVM, which jcmd can attach to: true or false when Linux's
     * /proc/PID/maps shows whether libjvm is loaded, else from the command's name; null if unknown.
     */
    Boolean javaProcess() {
        Path maps = Path.of("/proc", String.valueOf(pid), "maps");
        if (proc && Files.isReadable(maps)) {
            try (var lines = Files.lines(maps, StandardCharsets.ISO_8859_1)) {
                return lines.anyMatch(l -> l.contains("/libjvm."));
            } catch (IOException | java.io.UncheckedIOException e) {
                // gone, or not ours to read: ask the command's name
            }
        }
        return ProcessHandle.of(pid).flatMap(h -> h.info().command())
                .map(c -> Path.of(c).getFileName().toString().matches("java(\\.exe)?") ? Boolean.TRUE : null)
                .orElse(null);
    }

    /** Skips (aborts) a check that needs jcmd when the server is written in something other than Java. */
    private Unavailable notJava(String... command) {
        String what = command[0].startsWith("JFR") ? "JVM flight recorder events"
                : command[0].startsWith("GC") ? "the JVM's heap" : "a JVM thread dump";
        return new Unavailable("this check reads " + what + "; process " + pid + " is not a Java process");
    }
}
