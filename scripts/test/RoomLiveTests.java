package test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import lib.Jackson;
import lib.Results;
import room.Known;
import room.Room;
import room.RoomLink;
import room.RoomServer;
import room.Seat;
import room.Summary;

/**
 * The room in use, one test after another on one room (RoomTest runs them, in this order, and
 * then {@link #viewerKept} on the same folder): 30 learners at once and the page they make;
 * names kept per laptop; what the course does not know, ignored; the room's clock; a copy of
 * the course that joined the room; hand-ins refused; a restart. One room, so each test sees the
 * seats the ones before it left.
 */
final class RoomLiveTests {
    private RoomLiveTests() {}

    /** Runs the tests of one room, in order, and returns the room's folder (its seats, owners and viewer code). */
    static Path inUse() throws Exception {
        String first01 = RoomTest.known.checks().get("01").keySet().iterator().next();
        Path dir = Files.createTempDirectory("room-test");
        HttpServer server = RoomServer.start(RoomTest.root, new RoomServer.Settings(dir, RoomTest.CODE, RoomTest.VIEW), "127.0.0.1", 0);
        String url = "http://127.0.0.1:" + server.getAddress().getPort();
        try {
            String cookie = thirtyAtOnce(url, dir, first01);
            namesStay(url, dir);
            madeUpIgnored(url, dir, cookie);
            roomsClock(url, dir, cookie, first01);
            joinedCopy(url, dir);
            gradingReachesRoom(url, dir);
            refused(url, dir);
        } finally {
            server.stop(0);
        }
        restarted(dir);
        return dir;
    }

    /**
     * Thirty learners at once, each failing a different number of chapter 01's checks, and the
     * page they make, which only the viewer code opens; returns the projector's cookie.
     */
    static String thirtyAtOnce(String url, Path dir, String first01) throws Exception {
        List<Future<Integer>> posts = new ArrayList<>();
        try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 1; i <= 30; i++) {
                String name = "learner-" + i;
                String body = RoomTest.handin(name, Map.of("01", i % 3)).toString();
                posts.add(pool.submit(() -> RoomTest.post(url, name, body, RoomTest.CODE).statusCode()));
            }
        }
        long accepted = posts.stream().filter(f -> f.resultNow() == 200).count();
        RoomTest.outcomes.record("30 learners posting at once are all taken, each given a token", accepted == 30 && RoomTest.tokens.size() == 30,
                accepted + " answered 200, " + RoomTest.tokens.size() + " tokens");
        RoomTest.outcomes.record("each is kept as its own seat", RoomTest.files(dir) == 30, RoomTest.files(dir) + " files in " + dir);

        // Only the viewer code opens the page.
        RoomTest.expect(RoomTest.get(url + "/", null), 401, "the page without the viewer code");
        RoomTest.expect(RoomTest.get(url + "/summary", null), 401, "the page's updates without the viewer code");
        RoomTest.expect(RoomTest.get(url + "/?view=" + RoomTest.CODE, null), 401, "the page with the learners' code");
        HttpResponse<String> in = RoomTest.get(url + "/?view=" + RoomTest.VIEW, null);
        String cookie = in.headers().firstValue("Set-Cookie").orElse("").split(";")[0];
        RoomTest.outcomes.record("the viewer code sets a cookie and sends the screen to /, out of the address bar",
                in.statusCode() == 303 && cookie.equals(RoomTest.viewerCookie(dir)) && !cookie.contains(RoomTest.VIEW) && in.headers().firstValue("Location").orElse("").equals("/"),
                "answered " + in.statusCode() + ", cookie '" + cookie + "'");

        String page = RoomTest.get(url + "/", cookie).body();
        RoomTest.outcomes.record("the page shows the 30 learners, and updates itself in place", page.contains("30 learner(s)")
                && page.contains("fetch(\"summary\"") && page.contains("<noscript><meta http-equiv=\"refresh\"")
                && page.split("http-equiv=\"refresh\"").length == 2,
                "page: " + page.substring(0, Math.min(300, page.length())));
        String title = RoomTest.known.title("01", first01);
        RoomTest.outcomes.record("the page names the check most of the room is stuck on by its title, and folds each learner's failing checks",
                page.contains("Most stuck on") && page.contains(Summary.esc(title) + " (20 learner(s))")
                        && page.contains("<summary>2 to fix</summary>") && page.contains("data-key=\"learner-2/01\""),
                "no '" + title + " (20 learner(s))' or folded list");
        RoomTest.outcomes.record("the page shows who is stuck on which check, since when", page.contains("<h2>Stuck</h2>")
                && page.contains("First failing check") && page.contains("1 grading(s)"), "no Stuck table");
        String body = RoomTest.get(url + "/summary", cookie).body();
        RoomTest.outcomes.record("/summary is the page's body alone, for the page to put in place", body.contains("30 learner(s)")
                && !body.contains("<html") && !body.contains("<script"), body.substring(0, Math.min(200, body.length())));
        return cookie;
    }

    /** A name stays with the laptop that took it, until the instructor frees it; case does not make another name. */
    static void namesStay(String url, Path dir) throws Exception {
        String token1 = RoomTest.tokens.get("learner-1");
        String again = RoomTest.handin("learner-1", Map.of("01", 0)).toString();
        RoomTest.expect(RoomTest.post(url, "learner-1", again, RoomTest.CODE, null), 409, "another laptop (no token) handing in as learner-1");
        RoomTest.expect(RoomTest.post(url, "learner-1", again, RoomTest.CODE, "not-the-token"), 409, "another laptop (a wrong token) handing in as learner-1");
        RoomTest.expect(RoomTest.post(url, "Learner-1", RoomTest.handin("Learner-1", Map.of("01", 0)).toString(), RoomTest.CODE, null), 409,
                "another laptop handing in as Learner-1 (learner-1 in another case)");
        HttpResponse<String> own = RoomTest.post(url, "Learner-1", RoomTest.handin("Learner-1", Map.of("01", 0)).toString(), RoomTest.CODE, token1);
        RoomTest.outcomes.record("the laptop that took learner-1 hands in again, in any case, to the same seat",
                own.statusCode() == 200 && RoomTest.files(dir) == 30 && Files.exists(dir.resolve("learner-1.json")), own.statusCode() + ", " + RoomTest.files(dir) + " files");
        Room.free(dir, "learner-1");
        HttpResponse<String> taken = RoomTest.post(url, "learner-1", again, RoomTest.CODE, null);
        String token1b = taken.headers().firstValue(RoomLink.TOKEN_HEADER).orElse(null);
        RoomTest.outcomes.record("after jbang room free learner-1, a new laptop takes the name, and the old token no longer counts",
                taken.statusCode() == 200 && token1b != null && RoomTest.post(url, "learner-1", again, RoomTest.CODE, token1).statusCode() == 409,
                "answered " + taken.statusCode());
        RoomTest.tokens.put("learner-1", token1b);
    }

    /** What the course does not know, or a race that measured nothing, leaves no trace; where a learner is stuck, and on which day's agenda. */
    static void madeUpIgnored(String url, Path dir, String cookie) throws Exception {
        // What the course does not know is ignored: chapters, checks, workloads, verdicts.
        ObjectNode sly = RoomTest.handin("sly", Map.of("01", 1));
        ObjectNode made = (ObjectNode) sly.withArray("checks").get(0).deepCopy();
        made.put("chapter", "99").put("title", "<i>Chapter 99</i>");
        ((ArrayNode) sly.withArray("checks")).add(made);
        ((ObjectNode) sly.withArray("checks").get(0).withArray("checks").get(0)).put("id", "ch01.madeUp").put("name", "<script>alert(1)</script>");
        ((ArrayNode) sly.withArray("checks").get(0).withArray("checks")).add(RoomTest.check("ch01.alsoMadeUp", true, "<b>bold</b>"));
        sly.withArray("bench").add(RoomTest.race("03", "made-up-workload", "<b>soon</b>"));
        HttpResponse<String> slyAnswer = RoomTest.post(url, "sly", sly.toString(), RoomTest.CODE);
        String after = RoomTest.get(url + "/", cookie).body();
        Seat slySeat = Jackson.read(Files.readString(dir.resolve("sly.json")), Seat.class);
        RoomTest.outcomes.record("a made-up chapter, check, workload or verdict is ignored: no heading, column, cell or row of its own",
                slyAnswer.statusCode() == 200 && !after.contains("Chapter 99") && !after.contains("madeUp") && !after.contains("alsoMadeUp")
                        && !after.contains("made-up-workload") && !after.contains("soon") && !after.contains("<script>alert")
                        && !after.contains("&lt;script&gt;") && slySeat.chapters().keySet().equals(java.util.Set.of("01"))
                        && slySeat.races().getOrDefault("03", Map.of()).keySet().equals(java.util.Set.of("hello")),
                "the page or sly's seat holds something made up: " + Jackson.write(slySeat));

        // A race measured while other processes were busy (bench.sh's Others) is marked so in its cell; others are not.
        ObjectNode busyRace = RoomTest.race("03", "made-up-workload", "same");
        ((ObjectNode) busyRace.withArray("workloads").get(0).withArray("results").get(0).get("ratio"))
                .put("busy", "the machine was busy during 2 of 3 turns: other processes used up to 0.9 of a core");
        ObjectNode bea = RoomTest.handin("bea", Map.of("01", 1));
        bea.withArray("bench").add(busyRace);
        HttpResponse<String> beaAnswer = RoomTest.post(url, "bea", bea.toString(), RoomTest.CODE);
        String marked = RoomTest.get(url + "/", cookie).body();
        Seat beaSeat = Jackson.read(Files.readString(dir.resolve("bea.json")), Seat.class);
        RoomTest.outcomes.record("a race measured on a busy machine shows 'busy machine' in its cell, and no other race does",
                beaAnswer.statusCode() == 200 && !after.contains("busy machine") && marked.contains("busy machine")
                        && Boolean.TRUE.equals(beaSeat.races().get("03").get("hello").busy())
                        && slySeat.races().get("03").get("hello").busy() == null,
                "answered " + beaAnswer.statusCode() + "; bea's seat " + Jackson.write(beaSeat));

        // A smoke race (bench.sh --smoke) measures nothing: it never reaches the room.
        ObjectNode smoke = RoomTest.race("03", "made-up-workload", "noisy");
        smoke.putObject("methodology").put("mode", "smoke");
        ObjectNode cyd = RoomTest.handin("cyd", Map.of("01", 1));
        cyd.withArray("bench").add(smoke);
        HttpResponse<String> cydAnswer = RoomTest.post(url, "cyd", cyd.toString(), RoomTest.CODE);
        Seat cydSeat = Jackson.read(Files.readString(dir.resolve("cyd.json")), Seat.class);
        RoomTest.outcomes.record("a smoke race never reaches the room: the seat holds no race", cydAnswer.statusCode() == 200
                && cydSeat.races().isEmpty(), "answered " + cydAnswer.statusCode() + "; cyd's seat " + Jackson.write(cydSeat));

        // Stuck is the earliest step of the page whose checks fail, not the grader's first failure: in 03, the closing
        // step's Connection: close check runs before "40 pipelined requests", whose step (reading requests) comes first.
        ObjectNode dot = RoomTest.handin("dot", Map.of("03", 0));
        for (JsonNode c : dot.withArray("checks").get(0).withArray("checks")) {
            String id = c.path("id").asText();
            if (id.equals("protocol.connectionClose") || id.equals("ch03.manyPipelined")) ((ObjectNode) c).put("status", "fail");
        }
        ((ObjectNode) dot.withArray("checks").get(0)).put("failed", 2).put("exit", 1);
        RoomTest.post(url, "dot", dot.toString(), RoomTest.CODE);
        Seat dotSeat = Jackson.read(Files.readString(dir.resolve("dot.json")), Seat.class);
        RoomTest.outcomes.record("stuck is the earliest step of the page whose checks fail (03: reading requests before closing)",
                "ch03.manyPipelined".equals(dotSeat.chapters().get("03").stuckOn())
                        && dotSeat.chapters().get("03").failing().equals(List.of("ch03.manyPipelined", "protocol.connectionClose")),
                "dot's seat " + Jackson.write(dotSeat));

        // A half day's room (--day half-day): its chapters only, and 05 done once the checks of its core TODOs pass.
        Known half = RoomTest.known.forDay("half-day");
        String now = Instant.now().toString();
        Seat.Graded later = new Seat.Graded(24, 2, false, List.of("ch05.idleTimeout", "ch05.slowLoris"), null, now, "ch05.idleTimeout", now, 1, now);
        Seat.Graded core = new Seat.Graded(25, 1, false, List.of("ch05.limit"), null, now, "ch05.limit", now, 1, now);
        String dayPage = Summary.body(half, List.of(Jackson.read(Files.readString(dir.resolve("dot.json")), Seat.class)), Instant.now(), 0, List.of());
        RoomTest.outcomes.record("--day half-day: the day's chapters (03, 05), and 05 done with only TODO(timeouts)'s checks left, not with TODO(limit)'s",
                half.shown().equals(List.of("03", "05")) && half.done("05", later) && !RoomTest.known.done("05", later) && !half.done("05", core)
                        && dayPage.contains("half-day agenda") && dayPage.contains("of 2</td>") && !dayPage.contains("of 7</td>"),
                "shown " + half.shown() + "; " + dayPage);
        // Under the half day, a check of a TODO the day skips (05's timeouts) keeps no one stuck; the day's core does.
        Seat skipped = new Seat(Seat.SCHEMA, "eve", now, Map.of("05", later), Map.of(), null);
        Seat blocked = new Seat(Seat.SCHEMA, "fay", now, Map.of("05", core), Map.of(), null);
        String halfPage = Summary.body(half, List.of(skipped.checked(half), blocked.checked(half)), Instant.now(), 0, List.of());
        String stuckTable = halfPage.contains("<h2>Stuck</h2>") ? halfPage.substring(halfPage.indexOf("<h2>Stuck</h2>"), halfPage.indexOf("</table>", halfPage.indexOf("<h2>Stuck</h2>"))) : "";
        RoomTest.outcomes.record("--day half-day: a failing check of a TODO the day skips (05: TODO(timeouts)) makes no one stuck; one of its core does",
                skipped.checked(half).chapters().get("05").stuckOn() == null && "ch05.idleTimeout".equals(skipped.checked(RoomTest.known).chapters().get("05").stuckOn())
                        && "ch05.limit".equals(blocked.checked(half).chapters().get("05").stuckOn())
                        && !stuckTable.contains("<tr><td>eve</td>") && stuckTable.contains("<tr><td>fay</td>"), halfPage);
        // Stuck names the page's step, linked where the instructor reads the course.
        Known.Step step = RoomTest.known.stepOf("03", "ch03.manyPipelined");
        String stuckPage = Summary.body(RoomTest.known, List.of(dotSeat), Instant.now(), 0, List.of());
        RoomTest.outcomes.record("Stuck names the page's step of the first failing check, with a link to it on the course site",
                step != null && step.title() != null && stuckPage.contains("<a href=\"" + RoomTest.known.link(step.see()) + "\">" + step.title() + "</a>")
                        && RoomTest.known.link(step.see()).startsWith("http://127.0.0.1:"),
                step + "; " + stuckPage);
        boolean refused = false;
        try {
            RoomTest.known.forDay("all-week");
        } catch (IllegalArgumentException e) {
            refused = e.getMessage().contains("half-day");
        }
        RoomTest.outcomes.record("an agenda the registry does not have is refused, naming those it has", refused, "all-week was taken");
    }

    /** Times are the room's, and a learner's place is the chapter they graded last. */
    static void roomsClock(String url, Path dir, String cookie, String first01) throws Exception {
        // The room's clock, not the learner's.
        ObjectNode future = RoomTest.handin("zed", Map.of("01", 1));
        future.put("time", "2099-01-01T00:00:00Z");
        ((ObjectNode) future.withArray("checks").get(0)).put("time", "2099-01-01T00:00:00Z");
        Instant before = Instant.now();
        RoomTest.post(url, "zed", future.toString(), RoomTest.CODE);
        Seat zed = Jackson.read(Files.readString(dir.resolve("zed.json")), Seat.class);
        Instant since = Instant.parse(zed.chapters().get("01").since());
        RoomTest.outcomes.record("a hand-in stamped 2099 counts as received now, by the room's clock", !zed.receivedAt().isBefore(before)
                && zed.receivedAt().isBefore(Instant.now().plusSeconds(1)) && !since.isBefore(before) && since.isBefore(Instant.now().plusSeconds(1)),
                "received " + zed.received() + ", stuck since " + since);

        // Stuck since: the same first failing check keeps its time; another starts a new one.
        RoomTest.post(url, "zed", RoomTest.handin("zed", Map.of("01", 1)).toString(), RoomTest.CODE);
        Seat zed2 = Jackson.read(Files.readString(dir.resolve("zed.json")), Seat.class);
        ObjectNode moved = RoomTest.handin("zed", Map.of("01", 2));
        ((ObjectNode) moved.withArray("checks").get(0).withArray("checks").get(0)).put("status", "pass");
        RoomTest.post(url, "zed", moved.toString(), RoomTest.CODE);
        Seat zed3 = Jackson.read(Files.readString(dir.resolve("zed.json")), Seat.class);
        RoomTest.outcomes.record("a grading that fails the same first check keeps its 'since' and counts; a new first failing check starts again",
                zed2.chapters().get("01").since().equals(zed.chapters().get("01").since()) && zed2.chapters().get("01").gradings() == 2
                        && zed3.chapters().get("01").gradings() == 1 && !zed3.chapters().get("01").stuckOn().equals(first01),
                "gradings " + zed2.chapters().get("01").gradings() + " then " + zed3.chapters().get("01").gradings());

        // Where a learner is: of two chapters handed in at once, the one their grader ran last.
        ObjectNode two = RoomTest.handin("yan", new java.util.TreeMap<>(Map.of("01", 1, "03", 1)));
        ((ObjectNode) two.withArray("checks").get(0)).put("time", "2026-01-01T10:00:00Z");
        ((ObjectNode) two.withArray("checks").get(1)).put("time", "2026-01-01T11:00:00Z");
        RoomTest.post(url, "yan", two.toString(), RoomTest.CODE);
        String where = RoomTest.get(url + "/summary", cookie).body();
        String first03 = RoomTest.known.checks().get("03").keySet().iterator().next();
        RoomTest.outcomes.record("the Stuck table shows a learner at the chapter they graded last", where.contains("<tr><td>yan</td><td>03</td>")
                && where.contains(first03), "no row 'yan, 03'");
    }

    /**
     * The commands hand in, not the results folder: scripts/check.sh, run in a copy of the course
     * that joined the room (its own .results/, the course's files linked), grades chapter 01's
     * untouched exercise and the grading reaches the room by itself.
     */
    static void gradingReachesRoom(String url, Path dir) throws Exception {
        Path copy = Files.createTempDirectory("room-graded-copy");
        for (String part : List.of("scripts", "site", "exercises", "solutions", "hugo.toml", ".tools")) {
            Path real = RoomTest.root.resolve(part).toAbsolutePath();
            if (Files.exists(real)) Files.createSymbolicLink(copy.resolve(part), real);
        }
        RoomLink.join(copy, new RoomLink.Joined(url + "/", RoomTest.CODE, "Graded", null));
        int status = RoomTest.run(copy.resolve("check.log"), copy.resolve("scripts/check.sh").toString(), "01");
        Path seat = dir.resolve("graded.json");
        boolean has01 = false;
        for (int i = 0; i < 50 && !has01; i++) {
            has01 = Files.exists(seat) && Jackson.read(Files.readString(seat), Seat.class).chapters().containsKey("01");
            if (!has01) Thread.sleep(100);
        }
        RoomTest.outcomes.record("scripts/check.sh 01 in a copy of the course that joined the room: its grading reaches the room",
                status == 1 && has01, "check.sh exited " + status + " (1: checks failed); Graded's seat " + (has01 ? "has" : "has no")
                        + " chapter 01 after 5 s (see " + copy.resolve("check.log") + ")");
        // A timeline recorded by a partial run (--only ID --timeline), which saves no grading, reaches the room too.
        int recorded = RoomTest.run(copy.resolve("timeline.log"), copy.resolve("scripts/check.sh").toString(), "01", "--only", "protocol.hello", "--timeline");
        boolean drawn = false;
        for (int i = 0; i < 50 && !drawn; i++) {
            drawn = Files.exists(seat) && Jackson.read(Files.readString(seat), Seat.class).timeline("01") != null;
            if (!drawn) Thread.sleep(100);
        }
        RoomTest.outcomes.record("scripts/check.sh 01 --only protocol.hello --timeline in that copy: the timeline reaches the room, with no grading saved",
                recorded == 0 && drawn, "check.sh exited " + recorded + "; Graded's seat " + (drawn ? "has" : "has no") + " timeline of 01 after 5 s (see "
                        + copy.resolve("timeline.log") + ")");
    }

    /** A copy of the course that joined the room sends each result it saves, by itself, and saving never waits on the room. */
    static void joinedCopy(String url, Path dir) throws Exception {
        Path learner = Files.createTempDirectory("room-learner");
        RoomLink.join(learner, new RoomLink.Joined(url + "/", RoomTest.CODE, "Auto", null));
        String report = RoomTest.handin("auto", Map.of("01", 2)).get("checks").get(0).toString();
        long start = System.nanoTime();
        RoomLink.save(learner, "checks", "01", report);
        long returnedMs = (System.nanoTime() - start) / 1_000_000;
        Path autoSeat = dir.resolve("auto.json");
        for (int i = 0; i < 100 && !Files.exists(autoSeat); i++) Thread.sleep(100);
        RoomTest.outcomes.record("a grading saved in a copy that joined the room reaches the room by itself, without waiting for it",
                Files.exists(autoSeat) && returnedMs < 1000, "after 10 s no seat for Auto; the save took " + returnedMs + " ms");
        for (int i = 0; i < 50 && RoomLink.joined(learner).token() == null; i++) Thread.sleep(100);
        RoomLink.save(learner, "checks", "03", RoomTest.handin("auto", Map.of("03", 1)).get("checks").get(0).toString());
        boolean both = false;
        for (int i = 0; i < 100 && !both; i++) {
            Thread.sleep(100);
            both = Jackson.read(Files.readString(autoSeat), Seat.class).chapters().containsKey("03");
        }
        RoomTest.outcomes.record("the copy keeps the token the room gave it, and its next result reaches the same seat", both,
                "token " + RoomLink.joined(learner).token() + "; Auto's seat has no chapter 03 after 10 s");
        // A room whose first answer is lost (a dropped connection): the hand-in is sent once more.
        java.util.concurrent.atomic.AtomicInteger asked = new java.util.concurrent.atomic.AtomicInteger();
        HttpServer flaky = HttpServer.create(new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        flaky.createContext("/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            if (asked.incrementAndGet() == 1) {
                exchange.close(); // no answer: the client's post fails
                return;
            }
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        flaky.start();
        try {
            Path retried = Files.createTempDirectory("room-retried");
            RoomLink.join(retried, new RoomLink.Joined("http://127.0.0.1:" + flaky.getAddress().getPort() + "/", RoomTest.CODE, "again", null));
            RoomLink.save(retried, "checks", "01", report);
            for (int i = 0; i < 50 && asked.get() < 2; i++) Thread.sleep(100);
            RoomTest.outcomes.record("a hand-in whose post fails is sent once more", asked.get() == 2, asked.get() + " post(s) in 5 s");
        } finally {
            flaky.stop(0);
        }
        Path lost = Files.createTempDirectory("room-lost");
        RoomLink.join(lost, new RoomLink.Joined("http://127.0.0.1:9/", RoomTest.CODE, "lost", null)); // port 9: nothing listens
        start = System.nanoTime();
        RoomLink.save(lost, "checks", "01", report);
        returnedMs = (System.nanoTime() - start) / 1_000_000;
        RoomTest.outcomes.record("with the room out of reach, saving a result still returns at once", returnedMs < 1000, returnedMs + " ms");
    }

    /** Hand-ins the room refuses, each with its status; nothing changes. */
    static void refused(String url, Path dir) throws Exception {
        int seats = RoomTest.files(dir);
        String good = RoomTest.handin("mallory", Map.of("01", 0)).toString();
        for (String bad : List.of("../evil", "<b>x</b>", "..", ".hidden", "x.json", "con", "NUL", "com1", "a".repeat(33), "-dash")) {
            RoomTest.expect(RoomTest.post(url, bad, good.replace("\"mallory\"", Jackson.write(bad).strip()), RoomTest.CODE), 400, "the name '" + bad + "'");
        }
        RoomTest.expect(RoomTest.post(url, "mallory", "{not json", RoomTest.CODE), 400, "a body that is not JSON");
        RoomTest.expect(RoomTest.post(url, "mallory", "{\"schema\": \"something-else\"}", RoomTest.CODE), 400, "JSON that is not a hand-in");
        RoomTest.expect(RoomTest.post(url, "mallory", RoomTest.handin("alice", Map.of("01", 0)).toString(), RoomTest.CODE), 400, "someone else's hand-in");
        RoomTest.expect(RoomTest.post(url, "mallory", "x".repeat(RoomServer.MAX_BYTES + 1), RoomTest.CODE), 413, "a body over " + RoomServer.MAX_BYTES / 1024 + " KiB");
        RoomTest.expect(RoomTest.post(url, "mallory", good, "wrong"), 403, "a wrong room code");
        RoomTest.expect(RoomTest.post(url, "mallory", good, null), 403, "no room code");
        RoomTest.expect(RoomTest.get(url + "/handin", null), 405, "GET /handin");
        RoomTest.expect(RoomTest.get(url + "/room.html", null), 404, "an unknown page");
        RoomTest.outcomes.record("refused hand-ins leave nothing behind", RoomTest.files(dir) == seats && !Files.exists(dir.getParent().resolve("evil.json")),
                RoomTest.files(dir) + " files");
    }

    /** A restart keeps every seat, and every name's owner. */
    static void restarted(Path dir) throws Exception {
        HttpServer restarted = RoomServer.start(RoomTest.root, new RoomServer.Settings(dir, RoomTest.CODE, RoomTest.VIEW), "127.0.0.1", 0);
        try {
            String again = "http://127.0.0.1:" + restarted.getAddress().getPort();
            String page = RoomTest.get(again + "/", RoomTest.viewerCookie(dir)).body();
            RoomTest.outcomes.record("a restarted room still has every seat", page.contains("38 learner(s)"), "after a restart the page says: "
                    + page.substring(page.indexOf("<p>"), Math.min(page.length(), page.indexOf("<p>") + 80)));
            RoomTest.expect(RoomTest.post(again, "learner-2", RoomTest.handin("learner-2", Map.of("01", 0)).toString(), RoomTest.CODE, null), 409,
                    "after a restart, another laptop handing in as learner-2");
        } finally {
            restarted.stop(0);
        }
    }

    /** A room started again on its folder without --view-code keeps the code and the cookie; another code makes both new. */
    static void viewerKept(Path dir) throws Exception {
        RoomServer.Viewer first = RoomServer.Viewer.kept(dir, null);
        RoomServer.Viewer again = RoomServer.Viewer.kept(dir, null);
        RoomServer.Viewer other = RoomServer.Viewer.kept(dir, "another-code");
        Path fresh = Files.createTempDirectory("room-viewer");
        RoomServer.Viewer made = RoomServer.Viewer.kept(fresh, null);
        String permissions = java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(fresh.resolve(RoomServer.Viewer.FILE)));
        RoomTest.outcomes.record("a restarted room keeps its viewer code and the projector's cookie (in its folder, owner-only); a new code makes a new cookie",
                first.code().equals(RoomTest.VIEW) && first.equals(again) && !other.session().equals(first.session()) && other.code().equals("another-code")
                        && made.code().matches(RoomServer.CODE_PATTERN) && made.equals(RoomServer.Viewer.kept(fresh, null))
                        && !made.session().contains(made.code()) && permissions.equals("rw-------"),
                "first " + first + ", again " + again + ", other " + other + ", made " + made + " (" + permissions + ")");
        RoomServer.Viewer.kept(dir, RoomTest.VIEW);
    }
}
