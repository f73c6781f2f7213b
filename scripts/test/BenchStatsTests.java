package test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import contract.Stats;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Unit tests of the benchmark's arithmetic (scripts/bench/Stats.java): medians, percentiles,
 * ratios, Little's bound, and how figures are shown. TestBench runs them with BenchTests.
 */
@Tag("unit")
class BenchStatsTests {
    @Test
    @DisplayName("the median of an odd count is the middle value, of an even count the mean of the middle two")
    void median() {
        assertEquals(3, Stats.median(List.of(5, 1, 3)), BenchTests.EPS);
        assertEquals(2.5, Stats.median(List.of(4, 1, 3, 2)), BenchTests.EPS);
        assertEquals(7, Stats.median(List.of(7)), BenchTests.EPS);
        assertTrue(Double.isNaN(Stats.median(List.of())));
    }

    @Test
    @DisplayName("the median leaves out unknown (NaN) runs instead of sorting them somewhere")
    void medianIgnoresNaN() {
        assertEquals(2, Stats.median(List.of(1.0, Double.NaN, 3.0)), BenchTests.EPS);
    }

    @Test
    @DisplayName("percentiles interpolate between ranks, and 0 and 100 are the extremes")
    void percentile() {
        List<Integer> values = List.of(10, 20, 30, 40, 50);
        assertEquals(10, Stats.percentile(values, 0), BenchTests.EPS);
        assertEquals(50, Stats.percentile(values, 100), BenchTests.EPS);
        assertEquals(46, Stats.percentile(values, 90), BenchTests.EPS);
        assertEquals(20, Stats.percentile(values, 25), BenchTests.EPS);
        assertThrows(IllegalArgumentException.class, () -> Stats.percentile(values, 101));
    }

    @Test
    @DisplayName("a ratio to zero or to an unknown figure is unknown, not infinite")
    void ratio() {
        assertEquals(0.5, Stats.ratio(1, 2), BenchTests.EPS);
        assertTrue(Double.isNaN(Stats.ratio(1, 0)));
        assertTrue(Double.isNaN(Stats.ratio(Double.NaN, 2)));
    }

    @Test
    @DisplayName("Little's law: 2000 connections waiting 200 ms each can get 10,000 answers a second at most")
    void littleBound() {
        assertEquals(10_000, Stats.littleBound(2000, 0.2), BenchTests.EPS);
        assertEquals(500, Stats.littleBound(100, 0.2), BenchTests.EPS);
        assertEquals(95, Stats.percentOf(9_500, 10_000), BenchTests.EPS);
        assertTrue(Double.isNaN(Stats.percentOf(100, Double.NaN)));
        assertThrows(IllegalArgumentException.class, () -> Stats.littleBound(10, 0));
    }

    @Test
    @DisplayName("figures are shown readably: rates, milliseconds, bytes, ratios, percentages, time left")
    void formatting() {
        assertEquals("842", Stats.rate(842.4));
        assertEquals("12.3k", Stats.rate(12_345));
        assertEquals("250k", Stats.rate(250_000));
        assertEquals("1.25M", Stats.rate(1_250_000));
        assertEquals("-", Stats.rate(Double.NaN));
        assertEquals("0.12", Stats.millis(0.1234));
        assertEquals("4.5", Stats.millis(4.5));
        assertEquals("203", Stats.millis(203.4));
        assertEquals("512 B", Stats.bytes(512));
        assertEquals("3.4 KiB", Stats.bytes(3.4 * 1024));
        assertEquals("120 MiB", Stats.bytes(120.0 * 1024 * 1024));
        assertEquals("1.05x", Stats.times(1.049));
        assertEquals("87%", Stats.percent(87.2));
        assertEquals("45 s", Stats.duration(45));
        assertEquals("2m05s", Stats.duration(125));
    }

    @Test
    @DisplayName("JSON figures keep 4 significant digits")
    void significant() {
        assertEquals(12_350, Stats.significant(12_345.6, 4), BenchTests.EPS);
        assertEquals(0.001235, Stats.significant(0.00123456, 4), 1e-12);
        assertEquals(0, Stats.significant(0, 4), BenchTests.EPS);
    }

    @Test
    @DisplayName("bars: full width for the maximum, eighth blocks in between, a sliver for any value above zero")
    void bars() {
        assertEquals("█".repeat(40), Stats.bar(100, 100, 40, false));
        assertEquals("█".repeat(20), Stats.bar(50, 100, 40, false));
        assertEquals("█▌", Stats.bar(1.5, 4, 4, false));
        assertEquals("▏", Stats.bar(0.001, 100, 40, false));
        assertEquals("", Stats.bar(0, 100, 40, false));
        assertEquals("", Stats.bar(Double.NaN, 100, 40, false));
        assertEquals("#".repeat(10), Stats.bar(1, 4, 40, true));
    }
}
