package test;

import contract.BenchReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import lib.Outcomes;

/**
 * The races TestBench --races runs end to end with scripts/bench.sh (logs in
 * .results/bench-*.log), each then checked on its JSON by BenchRaceChecks.
 */
final class BenchRaces {
    private BenchRaces() {}

    /** A check of a race's JSON. */
    interface Checks {
        void of(Path file) throws Exception;
    }

    /**
     * The races the self-test runs end to end, each checked on its JSON: a smoke race; the
     * reference against itself, never "faster" or "slower" and "the same" somewhere; a reactor that
     * spends about 12 µs more CPU a request, "slower" on hello, with no progress line in its piped output; the pool's and
     * the background load's workloads; chapter 08's trips through the backend the race starts;
     * the ramp's first steps; the open loop; the connections phase at 1500; a Python server started with --command
     * and --timeline (the reference's recorded, the Python server's not); chapter 04's smoke race with --timeline hello;
     * and the smoke race with a core kept busy by another process.
     */
    static int races(Path root) throws Exception {
        BenchRaceChecks.checked = new Outcomes("");
        race(root, "smoke", "bench smoke: ", BenchRaceChecks::smoke, "03", "--solution-vs-solution", "--smoke");
        busyRace(root);
        race(root, "self-race", "bench: ", BenchRaceChecks::same, "03", "--solution-vs-solution", "--quick", "--workloads", "hello,io-1000,cpu");
        Path learner = root.resolve(".broken/03-bench-slower.java");
        if (TestBench.mutate(root.resolve("scripts/test/fixtures/bench/03-slower.txt"), root.resolve("solutions/03-reactor.java"), learner) != 0) return 2;
        Path log = race(root, "slower", "bench: ", BenchRaceChecks::slower, "03", "--learner", learner.toString(), "--quick", "--workloads", "hello");
        String piped = Files.readString(log);
        BenchRaceChecks.about = "";
        BenchRaceChecks.check("bench.sh piped to a file prints no progress lines, only the table, verdicts and notes",
                piped.lines().noneMatch(l -> l.startsWith("bench: ")) && !piped.contains("\r"),
                "it printed progress lines (see " + log + "): they belong on a terminal only");
        race(root, "db-mixed", "bench: ", BenchRaceChecks::dbMixed, "03", "--solution-vs-solution", "--smoke", "--workloads", "db,mixed");
        race(root, "trip", "bench: ", BenchRaceChecks::trip, "08", "--solution-vs-solution", "--smoke");
        race(root, "ramp", "bench: ", BenchRaceChecks::ramp, "03", "--solution-vs-solution", "--smoke", "--ramp");
        race(root, "open-loop", "bench: ", BenchRaceChecks::openLoop, "03", "--solution-vs-solution", "--smoke", "--open-loop");
        race(root, "connections", "bench: ", BenchRaceChecks::connections, "03", "--solution-vs-solution", "--smoke", "--connections", "1500");
        race(root, "command", "bench: ", BenchRaceChecks::command, "03", "--command", "python3 -u scripts/test/independent/server.py", "--smoke",
                "--timeline", "hello");
        java.time.Instant began = java.time.Instant.now();
        log = race(root, "timeline", "bench timeline: ", json -> BenchRaceChecks.timeline(root, began, json),
                "04", "--solution-vs-solution", "--smoke", "--workloads", "hello", "--timeline", "hello");
        String printed = Files.readString(log);
        BenchRaceChecks.about = "bench timeline: ";
        BenchRaceChecks.check("the report prints both timelines' paths and what recording cost each", printed.contains("timeline/04-hello.json")
                && printed.contains("timeline/04-hello-reference.json") && printed.split("recording cost: ", -1).length == 3, "see " + log);
        return BenchRaceChecks.checked.end();
    }

    /** Runs scripts/bench.sh with {@code args} (its output in .results/bench-NAME.log), then {@code checks} on its JSON; the log. */
    static Path race(Path root, String name, String prefix, Checks checks, String... args) throws Exception {
        Path log = root.resolve(".results/bench-" + name + ".log");
        // A folder of its own: a race with --timeline writes its timelines beside its JSON (timeline/).
        Path dir = Files.createTempDirectory("bench-" + name);
        Path json = dir.resolve("race.json");
        Files.createDirectories(log.getParent());
        List<String> command = new ArrayList<>(List.of(root.resolve("scripts/bench.sh").toString()));
        command.addAll(List.of(args));
        command.addAll(List.of("--out", json.toString()));
        Commands.Ended ended = Commands.run(new ProcessBuilder(command), log, java.time.Duration.ofMinutes(15));
        BenchRaceChecks.about = "";
        String said = "bench.sh " + String.join(" ", args);
        BenchRaceChecks.check(said + " exits 0", ended.ok(), (ended.status() == -1 ? "did not end in 15 minutes" : "exits " + ended.status()) + flagged(json)
                + " (see " + log + ")");
        BenchRaceChecks.about = prefix;
        if (Files.exists(json)) {
            try {
                checks.of(json);
            } catch (Exception | AssertionError e) {
                BenchRaceChecks.check("its results can be read", false, e.toString());
            }
        } else {
            BenchRaceChecks.check("it wrote its results", false, "no " + json + " (see " + log + ")");
        }
        Trees.delete(dir);
        return log;
    }

    /**
     * The smoke race again, with a core kept busy by another process ({@code yes}, killed by its
     * PID): it says so before it starts, flags the hello results and says it beside the verdict,
     * and exits 1, as for any flag.
     */
    static void busyRace(Path root) throws Exception {
        Path log = root.resolve(".results/bench-busy.log");
        Path json = Files.createTempFile("bench-busy", ".json");
        Files.delete(json);
        Process yes = new ProcessBuilder("yes").redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectErrorStream(true).start();
        Commands.Ended ended;
        try {
            ended = Commands.run(new ProcessBuilder(root.resolve("scripts/bench.sh").toString(), "03", "--solution-vs-solution", "--smoke",
                    "--out", json.toString()), log, java.time.Duration.ofMinutes(15));
        } finally {
            yes.destroy();
            if (!yes.waitFor(5, java.util.concurrent.TimeUnit.SECONDS)) yes.destroyForcibly();
        }
        BenchRaceChecks.about = "bench busy: ";
        String printed = Files.readString(log);
        BenchRaceChecks.check("with a core kept busy (yes), bench.sh exits 1 and says so before the race starts", ended.status() == 1
                && printed.contains("busy before the race starts"), "exits " + ended.status() + " (see " + log + ")");
        if (!Files.exists(json)) {
            BenchRaceChecks.check("it wrote its results", false, "no " + json + " (see " + log + ")");
            return;
        }
        BenchReport report = BenchReport.read(Files.readString(json));
        Files.delete(json);
        BenchRaceChecks.check("the results record what other processes used before the race (about a core)", report.machine().othersCoresBefore() != null
                && report.machine().othersCoresBefore() >= 0.5, "othersCoresBefore " + report.machine().othersCoresBefore());
        List<BenchReport.Result> hello = report.workloads().isEmpty() ? List.of() : report.workloads().get(0).results();
        BenchRaceChecks.check("every hello result is flagged: the machine was busy", !hello.isEmpty() && hello.stream().allMatch(r -> r.flags().stream()
                .anyMatch(f -> f.contains("the machine was busy"))), "flags " + hello.stream().map(BenchReport.Result::flags).toList());
        BenchRaceChecks.check("the verdict says it rests on busy turns, and the terminal printed it beside the verdict", hello.stream().anyMatch(r ->
                r instanceof BenchReport.LoadResult l && l.ratio() != null && l.ratio().busy() != null) && printed.contains("this verdict may be the machine's"),
                "ratios " + hello.stream().map(r -> r instanceof BenchReport.LoadResult l ? String.valueOf(l.ratio()) : "-").toList());
    }

    /** ", flagged: ..." with the flags the race wrote to {@code json}, or "" when there are none or it cannot be read. */
    static String flagged(Path json) {
        try {
            List<String> flags = BenchReport.read(Files.readString(json)).flags();
            return flags.isEmpty() ? "" : ", flagged: " + String.join("; ", flags);
        } catch (Exception e) {
            return "";
        }
    }
}
