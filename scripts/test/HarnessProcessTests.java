package test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import checks.Client;
import checks.Grade;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import lib.Inspect;
import lib.Target;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Tests that start processes of their own: the demos the pages include (exercises/demos/), the
 * chapter 05 solution pinned to one CPU, a server started below a shell script. HarnessTests
 * implements this interface, so SelfTest runs these tests as HarnessTests's (harnesstests.NAME).
 */
interface HarnessProcessTests {
    @Test
    @DisplayName("demo: exercises/demos/Pinning.java runs and JFR sees each sleep below a native frame pinned")
    default void pinningDemo() throws Exception {
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
    private static String runDemo(String name) throws Exception {
        Path root = Path.of(System.getProperty("course.root", "."));
        Process p = new ProcessBuilder(Grade.JBANG, root.resolve("exercises/demos/" + name).toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, java.util.concurrent.TimeUnit.SECONDS), name + " did not end");
        assertEquals(0, p.exitValue(), out);
        return out;
    }

    @Test
    @DisplayName("hazards: each wrong-beside-right demo the pages include shows the wrong form going wrong and the right one not")
    default void hazardDemos() throws Exception {
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
    @DisplayName("05 solution: pinned to one CPU, it still runs two carriers (--carriers), so woken threads do not wait behind the poller")
    default void twoCarriersOnOneCpu() throws Exception {
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
    @DisplayName("a server started below another process (a script without exec, go run): its PID is the server's, found down the line of processes")
    default void serverBelowAScript() throws Exception {
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
}
