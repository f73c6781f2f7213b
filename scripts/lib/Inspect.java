package lib;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * Looks inside the running server process: its threads (a JSON thread dump, virtual threads
 * included), its open file descriptors, its CPU time, and JFR events. For a JVM it asks the JVM
 * (the JDK's jcmd, and the attach API), which works on every OS; Linux's /proc is read where it
 * is there, and lsof, ps or Windows' PowerShell for a process in another language elsewhere.
 * {@code COURSE_PORTABLE_INSPECT=1} (or the system property {@code course.inspect=portable})
 * makes it act as on a machine without /proc: the self-test proves the macOS and Windows paths so.
 */
public final class Inspect {
    /** One thread from a thread dump. */
    public record ThreadInfo(String name, String state, boolean virtual, List<String> stack, String tid, String carrier) {
        public ThreadInfo {
            stack = stack == null ? List.of() : stack;
        }

        public ThreadInfo(String name, String state, boolean virtual, List<String> stack) {
            this(name, state, virtual, stack, null, null);
        }

        public ThreadInfo(String name, String state, boolean virtual, List<String> stack, String tid) {
            this(name, state, virtual, stack, tid, null);
        }

        /** The thread's name, or what it is where it has none: "a virtual thread without a name (#41)". */
        public String label() {
            return label(name, virtual, tid);
        }

        public static String label(String name, boolean virtual, Object tid) {
            if (name != null && !name.isBlank()) return name;
            return (virtual ? "a virtual thread" : "a thread") + " without a name" + (tid == null ? "" : " (#" + tid + ")");
        }
    }

    /** The parts of a JSON thread dump read here: each container's threads ({@code virtual} is absent for platform threads). */
    private record ThreadDump(Body threadDump) {
        record Body(List<Container> threadContainers) {}

        record Container(List<ThreadInfo> threads) {}
    }

    private final long pid;
    /** Whether to read Linux's /proc. */
    private final boolean proc;
    /** The JDK's jcmd, pointed at the server. */
    private final Jcmd jcmd;

    public Inspect(long pid) {
        this(pid, procWanted());
    }

    public Inspect(long pid, boolean proc) {
        this.pid = pid;
        this.proc = proc;
        this.jcmd = new Jcmd(pid, proc);
    }

    /** /proc is read where it is there, unless the portable paths are asked for. */
    public static boolean procWanted() {
        boolean portable = "1".equals(System.getenv("COURSE_PORTABLE_INSPECT")) || "portable".equals(System.getProperty("course.inspect"));
        return !portable && Files.isDirectory(Path.of("/proc/self"));
    }

    /**
     * Every thread of the server, platform and virtual, from {@code jcmd PID Thread.dump_to_file
     * -format=json}; a dump that does not read whole is taken once more, then is {@link Jcmd.Failed}.
     */
    public List<ThreadInfo> threads() throws IOException {
        List<String> cut = new ArrayList<>();
        for (int attempt = 0; attempt < 2; attempt++) {
            Path file = Files.createTempFile("threads-", ".json");
            Files.delete(file); // jcmd refuses to overwrite
            try {
                jcmd.run("Thread.dump_to_file", "-format=json", file.toString());
                String dump = Files.readString(file);
                try {
                    return threads(dump);
                } catch (IllegalArgumentException e) {
                    cut.add(dump.length() + " characters");
                }
            } finally {
                Files.deleteIfExists(file);
            }
        }
        throw jcmd.failed("the JVM's thread dump (jcmd " + pid + " Thread.dump_to_file) did not read whole, twice (" + String.join(", then ", cut) + ")");
    }

    /** The threads of a JSON thread dump, from every container. */
    public static List<ThreadInfo> threads(String dumpJson) {
        ThreadDump dump = Jackson.read(dumpJson, ThreadDump.class);
        List<ThreadInfo> threads = new ArrayList<>();
        if (dump.threadDump() == null || dump.threadDump().threadContainers() == null) return threads;
        for (ThreadDump.Container c : dump.threadDump().threadContainers()) {
            if (c.threads() != null) threads.addAll(c.threads());
        }
        return threads;
    }

    /** Platform threads only (what the OS schedules). */
    public List<ThreadInfo> platformThreads() throws IOException {
        return threads().stream().filter(t -> !t.virtual()).toList();
    }

    /**
     * Number of open file descriptors: Linux /proc; else lsof, which looks from outside (a server
     * out of descriptors cannot take the attach API's connection, so asking the JVM would wait);
     * else a JVM's own count (its UnixOperatingSystemMXBean, read by {@link InspectAgent}); or, on
     * Windows, the process's handles, sockets among them. Empty if unknown.
     */
    public OptionalInt openFiles() {
        Path fds = Path.of("/proc", String.valueOf(pid), "fd");
        if (proc && Files.isDirectory(fds)) {
            try (var list = Files.list(fds)) {
                return OptionalInt.of((int) list.count());
            } catch (IOException e) {
                return OptionalInt.empty();
            }
        }
        if (Tools.WINDOWS) {
            String handles = output("powershell", "-NoProfile", "-Command", "(Get-Process -Id " + pid + ").HandleCount");
            return handles != null && handles.matches("\\d+") ? OptionalInt.of(Integer.parseInt(handles)) : OptionalInt.empty();
        }
        OptionalInt listed = openFilesByLsof();
        return listed.isPresent() ? listed : openFilesByAgent();
    }

    /**
     * Each virtual thread's carrier and owner, by thread id ({@link Carried}), from InspectAgent's
     * probe; empty when the JVM cannot be asked.
     */
    public java.util.Optional<java.util.Map<Long, Carried>> carriers() {
        return agentSaid(InspectAgent.CARRIERS, "carriers").map(found -> {
            java.util.Map<Long, Carried> carriers = new java.util.HashMap<>();
            found.lines().map(l -> l.split("\t", 3)).filter(f -> f.length == 3)
                    .forEach(f -> carriers.put(Long.parseLong(f[0]), new Carried(f[1], f[2].equals("?") ? null : f[2])));
            return carriers;
        });
    }

    /** What InspectAgent, loaded with {@code args}, published as {@code property}; empty when the JVM cannot be asked or the agent failed ("!..."). */
    private java.util.Optional<String> agentSaid(String property, String args) {
        String found = Boolean.TRUE.equals(javaProcess()) ? InspectAgent.property(pid, property, args) : null;
        return found == null || found.startsWith("!") ? java.util.Optional.empty() : java.util.Optional.of(found);
    }

    /**
     * A virtual thread's carrier (the thread its scheduler runs it on) and, when its task works for a
     * Netty connection, the thread of that connection's event loop (else null).
     */
    public record Carried(String carrier, String owner) {}

    /** A thread that holds a value: its id, whether virtual, its name, and where (threadLocals, inheritableThreadLocals, scopedValueBindings). */
    public record Holder(long tid, boolean virtual, String name, String where) {}

    /** The threads that hold the string {@code value} in their locals or scoped values; empty when the JVM cannot be asked. */
    public java.util.Optional<List<Holder>> holders(String value) {
        return agentSaid(InspectAgent.HOLDS, "holds:" + value).map(found -> found.lines().map(l -> l.split("\t", 4)).filter(f -> f.length == 4)
                .map(f -> new Holder(Long.parseLong(f[0]), f[1].equals("virtual"), f[2], f[3])).toList());
    }

    /** The descriptors lsof lists for the process (numbered ones only: not its mapped libraries); empty without lsof. */
    public OptionalInt openFilesByLsof() {
        String listed = output("lsof", "-n", "-P", "-a", "-p", String.valueOf(pid), "-d", "0-1048575");
        return listed == null ? OptionalInt.empty() : OptionalInt.of((int) Math.max(0, listed.lines().count() - 1));
    }

    /** The JVM's own count of its descriptors, through {@link InspectAgent}; empty when it cannot be asked. */
    public OptionalInt openFilesByAgent() {
        String counted = Boolean.TRUE.equals(javaProcess()) ? InspectAgent.property(pid, InspectAgent.OPEN_FILES) : null;
        return counted != null && counted.matches("\\d+") ? OptionalInt.of(Integer.parseInt(counted)) : OptionalInt.empty();
    }

    /** What {@code command} printed, stripped, when it ran and exited 0; null otherwise (not installed, say). */
    private static String output(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            return p.waitFor() == 0 ? out : null;
        } catch (IOException | InterruptedException e) {
            return null;
        }
    }

    /** CPU time the whole process has used so far (user + system, all threads). */
    public Duration cpuTime() {
        return ProcessHandle.of(pid).flatMap(h -> h.info().totalCpuDuration())
                .orElseThrow(() -> new IllegalStateException("cannot read the CPU time of process " + pid));
    }

    /**
     * Resident memory of the process in bytes (Linux /proc, else ps, else Windows' working set),
     * heap, stacks and direct buffers alike; empty if unknown.
     */
    public OptionalLong residentBytes() {
        Path status = Path.of("/proc", String.valueOf(pid), "status");
        if (!proc && Tools.WINDOWS) {
            String set = output("powershell", "-NoProfile", "-Command", "(Get-Process -Id " + pid + ").WorkingSet64");
            return set != null && set.matches("\\d+") ? OptionalLong.of(Long.parseLong(set)) : OptionalLong.empty();
        }
        try {
            if (proc && Files.isReadable(status)) {
                for (String line : Files.readAllLines(status)) {
                    if (line.startsWith("VmRSS:")) return OptionalLong.of(Long.parseLong(line.replaceAll("\\D", "")) * 1024);
                }
                return OptionalLong.empty();
            }
            Process p = new ProcessBuilder("ps", "-o", "rss=", "-p", String.valueOf(pid)).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            return p.waitFor() == 0 && out.matches("\\d+") ? OptionalLong.of(Long.parseLong(out) * 1024) : OptionalLong.empty();
        } catch (IOException | InterruptedException | NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    /**
     * Heap in use right after a full GC, in bytes, with any collector: the sum of every heap
     * generation's "used" in {@code jcmd GC.heap_info} (Serial and Parallel list two, G1 one, ZGC
     * its ZHeap). A JVM limited to one CPU picks the Serial collector.
     */
    public long heapAfterGc() throws IOException {
        jcmd.run("GC.run");
        String info = jcmd.run("GC.heap_info");
        long used = heapUsed(info);
        if (used < 0) throw new IOException("cannot read the heap in use from jcmd GC.heap_info: " + info.strip());
        return used;
    }

    /** The bytes in use in a {@code GC.heap_info} text, summed over its generations; -1 if none is found. */
    public static long heapUsed(String heapInfo) {
        long total = -1;
        java.util.regex.Matcher m = java.util.regex.Pattern
                .compile("(?m)^\\s*(?!Metaspace|class space)\\S.*?\\bused (\\d+)([KMG])").matcher(heapInfo);
        while (m.find()) {
            String line = heapInfo.substring(heapInfo.lastIndexOf('\n', m.start(1)) + 1, m.start(1));
            if (!line.contains("total") && !line.contains("ZHeap") && !line.contains("Shenandoah")) continue;
            long unit = switch (m.group(2)) {
                case "K" -> 1024L;
                case "M" -> 1024L * 1024;
                default -> 1024L * 1024 * 1024;
            };
            total = Math.max(total, 0) + Long.parseLong(m.group(1)) * unit;
        }
        return total;
    }

    /**
     * From a Linux /proc/PID/stat (or task/TID/stat) line: flags, utime, stime, cutime and cstime
     * (fields 9 and 14 to 17; times in clock ticks). The command, in parentheses, may hold spaces
     * and parentheses: the fields start after the last ')'.
     */
    public static long[] statFields(String stat) {
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
        return new long[] {Long.parseLong(f[6]), Long.parseLong(f[11]), Long.parseLong(f[12]), Long.parseLong(f[13]), Long.parseLong(f[14])};
    }

    /** One OS thread's CPU time so far: {@code tid} the OS's id of the thread. */
    public record ThreadCpu(long tid, String name, Duration cpu) {}

    /**
     * CPU time per OS thread: Linux /proc ({@code schedstat} in nanoseconds, or {@code stat} in
     * clock ticks of 10 ms), for any process; elsewhere, for a JVM, its own account
     * ({@code jcmd Thread.print}: each thread's {@code cpu=} and native id). Empty if unknown.
     */
    public List<ThreadCpu> threadCpu() {
        List<ThreadCpu> all = new ArrayList<>();
        Path tasks = Path.of("/proc", String.valueOf(pid), "task");
        if (!proc || !Files.isDirectory(tasks)) {
            if (!Boolean.TRUE.equals(javaProcess())) return all;
            try {
                return threadCpu(jcmd.run("Thread.print"));
            } catch (IOException | Unavailable e) {
                return all;
            }
        }
        try (var list = Files.list(tasks)) {
            for (Path task : list.toList()) {
                try {
                    String name = Files.readString(task.resolve("comm")).strip();
                    Duration cpu;
                    Path schedstat = task.resolve("schedstat");
                    if (Files.isReadable(schedstat)) {
                        cpu = Duration.ofNanos(Long.parseLong(Files.readString(schedstat).strip().split("\\s+")[0]));
                    } else {
                        long[] f = statFields(Files.readString(task.resolve("stat")));
                        cpu = Duration.ofMillis((f[1] + f[2]) * 10); // utime + stime, in ticks of 10 ms
                    }
                    all.add(new ThreadCpu(Long.parseLong(task.getFileName().toString()), name, cpu));
                } catch (IOException | RuntimeException e) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException e) {
            return List.of();
        }
        return all;
    }

    private static final java.util.regex.Pattern PRINTED_THREAD = java.util.regex.Pattern.compile(
            "(?m)^\"(.*)\" .*?\\bcpu=([0-9.]+)(ms|s)\\b.*?\\bnid=(0x[0-9a-fA-F]+|\\d+)");

    /** Each thread of a {@code jcmd Thread.print} (platform threads, the JVM's own among them) with its CPU time. */
    public static List<ThreadCpu> threadCpu(String printed) {
        List<ThreadCpu> all = new ArrayList<>();
        java.util.regex.Matcher m = PRINTED_THREAD.matcher(printed);
        while (m.find()) {
            double amount = Double.parseDouble(m.group(2));
            long nanos = (long) (amount * (m.group(3).equals("s") ? 1e9 : 1e6));
            String nid = m.group(4);
            long tid = nid.startsWith("0x") ? Long.parseLong(nid.substring(2), 16) : Long.parseLong(nid);
            all.add(new ThreadCpu(tid, m.group(1), Duration.ofNanos(nanos)));
        }
        return all;
    }

    /**
     * Number of OS threads of the process (Linux /proc; a JVM's threads in {@code jcmd
     * Thread.print}; ps -M); empty if unknown. Virtual threads are not OS threads.
     */
    public OptionalInt osThreads() {
        Path status = Path.of("/proc", String.valueOf(pid), "status");
        if ((!proc || !Files.isReadable(status)) && Boolean.TRUE.equals(javaProcess())) {
            try {
                return OptionalInt.of(threadCpu(jcmd.run("Thread.print")).size());
            } catch (IOException | Unavailable e) {
                return OptionalInt.empty();
            }
        }
        try {
            if (proc && Files.isReadable(status)) {
                for (String line : Files.readAllLines(status)) {
                    if (line.startsWith("Threads:")) return OptionalInt.of(Integer.parseInt(line.substring(8).strip()));
                }
                return OptionalInt.empty();
            }
            Process p = new ProcessBuilder("ps", "-M", "-p", String.valueOf(pid)).redirectErrorStream(true).start();
            long lines = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().count();
            return p.waitFor() == 0 && lines > 1 ? OptionalInt.of((int) lines - 1) : OptionalInt.empty();
        } catch (IOException | InterruptedException | NumberFormatException e) {
            return OptionalInt.empty();
        }
    }

    /**
     * The OS's context switches (voluntary and not) of each of its threads so far, by thread id,
     * from Linux's /proc ({@link ContextSwitches}); empty where /proc does not show them (macOS,
     * Windows, the portable inspection) or the process is gone.
     */
    public java.util.Optional<java.util.Map<Long, Long>> contextSwitches() {
        Path tasks = Path.of("/proc", String.valueOf(pid), "task");
        if (!proc || !Files.isDirectory(tasks)) return java.util.Optional.empty();
        java.util.Map<Long, Long> each = ContextSwitches.read(tasks);
        return each.isEmpty() ? java.util.Optional.empty() : java.util.Optional.of(each);
    }

    /** The process's soft limit on open files (Linux /proc/PID/limits, or a JVM's own count); empty if unknown or unlimited. */
    public OptionalLong maxOpenFiles() {
        Path limits = Path.of("/proc", String.valueOf(pid), "limits");
        if (!proc || !Files.isReadable(limits)) {
            String max = Boolean.TRUE.equals(javaProcess()) ? InspectAgent.property(pid, InspectAgent.MAX_OPEN_FILES) : null;
            return max != null && max.matches("\\d+") ? OptionalLong.of(Long.parseLong(max)) : OptionalLong.empty();
        }
        try {
            for (String line : Files.readAllLines(limits)) {
                if (line.startsWith("Max open files")) {
                    String soft = line.substring("Max open files".length()).strip().split("\\s+")[0];
                    return soft.matches("\\d+") ? OptionalLong.of(Long.parseLong(soft)) : OptionalLong.empty();
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or the process is gone
        }
        return OptionalLong.empty();
    }

    /**
     * Records JFR events while {@code during} runs, and returns those named {@code eventNames}.
     * Uses the JDK's default settings (for example jdk.VirtualThreadPinned over 20 ms).
     */
    public List<RecordedEvent> record(Runnable during, String... eventNames) throws IOException {
        return record(during, List.of(), eventNames);
    }

    /**
     * The same with JFR settings of its own instead of the defaults, such as
     * {@code settings=none +jdk.MethodTrace#enabled=true +jdk.MethodTrace#filter=CLASS::METHOD}
     * (Java 25 traces a method's calls in a running JVM, naming the calling thread).
     */
    public List<RecordedEvent> record(Runnable during, List<String> settings, String... eventNames) throws IOException {
        String name = "check-" + System.nanoTime();
        Path file = Files.createTempFile("check-", ".jfr");
        try {
            jfrStart(name, settings);
            try {
                during.run();
            } finally {
                jfrStop(name, file);
            }
            List<String> wanted = List.of(eventNames);
            return RecordingFile.readAllEvents(file).stream()
                    .filter(e -> wanted.contains(e.getEventType().getName())).toList();
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /** Starts a flight recording named {@code name}, with {@code settings} (the JDK's defaults when empty). */
    void jfrStart(String name, List<String> settings) throws IOException {
        List<String> start = new ArrayList<>(List.of("JFR.start", "name=" + name));
        start.addAll(settings);
        jcmd.run(start.toArray(String[]::new));
    }

    /** Writes the recording {@code name} to {@code file} and stops it. */
    void jfrStop(String name, Path file) throws IOException {
        try {
            jcmd.run("JFR.dump", "name=" + name, "filename=" + file);
        } finally {
            jcmd.run("JFR.stop", "name=" + name);
        }
    }

    /** Stops the recording {@code name}, writing nothing of it. */
    void jfrDiscard(String name) throws IOException {
        jcmd.run("JFR.stop", "name=" + name);
    }

    /** Whether the server is a JVM: true, false, or null when it cannot be told ({@link Jcmd#javaProcess}). */
    public Boolean javaProcess() {
        return jcmd.javaProcess();
    }
}
