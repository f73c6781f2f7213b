import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Whether one server is faster than another, from races run in turns. Each turn runs both
 * servers back to back, so the ratio of their figures in one turn (this ÷ the other) shares that
 * moment's conditions; the turns alternate who goes first. The interval is the 95% confidence
 * interval of the per-turn ratios' geometric mean (Student's t on their logarithms): few turns
 * that disagree give a wide one (t is 4.3 for 3 turns, 2.8 for 5). The verdict says faster or
 * slower only when the whole interval lies more than the floor away from 1 ({@link #FLOOR}, or
 * {@link #BUSY_FLOOR} when the load generator was at its CPU limit); otherwise the two are the
 * same within this machine's noise. Pure arithmetic, for unit tests.
 */
final class Verdict {
    /** A difference whose interval comes within this of 1 is not claimed: turn order and the machine's drift make that much. */
    static final double FLOOR = 0.05;
    /**
     * The floor when Bombardier was near its CPU limit: it sets the pace then, and two processes of
     * the same server have differed here by up to 14%, steadily over three turns (1.08x to 1.13x in
     * a self-race on hello), so a smaller difference is not the server's code.
     */
    static final double BUSY_FLOOR = 0.20;

    static final String FASTER = "faster";
    static final String SLOWER = "slower";
    static final String SAME = "same";

    private Verdict() {}

    /**
     * The verdict on requests per second, this server's runs against {@code base}'s, paired
     * turn by turn; null when there are fewer than two turns with both figures (no interval).
     * {@code mode} and {@code loadGeneratorBusy} shape the advice when the turns disagree too much to tell.
     */
    static BenchReport.Interval of(List<BenchReport.RunFigures> runs, List<BenchReport.RunFigures> base,
                                   String mode, boolean loadGeneratorBusy) {
        if (runs == null || base == null || runs.size() != base.size()) return null;
        List<Double> perTurn = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            double r = Stats.ratio(value(runs.get(i)), value(base.get(i)));
            if (!Double.isNaN(r)) perTurn.add(r);
        }
        if (perTurn.size() < 2) return null;
        int n = perTurn.size();
        double mean = perTurn.stream().mapToDouble(Math::log).average().orElseThrow();
        double squares = perTurn.stream().mapToDouble(r -> (Math.log(r) - mean) * (Math.log(r) - mean)).sum();
        double halfWidth = t975(n - 1) * Math.sqrt(squares / (n - 1)) / Math.sqrt(n);
        double low = Math.exp(mean - halfWidth);
        double high = Math.exp(mean + halfWidth);
        double floor = floor(loadGeneratorBusy);
        String verdict = low > 1 + floor ? FASTER : high < 1 - floor ? SLOWER : SAME;
        return new BenchReport.Interval(Stats.figure(low), Stats.figure(high), n, CONFIDENCE, verdict,
                advice(verdict, low, high, mode, loadGeneratorBusy));
    }

    /** How far from 1 the whole interval must lie for a difference to be claimed. */
    static double floor(boolean loadGeneratorBusy) {
        return loadGeneratorBusy ? BUSY_FLOOR : FLOOR;
    }

    /** The interval's confidence level. */
    static final double CONFIDENCE = 0.95;

    private static final double[] T975 = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
        2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086};

    /** Student's t, two-sided 95%, for {@code df} degrees of freedom (beyond the table, 1.96 + 2.4 / df, within 0.01). */
    static double t975(int df) {
        return df < 1 ? Double.NaN : df <= T975.length ? T975[df - 1] : 1.96 + 2.4 / df;
    }

    /** What would let a too-wide race tell: null when the verdict is clear, or "the same" within the floor. */
    static String advice(String verdict, double low, double high, String mode, boolean loadGeneratorBusy) {
        double floor = floor(loadGeneratorBusy);
        if (!verdict.equals(SAME) || (low >= 1 - floor && high <= 1 + floor)) return null;
        double undecided = Math.max(1 - low, high - 1) * 100;
        List<String> helps = new ArrayList<>();
        if (!"thorough".equals(mode)) helps.add("more and longer turns (--thorough)");
        helps.add("closing other programs (an IDE, a browser, a video call)");
        if (loadGeneratorBusy) helps.add("reading CPU ms per request instead: Bombardier was near its CPU limit, so req/s measures it as much as the servers");
        return String.format(Locale.ROOT, "the interval runs from %s to %s, so this race cannot tell a difference under %.0f%%; what helps: %s",
                Stats.times(low), Stats.times(high), Math.ceil(undecided), String.join("; ", helps));
    }

    /** In words, for the terminal and the panel. */
    static String words(BenchReport.Interval i) {
        return switch (i.verdict()) {
            case FASTER -> "faster";
            case SLOWER -> "slower";
            default -> "the same within this machine's noise";
        };
    }

    private static double value(BenchReport.RunFigures run) {
        return run == null ? Double.NaN : Stats.known(run.rps());
    }
}
