package bench;

import contract.BenchReport;
import contract.Cpus;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** What the report says about the machine a race ran on: CPUs, memory, OS, Java, JBang, Bombardier, pinning. */
public final class MachineFacts {
    private MachineFacts() {}

    /** Whether servers and Bombardier can be given CPUs of their own: taskset is there and there are at least 2 CPUs. */
    static boolean canPin() {
        return onPath("taskset") && Runtime.getRuntime().availableProcessors() >= 2;
    }

    /** The CPUs of this machine, shared as {@code --server-cpus} asks (0: the default split). */
    static Cpus cpus(int serverCpus) {
        return new Cpus(Runtime.getRuntime().availableProcessors(), canPin(), serverCpus);
    }

    static BenchReport.Machine read(String jbang, String bombardierVersion, Cpus cpus) {
        int cores = Runtime.getRuntime().availableProcessors();
        Long memory = ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getTotalMemorySize() : null;
        Long maxOpenFiles = ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.UnixOperatingSystemMXBean os
                ? os.getMaxFileDescriptorCount() : null;
        String pinning = cpus.canPin() ? "CPUs " + cpus.rule()
                : cpus.rule() + ", so expect more spread";
        return new BenchReport.Machine(cores, cpuModel(), memory,
                new BenchReport.Os(System.getProperty("os.name"), System.getProperty("os.version"), System.getProperty("os.arch")),
                "Java " + Runtime.version() + " (" + System.getProperty("java.vendor") + ")", jbangVersion(jbang), cpus.canPin(), pinning,
                "other programs running on this machine at the same time skew the figures", bombardierVersion, maxOpenFiles, null,
                counters(Path.of("/sys/bus/event_source/devices"), Path.of("/proc/sys/kernel/perf_event_paranoid")));
    }

    /**
     * Whether this machine could count the instructions a server retires, a figure of its work
     * that moves neither with the clock's frequency nor with the other core's load, and why not,
     * in one sentence: the kernel lists hardware counters as an event source under {@code devices}
     * ("cpu", "cpu_core" on hybrid x86, an "armv8_pmuv3" on ARM); virtual machines often hide them.
     * The race reads CPU time either way.
     */
    public static String counters(Path devices, Path paranoid) {
        if (!Files.isDirectory(devices)) return "instructions retired: not readable here (no perf events in /sys: not Linux?); CPU time decides";
        boolean hardware;
        try (var names = Files.list(devices)) {
            hardware = names.map(p -> p.getFileName().toString()).anyMatch(n -> n.equals("cpu") || n.startsWith("cpu_") || n.contains("pmu"));
        } catch (IOException e) {
            hardware = false;
        }
        if (!hardware) {
            return "instructions retired: not readable here, since this machine shows no hardware performance counters"
                    + " (a virtual machine often hides them); CPU time decides";
        }
        String level;
        try {
            level = Files.readString(paranoid).strip();
        } catch (IOException e) {
            level = "unknown";
        }
        return "instructions retired: this machine has hardware performance counters (perf_event_paranoid " + level
                + "), which the race does not read; CPU time decides";
    }

    static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) return line.substring(line.indexOf(':') + 1).strip();
            }
        } catch (IOException | RuntimeException e) {
            // not Linux
        }
        return System.getProperty("os.arch");
    }

    static String jbangVersion(String jbang) {
        try {
            Process p = new ProcessBuilder(jbang, "--version").redirectErrorStream(true).start();
            String v = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            p.waitFor();
            return v.lines().reduce((a, b) -> b).orElse("unknown");
        } catch (IOException | InterruptedException e) {
            return "unknown";
        }
    }

    static boolean onPath(String command) {
        String path = System.getenv("PATH");
        if (path == null) return false;
        for (String dir : path.split(java.io.File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, command))) return true;
        }
        return false;
    }
}
