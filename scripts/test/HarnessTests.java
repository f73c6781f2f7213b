import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Tests of the grading harness itself, against the chapter 01 solution as a live process. */
class HarnessTests {
    static Target server;

    @BeforeAll
    static void start() throws Exception {
        Path root = Path.of(System.getProperty("course.root", "."));
        server = Target.start(List.of(Grade.JBANG, root.resolve("solutions/01-blocking.java").toString(), "--port", "0"),
                root.resolve(".results/logs/harness.log"), Duration.ofSeconds(180));
    }

    @AfterAll
    static void stop() {
        server.stop();
    }

    @Test
    @DisplayName("--only: a check's id selects that check; a suite's name (protocol) selects all of its checks; anything else is refused")
    void only() {
        List<Class<?>> classes = List.of(ProtocolChecks.class, Ch01Checks.class);
        assertEquals(List.of(org.junit.platform.engine.discovery.DiscoverySelectors.selectClass(ProtocolChecks.class)),
                Runner.selectors(classes, List.of("protocol")));
        assertEquals(List.of(org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod(ProtocolChecks.class, "hello")),
                Runner.selectors(classes, List.of("protocol.hello")));
        // A check that takes a TestReporter is selected with its parameter.
        assertEquals(List.of(org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod(Ch08Checks.class, "requestId",
                org.junit.jupiter.api.TestReporter.class)), Runner.selectors(List.of(ProtocolChecks.class, Ch08Checks.class), List.of("ch08.requestId")));
        assertThrows(IllegalArgumentException.class, () -> Runner.selectors(classes, List.of("protocols")));
    }

    record Sample(String name, List<Integer> counts, List<String> none, double unknown, Map<String, Object> nested) {}

    @Test
    @DisplayName("json: written as the course's files are (two spaces, \"key\": value, [] when empty, null for NaN), read back as records")
    void json() {
        Sample sample = new Sample("x\"y", List.of(1, 2), List.of(), Double.NaN, Map.of("c", true));
        String text = Jackson.write(sample);
        assertEquals("""
                {
                  "name": "x\\"y",
                  "counts": [
                    1,
                    2
                  ],
                  "none": [],
                  "unknown": null,
                  "nested": {
                    "c": true
                  }
                }
                """, text);
        Sample back = Jackson.read(text, Sample.class);
        assertEquals(List.of(1, 2), back.counts());
        assertEquals(Map.of("c", true), back.nested());
        assertThrows(IllegalArgumentException.class, () -> Jackson.read("{\"name\": ", Sample.class));
    }

    @Test
    @DisplayName("json: a JSON thread dump's threads, platform and virtual, from every container")
    void threadDump() {
        String dump = """
                {"threadDump": {"processId": "1", "threadContainers": [
                  {"container": "<root>", "threads": [{"tid": "3", "name": "main", "state": "RUNNABLE", "stack": ["a.B.c(B.java:1)"]}]},
                  {"container": "java.util.concurrent.ThreadPerTaskExecutor@1", "threads": [{"tid": "40", "virtual": true, "name": "", "state": "WAITING"}]}
                ]}}""";
        assertEquals(List.of(new Inspect.ThreadInfo("main", "RUNNABLE", false, List.of("a.B.c(B.java:1)"), "3"),
                new Inspect.ThreadInfo("", "WAITING", true, List.of(), "40")), Inspect.threads(dump));
        // A failure's list of threads names an unnamed virtual thread, never shows it as an empty entry.
        assertEquals(List.of("main", "a virtual thread without a name (#40)"),
                Inspect.threads(dump).stream().map(Inspect.ThreadInfo::label).toList());
    }

    @Test
    @DisplayName("target: started from a file, knows the JVM's pid and that it accepts connections")
    void target() {
        assertTrue(server.accepting());
        assertTrue(ProcessHandle.of(server.pid()).orElseThrow().info().command().orElse("").contains("java"));
    }

    @Test
    @DisplayName("target: a server JBang started is started again (restart, copy) by its JVM's own command line, without JBang")
    void startsAgainWithoutJBang() {
        List<String> command = List.of(Grade.JBANG, "solutions/01-blocking.java", "--port", "0");
        List<String> again = Target.again(command, server.pid());
        assertTrue(again.get(0).endsWith("java") && again.contains("--port") && again.contains("-classpath"), String.valueOf(again));
        // Started as a JVM already, or not a JVM: the command itself.
        List<String> java = List.of("/opt/jdk/bin/java", "-cp", "x", "Main", "--port", "0");
        assertEquals(java, Target.again(java, server.pid()));
        long self = ProcessHandle.current().pid(); // this JVM was not started with --port
        assertEquals(command, Target.again(command, self));
    }

    @Test
    @DisplayName("launch record: the java program and its arguments up to the main class; nothing for an argument file or a line that does not end with the arguments")
    void launchRecord() {
        record Info(String program, String... args) implements ProcessHandle.Info {
            public java.util.Optional<String> command() { return java.util.Optional.of(program); }
            public java.util.Optional<String> commandLine() { return java.util.Optional.empty(); }
            public java.util.Optional<String[]> arguments() { return java.util.Optional.of(args); }
            public java.util.Optional<java.time.Instant> startInstant() { return java.util.Optional.empty(); }
            public java.util.Optional<Duration> totalCpuDuration() { return java.util.Optional.empty(); }
            public java.util.Optional<String> user() { return java.util.Optional.empty(); }
        }
        assertEquals(List.of("/jdk/bin/java", "-classpath", "a.jar:b.jar", "Grade"),
                LaunchRecord.of(new Info("/jdk/bin/java", "-classpath", "a.jar:b.jar", "Grade", "--root", "/c", "03"), "Grade", List.of("--root", "/c", "03")));
        assertEquals(List.of("/jdk/bin/java", "-cp", "a.jar", "Grade"),
                LaunchRecord.of(new Info("/jdk/bin/java", "-cp", "a.jar", "Grade"), "Grade", List.of()));
        assertEquals(List.of(), LaunchRecord.of(new Info("/jdk/bin/java", "@/tmp/args", "Grade", "03"), "Grade", List.of("03")));
        assertEquals(List.of(), LaunchRecord.of(new Info("/jdk/bin/java", "-cp", "a.jar", "Other", "03"), "Grade", List.of("03")));
        assertEquals(List.of(), LaunchRecord.of(new Info("/jdk/bin/java", "-cp", "a.jar", "Grade", "04"), "Grade", List.of("03")));
    }

    @Test
    @DisplayName("inspect: the thread dump lists the server's main thread, blocked in accept")
    void threads() throws Exception {
        List<Inspect.ThreadInfo> threads = server.inspect().threads();
        Inspect.ThreadInfo main = threads.stream().filter(t -> t.name().equals("main")).findFirst().orElseThrow();
        assertFalse(main.virtual());
        assertTrue(main.stack().stream().anyMatch(f -> f.contains("accept")), "main's stack: " + main.stack());
    }

    @Test
    @DisplayName("inspect: an accepted connection shows as one more open file")
    void files() throws Exception {
        int before = server.inspect().openFiles().orElseThrow();
        try (Client c = Client.connect(server)) {
            c.send(Client.request("GET", "/")).read();
            int during = server.inspect().openFiles().orElseThrow();
            assertEquals(before + 1, during);
        }
    }

    @Test
    @DisplayName("inspect, portable (as on macOS or Windows, no /proc): the JVM counts its own files, threads and per-thread CPU time")
    void portable() throws Exception {
        Inspect portable = new Inspect(server.pid(), false);
        int before = portable.openFiles().orElseThrow();
        try (Client c = Client.connect(server)) {
            c.send(Client.request("GET", "/")).read();
            assertEquals(before + 1, portable.openFiles().orElseThrow(), "open files, counted by the JVM, with one connection more");
        }
        assertTrue(portable.maxOpenFiles().orElseThrow() > 0);
        Client.get(server, "/cpu?ms=200");
        Inspect.ThreadCpu main = portable.threadCpu().stream().filter(t -> t.name().equals("main")).findFirst().orElseThrow();
        assertTrue(main.cpu().toMillis() >= 150, "main's CPU time after /cpu?ms=200, from jcmd Thread.print: " + main);
        int threads = portable.osThreads().orElseThrow();
        int counted = server.inspect().osThreads().orElseThrow();
        assertTrue(Math.abs(threads - counted) <= 3, "threads from jcmd " + threads + ", from /proc " + counted);
        assertTrue(portable.residentBytes().orElseThrow() > 1 << 20);
    }

    @Test
    @DisplayName("inspect: a jcmd Thread.print line gives a thread's name, native id and CPU time")
    void printedThreads() {
        List<Inspect.ThreadCpu> threads = Inspect.threadCpu("""
                "main" #3 [10668] prio=5 os_prio=0 cpu=408.45ms elapsed=3.41s tid=0x00007f28e402aa70 nid=10668 waiting on condition  [0x0]
                   java.lang.Thread.State: TIMED_WAITING (sleeping)
                "VM Thread" os_prio=0 cpu=1.5s elapsed=3.40s tid=0x00007f28e40a8e40 nid=0x29a7 runnable
                """);
        assertEquals(List.of(new Inspect.ThreadCpu(10668, "main", Duration.ofNanos(408_450_000)),
                new Inspect.ThreadCpu(0x29a7, "VM Thread", Duration.ofMillis(1500))), threads);
    }

    @Test
    @DisplayName("inspect: CPU time grows by about the burned time")
    void cpu() throws Exception {
        Client.get(server, "/cpu?ms=10");
        Duration before = server.inspect().cpuTime();
        Client.get(server, "/cpu?ms=300");
        long grew = server.inspect().cpuTime().minus(before).toMillis();
        assertTrue(grew >= 250 && grew < 1500, "CPU time grew by " + grew + " ms");
    }

    @Test
    @DisplayName("inspect: JFR records the sleep of /io?ms=100")
    void jfr() throws Exception {
        var events = server.inspect().record(() -> {
            try {
                Client.get(server, "/io?ms=100");
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        }, "jdk.ThreadSleep");
        assertTrue(events.stream().anyMatch(e -> e.getDuration().toMillis() >= 100), "events: " + events);
    }

    @Test
    @DisplayName("demo: exercises/demos/Pinning.java runs and JFR sees each sleep below a native frame pinned")
    void pinningDemo() throws Exception {
        Path root = Path.of(System.getProperty("course.root", "."));
        Process p = new ProcessBuilder(Grade.JBANG, root.resolve("exercises/demos/Pinning.java").toString())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, java.util.concurrent.TimeUnit.SECONDS), "the demo did not end");
        assertEquals(0, p.exitValue(), out);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("jdk.VirtualThreadPinned events: (\\d+)").matcher(out);
        assertTrue(m.find() && Integer.parseInt(m.group(1)) >= 10, "expected at least 10 pinned events: " + out);
        assertTrue(out.contains("NativeFrame.compare"), "the pinned stack should show NativeFrame.compare: " + out);
    }

    /** Runs a demo of exercises/demos/ to its end (2 minutes at most) and returns what it printed; fails if it did not exit 0. */
    static String runDemo(String name) throws Exception {
        Path root = Path.of(System.getProperty("course.root", "."));
        Process p = new ProcessBuilder(Grade.JBANG, root.resolve("exercises/demos/" + name).toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, java.util.concurrent.TimeUnit.SECONDS), name + " did not end");
        assertEquals(0, p.exitValue(), out);
        return out;
    }

    @Test
    @DisplayName("hazards: each wrong-beside-right demo the pages include shows the wrong form going wrong and the right one not")
    void hazardDemos() throws Exception {
        String permit = runDemo("PermitHazard.java");
        assertTrue(permit.matches("(?s).*finally around the wait: .*permits left [0-9 ]*[3-9]\\b.*"), "the wrong release made up no permit:\n" + permit);
        assertTrue(permit.contains("finally after the wait: queries at once 2 2 2 2") && permit.contains("permits left 2 2 2 2"),
                "the right release did not keep 2 permits:\n" + permit);
        String legs = runDemo("LegPermitHazard.java");
        assertTrue(legs.matches("(?s).*insideTry .*made up.*") && legs.matches("(?s).*noFinally .*lost.*"), "the wrong forms drifted not:\n" + legs);
        assertTrue(legs.matches("(?s).*acquireThenTry\\s+2 \\(right\\)\\s+2 \\(right\\).*"), "the right form drifted:\n" + legs);
        String buffers = runDemo("BufferHazard.java");
        String happy = buffers.substring(0, buffers.indexOf("ReleasesOnEveryPath"));
        assertTrue(happy.contains("refCnt 1"), "the wrong form leaked nothing:\n" + buffers);
        assertFalse(buffers.substring(buffers.indexOf("ReleasesOnEveryPath")).contains("refCnt 1"), "the right form leaked:\n" + buffers);
        String halfClosed = runDemo("HalfClosedHazard.java");
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("returned ([0-9,]+) times").matcher(halfClosed);
        assertTrue(m.find(), halfClosed);
        long wrong = Long.parseLong(m.group(1).replace(",", ""));
        assertTrue(m.find(), halfClosed);
        long right = Long.parseLong(m.group(1).replace(",", ""));
        assertTrue(wrong > 100 && right < 20, "expected select() to spin with OP_READ left on, and not without:\n" + halfClosed);
    }

    @Test
    @DisplayName("results: each write refreshes .results/site/results.json, the list the served site reads")
    void resultsIndex() throws Exception {
        Path root = java.nio.file.Files.createTempDirectory("results-");
        Results.write(root, "checks", "03", "{}");
        assertEquals(List.of("checks/03.json"), Jackson.read(java.nio.file.Files.readString(root.resolve(".results/site/results.json")), List.class));
        Results.write(root, "bench", "all", "{}");
        Results.write(root, "checks", "01", "{}");
        assertEquals(List.of("checks/01.json", "checks/03.json", "bench/all.json"),
                Jackson.read(java.nio.file.Files.readString(root.resolve(".results/site/results.json")), List.class));
    }

    @Test
    @DisplayName("links: to the local server by default; COURSE_SITE moves them, and on disk they open index.html")
    void siteLinks() {
        assertEquals("http://127.0.0.1:1313/", Grade.site(null));
        assertEquals("http://127.0.0.1:1313/chapters/03-reactor/#closing", Grade.site(null) + Grade.link(Grade.site(null), "chapters/03-reactor#closing"));
        String disk = Grade.site("file:///home/ada/course-site");
        assertEquals("file:///home/ada/course-site/protocol/index.html#errors", disk + Grade.link(disk, "protocol#errors"));
        assertEquals("https://example.org/course/chapters/01-blocking/", Grade.site("https://example.org/course") + Grade.link("https://example.org/course/", "chapters/01-blocking"));
    }

    @Test
    @DisplayName("a failure says where to work and how to grade that check alone, for the server that was graded")
    void failureLine() {
        Path root = Path.of(System.getProperty("course.root", "."));
        Chapters.Chapter ch03 = Chapters.read(root).get("03");
        Runner.Result failed = new Runner.Result("ch03.noLeaks", "leaks no file descriptors", CheckReport.Status.FAIL, "open files grew", "", null, "close them", "chapters/03-reactor#closing", 0);
        String exercise = new Grade(Grade.Options.of(root)).line(ch03, failed);
        assertTrue(exercise.contains("TODO(close) in exercises/03-reactor.java"), exercise);
        assertTrue(exercise.contains("this check alone: scripts/check.sh 03 --only ch03.noLeaks") && !exercise.contains("--solution"), exercise);
        String solution = new Grade(Grade.Options.of(root).grading(new Subject.Solution())).line(ch03, failed);
        assertTrue(solution.contains("scripts/check.sh 03 --only ch03.noLeaks --solution"), solution);
        // A symptom that points elsewhere names its own TODO; a note is printed under the line, pass or fail.
        Runner.Result elsewhere = new Runner.Result("ch03.noLeaks", "leaks no file descriptors", CheckReport.Status.FAIL, "open files grew", "the server restarted", "write", "close them", "chapters/03-reactor#closing", 0);
        String symptom = new Grade(Grade.Options.of(root)).line(ch03, elsewhere);
        assertTrue(symptom.contains("TODO(write) in exercises/03-reactor.java") && symptom.contains("note: the server restarted"), symptom);
        Runner.Result noted = new Runner.Result("ch03.noLeaks", "leaks no file descriptors", CheckReport.Status.PASS, "", "passes only because", null, "", "", 0);
        assertTrue(new Grade(Grade.Options.of(root)).line(ch03, noted).contains("note: passes only because"));
    }

    @Test
    @DisplayName("a partial run (--only) says how many of the chapter's checks ran, never 'done', and keeps no progress record")
    void partialRun() throws Exception {
        Path root = Path.of(System.getProperty("course.root", "."));
        Chapters.Chapter ch01 = Chapters.read(root).get("01");
        assertTrue(Grade.summary(ch01, 26, 0, 0, 0, 26).endsWith("chapter 01 done!"));
        String partial = Grade.summary(ch01, 1, 0, 0, 0, 26);
        assertTrue(partial.contains("1 of 26 checks ran") && !partial.contains("done"), partial);
        assertFalse(Grade.summary(ch01, 25, 0, 1, 0, 26).contains("done"));
        Path dir = java.nio.file.Files.createTempDirectory("partial");
        java.nio.file.Files.createDirectories(dir.resolve(Chapters.FILE).getParent());
        java.nio.file.Files.copy(root.resolve(Chapters.FILE), dir.resolve(Chapters.FILE));
        CheckReport whole = new CheckReport("01", "t", "exercise", "now", "x", 2L, 0L, 0L, null, List.of(), null, 0, null);
        CheckReport part = new CheckReport("01", "t", "exercise", "now", "x", 1L, 0L, 0L, 2L, List.of(), null, 0, null);
        Grade elsewhere = new Grade(new Grade.Options(dir, Grade.JBANG, new Subject.Exercise(), false, true,
                new java.io.PrintStream(java.io.OutputStream.nullOutputStream()), List.of(), null));
        elsewhere.save(ch01, whole);
        elsewhere.save(ch01, part);
        assertEquals(2L, CheckReport.read(java.nio.file.Files.readString(dir.resolve(".results/checks/01.json"))).passed(),
                "a partial run replaced a whole grading's record");
        Grade selfTest = new Grade(new Grade.Options(dir, Grade.JBANG, new Subject.Exercise(), false, true, null, List.of(), null).notSaving());
        selfTest.save(ch01, new CheckReport("01", "t", "exercise", "now", "x", 0L, 2L, 0L, null, List.of(), null, 1, null));
        assertEquals(2L, CheckReport.read(java.nio.file.Files.readString(dir.resolve(".results/checks/01.json"))).passed(),
                "a grading that keeps no record (the self-test's) replaced one");
    }

    @Test
    @DisplayName("tips: a compile error the pages see coming gets one line in the course's words")
    void tips() {
        assertEquals(1, Tips.forOutput("08-fan-out.java:80: error: exception TimeoutException is never thrown in body of corresponding try statement").size());
        assertTrue(Tips.forOutput("the server did not start: it exited").isEmpty());
    }

    @Test
    @DisplayName("messages: JUnit's '==> expected: <0> but was: <49>' reaches a learner in plain words")
    void plainMessages() {
        assertEquals("open files grew (expected 0, got 49)", Runner.plain("open files grew ==> expected: <0> but was: <49>"));
        assertEquals("the idle server used 300 ms of CPU", Runner.plain("the idle server used 300 ms of CPU ==> expected: <true> but was: <false>"));
        assertEquals("expected ABC, got the request line must be METHOD SP TARGET",
                Runner.plain("expected: <ABC> but was: <the request line must be METHOD SP TARGET\n>"));
        assertEquals("a message JUnit did not touch", Runner.plain("a message JUnit did not touch"));
        assertEquals("the body (expected Hello, got nothing)", Runner.plain("the body ==> expected: <Hello> but was: <>"));
    }

    @Test
    @DisplayName("05 solution: pinned to one CPU, it still runs two carriers (--carriers), so woken threads do not wait behind the poller")
    void twoCarriersOnOneCpu() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(new java.io.File("/usr/bin/taskset").canExecute(),
                "needs Linux's taskset to pin the server to one CPU");
        Path root = Path.of(System.getProperty("course.root", "."));
        Target pinned = Target.start(List.of("/usr/bin/taskset", "-c", "0", Grade.JBANG,
                root.resolve("solutions/05-virtual-threads.java").toString(), "--port", "0"),
                root.resolve(".results/logs/carriers.log"), Duration.ofSeconds(180));
        List<Client> busy = new java.util.ArrayList<>();
        try {
            // Eight virtual threads burning CPU at once: the scheduler starts every carrier it may.
            for (int i = 0; i < 8; i++) busy.add(Client.connect(pinned, 5000).send(Client.request("GET", "/cpu?ms=300", "Connection: close")));
            Thread.sleep(200);
            List<String> carriers = pinned.inspect().threads().stream()
                    .filter(t -> !t.virtual() && t.name().matches("ForkJoinPool-\\d+-worker-\\d+"))
                    .map(Inspect.ThreadInfo::name).toList();
            for (Client c : busy) assertEquals(200, c.read().status());
            assertTrue(carriers.size() >= 2, "carrier threads with the server pinned to one CPU: " + carriers);
        } finally {
            for (Client c : busy) c.close();
            pinned.stop();
        }
    }

    @Test
    @DisplayName("--command: split as a shell would (quotes group, a backslash takes the next character), and the command it prints to grade again splits back the same")
    void commandWords() {
        assertEquals(List.of("python3", "-u", "my server.py", "a\"b", "", "x y"),
                CommandLine.split("  python3 -u 'my server.py' \"a\\\"b\" '' x\\ y "));
        Subject.Command c = new Subject.Command("python3 \"it's.py\"");
        assertEquals(List.of("python3", "it's.py"), c.words());
        String again = c.again(Path.of(".")).strip();
        assertTrue(again.startsWith("--command "), again);
        assertEquals(List.of("--command", c.line()), CommandLine.split(again), "grading again runs the same command line");
        assertThrows(IllegalArgumentException.class, () -> new Subject.Command("python3 'server.py"));
        assertThrows(IllegalArgumentException.class, () -> new Subject.Command("   "));
    }

    @Test
    @DisplayName("a server started below another process (a script without exec, go run): its PID is the server's, found down the line of processes")
    void serverBelowAScript() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(new java.io.File("/bin/sh").canExecute(), "needs /bin/sh");
        Path root = Path.of(System.getProperty("course.root", "."));
        // sh stays the parent: the python server is its one child, and the line ends there.
        Target t = Target.start(List.of("/bin/sh", "-c", "python3 -u \"$0\" \"$@\"; exit $?",
                        root.resolve("scripts/test/independent/server.py").toString(), "--port", "0"),
                root.resolve(".results/logs/below-a-script.log"), Duration.ofSeconds(60));
        try {
            String command = ProcessHandle.of(t.pid()).flatMap(h -> h.info().command()).orElse("");
            assertTrue(command.contains("python"), "the PID found is " + t.pid() + ", running " + command);
            assertTrue(t.answers(2000));
        } finally {
            t.stop();
        }
    }

    @Test
    @DisplayName("protocol.outOfFiles says when it passed without the server running out (it held few files), and not when it ran out")
    void outOfFilesNotedWhenNeverOut() {
        String note = ProtocolChecks.neverRanOut(java.util.OptionalInt.of(40), 320);
        assertTrue(note != null && note.startsWith("passes without running out") && note.contains("40 of its 256"), note);
        assertEquals(null, ProtocolChecks.neverRanOut(java.util.OptionalInt.of(250), 320), "ran out: nothing to note");
        assertEquals(null, ProtocolChecks.neverRanOut(java.util.OptionalInt.empty(), 320), "cannot count: nothing to note");
    }

    @Test
    @DisplayName("a basic check runs first; a check that builds on another (@Check after) fails at once, naming it and its TODO, when that one failed earlier in the run; it runs when that one passed or was skipped")
    void afterAFailure() {
        Chapters.Chapter c = Chapters.graded(Path.of(System.getProperty("course.root", "."))).get("08");
        Chapters.Chapter chapter = new Chapters.Chapter(c.number(), c.slug(), c.title(), c.model(), c.minutes(), c.kit(), c.gradeArgs(), c.gradeJvm(),
                c.checks(), c.benchArgs(), c.cap(), c.benchWorkloads(), c.inShowdown(), java.util.Map.of("first", List.of("building.fails")));
        long start = System.nanoTime();
        List<Runner.Result> results = Runner.run(List.of(BuildingChecks.class), "08", List.of(), List.of(server, chapter), null);
        // The basic check first; a check that builds on a skipped one runs (a skip is no failure).
        assertEquals("building.basis", results.getFirst().id(), results.toString());
        results = results.subList(1, results.size());
        assertEquals(List.of(CheckReport.Status.FAIL, CheckReport.Status.PASS, CheckReport.Status.FAIL, CheckReport.Status.PASS,
                        CheckReport.Status.SKIP, CheckReport.Status.PASS),
                results.stream().map(Runner.Result::status).toList(), results.toString());
        Runner.Result waits = results.get(2);
        assertTrue(waits.message().startsWith("not tried") && waits.message().contains("building.fails"), waits.message());
        assertEquals("first", waits.todo(), "the TODO of the check it builds on");
        assertEquals("", waits.hint(), "its own hint stands back");
        assertEquals("fails", waits.waitsOn());
        assertTrue(Grade.firstFix(results).orElse("").contains("'fails' (1 check waits on it)"), String.valueOf(Grade.firstFix(results)));
        assertTrue((System.nanoTime() - start) / 1_000_000 < 5000, "the check that waits ran its 10 s sleep");
        // Run alone (--only), the check it builds on did not fail in this run: it runs.
        List<Runner.Result> alone = Runner.run(List.of(BuildingChecks.class), "08", List.of("building.quick"), List.of(server, chapter), null);
        assertEquals(CheckReport.Status.PASS, alone.getFirst().status(), alone.toString());
    }

    @Test
    @DisplayName("a check this machine cannot run (no ulimit on Windows) is skipped as such, and the chapter is still done; any other skip keeps it from done")
    void notHereStillDone() {
        List<Runner.Result> results = Runner.run(List.of(SkippingChecks.class), "01", List.of(), List.of(server), null);
        assertEquals(List.of(true, false), results.stream().map(Runner.Result::notHere).toList(), results.toString());
        assertTrue(results.stream().allMatch(r -> r.status() == CheckReport.Status.SKIP), results.toString());
        Chapters.Chapter ch01 = Chapters.graded(Path.of(System.getProperty("course.root", "."))).get("01");
        assertTrue(Grade.summary(ch01, 19, 0, 1, 1, 20).contains("done!"), "one skipped, this machine cannot run it: done");
        assertTrue(Grade.summary(ch01, 19, 0, 1, 1, 20).contains("this machine cannot run it"));
        assertFalse(Grade.summary(ch01, 18, 0, 2, 1, 20).contains("done!"), "another skip: not done");
        assertFalse(Grade.summary(ch01, 19, 0, 1, 0, 20).contains("done!"), "a skip of another kind: not done");
    }
}

/** Two checks that cannot run: one for want of what this machine has, one for want of what the server gives. */
@Check.Suite
class SkippingChecks {
    @Check(order = 1, title = "needs what this machine lacks", hint = "", see = "")
    void machine() {
        throw Unavailable.onThisMachine("no ulimit here");
    }

    @Check(order = 2, title = "needs what the server does not give", hint = "", see = "")
    void server() {
        throw new Unavailable("not a Java process");
    }
}

/** A check that fails, and checks that build on it or on one that passes (HarnessTests.afterAFailure). */
@Check.Suite
class BuildingChecks {
    @Check(order = 1, title = "fails", hint = "", see = "")
    void fails() {
        throw new AssertionError("it does");
    }

    @Check(order = 2, title = "passes", hint = "", see = "")
    void passes() {
    }

    @Check(order = 3, title = "builds on the one that fails", hint = "", see = "", after = "building.fails")
    void slow() throws InterruptedException {
        Thread.sleep(10_000);
    }

    @Check(order = 4, title = "builds on the one that passes", hint = "", see = "", after = "building.passes")
    void quick() {
    }

    @Check(order = 5, title = "is skipped: this server cannot be looked into", hint = "", see = "")
    void skipped() {
        throw new Unavailable("this check reads a JVM thread dump; this process is not a Java process");
    }

    @Check(order = 6, title = "builds on the one that is skipped", hint = "", see = "", after = "building.skipped")
    void afterSkipped() {
    }

    @Check(order = 0, basic = true, title = "a basic check, run before all others", hint = "", see = "")
    void basis() {
    }
}
