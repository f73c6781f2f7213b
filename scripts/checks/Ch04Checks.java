package checks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import lib.Inspect;
import lib.Target;

/** Chapter 04, many reactors, started with --loops 2. */
@Check.Suite
class Ch04Checks {
    /** The server under test, handed in by the run ({@link RunContext}). */
    private final Target target;

    Ch04Checks(Target target) {
        this.target = target;
    }
    static final int LOOPS = 2;

    @Check(timed = true, order = 1, title = "answers a new connection on an idle server at once (wakeup after handover)",
           hint = "An idle loop sleeps in select() with nothing to wake it. After queueing a connection for it, what makes it look at the queue?",
           see = "chapters/04-multi-reactor#handing-over-connections")
    void idleLoopWakes() throws Exception {
        Thread.sleep(300); // every loop idle
        for (int i = 0; i < LOOPS * 2; i++) {
            Client.Timed t = Client.timed(target, Client.request("GET", "/"), 2000);
            t.reply().assertStatus(200);
            assertTrue(t.ms() < 500, "connection " + (i + 1) + " waited " + t.ms() + " ms on an idle server");
        }
    }

    @Check(order = 2, timeline = true, title = "spreads connections over the loops: the CPU work of 4 connections runs on 2 threads, not 1",
           hint = "With --loops 2, four connections should land two on each loop, and each loop does its own connections' work. "
            + "If one thread did nearly all of it, every connection went to the same loop: look at how the acceptor picks a loop.",
           see = "chapters/04-multi-reactor#the-loops")
    void spread() throws Exception {
        Inspect inspect = target.inspect();
        List<Inspect.ThreadCpu> before = inspect.threadCpu();
        org.junit.jupiter.api.Assumptions.assumeFalse(before.isEmpty(), "this check reads the server's CPU time per thread: Linux's /proc for any server, or a JVM's own account (pass --pid for a server given with --url)");
        List<Future<Integer>> done = new ArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < 4; i++) {
                done.add(pool.submit(() -> {
                    try (Client c = Client.connect(target, 20_000)) {
                        return c.send(Client.request("GET", "/cpu?ms=300")).read().status();
                    }
                }));
            }
        }
        for (Future<Integer> f : done) assertEquals(200, f.get());
        // Which thread did the work: CPU time per thread, whatever the machine's other load.
        java.util.Map<Long, Long> was = new java.util.HashMap<>();
        for (Inspect.ThreadCpu t : before) was.put(t.tid(), t.cpu().toMillis());
        List<String> used = new ArrayList<>();
        List<Long> ms = new ArrayList<>();
        for (Inspect.ThreadCpu t : inspect.threadCpu()) {
            long delta = t.cpu().toMillis() - was.getOrDefault(t.tid(), 0L);
            if (delta >= 20) {
                used.add(t.name() + " " + delta + " ms");
                ms.add(delta);
            }
        }
        ms.sort(java.util.Comparator.reverseOrder());
        long busiest = ms.isEmpty() ? 0 : ms.get(0);
        long second = ms.size() < 2 ? 0 : ms.get(1);
        assertTrue(busiest > 0 && second * 3 >= busiest,
                "4 connections of /cpu?ms=300 took CPU on these threads: " + used + "; the busiest did over 3 times the work of any other");
    }

    @Check(timed = true, order = 3, timeline = true, title = "serves connections on other loops while one loop burns CPU",
           hint = "CPU work stalls only the loop it runs on. If every answer waited about 1.5 s, every connection went to the busy loop: "
            + "look at how the acceptor picks a loop. If the first came late but sooner, other programs busy on every core can cause it too.",
           see = "chapters/04-multi-reactor#the-loops")
    void otherLoopsServe() throws Exception {
        try (Client busy = Client.connect(target, 15_000); Clients others = new Clients(target).connect(6, 15_000)) {
            busy.send(Client.request("GET", "/cpu?ms=1500"));
            Thread.sleep(150);
            Elapsed start = Elapsed.start();
            for (Client c : others) c.send(Client.request("GET", "/"));
            // Only the first answer matters: the connections on the busy loop may wait for its
            // CPU work, which takes far longer than 1.5 s when another program shares the core.
            ExecutorService readers = Executors.newVirtualThreadPerTaskExecutor();
            try {
                CompletionService<Long> answers = new ExecutorCompletionService<>(readers);
                for (Client c : others) {
                    answers.submit(() -> {
                        c.read();
                        return start.ms();
                    });
                }
                Long fastest = null;
                for (int i = 0; i < others.size() && fastest == null; i++) {
                    Future<Long> f = answers.poll(Math.max(0, 5_000 - start.ms()), TimeUnit.MILLISECONDS);
                    if (f == null) break;
                    try {
                        fastest = f.get();
                    } catch (ExecutionException e) {
                        // a connection that failed: another may still answer
                    }
                }
                assertTrue(fastest != null, "while one loop burned 1.5 s of CPU, none of 6 other connections was answered within 5 s");
                assertTrue(fastest < 700, "while one loop burned 1.5 s of CPU, the first answer on 6 other connections took " + fastest + " ms");
            } finally {
                readers.shutdownNow(); // interrupts the readers still waiting on the busy loop
                readers.close();
                awaitQuietly(busy);    // the burn ends before the next check measures the server's CPU time
            }
        }
    }

    /** Reads {@code c}'s answer if it comes; whether it does is not this check's business. */
    private static void awaitQuietly(Client c) {
        try {
            c.read();
        } catch (AssertionError | java.io.IOException e) {
            // the server may have closed it, or be gone: the next check will say so
        }
    }

    @Check(order = 4, title = "loses no connection in a storm of 1000 at once",
           hint = "The acceptor may queue several connections before a loop looks. Adopt every queued one, not just the first.",
           see = "chapters/04-multi-reactor#handing-over-connections")
    void storm() throws Exception {
        List<Future<Integer>> replies = new ArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < 1000; i++) {
                replies.add(pool.submit(() -> {
                    try (Client c = Client.connect(target, 10_000)) {
                        return c.send(Client.request("GET", "/", "Connection: close")).read().status();
                    }
                }));
            }
        }
        int ok = 0;
        List<String> problems = new ArrayList<>();
        for (Future<Integer> f : replies) {
            try {
                if (f.get() == 200) ok++;
            } catch (java.util.concurrent.ExecutionException e) {
                if (problems.size() < 3) problems.add(e.getCause().getMessage());
            }
        }
        assertEquals(1000, ok, "of 1000 connections opened at once, " + (1000 - ok) + " got no answer, e.g. " + problems);
    }

    @Check(order = 5, timeline = true, title = "runs exactly one acceptor and --loops event loops",
           hint = "Count the threads that wait for I/O: one in accept(), and one select() per loop.",
           see = "chapters/04-multi-reactor#the-loops")
    void threads() throws Exception {
        List<Inspect.ThreadInfo> io = target.inspect().threads().stream()
                .filter(t -> t.stack().stream().anyMatch(f -> f.contains("SelectorImpl") || f.contains("accept")))
                .toList();
        long selecting = io.stream().filter(t -> t.stack().stream().anyMatch(f -> f.contains("SelectorImpl"))).count();
        assertEquals(LOOPS, selecting, "threads in select(): " + io.stream().map(Inspect.ThreadInfo::label).toList());
        assertEquals(LOOPS + 1, io.size(), "threads waiting for I/O: " + io.stream().map(Inspect.ThreadInfo::label).toList());
    }

    @Check(order = 6, title = "answers a client that half-closed with its answer pending, and spins no core meanwhile (half-closed)",
           hint = "Your loops run chapter 03's reactor from kit/chapter-03/EventLoop.java, which stops asking for OP_READ once a client "
            + "has closed its side. If you changed it or wrote your own loop, do the same: readiness is level-triggered, so end of stream "
            + "wakes every select() for as long as OP_READ stays in the interest set.",
           see = "chapters/03-reactor#closing")
    void halfClosed() throws Exception {
        Ch03Checks.halfClosedAnswered(target);
    }
}
