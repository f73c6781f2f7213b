///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
//DEPS org.junit.jupiter:junit-jupiter:5.14.2
//DEPS org.junit.platform:junit-platform-launcher:1.14.2
//SOURCES ../lib/Lib.java ../room/RoomLink.java GradeCommand.java
//SOURCES ../contract/Contract.java Client.java Clients.java Elapsed.java Watch.java Check.java Alive.java Runner.java
//SOURCES ProtocolChecks.java Ch01Checks.java Ch02Checks.java Ch03Checks.java Ch04Checks.java Ch05Checks.java Ch06Checks.java
//SOURCES Ch08Checks.java Ch09Checks.java Backend.java Tips.java RunContext.java Recorder.java

package checks;

import contract.CheckList;
import contract.CheckReport;
import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import lib.Chapters;
import lib.Cli;
import lib.LaunchRecord;
import lib.Painter;
import lib.Results;
import lib.SiteAddress;
import lib.Subject;
import lib.Target;
import lib.Tools;
import room.RoomLink;

/**
 * The grader behind scripts/check.sh: starts a chapter's server (the learner's exercise, the
 * reference solution, any file, or none with --url), runs that chapter's hidden checks against
 * it over real sockets, prints one line per check with a hint on failure, and stops the server.
 * A Grade is built from its options; the chapters come from the registry (site/data/course.json).
 */
public final class Grade {
    /** The course's site ({@link SiteAddress#of(String, Path)}). */
    public static String site(String setting, Path root) {
        return SiteAddress.of(setting, root);
    }

    public static String site(String setting) {
        return SiteAddress.of(setting);
    }

    static final boolean COLOR = System.console() != null && System.getenv("NO_COLOR") == null;
    public static final String JBANG = System.getenv().getOrDefault("COURSE_JBANG", "jbang");

    /**
     * What to grade and how to report it: the {@link Subject};
     * {@code log}, when set, receives the report that would go to the terminal (the self-test's);
     * {@code saves}: whether a full grading of the exercise is kept as the learner's progress
     * (the self-test keeps none: it must not overwrite the checkout's own records); {@code listener},
     * when set, hears of each check's result as it comes.
     */
    public record Options(Path root, String jbang, Subject subject, boolean json, boolean saves, java.io.PrintStream log,
                   List<String> only, Runner.Progress listener, Path timelines) {
        public Options(Path root, String jbang, Subject subject, boolean json, boolean saves, java.io.PrintStream log,
                List<String> only, Runner.Progress listener) {
            this(root, jbang, subject, json, saves, log, only, listener, null);
        }

        public static Options of(Path root) {
            return new Options(root, JBANG, new Subject.Exercise(), false, true, null, List.of(), null);
        }

        /** The same options, recording the threads of the checks about them into {@code timelines} ({@link Recorder}); null records none. */
        public Options recording(Path timelines) {
            return new Options(root, jbang, subject, json, saves, log, only, listener, timelines);
        }

        public Options grading(Subject subject) {
            return new Options(root, jbang, subject, json, saves, log, only, listener, timelines);
        }

        public Options loggingTo(java.io.PrintStream log) {
            return new Options(root, jbang, subject, json, saves, log, only, listener, timelines);
        }

        /** The same options, keeping no progress record. */
        public Options notSaving() {
            return new Options(root, jbang, subject, json, false, log, only, listener, timelines);
        }

        /** The same options, running only the checks {@code ids} (all when empty). */
        public Options running(List<String> ids) {
            return new Options(root, jbang, subject, json, saves, log, List.copyOf(ids), listener, timelines);
        }

        /** The same options, telling {@code listener} each check's result as it comes, with its time (the self-test's timings). */
        public Options telling(Runner.Progress listener) {
            return new Options(root, jbang, subject, json, saves, log, only, listener, timelines);
        }
    }

    final Options options;
    final Map<String, Chapters.Chapter> chapters;
    /** The course's address for this grading's links: {@link #site(String, Path)}. */
    final String site;

    public Grade(Options options) {
        this.options = options;
        this.chapters = Chapters.graded(options.root());
        this.site = site(System.getenv("COURSE_SITE"), options.root());
    }

    public static void main(String[] args) {
        LaunchRecord.write(Grade.class, args); // the next check.sh on these sources starts this JVM straight
        System.exit(Cli.run("check", new GradeCommand(), args));
    }

    /** The check classes of a chapter: the protocol's, then its own (named in the registry). */
    public static List<Class<?>> checkClasses(Chapters.Chapter chapter) {
        try {
            return List.of(ProtocolChecks.class, Class.forName(Grade.class.getPackageName() + "." + chapter.checks().orElseThrow()));
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("the registry names checks " + chapter.checks().get()
                    + " for chapter " + chapter.number() + ", and there is no such class: add it to Grade.java's //SOURCES");
        }
    }

    /**
     * The course's checks as {@link CheckList} keeps them, from the check classes: each graded
     * chapter's, in the order the grader runs them, each with its title and its step for that chapter.
     */
    public static CheckList checkList(java.util.Collection<Chapters.Chapter> chapters) {
        List<CheckList.Listed> listed = new java.util.ArrayList<>();
        for (Chapters.Chapter chapter : chapters) {
            for (Class<?> suite : checkClasses(chapter)) {
                List<java.lang.reflect.Method> methods = new java.util.ArrayList<>(List.of(suite.getDeclaredMethods()));
                methods.removeIf(m -> !m.isAnnotationPresent(Check.class));
                methods.sort(Check.InOrder.RUN);
                for (java.lang.reflect.Method m : methods) {
                    Check check = m.getAnnotation(Check.class);
                    listed.add(new CheckList.Listed(chapter.number(), Runner.id(m), check.title(), Runner.see(check, chapter.number())));
                }
            }
        }
        return new CheckList(listed);
    }

    /** Grades one chapter and returns the report (also saved under .results/checks/). */
    public CheckReport grade(Chapters.Chapter chapter) throws IOException {
        String time = Instant.now().toString();
        Target target;
        String label;
        Backend backend = null;
        List<String> args = chapter.gradeArgs();
        try {
            Runner.selectors(checkClasses(chapter), options.only()); // an unknown --only id stops here, before a server starts
            if (Chapters.callsBackend(args)) {
                backend = startBackend();
                args = Chapters.withBackend(args, backend.url());
            }
            label = options.subject().label(options.root(), chapter.fileName());
            if (options.subject() instanceof Subject.Running running) {
                target = Target.attach(running.url(), running.pid());
            } else {
                Subject.Launch launch = options.subject().launch(options.root(), Tools.jbang(options.root(), options.jbang()),
                        chapter.fileName(), chapter.gradeJvm(), args);
                say("\n" + bold(chapter.number() + " " + chapter.title()) + ": grading " + label);
                say(dim("  starting it with: " + launch.shown()));
                target = launch.start(options.root().resolve(".results/logs/" + chapter.number() + "-" + options.subject().word() + ".log"), Map.of());
            }
        } catch (IOException | IllegalArgumentException e) {
            if (backend != null) backend.close();
            say(red("  could not run the checks: ") + e.getMessage());
            Tips.forOutput(e.getMessage()).forEach(tip -> say("  " + bold("tip: ") + tip));
            CheckReport report = CheckReport.couldNotRun(chapter.number(), chapter.title(), options.subject().word(), time, e.getMessage());
            save(chapter, report);
            return report;
        }
        if (options.subject() instanceof Subject.Running) {
            say("\n" + bold(chapter.number() + " " + chapter.title()) + ": grading " + label);
            if (!args.isEmpty()) say(dim("  the checks expect the server to run with " + String.join(" ", args)));
        }
        List<Runner.Result> results;
        try {
            List<Object> given = new ArrayList<>(backend == null ? List.of(target, chapter) : List.of(target, backend, chapter));
            if (options.timelines() != null) {
                given.add(new Recorder.Request(options.root(), options.timelines(), chapter.number(), options.only(), label, options.subject().word()));
            }
            results = Runner.run(checkClasses(chapter), chapter.number(), options.only(), given, r -> {
                say(line(chapter, r));
                if (options.listener() != null) options.listener().finished(r);
            });
        } finally {
            target.stop();
            if (backend != null) backend.close();
        }
        long failed = results.stream().filter(Runner.Result::failed).count();
        long passed = results.stream().filter(r -> r.status() == CheckReport.Status.PASS).count();
        long skipped = results.size() - failed - passed;
        long total = Runner.ids(checkClasses(chapter)).size();
        boolean partial = results.size() < total;
        List<CheckReport.Check> checks = new ArrayList<>();
        for (Runner.Result r : results) {
            checks.add(new CheckReport.Check(r.id(), r.name(), r.status(), r.message().isEmpty() ? null : r.message(),
                    r.note().isEmpty() ? null : r.note(), r.failed() ? todoFor(chapter, r).orElse(null) : null,
                    r.failed() ? r.hint() : null, r.failed() ? url(site, r.see()) : null, r.notHere() ? true : null));
        }
        int exit = failed > 0 ? 1 : 0;
        CheckReport report = new CheckReport(chapter.number(), chapter.title(), options.subject().word(), time, label, passed, failed,
                skipped, partial ? total : null, checks, target.restarts() > 0 ? target.restarts() : null, exit, null);
        say("  " + summary(chapter, passed, failed, skipped, report.notHereCount(), total));
        firstFix(chapter, results).ifPresent(this::say);
        save(chapter, report);
        return report;
    }

    /**
     * The run's last line: "26 passed, 0 failed - chapter 05 done!" only for a whole grading that
     * passed, with no check skipped but those this machine cannot run ({@code notHere}, named
     * after "done!"); a partial one says what it ran ("1 of 26 checks ran (--only)") and never "done".
     */
    public static String summary(Chapters.Chapter chapter, long passed, long failed, long skipped, long notHere, long total) {
        String counts = passed + " passed, " + failed + " failed" + (skipped > 0 ? ", " + skipped + " skipped" : "");
        long ran = passed + failed + skipped;
        if (ran < total) {
            return (failed == 0 ? green(counts) : red(counts)) + dim("  (" + ran + " of " + total + " checks ran, with --only;"
                    + " scripts/check.sh " + chapter.number() + " grades them all)");
        }
        return (failed == 0 ? green(counts) : red(counts)) + (failed == 0 && skipped == notHere ? "  - chapter " + chapter.number() + " done!"
                + (notHere == 0 ? "" : dim(" (" + notHere + " skipped: this machine cannot run " + (notHere == 1 ? "it" : "them") + ")")) : "");
    }

    /**
     * When two checks or more failed, the line that says which to fix first: the failure at the
     * earliest step of the chapter's page (its {@code see} section; a check not tried counts at the
     * step of the one it waits on), as a learner working down the page meets them, and the room's
     * stuck column shows it: "fix first: 'answers a lone /io...' (TODO(timers); 9 checks wait on it)".
     */
    public java.util.Optional<String> firstFix(Chapters.Chapter chapter, List<Runner.Result> results) {
        return firstFix(chapter, results, Chapters.sections(options.root().resolve("site/content/" + chapter.page() + ".adoc")));
    }

    public static java.util.Optional<String> firstFix(Chapters.Chapter chapter, List<Runner.Result> results, List<String> sections) {
        List<Runner.Result> failed = results.stream().filter(Runner.Result::failed).toList();
        if (failed.size() < 2) return java.util.Optional.empty();
        java.util.function.ToIntFunction<Runner.Result> step = r -> {
            String see = r.see();
            int at = see.startsWith(chapter.page() + "#") ? sections.indexOf(see.substring(see.indexOf('#') + 1)) : -1;
            return at < 0 ? Integer.MAX_VALUE : at;
        };
        Runner.Result first = failed.stream().min(java.util.Comparator.comparingInt(step)).orElseThrow(); // ties: the first to run
        String title = first.waitsOn() != null ? first.waitsOn() : first.name();
        long waiting = results.stream().filter(r -> title.equals(r.waitsOn())).count();
        String todo = todoFor(chapter, first).map(t -> "TODO(" + t + ")").orElse("");
        String why = String.join("; ", java.util.stream.Stream.of(todo, waiting == 0 ? "" : waiting + (waiting == 1 ? " check waits" : " checks wait") + " on it")
                .filter(x -> !x.isEmpty()).toList());
        return java.util.Optional.of("  " + bold("fix first:") + " '" + title + "'" + (why.isEmpty() ? "" : " (" + why + ")")
                + dim(": the earliest step of the page that fails"));
    }

    /** The TODO a failure points at: the one its symptom named ({@link Check.Symptom}), else the registry's for the check. */
    static java.util.Optional<String> todoFor(Chapters.Chapter chapter, Runner.Result r) {
        if (r.todo() != null) return r.todo().isEmpty() ? java.util.Optional.empty() : java.util.Optional.of(r.todo());
        return chapter.todoFor(r.id());
    }

    /**
     * The backend the checks watch: on any free port, or on 8081 when grading a server already
     * running (--url), which then must have been started with its default --backend.
     */
    Backend startBackend() throws IOException {
        int port = options.subject().backendPort();
        try {
            return Backend.start("127.0.0.1", port, true);
        } catch (java.net.BindException e) {
            throw new IOException("the checks' backend cannot listen on 127.0.0.1:" + port + " (" + e.getMessage()
                    + "): stop the program using that port");
        }
    }

    /** The server file to grade: exercises/NN-*.java, solutions/NN-*.java, or --file. */
    public Path serverFile(Chapters.Chapter chapter) throws IOException {
        Path server = options.subject().file(options.root(), chapter.fileName())
                .orElseThrow(() -> new IOException("a server given with --url or --command has no file to grade"));
        if (!Files.isRegularFile(server)) throw Subject.missing(options.root(), server);
        return server;
    }

    /** Grades again each time the chapter's file (or the kit) is saved; Ctrl-C ends. */
    void watch(Chapters.Chapter chapter) throws Exception {
        Path server = serverFile(chapter);
        try (WatchService ws = FileSystems.getDefault().newWatchService()) {
            server.getParent().register(ws, StandardWatchEventKinds.ENTRY_MODIFY, StandardWatchEventKinds.ENTRY_CREATE);
            while (true) {
                grade(chapter);
                say(dim("\n  watching " + options.root().relativize(server) + ": save it to grade again, Ctrl-C to stop"));
                while (true) {
                    WatchKey key = ws.take();
                    boolean ours = key.pollEvents().stream().anyMatch(e -> server.getFileName().equals(e.context()));
                    key.reset();
                    if (ours) break;
                }
                Thread.sleep(300); // editors save in several steps
                while (true) {
                    WatchKey more = ws.poll();
                    if (more == null) break;
                    more.pollEvents();
                    more.reset();
                }
            }
        }
    }

    /**
     * Keeps a grading of the learner's own file as their progress (the site and a hand-in read
     * it). A partial run (--only) is kept by no one: a record is always a whole grading.
     */
    public void save(Chapters.Chapter chapter, CheckReport report) throws IOException {
        if (!options.saves() || !options.subject().progress()) return; // progress is about the learner's own file
        if (report.total() != null) {
            say(dim("  (a partial run: your progress record, .results/checks/" + chapter.number() + ".json, is unchanged)"));
            return;
        }
        RoomLink.save(options.root(), "checks", chapter.number(), report.json());
    }

    static void table(List<CheckReport> reports) {
        System.out.println("\n" + bold("Progress"));
        for (CheckReport r : reports) {
            long passed = r.passed() == null ? 0 : r.passed();
            long failed = r.failed() == null ? 0 : r.failed();
            long skipped = r.skipped() == null ? 0 : r.skipped();
            long notHere = r.notHereCount();
            String state = r.error() != null ? red("could not run")
                    : failed > 0 ? red(failed + " to fix")
                    : skipped > notHere ? skipped + " skipped, not done" // as the summary line: done means every check this machine can run ran and passed
                    : green("done") + (notHere == 0 ? "" : dim(" (" + notHere + " this machine cannot run)"));
            System.out.printf("  %s  %-28s %3d/%-3d  %s%n", r.chapter(), r.title(), passed, passed + failed, state);
        }
    }

    public String line(Chapters.Chapter chapter, Runner.Result r) {
        return switch (r.status()) {
            case PASS -> "  " + green("PASS") + "  " + r.name() + took(r) + note(r);
            case SKIP -> "  " + dim("SKIP") + "  " + r.name() + dim(" (" + r.message() + ")") + note(r);
            case FAIL -> "  " + red("FAIL") + "  " + r.name() + took(r)
                    + "\n        what happened: " + r.message().replace("\n", "\n          ")
                    + note(r)
                    + (r.hint().isEmpty() ? "" : "\n        hint: " + r.hint())
                    + "\n        work on: " + whereToWork(chapter, r)
                    + dim("\n        this check alone: scripts/check.sh " + chapter.number() + " --only " + r.id() + target()
                            + (aboutThreads(chapter, r.id()) && options.timelines() == null ? "\n        its threads over time: scripts/check.sh " + chapter.number()
                            + " --only " + r.id() + target() + " --timeline" : ""));
        };
    }

    /** Whether the check {@code id} is about the server's threads ({@link Check#timeline}), so its timeline shows its failure. */
    static boolean aboutThreads(Chapters.Chapter chapter, String id) {
        for (Class<?> type : checkClasses(chapter)) {
            for (java.lang.reflect.Method m : type.getDeclaredMethods()) {
                Check check = m.getAnnotation(Check.class);
                if (check != null && check.timeline() && Runner.id(m).equals(id)) return true;
            }
        }
        return false;
    }

    /** What the check or the harness noted beside its result, on a line of its own. */
    private static String note(Runner.Result r) {
        return r.note().isEmpty() ? "" : "\n        " + bold("note:") + " " + r.note().replace("\n", "\n          ");
    }

    /** A check's time, dimmed, when it took a second or more: a slow run shows where it waited. */
    private static String took(Runner.Result r) {
        return r.ms() < 1000 ? "" : dim(String.format(" (%.1f s)", r.ms() / 1000.0));
    }

    /** The options that grade the same server again: none for the exercise. */
    private String target() {
        return options.subject().again(options.root());
    }

    /** Where a failing check sends the learner: the TODO in their file, if one covers it, then the page. */
    String whereToWork(Chapters.Chapter chapter, Runner.Result r) {
        String page = r.see().isEmpty() ? chapter.page() : r.see();
        String file = options.subject().file(options.root(), chapter.fileName())
                .map(f -> options.root().relativize(f.toAbsolutePath()).toString()).orElse(null);
        String todo = todoFor(chapter, r).filter(t -> file != null).map(t -> "TODO(" + t + ") in " + file + " → ").orElse("");
        return todo + url(site, page);
    }

    /** The address of a page of the site on the course at {@code site} ({@link SiteAddress#url}). */
    static String url(String site, String see) {
        return SiteAddress.url(site, see);
    }

    public static String link(String site, String see) {
        return SiteAddress.link(site, see);
    }

    /** Where the report goes: standard output, or standard error with --json; the self-test sends it to a log. */
    void say(String s) {
        if (options.log() != null) options.log().println(s);
        else if (!options.json()) System.out.println(s);
        else System.err.println(s);
    }



    static final Painter PAINT = new Painter(COLOR);

    static String green(String s) { return PAINT.green(s); }
    static String red(String s) { return PAINT.red(s); }
    static String bold(String s) { return PAINT.bold(s); }
    static String dim(String s) { return PAINT.dim(s); }

}
