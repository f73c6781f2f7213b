package test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import checks.Ch01Checks;
import checks.Ch08Checks;
import checks.Grade;
import checks.ProtocolChecks;
import checks.Runner;
import checks.Tips;
import contract.CheckReport;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import lib.Chapters;
import lib.CommandError;
import lib.Jackson;
import lib.Results;
import lib.ShellWords;
import lib.SiteAddress;
import lib.Subject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tests of what the grader says and keeps, with no server: --only, the course's JSON, the
 * results list, links, a failure's line, a partial run, tips, plain messages, --command's words,
 * a note on a check. HarnessTests implements this interface, so SelfTest runs these tests as
 * HarnessTests's (harnesstests.NAME).
 */
interface HarnessGradingTests {
    @Test
    @DisplayName("--only: a check's id selects that check; a suite's name (protocol) selects all of its checks; anything else is refused")
    default void only() {
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
    default void json() {
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
    @DisplayName("results: each write refreshes .results/site/results.json, the list the served site reads")
    default void resultsIndex(@TempDir Path root) throws Exception {
        Results.write(root, "checks", "03", "{}");
        assertEquals(List.of("checks/03.json"), Jackson.read(java.nio.file.Files.readString(root.resolve(".results/site/results.json")), List.class));
        Results.write(root, "bench", "all", "{}");
        Results.write(root, "checks", "01", "{}");
        assertEquals(List.of("checks/01.json", "checks/03.json", "bench/all.json"),
                Jackson.read(java.nio.file.Files.readString(root.resolve(".results/site/results.json")), List.class));
    }

    @Test
    @DisplayName("links: to the local server by default, on the port scripts/site.sh serve last used; COURSE_SITE moves them, and on disk they open index.html")
    default void siteLinks(@TempDir Path root) throws Exception {
        assertEquals("http://127.0.0.1:1313/", Grade.site(null, root));
        java.nio.file.Files.createDirectories(root.resolve(SiteAddress.SERVED).getParent());
        java.nio.file.Files.writeString(root.resolve(SiteAddress.SERVED), "http://127.0.0.1:1314/\n");
        assertEquals("http://127.0.0.1:1314/", Grade.site(null, root));
        assertEquals("https://example.org/course/", Grade.site("https://example.org/course", root));
        java.nio.file.Files.writeString(root.resolve(SiteAddress.SERVED), "http://example.org/\n");
        assertEquals("http://127.0.0.1:1313/", Grade.site(null, root), "only an address the course serves on is read back");
        assertEquals("http://127.0.0.1:1313/", Grade.site(null));
        assertEquals("http://127.0.0.1:1313/chapters/03-reactor/#closing", Grade.site(null) + Grade.link(Grade.site(null), "chapters/03-reactor#closing"));
        String disk = Grade.site("file:///home/ada/course-site");
        assertEquals("file:///home/ada/course-site/protocol/index.html#errors", disk + Grade.link(disk, "protocol#errors"));
        assertEquals("https://example.org/course/chapters/01-blocking/", Grade.site("https://example.org/course") + Grade.link("https://example.org/course/", "chapters/01-blocking"));
    }

    @Test
    @DisplayName("--file: a copy runs from any folder, its //SOURCES found from exercises/ or solutions/ (same lines), or is refused in one sentence")
    default void copyAnywhere(@TempDir Path dir) throws Exception {
        Path root = java.nio.file.Files.createDirectories(dir.resolve("course"));
        Path kit = root.resolve("exercises/kit/Kit.java");
        java.nio.file.Files.createDirectories(kit.getParent());
        java.nio.file.Files.writeString(kit, "class Kit {}\n");
        Path copy = java.nio.file.Files.createDirectories(dir.resolve("mistakes")).resolve("mine.java");
        java.nio.file.Files.writeString(copy, "///usr/bin/env jbang \"$0\" \"$@\" ; exit $?\n//JAVA 25\n//SOURCES kit/Kit.java\nclass Mine {}\n");
        String run = new Subject.File(copy).launch(root, List.of("jbang"), "05-x.java", List.of(), List.of()).command().get(1);
        List<String> twin = java.nio.file.Files.readAllLines(Path.of(run));
        assertTrue(Path.of(run).startsWith(root.resolve(".results/copies")), run);
        assertEquals(List.of("///usr/bin/env jbang \"$0\" \"$@\" ; exit $?", "//JAVA 25", "//SOURCES " + kit.toString().replace('\\', '/'), "class Mine {}"), twin);
        Path beside = root.resolve("exercises/05-x.java");
        java.nio.file.Files.copy(copy, beside);
        assertEquals(beside.toString(), new Subject.File(beside).launch(root, List.of("jbang"), "05-x.java", List.of(), List.of()).command().get(1));
        java.nio.file.Files.writeString(copy, "//SOURCES kit/Gone.java\nclass Mine {}\n");
        java.io.IOException refused = assertThrows(java.io.IOException.class,
                () -> new Subject.File(copy).launch(root, List.of("jbang"), "05-x.java", List.of(), List.of()));
        assertTrue(refused.getMessage().contains("kit/Gone.java") && refused.getMessage().contains("keep the //SOURCES line"), refused.getMessage());
    }

    @Test
    @DisplayName("a chapter's file that is not there: one sentence, exit 2, that says how to get it back (git checkout for the course's own, the path for another)")
    default void missingFile() {
        Path root = Path.of("/home/ada/course");
        CommandError exercise = Subject.missing(root, root.resolve("exercises/03-reactor.java"));
        assertEquals(2, exercise.exit);
        assertFalse(exercise.usage);
        assertEquals("no exercises/03-reactor.java here: get the course's own back with `git checkout -- exercises/03-reactor.java`", exercise.getMessage());
        assertTrue(Subject.missing(root, root.resolve("solutions/05-virtual-threads.java")).getMessage().contains("`git checkout -- solutions/05-virtual-threads.java`"));
        CommandError given = Subject.missing(root, Path.of("/tmp/mine/03.java"));
        assertEquals("no /tmp/mine/03.java here: check the path you gave", given.getMessage());
        assertEquals(1, given.getMessage().lines().count());
    }

    @Test
    @DisplayName("a failure says where to work and how to grade that check alone, for the server that was graded")
    default void failureLine() {
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
    default void partialRun(@TempDir Path dir) throws Exception {
        Path root = Path.of(System.getProperty("course.root", "."));
        Chapters.Chapter ch01 = Chapters.read(root).get("01");
        assertTrue(Grade.summary(ch01, 26, 0, 0, 0, 26).endsWith("chapter 01 done!"));
        String partial = Grade.summary(ch01, 1, 0, 0, 0, 26);
        assertTrue(partial.contains("1 of 26 checks ran") && !partial.contains("done"), partial);
        assertFalse(Grade.summary(ch01, 25, 0, 1, 0, 26).contains("done"));
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
    default void tips() {
        assertEquals(1, Tips.forOutput("08-fan-out.java:80: error: exception TimeoutException is never thrown in body of corresponding try statement").size());
        assertTrue(Tips.forOutput("the server did not start: it exited").isEmpty());
    }

    @Test
    @DisplayName("messages: JUnit's '==> expected: <0> but was: <49>' reaches a learner in plain words")
    default void plainMessages() {
        assertEquals("open files grew (expected 0, got 49)", Runner.plain("open files grew ==> expected: <0> but was: <49>"));
        assertEquals("the idle server used 300 ms of CPU", Runner.plain("the idle server used 300 ms of CPU ==> expected: <true> but was: <false>"));
        assertEquals("expected ABC, got the request line must be METHOD SP TARGET",
                Runner.plain("expected: <ABC> but was: <the request line must be METHOD SP TARGET\n>"));
        assertEquals("a message JUnit did not touch", Runner.plain("a message JUnit did not touch"));
        assertEquals("the body (expected Hello, got nothing)", Runner.plain("the body ==> expected: <Hello> but was: <>"));
    }

    @Test
    @DisplayName("--command: split as a shell would (quotes group, a backslash takes the next character), and the command it prints to grade again splits back the same")
    default void commandWords() {
        assertEquals(List.of("python3", "-u", "my server.py", "a\"b", "", "x y"),
                ShellWords.split("  python3 -u 'my server.py' \"a\\\"b\" '' x\\ y "));
        Subject.Command c = new Subject.Command("python3 \"it's.py\"");
        assertEquals(List.of("python3", "it's.py"), c.words());
        String again = c.again(Path.of(".")).strip();
        assertTrue(again.startsWith("--command "), again);
        assertEquals(List.of("--command", c.line()), ShellWords.split(again), "grading again runs the same command line");
        assertThrows(IllegalArgumentException.class, () -> new Subject.Command("python3 'server.py"));
        assertThrows(IllegalArgumentException.class, () -> new Subject.Command("   "));
    }

    @Test
    @DisplayName("protocol.outOfFiles says when it passed without the server running out (it held few files), and not when it ran out")
    default void outOfFilesNotedWhenNeverOut() {
        String note = ProtocolChecks.neverRanOut(java.util.OptionalInt.of(40), 320);
        assertTrue(note != null && note.startsWith("passes without running out") && note.contains("40 of its 256"), note);
        assertEquals(null, ProtocolChecks.neverRanOut(java.util.OptionalInt.of(250), 320), "ran out: nothing to note");
        assertEquals(null, ProtocolChecks.neverRanOut(java.util.OptionalInt.empty(), 320), "cannot count: nothing to note");
    }
}
