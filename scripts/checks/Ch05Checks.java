import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import jdk.jfr.consumer.RecordedEvent;

/** Chapter 05, virtual threads, started with --max-concurrent 2500. */
@Check.Suite
class Ch05Checks {
    static final int LIMIT = 2500;

    // tag::pinning[]
    @Check(order = 1, title = "does not pin its virtual threads while they wait (no jdk.VirtualThreadPinned over 20 ms)",
           hint = "A virtual thread that blocks below a native frame (JNI, a foreign call back into Java) cannot unmount and holds its carrier. Block in plain Java code.",
           see = "chapters/05-virtual-threads#pinning")
    void noPinning() throws Exception {
        List<Future<Integer>> answers = new ArrayList<>();
        List<RecordedEvent> pinned = Target.get().inspect().record(() -> {
            try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
                for (int i = 0; i < 10; i++) answers.add(pool.submit(() -> Client.get("/io?ms=100").status()));
            }
        }, "jdk.VirtualThreadPinned");
        long ok = answers.stream().filter(a -> a.state() == Future.State.SUCCESS && a.resultNow() == 200).count();
        if (!pinned.isEmpty()) {
            RecordedEvent first = pinned.get(0);
            List<String> frames = first.getStackTrace() == null ? List.of() : first.getStackTrace().getFrames().stream()
                    .map(f -> f.getMethod().getType().getName() + "." + f.getMethod().getName())
                    .filter(f -> !f.startsWith("java.lang.VirtualThread") && !f.contains("LambdaForm")).limit(8).toList();
            throw new AssertionError(pinned.size() + " times a virtual thread stayed pinned to its carrier while it waited (the first for "
                    + first.getDuration().toMillis() + " ms), in " + frames + "; " + ok + " of 10 concurrent /io?ms=100 got 200");
        }
        assertEquals(10, ok, "of 10 concurrent /io?ms=100, only " + ok + " got 200");
    }
    // end::pinning[]

    // tag::two-thousand[]
    @Check(order = 2, title = "serves 2000 concurrent /io?ms=1000 in about one service time, on virtual threads, with few platform threads",
           hint = "A blocking call on a virtual thread unmounts it and frees its carrier. Thread.ofVirtual() gives each connection one.",
           see = "chapters/05-virtual-threads#virtual-threads")
    void twoThousand() throws Exception {
        Inspect inspect = Target.get().inspect();
        int platformBefore = inspect.platformThreads().size();
        AtomicReference<List<Inspect.ThreadInfo>> during = new AtomicReference<>();
        try (Clients clients = new Clients().connectAtOnce(2000, 10_000)) {
            Elapsed start = Elapsed.start();
            clients.sendAll(Client.request("GET", "/io?ms=1000"));
            Thread.sleep(400);
            during.set(inspect.threads());
            for (Client c : clients) assertEquals(200, c.read().status());
            long ms = start.ms();
            long virtual = during.get().stream().filter(Inspect.ThreadInfo::virtual).count();
            long platform = during.get().stream().filter(t -> !t.virtual()).count();
            assertTrue(virtual >= 1000, "only " + virtual + " virtual threads with 2000 requests in flight");
            assertTrue(platform <= platformBefore + 8, "platform threads went from " + platformBefore + " to " + platform);
            assertTrue(ms < 3000, "2000 requests of 1 s took " + ms + " ms together");
        }
    }
    // end::two-thousand[]

    @Check(order = 3, title = "answers 503 at once beyond --max-concurrent connections, and serves again when they close",
           hint = "Semaphore.tryAcquire() says no at once when every permit is taken. Answer 503 then, and release the permit when a connection ends.",
           see = "chapters/05-virtual-threads#limiting-concurrency")
    void limit() throws Exception {
        try (Clients held = new Clients().connectAtOnce(LIMIT, 10_000)) {
            // Half a request on each: the server has every connection then (a client's connect can
            // return before the server has queued it, under a burst), and each waits for the rest.
            held.sendAll("GET / HTTP/1.1\r\n");
            Thread.sleep(500); // all accepted, all holding a permit
            Client.Timed extra = Client.timed(Client.request("GET", "/"), 2000);
            assertEquals(503, extra.reply().status(),
                    () -> "with " + LIMIT + " connections open, the next one got '" + extra.reply().statusLine() + "'");
            assertTrue(extra.ms() < 500, "the 503 took " + extra.ms() + " ms");
        }
        Thread.sleep(500);
        assertEquals(200, Client.get("/").status(), "after the held connections closed, a new one should be served");
    }
}
