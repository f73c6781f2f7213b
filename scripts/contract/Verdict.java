package contract;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import lib.Jackson;

/**
 * Whether one server is faster than another, from races run in turns. Each turn runs both
 * servers back to back, so the ratio of their figures in one turn (this ÷ the other) shares that
 * moment's conditions; the turns alternate who goes first. The interval is the 95% confidence
 * interval of the per-turn ratios' geometric mean (Student's t on their logarithms): few turns
 * that disagree give a wide one (t is 4.3 for 3 turns, 2.8 for 5). A forked workload's turns come
 * from several fresh processes of each server ({@link Plan.Mode#forksFor}): pooled, unless the
 * forks disagree ({@link #spread}). The verdict says faster or
 * slower only when the whole interval lies more than the floor away from 1 ({@link #floor}: 2% for
 * CPU per request over forks, 20% over one pair of processes when the load generator was at its
 * CPU limit, 5% elsewhere); otherwise the two are the
 * same within this machine's noise, or, when the race could not have told a difference
 * {@link #NOISY} beyond the floor, too noisy to compare.
 *
 * <p>Which figure decides ({@link Figure}): req/s, unless the load generator was at its CPU
 * limit (always on hello): then req/s measures it as much as the server, and the server's CPU
 * time per request decides. Other figures far from the compared server's (CPU per request,
 * peak RSS) are called out beside the verdict ({@link #farOff}). Pure arithmetic, for unit tests.
 */
public final class Verdict {
    /** A difference whose interval comes within this of 1 is not claimed: turn order and the machine's drift make that much. */
    static final double FLOOR = 0.05;
    /**
     * The floor when Bombardier was near its CPU limit (always on hello), on whichever figure
     * decides. Bombardier sets the pace then, and the server's CPU per answer moves with that pace
     * (how many answers each wake-up of the server carries), so two processes of the same server
     * differ beyond what their turns show: on req/s by up to 14%, steadily over three turns (1.08x
     * to 1.13x); on CPU per request by up to 16% (1.16x, 1.08x to 1.26x over five turns, in a
     * clean-clone self-test's self-race; and 1.09x, 1.02x to 1.17x). The self-races of
     * site/static/bench/power.json measure it with this floor.
     */
    public static final double BUSY_FLOOR = 0.20;
    /**
     * The floor for CPU per request over the turns of two forks or more: their interval carries
     * the difference between two processes of a server, which {@link #BUSY_FLOOR} stood in for,
     * so what remains is what the turns' order leaves (in the races examined here, the server that
     * went first in a turn spent 0 to 5% more a request than the one that went second, which
     * alternating cancels in all but an odd last turn). The self-races of site/static/bench/power.json measure it: their mean
     * lies within it, and none was called faster or slower, which BenchTests holds the committed
     * study to.
     */
    public static final double FORKED_FLOOR = 0.02;
    /**
     * A race that could not have told a difference this far beyond its floor (30% at the 5%
     * floor, 45% at the busy one) tells nothing useful: too noisy to compare.
     */
    static final double NOISY = 0.25;
    /** CPU per request this far from the compared server's (the whole interval) is called out when it did not decide. */
    public static final double FAR_CPU = 0.20;
    /** Peak RSS this far from the compared server's (the whole interval beyond 1.5x or under 1/1.5) is called out. */
    public static final double FAR_MEMORY = 0.50;

    /**
     * What a race calls a figure: the deciding figure is {@link #FASTER}, {@link #SLOWER},
     * {@link #SAME} or {@link #NOISY} (too noisy to compare); a figure called out beside it uses
     * {@link #MORE} or {@link #LESS} than the compared server's. The JSON names it by {@link #label}.
     */
    public enum Call implements Jackson.Label {
        FASTER, SLOWER, SAME, NOISY, MORE, LESS;

        @Override
        public String toString() {
            return label();
        }
    }

    /** A figure a verdict can be read from: its name in the JSON, its unit, in words, and which way is better. */
    public enum Figure {
        // The plain rate, answers / Bombardier's time: a steady run's two loads' edges weigh the same for both servers,
        // so their ratio is steadier turn to turn than that of two steady rates (differences of counts).
        RPS("rps", "req/s", "requests per second", true,
                r -> r.seconds() != null && r.seconds() > 0 && r.requests2xx() > 0 ? r.requests2xx() / r.seconds() : Stats.known(r.rps())),
        CPU("cpuPerRequest", "µs/req", "CPU time per request", false,
                r -> r.requests2xx() > 0 ? Stats.known(r.cpuSeconds()) * 1e6 / r.requests2xx() : Double.NaN),
        RSS("peakRss", "peak RSS", "peak RSS", false, r -> Stats.known(r.peakRssBytes()));

        final String id;
        public final String unit;
        final String words;
        final boolean higherIsBetter;
        final ToDoubleFunction<BenchReport.RunFigures> value;

        Figure(String id, String unit, String words, boolean higherIsBetter, ToDoubleFunction<BenchReport.RunFigures> value) {
            this.id = id;
            this.unit = unit;
            this.words = words;
            this.higherIsBetter = higherIsBetter;
            this.value = value;
        }

        /** Its value in a run, NaN when unknown. */
        public double of(BenchReport.RunFigures run) {
            return run == null ? Double.NaN : value.applyAsDouble(run);
        }

        public static Figure named(String id) {
            for (Figure f : values()) if (f.id.equals(id)) return f;
            return RPS; // files written before the verdict named its figure decided on req/s
        }
    }

    private Verdict() {}

    /**
     * The interval of a figure over the turns of every fork: its geometric mean, low and high; how
     * many turns and forks it rests on; whether the forks disagreed ({@link #forksDisagree}), which
     * made it the span of each fork's own interval. Null with fewer than two turns.
     */
    record Spread(double mean, double low, double high, int turns, double halfWidth, int forks, boolean forksDisagree) {}

    /** The mean of {@code logs} (two or more) and its 95% half-width: Student's t times the standard error. */
    private record Logs(double mean, double halfWidth) {
        public static Logs of(List<Double> logs) {
            int n = logs.size();
            double mean = logs.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
            double squares = logs.stream().mapToDouble(x -> (x - mean) * (x - mean)).sum();
            return new Logs(mean, t975(n - 1) * Math.sqrt(squares / (n - 1)) / Math.sqrt(n));
        }
    }

    /**
     * The spread of {@code f}'s per-turn ratios, this server's runs over {@code base}'s; null when
     * fewer than two turns have both. As JMH does, the turns of every fork are pooled: Student's t
     * on their logarithms. Where the forks' means differ by more than their turns explain (a one-way
     * analysis of variance, at 95%), the difference between processes is the larger error: the
     * interval then spans every fork's own (each from its turns alone), so a difference is claimed
     * only when all forks' intervals lie beyond the floor on the same side. (The forks' means with
     * t on forks - 1 degrees of freedom, 12.7 for two, called a server with 2.5 times the CPU per
     * request too noisy to compare in a clean-clone self-test.)
     */
    static Spread spread(List<BenchReport.RunFigures> runs, List<BenchReport.RunFigures> base, Figure f) {
        if (runs == null || base == null || runs.size() != base.size()) return null;
        List<Double> perTurn = new ArrayList<>();
        List<Integer> forkOf = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            double r = Stats.ratio(f.of(runs.get(i)), f.of(base.get(i)));
            if (Double.isNaN(r) || r <= 0) continue;
            perTurn.add(Math.log(r));
            Integer fork = runs.get(i).fork();
            forkOf.add(fork == null ? 1 : fork);
        }
        int n = perTurn.size();
        if (n < 2) return null;
        Logs pooled = Logs.of(perTurn);
        java.util.Map<Integer, List<Double>> byFork = new java.util.TreeMap<>();
        for (int i = 0; i < n; i++) byFork.computeIfAbsent(forkOf.get(i), k -> new ArrayList<>()).add(perTurn.get(i));
        int forks = byFork.size();
        if (forks < 2 || !forksDisagree(byFork.values())) {
            return new Spread(Math.exp(pooled.mean()), Math.exp(pooled.mean() - pooled.halfWidth()), Math.exp(pooled.mean() + pooled.halfWidth()),
                    n, pooled.halfWidth(), forks, false);
        }
        // The forks disagree: each fork's own interval (its turns alone), and the span of them all, so that
        // a difference is claimed only when every fork's interval lies beyond the floor on the same side.
        double low = Double.POSITIVE_INFINITY, high = Double.NEGATIVE_INFINITY, centre = 0;
        for (List<Double> fork : byFork.values()) {
            Logs own = Logs.of(fork);
            low = Math.min(low, own.mean() - own.halfWidth());
            high = Math.max(high, own.mean() + own.halfWidth());
            centre += own.mean() / forks;
        }
        return new Spread(Math.exp(centre), Math.exp(low), Math.exp(high), n, Math.max(pooled.halfWidth(), (high - low) / 2), forks, true);
    }

    /**
     * Whether the groups' (the forks') means differ by more than the spread within them explains:
     * one-way analysis of variance, F above its 95% point; false when a group has a single value
     * or the groups have no spread within them to compare with.
     */
    public static boolean forksDisagree(java.util.Collection<List<Double>> groups) {
        int k = groups.size(), n = groups.stream().mapToInt(List::size).sum();
        if (k < 2 || n - k < 1 || groups.stream().anyMatch(g -> g.size() < 2)) return false;
        double grand = groups.stream().flatMap(List::stream).mapToDouble(Double::doubleValue).average().orElseThrow();
        double between = 0, within = 0;
        for (List<Double> g : groups) {
            double m = g.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
            between += g.size() * (m - grand) * (m - grand);
            for (double x : g) within += (x - m) * (x - m);
        }
        if (within <= 0) return between > 0;
        double fStatistic = (between / (k - 1)) / (within / (n - k));
        return fStatistic > f95(k - 1, n - k);
    }

    /**
     * F's 95% point for {@code d1} and {@code d2} degrees of freedom: exact for one (t squared),
     * else Paulson's normal approximation of F's cube root (within 1% of the tables from d2 = 10 on).
     */
    public static double f95(int d1, int d2) {
        if (d1 == 1) return t975(d2) * t975(d2);
        double z = 1.645, c1 = 2.0 / (9 * d1), c2 = 2.0 / (9 * d2), a = 1 - c2, b = 1 - c1;
        double qa = a * a - z * z * c2, qb = -2 * a * b, qc = b * b - z * z * c1;
        double root = (-qb + Math.sqrt(qb * qb - 4 * qa * qc)) / (2 * qa);
        return root * root * root;
    }

    /** Whether every turn has {@code f} for both servers (CPU time is unknown for a --url server without --pid). */
    public static boolean known(List<BenchReport.RunFigures> runs, List<BenchReport.RunFigures> base, Figure f) {
        return runs != null && base != null && !runs.isEmpty() && runs.size() == base.size()
                && runs.stream().allMatch(r -> !Double.isNaN(f.of(r))) && base.stream().allMatch(r -> !Double.isNaN(f.of(r)));
    }

    /** The verdict on requests per second, as before figures were chosen (kept for callers and tests of req/s alone). */
    public static BenchReport.Interval of(List<BenchReport.RunFigures> runs, List<BenchReport.RunFigures> base, Plan.Pace mode, boolean loadGeneratorBusy) {
        return of(runs, base, Figure.RPS, mode, loadGeneratorBusy, null);
    }

    /**
     * The verdict on figure {@code f}, this server's runs against {@code base}'s, paired turn by
     * turn; null when there are fewer than two turns with both figures (no interval). {@code why}
     * says why this figure decided (null for req/s, the default); {@code mode} and
     * {@code loadGeneratorBusy} shape the floor and the advice.
     */
    public static BenchReport.Interval of(List<BenchReport.RunFigures> runs, List<BenchReport.RunFigures> base, Figure f,
                                   Plan.Pace mode, boolean loadGeneratorBusy, String why) {
        Spread s = spread(runs, base, f);
        if (s == null) return null;
        double floor = floor(f, loadGeneratorBusy, s.forks());
        // Better means a higher ratio for req/s and a lower one for CPU: "better" is the ratio turned the right way.
        double betterLow = f.higherIsBetter ? s.low() : 1 / s.high();
        double betterHigh = f.higherIsBetter ? s.high() : 1 / s.low();
        double detectable = detectable(floor, s.halfWidth());
        Call verdict = betterLow > 1 + floor ? Call.FASTER : betterHigh < 1 / (1 + floor) ? Call.SLOWER
                : detectable > floor + NOISY ? Call.NOISY : Call.SAME;
        return new BenchReport.Interval(f.id, Stats.figure(s.mean()), Stats.figure(s.low()), Stats.figure(s.high()), s.turns(), CONFIDENCE,
                verdict, Stats.figure(detectable), why, advice(verdict, detectable, floor, mode, loadGeneratorBusy && f == Figure.RPS),
                s.forks() > 1 ? s.forks() : null, s.forksDisagree() ? Boolean.TRUE : null);
    }

    /**
     * The smallest difference this race would have called: one whose interval, as wide as this
     * one, lies wholly beyond the floor. As a fraction: 0.06 is 6%.
     */
    public static double detectable(double floor, double halfWidth) {
        return (1 + floor) * Math.exp(halfWidth) - 1;
    }

    /**
     * How far from 1 the whole interval must lie for a difference in {@code f} to be claimed:
     * {@link #FORKED_FLOOR} for CPU per request over turns of two forks or more, whose interval
     * carries the difference between processes; else {@link #BUSY_FLOOR} where Bombardier was
     * near its CPU limit, {@link #FLOOR} elsewhere.
     */
    public static double floor(Figure f, boolean loadGeneratorBusy, int forks) {
        if (f == Figure.CPU && forks > 1) return FORKED_FLOOR;
        return loadGeneratorBusy ? BUSY_FLOOR : FLOOR;
    }

    /**
     * Figure {@code f} when it lies far from the compared server's ({@code far}: the whole
     * interval beyond 1 + far, or under 1 / (1 + far)), as an interval whose verdict is
     * {@link Call#MORE} or {@link Call#LESS}; null when it is not far, or unknown.
     */
    public static BenchReport.Interval farOff(List<BenchReport.RunFigures> runs, List<BenchReport.RunFigures> base, Figure f, double far) {
        Spread s = spread(runs, base, f);
        if (s == null) return null;
        Call verdict = s.low() > 1 + far ? Call.MORE : s.high() < 1 / (1 + far) ? Call.LESS : null;
        if (verdict == null) return null;
        return new BenchReport.Interval(f.id, Stats.figure(s.mean()), Stats.figure(s.low()), Stats.figure(s.high()), s.turns(), CONFIDENCE,
                verdict, null, null, null);
    }

    /** The interval's confidence level. */
    static final double CONFIDENCE = 0.95;

    private static final double[] T975 = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
        2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086};

    /** Student's t, two-sided 95%, for {@code df} degrees of freedom (beyond the table, 1.96 + 2.4 / df, within 0.01). */
    public static double t975(int df) {
        return df < 1 ? Double.NaN : df <= T975.length ? T975[df - 1] : 1.96 + 2.4 / df;
    }

    /** What would let a race that could not tell tell: null when the verdict is clear, or the race could tell small differences. */
    public static String advice(Call verdict, double detectable, double floor, Plan.Pace mode, boolean loadGeneratorBusy) {
        if (verdict == Call.FASTER || verdict == Call.SLOWER || detectable <= 2 * floor) return null;
        List<String> helps = new ArrayList<>();
        helps.add("closing other programs that use the CPU (an IDE, a browser, a video call): the turns disagree, and another program is"
                + " the usual cause, though a server that stalls now and then does it too (its runs are in the JSON)");
        if (mode != Plan.Pace.THOROUGH) helps.add("more and longer turns (--thorough)");
        if (loadGeneratorBusy) helps.add("racing with --pid, so that CPU per request can decide: Bombardier was near its CPU limit, so req/s measures it as much as the servers");
        return "what helps: " + String.join("; ", helps);
    }

    /** The verdict in words, for the terminal and the panel: "slower", "too noisy to compare". */
    public static String words(BenchReport.Interval i) {
        return switch (i.verdict()) {
            case FASTER -> "faster";
            case SLOWER -> "slower";
            case NOISY -> "too noisy to compare";
            case MORE -> "more";
            case LESS -> "less";
            case SAME -> "the same within this machine's noise";
            case null -> "the same within this machine's noise";
        };
    }

    /** What the race could tell: "this race can tell differences larger than 6%", or "" when unknown. */
    public static String power(BenchReport.Interval i) {
        if (i.detectable() == null) return "";
        double percent = Math.ceil(i.detectable() * 100);
        if (i.verdict() == Call.NOISY && i.detectable() >= 1) {
            return "this race could not tell even a " + (i.detectable() >= 9 ? "tenfold" : "twofold") + " difference";
        }
        return i.verdict() == Call.NOISY
                ? String.format(Locale.ROOT, "this race could not tell differences under %.0f%%", percent)
                : String.format(Locale.ROOT, "this race can tell differences larger than %.0f%%", percent);
    }

    /**
     * The verdict line's body: "slower: CPU time per request 1.26x the reference's (1.22x to
     * 1.30x, 16 turns in 2 forks); this race can tell differences larger than 6%". Too noisy says so first.
     */
    public static String sentence(BenchReport.Interval i, String compared) {
        Figure f = Figure.named(i.figure());
        String range = String.format(Locale.ROOT, "%s to %s, %d turns%s%s", Stats.times(Stats.known(i.low())), Stats.times(Stats.known(i.high())),
                i.turns(), i.forks() == null ? "" : " in " + i.forks() + " forks",
                Boolean.TRUE.equals(i.forksDisagree()) ? ", whose processes disagreed beyond their turns: the interval spans each fork's own" : "");
        String figure = f.words + " " + Stats.times(Stats.known(i.ratio())) + " " + compared + "'s (" + range + ")";
        if (i.verdict() == Call.NOISY) return "too noisy to compare: " + power(i) + "; " + figure;
        String p = power(i);
        return words(i) + ": " + figure + (p.isEmpty() ? "" : "; " + p);
    }

    /** A figure called out beside the verdict: "uses more memory: peak RSS 5.02x the reference's (4.60x to 5.40x)". */
    public static String callout(BenchReport.Interval i, String compared) {
        Figure f = Figure.named(i.figure());
        String what = f == Figure.RSS ? "memory" : "CPU";
        return "uses " + (i.verdict() == Call.MORE ? "more " : "less ") + what + ": " + f.words + " " + Stats.times(Stats.known(i.ratio()))
                + " " + compared + "'s (" + Stats.times(Stats.known(i.low())) + " to " + Stats.times(Stats.known(i.high())) + ")";
    }
}
