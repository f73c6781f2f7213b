///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
//DEPS com.fasterxml.jackson.core:jackson-databind:2.22.4
//SOURCES ../room/Room.java ../lib/Outcomes.java

import com.sun.net.httpserver.HttpServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

/**
 * The live room (scripts/room/RoomServer.java), in this process on loopback: 30 learners post at
 * once; bad hand-ins are refused and change nothing; names and messages show as text; a restart
 * keeps every hand-in. Usage: RoomTest ROOT. One ok/FAIL line per test, then "N passed, N failed".
 */
class RoomTest {
    static final Outcomes outcomes = new Outcomes("room: ");
    static final String CODE = "sesame";
    static final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args.length > 0 ? args[0] : ".").toAbsolutePath().normalize();
        Path dir = Files.createTempDirectory("room-test");
        HttpServer server = RoomServer.start(root, dir, "127.0.0.1", 0, CODE);
        String url = "http://127.0.0.1:" + server.getAddress().getPort();
        try {
            // Thirty learners at once, each failing a different number of chapter 01's checks.
            List<Future<Integer>> posts = new ArrayList<>();
            try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
                for (int i = 1; i <= 30; i++) {
                    String name = "learner-" + i;
                    String body = Jackson.write(handin(name, i % 3));
                    posts.add(pool.submit(() -> post(url, name, body, CODE).statusCode()));
                }
            }
            long accepted = posts.stream().filter(f -> f.resultNow() == 200).count();
            outcomes.record("30 learners posting at once are all taken", accepted == 30, accepted + " answered 200");
            outcomes.record("each is kept as its own file", files(dir) == 30, files(dir) + " files in " + dir);

            String page = get(url + "/").body();
            outcomes.record("the page shows the 30 learners, and reloads itself", page.contains("30 learner(s)")
                    && page.contains("http-equiv=\"refresh\""), "page: " + page.substring(0, Math.min(300, page.length())));
            outcomes.record("the page shows the check most of the room is stuck on, and each learner's failing checks, folded",
                    page.contains("Stuck on") && page.contains("answers GET / (20)") && page.contains("<details><summary>2 to fix</summary>"),
                    "no 'answers GET / (20)' or folded list");
            outcomes.record("the page says how long ago each learner handed in", page.contains("just now"), "no age");

            // Refused, and nothing changes.
            String good = Jackson.write(handin("mallory", 0));
            expect(post(url, "../evil", good, CODE), 400, "a name with a path in it");
            expect(post(url, "<b>x</b>", good, CODE), 400, "a name with markup in it");
            expect(post(url, "..", good, CODE), 400, "a name of dots only");
            expect(post(url, "mallory", "{not json", CODE), 400, "a body that is not JSON");
            expect(post(url, "mallory", "{\"schema\": \"something-else\"}", CODE), 400, "JSON that is not a hand-in");
            expect(post(url, "mallory", Jackson.write(handin("alice", 0)), CODE), 400, "someone else's hand-in");
            expect(post(url, "mallory", "x".repeat(RoomServer.MAX_BYTES + 1), CODE), 413, "a body over 8 MiB");
            expect(post(url, "mallory", good, "wrong"), 403, "a wrong room code");
            expect(post(url, "mallory", good, null), 403, "no room code");
            expect(get(url + "/handin"), 405, "GET /handin");
            expect(get(url + "/room.html"), 404, "an unknown page");
            outcomes.record("refused hand-ins leave nothing behind", files(dir) == 30 && !Files.exists(dir.getParent().resolve("evil.json")),
                    files(dir) + " files");

            // Text stays text: a check's name with markup in it.
            HttpResponse<String> sly = post(url, "sly", Jackson.write(handin("sly", 1, "<script>alert(1)</script>")), CODE);
            String after = get(url + "/").body();
            outcomes.record("markup in a hand-in shows as text, not markup", sly.statusCode() == 200
                    && after.contains("&lt;script&gt;alert(1)&lt;/script&gt;") && !after.contains("<script>alert"), "escaping");

            // A learner's next hand-in replaces their last.
            post(url, "learner-1", Jackson.write(handin("learner-1", 0)), CODE);
            outcomes.record("a second hand-in replaces the first", files(dir) == 31, files(dir) + " files");
        } finally {
            server.stop(0);
        }
        HttpServer again = RoomServer.start(root, dir, "127.0.0.1", 0, CODE);
        try {
            String page = get("http://127.0.0.1:" + again.getAddress().getPort() + "/").body();
            outcomes.record("a restarted room still has every hand-in", page.contains("31 learner(s)"), "after a restart the page says: "
                    + page.substring(page.indexOf("<p>"), Math.min(page.length(), page.indexOf("<p>") + 80)));
        } finally {
            again.stop(0);
        }
        outcomes.finish();
    }

    /** A hand-in of chapter 01 that fails {@code failing} checks (0: all pass). */
    static Room.Handin handin(String name, int failing) {
        return handin(name, failing, "answers GET /");
    }

    static Room.Handin handin(String name, int failing, String failingName) {
        List<CheckReport.Check> checks = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            boolean fails = i < failing;
            checks.add(new CheckReport.Check("protocol.c" + i, i == 0 ? failingName : "check " + i, fails ? "fail" : "pass",
                    null, null, null, null, null));
        }
        CheckReport report = new CheckReport("01", "The blocking server", "exercise", Instant.now().toString(), "exercises/01-blocking.java",
                (long) (5 - failing), (long) failing, 0L, null, checks, null, failing == 0 ? 0 : 1, null);
        return new Room.Handin(Room.SCHEMA, name, Instant.now().toString(), List.of(report), List.of());
    }

    static HttpResponse<String> post(String url, String name, String body, String code) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url + "/handin?name=" + java.net.URLEncoder.encode(name, "UTF-8")))
                .timeout(Duration.ofSeconds(20)).POST(HttpRequest.BodyPublishers.ofString(body));
        if (code != null) b.header("X-Room-Code", code);
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    static HttpResponse<String> get(String url) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
    }

    static void expect(HttpResponse<String> answer, int status, String what) {
        outcomes.record(what + " is refused with " + status + ": " + answer.body().strip(), answer.statusCode() == status,
                "answered " + answer.statusCode() + ": " + answer.body().strip());
    }

    static long files(Path dir) throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".json")).count();
        }
    }
}
