package test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import lib.Jackson;
import room.Cutoffs;
import room.Guesses;
import room.Room;
import room.RoomLink;
import room.RoomServer;

/**
 * The room's limits, which keep it up for the learners it has (RoomTest runs these): hand-ins
 * trickling a byte a second, and an address with too many in flight; a room on the Wi-Fi with
 * its code, its names per laptop and {@code room remove}; a room that trickles its answer; a
 * day's load, twenty times faster; a flood of made-up names, and the page at 30 learners' largest.
 */
final class RoomLimitsTests {
    private RoomLimitsTests() {}

    /**
     * Twelve connections that send a hand-in's head and then a byte a second (more than the
     * room's turns) do not hold up a real hand-in, and the room cuts each off; one address with
     * {@link RoomServer#PER_ADDRESS} hand-ins in flight is told 429 for the next.
     */
    static void slowBodies() throws Exception {
        Path dir = Files.createTempDirectory("room-slow");
        HttpServer server = RoomServer.start(RoomTest.root, new RoomServer.Settings(dir, RoomTest.CODE, RoomTest.VIEW), "127.0.0.1", 0);
        int port = server.getAddress().getPort();
        String url = "http://127.0.0.1:" + port;
        List<java.net.Socket> slow = new ArrayList<>();
        List<String> told = new java.util.concurrent.CopyOnWriteArrayList<>();
        Cutoffs.install(told::add);
        try {
            for (int i = 0; i < 3 * RoomServer.AT_ONCE / 2; i++) slow.add(trickle(port, "slow-" + i));
            Thread dripping = Thread.ofVirtual().start(() -> {
                for (int second = 0; second < 15; second++) {
                    for (java.net.Socket s : slow) {
                        try {
                            s.getOutputStream().write('x');
                        } catch (java.io.IOException e) {
                            // cut off by the room
                        }
                    }
                    try {
                        Thread.sleep(1000);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
            Thread.sleep(500);
            long started = System.nanoTime();
            int status = RoomTest.post(url, "quick", RoomTest.handin("quick", Map.of("01", 1)).toString(), RoomTest.CODE).statusCode();
            double seconds = (System.nanoTime() - started) / 1e9;
            int cut = 0;
            for (java.net.Socket s : slow) {
                s.setSoTimeout((RoomTest.SLOW_CUTOFF_SECONDS + 8) * 1000);
                try {
                    if (s.getInputStream().read() == -1) cut++;
                } catch (java.net.SocketTimeoutException e) {
                    // still open: not cut
                } catch (java.io.IOException e) {
                    cut++; // reset
                }
            }
            dripping.interrupt();
            RoomTest.outcomes.record(String.format(java.util.Locale.ROOT, "%d hand-ins trickling a byte a second hold up no one (a real one taken in %.1f s), and the room cuts each off", slow.size(), seconds),
                    status == 200 && seconds < 5 && cut == slow.size(), "the real hand-in answered " + status + " after " + seconds + " s; " + cut + " of " + slow.size() + " cut off");
            RoomTest.outcomes.record("the room's terminal says when it cuts off a request not sent in full in time, once a minute at most",
                    told.size() == 1 && told.getFirst().contains("not sent in full within " + RoomTest.SLOW_CUTOFF_SECONDS + " s"), "said " + told);

            // One address, as many hand-ins in flight as it may have: the next is told to wait.
            slow.forEach(RoomLimitsTests::closeQuietly);
            slow.clear();
            var before = RoomServer.limited;
            RoomServer.limited = a -> true; // loopback stands for a learner's laptop here
            try {
                for (int i = 0; i < RoomServer.PER_ADDRESS; i++) slow.add(trickle(port, "busy-" + i));
                Thread.sleep(500);
                HttpResponse<String> more = RoomTest.post(url, "busy-more", RoomTest.handin("busy-more", Map.of("01", 1)).toString(), RoomTest.CODE);
                RoomTest.outcomes.record("one address with " + RoomServer.PER_ADDRESS + " hand-ins in flight is told 429 for the next, with a sentence",
                        more.statusCode() == 429 && more.body().contains("too many hand-ins at once"), more.statusCode() + " " + more.body());
            } finally {
                RoomServer.limited = before;
            }
        } finally {
            slow.forEach(RoomLimitsTests::closeQuietly);
            server.stop(0);
        }
    }

    /** A connection that has sent a hand-in's head (a body of 100,000 bytes to come) and one byte of it. */
    static java.net.Socket trickle(int port, String name) throws java.io.IOException {
        java.net.Socket s = new java.net.Socket("127.0.0.1", port);
        s.getOutputStream().write(("POST /handin?name=" + name + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + RoomLink.CODE_HEADER + ": " + RoomTest.CODE
                + "\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{").getBytes(StandardCharsets.US_ASCII));
        s.getOutputStream().flush();
        return s;
    }

    static void closeQuietly(java.net.Socket s) {
        try {
            s.close();
        } catch (java.io.IOException e) {
            // closing anyway
        }
    }

    /**
     * A room on the Wi-Fi: it always has a learners' code (one it makes and keeps when none is
     * given); one address takes at most {@link RoomServer#NAMES_PER_ADDRESS} new names; and
     * {@code room remove NAME} takes a seat off the page.
     */
    static void wifi() throws Exception {
        Path fresh = Files.createTempDirectory("room-code");
        String none = RoomServer.learnerCode(fresh, null, false);
        String made = RoomServer.learnerCode(fresh, null, true);
        String kept = RoomServer.learnerCode(fresh, null, false);
        String permissions = java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(fresh.resolve(".code")));
        String given = RoomServer.learnerCode(fresh, "tulip-rain-41", true);
        String keptGiven = RoomServer.learnerCode(fresh, null, true);
        RoomServer.learnerCode(fresh, "tulip", false); // a short code, fine for a room on this machine only
        String beyondShort = RoomServer.learnerCode(fresh, null, true);
        RoomTest.outcomes.record("a room beyond this machine always has a learners' code of 8 or more characters: one it makes and keeps in its folder, owner-only, when none is given; a short one kept for loopback is not taken beyond",
                none == null && made != null && made.length() >= 8 && made.equals(kept) && permissions.equals("rw-------")
                        && "tulip-rain-41".equals(given) && "tulip-rain-41".equals(keptGiven) && beyondShort.length() >= 8 && !beyondShort.equals("tulip"),
                "none " + none + ", made " + made + ", kept " + kept + " (" + permissions + "), given " + given + ", then beyond after a short one " + beyondShort);

        RoomTest.outcomes.record("room serve refuses a short learners' code for a room on the network, in one sentence, and takes it on this machine",
                RoomServer.weakCode("tulip", true) != null && RoomServer.weakCode("tulip", true).contains("8 to 64")
                        && RoomServer.weakCode("tulip", false) == null && RoomServer.weakCode("tulip-rain-41", true) == null && RoomServer.weakCode(null, true) == null,
                String.valueOf(RoomServer.weakCode("tulip", true)));

        // Wrong codes, counted by address over a minute.
        List<String> said = new ArrayList<>();
        Guesses guesses = new Guesses(said::add);
        java.net.InetAddress guesser = java.net.InetAddress.getByName("10.0.0.7");
        java.time.Instant t0 = java.time.Instant.parse("2026-11-28T10:00:00Z");
        for (int i = 0; i < Guesses.PER_MINUTE - 1; i++) guesses.wrong(guesser, t0.plusSeconds(i));
        boolean notYet = !guesses.refused(guesser, t0.plusSeconds(20));
        guesses.wrong(guesser, t0.plusSeconds(20));
        boolean refusedNow = guesses.refused(guesser, t0.plusSeconds(21));
        boolean freeLater = !guesses.refused(guesser, t0.plusSeconds(61)); // the first two fell out of the minute
        RoomTest.outcomes.record("an address is refused once it gave " + Guesses.PER_MINUTE + " wrong codes within a minute, and free again as they age; the room says so",
                notYet && refusedNow && freeLater && said.contains("a wrong code from 10.0.0.7") && said.stream().anyMatch(l -> l.endsWith("refused for a minute")),
                "not yet " + notYet + ", refused " + refusedNow + ", free later " + freeLater + "; said " + said);

        Path dir = Files.createTempDirectory("room-wifi");
        HttpServer server = RoomServer.start(RoomTest.root, new RoomServer.Settings(dir, RoomTest.CODE, RoomTest.VIEW), "127.0.0.1", 0);
        String url = "http://127.0.0.1:" + server.getAddress().getPort();
        var before = RoomServer.limited;
        RoomServer.limited = a -> true; // loopback stands for one laptop on the Wi-Fi
        try {
            List<Integer> statuses = new ArrayList<>();
            for (int i = 1; i <= RoomServer.NAMES_PER_ADDRESS + 1; i++) {
                statuses.add(RoomTest.post(url, "junk-" + i, RoomTest.handin("junk-" + i, Map.of("01", 1)).toString(), RoomTest.CODE).statusCode());
            }
            HttpResponse<String> again = RoomTest.post(url, "junk-1", RoomTest.handin("junk-1", Map.of("01", 0)).toString(), RoomTest.CODE);
            RoomTest.outcomes.record("one laptop takes at most " + RoomServer.NAMES_PER_ADDRESS + " names (the next is told 429), and hands in under them as before",
                    statuses.subList(0, RoomServer.NAMES_PER_ADDRESS).stream().allMatch(x -> x == 200) && statuses.getLast() == 429
                            && again.statusCode() == 200 && !Files.exists(dir.resolve("junk-4.json")), statuses + ", then junk-1 again: " + again.statusCode());
            // Guessing: wrong codes from this laptop, learners' and viewer's; then even the right code is refused for a minute.
            List<Integer> guessed = new ArrayList<>();
            for (int i = 0; i < Guesses.PER_MINUTE - 1; i++) {
                guessed.add(RoomTest.post(url, "junk-1", RoomTest.handin("junk-1", Map.of("01", 0)).toString(), "guess-" + i).statusCode());
            }
            guessed.add(RoomTest.get(url + "/?view=guess-view", null).statusCode());
            HttpResponse<String> right = RoomTest.post(url, "junk-1", RoomTest.handin("junk-1", Map.of("01", 0)).toString(), RoomTest.CODE);
            HttpResponse<String> view = RoomTest.get(url + "/?view=" + RoomTest.VIEW, null);
            RoomTest.probes.put("guess", RoomTest.figures("wrongCodesAnswered", guessed.size(), "thenRightCode", right.statusCode(),
                    "madeCodeChoices", (long) Math.pow(31, RoomServer.newViewCode().length())));
            RoomTest.outcomes.record("a laptop that gave " + Guesses.PER_MINUTE + " wrong codes in a minute (learners' or viewer's) is refused, right code or not, with a sentence",
                    guessed.stream().limit(Guesses.PER_MINUTE - 1).allMatch(x -> x == 403) && guessed.getLast() == 401
                            && right.statusCode() == 429 && right.body().contains("too many wrong codes") && view.statusCode() == 429,
                    guessed + ", then the right code " + right.statusCode() + " " + right.body() + ", the viewer's " + view.statusCode());
        } finally {
            RoomServer.limited = before;
        }
        try {
            Room.remove(dir, "junk-2");
            String page = RoomTest.get(url + "/", RoomTest.viewerCookie(dir)).body();
            RoomTest.outcomes.record("room remove NAME takes its seat and its owner off the room", !page.contains("junk-2") && page.contains("junk-1")
                    && !Files.exists(dir.resolve("junk-2.json")) && !Files.exists(RoomServer.owner(dir, "junk-2")), "the page still shows junk-2, or its files stay");
            RoomTest.outcomes.record("the room's page counts the wrong codes", page.contains("Wrong codes: " + Guesses.PER_MINUTE + " wrong code(s)"),
                    page.substring(0, Math.min(page.length(), 1200)));
        } finally {
            server.stop(0);
        }
    }

    /** A room that sends its answer's head and then a byte a second holds the learner's send no longer than its timeout. */
    static void tricklingRoom() throws Exception {
        try (java.net.ServerSocket listening = new java.net.ServerSocket(0, 8, java.net.InetAddress.getLoopbackAddress())) {
            Thread room = Thread.ofVirtual().start(() -> {
                try (java.net.Socket s = listening.accept()) {
                    java.io.InputStream in = s.getInputStream();
                    byte[] buffer = new byte[8192];
                    in.read(buffer); // the hand-in (small): then the answer, slowly
                    s.getOutputStream().write("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                    for (int i = 0; i < 30; i++) {
                        s.getOutputStream().write('x');
                        s.getOutputStream().flush();
                        Thread.sleep(1000);
                    }
                } catch (Exception e) {
                    // the learner's side gave up: done
                }
            });
            String url = "http://127.0.0.1:" + listening.getLocalPort() + "/";
            long started = System.nanoTime();
            var send = new java.util.concurrent.FutureTask<String>(() -> {
                try {
                    return "answered " + RoomLink.post(url, RoomTest.CODE, "ada", null, "{}", Duration.ofSeconds(2));
                } catch (java.io.IOException e) {
                    return "gave up: " + RoomLink.why(e);
                }
            });
            Thread.ofVirtual().start(send);
            String what;
            try {
                what = send.get(15, java.util.concurrent.TimeUnit.SECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                what = "still waiting after 15 s";
            }
            double seconds = (System.nanoTime() - started) / 1e9;
            room.interrupt();
            RoomTest.outcomes.record(String.format(java.util.Locale.ROOT, "a room that trickles its answer holds the learner's send no longer than its timeout (2 s; gave up after %.1f s)", seconds),
                    what.startsWith("gave up") && seconds < 6, what);
        }
    }

    /**
     * A day in the room, twenty times faster ({@link RoomLoad}): 60 laptops, a grading every 1 to
     * 2 s each, a race every 9 to 15 s, the page every half second, a restart halfway; every
     * hand-in answered but those sent while the room restarted, none lost, the page under its
     * cap, the heap flat.
     */
    static void dayInTheRoom() throws Exception {
        RoomLoad.Run r = RoomLoad.run(RoomTest.root, RoomServer.MAX_LEARNERS, Duration.ofSeconds(40), 0.05);
        long growth = r.heapAfterGcLastBytes() - r.heapAfterGcFirstBytes();
        RoomTest.outcomes.record("a day in the room, twenty times faster: " + r.laptops() + " laptops, " + r.posts() + " hand-ins and " + r.races()
                        + " races, a restart halfway: none lost, none refused, the page under " + RoomTest.PAGE_LIMIT / 1024 + " KiB, the heap flat",
                r.lost() == 0 && r.refused() == 0 && r.answered() + r.unreachable() == r.posts() && r.unreachable() <= 2 * r.laptops()
                        && r.pages() > 0 && r.pageBytesMax() < RoomTest.PAGE_LIMIT && growth < 64L << 20 && r.posts() > 10 * r.laptops(),
                RoomLoad.describe(r));
    }

    /**
     * A room of 30 learners at their largest real hand-ins (every chapter graded with every check
     * failing, and raced on every workload), under a flood of made-up names: the learner cap holds,
     * and the page stays under {@link RoomTest#PAGE_LIMIT}.
     */
    static void flood() throws Exception {
        Path dir = Files.createTempDirectory("room-flood");
        HttpServer server = RoomServer.start(RoomTest.root, new RoomServer.Settings(dir, RoomTest.CODE, RoomTest.VIEW, 40, 10, null), "127.0.0.1", 0);
        String url = "http://127.0.0.1:" + server.getAddress().getPort();
        try {
            Map<String, Integer> all = new java.util.LinkedHashMap<>();
            RoomTest.known.checks().forEach((chapter, checks) -> all.put(chapter, checks.size()));
            ObjectNode largest = RoomTest.handin("x", all);
            JsonNode reference = Jackson.tree(Files.readString(RoomTest.root.resolve("site/static/bench/reference.json")));
            for (String chapter : RoomTest.known.chapters().keySet()) largest.withArray("bench").add(RoomTest.chapterRace(reference, chapter));
            int bytes = largest.toString().getBytes(StandardCharsets.UTF_8).length;
            RoomTest.outcomes.record("the largest real hand-in (" + bytes / 1024 + " KiB) fits under the cap of " + RoomServer.MAX_BYTES / 1024 + " KiB",
                    bytes < RoomServer.MAX_BYTES, bytes + " bytes");
            List<Future<Integer>> real = new ArrayList<>(), made = new ArrayList<>();
            try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
                for (int i = 1; i <= 30; i++) {
                    String name = "learner-" + i;
                    String body = largest.deepCopy().put("learner", name).toString();
                    real.add(pool.submit(() -> RoomTest.post(url, name, body, RoomTest.CODE).statusCode()));
                }
                for (int i = 1; i <= 200; i++) {
                    String name = "flood-" + i;
                    String body = RoomTest.handin(name, Map.of("01", 3)).toString();
                    made.add(pool.submit(() -> RoomTest.post(url, name, body, RoomTest.CODE).statusCode()));
                }
            }
            long realTaken = real.stream().filter(f -> f.resultNow() == 200).count();
            long madeTaken = made.stream().filter(f -> f.resultNow() == 200).count();
            long full = made.stream().filter(f -> f.resultNow() == 503).count();
            long owners;
            try (Stream<Path> s = Files.list(dir.resolve(".owners"))) {
                owners = s.count();
            }
            RoomTest.outcomes.record("under a flood of 200 made-up names, the room takes at most its 40 and says 'full' to the rest",
                    owners <= 40 && RoomTest.files(dir) <= 40 && realTaken + madeTaken <= 40 && full == 200 - madeTaken,
                    owners + " names, " + RoomTest.files(dir) + " seats, " + realTaken + " real and " + madeTaken + " made-up taken, " + full + " told full");
            // The 30 at their largest, alone.
            Path thirty = Files.createTempDirectory("room-thirty");
            HttpServer quiet = RoomServer.start(RoomTest.root, new RoomServer.Settings(thirty, RoomTest.CODE, RoomTest.VIEW), "127.0.0.1", 0);
            try {
                String at = "http://127.0.0.1:" + quiet.getAddress().getPort();
                long ok = 0;
                for (int i = 1; i <= 30; i++) {
                    String name = "learner-" + i;
                    ObjectNode h = largest.deepCopy();
                    h.put("learner", name);
                    if (RoomTest.post(at, name, h.toString(), RoomTest.CODE).statusCode() == 200) ok++;
                }
                String page = RoomTest.get(at + "/", RoomTest.viewerCookie(thirty)).body();
                int size = page.getBytes(StandardCharsets.UTF_8).length;
                RoomTest.outcomes.record("with 30 learners at their largest real hand-ins, the page is " + size / 1024 + " KiB, under "
                        + RoomTest.PAGE_LIMIT / 1024 + " KiB", ok == 30 && size < RoomTest.PAGE_LIMIT && page.contains("30 learner(s)"), ok + " taken, " + size + " bytes");
            } finally {
                quiet.stop(0);
            }
        } finally {
            server.stop(0);
        }
    }
}
