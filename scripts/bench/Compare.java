package bench;

import contract.BenchReport;
import contract.Plan;
import contract.Stats;
import contract.Verdict;
import java.util.List;
import java.util.Locale;
import lib.Others;

/**
 * The race's verdict policy: each result against the {@code compareTo} server's, its ratios, which
 * figure decides (CPU per request on hello and wherever Bombardier is at its limit, else req/s),
 * what is called out beside the verdict, and what a busy machine does to it. {@link Verdict}
 * holds the arithmetic; {@link Report} prints what this decides.
 */
public final class Compare {
    private Compare() {}

    /**
     * Each result with its ratio to the result of server {@code compareTo} (learner / reference),
     * when both were measured; a load ratio also with its intervals, the verdict and what is far
     * off, for races in {@code mode} on a workload of {@code group} (hello: CPU per request decides).
     */
    public static List<BenchReport.Result> ratios(List<BenchReport.Result> results, String compareTo, Plan.Pace mode) {
        return ratios(results, compareTo, mode, null);
    }

    public static List<BenchReport.Result> ratios(List<BenchReport.Result> results, String compareTo, Plan.Pace mode, Plan.Group group) {
        BenchReport.Result base = results.stream().filter(r -> r.server().equals(compareTo)).findFirst().orElse(null);
        if (base == null || !base.measured()) return results;
        return results.stream().map(r -> r.measured() ? ratio(r, base, mode, group) : r).toList();
    }

    private static BenchReport.Result ratio(BenchReport.Result r, BenchReport.Result base, Plan.Pace mode, Plan.Group group) {
        return switch (r) {
            case BenchReport.LoadResult l when base instanceof BenchReport.LoadResult b -> {
                double rps = Stats.ratio(rps(l), rps(b));
                double loadCpu = Math.max(nz(Stats.known(l.loadCpuPercent())), nz(Stats.known(b.loadCpuPercent())));
                boolean busy = loadCpu >= Tally.SATURATED_LOAD_PERCENT;
                BenchReport.Interval rpsInterval = r == base ? null : Verdict.of(l.runs(), b.runs(), mode, busy);
                BenchReport.Interval verdict = null;
                List<BenchReport.Interval> callouts = new java.util.ArrayList<>();
                if (r != base) {
                    boolean cpuDecides = (group == Plan.Group.HELLO || busy) && Verdict.known(l.runs(), b.runs(), Verdict.Figure.CPU);
                    verdict = cpuDecides ? Verdict.of(l.runs(), b.runs(), Verdict.Figure.CPU, mode, busy, whyCpu(loadCpu)) : rpsInterval;
                    if (!cpuDecides) callouts.add(Verdict.farOff(l.runs(), b.runs(), Verdict.Figure.CPU, Verdict.FAR_CPU));
                    callouts.add(Verdict.farOff(l.runs(), b.runs(), Verdict.Figure.RSS, Verdict.FAR_MEMORY));
                    callouts.removeIf(java.util.Objects::isNull);
                }
                yield l.withRatio(new BenchReport.LoadRatio(Stats.figure(rps), Stats.figure(Stats.ratio(p50(l), p50(b))),
                        Stats.figure(Stats.ratio(p99(l), p99(b))), Stats.figure(Stats.ratio(cpuPerRequest(l), cpuPerRequest(b))),
                        rpsInterval, verdict, callouts, r == base || verdict == null ? null : busyTurns(l.runs(), b.runs())));
            }
            case BenchReport.IdleResult i when base instanceof BenchReport.IdleResult b -> {
                double heap = Stats.ratio(heapPerConnection(i), heapPerConnection(b));
                yield i.withRatio(new BenchReport.IdleRatio(Stats.figure(heap),
                        Stats.figure(Stats.ratio(rssPerConnection(i), rssPerConnection(b))),
                        r == base ? null : heapCallout(heapPerConnection(i), heapPerConnection(b))));
            }
            default -> r;
        };
    }

    /**
     * What the verdict rests on when other processes were busy during some turns (either server's
     * run of the turn; {@link Others}): "the machine was busy during 2 of 3 turns: other processes
     * used up to 0.9 of a core; race again when it is quiet"; null when no turn was.
     */
    public static String busyTurns(List<BenchReport.RunFigures> runs, List<BenchReport.RunFigures> base) {
        if (runs == null || base == null) return null;
        int turns = Math.min(runs.size(), base.size());
        int busy = 0;
        double most = 0;
        for (int i = 0; i < turns; i++) {
            double cores = Math.max(others(runs.get(i)), others(base.get(i)));
            if (Others.busy(cores)) busy++;
            most = Math.max(most, cores);
        }
        if (busy == 0) return null;
        return "the machine was busy during " + busy + " of " + turns + " turns: other processes used up to " + Others.words(most)
                + ", so this verdict may be the machine's, not the servers'; race again when it is quiet";
    }

    private static double others(BenchReport.RunFigures run) {
        double cores = run == null ? Double.NaN : Stats.known(run.othersCores());
        return Double.isNaN(cores) ? 0 : cores;
    }

    /** Why CPU per request decided: Bombardier at its CPU limit, or hello, where req/s depends on it and on the machine. */
    public static String whyCpu(double loadCpuPercent) {
        String used = loadCpuPercent > 0 ? String.format(Locale.ROOT, "Bombardier used %.0f%% of its CPU", loadCpuPercent) : null;
        return loadCpuPercent >= Tally.SATURATED_LOAD_PERCENT
                ? used + ", so req/s measures it as much as the server; the server's CPU time per request does not depend on it"
                : "on hello req/s depends on Bombardier keeping up and on what else runs on the machine" + (used == null ? "" : " (" + used + ")")
                + "; the server's CPU time per request does not";
    }

    /**
     * Heap per idle connection more than twice (or under half) the compared server's, and more than
     * {@link #HEAP_FAR_BYTES} apart, in words; null when it is not. One measurement over thousands
     * of connections after a full GC: it moves by a few percent between runs, so twice is far.
     */
    public static String heapCallout(double heap, double base) {
        double ratio = Stats.ratio(heap, base);
        if (Double.isNaN(ratio) || base <= 0 || Math.abs(heap - base) < HEAP_FAR_BYTES || (ratio <= 2 && ratio >= 0.5)) return null;
        return (ratio > 1 ? "uses more memory" : "uses less memory") + ": heap per idle connection " + Stats.bytes(heap) + " against "
                + Stats.bytes(base) + " (" + Stats.times(ratio) + ")";
    }

    static final double HEAP_FAR_BYTES = 512;

    public static double rps(BenchReport.Result r) {
        return r instanceof BenchReport.LoadResult l ? Stats.known(l.rps()) : Double.NaN;
    }

    static double p50(BenchReport.LoadResult l) {
        return l.latencyMs() == null ? Double.NaN : Stats.known(l.latencyMs().p50());
    }

    static double p99(BenchReport.LoadResult l) {
        return l.latencyMs() == null ? Double.NaN : Stats.known(l.latencyMs().p99());
    }

    /** The server's CPU time per answer, in microseconds, or NaN. */
    public static double cpuPerRequest(BenchReport.Result r) {
        return r instanceof BenchReport.LoadResult l ? Stats.known(l.cpuMillisPerRequest()) * 1000 : Double.NaN;
    }

    static double heapPerConnection(BenchReport.Result r) {
        return r instanceof BenchReport.IdleResult i && i.figures() != null ? Stats.known(i.figures().heapPerConnectionBytes()) : Double.NaN;
    }

    static double rssPerConnection(BenchReport.Result r) {
        return r instanceof BenchReport.IdleResult i && i.figures() != null ? Stats.known(i.figures().rssPerConnectionBytes()) : Double.NaN;
    }

    static double nz(double d) {
        return Double.isNaN(d) ? 0 : d;
    }
}
