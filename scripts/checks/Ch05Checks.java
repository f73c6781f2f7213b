import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/** Chapter 05, virtual threads, started with --max-concurrent 2500. */
@ExtendWith(Alive.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class Ch05Checks {
    static final int LIMIT = 2500;

    // tag::pinning[]
    @Test @Order(1)
    @DisplayName("does not pin its virtual threads while they wait (no jdk.VirtualThreadPinned over 20 ms)")
    @Hint(value = "A virtual thread that blocks below a native frame (JNI, a foreign call back into Java) cannot unmount and holds its carrier. Block in plain Java code.",
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
    @Test @Order(2)
    @DisplayName("serves 2000 concurrent /io?ms=1000 in about one service time, on virtual threads, with few platform threads")
    @Hint(value = "A blocking call on a virtual thread unmounts it and frees its carrier. Thread.ofVirtual() gives each connection one.",
          see = "chapters/05-virtual-threads#virtual-threads")
    void twoThousand() throws Exception {
        Inspect inspect = Target.get().inspect();
        int platformBefore = inspect.platformThreads().size();
        AtomicReference<List<Inspect.ThreadInfo>> during = new AtomicReference<>();
        try (Clients clients = new Clients()) {
            try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
                List<Future<Client>> opened = new ArrayList<>();
                for (int i = 0; i < 2000; i++) opened.add(pool.submit(() -> Client.connect(10_000)));
                for (Future<Client> f : opened) clients.add(f.get());
            }
            Elapsed start = Elapsed.start();
            for (Client c : clients) c.send(Client.request("GET", "/io?ms=1000"));
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

    @Test @Order(3)
    @DisplayName("answers 503 at once beyond --max-concurrent connections, and serves again when they close")
    @Hint(value = "Semaphore.tryAcquire() says no at once when every permit is taken. Answer 503 then, and release the permit when a connection ends.",
          see = "chapters/05-virtual-threads#limiting-concurrency")
    void limit() throws Exception {
        try (Clients held = new Clients()) {
            try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
                List<Future<Client>> opened = new ArrayList<>();
                for (int i = 0; i < LIMIT; i++) opened.add(pool.submit(() -> Client.connect(10_000)));
                for (Future<Client> f : opened) held.add(f.get());
            }
            Thread.sleep(500); // all accepted, all holding a permit
            Elapsed start = Elapsed.start();
            try (Client extra = Client.connect(2000)) {
                Client.Reply r = extra.send(Client.request("GET", "/")).read();
                long ms = start.ms();
                assertEquals(503, r.status(), () -> "with " + LIMIT + " connections open, the next one got '" + r.statusLine() + "'");
                assertTrue(ms < 500, "the 503 took " + ms + " ms");
            }
        }
        Thread.sleep(500);
        assertEquals(200, Client.get("/").status(), "after the held connections closed, a new one should be served");
    }
}
