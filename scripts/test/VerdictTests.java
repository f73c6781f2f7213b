package test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import bench.Bombardier;
import bench.Compare;
import bench.RaceOptions;
import bench.Report;
import bench.Server;
import bench.Tally;
import contract.BenchReport;
import contract.Plan;
import contract.Verdict;
import java.util.ArrayList;
import java.util.List;
import lib.Subject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Unit tests of the race's verdict (faster, slower, or the same within the noise): per-turn
 * req/s made up here, so that each verdict can be shown to fail.
 */
@Tag("unit")
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
        List<BenchReport.Result> rows = Compare.ratios(List.of(BenchTests.result(BenchTests.IO, "learner", l), BenchTests.result(BenchTests.IO, "reference", r)), "reference", Plan.Pace.QUICK);
        return BenchTests.load(rows.get(0)).ratio().rpsInterval();
    }

    /** A run of 2 s at {@code rps} whose server spent {@code cpuMicros} of CPU per answer and peaked at {@code rss} bytes. */
    static Tally.Run run(double rps, double cpuMicros, long rss, double loadCpuPercent) {
        long ok = Math.round(rps * 2);
        return new Tally.Run(new Bombardier.Result(2, ok, 0, 0, 0, 1, 2, 3, java.util.Map.of(), Double.NaN),
                ok * cpuMicros / 1e6, rss, 12, 50, loadCpuPercent);
    }

    static final Plan.Workload HELLO = Plan.WORKLOADS.get(0);

    /** The learner's and the reference's ratios on hello, from runs in turns. */
    static BenchReport.LoadRatio hello(List<Tally.Run> learner, List<Tally.Run> reference) {
        List<BenchReport.Result> rows = Compare.ratios(List.of(BenchTests.result(HELLO, "learner", learner),
                BenchTests.result(HELLO, "reference", reference)), "reference", Plan.Pace.QUICK, Plan.Group.HELLO);
        return BenchTests.load(rows.get(0)).ratio();
    }

    @Test
    @DisplayName("verdict: faster or slower only when the 95% interval of the turns lies more than 5% from 1; else the same")
    void verdicts() {
        BenchReport.Interval same = verdict(new double[] {1000, 1010, 995}, new double[] {1002, 998, 1001});
        assertEquals(Verdict.Call.SAME, same.verdict());
        assertNull(same.advice(), "turns within 5% of each other need no advice: " + same.advice());
        assertEquals(3, same.turns());
        assertEquals(0.95, same.confidence(), BenchTests.EPS);
        assertEquals("rps", same.figure());
        assertTrue(Verdict.sentence(same, "the reference").contains("this race can tell differences larger than 8%"), Verdict.sentence(same, "the reference"));

        // per-turn ratios 1.3, 1.2376 and 1.3636, t(2) = 4.303: 1.15x to 1.47x
        BenchReport.Interval faster = verdict(new double[] {1300, 1250, 1350}, new double[] {1000, 1010, 990});
        assertEquals(Verdict.Call.FASTER, faster.verdict());
        assertEquals(1.152, faster.low(), 2e-3);
        assertEquals(1.466, faster.high(), 2e-3);

        assertEquals(Verdict.Call.SLOWER, verdict(new double[] {700, 720, 690}, new double[] {1000, 990, 1010}).verdict());

        BenchReport.Interval oneTurnDisagrees = verdict(new double[] {1300, 1030, 1350}, new double[] {1000, 1000, 1000});
        assertEquals(Verdict.Call.NOISY, oneTurnDisagrees.verdict(), "three turns that disagree this much cannot support a claim, nor tell anything: " + oneTurnDisagrees);
        assertEquals(Verdict.Call.FASTER, verdict(new double[] {1300, 1310, 1290, 1305, 1295}, new double[] {1000, 1000, 1000, 1000, 1000}).verdict());
        BenchReport.Interval unsure = verdict(new double[] {1000, 1080, 960}, new double[] {1000, 1000, 1000});
        assertEquals(Verdict.Call.SAME, unsure.verdict(), unsure.toString());
    }

    @Test
    @DisplayName("verdict: a race that could not tell a 30% difference says \"too noisy to compare\" first, and what would help")
    void tooWide() {
        // the self-race this machine measured on hello: per-turn ratios 0.822, 1.059, 1.181
        BenchReport.Interval wide = verdict(new double[] {822, 1059, 1181}, new double[] {1000, 1000, 1000});
        assertEquals(Verdict.Call.NOISY, wide.verdict());
        String said = Verdict.sentence(wide, "the reference");
        assertTrue(said.startsWith("too noisy to compare: this race could not tell differences under 6"), said);
        assertTrue(said.contains("0.64x to 1.60x"), said);
        assertTrue(wide.advice().contains("--thorough"), wide.advice());
        assertTrue(wide.advice().contains("another program is the usual cause"), wide.advice());
        assertFalse(wide.advice().contains("Bombardier"), "the load generator was not busy: " + wide.advice());
        String busy = Verdict.advice(Verdict.Call.NOISY, 0.6, 0.2, Plan.Pace.THOROUGH, true);
        assertFalse(busy.contains("--thorough"), "a thorough race does not advise --thorough: " + busy);
        assertTrue(busy.contains("CPU per request"), busy);
        assertNull(Verdict.advice(Verdict.Call.SLOWER, 0.6, 0.05, Plan.Pace.QUICK, false), "a clear verdict needs no advice");
        assertEquals(2.776, Verdict.t975(4), BenchTests.EPS);
        assertEquals(0.05, Verdict.detectable(0.05, 0), BenchTests.EPS);
        // the busy laptop: 0.30x to 14x says so in words, not "under 1256%"
        BenchReport.Interval laptop = verdict(new double[] {300, 14_000, 2_000}, new double[] {1000, 1000, 1000});
        assertEquals(Verdict.Call.NOISY, laptop.verdict());
        assertTrue(Verdict.sentence(laptop, "the reference").startsWith("too noisy to compare: this race could not tell even a tenfold difference"),
                Verdict.sentence(laptop, "the reference"));
    }

    @Test
    @DisplayName("verdict: with the load generator at its CPU limit and no CPU figure, req/s claims a difference only beyond 20%")
    void busyFloor() {
        // a self-race on hello measured here: three steady turns of 1.08x to 1.13x between two processes of one server
        double[] base = {1000, 1000, 1000};
        assertEquals(Verdict.Call.FASTER, verdict(new double[] {1100, 1110, 1120}, base, Double.NaN).verdict());
        BenchReport.Interval busy = Verdict.of(runs(1100, 1110, 1120), runs(1000, 1000, 1000), Plan.Pace.QUICK, true);
        assertEquals(Verdict.Call.SAME, busy.verdict(), busy.toString());
        assertEquals(Verdict.Call.FASTER, Verdict.of(runs(1300, 1310, 1320), runs(1000, 1000, 1000), Plan.Pace.QUICK, true).verdict());
        assertEquals(Verdict.Call.SLOWER, Verdict.of(runs(700, 710, 720), runs(1000, 1000, 1000), Plan.Pace.QUICK, true).verdict());
    }

    private static List<BenchReport.RunFigures> runs(double... rps) {
        List<BenchReport.RunFigures> runs = new ArrayList<>();
        for (double x : rps) runs.add(BenchTests.run(Math.round(x * 2), 2, 0, 0, 50).figures());
        return runs;
    }

    @Test
    @DisplayName("hello: CPU per request decides (req/s measures Bombardier), so a server with 25% more CPU per answer is slower, whatever its req/s")
    void helloDecidesOnCpu() {
        // what issue 27 measured: 13.1 against 10.4 µs/req, and req/s that said "the same" (0.77x to 1.08x)
        BenchReport.LoadRatio r = hello(List.of(run(75_000, 13.1, 300 << 20, 97), run(90_000, 13.0, 300 << 20, 98), run(70_000, 13.2, 300 << 20, 97)),
                List.of(run(83_000, 10.4, 300 << 20, 97), run(84_000, 10.5, 300 << 20, 96), run(80_000, 10.3, 300 << 20, 98)));
        BenchReport.Interval v = r.verdict();
        assertEquals("cpuPerRequest", v.figure());
        assertEquals(Verdict.Call.SLOWER, v.verdict(), v.toString());
        assertEquals(1.26, v.ratio(), 0.01);
        assertTrue(v.why().startsWith("Bombardier used 97% of its CPU, so req/s measures it"), v.why());
        assertTrue(Compare.whyCpu(43).contains("on hello req/s depends on Bombardier keeping up and on what else runs on the machine (Bombardier used 43% of its CPU)"), Compare.whyCpu(43));
        assertTrue(Verdict.sentence(v, "the reference").startsWith("slower: CPU time per request 1.26x the reference's"), Verdict.sentence(v, "the reference"));
        assertNotEquals(Verdict.Call.SLOWER, r.rpsInterval().verdict(), "req/s alone could not see it: " + r.rpsInterval());
        assertTrue(r.callouts().isEmpty(), "nothing else is far off: " + r.callouts());
        BenchReport.LoadResult shown = BenchTests.load(Compare.ratios(List.of(BenchTests.result(HELLO, "learner",
                List.of(run(75_000, 13.1, 1, 97), run(90_000, 13.0, 1, 98))), BenchTests.result(HELLO, "reference",
                List.of(run(83_000, 10.4, 1, 97), run(84_000, 10.5, 1, 96)))), "reference", Plan.Pace.QUICK, Plan.Group.HELLO).get(0));
        assertTrue(Report.ratioCell(shown).startsWith("µs/req 1.2"), Report.ratioCell(shown));

        // the reference against itself: CPU per request within 1-2% turn to turn is the same, and says how little it could tell:
        // with Bombardier at its limit, no less than the busy floor
        BenchReport.Interval self = hello(List.of(run(70_000, 10.5, 1, 97), run(95_000, 10.4, 1, 98), run(80_000, 10.6, 1, 97)),
                List.of(run(83_000, 10.4, 1, 97), run(84_000, 10.5, 1, 96), run(80_000, 10.4, 1, 98))).verdict();
        assertEquals(Verdict.Call.SAME, self.verdict(), self.toString());
        assertTrue(self.detectable() >= Verdict.BUSY_FLOOR && self.detectable() < 0.3, self.toString());
        assertTrue(Verdict.power(self).matches("this race can tell differences larger than 2[0-9]%"), Verdict.power(self));

        // the clean-clone self-race that read 1.16x (1.08x to 1.26x, 5 turns): two processes of one server, steadily apart; the
        // busy floor does not call it, and the 5% floor would have
        List<BenchReport.RunFigures> apart = List.of(run(70_000, 12.1, 1, 98), run(72_000, 11.2, 1, 98), run(71_000, 12.6, 1, 98),
                run(69_000, 11.9, 1, 98), run(73_000, 12.0, 1, 98)).stream().map(Tally.Run::figures).toList();
        List<BenchReport.RunFigures> same = List.of(run(70_000, 10.2, 1, 98), run(72_000, 10.1, 1, 98), run(71_000, 10.2, 1, 98),
                run(69_000, 10.6, 1, 98), run(73_000, 10.3, 1, 98)).stream().map(Tally.Run::figures).toList();
        BenchReport.Interval busyApart = Verdict.of(apart, same, Verdict.Figure.CPU, Plan.Pace.QUICK, true, null);
        assertEquals(1.16, busyApart.ratio(), 0.01);
        assertEquals(Verdict.Call.SAME, busyApart.verdict(), busyApart.toString());
        assertEquals(Verdict.Call.SLOWER, Verdict.of(apart, same, Verdict.Figure.CPU, Plan.Pace.QUICK, false, null).verdict(),
                "with its own pace, the 5% floor");
        // a busy race too noisy to tell 45% (25 points beyond the busy floor) says so; one that could tell 40% does not
        assertEquals(Verdict.Call.NOISY, Verdict.of(runs(1000, 1400, 800), runs(1000, 1000, 1000), Plan.Pace.QUICK, true).verdict());
        assertEquals(Verdict.Call.SAME, Verdict.of(runs(1000, 1080, 960), runs(1000, 1000, 1000), Plan.Pace.QUICK, true).verdict());

        // without the server's CPU time (--url with no --pid), req/s decides, with the busy floor
        List<Tally.Run> noCpu = List.of(new Tally.Run(run(75_000, 1, 1, 97).load(), Double.NaN, -1, -1, 50, 97),
                new Tally.Run(run(76_000, 1, 1, 97).load(), Double.NaN, -1, -1, 50, 97));
        assertEquals("rps", hello(noCpu, List.of(run(80_000, 10, 1, 97), run(80_000, 10, 1, 97))).verdict().figure());
    }

    @Test
    @DisplayName("io: req/s decides where Bombardier is not at its limit; CPU per request or peak RSS far from the reference's is called out")
    void callouts() {
        List<BenchReport.Result> rows = Compare.ratios(List.of(
                BenchTests.result(BenchTests.IO, "learner", List.of(run(490, 40, 1_500L << 20, 5), run(491, 41, 1_550L << 20, 5), run(489, 40, 1_520L << 20, 5))),
                BenchTests.result(BenchTests.IO, "reference", List.of(run(490, 20, 300L << 20, 5), run(490, 20, 301L << 20, 5), run(491, 21, 299L << 20, 5)))),
                "reference", Plan.Pace.QUICK, Plan.Group.IO);
        BenchReport.LoadRatio r = BenchTests.load(rows.get(0)).ratio();
        assertEquals("rps", r.verdict().figure());
        assertEquals(Verdict.Call.SAME, r.verdict().verdict());
        assertEquals(List.of("cpuPerRequest", "peakRss"), r.callouts().stream().map(BenchReport.Interval::figure).toList());
        String memory = Verdict.callout(r.callouts().get(1), "the reference");
        assertTrue(memory.startsWith("uses more memory: peak RSS 5.08x the reference's"), memory);
        assertTrue(Verdict.callout(r.callouts().get(0), "the reference").startsWith("uses more CPU: CPU time per request 1.9"));
        // within 1.5x the peak RSS is not called out
        BenchReport.LoadRatio close = BenchTests.load(Compare.ratios(List.of(
                BenchTests.result(BenchTests.IO, "learner", List.of(run(490, 20, 400L << 20, 5), run(491, 20, 410L << 20, 5))),
                BenchTests.result(BenchTests.IO, "reference", List.of(run(490, 20, 300L << 20, 5), run(490, 20, 301L << 20, 5)))),
                "reference", Plan.Pace.QUICK, Plan.Group.IO).get(0)).ratio();
        assertTrue(close.callouts().isEmpty(), close.toString());
    }

    @Test
    @DisplayName("idle: heap per connection more than twice the reference's (and 512 B apart) is called out; within, not")
    void heapCallout() {
        assertTrue(Compare.heapCallout(17_000, 1_100).startsWith("uses more memory: heap per idle connection 16.6 KiB against 1.1 KiB"),
                Compare.heapCallout(17_000, 1_100));
        assertNull(Compare.heapCallout(1_900, 1_100), "under twice is not far");
        assertNull(Compare.heapCallout(300, 100), "3x of a few hundred bytes is not far");
        assertTrue(Compare.heapCallout(1_000, 5_000).startsWith("uses less memory"));
    }

    @Test
    @DisplayName("charts never contradict the verdict: a bar within the noise is marked the same; another figure's chart names the figure that decided")
    void marks() {
        BenchReport.Result slower = Compare.ratios(List.of(BenchTests.result(HELLO, "learner",
                List.of(run(90_000, 13.1, 1, 97), run(95_000, 13.0, 1, 98), run(92_000, 13.2, 1, 97))), BenchTests.result(HELLO, "reference",
                List.of(run(83_000, 10.4, 1, 97), run(84_000, 10.5, 1, 96), run(80_000, 10.3, 1, 98)))), "reference", Plan.Pace.QUICK, Plan.Group.HELLO).get(0);
        assertEquals("slower", Report.mark(slower, Verdict.Figure.CPU));
        String onRps = Report.mark(slower, Verdict.Figure.RPS);
        assertTrue(onRps.startsWith("slower on µs/req"), "a longer req/s bar is marked with the verdict that counts: " + onRps);
        BenchReport.Result same = Compare.ratios(List.of(BenchTests.result(BenchTests.IO, "learner", List.of(run(1000, 20, 1, 5), run(1010, 20, 1, 5))),
                BenchTests.result(BenchTests.IO, "reference", List.of(run(1002, 20, 1, 5), run(1004, 20, 1, 5)))), "reference", Plan.Pace.QUICK, Plan.Group.IO).get(0);
        assertEquals("≈ the same within the noise", Report.mark(same, Verdict.Figure.RPS));
    }

    @Test
    @DisplayName("the report: the verdict line names its figure, why it decided and what the race could tell; the req/s chart does not contradict it; the vs column has a legend; db names the servers' options; the JSON keeps it all")
    void printed() {
        List<BenchReport.Result> hello = Compare.ratios(List.of(BenchTests.result(HELLO, "learner",
                List.of(run(90_000, 13.1, 1_500L << 20, 97), run(95_000, 13.0, 1_500L << 20, 98), run(92_000, 13.2, 1_500L << 20, 97))),
                BenchTests.result(HELLO, "reference", List.of(run(83_000, 10.4, 300L << 20, 97), run(84_000, 10.5, 300L << 20, 96),
                        run(80_000, 10.3, 300L << 20, 98)))), "reference", Plan.Pace.QUICK, Plan.Group.HELLO);
        Plan.Workload db = Plan.pick("db").get(0);
        BenchReport report = new BenchReport(BenchReport.SCHEMA, BenchReport.Kind.CHAPTER, "scripts/bench.sh 03", "03", "2026-01-01T00:00:00Z", 0,
                "reference", null, null, List.of(), List.of(
                        new BenchReport.WorkloadEntry("hello", Plan.Group.HELLO, HELLO.description(), "/", 256, 0, 5, null, null, hello),
                        new BenchReport.WorkloadEntry("db", Plan.Group.DB, db.description(), db.path(), 2000, 20, 15, db.boundRps(), null, List.of())),
                null, null, null, null, List.of(), 9);
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        Report.print(new java.io.PrintStream(bytes, true, java.nio.charset.StandardCharsets.UTF_8), report, false);
        String out = bytes.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(out.contains("learner vs reference: slower: CPU time per request 1.26x the reference's (1."), out);
        assertTrue(out.contains("this race can tell differences larger than"), out);
        assertTrue(out.contains("decided on µs/req: Bombardier used 97% of its CPU"), out);
        assertTrue(out.contains("and it uses more memory: peak RSS 5.00x the reference's"), out);
        assertTrue(out.lines().anyMatch(l -> l.contains("hello    learner") && l.contains("slower on µs/req")),
                "the learner's longer req/s bar must say the verdict was slower, on µs/req: " + out);
        assertTrue(out.contains("vs reference: the ratio of the figure that decided"), "no legend for the vs column: " + out);
        assertTrue(out.contains("servers started with --db-pool 10 --db-wait 10000"), "the db workload does not name the servers' options: " + out);
        BenchReport back = BenchReport.read(report.json());
        BenchReport.LoadResult learner = BenchTests.load(back.workloads().get(0).results().get(0));
        assertEquals("cpuPerRequest", learner.ratio().decided().figure());
        assertEquals("peakRss", learner.ratio().callouts().get(0).figure());
    }

    @Test
    @DisplayName("--learner FILE races that file instead of the exercise; with --all or --url it is refused in a sentence")
    void learnerOption(@TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path file = java.nio.file.Files.createFile(dir.resolve("learner.java"));
        assertEquals(new Subject.File(file.toAbsolutePath().normalize()), RaceOptions.parse(new String[] {"03", "--learner", file.toString(), "--root", "."}).subject());
        assertEquals("scripts/bench.sh 03 --learner " + file.getFileName(), RaceOptions.command(new String[] {"03", "--learner", file.toString(), "--root", "/x"}));
        assertEquals(new Subject.Exercise(), RaceOptions.parse(new String[] {"03", "--root", "."}).subject());
    }
    @Test
    @DisplayName("quick mode runs 24 turns on hello (its verdict reads CPU per request) in 2 forks of 12, and 3 elsewhere in one; thorough forks every"
            + " workload under load but idle; smoke never; io-1000 raced alone warms up; the JIT compilers' CPU during a run is left out")
    void helloTurnsAndJit() {
        Plan.Mode quick = Plan.Pace.QUICK.mode();
        assertEquals(24, quick.runsFor(HELLO));
        assertEquals(2, quick.forksFor(HELLO));
        assertEquals(12, quick.runsPerFork(HELLO));
        assertEquals(2, quick.runSecondsFor(HELLO));
        assertEquals(5, quick.showdown().runsFor(HELLO));
        assertEquals(2, quick.showdown().runSecondsFor(HELLO));
        assertEquals(3, quick.runsFor(BenchTests.IO));
        assertEquals(1, quick.forksFor(BenchTests.IO));
        assertEquals(3, quick.runsPerFork(BenchTests.IO));
        Plan.Mode thorough = Plan.Pace.THOROUGH.mode();
        assertEquals(2, thorough.forksFor(BenchTests.IO));
        assertEquals(3, thorough.runsPerFork(BenchTests.IO));
        assertEquals(24, thorough.runsPerFork(HELLO));
        assertEquals(2, thorough.runSecondsFor(HELLO));
        assertEquals(1, thorough.forksFor(Plan.pick("idle").get(0)));
        assertEquals(1, thorough.forRamp().forksFor(HELLO));
        assertEquals(2, Plan.Pace.SMOKE.mode().runsFor(HELLO));
        assertEquals(1, Plan.Pace.SMOKE.mode().forksFor(HELLO));
        assertTrue(quick.steady(Plan.pick("io-2000").get(0)));
        assertFalse(quick.steady(HELLO));
        assertFalse(Plan.Pace.THOROUGH.mode().steady(Plan.pick("io-2000").get(0)));
        // io-1000 reuses io-100's warm-up when io-100 ran before it, and warms up itself when raced without it
        List<Plan.Workload> io = Plan.pick("io");
        assertEquals(0, quick.warmupsFor(io.get(1), io));
        assertEquals(2, quick.warmupsFor(io.get(1), Plan.pick("hello,io-1000,cpu")));
        assertEquals(4, quick.maxWarmupsFor(io.get(2), Plan.pick("io-2000")));
        // a compiler thread that grew by 0.2 s, one new since (0.1 s), one gone (not counted)
        assertEquals(0.3, Server.grown(java.util.Map.of(1L, 1.0, 2L, 5.0), java.util.Map.of(1L, 1.2, 3L, 0.1)), 1e-9);
    }

    /** A run of 2 s with 100,000 answers whose server spent {@code cpuMicros} a request, in fork {@code fork} (null: unforked). */
    private static BenchReport.RunFigures cpuRun(double cpuMicros, Integer fork) {
        return new BenchReport.RunFigures(50_000.0, 2.0, 100_000, 0, 0, 0, 1.0, 2.0, 3.0, 100_000 * cpuMicros / 1e6, null, null, null, 98.0,
                null, null, fork);
    }

    @Test
    @DisplayName("forks: the turns of two forks pool, as JMH pools its forks' iterations; the verdict says how many forks, and over forks CPU"
            + " per request has a 2% floor, not one pair of processes' 20%; forks whose means disagree beyond their turns widen the interval to span each fork's own")
    void forks() {
        double[] ratios = {1.05, 1.11, 1.08, 1.06, 1.10, 1.09, 1.07, 1.08};
        List<BenchReport.RunFigures> learner = new ArrayList<>(), reference = new ArrayList<>(), alone = new ArrayList<>(), same = new ArrayList<>();
        for (int fork = 1; fork <= 2; fork++) {
            for (double x : ratios) {
                learner.add(cpuRun(10 * x, fork));
                alone.add(cpuRun(10 * x, null));
                reference.add(cpuRun(10, fork));
            }
        }
        BenchReport.Interval forked = Verdict.of(learner, reference, Verdict.Figure.CPU, Plan.Pace.QUICK, true, "why");
        assertEquals(Verdict.Call.SLOWER, forked.verdict(), forked.toString());
        assertEquals(16, forked.turns());
        assertEquals(2, forked.forks());
        assertNull(forked.forksDisagree());
        assertTrue(Verdict.sentence(forked, "the reference's").contains("16 turns in 2 forks"), Verdict.sentence(forked, "the reference's"));
        // the same turns from one pair of processes: the busy floor, 20%, holds 1.08x to "the same"
        List<BenchReport.RunFigures> base = reference.stream().map(r -> cpuRun(10, null)).toList();
        BenchReport.Interval unforked = Verdict.of(alone, base, Verdict.Figure.CPU, Plan.Pace.QUICK, true, "why");
        assertEquals(Verdict.Call.SAME, unforked.verdict(), unforked.toString());
        assertNull(unforked.forks());
        assertEquals(Verdict.BUSY_FLOOR, Verdict.floor(Verdict.Figure.CPU, true, 1), BenchTests.EPS);
        assertEquals(Verdict.FORKED_FLOOR, Verdict.floor(Verdict.Figure.CPU, true, 2), BenchTests.EPS);
        assertEquals(Verdict.BUSY_FLOOR, Verdict.floor(Verdict.Figure.RPS, true, 2), BenchTests.EPS);
        // forks that disagree: the first pair of processes the same, the second 1.20x; their turns agree within each fork
        for (int i = 0; i < 16; i++) same.add(cpuRun(10 * (i < 8 ? 1 : 1.2) * (1 + (i % 2 == 0 ? 0.01 : -0.01)), i < 8 ? 1 : 2));
        BenchReport.Interval split = Verdict.of(same, reference, Verdict.Figure.CPU, Plan.Pace.QUICK, true, "why");
        assertEquals(Boolean.TRUE, split.forksDisagree(), split.toString());
        assertTrue(split.low() < 1 && split.high() > 1.2, "two forks that disagree leave a wide interval: " + split);
        assertTrue(Verdict.sentence(split, "the reference's").contains("disagreed"), Verdict.sentence(split, "the reference's"));
        // forks that disagree but both lie far beyond 1 (1.5x and 2.5x): slower, as every fork's own interval says
        List<BenchReport.RunFigures> far = new ArrayList<>();
        for (int i = 0; i < 16; i++) far.add(cpuRun(10 * (i < 8 ? 1.5 : 2.5) * (1 + (i % 2 == 0 ? 0.02 : -0.02)), i < 8 ? 1 : 2));
        BenchReport.Interval both = Verdict.of(far, reference, Verdict.Figure.CPU, Plan.Pace.QUICK, true, "why");
        assertEquals(Boolean.TRUE, both.forksDisagree(), both.toString());
        assertEquals(Verdict.Call.SLOWER, both.verdict(), both.toString());
        assertTrue(both.low() < 1.5 && both.high() > 2.5, "the span of both forks' intervals: " + both);
        // the analysis of variance: F(1, 14) at 95% is t(14) squared, 4.60
        assertEquals(4.60, Verdict.f95(1, 14), 0.01);
        assertEquals(3.74, Verdict.f95(2, 14), 0.04);
        assertFalse(Verdict.forksDisagree(List.of(List.of(0.01, -0.01, 0.02), List.of(0.0, 0.015, -0.02))));
        assertTrue(Verdict.forksDisagree(List.of(List.of(0.01, -0.01, 0.02), List.of(0.2, 0.215, 0.18))));
    }
}
