package test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import checks.Client;
import checks.Grade;
import checks.Runner;
import contract.CheckReport;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import lib.Chapters;
import lib.Inspect;
import lib.LaunchRecord;
import lib.Others;
import lib.Target;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Tests of the grading harness itself, run by SelfTest: here, those against the chapter 01
 * solution as a live process (Target, Inspect, the Runner's order of checks). Its other tests
 * are in HarnessGradingTests and HarnessProcessTests, test interfaces this class implements, so
 * they run in this class's run and are reported under its name (harnesstests.NAME).
 */
@Tag("unit")
public class HarnessTests implements HarnessGradingTests, HarnessProcessTests {
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
    @DisplayName("target: attaching to --url refuses, in one sentence each, an address where nothing accepts connections and a --pid that is no process")
    void attachRefuses() throws Exception {
        int free;
        try (java.net.ServerSocket probe = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            free = probe.getLocalPort();
        }
        java.io.IOException nothing = org.junit.jupiter.api.Assertions.assertThrows(java.io.IOException.class,
                () -> Target.attach("http://127.0.0.1:" + free, null));
        assertEquals("nothing accepts connections at http://127.0.0.1:" + free + ": start your server first", nothing.getMessage());
        Process gone = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-version").redirectErrorStream(true).start();
        gone.getInputStream().readAllBytes();
        gone.waitFor();
        java.io.IOException dead = org.junit.jupiter.api.Assertions.assertThrows(java.io.IOException.class,
                () -> Target.attach(server.url(), gone.pid()));
        assertEquals("no process " + gone.pid() + " (--pid)", dead.getMessage());
        assertEquals(server.url(), Target.attach(server.url(), server.pid()).url());
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
    @DisplayName("inspect, portable (as on macOS or Windows, no /proc): lsof and the JVM count its files, the JVM its threads and per-thread CPU time")
    void portable() throws Exception {
        Inspect portable = new Inspect(server.pid(), false);
        int before = portable.openFilesByAgent().orElseThrow();
        java.util.OptionalInt listed = portable.openFilesByLsof(); // macOS has lsof; a Linux machine may not
        try (Client c = Client.connect(server)) {
            c.send(Client.request("GET", "/")).read();
            assertEquals(before + 1, portable.openFilesByAgent().orElseThrow(), "open files, counted by the JVM, with one connection more");
            if (listed.isPresent()) {
                assertEquals(listed.getAsInt() + 1, portable.openFilesByLsof().orElseThrow(), "open files, listed by lsof, with one connection more");
                assertEquals(server.inspect().openFiles().orElseThrow(), portable.openFilesByLsof().orElseThrow(), "open files, from lsof and from /proc");
            }
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
        String fix = Grade.firstFix(chapter, results, List.of()).orElse("");
        assertTrue(fix.contains("'fails' (TODO(first); 1 check waits on it)"), fix);
        assertTrue((System.nanoTime() - start) / 1_000_000 < 5000, "the check that waits ran its 10 s sleep");
        // Run alone (--only), the check it builds on did not fail in this run: it runs.
        List<Runner.Result> alone = Runner.run(List.of(BuildingChecks.class), "08", List.of("building.quick"), List.of(server, chapter), null);
        assertEquals(CheckReport.Status.PASS, alone.getFirst().status(), alone.toString());
    }

    @Test
    @DisplayName("a timed check that failed on a busy machine runs again alone: a pass then counts, and a second failure says first that the machine was busy; a quiet second run says nothing of the kind")
    void busyRunsAgain() throws Exception {
        assertTrue(Runner.busy(0.9, 0.2).isEmpty(), "a quiet second run: the failure is the server's");
        assertTrue(Runner.busy(0.9, 1.2).orElse("").startsWith(Runner.BUSY + ": other programs used 0.9 of a core"), String.valueOf(Runner.busy(0.9, 1.2)));
        int cores = Runtime.getRuntime().availableProcessors();
        try (Spinners spinning = Spinners.start(2 * cores)) {
            java.util.concurrent.atomic.AtomicInteger runs = new java.util.concurrent.atomic.AtomicInteger();
            List<Runner.Result> results = Runner.run(List.of(TimedChecks.class), "01", List.of(), List.of(server, runs), null);
            assertEquals(List.of("timed.once", "timed.always"), results.stream().map(Runner.Result::id).toList(), results.toString());
            assertEquals(CheckReport.Status.PASS, results.get(0).status(), "run again alone, it passed: " + results);
            assertEquals(2, runs.get(), "it ran twice");
            if (Others.take() != null) { // where the grader can see the machine (Linux's /proc)
                assertTrue(results.get(1).message().startsWith(Runner.BUSY), results.get(1).message());
                assertTrue(results.get(1).message().endsWith("it took too long"), results.get(1).message());
            }
            // A check whose look inside the server failed, on the same busy machine: said first, and why.
            java.util.concurrent.atomic.AtomicInteger looks = new java.util.concurrent.atomic.AtomicInteger();
            List<Runner.Result> looked = Runner.run(List.of(LookingChecks.class), "01", List.of("looking.always"), List.of(server, looks), null);
            if (Others.take() != null) {
                String said = looked.get(0).message();
                assertTrue(said.startsWith(Runner.BUSY) && said.contains("looks inside the server with the JDK's jcmd")
                        && said.endsWith("Failed: jcmd took over 30 s"), said);
            }
        }
    }

    @Test
    @DisplayName("a check whose look inside the server failed (jcmd gave up, a dump came back cut short) runs again alone whatever the machine: a pass then counts, and a second failure is reported as it was")
    void lookFailedRunsAgain() throws Exception {
        java.util.concurrent.atomic.AtomicInteger runs = new java.util.concurrent.atomic.AtomicInteger();
        List<Runner.Result> results = Runner.run(List.of(LookingChecks.class), "01", List.of(), List.of(server, runs), null);
        assertEquals(List.of("looking.once", "looking.always"), results.stream().map(Runner.Result::id).toList(), results.toString());
        assertEquals(CheckReport.Status.PASS, results.get(0).status(), "run again alone, it passed: " + results);
        assertEquals(2, runs.get(), "it ran twice");
        assertEquals(CheckReport.Status.FAIL, results.get(1).status(), results.toString());
        assertTrue(results.get(1).message().endsWith("Failed: jcmd took over 30 s"), results.get(1).message());
    }

    @Test
    @DisplayName("jcmd: a JVM that cannot answer (stopped, as a machine too busy to schedule it) is a failed look, jcmd's; a process that has exited is not")
    void jcmdFailed() throws Exception {
        Process gone = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-version").redirectErrorStream(true).start();
        gone.getInputStream().readAllBytes();
        gone.waitFor();
        java.io.IOException exited = org.junit.jupiter.api.Assertions.assertThrows(java.io.IOException.class,
                () -> new lib.Jcmd(gone.pid(), true).run("VM.version"));
        assertTrue(!(exited instanceof lib.Jcmd.Failed) && exited.getMessage().endsWith("has exited)"), exited.toString());
        if (!java.nio.file.Files.isDirectory(Path.of("/proc/self"))) return; // kill -STOP: a POSIX signal
        new ProcessBuilder("kill", "-STOP", String.valueOf(server.pid())).start().waitFor();
        try {
            java.io.IOException stopped = org.junit.jupiter.api.Assertions.assertThrows(java.io.IOException.class,
                    () -> new lib.Jcmd(server.pid(), true).run(Duration.ofSeconds(3), "VM.version"));
            assertTrue(stopped instanceof lib.Jcmd.Failed, stopped.toString());
        } finally {
            new ProcessBuilder("kill", "-CONT", String.valueOf(server.pid())).start().waitFor();
        }
        assertTrue(new lib.Jcmd(server.pid(), true).run("VM.version").contains("JDK"), "it answers once it runs again");
    }

    @Test
    @DisplayName("'fix first' names the failure at the page's earliest step, not the first to run; a check not tried counts at the step of the one it waits on")
    void fixFirstFollowsThePage() {
        Chapters.Chapter c = Chapters.graded(Path.of(System.getProperty("course.root", "."))).get("03");
        java.util.function.BiFunction<String, String, Runner.Result> failed = (title, see) -> new Runner.Result("ch03." + title, title,
                CheckReport.Status.FAIL, "", "", null, "", see, 0);
        List<String> sections = List.of("the-loop", "timers-in-the-loop", "reading-requests", "writing-responses", "closing");
        List<Runner.Result> results = List.of(failed.apply("closes", c.page() + "#closing"), failed.apply("writes", c.page() + "#writing-responses"),
                failed.apply("reads", c.page() + "#reading-requests"));
        assertTrue(Grade.firstFix(c, results, sections).orElse("").contains("'reads'"), String.valueOf(Grade.firstFix(c, results, sections)));
        Runner.Result waits = new Runner.Result("ch03.waits", "waits", CheckReport.Status.FAIL, "not tried", "", "timers", "",
                c.page() + "#timers-in-the-loop", 0, false, "a lone timer");
        String fix = Grade.firstFix(c, List.of(results.get(2), waits), sections).orElse("");
        assertTrue(fix.contains("'a lone timer' (TODO(timers); 1 check waits on it)"), fix);
        assertTrue(Grade.firstFix(c, results.subList(0, 1), sections).isEmpty(), "one failure needs no 'fix first'");
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
