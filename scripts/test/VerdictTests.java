import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Unit tests of the race's verdict (faster, slower, or the same within the noise): per-turn
 * req/s made up here, so that each verdict can be shown to fail.
 */
class VerdictTests {
    /** The verdict for a learner whose runs made these req/s, turn by turn, against these of the reference. */
    static BenchReport.Interval verdict(double[] learner, double[] reference) {
        return verdict(learner, reference, Double.NaN);
    }

    /** The same, with Bombardier using {@code loadCpuPercent} of its CPU in every run (NaN: not measured). */
    static BenchReport.Interval verdict(double[] learner, double[] reference, double loadCpuPercent) {
        List<Tally.Run> l = new ArrayList<>();
        List<Tally.Run> r = new ArrayList<>();
        for (double x : learner) l.add(BenchTests.busyRun(BenchTests.run(Math.round(x * 2), 2, 0, 0, 50), loadCpuPercent));
        for (double x : reference) r.add(BenchTests.busyRun(BenchTests.run(Math.round(x * 2), 2, 0, 0, 50), loadCpuPercent));
        List<BenchReport.Result> rows = Report.ratios(List.of(BenchTests.result(BenchTests.IO, "learner", l), BenchTests.result(BenchTests.IO, "reference", r)), "reference", "quick");
        return BenchTests.load(rows.get(0)).ratio().rpsInterval();
    }

    @Test
    @DisplayName("verdict: faster or slower only when the 95% interval of the turns lies more than 5% from 1; else the same")
    void verdicts() {
        BenchReport.Interval same = verdict(new double[] {1000, 1010, 995}, new double[] {1002, 998, 1001});
        assertEquals("same", same.verdict());
        assertNull(same.advice(), "turns within 5% of each other need no advice: " + same.advice());
        assertEquals(3, same.turns());
        assertEquals(0.95, same.confidence(), BenchTests.EPS);

        // per-turn ratios 1.3, 1.2376 and 1.3636, t(2) = 4.303: 1.15x to 1.47x
        BenchReport.Interval faster = verdict(new double[] {1300, 1250, 1350}, new double[] {1000, 1010, 990});
        assertEquals("faster", faster.verdict());
        assertEquals(1.152, faster.low(), 2e-3);
        assertEquals(1.466, faster.high(), 2e-3);

        assertEquals("slower", verdict(new double[] {700, 720, 690}, new double[] {1000, 990, 1010}).verdict());

        BenchReport.Interval oneTurnDisagrees = verdict(new double[] {1300, 1030, 1350}, new double[] {1000, 1000, 1000});
        assertEquals("same", oneTurnDisagrees.verdict(), "three turns that disagree this much cannot support a claim: " + oneTurnDisagrees);
        assertEquals("faster", verdict(new double[] {1300, 1310, 1290, 1305, 1295}, new double[] {1000, 1000, 1000, 1000, 1000}).verdict());
    }

    @Test
    @DisplayName("verdict: an interval too wide to tell says so, and what would help (--thorough, other programs, the load generator)")
    void tooWide() {
        // the self-race this machine measured on hello: per-turn ratios 0.822, 1.059, 1.181
        BenchReport.Interval wide = verdict(new double[] {822, 1059, 1181}, new double[] {1000, 1000, 1000});
        assertEquals("same", wide.verdict());
        assertTrue(wide.advice().contains("0.64x to 1.60x"), wide.advice());
        assertTrue(wide.advice().contains("under 61%"), wide.advice());
        assertTrue(wide.advice().contains("--thorough"), wide.advice());
        assertFalse(wide.advice().contains("Bombardier"), "the load generator was not busy: " + wide.advice());
        String busy = Verdict.advice("same", 0.9, 1.4, "thorough", true);
        assertFalse(busy.contains("--thorough"), "a thorough race does not advise --thorough: " + busy);
        assertTrue(busy.contains("CPU ms per request"), busy);
        assertEquals(2.776, Verdict.t975(4), BenchTests.EPS);
    }

    @Test
    @DisplayName("verdict: with the load generator at its CPU limit, a difference is claimed only beyond 20%")
    void busyFloor() {
        // a self-race on hello measured here: three steady turns of 1.08x to 1.13x between two processes of one server
        double[] base = {1000, 1000, 1000};
        assertEquals("faster", verdict(new double[] {1100, 1110, 1120}, base, Double.NaN).verdict());
        BenchReport.Interval busy = verdict(new double[] {1100, 1110, 1120}, base, 97);
        assertEquals("same", busy.verdict(), busy.toString());
        assertNull(busy.advice(), "an interval within the floor needs no advice: " + busy.advice());
        assertEquals("faster", verdict(new double[] {1300, 1310, 1320}, base, 97).verdict());
        assertEquals("slower", verdict(new double[] {700, 710, 720}, base, 97).verdict());
    }

}
