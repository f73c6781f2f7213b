package bench;

import contract.BenchReport;
import contract.Plan;
import contract.Stats;
import contract.Verdict;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import lib.Others;
import lib.Painter;

/**
 * The report in the terminal: a table per workload and bar charts, from the same records that
 * are written as JSON. What each result is worth against the compared server's is {@link Compare}'s.
 */
public final class Report {
    private Report() {}

    /** The tables and the charts. */
    public static void print(PrintStream out, BenchReport report, boolean color) {
        Painter p = new Painter(color);
        out.println();
        for (BenchReport.ServerEntry s : report.servers()) out.printf("  %-10s %s%n", s.id(), p.dim(String.valueOf(s.label())));
        String vs = report.compareTo() == null ? "" : "vs " + report.compareTo();
        for (BenchReport.WorkloadEntry w : report.workloads()) {
            if (w.group() == Plan.Group.RAMP) continue; // drawn as one curve, below
            out.println();
            out.println(p.bold(w.id()) + "  " + w.description());
            boolean idle = w.group() == Plan.Group.IDLE;
            double bound = Stats.known(w.boundRps());
            if (!Double.isNaN(bound)) {
                String inProgress = w.group() == Plan.Group.DB
                        ? Math.round(bound * w.serviceMillis() / 1000) + " connections of the database pool" : w.connections() + " connections";
                out.println(p.dim(String.format(Locale.ROOT, "  Little's-law bound: %s / %s s = %s req/s at most",
                        inProgress, Stats.millis(w.serviceMillis() / 1000), Stats.rate(bound))));
            }
            if (w.cpus() != null) out.println(p.dim("  CPUs: " + w.cpus().words()));
            String options = options(w, report);
            if (options != null) out.println(p.dim("  " + options));
            if (idle) {
                out.println(p.dim(String.format(Locale.ROOT, "  %-10s %11s %8s %10s %10s %10s %8s  %s", "server", "served", "refused",
                        "unanswered", "heap/conn", "RSS/conn", "OS thr", vs)));
            } else {
                out.println(p.dim(String.format(Locale.ROOT, "  %-10s %8s %8s %8s %8s %8s %8s %7s%s %9s %7s %6s  %s", "server", "req/s",
                        "p50 ms", "p99 ms", "errors", "timeouts", "non-2xx", "µs/req", switchesShown(w) ? String.format(Locale.ROOT, " %7s", "cs/req") : "",
                        "peak RSS", "OS thr", Double.isNaN(bound) ? "" : "bound", vs)));
            }
            for (BenchReport.Result r : w.results()) out.println(" " + (r.flags().isEmpty() ? " " : p.red("!")) + row(w, r, p));
            if (report.kind() == BenchReport.Kind.CHAPTER) for (BenchReport.Result r : w.results()) verdict(out, r, report.compareTo(), p);
            for (BenchReport.Result r : w.results()) {
                for (String note : r.flags()) out.println(p.dim("  " + r.server() + ": " + note));
                for (String note : r.notes()) out.println(p.dim("  " + r.server() + " (note): " + note));
            }
        }
        if (report.spike() != null) Spike.print(out, report.spike(), p);
        if (report.soak() != null) Soak.print(out, report.soak(), p);
        if (report.openLoop() != null) OpenLoop.print(out, report.openLoop(), p);
        if (report.connections() != null) ConnectionsRace.print(out, report.connections(), p);
        if (report.workloads().isEmpty()) return;
        if (report.ramp() != null) {
            Ramp.print(out, report, p);
            return;
        }
        out.println();
        if (report.compareTo() != null) legend(out, report.compareTo(), p);
        out.println(p.dim("  µs/req: the server's CPU time per answer, in microseconds; on hello, the figure that does not depend on"));
        out.println(p.dim("  Bombardier keeping up (req/s does)."));
        if (report.workloads().stream().anyMatch(Report::switchesShown)) {
            out.println(p.dim("  cs/req: the OS's context switches of the server's threads per answer, from /proc: voluntary (a thread"));
            out.println(p.dim("  blocked, parked or slept) and not (its core was taken away); a hand-off between threads shows here."));
        }
        out.println(p.dim("  OS thr: the server process's operating-system threads at their peak: the JVM's own (JIT compilers, GC,"));
        out.println(p.dim("  the flight recorder) included, virtual threads not, so a one-loop reactor shows about a dozen."));
        chart(out, report, p);
    }

    /** One result's line of the table, after its mark. */
    private static String row(BenchReport.WorkloadEntry w, BenchReport.Result r, Painter p) {
        String name = String.format(Locale.ROOT, "%-10s", r.server());
        return switch (r) {
            case BenchReport.SkippedResult s -> name + " " + p.dim("skipped: " + s.skipReason());
            case BenchReport.LoadResult l when l.status() == BenchReport.Status.STALLED -> name + " " + p.red("stalled")
                    + p.dim(": connections got no answer within " + w.timeoutSeconds() + " s; no run finished (see below)");
            case BenchReport.LoadResult l -> name + String.format(Locale.ROOT, " %8s %8s %8s %8s %8s %8s %7s%s %9s %7s %6s  %s",
                    Stats.rate(Compare.rps(l)), Stats.millis(Compare.p50(l)), Stats.millis(Compare.p99(l)),
                    whole(l.errors()), whole(l.timeouts()), whole(l.non2xx()),
                    micros(Compare.cpuPerRequest(l)), switchesShown(w) ? String.format(Locale.ROOT, " %7s", switches(l.contextSwitchesPerRequest())) : "",
                    Stats.bytes(Stats.known(l.peakRssBytes())), whole(l.peakThreads()),
                    w.boundRps() == null ? "" : Stats.percent(Stats.known(l.percentOfBound())), ratioCell(l));
            case BenchReport.IdleResult i -> {
                BenchReport.IdleFigures f = i.figures();
                yield name + String.format(Locale.ROOT, " %11s %8s %10s %10s %10s %8s  %s",
                        f == null ? "-/-" : f.served() + "/" + f.asked(), whole(f == null ? null : f.refused()),
                        whole(f == null ? null : f.unanswered()), Stats.bytes(Compare.heapPerConnection(i)), Stats.bytes(Compare.rssPerConnection(i)),
                        whole(f == null ? null : f.threadsWith()),
                        Stats.times(i.ratio() == null ? Double.NaN : Stats.known(i.ratio().heapPerConnection())));
            }
        };
    }

    /**
     * The verdict lines of one result against the compared server: the verdict on the figure
     * that decided, with its interval and what the race could tell (too noisy says so first),
     * why that figure decided, what would help, and the figures far from the compared server's.
     */
    static void verdict(PrintStream out, BenchReport.Result r, String compareTo, Painter p) {
        String compared = "the " + compareTo;
        if (r instanceof BenchReport.IdleResult i && i.ratio() != null && i.ratio().callout() != null) {
            out.println("  " + r.server() + " vs " + compareTo + ": " + p.bold(i.ratio().callout()));
        }
        BenchReport.Interval i = interval(r);
        if (i == null) return;
        out.println("  " + r.server() + " vs " + compareTo + ": " + p.bold(Verdict.sentence(i, compared)));
        if (i.why() != null) out.println(p.dim("    decided on " + Verdict.Figure.named(i.figure()).unit + ": " + i.why()));
        if (i.advice() != null) out.println(p.dim("    " + i.advice()));
        if (r instanceof BenchReport.LoadResult l && l.ratio().busy() != null) out.println("    " + p.red(l.ratio().busy()));
        if (r instanceof BenchReport.LoadResult l && l.ratio().callouts() != null) {
            for (BenchReport.Interval c : l.ratio().callouts()) out.println("    " + p.bold("and it " + Verdict.callout(c, compared)));
        }
    }

    /** What the "vs" column says, once under the tables. */
    static void legend(PrintStream out, String compareTo, Painter p) {
        out.println(p.dim("  vs " + compareTo + ": the ratio of the figure that decided (yours ÷ the " + compareTo + "'s), its 95% interval over"));
        out.println(p.dim("  the turns, and the verdict (faster, slower, same within the noise, or noisy: too noisy to compare). On hello,"));
        out.println(p.dim("  and wherever Bombardier used 90% of its CPU, the figure is µs/req (lower is better); elsewhere req/s (higher"));
        out.println(p.dim("  is better); on idle, heap per connection. A cell without a verdict is the ratio of req/s medians."));
    }

    /** The options every started server got that this workload depends on (the database pool), or null. */
    static String options(BenchReport.WorkloadEntry w, BenchReport report) {
        if (w.group() != Plan.Group.DB) return null;
        return "servers started with --db-pool " + Plan.DB_POOL + " --db-wait " + Plan.DB_WAIT_MILLIS + ": a request waits up to "
                + Plan.DB_WAIT_MILLIS / 1000 + " s for one of the pool's " + Plan.DB_POOL + " connections before a 503 (not the default 1000 ms)";
    }

    /** The ratio of the figure that decided, with its interval and the verdict when there is one: "µs/req 1.26x 1.22-1.30x slower". */
    public static String ratioCell(BenchReport.LoadResult l) {
        BenchReport.Interval i = interval(l);
        if (i == null) return Stats.times(l.ratio() == null ? Double.NaN : Stats.known(l.ratio().rps()));
        Verdict.Figure f = Verdict.Figure.named(i.figure());
        double ratio = i.ratio() != null ? Stats.known(i.ratio()) : f == Verdict.Figure.RPS ? Stats.known(l.ratio().rps()) : Stats.known(l.ratio().cpuPerRequest());
        return (f == Verdict.Figure.RPS ? "" : f.unit + " ") + Stats.times(ratio) + " " + Stats.times(Stats.known(i.low())).replace("x", "")
                + "-" + Stats.times(Stats.known(i.high())) + " " + i.verdict();
    }

    /** A load result's deciding interval and verdict, or null. */
    static BenchReport.Interval interval(BenchReport.Result r) {
        return r instanceof BenchReport.LoadResult l && l.ratio() != null ? l.ratio().decided() : null;
    }

    /**
     * What a chart's bar says of the verdict, so that no bar contradicts it: on the chart of the
     * figure that decided, the verdict ("≈ the same within the noise" for a bar within it); on
     * another figure's chart, which figure decided and how. "" without a verdict.
     */
    public static String mark(BenchReport.Result r, Verdict.Figure chart) {
        BenchReport.Interval i = interval(r);
        if (i == null) return "";
        Verdict.Figure f = Verdict.Figure.named(i.figure());
        String words = i.verdict() == Verdict.Call.SAME ? "≈ the same within the noise" : Verdict.words(i);
        return f == chart ? words : words + " on " + f.unit + " (the figure that decided; see its chart)";
    }

    /** Requests per second per workload as horizontal bars, each workload scaled to its fastest server; then heap per idle connection. */
    static void chart(PrintStream out, BenchReport report, Painter p) {
        out.println();
        out.println(p.bold("Requests per second, median") + p.dim("  (each workload scaled to its fastest; longer is better)"));
        for (BenchReport.WorkloadEntry w : report.workloads()) {
            if (w.group() == Plan.Group.IDLE) continue;
            double max = w.results().stream().mapToDouble(r -> Compare.nz(Compare.rps(r))).reduce(0, Math::max);
            boolean first = true;
            for (BenchReport.Result r : w.results()) {
                String label = String.format(Locale.ROOT, "  %-8s %-10s ", first ? w.id() : "", r.server());
                first = false;
                double rps = Compare.rps(r);
                String value = r.measured() ? Stats.rate(rps) : String.valueOf(r.status());
                String mark = report.kind() == BenchReport.Kind.CHAPTER ? mark(r, Verdict.Figure.RPS) : "";
                out.println(label + bar(p, report, r.server(), Stats.bar(rps, max, 40, false)) + " " + value
                        + (mark.isEmpty() ? "" : p.dim("  " + mark)));
            }
        }
        for (BenchReport.WorkloadEntry w : report.workloads()) {
            if (w.group() != Plan.Group.HELLO) continue;
            double max = w.results().stream().mapToDouble(r -> Compare.nz(Compare.cpuPerRequest(r))).reduce(0, Math::max);
            if (max == 0) continue;
            String vs = report.compareTo() == null ? "" : " (ratio to " + report.compareTo() + ")";
            out.println();
            out.println(p.bold("CPU per request on " + w.id() + ", median") + p.dim("  (shorter is better: the server's own cost" + vs + ")"));
            for (BenchReport.Result r : w.results()) {
                double us = Compare.cpuPerRequest(r);
                Double ratio = r instanceof BenchReport.LoadResult l && l.ratio() != null ? l.ratio().cpuPerRequest() : null;
                String mark = report.kind() == BenchReport.Kind.CHAPTER ? mark(r, Verdict.Figure.CPU) : "";
                out.println(String.format(Locale.ROOT, "  %-10s ", r.server()) + bar(p, report, r.server(), Stats.bar(us, max, 40, false))
                        + " " + micros(us) + " µs" + (ratio == null ? "" : p.dim("  " + Stats.times(ratio))) + (mark.isEmpty() ? "" : p.dim("  " + mark)));
            }
        }
        boolean anyIdle = false;
        for (BenchReport.WorkloadEntry w : report.workloads()) {
            if (w.group() != Plan.Group.IDLE) continue;
            double max = w.results().stream().mapToDouble(r -> Compare.nz(Compare.heapPerConnection(r))).reduce(0, Math::max);
            if (!anyIdle) {
                out.println();
                out.println(p.bold("Heap per idle connection, after GC") + p.dim("  (shorter is better)"));
                anyIdle = true;
            }
            for (BenchReport.Result r : w.results()) {
                double b = Compare.heapPerConnection(r);
                String served = r instanceof BenchReport.IdleResult i && i.figures() != null ? "  (" + i.figures().served() + " served)" : "";
                String mark = "";
                if (report.kind() == BenchReport.Kind.CHAPTER && r instanceof BenchReport.IdleResult i && i.ratio() != null && !r.server().equals(report.compareTo())) {
                    mark = i.ratio().callout() != null ? "  " + i.ratio().callout().replaceFirst(":.*", "")
                            : "  ≈ within 2x of the " + report.compareTo() + "'s: not called out";
                }
                out.println(String.format(Locale.ROOT, "  %-10s ", r.server()) + bar(p, report, r.server(), Stats.bar(b, max, 40, false))
                        + " " + Stats.bytes(b) + p.dim(served + mark));
            }
        }
    }

    /** A bar of the chart in its server's colour, by its role: the learner's, Netty's, the server compared to, or the others'. */
    static String bar(Painter p, BenchReport report, String server, String s) {
        BenchReport.Role role = report.roleOf(server);
        if (role == BenchReport.Role.LEARNER) return p.paint("36", s);
        if (role == BenchReport.Role.BASELINE) return p.paint("35", s);
        return p.paint(server.equals(report.compareTo()) ? "33" : "34", s);
    }

    /** Whether a workload's table has a cs/req column: some result knows its context switches (a race where /proc shows them). */
    public static boolean switchesShown(BenchReport.WorkloadEntry w) {
        return w.results().stream().anyMatch(r -> r instanceof BenchReport.LoadResult l && l.contextSwitchesPerRequest() != null);
    }

    /** Context switches per answer, readable: 0.42, 3.1, 12; "-" when unknown. */
    public static String switches(Double perRequest) {
        double n = Stats.known(perRequest);
        return Double.isNaN(n) ? "-" : n >= 10 ? String.format(Locale.ROOT, "%.0f", n) : n >= 1 ? String.format(Locale.ROOT, "%.1f", n)
                : String.format(Locale.ROOT, "%.2f", n);
    }

    /** Microseconds as the table shows them: 41.2, 128; "-" when unknown. */
    static String micros(double us) {
        return Double.isNaN(us) ? "-" : us >= 100 ? String.format(Locale.ROOT, "%.0f", us) : String.format(Locale.ROOT, "%.1f", us);
    }

    private static String whole(Number n) {
        return n == null ? "-" : String.valueOf(Math.round(n.doubleValue()));
    }

}
