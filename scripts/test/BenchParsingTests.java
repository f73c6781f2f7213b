import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Unit tests of what the benchmark reads from its tools and the machine: Bombardier's JSON, the
 * heap in use after GC, and what other processes used (/proc). TestBench runs them with BenchTests.
 */
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
}
