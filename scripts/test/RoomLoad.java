package test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import contract.Stats;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.BindException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import lib.Jackson;
import room.RoomLink;
import room.RoomServer;
import room.Seat;

/**
 * A day in the live room, compressed or not: {@code laptops} learners each hand in a grading
 * every 20 to 40 s and a race every 3 to 5 minutes (times multiplied by {@code scale}), through
 * the learner's own client ({@link RoomLink#post}, with its 5 s limit and the token it keeps),
 * while a projector fetches the page every 10 s; halfway the room is stopped and started again
 * on the same folder and port. At the end every laptop sends once more (as its next grading
 * would), and each seat must hold what its laptop last sent: none lost. RoomTest runs a short
 * one; {@code RoomTest ROOT --load MINUTES} runs the full one and writes
 * site/measured/room-load.json, whose figures the instructor guide quotes.
 */
final class RoomLoad {
    /** What a run did and saw; times in milliseconds, sizes in bytes. */
    record Run(int laptops, double minutes, double scale, int posts, int answered, int unreachable, int refused, int races,
               int pages, long pageBytesMax, double answerMsP50, double answerMsP99, double answerMsMax,
               long heapAfterGcFirstBytes, long heapAfterGcLastBytes, long heapAfterGcMaxBytes, double restartSeconds,
               int lost, List<String> problems) {}

    private RoomLoad() {}

    static Run run(Path root, int laptops, Duration length, double scale) throws Exception {
        Path dir = Files.createTempDirectory("room-load");
        RoomServer.Settings settings = new RoomServer.Settings(dir, RoomTest.CODE, RoomTest.VIEW, Math.max(RoomServer.MAX_LEARNERS, laptops),
                RoomServer.REFRESH_SECONDS, null);
        AtomicReference<HttpServer> server = new AtomicReference<>(RoomServer.start(root, settings, "127.0.0.1", 0));
        int port = server.get().getAddress().getPort();
        String url = "http://127.0.0.1:" + port + "/";
        JsonNode reference = Jackson.tree(Files.readString(root.resolve("site/static/bench/reference.json")));
        List<String> chapters = new ArrayList<>(RoomTest.known.checks().keySet());

        List<Long> answerMicros = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger posts = new AtomicInteger(), answered = new AtomicInteger(), unreachable = new AtomicInteger(), refused = new AtomicInteger(),
                races = new AtomicInteger(), pages = new AtomicInteger();
        AtomicLong pageMax = new AtomicLong();
        List<String> problems = Collections.synchronizedList(new ArrayList<>());
        Map<String, Map<String, Integer>> lastSent = new ConcurrentHashMap<>();
        Map<String, String> tokens = new ConcurrentHashMap<>();
        List<Long> heap = Collections.synchronizedList(new ArrayList<>());
        heap.add(heapAfterGc());

        long end = System.nanoTime() + length.toNanos();
        long restartAt = System.nanoTime() + length.toNanos() / 2;
        double[] restartSeconds = {Double.NaN};
        try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 1; i <= laptops; i++) {
                String name = "laptop-" + i;
                threads.submit(() -> {
                    ThreadLocalRandom random = ThreadLocalRandom.current();
                    Map<String, Integer> failing = new LinkedHashMap<>();
                    for (String c : chapters.subList(0, Math.min(3, chapters.size()))) failing.put(c, RoomTest.known.checks().get(c).size());
                    long nextRace = System.nanoTime() + millis(random.nextLong(180_000, 300_000), scale) * 1_000_000;
                    sleep(millis(random.nextLong(0, 20_000), scale)); // laptops do not start in step
                    while (System.nanoTime() < end) {
                        String c = chapters.get(random.nextInt(Math.min(3, chapters.size())));
                        failing.merge(c, -random.nextInt(0, 3), (a, b) -> Math.max(0, a + b));
                        ObjectNode handin = RoomTest.handin(name, failing);
                        if (System.nanoTime() >= nextRace) {
                            handin.withArray("bench").add(RoomTest.chapterRace(reference, chapters.get(random.nextInt(chapters.size()))));
                            races.incrementAndGet();
                            nextRace = System.nanoTime() + millis(random.nextLong(180_000, 300_000), scale) * 1_000_000;
                        }
                        send(url, name, handin, tokens, posts, answered, unreachable, refused, answerMicros, problems);
                        lastSent.put(name, new LinkedHashMap<>(failing));
                        sleep(millis(random.nextLong(20_000, 40_000), scale));
                    }
                    return null;
                });
            }
            // The projector.
            threads.submit(() -> {
                String cookie = RoomServer.VIEW_COOKIE + "=" + RoomServer.Viewer.kept(dir, RoomTest.VIEW).session();
                while (System.nanoTime() < end) {
                    try {
                        HttpResponse<byte[]> page = RoomTest.client.send(HttpRequest.newBuilder(URI.create(url + "summary")).header("Cookie", cookie)
                                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofByteArray());
                        if (page.statusCode() == 200) {
                            pages.incrementAndGet();
                            pageMax.accumulateAndGet(page.body().length, Math::max);
                        }
                    } catch (IOException e) {
                        // the room is restarting
                    }
                    sleep(millis(RoomServer.REFRESH_SECONDS * 1000L, scale));
                }
                return null;
            });
            // The room's own heap, once a tenth of the run, and the restart halfway.
            threads.submit(() -> {
                boolean restarted = false;
                while (System.nanoTime() < end) {
                    sleep(Math.max(100, length.toMillis() / 10));
                    heap.add(heapAfterGc());
                    if (!restarted && System.nanoTime() >= restartAt) {
                        restarted = true;
                        long stopped = System.nanoTime();
                        server.get().stop(0);
                        server.set(startAgain(root, settings, port));
                        restartSeconds[0] = (System.nanoTime() - stopped) / 1e9;
                    }
                }
                return null;
            });
        }
        // Every laptop's next grading: what it has now reaches the room.
        try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (var e : lastSent.entrySet()) {
                threads.submit(() -> {
                    send(url, e.getKey(), RoomTest.handin(e.getKey(), e.getValue()), tokens, posts, answered, unreachable, refused, answerMicros, problems);
                    return null;
                });
            }
        }
        heap.add(heapAfterGc());
        int lost = 0;
        for (var e : lastSent.entrySet()) {
            Path file = dir.resolve(RoomLink.key(e.getKey()) + ".json");
            Seat seat = Files.exists(file) ? Jackson.read(Files.readString(file), Seat.class) : null;
            boolean same = seat != null;
            for (var f : e.getValue().entrySet()) {
                Seat.Graded g = seat == null ? null : seat.chapters().get(f.getKey());
                same &= g != null && g.failed() == f.getValue();
            }
            if (!same) {
                lost++;
                if (problems.size() < 5) problems.add(e.getKey() + " sent " + e.getValue() + ", its seat holds " + (seat == null ? "nothing" : Jackson.write(seat.chapters())));
            }
        }
        server.get().stop(0);
        return new Run(laptops, length.toSeconds() / 60.0, scale, posts.get(), answered.get(), unreachable.get(), refused.get(), races.get(),
                pages.get(), pageMax.get(), millis(answerMicros, 50), millis(answerMicros, 99), millis(answerMicros, 100),
                heap.getFirst(), heap.getLast(), heap.stream().mapToLong(Long::longValue).max().orElse(0), restartSeconds[0], lost,
                new ArrayList<>(problems));
    }

    private static void send(String url, String name, ObjectNode handin, Map<String, String> tokens, AtomicInteger posts, AtomicInteger answered,
                             AtomicInteger unreachable, AtomicInteger refused, List<Long> answerMicros, List<String> problems) {
        posts.incrementAndGet();
        long started = System.nanoTime();
        try {
            RoomLink.Answer a = RoomLink.post(url, RoomTest.CODE, name, tokens.get(name), handin.toString(), Duration.ofSeconds(5));
            answerMicros.add((System.nanoTime() - started) / 1000);
            if (a.token() != null) tokens.putIfAbsent(name, a.token());
            if (a.status() == 200) {
                answered.incrementAndGet();
            } else {
                refused.incrementAndGet();
                if (problems.size() < 5) problems.add(name + ": " + a.status() + " " + a.text());
            }
        } catch (IOException e) {
            unreachable.incrementAndGet(); // the room restarting: the next grading sends it all again
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static HttpServer startAgain(Path root, RoomServer.Settings settings, int port) throws Exception {
        for (int i = 0; ; i++) {
            try {
                return RoomServer.start(root, settings, "127.0.0.1", port);
            } catch (BindException e) {
                if (i > 50) throw e;
                Thread.sleep(100);
            }
        }
    }

    private static long millis(long realMillis, double scale) {
        return Math.max(1, Math.round(realMillis * scale));
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The p-th percentile of {@code micros} (Stats.percentile, the race's definition), in ms to a tenth. */
    private static double millis(List<Long> micros, double p) {
        return Math.round(Stats.percentile(List.copyOf(micros), p) / 100.0) / 10.0;
    }

    private static long heapAfterGc() {
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }


    /** The file the guide's figures come from: the run, and how it was made. */
    static void write(Path root, Run run, String command) throws IOException {
        Map<String, Object> file = new LinkedHashMap<>();
        file.put("about", "The live room under a day's load (scripts/test/RoomLoad.java): laptops hand in a grading every 20 to 40 s and a race every"
                + " 3 to 5 minutes, a projector fetches the page every 10 s, and the room is stopped and started again halfway; then every laptop"
                + " sends once more and each seat must hold what its laptop last sent (lost: those that do not). Room, laptops and projector in one"
                + " JVM on loopback; heapAfterGc is that JVM's heap after a full GC, sampled ten times. Times in ms, sizes in bytes.");
        file.put("command", command);
        file.put("machine", Runtime.getRuntime().availableProcessors() + " CPUs, Java " + Runtime.version() + ", " + System.getProperty("os.name")
                + " " + System.getProperty("os.version"));
        file.put("date", Instant.now().toString().substring(0, 10));
        file.put("run", run);
        Files.writeString(root.resolve("site/measured/room-load.json"), Jackson.write(file) + "\n", StandardCharsets.UTF_8);
    }

    static String describe(Run r) {
        return String.format(Locale.ROOT, "%d laptops, %.1f min (times x%.3f): %d posts, %d answered, %d unreachable (restart %.1f s), %d refused, %d races,"
                        + " %d pages (largest %d KiB), answers p50 %.1f ms p99 %.1f ms max %.1f ms, heap after GC %d -> %d MiB (max %d), lost %d%s",
                r.laptops(), r.minutes(), r.scale(), r.posts(), r.answered(), r.unreachable(), r.restartSeconds(), r.refused(), r.races(), r.pages(),
                r.pageBytesMax() / 1024, r.answerMsP50(), r.answerMsP99(), r.answerMsMax(), r.heapAfterGcFirstBytes() >> 20,
                r.heapAfterGcLastBytes() >> 20, r.heapAfterGcMaxBytes() >> 20, r.lost(), r.problems().isEmpty() ? "" : "; " + r.problems());
    }
}
