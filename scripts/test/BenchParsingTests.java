package test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import bench.Bombardier;
import bench.RaceOptions;
import bench.Report;
import bench.Server;
import bench.Tally;
import contract.BenchReport;
import contract.Plan;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import lib.CommandError;
import lib.ContextSwitches;
import lib.Inspect;
import lib.Jackson;
import lib.Others;
import lib.Subject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Unit tests of what the benchmark reads from its tools and the machine: Bombardier's JSON, the
 * heap in use after GC, what other processes used, and a server's context switches (/proc), with
 * the switches per request a result reports. TestBench runs them with BenchTests.
 */
@Tag("unit")
class BenchParsingTests {
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
        assertEquals(5_000, r.rps(), BenchTests.EPS);
        assertEquals(3.5, r.p50Ms(), BenchTests.EPS);
        assertEquals(12.5, r.p99Ms(), BenchTests.EPS);
        assertEquals(90, r.maxMs(), BenchTests.EPS);
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
        assertEquals(1.2, r.rps(), BenchTests.EPS);
    }

    @Test
    @DisplayName("Bombardier's JSON without errors or latency reads as unknown figures, not a failure")
    void bombardierSparse() {
        Bombardier.Result r = Bombardier.parse("{\"result\": {\"req2xx\": 5}}");
        assertEquals(5, r.ok());
        assertTrue(Double.isNaN(r.rps()) && Double.isNaN(r.p50Ms()));
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

    /** A thread's /proc/PID/task/TID/status, as Linux writes it, with these counts. */
    static String status(long voluntary, long nonvoluntary) {
        return "Name:\tjava\nState:\tS (sleeping)\nThreads:\t23\nMems_allowed_list:\t0\n"
                + "voluntary_ctxt_switches:\t" + voluntary + "\nnonvoluntary_ctxt_switches:\t" + nonvoluntary + "\n";
    }

    @Test
    @DisplayName("context switches: a thread's status gives voluntary + nonvoluntary; a status without them, or with a bad count, gives none")
    void contextSwitchesParsed() {
        assertEquals(OptionalLong.of(123 + 49), ContextSwitches.parse(status(123, 49)));
        assertEquals(OptionalLong.of(0), ContextSwitches.parse(status(0, 0)));
        assertEquals(OptionalLong.empty(), ContextSwitches.parse("Name:\tjava\nThreads:\t1\n"), "a kernel that does not show them");
        assertEquals(OptionalLong.empty(), ContextSwitches.parse("voluntary_ctxt_switches:\tmany\n"));
    }

    @Test
    @DisplayName("context switches: read per thread from /proc/PID/task, a thread that ended while read left out")
    void contextSwitchesRead(@TempDir Path tasks) throws Exception {
        Files.createDirectories(tasks.resolve("100"));
        Files.writeString(tasks.resolve("100/status"), status(10, 2));
        Files.createDirectories(tasks.resolve("101"));
        Files.writeString(tasks.resolve("101/status"), status(7, 0));
        Files.createDirectories(tasks.resolve("102")); // ended: its status is gone
        assertEquals(Map.of(100L, 12L, 101L, 7L), ContextSwitches.read(tasks));
        assertEquals(Map.of(), ContextSwitches.read(tasks.resolve("gone")), "a process that exited");
        // This JVM on Linux: every thread shows its switches, and the portable inspection (as on macOS) shows none.
        long self = ProcessHandle.current().pid();
        Map<Long, Long> mine = new Inspect(self, true).contextSwitches().orElseThrow();
        assertTrue(mine.containsKey(self) && mine.size() > 1, "this JVM's threads: " + mine);
        assertTrue(new Inspect(self, false).contextSwitches().isEmpty());
    }

    @Test
    @DisplayName("context switches of a run: what each thread gained, a new thread all of its own, a thread that ended nothing; per 2xx answer")
    void contextSwitchesSince() {
        Map<Long, Long> before = Map.of(1L, 10L, 2L, 500L, 3L, 7L);
        // 1 gained 5; 2 is a new thread with an old id (its count went down): its 3; 3 ended: lost; 4 is new: its 6.
        Map<Long, Long> after = Map.of(1L, 15L, 2L, 3L, 4L, 6L);
        assertEquals(5 + 3 + 6, ContextSwitches.since(before, after));
        assertEquals(0, ContextSwitches.since(before, Map.of()), "every thread ended");
        assertEquals(-1, Server.switchedSince(null, after), "unknown before: unknown");
        assertEquals(-1, Server.switchedSince(before, null), "unknown after: unknown");
        assertEquals(2.0, ContextSwitches.perRequest(14, 7), BenchTests.EPS);
        assertTrue(Double.isNaN(ContextSwitches.perRequest(-1, 7)), "unknown switches");
        assertTrue(Double.isNaN(ContextSwitches.perRequest(14, 0)), "no answer");
    }

    @Test
    @DisplayName("context switches per request: each run's switches / its 2xx answers, the result's the median of the runs'; absent from the JSON where unknown")
    void contextSwitchesPerRequest() {
        List<Tally.Run> runs = List.of(BenchTests.run(1000, 2, 0, 0, 50).withContextSwitches(3000),
                BenchTests.run(2000, 2, 0, 0, 50).withContextSwitches(2000), BenchTests.run(1000, 2, 0, 0, 50).withContextSwitches(2500));
        BenchReport.LoadResult r = BenchTests.load(BenchTests.result(BenchTests.IO, "reference", runs));
        assertEquals(List.of(3.0, 1.0, 2.5), r.runs().stream().map(BenchReport.RunFigures::contextSwitchesPerRequest).toList());
        assertEquals(2.5, r.contextSwitchesPerRequest(), BenchTests.EPS, "the median of 3, 1 and 2.5");
        assertTrue(Jackson.write(r).contains("\"contextSwitchesPerRequest\": 2.5"), "in the JSON");
        // A run whose switches are unknown is left out of the median; a result with none known has none.
        BenchReport.LoadResult some = BenchTests.load(BenchTests.result(BenchTests.IO, "reference",
                List.of(BenchTests.run(1000, 2, 0, 0, 50).withContextSwitches(4000), BenchTests.run(1000, 2, 0, 0, 50))));
        assertEquals(4.0, some.contextSwitchesPerRequest(), BenchTests.EPS);
        BenchReport.LoadResult none = BenchTests.load(BenchTests.result(BenchTests.IO, "reference", List.of(BenchTests.run(1000, 2, 0, 0, 50))));
        assertNull(none.contextSwitchesPerRequest());
        assertFalse(Jackson.write(none).contains("contextSwitchesPerRequest"), "absent, as in files written before it");
        // The table has a cs/req column only where a result knows the figure.
        BenchReport.WorkloadEntry with = new BenchReport.WorkloadEntry("io-100", Plan.Group.IO, "", "/io", 100, 200, 10, null, null, List.of(none, r));
        BenchReport.WorkloadEntry without = new BenchReport.WorkloadEntry("io-100", Plan.Group.IO, "", "/io", 100, 200, 10, null, null, List.of(none));
        assertTrue(Report.switchesShown(with) && !Report.switchesShown(without));
        assertEquals(List.of("2.5", "12", "0.42", "-"), List.of(Report.switches(2.5), Report.switches(12.4), Report.switches(0.4213), Report.switches(null)));
    }

    @Test
    @DisplayName("the server under test is named once (SubjectOptions, shared with check.sh): two servers, --pid alone, a missing file, --all with one, a bad URL or --server-cpus 0 are refused in one sentence")
    void serverUnderTestRefused() {
        String root = BenchTests.ROOT.toString();
        Map<String, String> refused = Map.of(
                "03 --solution --url http://127.0.0.1:9", "one server at a time: --solution or --url, not both",
                "03 --learner /no/such/server.java --command python3", "one server at a time: --file or --command, not both",
                "03 --pid 42", "--pid goes with --url",
                "03 --file /no/such/server.java", "no file /no/such/server.java (--file)",
                "--all --url http://127.0.0.1:9", "--all races the reference solutions",
                "03 --url localhost:9", "--url must look like http://127.0.0.1:8080",
                "03 --server-cpus 0", "--server-cpus needs 1 or more");
        refused.forEach((line, words) -> {
            String[] args = (line + " --root " + root).split(" ");
            CommandError e = assertThrows(CommandError.class, () -> RaceOptions.parse(args), line);
            assertTrue(e.usage && e.exit == 2 && e.getMessage().contains(words), line + ": " + e.getMessage());
        });
        assertEquals(new Subject.Solution(), RaceOptions.parse(new String[] {"03", "--solution-vs-solution", "--root", root}).subject(),
                "the race's older spelling of --solution");
        assertEquals(new Subject.Running("http://127.0.0.1:9", 42L),
                RaceOptions.parse(new String[] {"03", "--url", "http://127.0.0.1:9", "--pid", "42", "--root", root}).subject());
    }
}
