package checks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import lib.Inspect;
import lib.Target;
import org.junit.jupiter.api.TestReporter;

/** Chapter 02, the thread pool, started with --threads 4 --queue 4. */
@Check.Suite
class Ch02Checks {
    /** The server under test, handed in by the run ({@link RunContext}). */
    private final Target target;

    Ch02Checks(Target target) {
        this.target = target;
    }
    static final int THREADS = 4;
    static final int QUEUE = 4;

    /** Sends GET path on each of n new connections at once; returns each one's time in ms (or -status). */
    static List<Long> concurrently(Target target, int n, String path, int timeoutMs) throws Exception {
        List<Future<Long>> futures = new ArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < n; i++) {
                futures.add(pool.submit(() -> {
                    Client.Timed t = Client.timed(target, Client.request("GET", path), timeoutMs);
                    return t.reply().status() == 200 ? t.ms() : -t.reply().status();
                }));
            }
        }
        List<Long> times = new ArrayList<>();
        for (Future<Long> f : futures) {
            try {
                times.add(f.get());
            } catch (java.util.concurrent.ExecutionException e) {
                throw new AssertionError(e.getCause().getMessage());
            }
        }
        return times;
    }

    /** Once earlier checks' connections are worked off, keeps every worker busy with an /io?ms=MS for the clients returned. */
    static Clients busyWorkers(Target target, int ms) throws Exception {
        settle(target);
        Clients busy = new Clients(target).connect(THREADS, Client.READ_TIMEOUT_MS)
                .sendAll(Client.request("GET", "/io?ms=" + ms, "Connection: close"));
        Thread.sleep(150);
        return busy;
    }

    /** Waits until earlier checks' connections are worked off: a request gets 200, not 503 or a wait. */
    static void settle(Target target) throws Exception {
        long deadline = System.nanoTime() + 8_000_000_000L;
        while (System.nanoTime() < deadline) {
            try (Client c = Client.connect(target, 1000)) {
                if (c.send(Client.request("GET", "/", "Connection: close")).read().status() == 200) {
                    Thread.sleep(100);
                    return;
                }
            } catch (AssertionError | java.io.IOException e) {
                // still busy
            }
            Thread.sleep(200);
        }
    }

    @Check(timed = true, order = 1, title = "serves 4 slow requests in parallel, in about one service time",
           hint = "With N threads, N requests that each wait 500 ms should take 500 ms together, not N x 500.",
           see = "chapters/02-thread-pool#the-pool")
    void parallel() throws Exception {
        List<Long> times = concurrently(target, THREADS, "/io?ms=500", 5000);
        long slowest = times.stream().mapToLong(Long::longValue).max().orElseThrow();
        assertTrue(times.stream().allMatch(t -> t > 0), "every request should get 200: " + times);
        assertTrue(slowest < 1000, "4 requests of 500 ms took " + times + " ms: they ran one after another");
    }

    @Check(order = 2, timeline = true, title = "makes the 5th connection wait while 4 workers are busy",
           hint = "Throughput is bounded by threads / service time (Little's law). A 5th connection should wait in the queue for a free worker.",
           see = "chapters/02-thread-pool#the-pool")
    void fifthWaits() throws Exception {
        try (Clients busy = busyWorkers(target, 1000)) {
            Client.Timed fifth = Client.timed(target, Client.request("GET", "/", "Connection: close"), Client.READ_TIMEOUT_MS);
            fifth.reply().assertStatus(200);
            assertTrue(fifth.ms() >= 500, "the 5th connection was served after " + fifth.ms() + " ms, while 4 workers were busy for 1 s: "
                    + "is the number of threads bounded by --threads?");
        }
    }

    // tag::releases[]
    @Check(timed = true, order = 3, timeline = true, title = "lets a waiting connection in when the workers' keep-alive connections are idle",
           hint = "A worker serving a keep-alive connection blocks in read() while the client thinks. When connections wait in the queue, "
            + "let the idle one go: BlockingHttp.serve(socket, othersWaiting) closes it when othersWaiting says yes.",
           see = "chapters/02-thread-pool#let-idle-connections-go")
    void releasesIdle(TestReporter reporter) throws Exception {
        try (Clients idle = new Clients(target)) {
            settle(target);
            for (int i = 0; i < THREADS; i++) {
                Client c = Client.connect(target, 3000);
                idle.add(c);
                c.send(Client.request("GET", "/")).read().assertStatus(200);
            }
            Thread.sleep(150); // four workers, each holding a keep-alive connection that says nothing
            Client.Timed fifth;
            try {
                fifth = Client.timed(target, Client.request("GET", "/", "Connection: close"), 3000);
            } catch (AssertionError | java.io.IOException e) {
                throw new AssertionError("a 5th connection got no answer in 3 s while 4 workers held idle keep-alive connections: "
                        + "it waited in the queue behind clients that were sending nothing (" + e.getMessage() + ")");
            }
            fifth.reply().assertStatus(200);
            assertTrue(fifth.ms() < 1500, "the 5th connection was served after " + fifth.ms() + " ms while the 4 workers' connections were idle");
            if (stillOpen(idle) == THREADS) {
                reporter.publishEntry(Check.NOTE, "passes only because the 5th connection got a thread of its own while the " + THREADS
                        + " idle ones kept theirs: there is no pool of " + THREADS + " workers yet; after TODO(pool) this check tests TODO(release)");
            }
        }
    }

    /** How many of {@code clients} the server has not closed (within 100 ms each). */
    static int stillOpen(Clients clients) throws java.io.IOException {
        int open = 0;
        for (Client c : clients) if (!c.closedByServer(100)) open++;
        return open;
    }
    // end::releases[]

    // tag::refuses[]
    @Check(timed = true, order = 4, title = "answers 503 at once when the workers are busy and the queue is full",
           hint = "BlockingQueue.offer() returns false instead of waiting when the queue is full. Answer 503 then, and close.",
           see = "chapters/02-thread-pool#when-the-queue-is-full")
    void refuses() throws Exception {
        try (Clients held = busyWorkers(target, 2000)) {
            for (int i = 0; i < QUEUE; i++) held.add(Client.connect(target).send(Client.request("GET", "/", "Connection: close")));
            Thread.sleep(150);
            Client.Timed extra = Client.timed(target, Client.request("GET", "/"), 1500);
            assertEquals(503, extra.reply().status(),
                    () -> "with 4 busy workers and 4 queued connections, the next one got '" + extra.reply().statusLine() + "'");
            assertTrue(extra.ms() < 500, "the 503 took " + extra.ms() + " ms");
        }
    }
    // end::refuses[]

    @Check(order = 5, timeline = true, title = "keeps its thread count bounded under 500 connections",
           hint = "A thread per connection makes 500 threads for 500 clients, each with its own stack. The pool's size is fixed.",
           see = "chapters/02-thread-pool#what-a-thread-costs")
    void boundedThreads() throws Exception {
        // First what a server starts at its first requests (a pool made lazily, the JDK's own helpers): those are no growth.
        try {
            concurrently(target, THREADS + QUEUE, "/io?ms=100", 3000);
        } catch (AssertionError e) {
            // refused or reset: what counts is what comes after
        }
        settle(target);
        Inspect inspect = target.inspect();
        List<Inspect.ThreadInfo> before = inspect.platformThreads();
        List<Inspect.ThreadInfo> during;
        try (Clients clients = new Clients(target)) {
            for (int i = 0; i < 500; i++) {
                try {
                    clients.add(Client.connect(target, 3000).send(Client.request("GET", "/io?ms=1000", "Connection: close")));
                } catch (java.io.IOException | AssertionError e) {
                    break; // refused or reset: fine, that is the point
                }
            }
            Thread.sleep(300);
            during = inspect.platformThreads();
        }
        assertTrue(during.size() <= before.size() + 4, "platform threads went from " + before.size() + " to " + during.size()
                + " with 500 connections (new: " + Watch.grown(before, during) + ")");
    }

    @Check(timed = true, order = 6, title = "keeps all its workers after handlers throw",
           hint = "An exception that leaves a thread's run() ends that thread. A worker loop must catch what serving one connection throws.",
           see = "chapters/02-thread-pool#the-pool")
    void workersSurvive() throws Exception {
        settle(target);
        for (int i = 0; i < THREADS * 2; i++) {
            try (Client c = Client.connect(target, 1000)) { // a worker that lives answers /fail at once
                c.send(Client.request("GET", "/fail")).read();
            } catch (AssertionError | java.io.IOException e) {
                // what matters is what comes after
            }
        }
        List<Long> times = concurrently(target, THREADS, "/io?ms=300", 3000);
        long slowest = times.stream().mapToLong(Long::longValue).max().orElseThrow();
        assertTrue(times.stream().allMatch(t -> t > 0) && slowest < 800,
                "after 8 failing requests, 4 parallel /io?ms=300 took " + times + " ms: did workers die?");
    }
}
