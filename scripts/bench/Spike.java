package bench;

import contract.BenchReport;
import contract.Plan;
import contract.Stats;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;
import lib.Painter;

/**
 * The spikes ({@code --spike}): each server in turn gets GET /io?ms=200 at {@link #BASE}
 * connections (its baseline), then {@link #PEAK} for {@link #PEAK_SECONDS} s, then {@link #BASE}
 * again, {@link #CYCLES} times. Bombardier cannot report a rate second by second, so the load
 * runs in windows of {@link #WINDOW_SECONDS} s, and a server has recovered at the first window
 * after a spike within {@link #RECOVERED_WITHIN_PERCENT}% of its baseline, with no failed
 * request: the time to recover is counted in whole windows. After each cycle, its threads and
 * open files are compared with the baseline's: a server that keeps what a spike made it open
 * leaks.
 */
public final class Spike {
    private Spike() {}

    static final String PATH = "/io?ms=200";
    public static final int BASE = 1000, PEAK = 8000, CYCLES = 3, WINDOW_SECONDS = 2, PEAK_SECONDS = 5, BASELINE_WINDOWS = 3;
    /** Windows tried after a spike before the server counts as not recovered: 10 s. */
    static final int MAX_AFTER_WINDOWS = 5;
    static final double RECOVERED_WITHIN_PERCENT = 5;
    /** More than the baseline's threads or files by this share and this count is a leak. */
    static final double LEFT_PERCENT = 10;
    static final int LEFT_COUNT = 16;

    /** The spike as a workload, for the CPU split (the servers get every CPU: the load is GET /io). */
    static final Plan.Workload WORKLOAD = new Plan.Workload("spike", Plan.Group.SPIKE, "GET /io?ms=200, " + BASE + " connections with spikes to " + PEAK,
            PATH, PEAK, 200);

    /** One server through the spikes. */
    static BenchReport.SpikeServer run(Server s, Bombardier bombardier, Progress progress) {
        if (s.gone() != null) return skipped(s, s.gone());
        String missing = LoadRace.probe(s, WORKLOAD);
        if (missing != null) return skipped(s, missing);
        int timeout = WORKLOAD.timeoutSeconds();
        List<BenchReport.SpikeWindow> windows = new ArrayList<>();
        long start = System.nanoTime();
        progress.step("spike: " + s.id + " warms up at " + BASE + " connections", WINDOW_SECONDS + 1);
        window(bombardier, s, BASE, WINDOW_SECONDS, timeout, "warm-up", 0, start); // discarded
        List<Double> base = new ArrayList<>();
        long baseFailed = 0;
        for (int i = 0; i < BASELINE_WINDOWS; i++) {
            progress.step("spike: " + s.id + " baseline " + (i + 1) + "/" + BASELINE_WINDOWS, WINDOW_SECONDS + 1);
            BenchReport.SpikeWindow w = window(bombardier, s, BASE, WINDOW_SECONDS, timeout, "baseline", 0, start);
            windows.add(w);
            base.add(Stats.known(w.rps()));
            baseFailed += w.failed();
        }
        double baseline = Stats.median(base);
        if (baseFailed > 0 || !(baseline > 0)) {
            return new BenchReport.SpikeServer(s.id, "its baseline at " + BASE + " connections already lost " + baseFailed
                    + " requests (failed, or no answer in time): a spike cannot show a recovery (see the ramp)", Stats.figure(baseline), null, null, List.of(), windows, List.of());
        }
        Integer threads0 = orNull(s.osThreads()), files0 = orNull(s.openFiles());
        List<BenchReport.SpikeCycle> cycles = new ArrayList<>();
        List<String> flags = new ArrayList<>();
        for (int c = 1; c <= CYCLES; c++) {
            progress.step("spike: " + s.id + " spike " + c + "/" + CYCLES + " to " + PEAK + " connections", PEAK_SECONDS + 1);
            BenchReport.SpikeWindow peak = window(bombardier, s, PEAK, PEAK_SECONDS, timeout, "spike", c, start);
            windows.add(peak);
            List<BenchReport.SpikeWindow> after = new ArrayList<>();
            for (int i = 0; i < MAX_AFTER_WINDOWS; i++) {
                progress.step("spike: " + s.id + " after spike " + c + ", window " + (i + 1), WINDOW_SECONDS + 1);
                BenchReport.SpikeWindow w = window(bombardier, s, BASE, WINDOW_SECONDS, timeout, "after", c, start);
                after.add(w);
                windows.add(w);
                if (back(w, baseline)) break;
            }
            Integer back = recoveredAfterSeconds(after, baseline);
            Integer threads = orNull(s.osThreads()), files = orNull(s.openFiles());
            cycles.add(new BenchReport.SpikeCycle(c, peak.rps(), peak.failed(), peak.p99Ms(), back, threads, files));
            if (back == null) flags.add("not back within " + RECOVERED_WITHIN_PERCENT + "% of its baseline " + MAX_AFTER_WINDOWS * WINDOW_SECONDS + " s after spike " + c);
            String left = leftOver("threads", threads0, threads);
            if (left == null) left = leftOver("open files", files0, files);
            if (left != null) flags.add("after spike " + c + ": " + left);
            if (!s.alive()) {
                s.stoppedAnswering("the server exited during spike " + c);
                flags.add(s.gone());
                break;
            }
        }
        return new BenchReport.SpikeServer(s.id, null, Stats.figure(baseline), threads0, files0, cycles, windows, flags);
    }

    /** Whether a window after a spike is back: within the margin of the baseline, and nothing failed. */
    static boolean back(BenchReport.SpikeWindow w, double baseline) {
        return w.failed() == 0 && Stats.known(w.rps()) >= baseline * (1 - RECOVERED_WITHIN_PERCENT / 100);
    }

    /** Seconds of windows before the first one that was back (0: the first was), or null when none was. */
    public static Integer recoveredAfterSeconds(List<BenchReport.SpikeWindow> after, double baseline) {
        for (int i = 0; i < after.size(); i++) {
            if (back(after.get(i), baseline)) return i * WINDOW_SECONDS;
        }
        return null;
    }

    /** What stayed up past the margin, in words, or null. */
    public static String leftOver(String what, Integer before, Integer now) {
        if (before == null || now == null) return null;
        int allowed = before + Math.max(LEFT_COUNT, (int) Math.ceil(before * LEFT_PERCENT / 100));
        return now > allowed ? what + " " + before + " before the spikes, " + now + " after" : null;
    }

    private static BenchReport.SpikeWindow window(Bombardier b, Server s, int connections, int seconds, int timeout, String phase,
                                                  int cycle, long start) {
        double at = (System.nanoTime() - start) / 1e9;
        try {
            Bombardier.Result r = b.run(s.url + PATH, connections, seconds, timeout);
            return new BenchReport.SpikeWindow(Stats.figure(at), phase, cycle, connections, Stats.figure(r.rps()), r.errors() + r.non2xx(),
                    Stats.figure(r.p99Ms()));
        } catch (IOException e) { // a stall: connections got no answer in time, so every request of the window counts as failed
            return new BenchReport.SpikeWindow(Stats.figure(at), phase, cycle, connections, 0.0, connections, null);
        } finally {
            Bench.pause(100);
        }
    }

    private static BenchReport.SpikeServer skipped(Server s, String why) {
        return new BenchReport.SpikeServer(s.id, why, null, null, null, List.of(), List.of(), List.of());
    }

    private static Integer orNull(OptionalInt i) {
        return i.isPresent() ? i.getAsInt() : null;
    }

    static BenchReport.SpikeSummary summary(List<BenchReport.SpikeServer> servers) {
        return new BenchReport.SpikeSummary(PATH, BASE, PEAK, CYCLES, WINDOW_SECONDS, PEAK_SECONDS, RECOVERED_WITHIN_PERCENT, servers);
    }

    /** Per server: the baseline, then each spike and how long until the load was back, and threads and files then. */
    public static void print(PrintStream out, BenchReport.SpikeSummary spike, Painter p) {
        out.println();
        out.println(p.bold("The spikes") + String.format(Locale.ROOT, "  GET %s at %d connections, %d for %d s, back to %d; %d times. "
                + "Back: a %d s window within %s%% of the baseline, nothing failed", spike.path(), spike.base(), spike.peak(),
                spike.peakSeconds(), spike.base(), spike.cycles(), spike.windowSeconds(), Stats.millis(spike.recoveredWithinPercent())));
        for (BenchReport.SpikeServer s : spike.servers()) {
            if (s.skipReason() != null) {
                out.println(String.format(Locale.ROOT, "  %-10s ", s.server()) + p.dim("sat out: " + s.skipReason()));
                continue;
            }
            out.println(String.format(Locale.ROOT, "  %-10s baseline %s req/s, %s threads, %s open files", s.server(),
                    Stats.rate(Stats.known(s.baselineRps())), whole(s.baselineThreads()), whole(s.baselineFiles())));
            double max = s.windows().stream().mapToDouble(w -> Stats.known(w.rps())).filter(v -> !Double.isNaN(v)).max().orElse(0);
            out.println(String.format(Locale.ROOT, "  %-10s %s", "", Stats.sparkline(s.windows().stream().map(BenchReport.SpikeWindow::rps).toList(), max))
                    + p.dim("  req/s, window by window (the tall ones are the spikes)"));
            for (BenchReport.SpikeCycle c : s.cycles()) {
                String back = c.recoveredAfterSeconds() == null ? p.red("not back in " + MAX_AFTER_WINDOWS * WINDOW_SECONDS + " s")
                        : c.recoveredAfterSeconds() == 0 ? "back in the first window" : "back after " + c.recoveredAfterSeconds() + " s";
                out.println(String.format(Locale.ROOT, "  %-10s spike %d: %s req/s, %d failed, p99 %s ms; %s; %s threads, %s files",
                        "", c.cycle(), Stats.rate(Stats.known(c.peakRps())), c.peakFailed(), Stats.millis(Stats.known(c.peakP99Ms())), back,
                        whole(c.threads()), whole(c.files())));
            }
            for (String f : s.flags()) out.println(p.red("  ! ") + s.server() + ": " + f);
        }
    }

    private static String whole(Integer i) {
        return i == null ? "-" : String.valueOf(i);
    }
}
