package bench;

import contract.BenchReport;
import contract.Plan;
import contract.Stats;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import lib.ContextSwitches;
import lib.Others;

/**
 * One server's part in one load workload: why it sits the workload out, if it does; its warm-ups
 * and measured runs; what went wrong (a failed run, a stall); and the result they make: medians,
 * totals, peaks, flags and notes.
 */
public final class Tally {
    /** At or above this share of its CPU, the load generator may be what limits the figures. */
    static final double SATURATED_LOAD_PERCENT = 90;

    /**
     * One run's figures, with what the sampler saw of the server meanwhile (-1 when unknown).
     * {@code othersCores}: what processes other than the race's used meanwhile, as a share of a
     * core ({@link Others}; NaN when this machine cannot tell). {@code steadyRps}: the steady rate, from two loads of different lengths (NaN when the run
     * was one load: its rate is then {@code load.rps()}), and {@code bound}, the server's
     * Little's-law bound (NaN when none); {@code percentOfBound}: of the plain rate, which no
     * server that waits as asked can pass. {@code contextSwitches}: the OS's context switches of
     * the server's threads during the run ({@link ContextSwitches}; -1 where /proc does not show them).
     */
    public record Run(Bombardier.Result load, double cpuSeconds, long peakRss, int peakThreads, double percentOfBound, double loadCpuPercent,
               double steadyRps, double bound, double othersCores, long contextSwitches) {
        public Run(Bombardier.Result load, double cpuSeconds, long peakRss, int peakThreads, double percentOfBound, double loadCpuPercent) {
            this(load, cpuSeconds, peakRss, peakThreads, percentOfBound, loadCpuPercent, Double.NaN, Double.NaN, Double.NaN, -1);
        }

        public Run(Bombardier.Result load, double cpuSeconds, long peakRss, int peakThreads, double percentOfBound, double loadCpuPercent,
            double steadyRps, double bound) {
            this(load, cpuSeconds, peakRss, peakThreads, percentOfBound, loadCpuPercent, steadyRps, bound, Double.NaN, -1);
        }

        /** The same run, with what other processes used meanwhile ({@link Others}: a share of a core, NaN when unknown). */
        public Run withOthers(double cores) {
            return new Run(load, cpuSeconds, peakRss, peakThreads, percentOfBound, loadCpuPercent, steadyRps, bound, cores, contextSwitches);
        }

        /** The same run, with the server's context switches meanwhile (-1 when unknown). */
        public Run withContextSwitches(long switches) {
            return new Run(load, cpuSeconds, peakRss, peakThreads, percentOfBound, loadCpuPercent, steadyRps, bound, othersCores, switches);
        }

        /** The server's context switches per 2xx answer of the run; NaN when they are unknown or nothing was answered. */
        double contextSwitchesPerRequest() {
            return ContextSwitches.perRequest(contextSwitches, load.ok());
        }

        /** The run's rate: the steady one when it was measured, else answers / the time Bombardier took. */
        double rps() {
            return Double.isNaN(steadyRps) ? load.rps() : steadyRps;
        }

        public BenchReport.RunFigures figures() {
            return new BenchReport.RunFigures(Stats.figure(rps()), Stats.figure(load.seconds()), load.ok(), load.non2xx(),
                    load.errors(), load.timeouts(), Stats.figure(load.p50Ms()), Stats.figure(load.p99Ms()), Stats.figure(load.maxMs()),
                    Stats.figure(cpuSeconds), peakRss < 0 ? null : peakRss, peakThreads < 0 ? null : peakThreads,
                    Stats.figure(Double.isNaN(steadyRps) ? percentOfBound : Stats.percentOf(steadyRps, bound)), Stats.figure(loadCpuPercent),
                    Stats.figure(othersCores), Stats.figure(contextSwitchesPerRequest()), null);
        }
    }

    final Server server;
    final String skipReason; // null when it takes part
    final List<Run> warmups = new ArrayList<>();
    public final List<Run> runs = new ArrayList<>();
    final List<String> problems = new ArrayList<>();
    public final List<String> stalls = new ArrayList<>();
    /** A run stalled: more would stall the same way, and take as long, so it is done with this workload. */
    boolean cut;
    /** How many measured runs were run again because other processes were busy ({@link Others}): at most one per run. */
    int retries;
    /** The fork running now (1, 2 ...), and where its warm-ups begin in {@link #warmups}. */
    private int fork = 1;
    private int forkWarmupsFrom;
    /** The fork of each measured run, when the workload has several (else empty). */
    private final List<Integer> forkOfRun = new ArrayList<>();
    private boolean forked;

    /** Begins fork {@code number} of a workload of {@code forks}: fresh processes warm up again. */
    void fork(int number, int forks) {
        fork = number;
        forked = forks > 1;
        forkWarmupsFrom = warmups.size();
    }

    /** The warm-ups of the fork running now. */
    List<Run> forkWarmups() {
        return warmups.subList(forkWarmupsFrom, warmups.size());
    }

    /** Records a measured run of the fork running now. */
    void measured(Run r) {
        runs.add(r);
        forkOfRun.add(fork);
    }

    public Tally(Server server, String skipReason) {
        this.server = server;
        this.skipReason = skipReason;
    }

    /** Whether the server sits out the rest of the workload: skipped, gone, or a run stalled. */
    boolean out() {
        return skipReason != null || server.gone() != null || cut;
    }

    /**
     * Whether a server needs another warm-up: fewer than the minimum, or the last one still
     * climbed by over 10%, in req/s or in CPU per answer (a tenth less). Two warm-ups can be as
     * slow as each other while the JIT is still at work; the CPU they spend an answer still falls.
     */
    public static boolean stillWarming(List<Run> warmups, int min, int max) {
        int n = warmups.size();
        if (n < min) return true;
        if (n >= max || n < 2) return false;
        Run last = warmups.get(n - 1), before = warmups.get(n - 2);
        if (last.rps() > 1.1 * before.rps()) return true;
        double was = before.cpuSeconds() / before.load().ok(), now = last.cpuSeconds() / last.load().ok();
        return was > 0 && now > 0 && now * 1.1 < was;
    }

    /**
     * The result: skipped, or the medians of the measured runs (stalled when none finished
     * because they stalled), flagged for failed or stalled runs, a run above the server's
     * Little's-law bound, errors or non-2xx answers, the server having stopped answering, and
     * other processes having used the machine during a run ({@link Others#note}).
     */
    public BenchReport.Result result(Plan.Workload w) {
        List<String> flags = new ArrayList<>(problems);
        if (skipReason != null) return new BenchReport.SkippedResult(server.id, skipReason, flags);
        BenchReport.Status status = runs.isEmpty() && !stalls.isEmpty() ? BenchReport.Status.STALLED : BenchReport.Status.MEASURED;
        flags.addAll(stalls);
        List<Double> rps = new ArrayList<>(), p50 = new ArrayList<>(), p99 = new ArrayList<>(), cpu = new ArrayList<>(), loadCpu = new ArrayList<>(),
                switches = new ArrayList<>();
        long ok = 0, non2xx = 0, errors = 0, timeouts = 0, peakRss = -1;
        int peakThreads = -1;
        Map<String, Long> kinds = new LinkedHashMap<>();
        for (Run r : runs) {
            rps.add(r.rps());
            p50.add(r.load().p50Ms());
            p99.add(r.load().p99Ms());
            cpu.add(r.cpuSeconds());
            if (!Double.isNaN(r.loadCpuPercent())) loadCpu.add(r.loadCpuPercent());
            if (!Double.isNaN(r.contextSwitchesPerRequest())) switches.add(r.contextSwitchesPerRequest());
            ok += r.load().ok();
            non2xx += r.load().non2xx();
            errors += r.load().errors();
            timeouts += r.load().timeouts();
            r.load().errorKinds().forEach((k, v) -> kinds.merge(k, v, Long::sum));
            peakRss = Math.max(peakRss, r.peakRss());
            peakThreads = Math.max(peakThreads, r.peakThreads());
            if (r.percentOfBound() > 100) {
                flags.add(w.pooled()
                        ? String.format(Locale.ROOT, "a run reached %.1f%% of the bound: impossible with %d connections in the pool, so more than %d queries ran at once (GET /stats shows dbPeak)",
                                r.percentOfBound(), Plan.DB_POOL, Plan.DB_POOL)
                        : String.format(Locale.ROOT, "a run reached %.1f%% of the Little's-law bound: impossible for a %s ms wait, so the server does not wait as asked",
                                r.percentOfBound(), Stats.millis(w.serviceMillis())));
            }
        }
        double bound = server.bound(w);
        double medianRps = Stats.median(rps);
        double loadCpuPercent = loadCpu.isEmpty() ? Double.NaN : Stats.median(loadCpu);
        if (errors > 0 || non2xx > 0) {
            flags.add(String.format(Locale.ROOT, "%d errors (%d timeouts) and %d non-2xx answers in %d measured runs%s",
                    errors, timeouts, non2xx, runs.size(), kinds.isEmpty() ? "" : "; first error: " + kinds.keySet().iterator().next()));
        }
        if (runs.isEmpty() && stalls.isEmpty()) flags.add("no measured run finished");
        String busy = Others.note(runs.stream().map(Run::othersCores).toList());
        if (busy != null) flags.add(busy);
        if (server.gone() != null) flags.add(server.gone());
        return new BenchReport.LoadResult(server.id, status, Stats.figure(medianRps),
                new BenchReport.Latency(Stats.figure(Stats.median(p50)), Stats.figure(Stats.median(p99))),
                ok, non2xx, errors, timeouts, kinds, Stats.figure(Stats.median(cpu)),
                Stats.figure(cpuMillisPerRequest(runs)), switches.isEmpty() ? null : Stats.figure(Stats.median(switches)),
                peakRss < 0 ? null : peakRss,
                peakThreads < 0 ? null : peakThreads, Stats.figure(bound), Stats.figure(Stats.percentOf(medianRps, bound)),
                Stats.figure(loadCpuPercent), null, figures(),
                warmups.stream().map(Run::figures).toList(), flags, notes(loadCpuPercent));
    }

    /** The measured runs' figures, each with its fork when the workload had several. */
    private List<BenchReport.RunFigures> figures() {
        List<BenchReport.RunFigures> figures = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) figures.add(forked ? runs.get(i).figures().inFork(forkOfRun.get(i)) : runs.get(i).figures());
        return figures;
    }

    /**
     * The server's CPU time per 2xx answer over {@code runs}, in ms: all their CPU over all their
     * answers. A result's cpuMillisPerRequest, and what --timeline's recorded turn is held to
     * ({@link TimelineTurn}); NaN when nothing was answered.
     */
    public static double cpuMillisPerRequest(List<Run> runs) {
        double cpu = 0;
        long ok = 0;
        for (Run r : runs) {
            cpu += r.cpuSeconds();
            ok += r.load().ok();
        }
        return ok == 0 ? Double.NaN : cpu * 1000 / ok;
    }

    /** What is worth knowing about a result without being a failure. */
    static List<String> notes(double loadCpuPercent) {
        List<String> notes = new ArrayList<>();
        if (loadCpuPercent >= SATURATED_LOAD_PERCENT) {
            notes.add(String.format(Locale.ROOT, "the load generator used %.0f%% of its CPU (median run): it may be the bottleneck, "
                    + "so these figures are a floor for the server, not its limit", loadCpuPercent));
        }
        return notes;
    }
}
