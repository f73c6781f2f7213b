import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Unit tests of the benchmark's arithmetic, parsing and results file: no server, no Bombardier,
 * milliseconds. The course's root is the system property course.root (default: here).
 */
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

    @Test
    @DisplayName("the median of an odd count is the middle value, of an even count the mean of the middle two")
    void median() {
        assertEquals(3, Stats.median(List.of(5, 1, 3)), EPS);
        assertEquals(2.5, Stats.median(List.of(4, 1, 3, 2)), EPS);
        assertEquals(7, Stats.median(List.of(7)), EPS);
        assertTrue(Double.isNaN(Stats.median(List.of())));
    }

    @Test
    @DisplayName("the median leaves out unknown (NaN) runs instead of sorting them somewhere")
    void medianIgnoresNaN() {
        assertEquals(2, Stats.median(List.of(1.0, Double.NaN, 3.0)), EPS);
    }

    @Test
    @DisplayName("percentiles interpolate between ranks, and 0 and 100 are the extremes")
    void percentile() {
        List<Integer> values = List.of(10, 20, 30, 40, 50);
        assertEquals(10, Stats.percentile(values, 0), EPS);
        assertEquals(50, Stats.percentile(values, 100), EPS);
        assertEquals(46, Stats.percentile(values, 90), EPS);
        assertEquals(20, Stats.percentile(values, 25), EPS);
        assertThrows(IllegalArgumentException.class, () -> Stats.percentile(values, 101));
    }

    @Test
    @DisplayName("a ratio to zero or to an unknown figure is unknown, not infinite")
    void ratio() {
        assertEquals(0.5, Stats.ratio(1, 2), EPS);
        assertTrue(Double.isNaN(Stats.ratio(1, 0)));
        assertTrue(Double.isNaN(Stats.ratio(Double.NaN, 2)));
    }

    @Test
    @DisplayName("Little's law: 2000 connections waiting 200 ms each can get 10,000 answers a second at most")
    void littleBound() {
        assertEquals(10_000, Stats.littleBound(2000, 0.2), EPS);
        assertEquals(500, Stats.littleBound(100, 0.2), EPS);
        assertEquals(95, Stats.percentOf(9_500, 10_000), EPS);
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
        assertEquals(12_350, Stats.significant(12_345.6, 4), EPS);
        assertEquals(0.001235, Stats.significant(0.00123456, 4), 1e-12);
        assertEquals(0, Stats.significant(0, 4), EPS);
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

    static final String BOMBARDIER_OK = """
            {"spec":{"numberOfConnections":256},"result":{"bytesRead":1,"bytesWritten":1,"timeTakenSeconds":2.0,\
            "req1xx":0,"req2xx":10000,"req3xx":0,"req4xx":0,"req5xx":0,"others":0,\
            "latency":{"mean":4000,"stddev":10,"max":90000,"percentiles":{"50":3500,"75":4000,"90":5000,"95":6000,"99":12500}},\
            "rps":{"mean":5000}}}""";

    static final String BOMBARDIER_ERRORS = """
            {"spec":{},"result":{"timeTakenSeconds":25.0,"req1xx":0,"req2xx":30,"req3xx":0,"req4xx":0,"req5xx":12,"others":55,\
            "errors":[{"description":"timeout","count":50},{"description":"the server closed connection before returning the first response byte","count":5}],\
            "latency":{"mean":1,"stddev":1,"max":25013573,"percentiles":{"50":25011193,"99":25013387}},"rps":{"mean":1}}}""";

    @Test
    @DisplayName("Bombardier's JSON: latencies in microseconds become ms, throughput is 2xx per second taken")
    void bombardierClean() {
        Bombardier.Result r = Bombardier.parse(BOMBARDIER_OK);
        assertEquals(10_000, r.ok());
        assertEquals(5_000, r.rps(), EPS);
        assertEquals(3.5, r.p50Ms(), EPS);
        assertEquals(12.5, r.p99Ms(), EPS);
        assertEquals(90, r.maxMs(), EPS);
        assertEquals(0, r.errors());
        assertTrue(r.clean());
    }

    @Test
    @DisplayName("Bombardier's errors are counted (timeouts apart), and not counted twice through 'others'")
    void bombardierErrors() {
        Bombardier.Result r = Bombardier.parse(BOMBARDIER_ERRORS);
        assertEquals(30, r.ok());
        assertEquals(55, r.errors());
        assertEquals(50, r.timeouts());
        assertEquals(12, r.non2xx(), "5xx counted; 'others' only repeats the errors");
        assertEquals(Map.of("timeout", 50L, "the server closed connection before returning the first response byte", 5L), r.errorKinds());
        assertFalse(r.clean());
        assertEquals(1.2, r.rps(), EPS);
    }

    @Test
    @DisplayName("heap in use after GC sums every generation (Serial's young and old), and reads G1 and ZGC")
    void heapInfo() {
        String serial = """
                DefNew     total 116160K, used 31025K [0x0000000687400000, 0x000000068f200000, 0x0000000704d50000)
                 eden space 103296K,  30% used [0x0000000687400000, 0x000000068924c520, 0x000000068d8e0000)
                Tenured    total 258048K, used 1166K [0x0000000704d50000, 0x0000000714950000, 0x0000000800000000)
                 the  space 258048K,   0% used [0x0000000704d50000, 0x0000000704e73ab8, 0x0000000714950000)
                Metaspace       used 789K, committed 896K, reserved 1114112K
                """;
        assertEquals((31025L + 1166) * 1024, Inspect.heapUsed(serial));
        assertEquals(11051L * 1024, Inspect.heapUsed(
                "garbage-first heap   total reserved 6172672K, committed 393216K, used 11051K [0x0000000687400000, 0x0000000800000000)\n"));
        assertEquals(62L * 1024 * 1024, Inspect.heapUsed(" ZHeap            used 62M, capacity 378M, max capacity 6028M\n"));
        assertEquals(-1, Inspect.heapUsed("nothing here"));
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
    @DisplayName("the JSON names the command as typed, without the wrapper's own options")
    void command() {
        assertEquals("scripts/bench.sh --all --quick", Options.command(new String[] {
                "--root", "/r", "--jbang", "/j", "--bombardier", "/b", "--tty", "--color", "--all", "--out", "/o.json", "--quick"}));
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
        List<BenchReport.Result> rows = Report.ratios(List.of(skipped, result(IO, "reference", List.of(run(800, 2, 0, 0, 80)))), "reference", Plan.Pace.QUICK);
        assertNull(((BenchReport.SkippedResult) rows.get(0)).ratio());
        assertEquals(List.of(), rows.get(0).flags());
    }

    @Test
    @DisplayName("ratios divide by the reference, which gets 1")
    void ratios() {
        List<BenchReport.Result> rows = Report.ratios(List.of(result(IO, "learner", List.of(run(400, 2, 0, 0, 40))),
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
    @DisplayName("warming up goes on while the last warm-up was over 10% faster than the one before, up to the most")
    void warmingUp() {
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
    @DisplayName("thorough io runs last longer than the others, so the edges of a closed-loop run weigh less")
    void ioRunsLonger() {
        Plan.Mode thorough = Plan.Pace.THOROUGH.mode();
        Plan.Workload hello = Plan.WORKLOADS.get(0);
        assertEquals(30, thorough.runSecondsFor(IO));
        assertEquals(10, thorough.runSecondsFor(hello));
        Plan.Mode quick = Plan.Pace.QUICK.mode();
        assertEquals(quick.runSeconds(), quick.runSecondsFor(IO));
    }

    @Test
    @DisplayName("every committed race (site/static/bench/, schema course-bench/1) reads into the records and writes back byte for byte")
    void committedFilesRoundTrip() throws Exception {
        List<Path> files;
        try (Stream<Path> list = Files.list(ROOT.resolve("site/static/bench"))) {
            files = list.filter(f -> f.toString().endsWith(".json")).sorted().toList();
        }
        assertFalse(files.isEmpty(), "no site/static/bench/*.json");
        java.util.Set<Class<?>> kinds = new java.util.HashSet<>();
        for (Path f : files) {
            String text = Files.readString(f);
            if (!text.contains("\"schema\": \"" + BenchReport.SCHEMA + "\"")) continue; // power.json: scripts/bench/Power.java's summary, not a race
            BenchReport report = BenchReport.read(text);
            assertEquals(text, report.json(), f + " changed on the way through the records");
            report.workloads().forEach(w -> w.results().forEach(r -> kinds.add(r.getClass())));
        }
        assertEquals(3, kinds.size(), "load, idle and skipped results, each read as its own kind: " + kinds);
    }

    @Test
    @DisplayName("a race's chosen values are read by their labels, and a label this version does not know reads as null")
    void labels() {
        BenchReport.Result r = Jackson.read("{\"server\": \"x\", \"status\": \"stalled\", \"rps\": 1}", BenchReport.Result.class);
        assertEquals(BenchReport.Status.STALLED, r.status());
        assertNull(Jackson.read("{\"server\": \"x\", \"status\": \"exploded\", \"rps\": 1}", BenchReport.Result.class).status());
        assertEquals("\"open-loop\"", Jackson.write(Plan.Group.OPEN_LOOP).strip());
        assertEquals(Plan.Group.OPEN_LOOP, Jackson.read("\"open-loop\"", Plan.Group.class));
        assertEquals("noisy", String.valueOf(Verdict.Call.NOISY), "in a sentence, a value reads as its label");
    }

    @Test
    @DisplayName("the committed reference run: the reactors (03, 04) hold at most twice plain Netty's heap per idle connection")
    void idleMemory() throws Exception {
        BenchReport report = BenchReport.read(Files.readString(ROOT.resolve("site/static/bench/reference.json")));
        BenchReport.WorkloadEntry idle = report.workloads().stream().filter(w -> w.id().equals("idle")).findFirst().orElseThrow();
        java.util.function.Function<String, Double> heap = id -> idle.results().stream().filter(r -> r.server().equals(id))
                .map(r -> ((BenchReport.IdleResult) r).figures().heapPerConnectionBytes()).findFirst().orElseThrow();
        for (String reactor : List.of("03", "04")) {
            assertTrue(heap.apply(reactor) <= 2 * heap.apply("netty"), reactor + " holds " + heap.apply(reactor)
                    + " bytes per idle connection, Netty " + heap.apply("netty") + ": do the reactors still lend their read buffers?");
        }
    }

    @Test
    @DisplayName("a result reads back as the kind it was written as: load, idle (figures absent when none), or skipped")
    void resultKinds() {
        BenchReport.IdleFigures figures = new BenchReport.IdleFigures(10, 9, 1, 0, 0, null, 1.5, 1e6, 2e6, 1.1e5, null, null, null, 12, 13, 1024L);
        List<BenchReport.Result> results = List.of(result(IO, "learner", List.of(run(400, 2, 0, 0, 40))),
                new BenchReport.IdleResult("a", BenchReport.Status.MEASURED, figures, List.of(), new BenchReport.IdleRatio(1.0, null), List.of()),
                new BenchReport.IdleResult("b", BenchReport.Status.MEASURED, null, List.of("the idle connections could not be opened: x"), null, List.of()),
                new BenchReport.SkippedResult("c", "gone", List.of("gone")));
        String text = Jackson.write(results);
        assertFalse(text.contains("\"asked\": 0"), "no figures for b: " + text);
        List<BenchReport.Result> back = Jackson.MAPPER.convertValue(Jackson.tree(text),
                Jackson.MAPPER.getTypeFactory().constructCollectionType(List.class, BenchReport.Result.class));
        assertEquals(results.get(0), back.get(0));
        assertEquals(results.get(1), back.get(1));
        assertInstanceOf(BenchReport.IdleResult.class, back.get(2));
        assertEquals(results.get(3), back.get(3));
    }

    @Test
    @DisplayName("Bombardier's JSON without errors or latency reads as unknown figures, not a failure")
    void bombardierSparse() {
        Bombardier.Result r = Bombardier.parse("{\"result\": {\"req2xx\": 5}}");
        assertEquals(5, r.ok());
        assertTrue(Double.isNaN(r.rps()) && Double.isNaN(r.p50Ms()));
    }

    @Test
    @DisplayName("others: what other processes used is the machine's busy time less the race's own processes and the kernel's threads, as a share of a core")
    void othersAccounting() {
        assertEquals(1_000 + 20 + 300, Others.machineBusy("cpu  1000 20 300 5000 40 7 9 3 0 0"));
        // A command with spaces and parentheses: the fields start after the last ')'.
        long[] f = Inspect.statFields("4242 (my (odd) prog) S 1 4242 4242 0 -1 4194560 10 0 0 0 150 50 30 20 20 0 1 0 100 0 0");
        assertArrayEquals(new long[] {4194560, 150, 50, 30, 20}, f);
        // 2 s: the machine was busy 400 ticks, the race's own 200, the kernel's threads 20: others 180 ticks = 0.9 of a core at 100 Hz.
        Others.Snapshot from = new Others.Snapshot(0, 10_000, 5_000, 300);
        Others.Snapshot to = new Others.Snapshot(2_000_000_000L, 10_400, 5_200, 320);
        assertEquals(0.9, Others.cores(from, to, 100), 1e-9);
        assertTrue(Others.busy(0.9) && !Others.busy(0.05) && !Others.busy(Double.NaN));
        assertTrue(Double.isNaN(Others.cores(null, to, 100)), "unknown where /proc cannot be read");
        assertEquals(0, Others.cores(from, new Others.Snapshot(2_000_000_000L, 10_100, 5_200, 300), 100), "never below 0");
        assertEquals("0.9 of a core", Others.words(0.9));
        assertEquals("1.6 cores", Others.words(1.6));
        assertNull(Others.before(0.02));
        assertTrue(Others.before(0.5).contains("busy before the race starts"));
        // This Linux machine: the counters can be read, and this JVM is among the race's own.
        Others.Snapshot now = Others.take();
        assertTrue(now != null && now.busy() > 0 && now.ours() > 0, String.valueOf(now));
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
        assertNull(Report.busyTurns(calm.runs(), reference.runs()));
        String said = Report.busyTurns(reference.runs(), touched.runs());
        assertTrue(said != null && said.contains("1 of 3 turns") && said.contains("race again when it is quiet"), said);
        // Beside the verdict, in the ratio the report writes.
        List<BenchReport.Result> rated = Report.ratios(List.of(touched, reference), "reference", Plan.Pace.QUICK, Plan.Group.IO);
        BenchReport.LoadResult learner = load(rated.get(0));
        assertTrue(learner.ratio().busy() != null && learner.ratio().busy().contains("this verdict may be the machine's"), String.valueOf(learner.ratio()));
        assertNull(load(rated.get(1)).ratio().busy(), "the compared server has no verdict of its own");
    }
}
