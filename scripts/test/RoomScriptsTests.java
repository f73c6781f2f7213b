package test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import lib.Jackson;
import room.RoomLink;
import room.RoomServer;

/**
 * The room's scripts end to end, as learners and instructors run them (RoomTest runs these):
 * handin.sh keeps a token for each room it joins, and handin.sh and room.sh pack, summarise,
 * serve, join and leave.
 */
final class RoomScriptsTests {
    private RoomScriptsTests() {}

    /**
     * A learner who joins room A as carol, then another room (B) under the same name, then A
     * again: B never sees A's token, and A takes carol back (a token kept per name, not per room,
     * went to B and was then lost: A answered 409).
     */
    static void tokensStayWithTheirRoom() throws Exception {
        Path dir = Files.createTempDirectory("room-tokens");
        Path learner = dir.resolve("learner");
        Trees.copy(RoomTest.root.resolve("scripts/test/fixtures/room/ada-results"), learner.resolve(".results"));
        HttpServer a = RoomServer.start(RoomTest.root, new RoomServer.Settings(dir.resolve("a"), RoomTest.CODE, RoomTest.VIEW), "127.0.0.1", 0);
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
            int first = RoomTest.run(dir.resolve("a1.log"), RoomTest.script("handin.sh"), "carol", "--root", learner.toString(), "--to", atA, "--code", RoomTest.CODE);
            int other = RoomTest.run(dir.resolve("b.log"), RoomTest.script("handin.sh"), "carol", "--root", learner.toString(), "--to", atB, "--code", RoomTest.CODE);
            int back = RoomTest.run(dir.resolve("a2.log"), RoomTest.script("handin.sh"), "carol", "--root", learner.toString(), "--to", atA, "--code", RoomTest.CODE);
            RoomLink.Joined now = RoomLink.joined(learner);
            RoomTest.outcomes.record("a token goes only to the room that gave it: carol joins room A, then room B, then A again, and A takes her back",
                    first == 0 && other == 0 && back == 0 && seenByB.equals(List.of("null")) && now != null
                            && RoomLink.roomKey(now.url(), null, "carol").equals(RoomLink.roomKey(atA, null, "carol"))
                            && "b-token".equals(now.tokenFor(atB, null, "carol")) && !"b-token".equals(now.tokenFor(atA, null, "carol")),
                    "exits " + first + ", " + other + ", " + back + "; room B saw tokens " + seenByB + " (see " + dir + ")");
        } finally {
            a.stop(0);
            b.stop(0);
        }
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
        Path fixtures = RoomTest.root.resolve("scripts/test/fixtures/room");
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
        int handedIn = RoomTest.run(dir.resolve("handin.log"), RoomTest.script("handin.sh"), "ada", "--root", learner.toString(), "--out", folder.toString());
        String packed = Files.exists(folder.resolve("ada.json")) ? Files.readString(folder.resolve("ada.json")) : "";
        JsonNode ada = packed.isEmpty() ? Jackson.MAPPER.createObjectNode() : Jackson.tree(packed);
        List<String> raced = new ArrayList<>();
        ada.path("bench").forEach(b -> raced.add(b.path("chapter").asText()));
        RoomTest.outcomes.record("handin.sh packs a learner's checks, races and timelines of their own exercise into NAME.json, and only what the room shows",
                handedIn == 0 && raced.equals(List.of("03", "05")) && !packed.contains("\"hint\"") && !packed.contains("what ada's server said")
                        && !packed.contains("ada's laptop") && !packed.contains("bench.sh 05") && !packed.contains("4242") && !packed.contains("exercises/")
                        && ada.path("checks").get(0).path("checks").get(0).path("status").isTextual()
                        && ada.path("timelines").size() == 1 && "03".equals(ada.path("timelines").get(0).path("chapter").asText())
                        && Files.readString(dir.resolve("handin.log")).contains("and 1 timeline(s) in "),
                "exit " + handedIn + ", races " + raced + " (see " + dir.resolve("handin.log") + " and " + folder.resolve("ada.json") + ")");
        Files.delete(learner.resolve(".results/bench/05.json"));
        Files.delete(learner.resolve(".results/bench/04.json"));

        Path page = dir.resolve("room.html");
        int summarised = RoomTest.run(dir.resolve("summary.log"), RoomTest.script("room.sh"), folder.toString(), "--out", page.toString());
        String html = Files.exists(page) ? Files.readString(page) : "";
        List<String> missing = new ArrayList<>();
        for (String expected : List.of("2 learner(s)", "<td class=\"done\"", "<summary>4 to fix</summary>", "<summary>1 to fix</summary>",
                "06<br><small>Netty and virtual threads</small>", "req/s</small> 0.82× <small>the reference",
                "<section id=\"threads-ada-03\">", "<a href=\"#threads-ada-03\">their threads</a>")) {
            if (!html.contains(expected)) missing.add(expected);
        }
        RoomTest.outcomes.record("room.sh summarises the hand-ins: progress in every registry chapter, failing checks, races as labelled ratios, a learner's threads",
                summarised == 0 && missing.isEmpty(), "exit " + summarised + "; the page lacks " + missing + " (" + page + ")");
        if (missing.isEmpty()) {
            Files.createDirectories(RoomTest.root.resolve(".results"));
            Files.copy(page, RoomTest.root.resolve(".results/room-check.html"), java.nio.file.StandardCopyOption.REPLACE_EXISTING); // the browser test opens it
        }
        int empty = RoomTest.run(dir.resolve("empty.log"), RoomTest.script("room.sh"), learner.toString());
        RoomTest.outcomes.record("room.sh on a folder with no hand-ins says so and exits 1", empty == 1, "exit " + empty);

        // The live room, as the instructor starts it, and a learner's copy joining and leaving it.
        Path log = dir.resolve("serve.log");
        Process serve = new ProcessBuilder(RoomTest.script("room.sh"), "serve", "--port", "0", "--dir", dir.resolve("live").toString(), "--code", RoomTest.CODE)
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
            int sent = url == null ? -1 : RoomTest.run(dir.resolve("send.log"), RoomTest.script("handin.sh"), "ada", "--root", learner.toString(), "--to", url, "--code", RoomTest.CODE);
            Path joined = learner.resolve(".results/room.json");
            RoomTest.outcomes.record("room.sh serve prints the learners' command and the viewer's address; handin.sh --to is kept, and joins the room",
                    url != null && sent == 0 && Files.exists(dir.resolve("live/ada.json")) && Files.exists(joined) && Files.readString(joined).contains("\"token\"")
                            && printed.lines().anyMatch(l -> l.matches("^room: the room's page, for your screen only: http://.*/\\?view=.*")),
                    url == null ? "no address in 30 s (see " + log + ")" : "handin.sh --to exited " + sent + " (see " + log + ")");
            int left = RoomTest.run(dir.resolve("leave.log"), RoomTest.script("handin.sh"), "--leave", "--root", learner.toString());
            RoomTest.outcomes.record("handin.sh --leave forgets the room (and keeps the tokens)", left == 0 && RoomLink.joined(learner) == null
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
}
