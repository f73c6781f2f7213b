import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * The CPU work behind {@code /cpu?ms=N}: a fixed loop of arithmetic, and how many turns of it
 * make a millisecond on this machine. Used by {@link Endpoints#burnCpu}, and by the race
 * (scripts/bench), which calibrates once and hands every server it starts the same figure in
 * {@value #ENV}: two servers calibrating for themselves, each while the machine is doing
 * something else, can differ by a tenth, and a race would then compare their work, not their models.
 */
final class CpuWork {
    /** The environment variable that, when it holds a positive number, is used instead of calibrating. */
    static final String ENV = "COURSE_CPU_UNITS_PER_MS";

    private CpuWork() {}

    /** Burns about {@code millis} ms of CPU time on the calling thread. */
    static void burn(long millis) {
        spin((long) (Units.PER_MILLI * millis));
    }

    /** The result of the arithmetic goes somewhere, so the JIT cannot drop the loop. */
    private static volatile long sink;

    /** A fixed amount of arithmetic: the same work whichever kind of thread runs it. */
    private static void spin(long units) {
        long x = 88172645463325252L + units;
        for (long i = 0; i < units; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
        }
        sink = x;
    }

    /** How many units of {@link #spin} make a millisecond: from {@value #ENV}, or measured on first use. */
    private static final class Units {
        static final double PER_MILLI = given(System.getenv(ENV));
    }

    /** The figure in {@code value} when it is a positive number, else a fresh calibration. */
    static double given(String value) {
        try {
            double units = value == null ? Double.NaN : Double.parseDouble(value.strip());
            if (units > 0 && Double.isFinite(units)) return units;
        } catch (NumberFormatException e) {
            // not a number: calibrate
        }
        return calibrate();
    }

    // Measures on a platform thread (virtual threads report no CPU time). The code must live
    // outside Units: a thread touching Units would wait for Units' own initialisation, forever.
    /** Units of work per millisecond of this thread's CPU time: the best of ten timings, after the JIT has compiled the loop. */
    static double calibrate() {
        double[] result = new double[1];
        Thread t = Thread.ofPlatform().name("cpu-calibration").start(() -> {
            ThreadMXBean mx = ManagementFactory.getThreadMXBean();
            boolean cpuClock = mx.isCurrentThreadCpuTimeSupported();
            long units = 2_000_000;
            for (int i = 0; i < 20; i++) spin(units);          // let the JIT compile the loop
            long best = Long.MAX_VALUE;
            for (int i = 0; i < 10; i++) {
                long start = cpuClock ? mx.getCurrentThreadCpuTime() : System.nanoTime();
                spin(units);
                best = Math.min(best, (cpuClock ? mx.getCurrentThreadCpuTime() : System.nanoTime()) - start);
            }
            result[0] = units / Math.max(best / 1e6, 1e-3);
        });
        try {
            t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return result[0];
    }
}
