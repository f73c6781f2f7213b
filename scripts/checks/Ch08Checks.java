import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Chapter 08, fan-out, started with --backend (the grader's {@link Backend}, which watches every
 * call) and --max-outbound 8. Each check asks for trips and reads what the backend saw.
 */
@Check.Suite
class Ch08Checks {
    static final int MAX_OUTBOUND = 8;
    static final String ID_HEADER = "X-Request-Id";
    /**
     * Growth in platform threads and open files that 1000 trips may leave: pools that grow with
     * the load (the HTTP client's workers, the JIT's compiler threads) and kept-alive connections
     * stay well under it; a leak per trip or per call leaves thousands.
     */
    static final int LEFT_OVER = 64;

    /** A trip with the request id {@code id} (none when null), timed from connecting to the whole answer. */
    static Client.Timed trip(String query, String id, int readTimeoutMs) throws Exception {
        String raw = id == null ? Client.request("GET", "/trip?" + query) : Client.request("GET", "/trip?" + query, ID_HEADER + ": " + id);
        return Client.timed(raw, readTimeoutMs);
    }

    static List<Backend.Call> ioCalls(Backend b) {
        return b.calls().stream().filter(c -> c.path().startsWith("/io")).toList();
    }

    @Check(order = 1, title = "answers a trip with one line per leg, in leg order, and 400 to a bad query",
           hint = "GET /trip?legs=K&ms=S makes K calls to the backend and answers 200 with the line each brought back, leg 0 first; "
                   + "the kit's Trips.serve answers 400 before the fan-out.",
           see = "chapters/08-fan-out#the-trip")
    void answers() throws Exception {
        Backend b = Backend.current();
        b.reset();
        Client.Reply r = trip("legs=3&ms=50", "check-answers", 5000).reply();
        r.assertStatus(200);
        assertEquals("leg 0: waited 50 ms\nleg 1: waited 50 ms\nleg 2: waited 50 ms\n", r.text(), "the trip's answer");
        assertEquals(3, ioCalls(b).size(), "the backend saw " + ioCalls(b).size() + " calls for a trip of 3 legs");
        assertEquals(400, Client.get("/trip?legs=0").status(), "GET /trip?legs=0");
        assertEquals(400, Client.get("/trip?legs=2&fail=2").status(), "GET /trip?legs=2&fail=2 (legs are 0 and 1)");
    }

    // tag::parallel[]
    @Check(order = 2, title = "runs a trip's legs at once: 4 legs of 600 ms are all in flight together",
           hint = "Legs called one after another take K x S. Fork each leg in a StructuredTaskScope, then join(): "
                   + "all of them wait at the same time, each on a virtual thread of its own.",
           see = "chapters/08-fan-out#fan-out")
    void parallel() throws Exception {
        Backend b = Backend.current();
        b.reset();
        Client.Timed t = trip("legs=4&ms=600", "check-parallel", 6000);
        t.reply().assertStatus(200);
        assertEquals(4, b.maxInFlight(), "the backend saw at most " + b.maxInFlight() + " of the trip's 4 legs in flight at once"
                + " (the trip took " + Client.seconds((int) t.ms()) + ")");
    }
    // end::parallel[]

    // tag::fail-fast[]
    @Check(order = 3, title = "a failing leg answers 502 at once and cancels the others (the backend sees their calls closed)",
           hint = "Joiner.allSuccessfulOrThrow() makes the first failure end join() with FailedException and interrupts the other legs; "
                   + "an interrupted HttpClient.send() closes its connection. A join that waits for every leg (awaitAll, or futures "
                   + "joined in turn) answers only when the slowest one is done.",
           see = "chapters/08-fan-out#cancellation")
    void failFast() throws Exception {
        answersEarlyAndCancels("legs=4&ms=3000&fail=1", 502, "a trip of 4 legs of 3 s whose leg 1 fails");
    }

    /**
     * The trip {@code query} of legs that take 3 s must get {@code status} within 2 s, and every
     * call to the backend it made must be closed by the server before the backend answered it.
     */
    static void answersEarlyAndCancels(String query, int status, String trip) throws Exception {
        Backend b = Backend.current();
        b.reset();
        Client.Timed t = trip(query, "check-cancel", 6000); // a server that waits answers at 3 s: wait for it, so its calls end within this check
        assertEquals(status, t.reply().status(), trip + " answered '" + t.reply().statusLine() + "' after " + Client.seconds((int) t.ms()));
        assertTrue(t.ms() < 2000, trip + " answered after " + Client.seconds((int) t.ms())
                + ": did it wait for legs it no longer needed? (a busy machine adds some, not seconds)");
        b.awaitIdle(3000);
        List<Backend.Call> io = ioCalls(b);
        long answered = io.stream().filter(Predicate.not(Backend.Call::closedEarly)).count();
        assertEquals(0, answered, answered + " of the " + io.size() + " calls to /io ran to their end after the " + status
                + "; a cancelled call closes its connection");
    }
    // end::fail-fast[]

    @Check(order = 4, title = "a trip past its deadline answers 504 then, and cancels the legs still out",
           hint = "open(joiner, cf -> cf.withTimeout(Duration.ofMillis(deadline))): join() throws TimeoutException when it passes, "
                   + "and the scope interrupts the legs still running. A 504 without that leaves them calling the backend.",
           see = "chapters/08-fan-out#deadlines")
    void deadline() throws Exception {
        answersEarlyAndCancels("legs=3&ms=3000&deadline=500", 504, "a trip with a deadline of 500 ms, of 3 legs of 3 s,");
    }

    // tag::outbound[]
    @Check(order = 5, title = "never has more than --max-outbound 8 calls to the backend in flight",
           hint = "Each leg takes a permit of one Semaphore of --max-outbound permits, shared by every trip, before its call, "
                   + "and gives it back in a finally. A leg that waits for a permit is an unmounted virtual thread.",
           see = "chapters/08-fan-out#bounding-the-calls")
    void maxOutbound() throws Exception {
        Backend b = Backend.current();
        b.reset();
        List<Future<Client.Timed>> trips = new ArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < 4; i++) {
                String id = "check-outbound-" + i;
                trips.add(pool.submit(() -> trip("legs=4&ms=500", id, 8000)));
            }
        }
        for (Future<Client.Timed> f : trips) f.get().reply().assertStatus(200);
        assertTrue(b.maxInFlight() <= MAX_OUTBOUND, "4 trips of 4 legs at once put " + b.maxInFlight()
                + " calls in flight at the backend; --max-outbound is " + MAX_OUTBOUND);
    }
    // end::outbound[]

    // tag::request-id[]
    @Check(order = 6, title = "every leg carries its trip's X-Request-Id, with two trips at once, and one the server made",
           hint = "A ThreadLocal set on the request's thread is not seen by the legs' threads. Bind a ScopedValue around the trip "
                   + "(ScopedValue.where(REQUEST_ID, id).call(...)): forks of a scope opened inside see the binding.",
           see = "chapters/08-fan-out#the-request-id")
    void requestId() throws Exception {
        Backend b = Backend.current();
        b.reset();
        Future<Client.Timed> a;
        Future<Client.Timed> c;
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            a = pool.submit(() -> trip("legs=3&ms=200", "check-id-a", 5000));
            c = pool.submit(() -> trip("legs=3&ms=200", "check-id-b", 5000));
        }
        Client.Reply ours = trip("legs=2&ms=10", null, 5000).reply();
        Map<String, Long> byId = b.calls().stream().collect(Collectors.groupingBy(call -> String.valueOf(call.id()), Collectors.counting()));
        a.get().reply().assertStatus(200);
        c.get().reply().assertStatus(200);
        ours.assertStatus(200);
        assertEquals(3L, byId.getOrDefault("check-id-a", 0L), "calls with X-Request-Id check-id-a, of its 3 legs; the backend saw " + byId);
        assertEquals(3L, byId.getOrDefault("check-id-b", 0L), "calls with X-Request-Id check-id-b, of its 3 legs; the backend saw " + byId);
        String made = ours.header(ID_HEADER);
        assertTrue(made != null && !made.isBlank(), "a trip sent without X-Request-Id got no X-Request-Id in its answer");
        assertEquals(2L, byId.getOrDefault(made, 0L), "calls with the id the server made, " + made + ", of 2 legs; the backend saw " + byId);
    }
    // end::request-id[]

    @Check(order = 7, title = "reuses its connections to the backend: 20 trips of 4 legs open at most 8",
           hint = "A new HttpClient per call opens a connection per call, and a thread, until the garbage collector finds it. "
                   + "Make one client, once, and share it: HTTP/1.1 keep-alive reuses its connections.",
           see = "chapters/08-fan-out#one-client")
    void keepAlive() throws Exception {
        Backend b = Backend.current();
        b.reset();
        for (int i = 0; i < 20; i++) trip("legs=4&ms=0", "check-keep-alive", 5000).reply().assertStatus(200);
        assertTrue(b.opened() <= 2 * 4, "20 trips of 4 legs, one after another, opened " + b.opened() + " connections to the backend");
    }

    @Check(order = 8, title = "leaves nothing behind: after 1000 trips (some failing, some late) no call, thread or file is left",
           hint = "Every leg must end with its trip: a scope closed by try-with-resources joins or cancels all it forked, and a "
                   + "permit taken goes back in a finally. Threads or files that grow: a client per call, or legs never cancelled.",
           see = "chapters/08-fan-out#cancellation")
    void nothingLeft() throws Exception {
        Backend b = Backend.current();
        Inspect inspect = Target.get().inspect();
        trip("legs=2&ms=0", "check-warm", 5000).reply().assertStatus(200);
        int threadsBefore = inspect.platformThreads().size();
        var filesBefore = inspect.openFiles();
        b.reset();
        Elapsed start = Elapsed.start();
        List<Future<Integer>> statuses = new ArrayList<>();
        java.util.concurrent.atomic.AtomicBoolean stalled = new java.util.concurrent.atomic.AtomicBoolean();
        try (ExecutorService pool = Executors.newFixedThreadPool(16, Thread.ofVirtual().factory())) {
            for (int i = 0; i < 1000; i++) {
                String query = i % 5 == 4 ? "legs=3&ms=300&deadline=20" : i % 3 == 2 ? "legs=3&ms=5&fail=0" : "legs=3&ms=" + (i % 10);
                statuses.add(pool.submit(() -> {
                    if (stalled.get() || start.ms() > 40_000) return -1; // once one trip got no answer, the rest are not sent
                    try {
                        return trip(query, null, 5000).reply().status();
                    } catch (AssertionError | java.io.IOException e) {
                        stalled.set(true);
                        return 0;
                    }
                }));
            }
        }
        Map<Integer, Long> counts = new java.util.TreeMap<>();
        for (Future<Integer> f : statuses) counts.merge(f.resultNow(), 1L, Long::sum);
        assertEquals(Map.of(200, 533L, 502, 267L, 504, 200L), counts, "the 1000 trips' statuses (0: no answer within 5 s, "
                + "-1: not sent, after one got none or past 40 s)");
        assertTrue(b.awaitIdle(3000), b.inFlight() + " calls were still in flight at the backend 3 s after the last trip was answered");
        int threadsAfter = inspect.platformThreads().size();
        assertTrue(threadsAfter <= threadsBefore + LEFT_OVER, "the server had " + threadsBefore + " platform threads before the 1000 trips and "
                + threadsAfter + " after");
        var filesAfter = inspect.openFiles();
        if (filesBefore.isPresent() && filesAfter.isPresent()) {
            assertTrue(filesAfter.getAsInt() <= filesBefore.getAsInt() + LEFT_OVER, "the server had " + filesBefore.getAsInt()
                    + " open files before the 1000 trips and " + filesAfter.getAsInt() + " after; the backend has " + b.open() + " connections open");
        }
    }
}
