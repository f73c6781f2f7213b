package test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import bench.BenchCommand;
import bench.Bombardier;
import bench.LoadRace;
import bench.RaceOptions;
import bench.Server;
import bench.Tally;
import bench.TimelineTurn;
import contract.BenchReport;
import contract.Plan;
import contract.Stats;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import lib.CommandError;
import lib.Inspect;
import lib.Jackson;
import lib.Painter;
import lib.Timeline;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Unit tests of bench.sh --timeline ({@link TimelineTurn}): the option and what it is refused
 * with, the recording's cost as the report says it and the JSON keeps it, and a server that is
 * not a JVM. TestBench runs them with BenchTests; BenchRaces races it end to end.
 */
@Tag("unit")
class BenchTimelineTests {
    private static RaceOptions parse(String line) {
        return RaceOptions.parse((line + " --root " + BenchTests.ROOT).split(" "));
    }

    @Test
    @DisplayName("--timeline is refused in one sentence (exit 2) with --all, --spring-demo, a stress phase, --url without --pid, and a workload the race does not put under load")
    void refused() {
        Map<String, String> refused = Map.of(
                "--all --timeline hello", "--timeline records a turn of a chapter's race",
                "--spring-demo --timeline demo", "not with --all or --spring-demo",
                "03 --ramp --timeline hello", "not with --ramp",
                "03 --spike --timeline hello", "not with --spike",
                "03 --url http://127.0.0.1:9 --timeline hello", "give --pid with --url",
                "03 --workloads hello,cpu --timeline io-100", "one workload this race runs under load (hello, cpu), not 'io-100'",
                "03 --workloads io --timeline io", "(io-100, io-1000, io-2000), not 'io'",
                "03 --workloads idle --timeline idle", "(it runs none), not 'idle'");
        refused.forEach((line, words) -> {
            CommandError e = assertThrows(CommandError.class, () -> parse(line), line);
            assertTrue(e.usage && e.exit == 2 && e.getMessage().contains(words) && !e.getMessage().strip().contains(". "),
                    line + ": " + e.getMessage());
        });
        assertThrows(picocli.CommandLine.ParameterException.class, () -> parse("03 --timeline"), "a workload is needed");
        // With no --workloads the race picks them (the chapter's own, or smoke's hello): asked again then, before any server starts.
        CommandError e = assertThrows(CommandError.class, () -> parse("03 --smoke --timeline cpu").racing(Plan.pick("hello")).timelineWorkload());
        assertTrue(e.usage && e.getMessage().contains("(hello), not 'cpu'"), e.getMessage());
    }

    @Test
    @DisplayName("--timeline names a workload the race runs: with --workloads, with the workloads the race picks, with --smoke, with --url and --pid; none without it; --help says it")
    void accepted() {
        assertEquals("cpu", parse("03 --workloads hello,cpu --timeline cpu").timelineWorkload().id());
        assertEquals("hello", parse("04 --solution-vs-solution --smoke --timeline hello").racing(Plan.pick("hello")).timelineWorkload().id());
        assertEquals("io-1000", parse("03 --timeline io-1000").racing(Plan.standard()).timelineWorkload().id());
        assertEquals("hello", parse("03 --url http://127.0.0.1:9 --pid 42 --workloads hello --timeline hello").timelineWorkload().id());
        assertNull(parse("03 --workloads hello").timelineWorkload());
        assertEquals("scripts/bench.sh 04 --smoke --timeline hello", RaceOptions.command(new String[] {"--root", "/r", "04", "--smoke", "--timeline", "hello"}));
        String help = new picocli.CommandLine(new BenchCommand(new String[0])).setUsageHelpWidth(110).getUsageMessage();
        assertTrue(help.contains("--timeline=WORKLOAD") && help.contains(".results/timeline/NN-WORKLOAD.json"), help);
    }

    @Test
    @DisplayName("the recording's cost: CPU per 2xx answer of the recorded turn, computed as a result's, beside an unrecorded turn's; in the report, the timeline and the race's JSON")
    void cost() {
        List<Tally.Run> runs = List.of(BenchTests.run(1000, 2, 0, 0, 50), BenchTests.run(3000, 2, 0, 0, 50));
        assertEquals(BenchTests.load(BenchTests.result(BenchTests.IO, "learner", runs)).cpuMillisPerRequest(),
                Stats.figure(Tally.cpuMillisPerRequest(runs)), "the same figure as the measured turns'");
        assertEquals(0.25, Tally.cpuMillisPerRequest(runs), BenchTests.EPS, "1 s of CPU over 4000 answers");
        assertTrue(Double.isNaN(Tally.cpuMillisPerRequest(List.of(BenchTests.run(0, 2, 0, 0, 50)))), "no answer, no figure");
        assertEquals("recording cost: 41.2 µs/req while recorded against 39.8 µs/req in a turn as long just before, unrecorded (+3.5%)", TimelineTurn.cost(41.2, 39.8));
        assertEquals("recording cost: 38.0 µs/req while recorded against 40.0 µs/req in a turn as long just before, unrecorded (-5.0%)", TimelineTurn.cost(38.0, 40.0));
        assertTrue(TimelineTurn.cost(null, 39.8).startsWith("recording cost: unknown"));
        Plan.Workload hello = Plan.pick("hello").get(0);
        assertEquals("04-hello", TimelineTurn.fileName("04", hello, BenchReport.Role.LEARNER));
        assertEquals("04-hello-reference", TimelineTurn.fileName("04", hello, BenchReport.Role.REFERENCE));

        BenchReport.Timelines t = new BenchReport.Timelines("hello", TimelineTurn.SECONDS, List.of(
                new BenchReport.Recorded("learner", ".results/timeline/04-hello.json", 41.2, 39.8, null),
                new BenchReport.Recorded("reference", null, null, 30.1, "no timeline: it is not a Java process")));
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        TimelineTurn.print(new java.io.PrintStream(bytes, true, java.nio.charset.StandardCharsets.UTF_8), t, new Painter(false));
        List<String> lines = bytes.toString(java.nio.charset.StandardCharsets.UTF_8).lines().toList();
        assertTrue(lines.contains("  learner    .results/timeline/04-hello.json")
                && lines.contains("  reference  no timeline: it is not a Java process")
                && lines.stream().anyMatch(l -> l.endsWith("recording cost: 41.2 µs/req while recorded against 39.8 µs/req in a turn as long just before, unrecorded (+3.5%)")), lines.toString());

        BenchReport without = new BenchReport(BenchReport.SCHEMA, BenchReport.Kind.CHAPTER, "scripts/bench.sh 04", "04", "2026-01-01T00:00:00Z", 0,
                "reference", null, null, List.of(), List.of(), null, null, null, null, null, List.of(), 9);
        assertFalse(without.json().contains("\"timeline\""), "absent without --timeline, as in every committed file");
        BenchReport with = new BenchReport(without.schema(), without.kind(), without.command(), without.chapter(), without.date(), 0, "reference",
                null, null, List.of(), List.of(), null, null, null, null, null, List.of(), 9, t);
        assertTrue(with.json().contains("\"cpuMicrosPerRequestRecorded\": 41.2"), with.json());
        assertEquals(with, BenchReport.read(with.json()));

        Timeline.Doc doc = new Timeline.Doc(Timeline.SCHEMA, "04", "hello", "GET /", "solutions/04-multi-reactor.java", "2026-01-01T00:00:00Z", 2, 50, 1,
                List.of(), new Timeline.Virtual(0, 0, 0, List.of(0), List.of(0), List.of(0.0)), List.of(), Map.of(), List.of());
        assertFalse(Jackson.write(doc).contains("overhead"), "a check's timeline: no cost measured, none written");
        Timeline.Doc costed = new Timeline.Doc(doc.schema(), doc.chapter(), doc.what(), doc.title(), doc.server(), doc.recorded(), doc.cores(),
                doc.sliceMs(), doc.slices(), doc.lanes(), doc.virtual(), doc.events(), doc.states(), doc.notes(), new Timeline.Overhead(41.2, 39.8));
        assertEquals(new Timeline.Overhead(41.2, 39.8), Jackson.read(Jackson.write(costed), Timeline.Doc.class).overhead());
    }

    @Test
    @DisplayName("a server that is not a JVM gets no timeline and one sentence saying why; nothing is written, no load is run")
    void notJava(@TempDir Path root) throws Exception {
        Process sleep = new ProcessBuilder("sleep", "60").start();
        try {
            Server s = BenchTests.server("learner");
            s.inspect = new Inspect(sleep.pid());
            LoadRace load = new LoadRace(Plan.Pace.SMOKE.mode(), new Bombardier("/no/bombardier"), null, List.of());
            BenchReport.Recorded r = TimelineTurn.record(root, root.resolve(Timeline.LEARNER), "03-hello", "03", Plan.pick("hello").get(0), s, load);
            assertNull(r.file(), String.valueOf(r));
            assertTrue(r.note().startsWith("no timeline: it is not a Java process") && r.note().contains("flight recorder records JVMs only"), r.note());
            assertNull(r.cpuMicrosPerRequestMeasured(), "no turn was run: " + r);
            assertFalse(Files.exists(root.resolve(Timeline.LEARNER)), "nothing written");
        } finally {
            sleep.destroyForcibly();
            sleep.waitFor();
        }
    }
}
