///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
//DEPS com.fasterxml.jackson.core:jackson-databind:2.22.4
//SOURCES ../room/Room.java ../lib/Outcomes.java ../lib/Results.java Trees.java Commands.java RoomLoad.java

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

/**
 * The live room (scripts/room/RoomServer.java), in this process on loopback: 30 learners post at
 * once; a name stays with the laptop that took it; what the course does not know is ignored;
 * times are the room's; the caps hold under a flood with the page under {@link #PAGE_LIMIT};
 * only the viewer code opens the page; a restart keeps every seat and owner. Usage: RoomTest
 * ROOT. One ok/FAIL line per test, then "N passed, N failed".
 */
class RoomTest {
    static final Outcomes outcomes = new Outcomes("room: ");
    static final String CODE = "sesame";
    static final String VIEW = "viewer-test";
    /** The page, for 30 learners at their largest real hand-ins, stays under this. */
    static final int PAGE_LIMIT = 400 * 1024;
    static final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    static Known known;
    static Path root;
    /** Each learner's token, as their copy of the course keeps it. */
    static final Map<String, String> tokens = new ConcurrentHashMap<>();

    public static void main(String[] args) throws Exception {
        root = Path.of(args.length > 0 ? args[0] : ".").toAbsolutePath().normalize();
        // A request not read in full is cut off after 3 s here (20 s in a real room), so the slow-body case ends soon.
        System.setProperty(RoomServer.REQUEST_TIME_PROPERTY, String.valueOf(SLOW_CUTOFF_SECONDS));
        known = Known.of(root);
        int load = List.of(args).indexOf("--load");
        if (load >= 0) { // the full run, for the guide's figures
            double minutes = Double.parseDouble(args[load + 1]);
            RoomLoad.Run run = RoomLoad.run(root, RoomServer.MAX_LEARNERS, Duration.ofSeconds(Math.round(minutes * 60)), 1.0);
            RoomLoad.write(root, run, "jbang scripts/test/RoomTest.java . --load " + args[load + 1]);
            System.out.println("room load: " + RoomLoad.describe(run) + "\nroom load: written to site/measured/room-load.json");
            System.exit(run.lost() == 0 && run.refused() == 0 ? 0 : 1);
        }
        String first01 = known.checks().get("01").keySet().iterator().next();
        Path dir = Files.createTempDirectory("room-test");
        HttpServer server = RoomServer.start(root, new RoomServer.Settings(dir, CODE, VIEW), "127.0.0.1", 0);
        String url = "http://127.0.0.1:" + server.getAddress().getPort();
        try {
            // Thirty learners at once, each failing a different number of chapter 01's checks.
            List<Future<Integer>> posts = new ArrayList<>();
            try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
                for (int i = 1; i <= 30; i++) {
                    String name = "learner-" + i;
                    String body = handin(name, Map.of("01", i % 3)).toString();
                    posts.add(pool.submit(() -> post(url, name, body, CODE).statusCode()));
                }
            }
            long accepted = posts.stream().filter(f -> f.resultNow() == 200).count();
            outcomes.record("30 learners posting at once are all taken, each given a token", accepted == 30 && tokens.size() == 30,
                    accepted + " answered 200, " + tokens.size() + " tokens");
            outcomes.record("each is kept as its own seat", files(dir) == 30, files(dir) + " files in " + dir);

            // Only the viewer code opens the page.
            expect(get(url + "/", null), 401, "the page without the viewer code");
            expect(get(url + "/summary", null), 401, "the page's updates without the viewer code");
            expect(get(url + "/?view=" + CODE, null), 401, "the page with the learners' code");
            HttpResponse<String> in = get(url + "/?view=" + VIEW, null);
            String cookie = in.headers().firstValue("Set-Cookie").orElse("").split(";")[0];
            outcomes.record("the viewer code sets a cookie and sends the screen to /, out of the address bar",
                    in.statusCode() == 303 && cookie.equals(viewerCookie(dir)) && !cookie.contains(VIEW) && in.headers().firstValue("Location").orElse("").equals("/"),
                    "answered " + in.statusCode() + ", cookie '" + cookie + "'");

            String page = get(url + "/", cookie).body();
            outcomes.record("the page shows the 30 learners, and updates itself in place", page.contains("30 learner(s)")
                    && page.contains("fetch(\"summary\"") && page.contains("<noscript><meta http-equiv=\"refresh\"")
                    && page.split("http-equiv").length == 2,
                    "page: " + page.substring(0, Math.min(300, page.length())));
            String title = known.title("01", first01);
            outcomes.record("the page names the check most of the room is stuck on by its title, and folds each learner's failing checks",
                    page.contains("Most stuck on") && page.contains(Summary.esc(title) + " (20 learner(s))")
                            && page.contains("<summary>2 to fix</summary>") && page.contains("data-key=\"learner-2/01\""),
                    "no '" + title + " (20 learner(s))' or folded list");
            outcomes.record("the page shows who is stuck on which check, since when", page.contains("<h2>Stuck</h2>")
                    && page.contains("First failing check") && page.contains("1 grading(s)"), "no Stuck table");
            String body = get(url + "/summary", cookie).body();
            outcomes.record("/summary is the page's body alone, for the page to put in place", body.contains("30 learner(s)")
                    && !body.contains("<html") && !body.contains("<script"), body.substring(0, Math.min(200, body.length())));

            // A name stays with the laptop that took it; case does not make another name.
            String token1 = tokens.get("learner-1");
            String again = handin("learner-1", Map.of("01", 0)).toString();
            expect(post(url, "learner-1", again, CODE, null), 409, "another laptop (no token) handing in as learner-1");
            expect(post(url, "learner-1", again, CODE, "not-the-token"), 409, "another laptop (a wrong token) handing in as learner-1");
            expect(post(url, "Learner-1", handin("Learner-1", Map.of("01", 0)).toString(), CODE, null), 409,
                    "another laptop handing in as Learner-1 (learner-1 in another case)");
            HttpResponse<String> own = post(url, "Learner-1", handin("Learner-1", Map.of("01", 0)).toString(), CODE, token1);
            outcomes.record("the laptop that took learner-1 hands in again, in any case, to the same seat",
                    own.statusCode() == 200 && files(dir) == 30 && Files.exists(dir.resolve("learner-1.json")), own.statusCode() + ", " + files(dir) + " files");
            Room.free(dir, "learner-1");
            HttpResponse<String> taken = post(url, "learner-1", again, CODE, null);
            String token1b = taken.headers().firstValue(RoomLink.TOKEN_HEADER).orElse(null);
            outcomes.record("after jbang room free learner-1, a new laptop takes the name, and the old token no longer counts",
                    taken.statusCode() == 200 && token1b != null && post(url, "learner-1", again, CODE, token1).statusCode() == 409,
                    "answered " + taken.statusCode());
            tokens.put("learner-1", token1b);

            // What the course does not know is ignored: chapters, checks, workloads, verdicts.
            ObjectNode sly = handin("sly", Map.of("01", 1));
            ObjectNode made = (ObjectNode) sly.withArray("checks").get(0).deepCopy();
            made.put("chapter", "99").put("title", "<i>Chapter 99</i>");
            ((ArrayNode) sly.withArray("checks")).add(made);
            ((ObjectNode) sly.withArray("checks").get(0).withArray("checks").get(0)).put("id", "ch01.madeUp").put("name", "<script>alert(1)</script>");
            ((ArrayNode) sly.withArray("checks").get(0).withArray("checks")).add(check("ch01.alsoMadeUp", true, "<b>bold</b>"));
            sly.withArray("bench").add(race("03", "made-up-workload", "<b>soon</b>"));
            HttpResponse<String> slyAnswer = post(url, "sly", sly.toString(), CODE);
            String after = get(url + "/", cookie).body();
            Seat slySeat = Jackson.read(Files.readString(dir.resolve("sly.json")), Seat.class);
            outcomes.record("a made-up chapter, check, workload or verdict is ignored: no heading, column, cell or row of its own",
                    slyAnswer.statusCode() == 200 && !after.contains("Chapter 99") && !after.contains("madeUp") && !after.contains("alsoMadeUp")
                            && !after.contains("made-up-workload") && !after.contains("soon") && !after.contains("<script>alert")
                            && !after.contains("&lt;script&gt;") && slySeat.chapters().keySet().equals(java.util.Set.of("01"))
                            && slySeat.races().getOrDefault("03", Map.of()).keySet().equals(java.util.Set.of("hello")),
                    "the page or sly's seat holds something made up: " + Jackson.write(slySeat));

            // A race measured while other processes were busy (bench.sh's Others) is marked so in its cell; others are not.
            ObjectNode busyRace = race("03", "made-up-workload", "same");
            ((ObjectNode) busyRace.withArray("workloads").get(0).withArray("results").get(0).get("ratio"))
                    .put("busy", "the machine was busy during 2 of 3 turns: other processes used up to 0.9 of a core");
            ObjectNode bea = handin("bea", Map.of("01", 1));
            bea.withArray("bench").add(busyRace);
            HttpResponse<String> beaAnswer = post(url, "bea", bea.toString(), CODE);
            String marked = get(url + "/", cookie).body();
            Seat beaSeat = Jackson.read(Files.readString(dir.resolve("bea.json")), Seat.class);
            outcomes.record("a race measured on a busy machine shows 'busy machine' in its cell, and no other race does",
                    beaAnswer.statusCode() == 200 && !after.contains("busy machine") && marked.contains("busy machine")
                            && Boolean.TRUE.equals(beaSeat.races().get("03").get("hello").busy())
                            && slySeat.races().get("03").get("hello").busy() == null,
                    "answered " + beaAnswer.statusCode() + "; bea's seat " + Jackson.write(beaSeat));

            // A smoke race (bench.sh --smoke) measures nothing: it never reaches the room.
            ObjectNode smoke = race("03", "made-up-workload", "noisy");
            smoke.putObject("methodology").put("mode", "smoke");
            ObjectNode cyd = handin("cyd", Map.of("01", 1));
            cyd.withArray("bench").add(smoke);
            HttpResponse<String> cydAnswer = post(url, "cyd", cyd.toString(), CODE);
            Seat cydSeat = Jackson.read(Files.readString(dir.resolve("cyd.json")), Seat.class);
            outcomes.record("a smoke race never reaches the room: the seat holds no race", cydAnswer.statusCode() == 200
                    && cydSeat.races().isEmpty(), "answered " + cydAnswer.statusCode() + "; cyd's seat " + Jackson.write(cydSeat));

            // Stuck is the earliest step of the page whose checks fail, not the grader's first failure: in 03, the closing
            // step's Connection: close check runs before "40 pipelined requests", whose step (reading requests) comes first.
            ObjectNode dot = handin("dot", Map.of("03", 0));
            for (JsonNode c : dot.withArray("checks").get(0).withArray("checks")) {
                String id = c.path("id").asText();
                if (id.equals("protocol.connectionClose") || id.equals("ch03.manyPipelined")) ((ObjectNode) c).put("status", "fail");
            }
            ((ObjectNode) dot.withArray("checks").get(0)).put("failed", 2).put("exit", 1);
            post(url, "dot", dot.toString(), CODE);
            Seat dotSeat = Jackson.read(Files.readString(dir.resolve("dot.json")), Seat.class);
            outcomes.record("stuck is the earliest step of the page whose checks fail (03: reading requests before closing)",
                    "ch03.manyPipelined".equals(dotSeat.chapters().get("03").stuckOn())
                            && dotSeat.chapters().get("03").failing().equals(List.of("ch03.manyPipelined", "protocol.connectionClose")),
                    "dot's seat " + Jackson.write(dotSeat));

            // A half day's room (--day half-day): its chapters only, and 05 done once the checks of its core TODOs pass.
            Known half = known.forDay("half-day");
            String now = Instant.now().toString();
            Seat.Graded later = new Seat.Graded(24, 2, false, List.of("ch05.idleTimeout", "ch05.slowLoris"), null, now, "ch05.idleTimeout", now, 1, now);
            Seat.Graded core = new Seat.Graded(25, 1, false, List.of("ch05.limit"), null, now, "ch05.limit", now, 1, now);
            String dayPage = Summary.body(half, List.of(Jackson.read(Files.readString(dir.resolve("dot.json")), Seat.class)), Instant.now(), 0, List.of());
            outcomes.record("--day half-day: the day's chapters (03, 05), and 05 done with only TODO(timeouts)'s checks left, not with TODO(limit)'s",
                    half.shown().equals(List.of("03", "05")) && half.done("05", later) && !known.done("05", later) && !half.done("05", core)
                            && dayPage.contains("half-day agenda") && dayPage.contains("of 2</td>") && !dayPage.contains("of 7</td>"),
                    "shown " + half.shown() + "; " + dayPage);
            boolean refused = false;
            try {
                known.forDay("all-week");
            } catch (IllegalArgumentException e) {
                refused = e.getMessage().contains("half-day");
            }
            outcomes.record("an agenda the registry does not have is refused, naming those it has", refused, "all-week was taken");

            // The room's clock, not the learner's.
            ObjectNode future = handin("zed", Map.of("01", 1));
            future.put("time", "2099-01-01T00:00:00Z");
            ((ObjectNode) future.withArray("checks").get(0)).put("time", "2099-01-01T00:00:00Z");
            Instant before = Instant.now();
            post(url, "zed", future.toString(), CODE);
            Seat zed = Jackson.read(Files.readString(dir.resolve("zed.json")), Seat.class);
            Instant since = Instant.parse(zed.chapters().get("01").since());
            outcomes.record("a hand-in stamped 2099 counts as received now, by the room's clock", !zed.receivedAt().isBefore(before)
                    && zed.receivedAt().isBefore(Instant.now().plusSeconds(1)) && !since.isBefore(before) && since.isBefore(Instant.now().plusSeconds(1)),
                    "received " + zed.received() + ", stuck since " + since);

            // Stuck since: the same first failing check keeps its time; another starts a new one.
            post(url, "zed", handin("zed", Map.of("01", 1)).toString(), CODE);
            Seat zed2 = Jackson.read(Files.readString(dir.resolve("zed.json")), Seat.class);
            ObjectNode moved = handin("zed", Map.of("01", 2));
            ((ObjectNode) moved.withArray("checks").get(0).withArray("checks").get(0)).put("status", "pass");
            post(url, "zed", moved.toString(), CODE);
            Seat zed3 = Jackson.read(Files.readString(dir.resolve("zed.json")), Seat.class);
            outcomes.record("a grading that fails the same first check keeps its 'since' and counts; a new first failing check starts again",
                    zed2.chapters().get("01").since().equals(zed.chapters().get("01").since()) && zed2.chapters().get("01").gradings() == 2
                            && zed3.chapters().get("01").gradings() == 1 && !zed3.chapters().get("01").stuckOn().equals(first01),
                    "gradings " + zed2.chapters().get("01").gradings() + " then " + zed3.chapters().get("01").gradings());

            // Where a learner is: of two chapters handed in at once, the one their grader ran last.
            ObjectNode two = handin("yan", new java.util.TreeMap<>(Map.of("01", 1, "03", 1)));
            ((ObjectNode) two.withArray("checks").get(0)).put("time", "2026-01-01T10:00:00Z");
            ((ObjectNode) two.withArray("checks").get(1)).put("time", "2026-01-01T11:00:00Z");
            post(url, "yan", two.toString(), CODE);
            String where = get(url + "/summary", cookie).body();
            String first03 = known.checks().get("03").keySet().iterator().next();
            outcomes.record("the Stuck table shows a learner at the chapter they graded last", where.contains("<tr><td>yan</td><td>03</td>")
                    && where.contains(first03), "no row 'yan, 03'");

            // A copy of the course that joined the room sends each result it saves, by itself.
            Path learner = Files.createTempDirectory("room-learner");
            RoomLink.join(learner, new RoomLink.Joined(url + "/", CODE, "Auto", null));
            String report = handin("auto", Map.of("01", 2)).get("checks").get(0).toString();
            long start = System.nanoTime();
            Results.write(learner, "checks", "01", report);
            long returnedMs = (System.nanoTime() - start) / 1_000_000;
            Path autoSeat = dir.resolve("auto.json");
            for (int i = 0; i < 100 && !Files.exists(autoSeat); i++) Thread.sleep(100);
            outcomes.record("a grading saved in a copy that joined the room reaches the room by itself, without waiting for it",
                    Files.exists(autoSeat) && returnedMs < 1000, "after 10 s no seat for Auto; the save took " + returnedMs + " ms");
            for (int i = 0; i < 50 && RoomLink.joined(learner).token() == null; i++) Thread.sleep(100);
            Results.write(learner, "checks", "03", handin("auto", Map.of("03", 1)).get("checks").get(0).toString());
            boolean both = false;
            for (int i = 0; i < 100 && !both; i++) {
                Thread.sleep(100);
                both = Jackson.read(Files.readString(autoSeat), Seat.class).chapters().containsKey("03");
            }
            outcomes.record("the copy keeps the token the room gave it, and its next result reaches the same seat", both,
                    "token " + RoomLink.joined(learner).token() + "; Auto's seat has no chapter 03 after 10 s");
            Path lost = Files.createTempDirectory("room-lost");
            RoomLink.join(lost, new RoomLink.Joined("http://127.0.0.1:9/", CODE, "lost", null)); // port 9: nothing listens
            start = System.nanoTime();
            Results.write(lost, "checks", "01", report);
            returnedMs = (System.nanoTime() - start) / 1_000_000;
            outcomes.record("with the room out of reach, saving a result still returns at once", returnedMs < 1000, returnedMs + " ms");

            // Refused, and nothing changes.
            int seats = files(dir);
            String good = handin("mallory", Map.of("01", 0)).toString();
            for (String bad : List.of("../evil", "<b>x</b>", "..", ".hidden", "x.json", "con", "NUL", "com1", "a".repeat(33), "-dash")) {
                expect(post(url, bad, good.replace("\"mallory\"", Jackson.write(bad).strip()), CODE), 400, "the name '" + bad + "'");
            }
            expect(post(url, "mallory", "{not json", CODE), 400, "a body that is not JSON");
            expect(post(url, "mallory", "{\"schema\": \"something-else\"}", CODE), 400, "JSON that is not a hand-in");
            expect(post(url, "mallory", handin("alice", Map.of("01", 0)).toString(), CODE), 400, "someone else's hand-in");
            expect(post(url, "mallory", "x".repeat(RoomServer.MAX_BYTES + 1), CODE), 413, "a body over " + RoomServer.MAX_BYTES / 1024 + " KiB");
            expect(post(url, "mallory", good, "wrong"), 403, "a wrong room code");
            expect(post(url, "mallory", good, null), 403, "no room code");
            expect(get(url + "/handin", null), 405, "GET /handin");
            expect(get(url + "/room.html", null), 404, "an unknown page");
            outcomes.record("refused hand-ins leave nothing behind", files(dir) == seats && !Files.exists(dir.getParent().resolve("evil.json")),
                    files(dir) + " files");
        } finally {
            server.stop(0);
        }

        // A restart keeps every seat, and every name's owner.
        HttpServer restarted = RoomServer.start(root, new RoomServer.Settings(dir, CODE, VIEW), "127.0.0.1", 0);
        try {
            String again = "http://127.0.0.1:" + restarted.getAddress().getPort();
            String page = get(again + "/", viewerCookie(dir)).body();
            outcomes.record("a restarted room still has every seat", page.contains("37 learner(s)"), "after a restart the page says: "
                    + page.substring(page.indexOf("<p>"), Math.min(page.length(), page.indexOf("<p>") + 80)));
            expect(post(again, "learner-2", handin("learner-2", Map.of("01", 0)).toString(), CODE, null), 409,
                    "after a restart, another laptop handing in as learner-2");
        } finally {
            restarted.stop(0);
        }
        viewerKept(dir);
        tokensStayWithTheirRoom();
        slowBodies();
        seatNotKept();
        untrusted();
        wifi();
        tricklingRoom();
        dayInTheRoom();
        flood();
        scripts();
        outcomes.finish();
    }

    /**
     * A learner who joins room A as carol, then another room (B) under the same name, then A
     * again: B never sees A's token, and A takes carol back (a token kept per name, not per room,
     * went to B and was then lost: A answered 409).
     */
    static void tokensStayWithTheirRoom() throws Exception {
        Path dir = Files.createTempDirectory("room-tokens");
        Path learner = dir.resolve("learner");
        Trees.copy(root.resolve("scripts/test/fixtures/room/ada-results"), learner.resolve(".results"));
        HttpServer a = RoomServer.start(root, new RoomServer.Settings(dir.resolve("a"), CODE, VIEW), "127.0.0.1", 0);
        List<String> seenByB = java.util.Collections.synchronizedList(new ArrayList<>());
        HttpServer b = HttpServer.create(new java.net.InetSocketAddress("127.0.0.1", 0), 16);
        b.createContext("/", exchange -> {
            try (exchange) {
                exchange.getRequestBody().readAllBytes();
                seenByB.add(String.valueOf(exchange.getRequestHeaders().getFirst(RoomLink.TOKEN_HEADER)));
                exchange.getResponseHeaders().set(RoomLink.TOKEN_HEADER, "b-token");
                byte[] ok = "the room has your results\n".getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(200, ok.length);
                exchange.getResponseBody().write(ok);
            }
        });
        b.start();
        try {
            String atA = "http://127.0.0.1:" + a.getAddress().getPort() + "/", atB = "http://127.0.0.1:" + b.getAddress().getPort() + "/";
            int first = run(dir.resolve("a1.log"), script("handin.sh"), "carol", "--root", learner.toString(), "--to", atA, "--code", CODE);
            int other = run(dir.resolve("b.log"), script("handin.sh"), "carol", "--root", learner.toString(), "--to", atB, "--code", CODE);
            int back = run(dir.resolve("a2.log"), script("handin.sh"), "carol", "--root", learner.toString(), "--to", atA, "--code", CODE);
            RoomLink.Joined now = RoomLink.joined(learner);
            outcomes.record("a token goes only to the room that gave it: carol joins room A, then room B, then A again, and A takes her back",
                    first == 0 && other == 0 && back == 0 && seenByB.equals(List.of("null")) && now != null
                            && RoomLink.roomKey(now.url(), "carol").equals(RoomLink.roomKey(atA, "carol"))
                            && "b-token".equals(now.tokenFor(atB, "carol")) && !"b-token".equals(now.tokenFor(atA, "carol")),
                    "exits " + first + ", " + other + ", " + back + "; room B saw tokens " + seenByB + " (see " + dir + ")");
        } finally {
            a.stop(0);
            b.stop(0);
        }
    }

    static final int SLOW_CUTOFF_SECONDS = 3;

    /**
     * Twelve connections that send a hand-in's head and then a byte a second (more than the
     * room's turns) do not hold up a real hand-in, and the room cuts each off; one address with
     * {@link RoomServer#PER_ADDRESS} hand-ins in flight is told 429 for the next.
     */
    static void slowBodies() throws Exception {
        Path dir = Files.createTempDirectory("room-slow");
        HttpServer server = RoomServer.start(root, new RoomServer.Settings(dir, CODE, VIEW), "127.0.0.1", 0);
        int port = server.getAddress().getPort();
        String url = "http://127.0.0.1:" + port;
        List<java.net.Socket> slow = new ArrayList<>();
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
            int status = post(url, "quick", handin("quick", Map.of("01", 1)).toString(), CODE).statusCode();
            double seconds = (System.nanoTime() - started) / 1e9;
            int cut = 0;
            for (java.net.Socket s : slow) {
                s.setSoTimeout((SLOW_CUTOFF_SECONDS + 8) * 1000);
                try {
                    if (s.getInputStream().read() == -1) cut++;
                } catch (java.net.SocketTimeoutException e) {
                    // still open: not cut
                } catch (java.io.IOException e) {
                    cut++; // reset
                }
            }
            dripping.interrupt();
            outcomes.record(String.format(java.util.Locale.ROOT, "%d hand-ins trickling a byte a second hold up no one (a real one taken in %.1f s), and the room cuts each off", slow.size(), seconds),
                    status == 200 && seconds < 5 && cut == slow.size(), "the real hand-in answered " + status + " after " + seconds + " s; " + cut + " of " + slow.size() + " cut off");

            // One address, as many hand-ins in flight as it may have: the next is told to wait.
            slow.forEach(RoomTest::closeQuietly);
            slow.clear();
            var before = RoomServer.limited;
            RoomServer.limited = a -> true; // loopback stands for a learner's laptop here
            try {
                for (int i = 0; i < RoomServer.PER_ADDRESS; i++) slow.add(trickle(port, "busy-" + i));
                Thread.sleep(500);
                HttpResponse<String> more = post(url, "busy-more", handin("busy-more", Map.of("01", 1)).toString(), CODE);
                outcomes.record("one address with " + RoomServer.PER_ADDRESS + " hand-ins in flight is told 429 for the next, with a sentence",
                        more.statusCode() == 429 && more.body().contains("too many hand-ins at once"), more.statusCode() + " " + more.body());
            } finally {
                RoomServer.limited = before;
            }
        } finally {
            slow.forEach(RoomTest::closeQuietly);
            server.stop(0);
        }
    }

    /** A connection that has sent a hand-in's head (a body of 100,000 bytes to come) and one byte of it. */
    static java.net.Socket trickle(int port, String name) throws java.io.IOException {
        java.net.Socket s = new java.net.Socket("127.0.0.1", port);
        s.getOutputStream().write(("POST /handin?name=" + name + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + RoomLink.CODE_HEADER + ": " + CODE
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

    /** A seat the room cannot write is answered 500 with a sentence, and leaves the name free (its owner file was written first, and kept). */
    static void seatNotKept() throws Exception {
        Path dir = Files.createTempDirectory("room-unkept");
        Files.createDirectories(dir.resolve("eve.json").resolve("blocked")); // a folder where eve's seat goes: the move fails
        HttpServer server = RoomServer.start(root, new RoomServer.Settings(dir, CODE, VIEW), "127.0.0.1", 0);
        String url = "http://127.0.0.1:" + server.getAddress().getPort();
        try {
            HttpResponse<String> failed = post(url, "eve", handin("eve", Map.of("01", 1)).toString(), CODE, null);
            boolean free = !Files.exists(RoomServer.owner(dir, "eve"));
            Files.delete(dir.resolve("eve.json").resolve("blocked"));
            Files.delete(dir.resolve("eve.json"));
            HttpResponse<String> again = post(url, "eve", handin("eve", Map.of("01", 1)).toString(), CODE, null);
            outcomes.record("a seat the room cannot write is answered 500 with a sentence, and the name stays free for the next try",
                    failed.statusCode() == 500 && failed.body().contains("could not keep this hand-in") && free && again.statusCode() == 200,
                    "first " + failed.statusCode() + " '" + failed.body().strip() + "', owner file " + (free ? "gone" : "kept") + ", then " + again.statusCode());
        } finally {
            server.stop(0);
        }
    }

    /**
     * What a laptop or a file claims is held to what the course knows: a grading that lists one
     * of chapter 01's checks is not done; a seat file with no chapters, or with 999 checks passed,
     * neither breaks the page nor shows more than the chapter has; a seat with no name is skipped, with a note.
     */
    static void untrusted() throws Exception {
        Path dir = Files.createTempDirectory("room-untrusted");
        HttpServer server = RoomServer.start(root, new RoomServer.Settings(dir, CODE, VIEW), "127.0.0.1", 0);
        String url = "http://127.0.0.1:" + server.getAddress().getPort();
        try {
            ObjectNode lone = handin("lone", Map.of("01", 0));
            ArrayNode list = (ArrayNode) lone.withArray("checks").get(0).withArray("checks");
            while (list.size() > 1) list.remove(list.size() - 1);
            int status = post(url, "lone", lone.toString(), CODE).statusCode();
            Seat seat = Jackson.read(Files.readString(dir.resolve("lone.json")), Seat.class);
            Seat.Graded g = seat.chapters().get("01");
            String page = get(url + "/", viewerCookie(dir)).body();
            int total = known.checks().get("01").size();
            outcomes.record("a grading that lists 1 of chapter 01's " + total + " checks, passed, is not done: the page says checks are missing",
                    status == 200 && g != null && !g.done() && !known.done("01", g) && g.missing().size() == total - 1
                            && page.contains("checks missing") && !page.contains("✓ all 1 pass") && page.contains("not proof"),
                    status + " " + Jackson.write(g));
        } finally {
            server.stop(0);
        }
        Path folder = Files.createTempDirectory("room-folder");
        Files.writeString(folder.resolve("eve.json"), "{\"schema\":\"course-room/1\",\"learner\":\"eve\"}");
        String first01 = known.checks().get("01").keySet().iterator().next();
        Files.writeString(folder.resolve("mallory.json"), "{\"schema\":\"course-room/1\",\"learner\":\"mallory\",\"received\":\"yesterday\","
                + "\"chapters\":{\"01\":{\"passed\":999,\"failed\":0,\"failing\":[\"no.such.check\"],\"gradings\":1},"
                + "\"99\":{\"passed\":5,\"failed\":0}},\"races\":{\"01\":{\"hello\":{\"status\":\"measured\",\"figure\":\"rps\",\"ratio\":\"NaN\"}}}}");
        Files.writeString(folder.resolve("nobody.json"), "{\"schema\":\"course-room/1\"}");
        Room.Folder read = Room.read(known, folder);
        Seat mallory = read.seats().stream().filter(x -> x.learner().equals("mallory")).findFirst().orElse(null);
        String html = Summary.page(known, read.seats(), Instant.now(), 0, read.skipped());
        outcomes.record("room.sh FOLDER holds seat files to what the course knows: a bare seat shows, 999 passed becomes at most the chapter's "
                        + known.checks().get("01").size() + ", an unknown chapter and a ratio that is no number go, a seat with no name is skipped with a note",
                read.seats().size() == 2 && mallory != null && mallory.chapters().get("01").passed() <= known.checks().get("01").size()
                        && !mallory.chapters().containsKey("99") && mallory.chapters().get("01").failing().isEmpty() && mallory.received() == null
                        && (mallory.races().get("01") == null || mallory.races().get("01").get("hello").ratio() == null)
                        && read.skipped().size() == 1 && read.skipped().get(0).startsWith("nobody.json") && html.contains("eve") && first01 != null,
                "seats " + Jackson.write(read.seats()) + ", skipped " + read.skipped());
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
        String given = RoomServer.learnerCode(fresh, "tulip", true);
        outcomes.record("a room beyond this machine always has a learners' code: one it makes (8 characters) and keeps in its folder, owner-only, when none is given",
                none == null && made != null && made.length() >= 8 && made.equals(kept) && permissions.equals("rw-------")
                        && "tulip".equals(given) && "tulip".equals(RoomServer.learnerCode(fresh, null, true)),
                "none " + none + ", made " + made + ", kept " + kept + " (" + permissions + "), given " + given);

        Path dir = Files.createTempDirectory("room-wifi");
        HttpServer server = RoomServer.start(root, new RoomServer.Settings(dir, CODE, VIEW), "127.0.0.1", 0);
        String url = "http://127.0.0.1:" + server.getAddress().getPort();
        var before = RoomServer.limited;
        RoomServer.limited = a -> true; // loopback stands for one laptop on the Wi-Fi
        try {
            List<Integer> statuses = new ArrayList<>();
            for (int i = 1; i <= RoomServer.NAMES_PER_ADDRESS + 1; i++) {
                statuses.add(post(url, "junk-" + i, handin("junk-" + i, Map.of("01", 1)).toString(), CODE).statusCode());
            }
            HttpResponse<String> again = post(url, "junk-1", handin("junk-1", Map.of("01", 0)).toString(), CODE);
            outcomes.record("one laptop takes at most " + RoomServer.NAMES_PER_ADDRESS + " names (the next is told 429), and hands in under them as before",
                    statuses.subList(0, RoomServer.NAMES_PER_ADDRESS).stream().allMatch(x -> x == 200) && statuses.getLast() == 429
                            && again.statusCode() == 200 && !Files.exists(dir.resolve("junk-4.json")), statuses + ", then junk-1 again: " + again.statusCode());
        } finally {
            RoomServer.limited = before;
        }
        try {
            Room.remove(dir, "junk-2");
            String page = get(url + "/", viewerCookie(dir)).body();
            outcomes.record("room remove NAME takes its seat and its owner off the room", !page.contains("junk-2") && page.contains("junk-1")
                    && !Files.exists(dir.resolve("junk-2.json")) && !Files.exists(RoomServer.owner(dir, "junk-2")), "the page still shows junk-2, or its files stay");
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
                    return "answered " + RoomLink.post(url, CODE, "ada", null, "{}", Duration.ofSeconds(2));
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
            outcomes.record(String.format(java.util.Locale.ROOT, "a room that trickles its answer holds the learner's send no longer than its timeout (2 s; gave up after %.1f s)", seconds),
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
        RoomLoad.Run r = RoomLoad.run(root, RoomServer.MAX_LEARNERS, Duration.ofSeconds(40), 0.05);
        long growth = r.heapAfterGcLastBytes() - r.heapAfterGcFirstBytes();
        outcomes.record("a day in the room, twenty times faster: " + r.laptops() + " laptops, " + r.posts() + " hand-ins and " + r.races()
                        + " races, a restart halfway: none lost, none refused, the page under " + PAGE_LIMIT / 1024 + " KiB, the heap flat",
                r.lost() == 0 && r.refused() == 0 && r.answered() + r.unreachable() == r.posts() && r.unreachable() <= 2 * r.laptops()
                        && r.pages() > 0 && r.pageBytesMax() < PAGE_LIMIT && growth < 64L << 20 && r.posts() > 10 * r.laptops(),
                RoomLoad.describe(r));
    }

    /** The projector's cookie for the room kept in {@code dir}: its session id, not the viewer code. */
    static String viewerCookie(Path dir) throws java.io.IOException {
        return RoomServer.VIEW_COOKIE + "=" + RoomServer.Viewer.kept(dir, VIEW).session();
    }

    /** A room started again on its folder without --view-code keeps the code and the cookie; another code makes both new. */
    static void viewerKept(Path dir) throws Exception {
        RoomServer.Viewer first = RoomServer.Viewer.kept(dir, null);
        RoomServer.Viewer again = RoomServer.Viewer.kept(dir, null);
        RoomServer.Viewer other = RoomServer.Viewer.kept(dir, "another-code");
        Path fresh = Files.createTempDirectory("room-viewer");
        RoomServer.Viewer made = RoomServer.Viewer.kept(fresh, null);
        String permissions = java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(fresh.resolve(RoomServer.Viewer.FILE)));
        outcomes.record("a restarted room keeps its viewer code and the projector's cookie (in its folder, owner-only); a new code makes a new cookie",
                first.code().equals(VIEW) && first.equals(again) && !other.session().equals(first.session()) && other.code().equals("another-code")
                        && made.code().matches(RoomServer.CODE_PATTERN) && made.equals(RoomServer.Viewer.kept(fresh, null))
                        && !made.session().contains(made.code()) && permissions.equals("rw-------"),
                "first " + first + ", again " + again + ", other " + other + ", made " + made + " (" + permissions + ")");
        RoomServer.Viewer.kept(dir, VIEW);
    }

    /**
     * The scripts end to end, as a learner and an instructor run them: handin.sh packs a learner's
     * results into a file, room.sh makes a page from a folder of them (the browser test opens it
     * as .results/room-check.html), room.sh serve takes handin.sh --to, which joins the room, and
     * --leave leaves it.
     */
    static void scripts() throws Exception {
        Path dir = Files.createTempDirectory("room-scripts");
        Path learner = dir.resolve("learner"), folder = dir.resolve("room");
        Path fixtures = root.resolve("scripts/test/fixtures/room");
        Trees.copy(fixtures.resolve("ada-results"), learner.resolve(".results"));
        Files.createDirectories(folder);
        Files.copy(fixtures.resolve("handins/grace.json"), folder.resolve("grace.json"));
        // Two more races: 05 of ada's own exercise (with the command line, the machine and pids a race writes), 04 of the reference against itself.
        ObjectNode race = (ObjectNode) Jackson.tree(Files.readString(learner.resolve(".results/bench/03.json")));
        ObjectNode own = race.deepCopy().put("chapter", "05").put("command", "scripts/bench.sh 05");
        own.putObject("machine").put("cpuModel", "ada's laptop");
        ((ObjectNode) own.withArray("servers").get(0)).put("file", "exercises/05-virtual-threads.java").put("url", "http://127.0.0.1:1").put("pid", 4242);
        Files.writeString(learner.resolve(".results/bench/05.json"), own.toString());
        ObjectNode self = race.deepCopy().put("chapter", "04");
        ((ObjectNode) self.withArray("servers").get(0)).put("file", "solutions/04-multi-reactor.java").put("url", "http://127.0.0.1:1");
        Files.writeString(learner.resolve(".results/bench/04.json"), self.toString());
        ObjectNode graded = (ObjectNode) Jackson.tree(Files.readString(learner.resolve(".results/checks/03.json")));
        ((ObjectNode) graded.withArray("checks").get(0)).put("message", "what ada's server said").put("hint", "a hint");
        Files.writeString(learner.resolve(".results/checks/03.json"), graded.toString());
        int handedIn = run(dir.resolve("handin.log"), script("handin.sh"), "ada", "--root", learner.toString(), "--out", folder.toString());
        String packed = Files.exists(folder.resolve("ada.json")) ? Files.readString(folder.resolve("ada.json")) : "";
        JsonNode ada = packed.isEmpty() ? Jackson.MAPPER.createObjectNode() : Jackson.tree(packed);
        List<String> raced = new ArrayList<>();
        ada.path("bench").forEach(b -> raced.add(b.path("chapter").asText()));
        outcomes.record("handin.sh packs a learner's checks and races of their own exercise into NAME.json, and only what the room shows",
                handedIn == 0 && raced.equals(List.of("03", "05")) && !packed.contains("\"hint\"") && !packed.contains("what ada's server said")
                        && !packed.contains("ada's laptop") && !packed.contains("bench.sh 05") && !packed.contains("4242") && !packed.contains("exercises/")
                        && ada.path("checks").get(0).path("checks").get(0).path("status").isTextual(),
                "exit " + handedIn + ", races " + raced + " (see " + dir.resolve("handin.log") + " and " + folder.resolve("ada.json") + ")");
        Files.delete(learner.resolve(".results/bench/05.json"));
        Files.delete(learner.resolve(".results/bench/04.json"));

        Path page = dir.resolve("room.html");
        int summarised = run(dir.resolve("summary.log"), script("room.sh"), folder.toString(), "--out", page.toString());
        String html = Files.exists(page) ? Files.readString(page) : "";
        List<String> missing = new ArrayList<>();
        for (String expected : List.of("2 learner(s)", "<td class=\"done\"", "<summary>4 to fix</summary>", "<summary>1 to fix</summary>",
                "06<br><small>Netty and virtual threads</small>", "req/s</small> 0.82× <small>the reference")) {
            if (!html.contains(expected)) missing.add(expected);
        }
        outcomes.record("room.sh summarises the hand-ins: progress in every registry chapter, failing checks, races as labelled ratios",
                summarised == 0 && missing.isEmpty(), "exit " + summarised + "; the page lacks " + missing + " (" + page + ")");
        if (missing.isEmpty()) {
            Files.createDirectories(root.resolve(".results"));
            Files.copy(page, root.resolve(".results/room-check.html"), java.nio.file.StandardCopyOption.REPLACE_EXISTING); // the browser test opens it
        }
        int empty = run(dir.resolve("empty.log"), script("room.sh"), learner.toString());
        outcomes.record("room.sh on a folder with no hand-ins says so and exits 1", empty == 1, "exit " + empty);

        // The live room, as the instructor starts it, and a learner's copy joining and leaving it.
        Path log = dir.resolve("serve.log");
        Process serve = new ProcessBuilder(script("room.sh"), "serve", "--port", "0", "--dir", dir.resolve("live").toString(), "--code", CODE)
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            String url = null;
            java.util.regex.Pattern line = java.util.regex.Pattern.compile("^room: learners run once: scripts/handin.sh NAME --to (http://\\S+)", java.util.regex.Pattern.MULTILINE);
            for (int i = 0; i < 300 && url == null && serve.isAlive(); i++) {
                java.util.regex.Matcher m = line.matcher(Files.readString(log));
                if (m.find()) url = m.group(1);
                else Thread.sleep(100);
            }
            String printed = Files.readString(log);
            int sent = url == null ? -1 : run(dir.resolve("send.log"), script("handin.sh"), "ada", "--root", learner.toString(), "--to", url, "--code", CODE);
            Path joined = learner.resolve(".results/room.json");
            outcomes.record("room.sh serve prints the learners' command and the viewer's address; handin.sh --to is kept, and joins the room",
                    url != null && sent == 0 && Files.exists(dir.resolve("live/ada.json")) && Files.exists(joined) && Files.readString(joined).contains("\"token\"")
                            && printed.lines().anyMatch(l -> l.matches("^room: the room's page, for your screen only: http://.*/\\?view=.*")),
                    url == null ? "no address in 30 s (see " + log + ")" : "handin.sh --to exited " + sent + " (see " + log + ")");
            int left = run(dir.resolve("leave.log"), script("handin.sh"), "--leave", "--root", learner.toString());
            outcomes.record("handin.sh --leave forgets the room (and keeps the tokens)", left == 0 && RoomLink.joined(learner) == null
                            && RoomLink.kept(learner) != null && RoomLink.kept(learner).tokens().size() == 1,
                    "exit " + left + "; " + joined + " holds " + (Files.exists(joined) ? Files.readString(joined) : "nothing"));
        } finally {
            serve.descendants().forEach(ProcessHandle::destroy); // the room's JVM, started by JBang's launcher
            serve.destroy();
            serve.waitFor(10, java.util.concurrent.TimeUnit.SECONDS);
            serve.descendants().forEach(ProcessHandle::destroyForcibly);
            serve.destroyForcibly();
        }
    }

    /** A script of the course (bash), by name. */
    static String script(String name) {
        return root.resolve("scripts").resolve(name).toString();
    }

    /** Runs a command to its end (3 minutes at most), its output in {@code log}; its exit status, or -1 when it did not end. */
    static int run(Path log, String... command) throws Exception {
        return Commands.run(log, java.time.Duration.ofMinutes(3), command).status();
    }

    /**
     * A room of 30 learners at their largest real hand-ins (every chapter graded with every check
     * failing, and raced on every workload), under a flood of made-up names: the learner cap holds,
     * and the page stays under {@link #PAGE_LIMIT}.
     */
    static void flood() throws Exception {
        Path dir = Files.createTempDirectory("room-flood");
        HttpServer server = RoomServer.start(root, new RoomServer.Settings(dir, CODE, VIEW, 40, 10, null), "127.0.0.1", 0);
        String url = "http://127.0.0.1:" + server.getAddress().getPort();
        try {
            Map<String, Integer> all = new java.util.LinkedHashMap<>();
            known.checks().forEach((chapter, checks) -> all.put(chapter, checks.size()));
            ObjectNode largest = handin("x", all);
            JsonNode reference = Jackson.tree(Files.readString(root.resolve("site/static/bench/reference.json")));
            for (String chapter : known.chapters().keySet()) largest.withArray("bench").add(chapterRace(reference, chapter));
            int bytes = largest.toString().getBytes(StandardCharsets.UTF_8).length;
            outcomes.record("the largest real hand-in (" + bytes / 1024 + " KiB) fits under the cap of " + RoomServer.MAX_BYTES / 1024 + " KiB",
                    bytes < RoomServer.MAX_BYTES, bytes + " bytes");
            List<Future<Integer>> real = new ArrayList<>(), made = new ArrayList<>();
            try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
                for (int i = 1; i <= 30; i++) {
                    String name = "learner-" + i;
                    String body = largest.deepCopy().put("learner", name).toString();
                    real.add(pool.submit(() -> post(url, name, body, CODE).statusCode()));
                }
                for (int i = 1; i <= 200; i++) {
                    String name = "flood-" + i;
                    String body = handin(name, Map.of("01", 3)).toString();
                    made.add(pool.submit(() -> post(url, name, body, CODE).statusCode()));
                }
            }
            long realTaken = real.stream().filter(f -> f.resultNow() == 200).count();
            long madeTaken = made.stream().filter(f -> f.resultNow() == 200).count();
            long full = made.stream().filter(f -> f.resultNow() == 503).count();
            long owners;
            try (Stream<Path> s = Files.list(dir.resolve(".owners"))) {
                owners = s.count();
            }
            outcomes.record("under a flood of 200 made-up names, the room takes at most its 40 and says 'full' to the rest",
                    owners <= 40 && files(dir) <= 40 && realTaken + madeTaken <= 40 && full == 200 - madeTaken,
                    owners + " names, " + files(dir) + " seats, " + realTaken + " real and " + madeTaken + " made-up taken, " + full + " told full");
            // The 30 at their largest, alone.
            Path thirty = Files.createTempDirectory("room-thirty");
            HttpServer quiet = RoomServer.start(root, new RoomServer.Settings(thirty, CODE, VIEW), "127.0.0.1", 0);
            try {
                String at = "http://127.0.0.1:" + quiet.getAddress().getPort();
                long ok = 0;
                for (int i = 1; i <= 30; i++) {
                    String name = "learner-" + i;
                    ObjectNode h = largest.deepCopy();
                    h.put("learner", name);
                    if (post(at, name, h.toString(), CODE).statusCode() == 200) ok++;
                }
                String page = get(at + "/", viewerCookie(thirty)).body();
                int size = page.getBytes(StandardCharsets.UTF_8).length;
                outcomes.record("with 30 learners at their largest real hand-ins, the page is " + size / 1024 + " KiB, under "
                        + PAGE_LIMIT / 1024 + " KiB", ok == 30 && size < PAGE_LIMIT && page.contains("30 learner(s)"), ok + " taken, " + size + " bytes");
            } finally {
                quiet.stop(0);
            }
        } finally {
            server.stop(0);
        }
    }

    /** A hand-in of {@code name}: for each chapter, a whole grading that fails its first N checks (the others pass). */
    static ObjectNode handin(String name, Map<String, Integer> failing) {
        ObjectNode h = Jackson.MAPPER.createObjectNode();
        h.put("schema", RoomLink.SCHEMA).put("learner", name).put("time", Instant.now().toString());
        ArrayNode checks = h.putArray("checks");
        for (var e : new java.util.TreeMap<>(failing).entrySet()) {
            ObjectNode report = checks.addObject();
            report.put("chapter", e.getKey()).put("title", known.chapters().get(e.getKey()).title()).put("target", "exercise")
                    .put("time", Instant.now().toString()).put("server", "exercises/" + known.chapters().get(e.getKey()).fileName());
            ArrayNode list = report.putArray("checks");
            int i = 0;
            for (var c : known.checks().get(e.getKey()).entrySet()) {
                boolean fails = i++ < e.getValue();
                list.add(check(c.getKey(), fails, c.getValue()));
            }
            report.put("passed", i - e.getValue()).put("failed", e.getValue()).put("skipped", 0).put("exit", e.getValue() == 0 ? 0 : 1);
        }
        h.putArray("bench");
        return h;
    }

    /** A check as the grader reports it; a failure with a message and a hint as long as real ones. */
    static ObjectNode check(String id, boolean fails, String name) {
        ObjectNode c = Jackson.MAPPER.createObjectNode().put("id", id).put("name", name).put("status", fails ? "fail" : "pass");
        if (fails) {
            c.put("message", "expected the answer within 5 s, but the connection ".repeat(8)).put("todo", "keep-alive")
                    .put("hint", "After the first answer, what happens to the socket? ".repeat(5)).put("see", "chapters/01-blocking#keep-alive");
        }
        return c;
    }

    /** A race of chapter {@code chapter} on one workload, with a made-up one beside it. */
    static ObjectNode race(String chapter, String madeUp, String verdict) {
        ObjectNode b = Jackson.MAPPER.createObjectNode().put("schema", BenchReport.SCHEMA).put("kind", "chapter").put("chapter", chapter)
                .put("date", Instant.now().toString()).put("exit", 0);
        servers(b);
        ArrayNode workloads = b.putArray("workloads");
        for (String id : List.of("hello", madeUp)) {
            ObjectNode w = workloads.addObject().put("id", id);
            ObjectNode learner = w.putArray("results").addObject().put("server", "learner").put("status", "measured").put("rps", 1000);
            learner.putObject("ratio").put("rps", 0.9).put("p50", 1.0).put("p99", 1.0).putObject("verdict")
                    .put("figure", "rps").put("ratio", 0.9).put("turns", 3).put("verdict", verdict);
        }
        return b;
    }

    /** A chapter race's two servers, as bench.sh writes them: the learner's and the reference, each with its role. */
    static void servers(ObjectNode race) {
        ArrayNode servers = race.putArray("servers");
        for (String id : List.of("learner", "reference")) servers.addObject().put("id", id).put("role", id);
    }

    /** A chapter's race on every workload of the committed reference run: its 03 as the learner, 04 as the reference. */
    static ObjectNode chapterRace(JsonNode reference, String chapter) {
        ObjectNode b = reference.deepCopy();
        b.put("kind", "chapter").put("chapter", chapter);
        servers(b);
        for (JsonNode w : b.path("workloads")) {
            ArrayNode kept = Jackson.MAPPER.createArrayNode();
            for (JsonNode r : w.path("results")) {
                String server = r.path("server").asText();
                if (server.equals("03") || server.equals("04")) kept.add(((ObjectNode) r.deepCopy()).put("server", server.equals("03") ? "learner" : "reference"));
            }
            ((ObjectNode) w).set("results", kept);
        }
        return b;
    }

    static HttpResponse<String> post(String url, String name, String body, String code) throws Exception {
        return post(url, name, body, code, tokens.get(name));
    }

    static HttpResponse<String> post(String url, String name, String body, String code, String token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url + "/handin?name=" + java.net.URLEncoder.encode(name, StandardCharsets.UTF_8)))
                .timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.ofString(body));
        if (code != null) b.header(RoomLink.CODE_HEADER, code);
        if (token != null) b.header(RoomLink.TOKEN_HEADER, token);
        HttpResponse<String> answer = client.send(b.build(), HttpResponse.BodyHandlers.ofString());
        answer.headers().firstValue(RoomLink.TOKEN_HEADER).ifPresent(t -> tokens.putIfAbsent(name, t));
        return answer;
    }

    static HttpResponse<String> get(String url, String cookie) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(20));
        if (cookie != null) b.header("Cookie", cookie);
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    static void expect(HttpResponse<String> answer, int status, String what) {
        String said = answer.body().startsWith("<!DOCTYPE") ? "a page that asks for the viewer code" : answer.body().strip();
        outcomes.record(what + " is refused with " + status + ": " + said, answer.statusCode() == status,
                "answered " + answer.statusCode() + ": " + answer.body().strip());
    }

    static int files(Path dir) throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return (int) s.filter(p -> p.getFileName().toString().endsWith(".json") && !p.getFileName().toString().startsWith(".")).count();
        }
    }
}
