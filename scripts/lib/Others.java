package lib;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * What the rest of the machine took while the race or a check ran: the CPU time that processes
 * other than its own (this JVM, the servers, Bombardier and the backend: every descendant of this
 * process, and a server given by its PID) used, as a share of one core. On Linux, from {@code /proc/stat} (user, nice and system
 * time of every CPU; interrupts left out) less the race's own processes ({@code /proc/PID/stat}:
 * their time and that of the children they have waited for, so a Bombardier that has exited still
 * counts as the race's) and less the kernel's threads (which move the race's packets on loopback).
 * Elsewhere it cannot tell, and says so: {@link #take} gives null.
 */
public final class Others {
    private Others() {}

    /** Others using this share of a core or more during a turn make it a busy turn. */
    static final double BUSY_CORES = 0.1;

    /** How long a busy turn waits before it is run again. */
    public static final long RETRY_PAUSE_MILLIS = 2000;

    /** The kernel's flag of its own threads in /proc/PID/stat (PF_KTHREAD). */
    private static final long KERNEL_THREAD = 0x00200000L;

    /** The CPU counters at one moment, in clock ticks: the machine's busy time, the race's own processes', the kernel threads'. */
    public record Snapshot(long nanos, long busy, long ours, long kernel) {}

    /**
     * Others using this share of a core or more during a check that failed make its machine a busy
     * one: the grader runs it again alone, and says so if it fails again. Higher than a race's
     * floor: a check's margins are wide, and an idle browser must not excuse a real mistake.
     */
    public static final double BUSY_CORES_FOR_CHECKS = 0.5;

    /**
     * The environment variable that names a process whose whole tree is ours too: the self-test's
     * lanes grade side by side, and name the suite that started them, so that one lane's servers
     * are not the other's busy machine.
     */
    static final String OURS = "COURSE_OURS_PID";

    /** The counters now; null where they cannot be read (not Linux). */
    public static Snapshot take() {
        return take(java.util.Set.of());
    }

    /** The counters now, with {@code alsoOurs} (a server not started here, given by its PID) counted as ours. */
    public static Snapshot take(java.util.Set<Long> alsoOurs) {
        try {
            long busy = machineBusy(Files.readAllLines(Path.of("/proc/stat")).get(0));
            long ours = 0;
            long kernel = 0;
            java.util.Set<Long> race = new java.util.HashSet<>();
            race.add(ProcessHandle.current().pid());
            race.addAll(alsoOurs);
            String tree = System.getenv(OURS);
            if (tree != null && tree.matches("\\d{1,18}")) {
                ProcessHandle.of(Long.parseLong(tree)).ifPresent(h -> {
                    race.add(h.pid());
                    h.descendants().forEach(d -> race.add(d.pid()));
                });
            }
            ProcessHandle.current().descendants().forEach(h -> race.add(h.pid()));
            try (var dirs = Files.newDirectoryStream(Path.of("/proc"), p -> p.getFileName().toString().chars().allMatch(Character::isDigit))) {
                for (Path dir : dirs) {
                    long pid = Long.parseLong(dir.getFileName().toString());
                    long[] f;
                    try {
                        f = Inspect.statFields(Files.readString(dir.resolve("stat"))); // flags, utime, stime, cutime, cstime
                    } catch (IOException | RuntimeException e) {
                        continue; // gone meanwhile
                    }
                    if (race.contains(pid)) ours += f[1] + f[2] + f[3] + f[4];
                    else if ((f[0] & KERNEL_THREAD) != 0) kernel += f[1] + f[2];
                }
            }
            return new Snapshot(System.nanoTime(), busy, ours, kernel);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** The user, nice and system ticks of the "cpu" line of /proc/stat (every CPU together). */
    public static long machineBusy(String cpuLine) {
        String[] f = cpuLine.trim().split("\\s+");
        if (!f[0].equals("cpu")) throw new IllegalArgumentException("not the cpu line of /proc/stat: " + cpuLine);
        return Long.parseLong(f[1]) + Long.parseLong(f[2]) + Long.parseLong(f[3]);
    }

    /** Clock ticks a second (USER_HZ): 100 on Linux everywhere but a few rare builds, which getconf names. */
    static final long TICKS = ticks();

    private static long ticks() {
        try {
            Process p = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes()).strip();
            p.waitFor();
            return Long.parseLong(out);
        } catch (IOException | RuntimeException | InterruptedException e) {
            return 100;
        }
    }

    /** The share of a core that others used between two snapshots (never below 0); NaN when either is unknown. */
    public static double cores(Snapshot from, Snapshot to) {
        return cores(from, to, TICKS);
    }

    public static double cores(Snapshot from, Snapshot to, long ticksPerSecond) {
        if (from == null || to == null || to.nanos() <= from.nanos()) return Double.NaN;
        long others = (to.busy() - from.busy()) - (to.ours() - from.ours()) - (to.kernel() - from.kernel());
        double seconds = (to.nanos() - from.nanos()) / 1e9;
        return Math.max(0, others) / (double) ticksPerSecond / seconds;
    }

    /** Whether a turn with others at {@code cores} was busy. */
    public static boolean busy(double cores) {
        return !Double.isNaN(cores) && cores >= BUSY_CORES;
    }

    /** Others' share of a core over {@code millis} from now; NaN where it cannot tell. */
    public static double look(long millis) {
        Snapshot from = take();
        if (from == null) return Double.NaN;
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return cores(from, take());
    }

    /** "0.9 of a core", "1.6 cores". */
    public static String words(double cores) {
        return cores >= 1.05 ? String.format(Locale.ROOT, "%.1f cores", cores) : String.format(Locale.ROOT, "%.1f of a core", cores);
    }

    /** The sentence a race says before it starts on a busy machine, or null when it is quiet (or cannot tell). */
    public static String before(double cores) {
        if (!busy(cores)) return null;
        return "this machine is busy before the race starts: other programs use " + words(cores)
                + "; close what you can (a build, a browser tab, a video call), or the race will say which turns they touched";
    }

    /**
     * What a result says when some of its measured runs were busy: "the machine was busy: other
     * processes used up to 0.9 of a core during 2 of 3 runs; race again when it is quiet", or null.
     */
    public static String note(List<Double> perRun) {
        long busy = perRun.stream().filter(Others::busy).count();
        if (busy == 0) return null;
        double most = perRun.stream().filter(c -> !Double.isNaN(c)).mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
        return "the machine was busy: other processes used up to " + words(most) + " during " + busy + " of " + perRun.size()
                + " measured runs (each run again once after a pause); race again when it is quiet";
    }
}
