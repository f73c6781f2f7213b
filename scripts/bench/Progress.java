package bench;

import contract.Plan;
import contract.Stats;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * One line on standard error that says what runs now and about how long is left, redrawn in
 * place, on a terminal only: output piped to a file or a log is the table, the verdicts and the
 * notes, nothing else.
 */
public final class Progress {
    private static final int WIDTH = 20;
    private final PrintStream err = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.err), true, StandardCharsets.UTF_8);
    private final boolean tty;
    private final double total;       // estimated seconds of the whole plan
    private final long started = System.nanoTime();
    private double doneEstimate;      // estimated seconds of the steps finished
    private double currentEstimate;
    private long currentStart;
    private String current = "";
    private Thread redraw;
    private int drawn;                // characters on the line now

    /** About how long starting the servers afresh for a fork takes. */
    public static final double RESTART_SECONDS = 5;

    public Progress(boolean tty, Plan.Mode mode, List<Plan.Workload> workloads, int servers) {
        this(tty, mode, workloads, servers, 0, true);
    }

    /**
     * The same, with {@code extra} seconds a server for a phase (the spikes, the soak); a race
     * that cannot {@code fork} (a server it did not start) runs each workload's turns in one
     * process, as {@link LoadRace} does, warmed up once.
     */
    public Progress(boolean tty, Plan.Mode mode, List<Plan.Workload> workloads, int servers, double extra, boolean fork) {
        this.tty = tty;
        double t = servers * extra;
        for (Plan.Workload w : workloads) {
            int forks = fork ? mode.forksFor(w) : 1;
            int runs = forks > 1 ? mode.runsPerFork(w) : mode.runsFor(w);
            t += w.idle() ? servers * 12.0
                    : forks * servers * (mode.warmupsFor(w, workloads) * (mode.warmupSeconds() + 1.0) + runs * (mode.runSecondsFor(w) + 1.0))
                            + (forks - 1) * RESTART_SECONDS;
        }
        this.total = t;
        if (tty) {
            redraw = Thread.ofPlatform().daemon().name("progress").start(() -> {
                while (true) {
                    try {
                        Thread.sleep(500);
                    } catch (InterruptedException e) {
                        return;
                    }
                    draw();
                }
            });
        }
    }

    /** A message of its own line (the bar, if any, is drawn again below it); on a terminal only. */
    synchronized void say(String line) {
        if (!tty) return;
        clear();
        err.println("bench: " + line);
        if (!current.isEmpty()) draw();
    }

    /** A new step starts, expected to take about {@code estimate} seconds. */
    synchronized void step(String what, double estimate) {
        finishCurrent();
        current = what;
        currentEstimate = estimate;
        currentStart = System.nanoTime();
        if (tty) draw();
    }

    /** A planned step that will not run (a skipped workload or a stopped server). */
    synchronized void skip(double estimate) {
        doneEstimate += estimate;
    }

    synchronized void done() {
        finishCurrent();
        current = "";
        if (redraw != null) redraw.interrupt();
        clear();
    }

    private void finishCurrent() {
        doneEstimate += currentEstimate;
        currentEstimate = 0;
    }

    /** The whole plan's estimated seconds. */
    public double estimate() {
        return total;
    }

    private double inCurrent() {
        return Math.min(currentEstimate, (System.nanoTime() - currentStart) / 1e9);
    }

    /** Seconds left: the estimate of what is left, scaled by how the estimates fared so far. */
    private double left() {
        double doneSoFar = doneEstimate + inCurrent();
        double elapsed = (System.nanoTime() - started) / 1e9;
        double pace = doneSoFar > 5 ? Math.max(0.7, Math.min(3, elapsed / doneSoFar)) : 1;
        return Math.max(0, total - doneSoFar) * pace;
    }

    private int percent() {
        return total <= 0 ? 100 : (int) Math.min(100, Math.round(100 * (doneEstimate + inCurrent()) / total));
    }

    private synchronized void draw() {
        if (!tty || current.isEmpty()) return;
        int filled = percent() * WIDTH / 100;
        String line = String.format(Locale.ROOT, "[%s%s] %3d%%  %s  ~%s left", "█".repeat(filled), "░".repeat(WIDTH - filled),
                percent(), current, Stats.duration(left()));
        err.print("\r" + line + " ".repeat(Math.max(0, drawn - line.length())));
        err.flush();
        drawn = line.length();
    }

    private void clear() {
        if (tty && drawn > 0) {
            err.print("\r" + " ".repeat(drawn) + "\r");
            err.flush();
            drawn = 0;
        }
    }
}
