///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
//DEPS com.fasterxml.jackson.core:jackson-databind:2.22.4
//SOURCES ../room/Room.java ../lib/Outcomes.java ../lib/Results.java Trees.java Commands.java RoomLoad.java
//SOURCES RoomLiveTests.java RoomScriptsTests.java RoomLimitsTests.java RoomTrustTests.java RoomTimelineTests.java RoomTlsTests.java RoomAdmitTests.java RoomDoorTests.java RoomNetnsTests.java

package test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import contract.BenchReport;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import lib.Jackson;
import lib.Outcomes;
import room.Known;
import room.RoomLink;
import room.RoomServer;
import room.RoomTls;
import room.Summary;

/**
 * The live room (scripts/room/RoomServer.java), in this process on loopback: 30 learners post at
 * once; a name stays with the laptop that took it; what the course does not know is ignored;
 * times are the room's; the caps hold under a flood with the page under {@link #PAGE_LIMIT};
 * only the viewer code opens the page; a restart keeps every seat and owner. Usage: RoomTest
 * ROOT. One ok/FAIL line per test, then "N passed, N failed".
 *
 * <p>The tests are in RoomLiveTests (one room in use), RoomScriptsTests (handin.sh and room.sh),
 * RoomLimitsTests (slow senders, the Wi-Fi, a day's load, a flood), RoomTrustTests (claims
 * held to what the course knows) and RoomTimelineTests (a learner's timeline, handed in and drawn); {@link #main} runs them in their order, and this class holds
 * what they share: the room's codes, each learner's token, hand-ins as a learner's copy sends
 * them, and the requests a laptop and the projector make.
 */
class RoomTest {
    static final Outcomes outcomes = new Outcomes("room: ");
    static final String CODE = "sesame";
    static final String VIEW = "viewer-test";
    /** The page, for 30 learners at their largest real hand-ins, stays under this. */
    static final int PAGE_LIMIT = Summary.PAGE_BYTES;
    static final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    static Known known;
    static Path root;
    /** Each learner's token, as their copy of the course keeps it. */
    static final Map<String, String> tokens = new ConcurrentHashMap<>();
    /** What the probes of a learner on the room's network found, by probe: written to site/measured/room-probes.json by --probes. */
    static final Map<String, Object> probes = new java.util.LinkedHashMap<>();

    /** A probe's figures, in the order given: name, value, name, value... */
    static Map<String, Object> figures(Object... namesAndValues) {
        Map<String, Object> f = new java.util.LinkedHashMap<>();
        for (int i = 0; i + 1 < namesAndValues.length; i += 2) f.put((String) namesAndValues[i], namesAndValues[i + 1]);
        return f;
    }
    /** How long the room here gives a request to arrive in full, set in {@link #main}; RoomLimitsTests.slowBodies waits past it. */
    static final int SLOW_CUTOFF_SECONDS = 3;

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
        if (List.of(args).contains("--probes")) { // the probes at full size, for the guide's figures
            RoomDoorTests.tries = 1300;
            RoomTlsTests.pinned();
            RoomLimitsTests.wifi();
            RoomAdmitTests.admitted();
            RoomDoorTests.door();
            RoomNetnsTests.manyAddresses();
            Map<String, Object> file = new java.util.LinkedHashMap<>();
            file.put("about", "The live room probed as a learner on its network would (scripts/test/RoomTest.java --probes): sniff (plain HTTP to the"
                    + " learners' port, and a machine with another key at the room's address), addressChange (the room restarted at another port),"
                    + " flood (names asked for from 19 addresses of one machine, 4 each, then a restart), idle (idle connections from 19 addresses,"
                    + " then 8 learners' hand-ins over TLS, each timed in ms), ipv6 (one machine with 29 addresses of one /64, in a network"
                    + " namespace the test makes), guess (wrong codes from one address in a minute, then the right one; and how many codes the room"
                    + " can make). Room and laptops on this machine; addresses of 127.0.0.0/8, and of the namespace's veth pair.");
            file.put("command", "jbang scripts/test/RoomTest.java . --probes");
            file.put("machine", Runtime.getRuntime().availableProcessors() + " CPUs, Java " + Runtime.version() + ", " + System.getProperty("os.name")
                    + " " + System.getProperty("os.version"));
            file.put("date", Instant.now().toString().substring(0, 10));
            file.putAll(probes);
            Files.writeString(root.resolve("site/measured/room-probes.json"), Jackson.write(file) + "\n", StandardCharsets.UTF_8);
            System.out.println("room probes: written to site/measured/room-probes.json");
            System.exit(outcomes.end());
        }
        Path dir = RoomLiveTests.inUse();
        RoomLiveTests.viewerKept(dir);
        RoomScriptsTests.tokensStayWithTheirRoom();
        RoomLimitsTests.slowBodies();
        RoomTrustTests.seatNotKept();
        RoomTrustTests.untrusted();
        RoomTrustTests.drawnBounds();
        RoomTlsTests.pinned();
        RoomAdmitTests.admitted();
        RoomDoorTests.door();
        RoomNetnsTests.manyAddresses();
        RoomTimelineTests.handedIn();
        RoomTimelineTests.drawnAndChecked();
        RoomTimelineTests.budget();
        RoomLimitsTests.wifi();
        RoomLimitsTests.tricklingRoom();
        RoomLimitsTests.dayInTheRoom();
        RoomLimitsTests.flood();
        RoomScriptsTests.scripts();
        System.exit(outcomes.end());
    }

    /** The projector's cookie for the room kept in {@code dir}: its session id, not the viewer code. */
    static String viewerCookie(Path dir) throws java.io.IOException {
        return RoomServer.VIEW_COOKIE + "=" + RoomServer.Viewer.kept(dir, VIEW).session();
    }

    /** A script of the course (bash), by name. */
    static String script(String name) {
        return root.resolve("scripts").resolve(name).toString();
    }

    /** Runs a command to its end (3 minutes at most), its output in {@code log}; its exit status, or -1 when it did not end. */
    static int run(Path log, String... command) throws Exception {
        return Commands.run(log, java.time.Duration.ofMinutes(3), command).status();
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

    /**
     * A hand-in of {@code name} (chapter 01, one check failing) from the source address
     * {@code from} (an address of 127.0.0.0/8 stands for a laptop on the Wi-Fi), with its
     * {@code token} when not null, over TLS to the room of {@code pin} when not null.
     */
    static HttpResponse<String> postFrom(String url, String from, String pin, String name, String token) throws Exception {
        HttpClient.Builder builder = HttpClient.newBuilder().localAddress(java.net.InetAddress.getByName(from)).connectTimeout(Duration.ofSeconds(5));
        if (pin != null) builder.sslContext(RoomTls.pinned(pin));
        try (HttpClient laptop = builder.build()) {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url.replaceAll("/+$", "") + "/handin?name=" + name)).timeout(Duration.ofSeconds(20))
                    .header(RoomLink.CODE_HEADER, CODE).POST(HttpRequest.BodyPublishers.ofString(handin(name, Map.of("01", 1)).toString()));
            if (token != null) b.header(RoomLink.TOKEN_HEADER, token);
            return laptop.send(b.build(), HttpResponse.BodyHandlers.ofString());
        }
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
