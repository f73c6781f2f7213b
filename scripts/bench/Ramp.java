package bench;

import contract.BenchReport;
import contract.Plan;
import contract.Stats;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import lib.Painter;

/**
 * The ramp ({@code --ramp}): GET /io?ms=200 at connections rising step by step ({@link Plan#RAMP_STEPS}),
 * one run a step, each server until a step breaks it: over {@link Plan#RAMP_MAX_ERROR_PERCENT} of
 * its requests failed, its p99 passed {@link Plan#RAMP_MAX_P99_MS}, or its connections starved.
 * A model that holds a thread per request breaks where the threads run out; one that does not
 * follows Little's law (connections / 200 ms) until the machine or the load generator gives out.
 */
public final class Ramp {
    private Ramp() {}

    /** Why this step broke the server, or null when it held (a skipped step neither holds nor breaks). */
    public static String broke(BenchReport.Result r) {
        if (!(r instanceof BenchReport.LoadResult l)) return null;
        if (l.status() == BenchReport.Status.STALLED) return "connections starved: no answer within the timeout";
        long failed = l.errors() + l.non2xx();
        long all = l.requests2xx() + failed;
        if (all == 0) return "no request was answered";
        double errorPercent = 100.0 * failed / all;
        if (errorPercent > Plan.RAMP_MAX_ERROR_PERCENT) {
            return String.format(Locale.ROOT, "%.1f%% of requests failed (%d errors, %d timeouts among them, %d non-2xx)",
                    errorPercent, l.errors(), l.timeouts(), l.non2xx());
        }
        double p99 = l.latencyMs() == null ? Double.NaN : Stats.known(l.latencyMs().p99());
        if (p99 > Plan.RAMP_MAX_P99_MS) return "p99 " + Stats.millis(p99) + " ms, over " + Stats.millis(Plan.RAMP_MAX_P99_MS) + " ms";
        return null;
    }

    /** Where each server broke: from the ramp's results, in step order. */
    public static BenchReport.RampSummary summarize(List<BenchReport.WorkloadEntry> steps, List<String> servers) {
        Map<String, BenchReport.BreakingPoint> points = new LinkedHashMap<>();
        for (String s : servers) points.put(s, new BenchReport.BreakingPoint(s, null, null, null));
        for (BenchReport.WorkloadEntry w : steps) {
            for (BenchReport.Result r : w.results()) {
                BenchReport.BreakingPoint p = points.get(r.server());
                if (p == null || p.brokeAt() != null) continue;
                if (r instanceof BenchReport.SkippedResult s) {
                    if (p.held() == null) points.put(r.server(), new BenchReport.BreakingPoint(r.server(), null, null, s.skipReason()));
                    continue;
                }
                String why = broke(r);
                points.put(r.server(), why == null ? new BenchReport.BreakingPoint(r.server(), w.connections(), null, p.why())
                        : new BenchReport.BreakingPoint(r.server(), p.held(), w.connections(), why));
            }
        }
        return new BenchReport.RampSummary(steps.isEmpty() ? null : steps.get(0).path(), Plan.RAMP_MAX_ERROR_PERCENT, Plan.RAMP_MAX_P99_MS,
                steps.stream().map(BenchReport.WorkloadEntry::connections).toList(), new ArrayList<>(points.values()));
    }

    /** Why a server sits out a step: a step before broke it. Null when it takes part. */
    public static String sitOut(Map<String, Integer> brokeAt, String server) {
        Integer at = brokeAt.get(server);
        return at == null ? null : "broke at " + at + " connections, an earlier step of the ramp";
    }

    /** The curve as a table: req/s per step per server, the step that broke it marked, then where each broke. */
    public static void print(PrintStream out, BenchReport report, Painter p) {
        BenchReport.RampSummary ramp = report.ramp();
        List<BenchReport.WorkloadEntry> steps = report.workloads().stream().filter(w -> w.group() == Plan.Group.RAMP).toList();
        out.println();
        out.println(p.bold("The ramp") + "  GET " + ramp.path() + ", connections rising; a step breaks a server when over "
                + Stats.percent(ramp.maxErrorPercent()) + " of its requests fail or its p99 passes " + Stats.millis(ramp.maxP99Ms()) + " ms");
        if (!steps.isEmpty() && steps.get(0).cpus() != null) out.println(p.dim("  CPUs: " + steps.get(0).cpus().words()));
        StringBuilder head = new StringBuilder(String.format(Locale.ROOT, "  %-10s", "req/s at"));
        for (BenchReport.WorkloadEntry w : steps) head.append(String.format(Locale.ROOT, " %8s", w.connections()));
        head.append("  of the bound");
        out.println(p.dim(head.toString()));
        StringBuilder bound = new StringBuilder(String.format(Locale.ROOT, "  %-10s", "bound"));
        for (BenchReport.WorkloadEntry w : steps) bound.append(String.format(Locale.ROOT, " %8s", Stats.rate(Stats.known(w.boundRps()))));
        out.println(p.dim(bound.toString()));
        for (BenchReport.BreakingPoint b : ramp.servers()) {
            StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "  %-10s", b.server()));
            for (BenchReport.WorkloadEntry w : steps) {
                BenchReport.Result r = w.results().stream().filter(x -> x.server().equals(b.server())).findFirst().orElse(null);
                String cell = r == null || !r.measured() && r.status() != BenchReport.Status.STALLED ? "" : r.measured() ? Stats.rate(Compare.rps(r)) : "stalled";
                boolean breaking = Integer.valueOf(w.connections()).equals(b.brokeAt());
                row.append(' ').append(breaking ? p.red(String.format(Locale.ROOT, "%7s✗", cell)) : String.format(Locale.ROOT, "%8s", cell));
            }
            List<Double> percent = steps.stream().map(w -> w.results().stream().filter(x -> x.server().equals(b.server())).findFirst()
                    .map(x -> x instanceof BenchReport.LoadResult l && l.measured() ? l.percentOfBound() : null).orElse(null)).toList();
            row.append("  ").append(Stats.sparkline(percent, 100));
            out.println(row);
        }
        out.println();
        for (BenchReport.BreakingPoint b : ramp.servers()) {
            String held = b.held() == null ? "held no step" : "held " + b.held() + " connections";
            String what = b.brokeAt() != null ? held + "; broke at " + b.brokeAt() + ": " + b.why()
                    : b.held() == null ? "did not run: " + b.why()
                    : held + (b.held().equals(ramp.steps().get(ramp.steps().size() - 1)) ? ", every step" : "; then: " + b.why());
            out.println(String.format(Locale.ROOT, "  %-10s ", b.server()) + what);
        }
    }
}
