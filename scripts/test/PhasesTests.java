package test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import bench.Bombardier;
import bench.Ramp;
import bench.Soak;
import bench.Spike;
import bench.Tally;
import contract.BenchReport;
import contract.Plan;
import contract.Stats;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import lib.Painter;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Unit tests of the stress phases: the ramp's steps, what breaks a server, and where each broke. */
@Tag("unit")
class PhasesTests {
    /** A step's result: {@code ok} answers in 2 s, {@code failed} errors, and this p99. */
    static BenchReport.Result step(Plan.Workload w, String server, long ok, long failed, double p99) {
        Tally.Run run = new Tally.Run(new Bombardier.Result(2, ok, 0, failed, failed, 200, p99, p99, Map.of(), Double.NaN),
                0.5, 100_000_000, 12, 50, Double.NaN);
        return BenchTests.result(w, server, List.of(run));
    }

    @Test
    @DisplayName("ramp: 100 to 10,000 connections in 7 steps of GET /io?ms=200, cut to what this process may open; smoke takes two")
    void steps() {
        List<Plan.Workload> all = Plan.ramp(Integer.MAX_VALUE, false);
        assertEquals(List.of(100, 250, 500, 1000, 2500, 5000, 10_000), all.stream().map(Plan.Workload::connections).toList());
        assertTrue(all.stream().allMatch(w -> w.ramp() && w.sleepBound() && w.path().equals("/io?ms=200")));
        assertEquals(50_000, all.get(6).boundRps(), 1e-6, "Little's law: 10,000 connections / 0.2 s");
        assertEquals(4, Plan.ramp(2000, false).size(), "a limit of 2000 files stops the ramp at 1000");
        assertEquals(2, Plan.ramp(Integer.MAX_VALUE, true).size());
        Plan.Mode ramp = Plan.Pace.QUICK.mode().forRamp();
        assertEquals(1, ramp.runs());
        assertEquals(5, ramp.runSecondsFor(all.get(3)));
        assertEquals(2, ramp.warmupsFor(all.get(0)), "the first step warms up");
        assertEquals(0, ramp.warmupsFor(all.get(1)), "later steps do not");
        assertEquals(10, Plan.Pace.THOROUGH.mode().forRamp().runSecondsFor(all.get(0)));
    }

    @Test
    @DisplayName("ramp: a step breaks a server past 1% failed requests, a p99 over 1 s, or a stall; and holds otherwise")
    void breaking() {
        Plan.Workload w = Plan.ramp(Integer.MAX_VALUE, false).get(2);
        assertNull(Ramp.broke(step(w, "a", 1000, 10, 900)), "1.0% failed and p99 0.9 s hold");
        assertTrue(Ramp.broke(step(w, "a", 1000, 11, 300)).contains("1.1% of requests failed"), Ramp.broke(step(w, "a", 1000, 11, 300)));
        assertTrue(Ramp.broke(step(w, "a", 1000, 0, 1500)).contains("p99 1500 ms"), Ramp.broke(step(w, "a", 1000, 0, 1500)));
        assertTrue(Ramp.broke(step(w, "a", 0, 0, 0)).contains("no request"), "no answer at all breaks");
        Tally stalled = new Tally(BenchTests.server("b"), null);
        stalled.stalls.add("run 1 stalled");
        assertTrue(Ramp.broke(stalled.result(w)).contains("starved"));
        assertNull(Ramp.broke(new BenchReport.SkippedResult("c", "no /io", List.of())), "a skipped step neither holds nor breaks");
    }

    @Test
    @DisplayName("ramp: the summary keeps the most connections each server held and the step that broke it; the curve names both")
    void summary() {
        List<Plan.Workload> steps = Plan.ramp(1000, false);
        List<BenchReport.WorkloadEntry> entries = new java.util.ArrayList<>();
        for (Plan.Workload w : steps) {
            int c = w.connections();
            BenchReport.Result pool = c <= 250 ? step(w, "02", 5 * c, 0, 300) : c == 500
                    ? step(w, "02", 800, 200, 5000) : new BenchReport.SkippedResult("02", Ramp.sitOut(Map.of("02", 500), "02"), List.of());
            entries.add(new BenchReport.WorkloadEntry(w.id(), w.group(), w.description(), w.path(), c, 200, 5, w.boundRps(), null,
                    List.of(step(w, "03", 5 * c, 0, 210), pool, new BenchReport.SkippedResult("09", "it has no /io endpoint (404)", List.of()))));
        }
        BenchReport.RampSummary ramp = Ramp.summarize(entries, List.of("03", "02", "09"));
        assertEquals(List.of(100, 250, 500, 1000), ramp.steps());
        assertEquals(new BenchReport.BreakingPoint("03", 1000, null, null), ramp.servers().get(0));
        BenchReport.BreakingPoint pool = ramp.servers().get(1);
        assertEquals(250, pool.held());
        assertEquals(500, pool.brokeAt());
        assertTrue(pool.why().contains("20.0% of requests failed"), pool.why());
        assertEquals(new BenchReport.BreakingPoint("09", null, null, "it has no /io endpoint (404)"), ramp.servers().get(2));

        BenchReport report = new BenchReport(BenchReport.SCHEMA, BenchReport.Kind.ALL, "scripts/bench.sh --all --ramp", null, "2026-01-01T00:00:00Z", 0,
                null, null, null, List.of(), entries, ramp, null, null, null, List.of(), 60);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Ramp.print(new PrintStream(bytes, true, StandardCharsets.UTF_8), report, new Painter(false));
        String curve = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(curve.contains("03         held 1000 connections, every step"), curve);
        assertTrue(curve.contains("02         held 250 connections; broke at 500: 20.0% of requests failed"), curve);
        assertTrue(curve.contains("09         did not run: it has no /io endpoint (404)"), curve);
        assertTrue(curve.contains("400✗"), "the step that broke 02 is marked: " + curve);
        assertTrue(curve.contains("▅▅▅▅"), "03's share of the bound, step by step, as a sparkline: " + curve);
        assertEquals("▁▅█ ", Stats.sparkline(java.util.Arrays.asList(0.0, 50.0, 100.0, null), 100));
        assertEquals("▁▁▁", Stats.sparkline(List.of(2.0, 2.0, 2.0), 2, 2), "a flat line lies low");
        assertEquals("▁█", Stats.sparkline(List.of(2.0, 3.0), 2, 3), "from the lowest to the highest");
        assertEquals(report, BenchReport.read(report.json()), "the summary survives JSON");
    }

    static BenchReport.SpikeWindow after(double rps, long failed) {
        return new BenchReport.SpikeWindow(0, "after", 1, Spike.BASE, rps, failed, 200.0);
    }

    @Test
    @DisplayName("spike: back at the first window within 5% of the baseline with nothing failed; files or threads past the margin are left over")
    void spikeRecovery() {
        assertEquals(0, Spike.recoveredAfterSeconds(List.of(after(4800, 0)), 5000), "4.0% below is back");
        assertEquals(4, Spike.recoveredAfterSeconds(List.of(after(3000, 0), after(4900, 3), after(4760, 0)), 5000),
                "a window with failures is not back, however fast; the third window starts after 4 s");
        assertNull(Spike.recoveredAfterSeconds(List.of(after(4700, 0), after(4740, 0)), 5000), "6% and 5.2% below are not back");
        assertNull(Spike.leftOver("open files", 1012, 1028), "16 more is within the margin");
        assertEquals("open files 1012 before the spikes, 1115 after", Spike.leftOver("open files", 1012, 1115), "over 10% and 16 more");
        assertNull(Spike.leftOver("threads", 20, 36));
        assertTrue(Spike.leftOver("threads", 20, 37).contains("threads 20"));
        assertNull(Spike.leftOver("threads", null, 37), "unknown is not a leak");
    }

    static BenchReport.SoakSample sample(double at, double heapMiB, int files) {
        return new BenchReport.SoakSample(at, 5000.0, 0, heapMiB * 1024 * 1024, 200L * 1024 * 1024, 20, files);
    }

    @Test
    @DisplayName("soak: windows of 10 s, at least 3, at most an hour; the slope a minute by least squares; growth flagged from the middle third to the last")
    void soak() {
        assertEquals(30, Soak.windows(5));
        assertEquals(3, Soak.windows(0.1));
        assertEquals(360, Soak.windows(600), "an hour at most");
        assertEquals(List.of("10", "1.5", "0.1"), List.of(Soak.minutes(10), Soak.minutes(1.5), Soak.minutes(0.1)), "minutes as people write them");
        List<BenchReport.SoakSample> leak = new java.util.ArrayList<>(), steady = new java.util.ArrayList<>();
        for (int i = 0; i < 12; i++) {
            leak.add(sample(10 * (i + 1), 20 + 3 * i, 1010 + 10 * i)); // 18 MiB and 60 files a minute
            steady.add(sample(10 * (i + 1), i < 2 ? 20 : 30, 1012)); // warms up from 20 to 30 MiB, then stays
        }
        BenchReport.SoakServer grows = Soak.summarize("x", leak, null);
        assertEquals(18.0 * 1024 * 1024, grows.heapBytesPerMinute(), 2e4, "4 significant digits");
        assertEquals(60, grows.filesPerMinute(), 1e-6);
        assertEquals(0, grows.threadsPerMinute(), 1e-6);
        assertTrue(grows.flags().stream().anyMatch(f -> f.startsWith("heap after GC grew")), grows.flags().toString());
        assertTrue(grows.flags().stream().anyMatch(f -> f.startsWith("open files grew")), grows.flags().toString());
        assertEquals(List.of(), Soak.summarize("y", steady, null).flags(), "a heap that settles after warm-up is not a leak");
    }

    @Test
    @DisplayName("spike and soak: the committed runs print each server's cycles or slopes, with a sparkline of its windows or heap")
    void printsCommitted() throws Exception {
        for (String name : List.of("spike", "soak")) {
            BenchReport report = BenchReport.read(java.nio.file.Files.readString(BenchTests.ROOT.resolve("site/static/bench/" + name + ".json")));
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
            if (name.equals("spike")) Spike.print(out, report.spike(), new Painter(false));
            else Soak.print(out, report.soak(), new Painter(false));
            String text = bytes.toString(StandardCharsets.UTF_8);
            assertTrue(text.contains("03 ") && text.contains("netty") && text.contains("sat out"), name + ": " + text);
            assertTrue(text.chars().anyMatch(c -> "▁▂▃▄▅▆▇█".indexOf(c) >= 0), name + " has no sparkline: " + text);
        }
    }
}
