///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
//PREVIEW
//DEPS io.vertx:vertx-core:5.1.6

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.StructuredTaskScope;
import java.util.concurrent.StructuredTaskScope.Joiner;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A published claim, on one machine: "an event loop fetched a million URLs in 38.8 s, virtual
 * threads in 56.2 s". Fetches N URLs (GET /io?ms=0) from a local backend with one client after
 * another: one at a time, a pool of 10 platform threads, 10 virtual threads (what the claim's
 * code used), 1,000 virtual threads, a StructuredTaskScope with 1,000 in flight, and Vert.x's
 * event-loop client with 10 and with 1,000 in flight. Prints each one's time, the CPU time this
 * process used, and its peak heap in use.
 *
 * Start a backend first (any workshop server will do), then:
 *   jbang scripts/checks/Backend.java &
 *   jbang exercises/demos/FetchMany.java [--urls 100000] [--backend http://127.0.0.1:8081]
 */
class FetchMany {
    static URI backend = URI.create("http://127.0.0.1:8081");
    static final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    /** A way to fetch {@code n} URLs; returns how many answered 200. */
    interface Fetcher {
        long fetch(int n) throws Exception;
    }

    static HttpRequest request() {
        return HttpRequest.newBuilder(backend.resolve("/io?ms=0")).build();
    }

    static boolean fetchOne() {
        try {
            return client.send(request(), HttpResponse.BodyHandlers.ofString()).statusCode() == 200;
        } catch (Exception e) {
            return false;
        }
    }

    static long serial(int n) {
        long ok = 0;
        for (int i = 0; i < n; i++) if (fetchOne()) ok++;
        return ok;
    }

    /** {@code workers} threads from {@code threads}, each fetching the next URL until none is left. */
    static long workers(int n, int workers, ExecutorService threads) {
        AtomicInteger next = new AtomicInteger();
        AtomicLong ok = new AtomicLong();
        try (threads) {
            for (int w = 0; w < workers; w++) {
                threads.submit(() -> {
                    while (next.getAndIncrement() < n) if (fetchOne()) ok.incrementAndGet();
                });
            }
        }
        return ok.get();
    }

    /** A fork per URL, at most {@code inFlight} at once: the scope's way. */
    static long structured(int n, int inFlight) throws InterruptedException {
        Semaphore permits = new Semaphore(inFlight);
        AtomicLong ok = new AtomicLong();
        try (var scope = StructuredTaskScope.open(Joiner.<Boolean>awaitAll())) {
            for (int i = 0; i < n; i++) {
                permits.acquire();
                scope.fork(() -> {
                    try {
                        if (fetchOne()) ok.incrementAndGet();
                        return true;
                    } finally {
                        permits.release();
                    }
                });
            }
            scope.join();
        }
        return ok.get();
    }

    /** Vert.x's HTTP client on its event loop: {@code inFlight} chains of requests, each sending the next when its answer came. */
    static long eventLoop(int n, int inFlight) throws InterruptedException {
        Vertx vertx = Vertx.vertx();
        try {
            HttpClientAgent http = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true),
                    new PoolOptions().setHttp1MaxSize(inFlight));
            AtomicInteger next = new AtomicInteger();
            AtomicLong ok = new AtomicLong();
            CountDownLatch done = new CountDownLatch(inFlight);
            for (int c = 0; c < inFlight; c++) chain(http, n, next, ok, done);
            done.await();
            http.close().toCompletionStage().toCompletableFuture().join();
            return ok.get();
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().join();
        }
    }

    private static void chain(HttpClientAgent http, int n, AtomicInteger next, AtomicLong ok, CountDownLatch done) {
        if (next.getAndIncrement() >= n) {
            done.countDown();
            return;
        }
        Future<Buffer> body = http.request(HttpMethod.GET, backend.getPort(), backend.getHost(), "/io?ms=0")
                .compose(req -> req.send().compose(resp -> resp.statusCode() == 200 ? resp.body() : Future.failedFuture("status " + resp.statusCode())));
        body.onComplete(ar -> {
            if (ar.succeeded()) ok.incrementAndGet();
            chain(http, n, next, ok, done);
        });
    }

    public static void main(String[] args) throws Exception {
        int n = 100_000;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--urls" -> n = Integer.parseInt(args[i + 1]);
                case "--backend" -> backend = URI.create(args[i + 1]);
                default -> throw new IllegalArgumentException("usage: FetchMany [--urls N] [--backend URL]");
            }
        }
        if (!fetchOne()) {
            System.err.println("no backend answers GET /io?ms=0 at " + backend + ": start one first, e.g. jbang scripts/checks/Backend.java &");
            System.exit(2);
        }
        int urls = n;
        List<Object[]> ways = List.of(
                new Object[] {"one at a time", (Fetcher) k -> serial(k)},
                new Object[] {"10 platform threads", (Fetcher) k -> workers(k, 10, Executors.newFixedThreadPool(10))},
                new Object[] {"10 virtual threads", (Fetcher) k -> workers(k, 10, Executors.newVirtualThreadPerTaskExecutor())},
                new Object[] {"1000 virtual threads", (Fetcher) k -> workers(k, 1000, Executors.newVirtualThreadPerTaskExecutor())},
                new Object[] {"a scope, 1000 at once", (Fetcher) k -> structured(k, 1000)},
                new Object[] {"event loop, 10 at once", (Fetcher) k -> eventLoop(k, 10)},
                new Object[] {"event loop, 1000 at once", (Fetcher) k -> eventLoop(k, 1000)});
        for (Object[] way : ways) ((Fetcher) way[1]).fetch(Math.min(urls, 5_000)); // warm every way up: the JIT, the pools
        System.out.printf("%s URLs from %s, %d CPUs, %s%n", String.format(Locale.ROOT, "%,d", urls), backend,
                Runtime.getRuntime().availableProcessors(), Runtime.version());
        System.out.printf("%-26s %9s %12s %14s %12s%n", "", "time", "URLs/s", "CPU (this JVM)", "peak heap");
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        var memory = ManagementFactory.getMemoryMXBean();
        for (Object[] way : ways) {
            System.gc();
            AtomicLong peak = new AtomicLong();
            Thread sampler = Thread.ofPlatform().daemon().start(() -> {
                while (!Thread.currentThread().isInterrupted()) {
                    peak.accumulateAndGet(memory.getHeapMemoryUsage().getUsed(), Math::max);
                    try {
                        Thread.sleep(20);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
            long cpu0 = os.getProcessCpuTime();
            long t0 = System.nanoTime();
            long ok = ((Fetcher) way[1]).fetch(urls);
            double seconds = (System.nanoTime() - t0) / 1e9;
            double cpu = (os.getProcessCpuTime() - cpu0) / 1e9;
            sampler.interrupt();
            sampler.join();
            System.out.printf(Locale.ROOT, "%-26s %7.1f s %12s %12.1f s %9d MiB%s%n", way[0], seconds,
                    String.format(Locale.ROOT, "%,d", Math.round(ok / seconds)), cpu, peak.get() >> 20,
                    ok == urls ? "" : "  (" + (urls - ok) + " failed)");
        }
    }
}
