import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * Looks inside the running server process: its threads (a JSON thread dump, virtual threads
 * included), its open file descriptors, its CPU time, and JFR events. Uses the JDK's own jcmd.
 */
final class Inspect {
    /** One thread from a thread dump. */
    record ThreadInfo(String name, String state, boolean virtual, List<String> stack) {}

    private final long pid;

    Inspect(long pid) {
        this.pid = pid;
    }

    /** Every thread of the server, platform and virtual, from {@code jcmd PID Thread.dump_to_file -format=json}. */
    List<ThreadInfo> threads() throws IOException {
        Path file = Files.createTempFile("threads-", ".json");
        Files.delete(file); // jcmd refuses to overwrite
        try {
            jcmd("Thread.dump_to_file", "-format=json", file.toString());
            Map<String, Object> dump = Json.object(Json.object(Json.parse(Files.readString(file))).get("threadDump"));
            List<ThreadInfo> threads = new ArrayList<>();
            for (Object c : Json.array(dump.get("threadContainers"))) {
                for (Object t : Json.array(Json.object(c).get("threads"))) {
                    Map<String, Object> thread = Json.object(t);
                    List<String> stack = Json.array(thread.get("stack")).stream().map(String::valueOf).toList();
                    threads.add(new ThreadInfo(String.valueOf(thread.get("name")), String.valueOf(thread.get("state")),
                            Boolean.TRUE.equals(thread.get("virtual")), stack));
                }
            }
            return threads;
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /** Platform threads only (what the OS schedules). */
    List<ThreadInfo> platformThreads() throws IOException {
        return threads().stream().filter(t -> !t.virtual()).toList();
    }

    /** Number of open file descriptors (Linux /proc, or lsof elsewhere); empty if unknown. */
    OptionalInt openFiles() {
        Path fds = Path.of("/proc", String.valueOf(pid), "fd");
        if (Files.isDirectory(fds)) {
            try (var list = Files.list(fds)) {
                return OptionalInt.of((int) list.count());
            } catch (IOException e) {
                return OptionalInt.empty();
            }
        }
        try {
            Process p = new ProcessBuilder("lsof", "-p", String.valueOf(pid)).redirectErrorStream(true).start();
            long lines = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().count();
            return p.waitFor() == 0 ? OptionalInt.of((int) Math.max(0, lines - 1)) : OptionalInt.empty();
        } catch (IOException | InterruptedException e) {
            return OptionalInt.empty();
        }
    }

    /** CPU time the whole process has used so far (user + system, all threads). */
    Duration cpuTime() {
        return ProcessHandle.of(pid).flatMap(h -> h.info().totalCpuDuration())
                .orElseThrow(() -> new IllegalStateException("cannot read the CPU time of process " + pid));
    }

    /**
     * Records JFR events while {@code during} runs, and returns those named {@code eventNames}.
     * Uses the JDK's default settings (for example jdk.VirtualThreadPinned over 20 ms).
     */
    List<RecordedEvent> record(Runnable during, String... eventNames) throws IOException {
        String name = "check-" + System.nanoTime();
        Path file = Files.createTempFile("check-", ".jfr");
        try {
            jcmd("JFR.start", "name=" + name);
            try {
                during.run();
            } finally {
                jcmd("JFR.dump", "name=" + name, "filename=" + file);
                jcmd("JFR.stop", "name=" + name);
            }
            List<String> wanted = List.of(eventNames);
            return RecordingFile.readAllEvents(file).stream()
                    .filter(e -> wanted.contains(e.getEventType().getName())).toList();
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private void jcmd(String... command) throws IOException {
        List<String> args = new ArrayList<>();
        args.add(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString());
        args.add(String.valueOf(pid));
        args.addAll(List.of(command));
        Process p = new ProcessBuilder(args).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("jcmd " + String.join(" ", command) + " took over 30 s");
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running jcmd");
        }
        if (p.exitValue() != 0 || out.contains("Exception")) {
            throw new IOException("jcmd " + pid + " " + String.join(" ", command) + " failed: " + out.strip());
        }
    }
}
