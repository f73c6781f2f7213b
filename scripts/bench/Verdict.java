import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Whether one server is faster than another, from races run in turns. Each turn runs both
 * servers back to back, so the ratio of their figures in one turn (this ÷ the other) shares that
 * moment's conditions; the turns alternate who goes first. The interval runs from the lowest to
 * the highest of these per-turn ratios: for n turns it holds the middle ratio with probability
 * 1 - 2^(1-n) (75% for 3 turns, 94% for 5), whatever the shape of the noise. The verdict says
 * faster or slower only when every turn agrees by more than {@link #FLOOR}; otherwise the two are
 * the same within this machine's noise. Pure arithmetic, for unit tests.
 */
final class Verdict {
    /** Per-turn differences smaller than this are not claimed: turn order and the machine's drift make that much. */
    static final double FLOOR = 0.05;

    static final String FASTER = "faster";
    static final String SLOWER = "slower";
    static final String SAME = "same";

    private Verdict() {}

    /**
     * The verdict on requests per second, this server's runs against {@code base}'s, paired
     * turn by turn; null when there are fewer than two turns with both figures (no interval).
     * {@code ratio} is the ratio of the medians, shown as the headline figure; {@code mode} and
     * {@code loadGeneratorBusy} shape the advice when the turns disagree too much to tell.
     */
    static BenchReport.Interval of(List<BenchReport.RunFigures> runs, List<BenchReport.RunFigures> base, double ratio,
                                   String mode, boolean loadGeneratorBusy) {
        if (runs == null || base == null || runs.size() != base.size()) return null;
        List<Double> perTurn = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            double r = Stats.ratio(value(runs.get(i)), value(base.get(i)));
            if (!Double.isNaN(r)) perTurn.add(r);
        }
        if (perTurn.size() < 2) return null;
        double low = perTurn.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
        double high = perTurn.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
        if (!Double.isNaN(ratio)) {
            low = Math.min(low, ratio);
            high = Math.max(high, ratio);
        }
        String verdict = low > 1 + FLOOR ? FASTER : high < 1 - FLOOR ? SLOWER : SAME;
        int n = perTurn.size();
        return new BenchReport.Interval(Stats.figure(low), Stats.figure(high), n, Stats.figure(coverage(n)), verdict,
                advice(verdict, low, high, mode, loadGeneratorBusy));
    }

    /** How often the range of n per-turn ratios holds their middle value: 1 - 2^(1-n). */
    static double coverage(int turns) {
        return 1 - Math.pow(2, 1 - turns);
    }

    /** What would let a too-wide race tell: null when the verdict is clear, or "the same" within the floor. */
    static String advice(String verdict, double low, double high, String mode, boolean loadGeneratorBusy) {
        if (!verdict.equals(SAME) || (low >= 1 - FLOOR && high <= 1 + FLOOR)) return null;
        double undecided = Math.max(1 - low, high - 1) * 100;
        List<String> helps = new ArrayList<>();
        if (!"thorough".equals(mode)) helps.add("more and longer turns (--thorough)");
        helps.add("closing other programs (an IDE, a browser, a video call)");
        if (loadGeneratorBusy) helps.add("reading CPU ms per request instead: Bombardier was near its CPU limit, so req/s measures it as much as the servers");
        return String.format(Locale.ROOT, "the turns ranged from %s to %s, so this race cannot tell a difference under %.0f%%; what helps: %s",
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
