package test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import bench.Bombardier;
import bench.OpenLoop;
import bench.Vegeta;
import contract.BenchReport;
import contract.Plan;
import contract.Stats;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import lib.Painter;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Unit tests of the open loop ({@link OpenLoop}, {@link Vegeta}): reading Vegeta's CSV, the
 * percentiles and counts made from it, the rule that sits a server out, and the report.
 */
@Tag("unit")
class OpenLoopTests {
    static final String URL = "http://127.0.0.1:40123/cpu?ms=2";
    static final long T0 = 1_767_225_600_000_000_000L; // 2026-01-01, in ns

    /** A line as vegeta v12.12.0's "encode -to=csv" writes it: 12 columns, the body and headers base64, the error quoted when it must be. */
    static String line(long sentNanos, int code, long latencyNanos, String error, long seq) {
        String quoted = error.isEmpty() ? "" : "\"" + error.replace("\"", "\"\"") + "\"";
        return sentNanos + "," + code + "," + latencyNanos + ",0," + (code == 200 ? 22 : 0) + "," + quoted + ",,," + seq + ",GET," + URL
                + "," + (code == 200 ? "Q29udGVudC1UeXBlOiB0ZXh0L3BsYWlu" : "");
    }

    /** {@code n} requests at 300 a second, each on time, with the given latencies in ms, as Vegeta's CSV. */
    static String csv(List<Double> latenciesMs) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < latenciesMs.size(); i++) {
            out.append(line(T0 + i * 1_000_000_000L / 300, 200, Math.round(latenciesMs.get(i) * 1e6), "", i)).append('\n');
        }
        return out.toString();
    }

    static List<Vegeta.Hit> read(String csv) {
        return Vegeta.readHits(new ByteArrayInputStream(csv.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    @DisplayName("open loop: a line of Vegeta's CSV reads as when it left, its seq, status, latency and error, a quoted error with commas and quotes included")
    void parsesCsv() {
        String timeout = "Get \"" + URL + "\": context deadline exceeded (Client.Timeout exceeded while awaiting headers)";
        Vegeta.Hit late = Vegeta.parse(line(T0, 0, 5_000_412_345L, timeout, 17));
        assertEquals(new Vegeta.Hit(T0, 17, 0, 5_000_412_345L, timeout), late);
        assertTrue(late.timedOut() && !late.ok());
        Vegeta.Hit ok = Vegeta.parse(line(T0 + 3_333_333, 200, 2_101_234, "", 1));
        assertTrue(ok.ok() && !ok.timedOut() && ok.error().isEmpty());
        assertEquals(2_101_234, ok.latencyNanos());
        Vegeta.Hit refused = Vegeta.parse(line(T0, 0, 120_000, "dial tcp 127.0.0.1:40123: connect: connection refused", 2));
        assertFalse(refused.timedOut(), "refused is an error, not a timeout");
        Vegeta.Hit busy = Vegeta.parse(line(T0, 503, 900_000, "503 Service Unavailable", 3));
        assertFalse(busy.ok() || busy.timedOut());
        assertEquals(-1, Vegeta.parse(T0 + ",200,2000000,0,22,,").seq(), "an older Vegeta's line without seq still reads");
        assertThrows(IllegalArgumentException.class, () -> Vegeta.parse("Requests [total] 9000"), "not a CSV line");
        assertThrows(IllegalArgumentException.class, () -> Vegeta.parse(T0 + ",OK,2000000,0,22,,"), "a status that is not a number");
        List<Vegeta.Hit> two = read(line(T0, 0, 1000, "read: connection reset\nby peer", 0) + "\n" + line(T0 + 1, 200, 2000, "", 1) + "\n");
        assertEquals(2, two.size(), "a quoted line break joins its record");
        assertEquals("read: connection reset\nby peer", two.get(0).error());
    }

    @Test
    @DisplayName("open loop: p50, p99, p99.9 and max of 1000 latencies (R-7, 4 digits), whatever their order; answers a second from the first request to the last answer")
    void percentiles() {
        List<Double> ms = new ArrayList<>();
        for (int i = 1; i <= 1000; i++) ms.add((double) i);
        Collections.shuffle(ms, new Random(7));
        BenchReport.OpenLoopRun r = OpenLoop.openRun(read(csv(ms)), 300);
        assertEquals(1000, r.sent());
        assertEquals(1000, r.ok());
        assertEquals(500.5, r.p50Ms(), 1e-9, "between the 500th and the 501st");
        assertEquals(990.0, r.p99Ms(), 1e-9, "990.01 to 4 digits");
        assertEquals(999.0, r.p999Ms(), 1e-9, "the 999th, and a thousandth of the way to the 1000th");
        assertEquals(1000.0, r.maxMs(), 1e-9);
        assertEquals(0.0, r.maxSendLagMs(), 1e-9, "every request left on time");
        long end = 0; // the last answer, in ns from the first request, which left at 0
        for (int i = 0; i < ms.size(); i++) end = Math.max(end, i * 1_000_000_000L / 300 + Math.round(ms.get(i) * 1e6));
        assertEquals(Stats.figure(1000 / (end / 1e9)), r.achievedRps());
    }

    @Test
    @DisplayName("open loop: a stall that a closed loop omits shows in the open loop's p99.9: 30 requests due during 100 ms wait, in their latency")
    void stallShows() {
        List<Double> ms = new ArrayList<>(Collections.nCopies(3000, 2.0));
        for (int i = 0; i < 30; i++) ms.set(1500 + i, 100.0 - i * 1000.0 / 300); // due during the stall: each waits for its end
        BenchReport.OpenLoopRun r = OpenLoop.openRun(read(csv(ms)), 300);
        assertEquals(2.0, r.p50Ms(), 1e-9);
        assertTrue(r.p999Ms() > 85, "the stall is in p99.9: " + r.p999Ms());
        assertEquals(100.0, r.maxMs(), 1e-9);
    }

    @Test
    @DisplayName("open loop: errors, their timeouts and non-2xx answers are counted apart; a request that left 12 ms late shows as the send lag")
    void countsAndLag() {
        String text = line(T0, 200, 2_000_000, "", 0) + "\n"
                + line(T0 + 3_333_333, 503, 1_000_000, "503 Service Unavailable", 1) + "\n"
                + line(T0 + 6_666_667 + 12_000_000, 0, 5_000_000_000L, "Get \"" + URL + "\": context deadline exceeded", 2) + "\n"
                + line(T0 + 10_000_000, 0, 100_000, "connection refused", 3) + "\n";
        BenchReport.OpenLoopRun r = OpenLoop.openRun(read(text), 300);
        assertEquals(List.of(4L, 1L, 1L, 2L, 1L, 3L), List.of(r.sent(), r.ok(), r.non2xx(), r.errors(), r.timeouts(), r.lost()));
        assertEquals(12.0, r.maxSendLagMs(), 1e-3);
        assertEquals(5000.0, r.maxMs(), 1e-9, "a timed-out request counts at its latency, as in Vegeta's own report");
        // One 2xx answer from the first request (0) to the last answer (6.667 + 12 + 5000 ms): answers, not requests, a second.
        assertEquals(Stats.figure(1 / ((6_666_667 + 12_000_000 + 5_000_000_000L) / 1e9)), r.achievedRps());
    }

    static Bombardier.Result warmup(long ok, long errors, long non2xx) {
        return new Bombardier.Result(5, ok, non2xx, errors, errors, 2, 5, 9, Map.of(), Double.NaN);
    }

    @Test
    @DisplayName("open loop: a server sits out when its warm-up lost over 1% of its requests, got no answer, or answered under 75% of the rate")
    void skipRule() {
        assertNull(OpenLoop.cannotCarry(warmup(1485, 15, 0)), "15 of 1500 is 1.0%");
        String why = OpenLoop.cannotCarry(warmup(1484, 10, 6));
        assertTrue(why != null && why.contains("lost 16 of 1500 requests (1.1%"), why);
        assertTrue(OpenLoop.cannotCarry(warmup(0, 0, 0)).contains("got no answer"));
        assertTrue(OpenLoop.cannotCarry(warmup(0, 0, 1500)).contains("got no answer"), "only 503s is no answer either");
        assertNull(OpenLoop.cannotCarry(warmup(1125, 0, 0)), "225 a second, 75% of 300, carries it");
        String slow = OpenLoop.cannotCarry(new Bombardier.Result(10, 299, 0, 0, 0, 2, 5000, 10010, Map.of(), Double.NaN));
        assertTrue(slow != null && slow.contains("answered 30 a second (under 75%)"), "one connection at a time, nothing lost: " + slow);
    }

    @Test
    @DisplayName("open loop: the closed loop's figures come from Bombardier's JSON, in µs, with no p99.9 (it stops at p99)")
    void closedLoop() {
        Bombardier.Result r = Bombardier.parse("{\"result\": {\"timeTakenSeconds\": 30.01, \"req2xx\": 8990, \"others\": 0, \"latency\": {\"max\": 41234,"
                + " \"percentiles\": {\"50\": 2105, \"75\": 2400, \"90\": 2900, \"95\": 3300, \"99\": 5250}}}}");
        BenchReport.OpenLoopRun closed = OpenLoop.closedRun(r);
        assertEquals(2.105, closed.p50Ms(), 1e-9);
        assertEquals(5.25, closed.p99Ms(), 1e-9);
        assertNull(closed.p999Ms());
        assertNull(closed.maxSendLagMs(), "a closed loop has no schedule to fall behind");
        assertEquals(41.23, closed.maxMs(), 1e-9);
        assertEquals(8990, closed.sent());
        assertEquals(299.6, closed.achievedRps(), 1e-9);
    }

    @Test
    @DisplayName("open loop: Bombardier keeps a rate in batches: 3 every 10 ms at 300 a second, 7 every 20 ms at 350, 2 every 8 ms at 250, 1 every 10 ms at 100")
    void bombardierBatches() {
        assertEquals("3 requests every 10 ms", OpenLoop.batch(300));
        assertEquals("7 requests every 20 ms", OpenLoop.batch(350));
        assertEquals("2 requests every 8.0 ms", OpenLoop.batch(250));
        assertEquals("1 request every 10 ms", OpenLoop.batch(100));
    }

    static BenchReport.OpenLoopSummary summary() {
        List<Double> ms = new ArrayList<>(Collections.nCopies(900, 2.0));
        ms.set(450, 140.0);
        BenchReport.OpenLoopRun open = OpenLoop.openRun(read(csv(ms)), 300);
        BenchReport.OpenLoopRun closed = new BenchReport.OpenLoopRun("bombardier", 880, 878, 0, 2, 2, 292.7, 2.1, 4.0, null, 61.0, null);
        return OpenLoop.summary(Plan.Pace.SMOKE.mode(), "vegeta v12.12.0", new BenchReport.CpuSplit("0-1", null, "servers on every CPU (0-1), Vegeta, then Bombardier, sharing them"),
                List.of(new BenchReport.OpenLoopServer("03", null, 299.0, 0, open, closed, List.of("closed loop: 2 of 880 requests lost")),
                        new BenchReport.OpenLoopServer("01", "its warm-up at 300 req/s lost 300 of 310 requests", 2.0, 300, null, null, List.of())));
    }

    @Test
    @DisplayName("open loop: the report prints a row per server, open beside closed, the closed loop's p99.9 as '-', who sat out and why, and why they differ")
    void prints() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        OpenLoop.print(new PrintStream(bytes, true, StandardCharsets.UTF_8), summary(), new Painter(false));
        String text = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("The open loop  GET /cpu?ms=2 at 300 req/s for 3 s a server"), text);
        String row = text.lines().filter(l -> l.contains("03 ")).findFirst().orElse("");
        assertTrue(row.matches("\\s*!03\\s+300\\s+\\S+\\s+293\\s+2\\.0\\s+2\\.1\\s+2\\.0\\s+4\\.0\\s+\\S+\\s+-\\s+140\\s+61\\s+0\\s+2\\s*"), "the row: " + row);
        assertTrue(text.contains("01         sat out: its warm-up at 300 req/s lost 300"), text);
        assertTrue(text.contains("closed loop: 2 of 880 requests lost"), text);
        assertTrue(text.contains("Why they differ:") && text.contains(OpenLoop.CONNECTIONS + " connections"), text);
    }

    @Test
    @DisplayName("open loop: the summary survives JSON, and a report without one has no openLoop field")
    void json() {
        BenchReport with = new BenchReport(BenchReport.SCHEMA, BenchReport.Kind.CHAPTER, "scripts/bench.sh 03 --open-loop", "03", "2026-01-01T00:00:00Z", 1,
                "reference", null, null, List.of(), List.of(), null, null, null, summary(), List.of("open loop, 03: x"), 9);
        String json = with.json();
        assertEquals(with, BenchReport.read(json));
        assertTrue(json.contains("\"p999Ms\": null") && json.contains("\"maxSendLagMs\": 0.0"), json);
        assertFalse(json.contains("\"lost\""), "lost() is derived, not written: " + json);
        BenchReport without = new BenchReport(BenchReport.SCHEMA, BenchReport.Kind.CHAPTER, "scripts/bench.sh 03", "03", "2026-01-01T00:00:00Z", 0,
                "reference", null, null, List.of(), List.of(), null, null, null, null, List.of(), 9);
        assertFalse(without.json().contains("openLoop"));
    }
}
