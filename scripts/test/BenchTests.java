package test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import bench.Bench;
import bench.Bombardier;
import bench.Compare;
import bench.IdleRace;
import bench.MachineFacts;
import bench.Progress;
import bench.RaceOptions;
import bench.Report;
import bench.Server;
import bench.Tally;
import contract.BenchReport;
import contract.Plan;
import contract.Verdict;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import lib.Chapters;
import lib.CommandError;
import lib.Jackson;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Unit tests of the benchmark's tallies: a server's runs made into its result (medians, flags,
 * notes, stalls, skips), ratios to the reference, warm-ups, bounds and timeouts, busy turns. No
 * server, no Bombardier, milliseconds. TestBench runs them, with their neighbours (BenchStatsTests,
 * BenchParsingTests, BenchReportTests, VerdictTests and others), which share this class's
 * helpers: {@link #run}, {@link #result}, {@link #load}, {@link #server}, {@link #IO}. The
 * course's root is the system property course.root (default: here).
 */
@Tag("unit")
class BenchTests {
    static final double EPS = 1e-9;
    static final Path ROOT = Path.of(System.getProperty("course.root", "."));

    @Test
    @DisplayName("idle: RSS that fell while the connections were open is noted as an artefact, and no RSS per connection is kept")
    void negativeRssIsNotACost() {
        assertNull(IdleRace.rssPerConnection(java.util.OptionalLong.of(1_141_428_224L), java.util.OptionalLong.of(441_778_224L), 10000),
                "RSS that fell is no figure");
        assertEquals(3500.0, IdleRace.rssPerConnection(java.util.OptionalLong.of(80_000_000L), java.util.OptionalLong.of(115_000_000L), 10000), EPS,
                "RSS that grew, per connection");
        BenchReport.IdleFigures fell = new BenchReport.IdleFigures(10000, 10000, 0, 0, 0, null, 5.0, 1e6, 3e7, 2900.0,
                1_141_428_224L, 441_778_224L, null, 40, 40, 20000L);
        String why = IdleRace.rssArtefact(fell);
        assertTrue(why != null && why.contains("RSS fell from 1088 to 421 MiB") && why.contains("artefact"), why);
        assertNull(IdleRace.rssArtefact(new BenchReport.IdleFigures(10000, 10000, 0, 0, 0, null, 5.0, 1e6, 3e7, 2900.0,
                80_000_000L, 115_000_000L, 3500.0, 40, 40, 20000L)), "RSS that grew is a cost");
        assertNull(IdleRace.rssArtefact(new BenchReport.IdleFigures(10000, 10000, 0, 0, 0, null, 5.0, 1e6, 3e7, 2900.0,
                null, null, null, 40, 40, 20000L)), "no RSS readings, nothing to flag");
    }

    static Tally.Run run(long ok, double seconds, long non2xx, long errors, double percentOfBound) {
        return new Tally.Run(new Bombardier.Result(seconds, ok, non2xx, errors, errors, 1, 2, 3, Map.of(), Double.NaN),
                0.5, 100_000_000, 12, percentOfBound, Double.NaN);
    }

    static Tally.Run busyRun(Tally.Run r, double loadCpuPercent) {
        return new Tally.Run(r.load(), r.cpuSeconds(), r.peakRss(), r.peakThreads(), r.percentOfBound(), loadCpuPercent);
    }

    static final Plan.Workload IO = new Plan.Workload("io-100", Plan.Group.IO, "test", "/io?ms=200", 100, 200);

    /** A server with no cap, as the tallies see it (never started). */
    static Server server(String id) {
        return new Server(id, id.equals("learner") ? BenchReport.Role.LEARNER : BenchReport.Role.REFERENCE, id, null, List.of(), 0);
    }

    /** What a server's tally makes of these runs on {@code w}. */
    static BenchReport.Result result(Plan.Workload w, String server, List<Tally.Run> runs) {
        Tally t = new Tally(server(server), null);
        t.runs.addAll(runs);
        return t.result(w);
    }

    static BenchReport.LoadResult load(BenchReport.Result r) {
        return assertInstanceOf(BenchReport.LoadResult.class, r);
    }

    @Test
    @DisplayName("a result is the median of its runs; errors and a run above Little's bound are flagged")
    void loadResult() {
        BenchReport.LoadResult clean = load(result(IO, "reference", List.of(run(900, 2, 0, 0, 90), run(1000, 2, 0, 0, 100), run(800, 2, 0, 0, 80))));
        assertEquals(450.0, clean.rps());
        assertEquals(List.of(), clean.flags());
        assertEquals(3, clean.runs().size());

        BenchReport.LoadResult bad = load(result(IO, "learner", List.of(run(1100, 2, 0, 0, 110), run(500, 2, 3, 2, 50))));
        assertEquals(2, bad.flags().size(), "one flag for the run above the bound, one for the errors: " + bad.flags());
        assertEquals(2L, bad.errors());
        assertEquals(3L, bad.non2xx());
    }

    @Test
    @DisplayName("db: a run above the pool's bound is flagged as more queries at once than the pool has connections")
    void poolFlag() {
        Plan.Workload db = Plan.WORKLOADS.stream().filter(Plan.Workload::pooled).findFirst().orElseThrow();
        assertEquals(500.0, server("learner").bound(db), EPS, "a pool of 10 and 20 ms queries: 500 a second, whatever the connections");
        BenchReport.LoadResult within = load(result(db, "reference", List.of(run(980, 2, 0, 0, 98))));
        assertEquals(List.of(), within.flags());
        BenchReport.LoadResult over = load(result(db, "learner", List.of(run(1400, 2, 0, 0, 140))));
        assertEquals(1, over.flags().size(), "flags " + over.flags());
        assertTrue(over.flags().get(0).contains("more than 10 queries ran at once"), over.flags().get(0));
    }

    @Test
    @DisplayName("Little's bound per server, from the registry's caps: one request in progress for 01, --threads for 02, every connection otherwise")
    void boundPerServer() {
        Map<String, Chapters.Chapter> chapters = Chapters.read(ROOT);
        assertEquals(5.0, Server.of(chapters.get("01"), "01", BenchReport.Role.REFERENCE, "01", null).bound(IO), EPS);
        assertEquals(80.0, Server.of(chapters.get("02"), "02", BenchReport.Role.REFERENCE, "02", null).bound(IO), EPS);
        List<String> fourThreads = List.of("--threads", "4");
        assertEquals(20.0, new Server("02", BenchReport.Role.REFERENCE, "02", null, fourThreads, chapters.get("02").cap().of(fourThreads)).bound(IO), EPS);
        assertEquals(500.0, Server.of(chapters.get("03"), "03", BenchReport.Role.REFERENCE, "03", null).bound(IO), EPS);
    }

    @Test
    @DisplayName("a server whose every run stalled is 'stalled', flagged, with no figures")
    void stalledResult() {
        Tally t = new Tally(server("learner"), null);
        t.stalls.add("the warm-up stalled");
        BenchReport.LoadResult r = load(t.result(IO));
        assertEquals(BenchReport.Status.STALLED, r.status());
        assertEquals(List.of("the warm-up stalled"), r.flags());
        assertNull(r.rps());
    }

    @Test
    @DisplayName("a server without the workload's endpoint is skipped, unflagged, with no ratio")
    void skippedResult() {
        BenchReport.Result skipped = new Tally(server("learner"), "it has no /cpu endpoint (404)").result(IO);
        assertEquals(BenchReport.Status.SKIPPED, assertInstanceOf(BenchReport.SkippedResult.class, skipped).status());
        List<BenchReport.Result> rows = Compare.ratios(List.of(skipped, result(IO, "reference", List.of(run(800, 2, 0, 0, 80)))), "reference", Plan.Pace.QUICK);
        assertNull(((BenchReport.SkippedResult) rows.get(0)).ratio());
        assertEquals(List.of(), rows.get(0).flags());
    }

    @Test
    @DisplayName("ratios divide by the reference, which gets 1")
    void ratios() {
        List<BenchReport.Result> rows = Compare.ratios(List.of(result(IO, "learner", List.of(run(400, 2, 0, 0, 40))),
                result(IO, "reference", List.of(run(800, 2, 0, 0, 80)))), "reference", Plan.Pace.QUICK);
        assertEquals(0.5, load(rows.get(0)).ratio().rps(), EPS);
        assertEquals(1.0, load(rows.get(1)).ratio().rps(), EPS);
        assertNull(load(rows.get(0)).ratio().rpsInterval(), "one turn gives no interval");
        assertNull(load(rows.get(1)).ratio().rpsInterval(), "the reference gets no verdict on itself");
    }

    @Test
    @DisplayName("quick mode warms io-100 up and lets io-1000 and io-2000 reuse it; thorough warms each")
    void warmups() {
        Plan.Workload io2000 = Plan.WORKLOADS.stream().filter(w -> w.id().equals("io-2000")).findFirst().orElseThrow();
        Plan.Workload io100 = Plan.WORKLOADS.stream().filter(w -> w.id().equals("io-100")).findFirst().orElseThrow();
        assertEquals(0, Plan.Pace.QUICK.mode().warmupsFor(io2000));
        assertEquals(2, Plan.Pace.QUICK.mode().warmupsFor(io100));
        assertEquals(4, Plan.Pace.QUICK.mode().maxWarmupsFor(io100));
        assertEquals(0, Plan.Pace.QUICK.mode().maxWarmupsFor(io2000));
        assertEquals(2, Plan.Pace.THOROUGH.mode().warmupsFor(io2000));
    }

    @Test
    @DisplayName("the committed power study (site/static/bench/power.json) earns the forked floor: its self-races, in the quick race's forks and"
            + " turns, average within 2% of 1, none was called faster or slower and 7 in 10 the same; each planted cost was called slower more"
            + " often than not, 4 times in 5 from a tenth more CPU per request, every time from 15%")
    void powerStudy() throws java.io.IOException {
        com.fasterxml.jackson.databind.JsonNode power = Jackson.read(java.nio.file.Files.readString(ROOT.resolve("site/static/bench/power.json")),
                com.fasterxml.jackson.databind.JsonNode.class);
        double logs = 0;
        int n = 0;
        for (com.fasterxml.jackson.databind.JsonNode kind : power.get("kinds")) {
            for (com.fasterxml.jackson.databind.JsonNode race : kind.get("runs")) {
                assertEquals(Plan.QUICK_HELLO_RUNS, race.get("turns").asInt(), race.toString());
                assertEquals(Plan.Pace.QUICK.mode().forks(), race.get("forks").asInt(), race.toString());
                if (kind.get("id").asText().equals("self")) {
                    logs += Math.log(race.get("ratio").asDouble());
                    n++;
                }
            }
            com.fasterxml.jackson.databind.JsonNode verdicts = kind.get("verdicts");
            int races = kind.get("races").asInt(), slower = verdicts.get("slower").asInt();
            double extra = kind.get("medianExtraCpuPercent").asDouble();
            if (kind.get("id").asText().equals("self")) {
                assertEquals(0, verdicts.get("faster").asInt() + slower, "a self-race called different: " + verdicts);
                assertTrue(10 * verdicts.get("same").asInt() >= 7 * races, "self-races called the same: " + verdicts);
            } else {
                assertTrue(2 * slower > races, kind.get("id") + ": " + verdicts);
                // The race's promise: a tenth more CPU per request is called slower 4 times in 5, 15% every time.
                if (extra >= 10) assertTrue(5 * slower >= 4 * races, kind.get("id") + " (+" + extra + "%): " + verdicts);
                if (extra >= 15) assertEquals(races, slower, kind.get("id") + " (+" + extra + "%): " + verdicts);
            }
        }
        assertTrue(n >= 10, n + " self-races");
        assertTrue(Math.abs(logs / n) < Math.log(1 + Verdict.FORKED_FLOOR), "the self-races average " + Math.exp(logs / n));
    }

    @Test
    @DisplayName("the race says whether this machine could count instructions retired: no perf events, no hardware counters (a VM), or counters it does not read")
    void counters(@org.junit.jupiter.api.io.TempDir Path dir) throws java.io.IOException {
        Path devices = dir.resolve("devices"), paranoid = dir.resolve("paranoid");
        assertTrue(MachineFacts.counters(devices, paranoid).contains("no perf events"));
        java.nio.file.Files.createDirectories(devices.resolve("software"));
        java.nio.file.Files.createDirectories(devices.resolve("tracepoint"));
        assertTrue(MachineFacts.counters(devices, paranoid).contains("no hardware performance counters"), MachineFacts.counters(devices, paranoid));
        java.nio.file.Files.createDirectories(devices.resolve("cpu"));
        java.nio.file.Files.writeString(paranoid, "2\n");
        assertTrue(MachineFacts.counters(devices, paranoid).contains("has hardware performance counters (perf_event_paranoid 2)"),
                MachineFacts.counters(devices, paranoid));
    }

    @Test
    @DisplayName("warming up goes on while the last warm-up was over 10% faster than the one before, or spent a tenth less CPU an answer, up to the most")
    void warmingUp() {
        Tally.Run slow = run(1000, 1, 0, 0, 0);
        Tally.Run cheaper = new Tally.Run(slow.load(), slow.cpuSeconds() * 0.8, slow.peakRss(), slow.peakThreads(), 0, Double.NaN);
        assertTrue(Tally.stillWarming(List.of(slow, cheaper), 2, 4), "as fast, but 20% less CPU an answer: still warming");
        assertFalse(Tally.stillWarming(List.of(cheaper, slow), 2, 4));
        assertTrue(Tally.stillWarming(List.of(), 2, 4));
        assertTrue(Tally.stillWarming(List.of(run(1000, 1, 0, 0, 0)), 2, 4));
        assertTrue(Tally.stillWarming(List.of(run(1000, 1, 0, 0, 0), run(2000, 1, 0, 0, 0)), 2, 4));
        assertFalse(Tally.stillWarming(List.of(run(1000, 1, 0, 0, 0), run(1050, 1, 0, 0, 0)), 2, 4));
        assertFalse(Tally.stillWarming(List.of(run(1, 1, 0, 0, 0), run(2, 1, 0, 0, 0), run(4, 1, 0, 0, 0), run(8, 1, 0, 0, 0)), 2, 4));
        assertFalse(Tally.stillWarming(List.of(run(1000, 1, 0, 0, 0)), 1, 1));
    }

    @Test
    @DisplayName("every workload's timeout is at least 5 s and 20 times its service time; io, db and trip have a bound, db's the pool's")
    void timeouts() {
        for (Plan.Workload w : Plan.WORKLOADS) {
            assertTrue(w.timeoutSeconds() >= 5 && w.timeoutSeconds() * 1000 >= 20 * w.serviceMillis(), w.id());
            assertEquals(Set.of(Plan.Group.IO, Plan.Group.DB, Plan.Group.TRIP).contains(w.group()), !Double.isNaN(w.boundRps()), w.id());
        }
        assertEquals(500, Plan.pick("trip").get(0).boundRps(), EPS, "50 connections / 100 ms: a trip's calls wait together");
        assertTrue(Plan.standard().stream().noneMatch(Plan.Workload::callsBackend), "the standard workloads need no backend");
        Plan.Workload db = Plan.pick("db").get(0);
        assertEquals(500, db.boundRps(), EPS, "10 connections / 20 ms");
        assertTrue(db.timeoutSeconds() * 1000 > Plan.DB_WAIT_MILLIS, "a query may wait --db-wait for a connection: " + db.timeoutSeconds() + " s");
        assertEquals(500, new Server("t", BenchReport.Role.REFERENCE, "t", null, List.of(), 0).bound(db), EPS, "a server without a cap: the pool's bound");
        assertEquals(250, new Server("t", BenchReport.Role.REFERENCE, "t", null, List.of(), 5).bound(db), EPS, "a server that serves 5 at once: 5 / 20 ms");
    }

    @Test
    @DisplayName("a load generator near its CPU limit gets a note (not a flag); below it, none")
    void saturatedLoadGenerator() {
        Bombardier.Result busy = new Bombardier.Result(10, 1000, 0, 0, 0, 1, 2, 3, Map.of(), 9.5);
        assertEquals(95, busy.cpuPercent(1), EPS);
        assertEquals(47.5, busy.cpuPercent(2), EPS);
        assertTrue(Double.isNaN(busy.withCpu(Double.NaN).cpuPercent(1)));
        BenchReport.LoadResult row = load(result(IO, "reference",
                List.of(new Tally.Run(busy, 1, 1, 1, 50, busy.cpuPercent(1)), new Tally.Run(busy, 1, 1, 1, 50, 91))));
        assertEquals(93.0, row.loadCpuPercent(), EPS);
        assertEquals(List.of(), row.flags());
        assertEquals(1, row.notes().size());
        assertTrue(row.notes().get(0).contains("93%"), row.notes().toString());
        BenchReport.LoadResult calm = load(result(IO, "reference", List.of(new Tally.Run(busy, 1, 1, 1, 50, 60))));
        assertEquals(List.of(), calm.notes());
        assertEquals(List.of(), load(result(IO, "reference", List.of(run(900, 2, 0, 0, 90)))).notes(), "unknown CPU use: no note");
    }

    @Test
    @DisplayName("progress: a race that cannot fork (a --url server) is estimated as one process a workload, with no fresh starts")
    void progressWithoutForks() {
        Plan.Mode thorough = Plan.Pace.THOROUGH.mode();
        List<Plan.Workload> hello = Plan.pick("hello");
        int forks = thorough.forksFor(hello.get(0));
        assertTrue(forks > 1, "thorough hello runs in forks");
        double forked = new Progress(false, thorough, hello, 2, 0, true).estimate();
        double one = new Progress(false, thorough, hello, 2, 0, false).estimate();
        double warmUps = thorough.warmupsFor(hello.get(0), hello) * (thorough.warmupSeconds() + 1.0);
        assertEquals(forked - (forks - 1) * (2 * warmUps + Progress.RESTART_SECONDS), one, 2 * (thorough.runSecondsFor(hello.get(0)) + 1.0) * forks,
                "one process: the forks' extra warm-ups and fresh starts are not counted");
    }

    @Test
    @DisplayName("thorough io runs last longer than the others, so the edges of a closed-loop run weigh less")
    void ioRunsLonger() {
        Plan.Mode thorough = Plan.Pace.THOROUGH.mode();
        Plan.Workload hello = Plan.WORKLOADS.get(0);
        assertEquals(30, thorough.runSecondsFor(IO));
        assertEquals(10, thorough.runSecondsFor(Plan.pick("cpu").get(0)));
        assertEquals(2, thorough.runSecondsFor(hello));
        Plan.Mode quick = Plan.Pace.QUICK.mode();
        assertEquals(quick.runSeconds(), quick.runSecondsFor(IO));
        // The race's header names hello's turns where they differ from the others'.
        assertEquals(" (hello: 48 of 2 s)", Bench.helloRuns(thorough));
        assertEquals(" (hello: 24)", Bench.helloRuns(quick));
        assertEquals("", Bench.helloRuns(Plan.Pace.SMOKE.mode()));
    }

    @Test
    @DisplayName("others: a busy run flags its result, and a verdict that rests on busy turns says so beside it; quiet runs say nothing")
    void busyTurns() {
        Tally.Run quiet = run(2000, 2, 0, 0, 50).withOthers(0.01);
        Tally.Run busy = run(2000, 2, 0, 0, 50).withOthers(0.9);
        BenchReport.LoadResult calm = load(result(IO, "learner", List.of(quiet, quiet, quiet)));
        assertTrue(calm.flags().isEmpty(), "flags " + calm.flags());
        assertEquals(0.01, calm.runs().get(0).othersCores());
        BenchReport.LoadResult touched = load(result(IO, "learner", List.of(quiet, busy, quiet)));
        assertTrue(touched.flags().stream().anyMatch(f -> f.contains("the machine was busy") && f.contains("0.9 of a core")
                && f.contains("1 of 3 measured runs")), "flags " + touched.flags());
        BenchReport.LoadResult reference = load(result(IO, "reference", List.of(quiet, quiet, quiet)));
        assertNull(Compare.busyTurns(calm.runs(), reference.runs()));
        String said = Compare.busyTurns(reference.runs(), touched.runs());
        assertTrue(said != null && said.contains("1 of 3 turns") && said.contains("race again when it is quiet"), said);
        // Beside the verdict, in the ratio the report writes.
        List<BenchReport.Result> rated = Compare.ratios(List.of(touched, reference), "reference", Plan.Pace.QUICK, Plan.Group.IO);
        BenchReport.LoadResult learner = load(rated.get(0));
        assertTrue(learner.ratio().busy() != null && learner.ratio().busy().contains("this verdict may be the machine's"), String.valueOf(learner.ratio()));
        assertNull(load(rated.get(1)).ratio().busy(), "the compared server has no verdict of its own");
    }

    @Test
    @DisplayName("every scripts/bench.sh line the pages print is one the race reads (options, chapters, workloads), and a misspelt one is not")
    void pageCommands() throws Exception {
        List<PageCommands.Command> races = PageCommands.read(ROOT).stream().filter(c -> c.program().equals("scripts/bench.sh")).toList();
        assertTrue(races.size() > 10, "the pages' races were not found: " + races.size());
        List<String> wrong = new java.util.ArrayList<>();
        for (PageCommands.Command c : races) {
            String problem = raceProblem(c.args());
            if (problem != null) wrong.add(c.page() + ": " + c.line() + ": " + problem);
        }
        assertTrue(wrong.isEmpty(), String.join("\n", wrong));
        assertTrue(raceProblem(List.of("--all", "--chapterz", "03")) != null && raceProblem(List.of("--all", "--chapters", "07")) != null);
    }

    /** Why the race would refuse these words as they are, before it races; null when it reads them. */
    private static String raceProblem(List<String> args) {
        List<String> words = new java.util.ArrayList<>(args);
        words.addAll(List.of("--root", ROOT.toString()));
        try {
            RaceOptions.parse(words.toArray(String[]::new));
            return null;
        } catch (picocli.CommandLine.ParameterException | CommandError e) {
            return e.getMessage();
        }
    }
}
