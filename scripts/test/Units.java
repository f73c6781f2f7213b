///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
//DEPS org.junit.jupiter:junit-jupiter:5.14.2
//DEPS org.junit.platform:junit-platform-launcher:1.14.2
//DEPS org.junit.platform:junit-platform-reporting:1.14.2
//DEPS info.picocli:picocli:4.7.7
//SOURCES *.java ../lib/Outcomes.java ../lib/Cli.java ../lib/CommandError.java

package test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import lib.Cli;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The self-test's unit tier as one JUnit Platform run in one JVM: every test class this program
 * holds whose tags match ({@code unit} by default: the kit's, the grading harness's, the
 * packages', the timelines' and the benchmark's), found on its own class path, each result
 * printed as it ends ("ok    NAME", or "FAIL  NAME" and why), then "N passed, N failed"; and
 * JUnit's XML report in {@code .results/units/}, which scripts/test/Suite.java reads back.
 */
@Command(name = "units", sortOptions = false,
        customSynopsis = {"usage: jbang scripts/test/Units.java [ROOT] [--tags EXPRESSION] [--reports DIR]", ""},
        footer = {"", "Ends with \"N passed, N failed\"; exit 0 when all passed. The XML report goes to ROOT/.results/units/ unless --reports."})
public final class Units implements Callable<Integer> {
    /** The tag every unit test class carries: fast, no race, no grading of a chapter's server. */
    public static final String UNIT = "unit";

    /** The tag of the catalog's aliases run with no shell (NoShellTests): minutes, a grading and a race among them. */
    public static final String NO_SHELL = "no-shell";

    /** The tag of the proofs that the pages' figures come from the committed runs (FiguresTests): site builds of copies. */
    public static final String FIGURES = "figures";

    /** Every tier's tag: each test class carries one (PackagesTests.everyTestClassTagged). */
    public static final java.util.Set<String> TIERS = java.util.Set.of(UNIT, NO_SHELL, FIGURES);

    @Parameters(arity = "0..1", paramLabel = "ROOT", description = "the course's folder (default: this folder)")
    Path given;

    @Option(names = "--tags", paramLabel = "EXPRESSION", description = "a JUnit tag expression (default: unit)")
    String tags = UNIT;

    @Option(names = "--reports", paramLabel = "DIR", description = "where JUnit's XML report goes (default: ROOT/.results/units)")
    Path reports;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "this help")
    boolean help;

    public static void main(String[] args) {
        System.exit(Cli.run("units", new Units(), args));
    }

    @Override
    public Integer call() throws IOException {
        Path root = (given != null ? given : Path.of(".")).toAbsolutePath().normalize();
        return UnitRun.run(root, tags, reports != null ? reports.toAbsolutePath() : root.resolve(".results/units"));
    }
}
