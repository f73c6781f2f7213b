///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
//DEPS org.junit.jupiter:junit-jupiter:5.14.2
//DEPS org.junit.platform:junit-platform-launcher:1.14.2
//DEPS com.fasterxml.jackson.core:jackson-databind:2.22.4
//DEPS info.picocli:picocli:4.7.7
//SOURCES ../lib/Cli.java ../lib/CommandError.java
//SOURCES ../checks/Grade.java ../../exercises/kit/Kit.java ../../exercises/kit/NativeFrame.java
//SOURCES ../../exercises/kit/chapter-01/BlockingHttp.java ../../exercises/kit/chapter-03/EventLoop.java
//SOURCES Spinners.java ../lib/Outcomes.java ../lib/Frameworks.java WithoutSockets.java ../lib/Mutants.java Trees.java Lanes.java PageCommands.java

import checks.Check;
import checks.Grade;
import checks.ProtocolChecks;
import checks.Runner;
import contract.CheckReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import lib.Chapters;
import lib.Cli;
import lib.Frameworks;
import lib.Jackson;
import lib.Mutants;
import lib.Outcomes;
import lib.Subject;
import lib.Target;
import lib.Timeline;
import lib.Tools;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import test.Spinners;
import test.Trees;

/**
 * The course's self-test of its chapters, run by scripts/test.sh after the unit tests
 * (scripts/test/Units.java): for every chapter: the solution passes all checks, the untouched exercise fails exactly the
 * checks its TODOs are about, and each known-broken variant of the solution is caught by the
 * check named for its mistake: that check (the first on its line in scripts/test/spoilers/NN.txt)
 * runs alone and must fail. With {@code --exact}, a variant runs every check of its chapter and
 * must fail exactly those listed, cascades included (about 10 minutes more on a 2-core machine:
 * the broken variants that stall a server wait out the other checks' timeouts). A chapter with
 * tests without sockets (chapter 06's exercises/demos/HybridHandlerTests.java) runs them too:
 * see WithoutSockets. With {@code --share DIR}, it runs beside other self-tests given the same
 * DIR, each part in the first to claim it (see {@link Lanes}); scripts/test/Suite.java runs four
 * so on two cores, then the busy-laptop pass in two parts at once ({@code --part}) beside a core
 * it keeps busy, then the very busy pass alone. Ends with "N passed, N failed". The command line
 * is read by picocli through {@link Cli}; Suite runs it as a program.
 */
@Command(name = "selftest", sortOptions = false,
        customSynopsis = {"usage: jbang scripts/test/SelfTest.java [ROOT] [--quick | --exact] [--only NN,NN]",
                "                                        [--share DIR | --times-from DIR] [--part K/N]", ""},
        footer = {"", "Ends with \"N passed, N failed\"; exit 0 when all passed. The grader's full output goes to",
                "ROOT/.results/selftest.log (selftest-lane-N.log with --share)."})
class SelfTest implements Callable<Integer> {
    static final Outcomes outcomes = new Outcomes("");

    @Parameters(arity = "0..1", paramLabel = "ROOT", description = "the course's folder (default: this folder)")
    Path given;

    @Option(names = "--quick", description = "no broken variants (solutions and exercises only)")
    boolean quick;

    @Option(names = "--exact", description = {"each broken variant runs every check of its chapter and must fail exactly those",
            "listed in scripts/test/spoilers/NN.txt (about 10 minutes more)"})
    boolean exact;

    @Option(names = "--only", paramLabel = "NN,NN", split = ",", description = {"only these: chapters (03), independent, frameworks, busy (both",
            "busy passes: busy-laptop, very-busy; the unit tests are scripts/test/Units.java's)"})
    List<String> only = new ArrayList<>();

    @Option(names = "--part", paramLabel = "K/N", description = {"the busy-laptop pass grades the K-th of every N chapters, and keeps",
            "no core busy itself: the caller does, for the N parts at once (scripts/test/Suite.java)"})
    String part;

    @Option(names = "--share", paramLabel = "DIR", description = {"run beside other self-tests given the same new DIR: each part (a",
            "chapter, the independent server, the framework servers) runs in the first",
            "to claim it, after the first builds the servers; no busy-laptop pass (run it alone after:",
            "it grades each solution in full; the lanes grade only chapter 04's, for its timeline)"})
    Path share;

    @Option(names = "--times-from", paramLabel = "DIR", description = {"the table of the slowest checks adds the times of the runs",
            "given --share DIR"})
    Path timesFrom;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "this help")
    boolean help;

    /** The lane this run is, when it shares its parts with others (--share); null when alone. */
    Lanes lanes;

    public static void main(String[] args) {
        System.exit(Cli.run("selftest", new SelfTest(), args));
    }

    @Override
    public Integer call() throws Exception {
        Path root = (given != null ? given : Path.of(".")).toAbsolutePath().normalize();
        lanes = share == null ? null : Lanes.join(share);
        Path log = root.resolve(".results/selftest" + (lanes == null ? "" : "-lane-" + lanes.number()) + ".log");
        Files.createDirectories(log.getParent());
        Grade.Options graded = Grade.Options.of(root).notSaving() // the checkout's own progress records stay as they are
                .loggingTo(new java.io.PrintStream(Files.newOutputStream(log), true, java.nio.charset.StandardCharsets.UTF_8));
        System.out.println("(the grader's full output goes to " + root.relativize(log) + ")");

        if (lanes != null && lanes.number() == 1) {
            try {
                lanes.build(root, Tools.jbang(root, graded.jbang()), only);
            } finally {
                lanes.built();
            }
        } else if (lanes != null && !lanes.awaitBuilt()) {
            System.out.println("(lane 1 did not build the servers within " + Lanes.BUILD_LIMIT.toMinutes() + " minutes: going on)");
        }

        System.setProperty("course.root", root.toString());

        for (Chapters.Chapter chapter : Chapters.graded(root).values()) {
            if (!only.isEmpty() && !only.contains(chapter.number())) continue;
            if (!claim(chapter.number())) continue;
            Map<String, Mutants.Mutant> mutants = spec(root.resolve("scripts/test/spoilers/" + chapter.number() + ".txt"));

            // Chapter 04's gradings are also recorded (check.sh --timeline): one busy loop must show as one busy lane.
            Path timelines = chapter.number().equals("04") ? Files.createTempDirectory("selftest-timelines-") : null;
            // In lanes, the busy-laptop pass after them grades every solution with every check and a core kept
            // busy: the same proof, on a harder machine, so the lanes grade only chapter 04's, for its timeline.
            if (lanes == null || timelines != null) {
                section("Chapter " + chapter.number() + ": the solution passes every check");
                expect(graded.grading(new Subject.Solution()).recording(timelines), chapter, "solution", Set.of(), null, null, List.of());
            }

            section("Chapter " + chapter.number() + ": the solution passes every check with the portable inspection (as on macOS or Windows: no /proc), none skipped");
            portable(graded.grading(new Subject.Solution()), chapter);

            section("Chapter " + chapter.number() + ": the untouched exercise fails what its TODOs are about");
            Path exercise = new Grade(graded.grading(new Subject.Exercise())).serverFile(chapter);
            Set<String> tags = new TreeSet<>();
            Matcher m = Pattern.compile("TODO\\(([a-z0-9-]+)\\)").matcher(Files.readString(exercise));
            while (m.find()) tags.add(m.group(1));
            record("exercise " + chapter.number() + " TODOs " + tags + " are listed in the registry (" + Chapters.FILE + ")",
                    tags.equals(chapter.todos().keySet()), "the registry lists " + chapter.todos().keySet());
            Set<String> union = new TreeSet<>();
            chapter.todos().values().forEach(union::addAll);
            expect(graded.grading(new Subject.Exercise()).recording(timelines), chapter, "exercise", union, null, null, List.of());
            if (timelines != null) busyLanes(timelines);

            // A chapter's tests without sockets (its spoilers/NN-without-sockets.txt): pass the solution, fail the exercise and its variants.
            WithoutSockets.run(root, chapter, quick);

            if (quick) continue;
            section("Chapter " + chapter.number() + ": each broken solution is caught by the check named for it");
            Path solution = root.resolve("solutions").resolve(exercise.getFileName());
            String source = Files.readString(solution);
            Path dir = root.resolve(".broken");  // one level below the root, like solutions/
            Files.createDirectories(dir);
            for (Map.Entry<String, Mutants.Mutant> e : mutants.entrySet()) {
                Mutants.Mutant mutant = e.getValue();
                // Each file the mutant changes: the solution (key ""), or a kit file it includes.
                Map<String, String> broken = new LinkedHashMap<>();
                broken.put("", source);
                boolean applied = true;
                for (Mutants.Replacement r : mutant.replacements()) {
                    if (!broken.containsKey(r.file())) broken.put(r.file(), Files.readString(root.resolve(r.file())));
                    String changed = r.applyTo(broken.get(r.file()));
                    if (changed == null) {
                        applied = false;
                        record("mutant " + e.getKey() + ": '" + r.find() + "' occurs exactly once in "
                                + (r.file().isEmpty() ? "the solution" : r.file()), false, "it does not");
                        break;
                    }
                    broken.put(r.file(), changed);
                }
                for (String kitFile : broken.keySet()) {
                    if (kitFile.isEmpty() || !applied) continue;
                    // The solution includes ../KITFILE; the broken copy sits next to the broken solution.
                    String copy = chapter.number() + "-" + e.getKey() + "-" + Path.of(kitFile).getFileName();
                    Files.writeString(dir.resolve(copy), broken.get(kitFile));
                    String solutionText = broken.get("");
                    if (!solutionText.contains("../" + kitFile)) {
                        applied = false;
                        record("mutant " + e.getKey() + ": the solution includes ../" + kitFile, false, "it does not");
                        break;
                    }
                    broken.put("", solutionText.replace("../" + kitFile, copy));
                }
                if (!applied) continue;
                Path file = dir.resolve(chapter.number() + "-" + e.getKey() + ".java");
                Files.writeString(file, broken.get(""));
                String named = mutant.checks().stream().filter(id -> Chapters.Expected.of(id).mark() != Chapters.Expected.Mark.EITHER).findFirst().orElse(null);
                expect(graded.grading(new Subject.File(file)), chapter, "mutant " + e.getKey(), new TreeSet<>(mutant.checks()), exact ? null : named,
                        named, mutant.says());
            }
        }
        if ((only.isEmpty() || only.contains("independent")) && claim("independent")) independent(root, graded);
        if ((only.isEmpty() || only.contains("frameworks")) && claim("frameworks")) frameworks(root, graded);
        // The busy passes after the lanes, never beside them: another lane would be another busy core.
        if (only.isEmpty() && lanes == null || only.contains("busy") || only.contains("busy-laptop")) busyLaptop(root, graded, part);
        if (only.isEmpty() && lanes == null || only.contains("busy") || only.contains("very-busy")) veryBusy(root, graded);
        if (lanes != null) {
            lanes.saveTimes(checkTime);
        } else {
            if (timesFrom != null) Lanes.addTimes(timesFrom, checkTime);
            printSlowest();
        }
        return outcomes.end();
    }

    /** Whether this run does {@code part}: always alone, else when this lane claims it first. */
    boolean claim(String part) throws IOException {
        return lanes == null || lanes.claim(part);
    }

    /**
     * The chapters a server written from the protocol page alone passes, and for chapter 05 the
     * checks it passes (its pool and timeouts; the rest are about virtual threads in a JVM).
     */
    static final Map<String, List<String>> INDEPENDENT = new LinkedHashMap<>(Map.of(
            "01", List.of(), "03", List.of(), "04", List.of(), "06", List.of(),
            "05", List.of("ch05.dbBound", "ch05.dbWait", "ch05.dbWhole", "ch05.idleTimeout", "ch05.slowLoris")));

    /**
     * A server written from the protocol page alone, in Python (scripts/test/independent/server.py),
     * graded as any server in another language: with --command, so the grader starts it with each
     * chapter's options and can start its own copies (protocol.outOfFiles).
     */
    static void independent(Path root, Grade.Options graded) throws Exception {
        section("A server written from the protocol page alone (scripts/test/independent/server.py, check.sh NN --command)");
        String server = root.resolve("scripts/test/independent/server.py").toString();
        Subject python = new Subject.Command("python3 -u scripts/test/independent/server.py", List.of("python3", "-u", server));
        Map<String, Chapters.Chapter> chapters = Chapters.graded(root);
        for (String chapter : new TreeSet<>(INDEPENDENT.keySet())) {
            List<String> checks = INDEPENDENT.get(chapter);
            String what = "chapter " + chapter + "'s checks" + (checks.isEmpty() ? "" : " " + String.join(",", checks));
            CheckReport report = new Grade(graded.grading(python).running(checks)).grade(chapters.get(chapter));
            record("independent server passes " + what + ": " + counts(report), report.error() == null && report.exit() == 0,
                    report.error() != null ? "could not run: " + report.error() : "failed: " + ids(report, CheckReport.Status.FAIL)
                            + " (see .results/logs/" + chapter + "-command.log)");
            String skipped = ids(report, CheckReport.Status.SKIP);
            if (!skipped.isEmpty()) System.out.println("      skipped: " + skipped);
        }
    }

    /** Every framework server of the race ({@link Frameworks}) keeps the protocol: chapter 01's protocol checks, none skipped. */
    static void frameworks(Path root, Grade.Options graded) throws Exception {
        section("Framework servers keep the protocol (scripts/bench/frameworks, check.sh 01 --url --only protocol)");
        Path dir = root.resolve(".results/frameworks");
        Chapters.Chapter first = Chapters.graded(root).values().iterator().next();
        for (Frameworks.Entry e : Frameworks.race()) { // each as the race starts it
            String name = e.file() + (e.args().isEmpty() ? "" : " " + String.join(" ", e.args()));
            List<String> command = new ArrayList<>(Tools.jbang(root, graded.jbang()));
            command.add(root.resolve(Frameworks.DIR).resolve(e.file()).toString());
            command.addAll(List.of("--port", "0"));
            command.addAll(e.args());
            // The first start builds it (Spring Boot's jars are large): up to 3 minutes.
            Target server = start(command, dir.resolve(name.replace(" ", "").replace("--", "-") + ".log"), name);
            if (server == null) continue;
            try {
                // Every protocol check but outOfFiles, which starts a copy of the server itself and so skips a --url server.
                List<String> protocol = Runner.ids(List.of(ProtocolChecks.class)).stream().filter(id -> !id.equals("protocol.outOfFiles")).toList();
                CheckReport report = new Grade(graded.grading(new Subject.Running(server.url(), server.pid())).running(protocol))
                        .grade(first);
                String failed = ids(report, CheckReport.Status.FAIL), skipped = ids(report, CheckReport.Status.SKIP);
                // Every protocol check applies to a JVM: a skipped one fails too.
                record(name + " keeps the protocol: " + counts(report), report.error() == null && report.exit() == 0 && skipped.isEmpty(),
                        report.error() != null ? "could not run: " + report.error()
                                : "breaks it: " + failed + (skipped.isEmpty() ? "" : "; skipped: " + skipped));
            } finally {
                server.stop();
            }
        }
    }

    /**
     * A learner's laptop runs an IDE, a browser and a video call: every solution must still pass
     * its checks with one core kept busy (a thread of this JVM that spins for the whole section).
     * With {@code part} "K/N", the K-th of every N chapters, and no spinning here: the caller keeps
     * a core busy while the N parts grade at once (Suite: grading mostly waits).
     */
    static void busyLaptop(Path root, Grade.Options graded, String part) throws Exception {
        java.util.regex.Matcher share = Pattern.compile("([1-9])/([1-9])").matcher(part == null ? "1/1" : part);
        if (!share.matches() || Integer.parseInt(share.group(1)) > Integer.parseInt(share.group(2))) {
            throw lib.CommandError.usage("--part takes K/N, K from 1 to N: " + part);
        }
        int k = Integer.parseInt(share.group(1)), n = Integer.parseInt(share.group(2));
        section("Every solution passes its checks with one core kept busy" + (n == 1 ? "" : " (part " + k + " of " + n + ")"));
        try (AutoCloseable busy = part == null ? Spinners.ownCore() : () -> { }) {
            List<Chapters.Chapter> chapters = List.copyOf(Chapters.graded(root).values());
            for (int i = k - 1; i < chapters.size(); i += n) {
                Chapters.Chapter chapter = chapters.get(i);
                CheckReport report = new Grade(timed(graded.grading(new Subject.Solution()))).grade(chapter);
                record("busy laptop: solution " + chapter.number() + ": " + counts(report), report.error() == null && report.exit() == 0,
                        report.error() != null ? "could not run: " + report.error() : "failed: " + ids(report, CheckReport.Status.FAIL));
            }
        }
    }

    /** Spinning processes per core in the very busy pass: far more than the machine has cores. */
    static final int SPINNERS_PER_CORE = 3;

    /**
     * A laptop whose IDE indexes while a build runs: three processes spin per core (started here,
     * killed by their PIDs). Each solution's checks about time and threads ({@link Check#timed},
     * {@link Check#timeline}) either pass or fail only with the grader's busy note first
     * ({@link Runner#BUSY}): a check never blames correct code for a machine it could see was busy.
     */
    static void veryBusy(Path root, Grade.Options graded) throws Exception {
        int cores = Runtime.getRuntime().availableProcessors();
        section("Every solution's checks about time and threads, with " + SPINNERS_PER_CORE * cores
                + " processes spinning on " + cores + " cores: each passes, or fails saying first that the machine was busy");
        try (Spinners spinning = Spinners.start(SPINNERS_PER_CORE * cores)) {
            for (Chapters.Chapter chapter : Chapters.graded(root).values()) {
                List<String> ids = new ArrayList<>();
                for (Class<?> suite : Grade.checkClasses(chapter)) {
                    for (java.lang.reflect.Method m : suite.getDeclaredMethods()) {
                        Check check = m.getAnnotation(Check.class);
                        if (check != null && (check.timed() || check.timeline())) ids.add(Runner.id(m));
                    }
                }
                if (ids.isEmpty()) continue;
                CheckReport report = new Grade(graded.grading(new Subject.Solution()).running(ids)).grade(chapter);
                List<String> blamed = report.checks() == null ? List.of() : report.checks().stream()
                        .filter(c -> c.failed() && (c.message() == null || !c.message().startsWith(Runner.BUSY)))
                        .map(c -> c.id() + ": " + c.message()).toList();
                long excused = report.checks() == null ? 0 : report.checks().stream().filter(CheckReport.Check::failed).count() - blamed.size();
                record("very busy: solution " + chapter.number() + ", " + ids.size() + " checks about time and threads: " + counts(report)
                                + (excused == 0 ? "" : " (" + excused + " saying the machine was busy)"),
                        report.error() == null && blamed.isEmpty(),
                        report.error() != null ? "could not run: " + report.error() : "failed without the busy note: " + blamed);
            }
        }
    }

    /** Starts a server that prints its ready line; null (and a failure recorded) when it does not within 3 minutes. */
    static Target start(List<String> command, Path log, String what) {
        try {
            Files.createDirectories(log.getParent());
            Files.deleteIfExists(log);
            return Target.start(command, log, java.time.Duration.ofMinutes(3));
        } catch (IOException e) {
            record(what + " starts and prints its ready line", false, e.getMessage() + " (see " + log + ")");
            return null;
        }
    }

    static String counts(CheckReport r) {
        return r.passed() == null ? "could not run" : r.passed() + " passed, " + r.failed() + " failed, " + r.skipped() + " skipped";
    }

    /** The ids of a report's checks with {@code status}, with why for a skipped one. */
    static String ids(CheckReport r, CheckReport.Status status) {
        return r.checks() == null ? "" : String.join("; ", r.checks().stream().filter(c -> c.status() == status)
                .map(c -> c.id() + (status == CheckReport.Status.SKIP && c.message() != null ? " (" + c.message().replace("TestAbortedException: ", "") + ")" : ""))
                .toList());
    }

    /** Each check's time, summed over every server graded: where the self-test's minutes go. */
    static final Map<String, long[]> checkTime = new java.util.HashMap<>();

    /** The grading {@code options}, adding each check's time to {@link #checkTime}. */
    static Grade.Options timed(Grade.Options options) {
        return options.telling(r -> {
            long[] sum = checkTime.computeIfAbsent(r.id(), k -> new long[2]);
            sum[0] += r.ms();
            sum[1]++;
        });
    }

    static void printSlowest() {
        if (checkTime.isEmpty()) return;
        section("Where the grading time went: the checks that took longest, summed over every server graded");
        checkTime.entrySet().stream()
                .sorted((a, b) -> Long.compare(b.getValue()[0], a.getValue()[0]))
                .limit(12)
                .forEach(e -> System.out.printf("      %-28s %4d s over %d runs%n", e.getKey(), e.getValue()[0] / 1000, e.getValue()[1]));
    }

    /**
     * Grades and compares the failing checks with {@code expected}: a plain id must fail; an id
     * written "?id" may fail or pass (a mistake whose effect depends on timing, like a lost
     * partial write that only happens when the socket buffer fills). A "?" check's result cannot
     * change the verdict, so it is not run: a variant that stalls the server would make each of
     * them wait out its timeouts (chapter 04's no-wakeup took 146 s so, and takes a few now).
     * An id written "~id" (the registry's, for an untouched exercise) must fail, or pass with a
     * note that says why a pass means little yet: a check whose TODO is not done never passes silently.
     * With {@code named}, that check alone runs, and must fail: the variant is caught by the
     * check named for its mistake (the others listed may be cascades, which need the checks
     * before them). With none, every check runs (a variant that names none must pass them all).
     * {@code says}: words the failure of the check named for the mistake ({@code sayer}, the first
     * its spec lists) must hold, in what happened or its hint, so that a hint names the cause.
     */
    static void expect(Grade.Options options, Chapters.Chapter chapter, String what, Set<String> expected, String named, String sayer,
                       List<String> says) throws IOException {
        Set<String> required = new TreeSet<>();
        Set<String> either = new TreeSet<>();
        Set<String> noted = new TreeSet<>();
        for (String written : expected) {
            Chapters.Expected e = Chapters.Expected.of(written);
            (switch (e.mark()) {
                case EITHER -> either;
                case AFTER -> noted;
                case FAILS -> required;
            }).add(e.id());
        }
        Set<String> allowed = new TreeSet<>(required);
        allowed.addAll(either);
        allowed.addAll(noted);
        List<String> all = Runner.ids(Grade.checkClasses(chapter));
        if (!all.containsAll(allowed)) {
            Set<String> unknown = new TreeSet<>(allowed);
            unknown.removeAll(all);
            record(chapter.number() + " " + what + ": the checks it names exist", false, "no such check: " + unknown);
            return;
        }
        boolean caught = named != null;
        List<String> run = caught ? List.of(named)
                : either.isEmpty() ? List.of() : all.stream().filter(id -> !either.contains(id)).toList();
        Grade grade = new Grade(timed(options.running(run)));
        long start = System.nanoTime();
        CheckReport report = grade.grade(chapter);
        long seconds = Math.round((System.nanoTime() - start) / 1e9);
        Set<String> actual = new TreeSet<>();
        Set<String> silent = new TreeSet<>(); // "~" checks that passed without a note
        for (CheckReport.Check check : report.checks()) {
            if (check.failed()) actual.add(check.id());
            else if (noted.contains(check.id()) && check.note() == null) silent.add(check.id());
        }
        String first = named != null ? named : sayer;
        List<String> unsaid = new ArrayList<>();
        for (CheckReport.Check check : report.checks()) {
            if (!check.id().equals(first) || !check.failed()) continue;
            String told = (check.message() + " " + check.hint()).toLowerCase(java.util.Locale.ROOT);
            for (String words : says) if (!told.contains(words.toLowerCase(java.util.Locale.ROOT))) unsaid.add(words);
        }
        boolean ok = report.error() == null && silent.isEmpty() && unsaid.isEmpty() && (caught ? actual.contains(named)
                : actual.containsAll(required) && allowed.containsAll(actual));
        record(chapter.number() + " " + what + (expected.isEmpty() ? " passes every check"
                        : caught ? " is caught by " + named : " fails exactly " + expected)
                + " [" + seconds + " s]", ok,
                report.error() != null ? report.error() : "failing: " + actual + (silent.isEmpty() ? "" : "; passed without a note: " + silent)
                        + (unsaid.isEmpty() ? "" : "; " + first + "'s failure does not say " + unsaid));
    }

    /**
     * Grades with the inspection that a machine without /proc gets (Inspect's portable paths: the
     * JVM's own counts, jcmd, lsof, ps): every check must run, and pass.
     */
    static void portable(Grade.Options options, Chapters.Chapter chapter) throws IOException {
        System.setProperty("course.inspect", "portable");
        try {
            Grade grade = new Grade(options);
            long start = System.nanoTime();
            CheckReport report = grade.grade(chapter);
            long seconds = Math.round((System.nanoTime() - start) / 1e9);
            List<String> notClean = report.checks().stream().filter(c -> c.status() != CheckReport.Status.PASS)
                    .map(c -> c.id() + " " + c.status() + (c.message() == null ? "" : ": " + c.message())).toList();
            record(chapter.number() + " solution passes every check, none skipped, with the portable inspection [" + seconds + " s]",
                    report.error() == null && notClean.isEmpty(), report.error() != null ? report.error() : String.join("; ", notClean));
        } finally {
            System.clearProperty("course.inspect");
        }
    }

    /**
     * Chapter 04's spread check, recorded on the solution and on the untouched exercise: the
     * timeline of the solution has two busy lanes (its loops), the exercise's (one thread does
     * every connection's work) one. Busy: 300 ms of CPU or more, a quarter of the 1.2 s the
     * check's four /cpu?ms=300 burn; the JVM's own threads are not the server's.
     */
    static void busyLanes(Path timelines) throws IOException {
        for (var expected : Map.of("04-ch04.spread-solution", 2, "04-ch04.spread", 1).entrySet()) {
            Path file = timelines.resolve(expected.getKey() + ".json");
            String what = "timeline " + expected.getKey() + ": " + expected.getValue() + " busy lane(s) (a thread that used 300 ms of CPU or more)";
            if (!Files.isRegularFile(file)) {
                record(what, false, "no timeline was written (" + file + ")");
                continue;
            }
            Timeline.Doc doc = Jackson.read(Files.readString(file), Timeline.Doc.class);
            List<String> busy = doc.lanes().stream().filter(l -> !l.role().equals("jvm") && l.cpuMs() >= 300).map(l -> l.name() + " " + l.cpuMs() + " ms").toList();
            record(what, busy.size() == expected.getValue(), "busy lanes: " + busy + " of " + doc.lanes().stream().map(Timeline.Lane::name).toList());
        }
        Trees.delete(timelines);
    }

    static void record(String name, boolean ok, String detail) {
        outcomes.record(name, ok, detail);
    }

    static void section(String title) {
        System.out.println("\n== " + title);
    }

    /** A chapter's broken variants (scripts/test/spoilers/NN.txt; its TODOs and the checks they cover are in the registry). */
    static Map<String, Mutants.Mutant> spec(Path file) throws IOException {
        return Mutants.read(file, line -> {
            if (line.startsWith("todo ")) {
                throw new java.io.UncheckedIOException(new IOException(file + ": a TODO's checks are listed in the registry, " + Chapters.FILE + ", not here"));
            }
            return false;
        });
    }
}
