///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
//DEPS info.picocli:picocli:4.7.7
//SOURCES ../lib/Outcomes.java ../lib/Tools.java Commands.java Trees.java Streaming.java Spinners.java ../lib/Cli.java ../lib/CommandError.java

package test;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.SimpleFileServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import lib.Cli;
import lib.Outcomes;
import lib.Tools;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Every step of the self-test after the tools and shellcheck (scripts/test.sh runs those, then
 * this, then looks for processes left behind). Each step runs the course's test programs (each a
 * JBang script with its own dependencies, so each in its own JVM) and reads their results as they
 * are printed: "ok    NAME", "FAIL  NAME" and why on the next line, section titles, and a last
 * line "N passed, N failed", which must agree with what it read. Steps that time nothing (room,
 * no-shell, site) run side by side, each result under its own step's title. Ends with
 * "N passed, N failed"; exit 0 when all passed.
 *
 * <pre>
 * jbang scripts/test/Suite.java [ROOT] [--quick | --exact] [--steps ID,ID] [--at SECONDS]
 * </pre>
 * {@code --steps} runs only the steps named (see {@link #STEPS}: units, selftest, bench, prefetch, room,
 * no-shell, site, browser; browser needs site); {@code --at} is how long the run had taken before
 * this, for the section titles' times. The browser step drives the Chrome that {@code CHROME} names
 * with the playwright-core under {@code PLAYWRIGHT_DIR} (scripts/test/tools.sh's setup_browser).
 * The command line is read by picocli through {@link Cli}.
 */
@Command(name = "suite", sortOptions = false,
        customSynopsis = {"usage: jbang scripts/test/Suite.java [ROOT] [--quick | --exact] [--steps ID,ID] [--at SECONDS]", ""},
        footer = {"", "Ends with \"N passed, N failed\"; exit 0 when all passed. scripts/test.sh runs it after the tools and shellcheck."})
final class Suite implements Callable<Integer> {
    /**
     * One step: its id for --steps, its section title, what it does, and whether it runs beside
     * the steps next to it that do too ({@code beside}: none of them times anything).
     */
    record Step(String id, String title, Action action, boolean beside) {
        Step(String id, String title, Action action) {
            this(id, title, action, false);
        }
    }

    interface Action {
        void run(Suite suite) throws Exception;
    }

    static final List<Step> STEPS = List.of(
            new Step("streaming", "The self-test prints each result as it happens", Suite::streaming),
            new Step("units", "Unit tests: one JUnit Platform run (scripts/test/Units.java)", Suite::units),
            new Step("selftest", "Chapters, independent and framework servers (scripts/test/SelfTest.java)", Suite::selfTest),
            new Step("bench", "The benchmark (scripts/bench.sh)", Suite::bench),
            new Step("prefetch", "Offline readiness (scripts/prefetch.sh)", Suite::prefetch),
            // After prefetch, which builds every script they run: two JBang processes that build one script at once break its build.
            new Step("room", "Hand-ins and the room summary (scripts/handin.sh, scripts/room.sh)", Suite::room, true),
            new Step("no-shell", "jbang check, doctor, handin, room and bench with no shell on PATH (jbang-catalog.json)", Suite::noShell, true),
            new Step("site", "The site", Suite::site, true),
            // After them: beside them, Chromium took as long again from each (CPU-bound, all of them: 233 s against 237).
            new Step("browser", "The site in a browser (scripts/test/browser.mjs)", Suite::browser));

    /** What a test program prints for each of its tests, and at its end. */
    static final Pattern OK = Pattern.compile("^ok {4}(.+)$");
    static final Pattern FAIL = Pattern.compile("^FAIL {2}(.+)$");
    static final Pattern WHY = Pattern.compile("^ {6}\\S.*$");
    static final Pattern COUNT = Pattern.compile("^(\\d+) passed, (\\d+) failed$");

    @Parameters(arity = "0..1", paramLabel = "ROOT", description = "the course's folder (default: this folder)")
    Path given;

    @Option(names = "--quick", description = "the self-test without its broken variants (passed on to SelfTest)")
    boolean quick;

    @Option(names = "--exact", description = "each broken variant runs every check of its chapter (passed on to SelfTest)")
    boolean exact;

    @Option(names = "--steps", paramLabel = "ID,ID", split = ",", description = {"only these steps: streaming, units, selftest, bench, prefetch, room, no-shell, site,",
            "browser (browser needs site)"})
    List<String> only = new ArrayList<>();

    @Option(names = "--at", paramLabel = "SECONDS", description = "how long the run had taken before this, for the section titles' times")
    long secondsBefore;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "this help")
    boolean help;

    /** The course's folder, and its .results/ where each step's log goes; set when the run starts. */
    Path root;
    Path logs;
    /** What the selftest step passes on to SelfTest: --quick and --exact, as given. */
    final List<String> selfTestOptions = new ArrayList<>();
    final Outcomes outcomes = new Outcomes("");
    final long startedAt = System.nanoTime();
    /** The site step's build, which the browser step serves; null until it is made. */
    Path site;

    public static void main(String[] args) {
        System.exit(Cli.run("suite", new Suite(), args));
    }

    @Override
    public Integer call() throws Exception {
        root = given != null ? given.toAbsolutePath().normalize() : Path.of("").toAbsolutePath();
        logs = root.resolve(".results");
        if (quick) selfTestOptions.add("--quick");
        if (exact) selfTestOptions.add("--exact");
        // Stopped early (Ctrl-C, a CI time limit): nothing it started outlives it.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> ProcessHandle.current().descendants().forEach(ProcessHandle::destroy)));
        try {
            List<Step> steps = STEPS.stream().filter(step -> only.isEmpty() || only.contains(step.id())).toList();
            for (int i = 0; i < steps.size(); ) {
                int end = i + 1;
                while (steps.get(i).beside() && end < steps.size() && steps.get(end).beside()) end++;
                if (end - i == 1) {
                    section(steps.get(i).title());
                    run(steps.get(i));
                } else {
                    beside(steps.subList(i, end));
                }
                i = end;
            }
        } finally {
            removeSite();
        }
        return outcomes.end();
    }

    void section(String title) {
        System.out.printf("%n%s%n", title(title));
    }

    /** A section's title line: "== TITLE [at N s]". */
    String title(String title) {
        long at = secondsBefore + TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - startedAt);
        return "== " + title + " [at " + at + " s]";
    }

    private void run(Step step) {
        try {
            step.action().run(this);
        } catch (Exception e) {
            outcomes.record(step.id() + " ran to its end", false, e.toString());
        }
    }

    /** The section title of the step a thread runs beside others: its programs' results show under it. */
    static final ScopedValue<String> SECTION = ScopedValue.newInstance();

    /**
     * Steps that time nothing, at once: each result shows under its own step's title, printed
     * again when another step printed in between (room, no-shell and the site took about 200 s
     * one after another).
     */
    void beside(List<Step> steps) {
        try (var running = Executors.newVirtualThreadPerTaskExecutor()) { // its close waits for each
            for (Step step : steps) {
                String title = title(step.title());
                running.submit(() -> ScopedValue.where(SECTION, title).run(() -> {
                    long start = System.nanoTime();
                    try {
                        run(step);
                    } finally {
                        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
                        synchronized (this) {
                            System.out.println("(" + step.id() + " took " + seconds + " s, beside the others)");
                        }
                    }
                }));
            }
        }
    }

    // The steps.

    /** Results are passed on as they are printed, and programs at once keep their titles: see {@link Streaming}. */
    void streaming() throws Exception {
        Streaming.check(this);
    }

    /**
     * The unit tier: every test class tagged unit (the kit's, the grading harness's, the packages',
     * the timelines' and the benchmark's), in one JVM; each result as it is printed, then JUnit's XML
     * report (.results/units/), which must count the same tests and no failure.
     */
    void units() throws Exception {
        junit("Units.java", "unit", logs.resolve("units")); // Units.UNIT, named here: Units.java compiles every test class
    }

    /**
     * One JUnit Platform run of the test classes tagged {@code tags} (scripts/test/Units.java):
     * each result as it is printed, then JUnit's XML report in {@code reports}, which must count
     * the same tests and failures.
     */
    void junit(String name, String tags, Path reports) throws Exception {
        Trees.delete(reports);
        Relay printed = program(name, jbang(List.of(script("Units.java"), root.toString(), "--tags", tags, "--reports", reports.toString())),
                Duration.ofMinutes(20));
        Path xml = reports.resolve("TEST-junit-jupiter.xml");
        if (!Files.isRegularFile(xml)) {
            show(printed, () -> outcomes.record(name + " wrote JUnit's XML report", false, "no " + root.relativize(xml)));
            return;
        }
        // JUnit's legacy XML report: one <testsuite tests= failures= errors=> for the run.
        org.w3c.dom.Element suite = javax.xml.parsers.DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(xml.toFile()).getDocumentElement();
        boolean read = suite.getTagName().equals("testsuite") && suite.getAttribute("tests").matches("\\d+")
                && suite.getAttribute("failures").matches("\\d+") && suite.getAttribute("errors").matches("\\d+");
        int tests = read ? Integer.parseInt(suite.getAttribute("tests")) : -1;
        int failures = read ? Integer.parseInt(suite.getAttribute("failures")) + Integer.parseInt(suite.getAttribute("errors")) : -1;
        show(printed, () -> outcomes.record("the " + tags + " tier's XML report (" + root.relativize(xml) + ") counts what it printed: "
                + (printed.passed + printed.failed) + " tests, " + printed.failed + " failed",
                tests == printed.passed + printed.failed && failures == printed.failed,
                read ? "the report says " + tests + " tests, " + failures + " failures and errors" : "its root is no <testsuite> with those counts"));
    }

    /**
     * SelfTest in lanes at once ({@link #LANES}), each part (a chapter, the independent and the
     * framework servers) in the first lane to claim it (see scripts/test/Lanes.java: grading mostly
     * waits, so lanes side by side take less time), then the busy passes: the busy-laptop pass
     * ({@link #busyLaptop}), then the very busy pass alone, which prints where the grading time
     * went in all of them. Each result is shown as it is printed, under its
     * lane's section title (printed again when another lane printed in between).
     */
    void selfTest() throws Exception {
        // Built once first: two JBang processes that build the same script at once break each other's build.
        Commands.Ended built = Commands.run(jbang(List.of("build", script("SelfTest.java"))), logs.resolve("suite-SelfTest-build.log"),
                Duration.ofMinutes(15));
        if (!built.ok()) {
            outcomes.record("SelfTest.java builds", false, built.said(3));
            return;
        }
        Path shared = Files.createTempDirectory("selftest-lanes");
        try {
            Map<String, List<String>> lanes = new java.util.LinkedHashMap<>();
            for (int lane = 1; lane <= LANES; lane++) lanes.put("SelfTest.java (lane " + lane + ")", List.of("--share", shared.toString()));
            selfTestsAtOnce(lanes, Duration.ofMinutes(60));
            busyLaptop(shared);
            List<String> args = new ArrayList<>(List.of(script("SelfTest.java"), root.toString(), "--only", "very-busy",
                    "--times-from", shared.toString()));
            args.addAll(selfTestOptions);
            program("SelfTest.java --only very-busy", jbang(args), Duration.ofMinutes(30));
        } finally {
            Trees.delete(shared);
        }
    }

    /**
     * The busy-laptop pass after the lanes: a thread here keeps one core busy (a laptop's video
     * call) while {@link #BUSY_PARTS} SelfTest parts grade every solution at once, each its share
     * of the chapters (grading mostly waits: one part at a time left the other core idle). The
     * spinning thread and both parts are this run's (COURSE_OURS_PID), so a check that fails is
     * not excused as a busy machine's: each must pass.
     */
    void busyLaptop(Path shared) throws Exception {
        Map<String, List<String>> parts = new java.util.LinkedHashMap<>();
        for (int part = 1; part <= BUSY_PARTS; part++) {
            String share = part + "/" + BUSY_PARTS;
            parts.put("SelfTest.java --only busy-laptop --part " + share, List.of("--only", "busy-laptop", "--part", share, "--share", shared.toString()));
        }
        try (AutoCloseable busy = Spinners.ownCore()) {
            selfTestsAtOnce(parts, Duration.ofMinutes(30));
        }
    }

    /**
     * SelfTest programs at once, by name, each with its arguments (after the course's folder) and
     * the run's options; returns when each has ended. Their gradings are one run's
     * (COURSE_OURS_PID): one's servers are not another's busy machine (Others).
     */
    void selfTestsAtOnce(Map<String, List<String>> runs, Duration limit) {
        try (var running = Executors.newVirtualThreadPerTaskExecutor()) { // its close waits for each
            runs.forEach((name, given) -> {
                List<String> args = new ArrayList<>(List.of(script("SelfTest.java"), root.toString()));
                args.addAll(given);
                args.addAll(selfTestOptions);
                ProcessBuilder command = jbang(args);
                command.environment().put("COURSE_OURS_PID", String.valueOf(ProcessHandle.current().pid()));
                running.submit(() -> {
                    try {
                        program(name, command, limit);
                    } catch (Exception e) {
                        outcomes.record(name + " ran to its end", false, e.toString());
                    }
                });
            });
        }
    }

    /** How many parts of the busy-laptop pass grade at once beside the spinning core. */
    static final int BUSY_PARTS = 2;

    /**
     * How many SelfTest lanes run at once: two per core, four at most (grading mostly waits: on the
     * 2-core machine the lanes took about 510 s two at a time, 370 s three, and with the lanes'
     * solution gradings left to the busy-laptop pass, 321 s three and 268 s four, every result the
     * same), one on a machine with a single core, where a second lane's bursts would be a busy
     * core. COURSE_SELFTEST_LANES sets another number, to measure.
     */
    static final int LANES = System.getenv("COURSE_SELFTEST_LANES") != null ? Integer.parseInt(System.getenv("COURSE_SELFTEST_LANES"))
            : Runtime.getRuntime().availableProcessors() == 1 ? 1 : Math.min(4, 2 * Runtime.getRuntime().availableProcessors());

    /**
     * The benchmark's races end to end (its unit tests are in the units step), each checked on its JSON: a smoke race,
     * a self-race that must never say "faster" or "slower", a reactor made slower on purpose (about 12 µs of
     * CPU a request) whose verdict on hello must be "slower", with no progress line in its piped
     * output, the db and mixed workloads, chapter 08's trips, the ramp's first steps, the open loop
     * (scripts/test/TestBench.java --races; logs in .results/bench-*.log).
     */
    void bench() throws Exception {
        program("TestBench.java --races", jbang(List.of(script("TestBench.java"), "--races")), Duration.ofMinutes(30));
    }

    /** The room needs no network: every JBang script's dependencies are cached and it builds offline. */
    void prefetch() throws Exception {
        Commands.Ended ended = Commands.run(logs.resolve("prefetch.log"), Duration.ofMinutes(20), root.resolve("scripts/prefetch.sh").toString());
        List<String> lines = ended.output().lines().toList();
        String last = lines.isEmpty() ? "" : lines.getLast();
        if (!ended.ok()) {
            List<String> why = lines.stream().filter(l -> l.matches(".*(MISSING|does not|FAIL|prefetch:).*")).toList();
            outcomes.record("prefetch.sh", false, "exit " + ended.status() + ": "
                    + String.join(" ", why.subList(Math.max(0, why.size() - 3), why.size())) + " (see " + ended.log() + ")");
            return;
        }
        outcomes.record("prefetch.sh: " + last, true, null);
        Matcher count = Pattern.compile("^prefetch: (\\d+) files cached").matcher(last);
        String said = count.find() ? "prefetch: " + count.group(1) + " files cached" : last;
        boolean guide = Files.readString(root.resolve("site/content/guide/instructor.adoc")).lines().anyMatch(l -> l.startsWith(said));
        outcomes.record("the instructor guide's sample prefetch line says '" + said + "', as prefetch.sh does", guide,
                "the guide's sample line does not: change it");
    }

    /**
     * Hand-ins, the room summary and the live room: in process (30 learners at once, names kept per
     * laptop, made-up ids, the room's clock, caps under a flood, the viewer code, results sent as they
     * are saved), then handin.sh and room.sh end to end.
     */
    void room() throws Exception {
        program("RoomTest.java", jbang(List.of(script("RoomTest.java"), root.toString())), Duration.ofMinutes(15));
    }

    /**
     * The catalog's aliases with no shell at all: a PATH holding only java, and JBang run by
     * scripts/tools/jbang/JBang.java (a launcher in Java) instead of JBang's bash script; each from
     * a different folder of the course.
     */
    void noShell() throws Exception {
        junit("Units.java --tags no-shell", "no-shell", logs.resolve("no-shell")); // Units.NO_SHELL
    }

    /**
     * The site builds (into {@link #site}, which the browser step serves), shows the code it
     * includes, packs into a folder that reads offline, and a page with a missing tag fails the
     * build; the pages' figures come from the committed runs: an edited run changes them, a literal
     * copy or a missing figure fails the build.
     */
    void site() throws Exception {
        site = Files.createTempDirectory("course-site");
        program("SiteTest.java", jbang(List.of(script("SiteTest.java"), root.toString(), site.toString())), Duration.ofMinutes(15));
        junit("Units.java --tags figures", "figures", logs.resolve("figures")); // Units.FIGURES
    }

    /**
     * The site step's build in Chromium, served under /course/ as on a project's GitHub Pages (by the
     * JDK's file server, in this process), beside a live room (scripts/room.sh serve, its page
     * updating every second): every page loads with no error and asks no other host, and each
     * feature of js/course/ works.
     */
    void browser() throws Exception {
        if (site == null || !Files.exists(site.resolve("index.html"))) {
            outcomes.record("browser: a built site to test", false, "none: see the site step");
            return;
        }
        String chrome = System.getenv("CHROME");
        String playwright = System.getenv("PLAYWRIGHT_DIR");
        if (chrome == null || playwright == null) {
            outcomes.record("browser: a browser to drive", false,
                    "CHROME and PLAYWRIGHT_DIR are not set: scripts/test.sh sets them (source scripts/test/tools.sh && setup_browser)");
            return;
        }
        Path served = Files.createTempDirectory("course-served");
        HttpServer files = null;
        Process room = null;
        try {
            Path course = served.resolve("course");
            Trees.copy(site, course, Path.of("broken-copy"), Path.of("broken-out"));  // not the broken builds SiteTest made beside it
            // The chapter panels draw bench/reference.json (site/static/bench/, published with the site).
            Path reference = course.resolve("bench/reference.json");
            outcomes.record("browser: the site carries bench/reference.json for its charts", Files.exists(reference),
                    "site/static/bench/reference.json is missing (the charts are tested on io-2000-thorough.json instead)");
            if (!Files.exists(reference) && Files.exists(course.resolve("bench/io-2000-thorough.json"))) {
                Files.copy(course.resolve("bench/io-2000-thorough.json"), reference);
            }
            // The room summary the room step made, served beside the site for the browser test.
            Path summary = logs.resolve("room-check.html");
            if (Files.exists(summary)) Files.copy(summary, course.resolve("room-check.html"));

            files = SimpleFileServer.createFileServer(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                    served, SimpleFileServer.OutputLevel.NONE);
            files.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
            files.start();
            String base = "http://127.0.0.1:" + files.getAddress().getPort() + "/course/";

            // Its address for learners, once it prints it.
            Pattern said = Pattern.compile("^room: learners run once: scripts/handin.sh NAME --to (http://\\S*)");
            CompletableFuture<String> address = new CompletableFuture<>();
            room = Commands.start(new ProcessBuilder(root.resolve("scripts/room.sh").toString(), "serve", "--port", "0",
                    "--dir", served.resolve("live-room").toString(), "--code", "sesame", "--view-code", "browser-test", "--refresh", "1")
                    .directory(root.toFile()), logs.resolve("browser-room.log"), line -> {
                        Matcher m = said.matcher(line);
                        if (m.find()) address.complete(m.group(1));
                    }).process();
            String roomUrl = room.onExit().thenApply(p -> (String) null).applyToEither(address, a -> a)
                    .completeOnTimeout(null, 60, TimeUnit.SECONDS).get();
            if (roomUrl == null) {
                outcomes.record("browser: room.sh serve prints its address", false,
                        "none in 60 s, so the live room is not tested (see " + logs.resolve("browser-room.log") + ")");
            }
            Path shots = logs.resolve("screenshots");
            Files.createDirectories(shots);
            ProcessBuilder node = new ProcessBuilder("node", script("browser.mjs"), base, shots.toString());
            Map<String, String> env = node.environment();
            env.put("ROOM_URL", roomUrl == null ? "" : roomUrl);
            env.put("ROOM_CODE", "sesame");
            env.put("ROOM_VIEW", "browser-test");
            program("browser.mjs", node, Duration.ofMinutes(20));
        } finally {
            if (room != null) Commands.stop(room);
            if (files != null) files.stop(0);
            Trees.delete(served);
        }
    }

    // What the steps share.

    /**
     * Runs a test program to its end, passing on each of its results as it prints it; its last
     * line must be "N passed, N failed" and agree with the results read.
     */
    Relay program(String name, ProcessBuilder command, Duration limit) throws Exception {
        Relay relay = new Relay();
        relay.section = SECTION.isBound() ? SECTION.get() : null;
        String file = name.replaceAll("[^A-Za-z0-9.-]+", "-");
        Commands.Ended ended = Commands.follow(command.directory(root.toFile()), logs.resolve("suite-" + file + ".log"), limit, relay);
        relay.flush();
        Matcher count = COUNT.matcher(relay.last);
        if (!count.matches()) {
            String said = ended.said(3);
            show(relay, () -> outcomes.record(name + " finished", false, said));
        } else if (Integer.parseInt(count.group(1)) != relay.passed || Integer.parseInt(count.group(2)) != relay.failed) {
            show(relay, () -> outcomes.record(name + "'s count agrees with its results", false,
                    "it says '" + relay.last + "', its lines said " + relay.passed + " passed, " + relay.failed + " failed"));
        }
        return relay;
    }

    /** The relay whose line was shown last: programs run at once (SelfTest's lanes) share the screen. */
    private Relay shownLast;

    /**
     * Shows what {@code from} prints, under its section title: when another program's line was
     * shown since, its title is shown again first, so that each result reads under its own section.
     */
    synchronized void show(Relay from, Runnable print) {
        if (from.section != null && shownLast != from && (shownLast == null || !from.section.equals(shownLast.section))) {
            System.out.println();
            System.out.println(from.section);
        }
        shownLast = from;
        print.run();
    }

    /** Reads a program's lines: each result recorded here as it comes, section titles and reasons shown. */
    final class Relay implements Consumer<String> {
        String last = "";
        int passed;
        int failed;
        /** The program's section title now, to show again above its next line when another program printed between. */
        String section;
        private String failing;

        @Override
        public void accept(String line) {
            Matcher m;
            if (failing != null && WHY.matcher(line).matches()) {
                fail(line.strip());
                return;
            }
            flush();
            if ((m = OK.matcher(line)).matches()) {
                passed++;
                String name = m.group(1);
                show(this, () -> outcomes.record(name, true, null));
            } else if ((m = FAIL.matcher(line)).matches()) {
                failing = m.group(1);
            } else if (line.startsWith("== ")) {
                section = null; // shown here: not again above its own first line
                show(this, () -> {
                    System.out.println();
                    System.out.println(line);
                });
                section = line;
            } else if (line.startsWith("(") || WHY.matcher(line).matches()) {
                show(this, () -> System.out.println(line));
            }
            if (!line.isBlank()) last = line;
        }

        /** A failure read without its reason yet is recorded as it is (its reason may be in its name). */
        void flush() {
            if (failing != null) fail(null);
        }

        private void fail(String why) {
            failed++;
            String name = failing;
            show(this, () -> outcomes.record(name, false, why));
            failing = null;
        }
    }

    ProcessBuilder jbang(List<String> args) {
        List<String> command = new ArrayList<>(Tools.jbang(root, System.getenv("JBANG")));
        command.addAll(args);
        return new ProcessBuilder(command);
    }

    String script(String name) {
        return root.resolve("scripts/test").resolve(name).toString();
    }

    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", Tools.WINDOWS ? "java.exe" : "java").toString();
    }

    void removeSite() throws IOException {
        if (site != null) Trees.delete(site);
    }
}
