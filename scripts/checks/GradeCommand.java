package checks;

import contract.CheckReport;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import lib.CommandError;
import lib.Jackson;
import lib.Root;
import lib.Subject;
import lib.SubjectOptions;
import lib.Timeline;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The command line of scripts/check.sh (and {@code jbang check}), read by picocli: which
 * chapters to grade, the server under test ({@link SubjectOptions}, shared with the race), and
 * how to report. {@link Grade#main} runs it through {@link Cli}; it builds the {@link Grade} and
 * returns the worst exit of the chapters it graded.
 */
@Command(name = "check", sortOptions = false,
        customSynopsis = {"usage: scripts/check.sh NN [options]     grade exercises/NN-*.java",
                "       scripts/check.sh --all [options]  grade every chapter, with a progress table", ""},
        footer = {"", "Links go to the course where scripts/start.sh last served it (http://127.0.0.1:1313/ by default); set COURSE_SITE to read",
                "it elsewhere, e.g. COURSE_SITE=file:///home/ada/course-site/ for a scripts/site.sh pack.", "",
                "Exit status: 0 every check passed, 1 some failed, 2 the checks could not run."})
public final class GradeCommand implements Callable<Integer> {
    @Parameters(paramLabel = "NN", arity = "0..*", description = "the chapters to grade (3 or 03)")
    public List<String> chapters = new ArrayList<>();

    @Option(names = "--all", description = "grade every chapter, with a progress table")
    public boolean all;

    @Mixin
    public SubjectOptions server;

    @Option(names = "--watch", description = "grade again each time you save the exercise file")
    boolean watch;

    @Option(names = "--only", paramLabel = "ID,ID", split = ",", description = {"run only these checks (ids as printed with --json, e.g. ch03.slowReader;",
            "a partial run: it keeps no progress record; a suite's name runs all of its checks: --only protocol)"})
    List<String> only = List.of();

    @Option(names = "--timeline", description = {"record the server's threads during the checks about them (or those named with --only)",
            "into .results/timeline/, which the chapter's page draws beside the reference solution's"})
    boolean timeline;

    @Option(names = "--json", description = "print the results as JSON (a whole grading of your exercise is kept as your progress)")
    boolean json;

    @Option(names = "--root", hidden = true, description = "the course's folder (the shell wrapper's; else found from here)")
    Path root;

    @Option(names = "--jbang", hidden = true, description = "the JBang to start servers with (the shell wrapper's)")
    String jbang = Grade.JBANG;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "this help")
    boolean help;

    @Override
    public Integer call() throws Exception {
        Path course = root != null ? root.toAbsolutePath().normalize() : Root.find();
        Subject subject = server.subject();
        Grade grade = new Grade(new Grade.Options(course, jbang, subject, json, true, null, List.copyOf(only), null,
                timeline ? course.resolve(Timeline.LEARNER) : null));
        List<String> numbers = new ArrayList<>();
        if (all) numbers.addAll(grade.chapters.keySet());
        for (String given : chapters) {
            String n = given.length() == 1 ? "0" + given : given;
            if (!grade.chapters.containsKey(n)) throw CommandError.usage("no chapter '" + n + "'; chapters with checks: " + grade.chapters.keySet());
            numbers.add(n);
        }
        if (numbers.isEmpty()) throw CommandError.usage("say which chapter to grade, e.g. 01, or --all");
        boolean one = numbers.size() == 1;
        if (!one && (subject instanceof Subject.Running || subject instanceof Subject.File)) throw CommandError.usage("--url and --file grade one chapter at a time");
        if (watch && !one) throw CommandError.usage("--watch grades one chapter at a time");
        if (watch && (subject instanceof Subject.Running || subject instanceof Subject.Command)) {
            throw CommandError.usage("--watch grades a file again when it is saved: it goes with the exercise, --solution or --file");
        }
        if (!only.isEmpty() && !one) throw CommandError.usage("--only names checks of one chapter");
        if (timeline && (!one || watch)) throw CommandError.usage("--timeline records one chapter's grading at a time, without --watch");

        for (String n : numbers) { // a missing file: one sentence, before any server starts
            if (subject.file(course, grade.chapters.get(n).fileName()).isPresent()) grade.serverFile(grade.chapters.get(n));
        }
        if (watch) grade.watch(grade.chapters.get(numbers.get(0)));
        int worst = 0;
        List<CheckReport> reports = new ArrayList<>();
        for (String n : numbers) {
            CheckReport report = grade.grade(grade.chapters.get(n));
            reports.add(report);
            worst = Math.max(worst, report.exit());
        }
        if (json) System.out.print(Jackson.write(reports.size() == 1 ? reports.get(0) : reports));
        if (!one && !json) Grade.table(reports);
        return worst;
    }
}
