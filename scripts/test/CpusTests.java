package test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import bench.Compare;
import bench.Report;
import contract.BenchReport;
import contract.Cpus;
import contract.Plan;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Unit tests of how a race shares the CPUs between the servers and Bombardier ({@link Cpus}), and of CPU per request. */
@Tag("unit")
class CpusTests {
    static Plan.Workload workload(String id) {
        return Plan.WORKLOADS.stream().filter(w -> w.id().equals(id)).findFirst().orElseThrow();
    }

    @Test
    @DisplayName("cpus: on 2 CPUs, hello gives the servers CPU 0 and Bombardier CPU 1; io, cpu, mixed, db, idle and trip give the servers both, Bombardier sharing")
    void twoCpus() {
        Cpus two = new Cpus(2, true, 0);
        BenchReport.CpuSplit hello = two.of(workload("hello"));
        assertEquals("0", hello.servers());
        assertEquals("1", hello.load());
        assertEquals("servers on 1 CPU (0), Bombardier on 1 CPU (1)", hello.words());
        for (String id : List.of("io-100", "io-2000", "cpu", "mixed", "db", "idle", "trip")) {
            BenchReport.CpuSplit split = two.of(workload(id));
            assertEquals("0-1", split.servers(), id);
            assertNull(split.load(), id + ": Bombardier is not pinned");
            assertTrue(split.words().startsWith("servers on every CPU (0-1)"), split.words());
        }
        assertTrue(two.of(workload("trip")).words().contains("Bombardier and the backend"), two.of(workload("trip")).words());
        assertTrue(two.rule().contains("hello: servers on 1 CPU (0), Bombardier on 1 CPU (1)"), two.rule());
        assertTrue(two.rule().contains("--server-cpus"), "the rule says how to set your own: " + two.rule());
    }

    @Test
    @DisplayName("cpus: on 16 CPUs, hello splits 8 and 8; --server-cpus 4 gives the servers 0-3 and Bombardier 4-15 everywhere; 16 or more, all shared")
    void manyCpus() {
        Cpus sixteen = new Cpus(16, true, 0);
        assertEquals("0-7", sixteen.of(workload("hello")).servers());
        assertEquals("8-15", sixteen.of(workload("hello")).load());
        assertEquals("0-15", sixteen.of(workload("cpu")).servers());
        Cpus four = new Cpus(16, true, 4);
        for (String id : List.of("hello", "cpu", "io-1000")) {
            assertEquals("0-3", four.of(workload(id)).servers(), id);
            assertEquals("4-15", four.of(workload(id)).load(), id);
        }
        assertEquals(12, four.count("4-15"));
        assertEquals(3, four.count("0-1,3"));
        assertEquals(16, four.count(null), "not pinned: every CPU");
        BenchReport.CpuSplit all = new Cpus(16, true, 40).of(workload("hello"));
        assertEquals("0-15", all.servers());
        assertNull(all.load());
        assertEquals("servers on 1 CPU (0), Bombardier on 1 CPU (1)", new Cpus(2, true, 1).of(workload("cpu")).words());
    }

    @Test
    @DisplayName("cpus: with one CPU or no taskset nothing is pinned, and the words say why")
    void cannotPin() {
        BenchReport.CpuSplit one = new Cpus(1, false, 0).of(workload("hello"));
        assertNull(one.servers());
        assertNull(one.load());
        assertTrue(one.words().contains("one CPU"), one.words());
        assertTrue(new Cpus(8, false, 2).of(workload("cpu")).words().contains("no taskset"));
    }

    @Test
    @DisplayName("CPU per request: the server's CPU time per 2xx answer, and its ratio to the compared server's")
    void cpuPerRequest() {
        // 0.5 s of CPU a run: 400 answers cost 1.25 ms each, 800 cost 0.625 ms
        List<BenchReport.Result> rows = Compare.ratios(List.of(
                BenchTests.result(BenchTests.IO, "learner", List.of(BenchTests.run(400, 2, 0, 0, 40))),
                BenchTests.result(BenchTests.IO, "netty", List.of(BenchTests.run(800, 2, 0, 0, 80)))), "netty", Plan.Pace.QUICK);
        assertEquals(1250, Compare.cpuPerRequest(rows.get(0)), 1e-6);
        assertEquals(2.0, BenchTests.load(rows.get(0)).ratio().cpuPerRequest(), BenchTests.EPS);
        assertEquals(1.0, BenchTests.load(rows.get(1)).ratio().cpuPerRequest(), BenchTests.EPS);
        assertTrue(Double.isNaN(Compare.cpuPerRequest(new BenchReport.SkippedResult("x", "no /", List.of()))));
    }
}
