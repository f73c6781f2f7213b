///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
//PREVIEW
//SOURCES ../../scripts/checks/Backend.java

import checks.Backend;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.StructuredTaskScope;
import java.util.concurrent.StructuredTaskScope.Joiner;
import java.util.concurrent.StructuredTaskScope.Subtask;

/**
 * Chapter 08's demo: one trip of four calls, written six ways, against a local backend that
 * sees every call (scripts/checks/Backend.java, the grader's). For each way: how long four
 * calls of 500 ms take, how long a trip whose second call fails takes to fail, and how many
 * of its other calls ran to their end anyway. Run: jbang exercises/demos/FanOutStyles.java
 */
class FanOutStyles {
    static final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    static URI backend;

    interface Style {
        List<String> trip(List<String> paths) throws Exception;
    }

    // tag::serial[]
    static List<String> serial(List<String> paths) throws Exception {
        List<String> answers = new ArrayList<>();
        for (String path : paths) answers.add(call(path));
        return answers;
    }
    // end::serial[]

    static final ExecutorService POOL = Executors.newFixedThreadPool(4, Thread.ofPlatform().daemon().factory());

    // tag::pool[]
    static List<String> pool(List<String> paths) throws Exception {
        List<Future<String>> legs = new ArrayList<>();
        for (String path : paths) legs.add(POOL.submit(() -> call(path)));
        List<String> answers = new ArrayList<>();
        for (Future<String> leg : legs) answers.add(leg.get()); // a failure shows when its turn comes
        return answers;
    }
    // end::pool[]

    // tag::virtual[]
    static List<String> virtualThreads(List<String> paths) throws Exception {
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<String>> legs = new ArrayList<>();
            for (String path : paths) legs.add(threads.submit(() -> call(path)));
            List<String> answers = new ArrayList<>();
            for (Future<String> leg : legs) answers.add(leg.get());
            return answers;
        } // close() waits for every leg, needed or not
    }
    // end::virtual[]

    // tag::all-of[]
    static List<String> allOf(List<String> paths) throws Exception {
        List<CompletableFuture<String>> legs = paths.stream().map(p -> client.sendAsync(request(p), ofString())
                .thenApply(FanOutStyles::body)).toList();
        CompletableFuture.allOf(legs.toArray(CompletableFuture[]::new)).get(); // completes when every leg has, failed or not
        return legs.stream().map(CompletableFuture::join).toList();
    }
    // end::all-of[]

    // tag::fail-fast-futures[]
    static List<String> failFastFutures(List<String> paths) throws Exception {
        List<CompletableFuture<HttpResponse<String>>> sent = paths.stream().map(p -> client.sendAsync(request(p), ofString())).toList();
        CompletableFuture<Void> firstFailure = new CompletableFuture<>();
        for (var s : sent) s.thenApply(FanOutStyles::body).exceptionally(e -> { firstFailure.completeExceptionally(e); return null; });
        try {
            CompletableFuture.anyOf(CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)), firstFailure).get();
            return sent.stream().map(s -> body(s.join())).toList();
        } catch (ExecutionException e) {
            sent.forEach(s -> s.cancel(true)); // the sendAsync futures themselves: cancelling one made by thenApply stops nothing
            throw e;
        }
    }
    // end::fail-fast-futures[]

    // tag::structured[]
    static List<String> structured(List<String> paths) throws Exception {
        try (var scope = StructuredTaskScope.open(Joiner.<String>allSuccessfulOrThrow())) {
            for (String path : paths) scope.fork(() -> call(path));
            return scope.join().map(Subtask::get).toList();
        }
    }
    // end::structured[]

    /** A blocking call: the answer's body, or an exception for a status other than 2xx. */
    static String call(String path) throws IOException, InterruptedException {
        return body(client.send(request(path), ofString()));
    }

    static String body(HttpResponse<String> r) {
        if (r.statusCode() / 100 != 2) throw new IllegalStateException("the backend answered " + r.statusCode());
        return r.body().strip();
    }

    static HttpRequest request(String path) {
        return HttpRequest.newBuilder(backend.resolve(path)).build();
    }

    static HttpResponse.BodyHandler<String> ofString() {
        return HttpResponse.BodyHandlers.ofString();
    }

    public static void main(String[] args) throws Exception {
        try (Backend b = Backend.start("127.0.0.1", 0, true)) {
            backend = URI.create(b.url());
            List<String> fast = List.of("/io?ms=500", "/io?ms=500", "/io?ms=500", "/io?ms=500");
            List<String> failing = List.of("/io?ms=2000", "/fail", "/io?ms=2000", "/io?ms=2000");
            serial(List.of("/io?ms=1")); // the client's first use loads its classes
            structured(List.of("/io?ms=1", "/io?ms=1"));
            allOf(List.of("/io?ms=1"));
            pool(List.of("/io?ms=1"));
            System.out.printf("%-20s %12s %14s   %s%n", "", "4 x 500 ms", "one fails", "its other calls that ran to their end");
            for (var style : List.<Object[]>of(new Object[] {"serial", (Style) FanOutStyles::serial},
                    new Object[] {"a pool of 4 threads", (Style) FanOutStyles::pool},
                    new Object[] {"virtual threads", (Style) FanOutStyles::virtualThreads},
                    new Object[] {"allOf", (Style) FanOutStyles::allOf},
                    new Object[] {"futures, fail fast", (Style) FanOutStyles::failFastFutures},
                    new Object[] {"structured", (Style) FanOutStyles::structured})) {
                Style s = (Style) style[1];
                long t0 = System.nanoTime();
                s.trip(fast);
                long ok = (System.nanoTime() - t0) / 1_000_000;
                b.awaitIdle(5000);
                b.reset();
                long t1 = System.nanoTime();
                try {
                    s.trip(failing);
                } catch (Exception e) {
                    // expected: the second call fails
                }
                long failed = (System.nanoTime() - t1) / 1_000_000;
                b.awaitIdle(5000);
                List<Backend.Call> io = b.calls().stream().filter(c -> c.path().startsWith("/io")).toList();
                long ran = io.stream().filter(c -> !c.closedEarly()).count();
                System.out.printf(Locale.ROOT, "%-20s %10.1f s %12.1f s   %d of the %d made%n", style[0], ok / 1000.0, failed / 1000.0, ran, io.size());
            }
        }
    }
}
