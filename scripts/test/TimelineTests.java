package test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import lib.Inspect;
import lib.Jackson;
import lib.Jcmd;
import lib.ThreadStates;
import lib.Timeline;
import lib.Unavailable;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Tests of the timeline ({@link Timeline}, {@link ThreadStates}), run by SelfTest: what a
 * thread's name and stack mean, and a recording of a process whose threads each do one thing
 * (fixtures/timeline/Threads.java): its one busy thread is the one busy lane, and each wait is
 * drawn as the wait it is.
 */
@Tag("unit")
public class TimelineTests {
    @Test
    @DisplayName("timeline: a thread's role comes from its name (loops, workers, carriers, the acceptor, the JVM's own)")
    void roles() {
        assertEquals("loop", ThreadStates.role("loop-2"));
        assertEquals("loop", ThreadStates.role("multiThreadIoEventLoopGroup-2-1"));
        assertEquals("carrier", ThreadStates.role("ForkJoinPool-1-worker-3"));
        assertEquals("worker", ThreadStates.role("pool-1-thread-4"));
        assertEquals("worker", ThreadStates.role("worker-0"));
        assertEquals("acceptor", ThreadStates.role("acceptor"));
        assertEquals("poller", ThreadStates.role("Read-Poller"));
        assertEquals("jvm", ThreadStates.role("C2 CompilerThread0"));
        assertEquals("jvm", ThreadStates.role("Attach Listener"));
        assertEquals("main", ThreadStates.role("main"));
    }

    @Test
    @DisplayName("timeline: a stack says what a thread waits for: a selector is idle, a socket read blocks, a pool worker without a task is idle")
    void states() {
        assertEquals(ThreadStates.IDLE, ThreadStates.fromDump("RUNNABLE", List.of("java.base/sun.nio.ch.EPoll.wait(Native Method)", "x.Loop.run(Loop.java:1)")));
        assertEquals(ThreadStates.READ, ThreadStates.fromDump("RUNNABLE", List.of("java.base/sun.nio.ch.SocketDispatcher.read0(Native Method)")));
        assertEquals(ThreadStates.ACCEPT, ThreadStates.fromDump("RUNNABLE", List.of("java.base/sun.nio.ch.Net.accept(Native Method)")));
        assertEquals(ThreadStates.IDLE, ThreadStates.fromDump("WAITING", List.of("java.base/jdk.internal.misc.Unsafe.park(Native Method)",
                "java.base/java.util.concurrent.LinkedBlockingQueue.take(LinkedBlockingQueue.java:435)",
                "java.base/java.util.concurrent.ThreadPoolExecutor.getTask(ThreadPoolExecutor.java:1070)")));
        assertEquals(ThreadStates.LOCK, ThreadStates.fromDump("WAITING", List.of("java.base/jdk.internal.misc.Unsafe.park(Native Method)",
                "java.base/java.util.concurrent.Semaphore.acquire(Semaphore.java:318)")));
        assertEquals(ThreadStates.LOCK, ThreadStates.fromDump("BLOCKED", List.of("x.Y.z(Y.java:3)")));
        assertEquals(ThreadStates.SLEEP, ThreadStates.fromDump("TIMED_WAITING", List.of("java.base/java.lang.Thread.sleepNanos0(Native Method)",
                "java.base/java.lang.Thread.sleep(Thread.java:540)")));
        assertEquals(ThreadStates.NONE, ThreadStates.fromDump("RUNNABLE", List.of("x.Y.spin(Y.java:3)")));
    }

    @Test
    @DisplayName("timeline: a recording of a process with one busy thread shows one busy lane, a selector idle, a blocked read, folds the threads past the cap, and a recording discarded stops")
    void oneBusyLane() throws Exception {
        Path fixture = Path.of(System.getProperty("course.root", ".")).resolve("scripts/test/fixtures/timeline/Threads.java");
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), fixture.toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            assertEquals("ready", out.readLine(), "the fixture's first line");
            Timeline.Recording recording = Timeline.start(new Inspect(p.pid()));
            Thread.sleep(1500);
            Timeline.Doc doc = recording.stop("00", "fixture", "the fixture's threads", "fixtures/timeline/Threads.java");
            String json = Jackson.write(doc);
            assertTrue(json.length() < 64 * 1024, "a timeline's size is bounded: " + json.length() + " characters");
            assertTrue(doc.lanes().size() <= Timeline.MAX_LANES, doc.lanes().size() + " lanes");
            long wall = (long) doc.slices() * doc.sliceMs();
            List<String> busy = doc.lanes().stream().filter(l -> !l.role().equals("jvm") && l.cpuMs() > wall / 4).map(Timeline.Lane::name).toList();
            assertEquals(List.of("loop-1"), busy, "the lanes that used over a quarter of a core: " + summary(doc));
            Timeline.Lane idle = lane(doc, "loop-2");
            assertTrue(share(idle.state(), ThreadStates.IDLE) >= 0.8, "loop-2 waits in its selector throughout: " + idle);
            Timeline.Lane reader = lane(doc, "worker-1");
            assertTrue(share(reader.state(), ThreadStates.READ) >= 0.8, "worker-1 is blocked reading throughout: " + reader);
            Timeline.Lane folded = doc.lanes().stream().filter(l -> l.threads() != null && l.name().endsWith("more threads")).findFirst()
                    .orElseThrow(() -> new AssertionError("no lane folds the threads past the cap: " + summary(doc)));
            assertTrue(share(folded.state(), ThreadStates.SLEEP) >= 0.8, "the folded sleepers sleep: " + folded);
            // A recording given up (its check could not finish) is stopped, and nothing of it is written.
            Timeline.start(new Inspect(p.pid())).discard();
            String left = new Jcmd(p.pid(), false).run("JFR.check");
            assertFalse(left.contains("timeline-"), "a discarded recording still runs: " + left);
        } finally {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    @DisplayName("timeline: a server that is not a JVM is not recorded, and the reason is one sentence")
    void notAJvm() throws Exception {
        Process p = new ProcessBuilder("sleep", "30").start();
        try {
            Exception e = assertThrows(Exception.class, () -> Timeline.start(new Inspect(p.pid())));
            assertTrue(e instanceof Unavailable && e.getMessage().contains("is not a Java process"), "thrown: " + e);
        } finally {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static Timeline.Lane lane(Timeline.Doc doc, String name) {
        return doc.lanes().stream().filter(l -> l.name().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no lane " + name + ": " + summary(doc)));
    }

    private static double share(String state, char code) {
        return state.chars().filter(c -> c == code).count() / (double) state.length();
    }

    private static String summary(Timeline.Doc doc) {
        StringBuilder s = new StringBuilder();
        for (Timeline.Lane l : doc.lanes()) s.append("\n  ").append(l.name()).append(" ").append(l.cpuMs()).append(" ms ").append(l.cpu()).append(" ").append(l.state());
        return s.toString();
    }
}
