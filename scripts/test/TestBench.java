///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
//DEPS org.junit.jupiter:junit-jupiter:5.14.2
//DEPS org.junit.platform:junit-platform-launcher:1.14.2
//DEPS org.junit.platform:junit-platform-reporting:1.14.2
//DEPS com.fasterxml.jackson.core:jackson-databind:2.22.4
//SOURCES ../bench/Bench.java BenchRaceChecks.java BenchRaces.java BenchTests.java BenchStatsTests.java BenchParsingTests.java BenchReportTests.java BenchTimelineTests.java VerdictTests.java CpusTests.java PhasesTests.java FrameworkTests.java OpenLoopTests.java ConnectionsTests.java UnitRun.java ../lib/Outcomes.java Commands.java ../lib/Mutants.java Trees.java PageCommands.java

package test;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.nio.file.Files;
import java.nio.file.Path;
import lib.Chapters;
import lib.Mutants;
import lib.Outcomes;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * Runs the benchmark's unit tests (scripts/test/BenchTests.java and its neighbours), or checks
 * the JSON of a race of a solution against itself: {@code --smoke FILE} a smoke run,
 * {@code --same FILE} the verdicts of a self-race, {@code --db-mixed FILE} a race of the db and
 * mixed workloads, {@code --trip FILE} chapter 08's race against its backend, {@code --ramp FILE}
 * a smoke ramp, {@code --open-loop FILE} a smoke open loop, {@code --slower FILE} a race of a
 * server made slower on purpose; {@code --mutate SPEC SOLUTION OUT} writes that server (SOLUTION
 * with SPEC's replacements: scripts/test/fixtures/bench/); {@code --races} runs each of those races
 * with scripts/bench.sh (logs in .results/bench-*.log) and checks its JSON. One ok/FAIL line per check, then "N passed, N failed". The unit tests read the
 * chapter registry and the committed results (site/static/bench/) of the course that holds the
 * current folder.
 *
 * <p>This file reads the command line and runs the unit tests; the checks of a race's JSON are in
 * BenchRaceChecks, the races of {@code --races} in BenchRaces.
 */
class TestBench {
    public static void main(String[] args) throws Exception {
        if (args.length == 4 && args[0].equals("--mutate")) {
            System.exit(mutate(Path.of(args[1]), Path.of(args[2]), Path.of(args[3])));
        }
        if (args.length == 1 && args[0].equals("--races")) {
            System.exit(BenchRaces.races(courseRoot()));
        }
        if (args.length == 2) {
            Path file = Path.of(args[1]);
            BenchRaceChecks.checked = new Outcomes(args[0].equals("--smoke") ? "bench smoke: " : "bench: ");
            switch (args[0]) {
                case "--smoke" -> BenchRaceChecks.smoke(file);
                case "--same" -> BenchRaceChecks.same(file);
                case "--slower" -> BenchRaceChecks.slower(file);
                case "--db-mixed" -> BenchRaceChecks.dbMixed(file);
                case "--trip" -> BenchRaceChecks.trip(file);
                case "--ramp" -> BenchRaceChecks.ramp(file);
                case "--open-loop" -> BenchRaceChecks.openLoop(file);
                case "--connections" -> BenchRaceChecks.connections(file);
                case "--command" -> BenchRaceChecks.command(file);
                default -> throw new IllegalArgumentException("usage: TestBench [--smoke|--same|--slower|--db-mixed|--trip|--ramp|--open-loop|--connections|--command FILE] | --mutate SPEC SOLUTION OUT");
            }
            System.exit(BenchRaceChecks.checked.end());
        }
        System.exit(unitTests());
    }

    /**
     * Writes {@code out}: {@code solution} with the replacements of {@code spec}, a line "- TEXT"
     * (which must occur exactly once) followed by a line "+ TEXT" that replaces it; "#" lines are
     * comments. Returns 0, or 2 after saying which when a line to replace is not there exactly once.
     */
    static int mutate(Path spec, Path solution, Path out) throws Exception {
        String text = Files.readString(solution);
        for (Mutants.Replacement r : Mutants.replacements(spec)) {
            String changed = r.applyTo(text);
            if (changed == null) {
                System.err.println("test bench: '" + r.find() + "' (" + spec + ") must occur exactly once in " + solution + ": update the fixture");
                return 2;
            }
            text = changed;
        }
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, text);
        return 0;
    }

    /** The nearest folder, from here up, that holds the chapter registry (else here). */
    static Path courseRoot() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve(Chapters.FILE))) return dir;
        }
        return Path.of(".");
    }

    /** Runs the benchmark's unit tests (the classes tagged unit that this program holds) and returns the status to exit with. */
    static int unitTests() throws java.io.IOException {
        Path root = System.getProperty("course.root") != null ? Path.of(System.getProperty("course.root")) : courseRoot();
        return UnitRun.run(root, "unit", null);
    }
}
