package test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import bench.RaceOptions;
import contract.BenchReport;
import contract.Plan;
import contract.Verdict;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import lib.Jackson;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Unit tests of the results file (scripts/bench/BenchReport.java): the command it names, the
 * committed races read and written back byte for byte, labels, the kinds of result, and the
 * reference run's idle memory. TestBench runs them with BenchTests.
 */
@Tag("unit")
class BenchReportTests {
    @Test
    @DisplayName("the JSON names the command as typed, without the wrapper's own options")
    void command() {
        assertEquals("scripts/bench.sh --all --quick", RaceOptions.command(new String[] {
                "--root", "/r", "--jbang", "/j", "--bombardier", "/b", "--tty", "--color", "--all", "--out", "/o.json", "--quick"}));
    }

    @Test
    @DisplayName("every committed race (site/static/bench/, schema course-bench/1) reads into the records and writes back byte for byte")
    void committedFilesRoundTrip() throws Exception {
        List<Path> files;
        try (Stream<Path> list = Files.list(BenchTests.ROOT.resolve("site/static/bench"))) {
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
        BenchReport report = BenchReport.read(Files.readString(BenchTests.ROOT.resolve("site/static/bench/reference.json")));
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
        List<BenchReport.Result> results = List.of(BenchTests.result(BenchTests.IO, "learner", List.of(BenchTests.run(400, 2, 0, 0, 40))),
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
    @DisplayName("bench.sh --help says the turns a quick and a thorough race run on hello, and the minutes a quick race of a chapter measured (site/measured/workshop.json)")
    void helpSaysWhatRuns() throws Exception {
        String help = new picocli.CommandLine(new bench.BenchCommand(new String[0])).setUsageHelpWidth(200).getUsageMessage()
                .replaceAll("\\s+", " ");
        assertTrue(help.contains("(hello: " + Plan.QUICK_HELLO_RUNS + " runs in 2 forks"), help);
        assertTrue(help.contains("hello: " + Plan.THOROUGH_HELLO_RUNS + " runs of " + Plan.HELLO_RUN_SECONDS + " s"), help);
        double minutes = 0;
        for (var run : Jackson.tree(Files.readString(BenchTests.ROOT.resolve("site/measured/workshop.json"))).path("runs")) {
            if (run.path("id").asText().equals("bench-03")) minutes = run.path("wallMinutes").asDouble();
        }
        assertTrue(help.contains("about " + Math.round(minutes) + " min a chapter"), "bench-03 took " + minutes + " minutes: " + help);
    }
}
