import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;

/**
 * The live room, on the instructor's laptop: learners post their hand-ins
 * ({@code scripts/handin.sh NAME --to URL}), and {@code GET /} is the room summary, which reloads
 * itself. Hand-ins are kept in a folder, one file per learner ({@code NAME.json}, replaced by
 * their next hand-in), so a restart loses nothing and {@code room.sh FOLDER} reads the same
 * folder. A name is taken only as a plain name; a malformed, oversized or unknown hand-in is
 * refused with a one-line answer, and nothing else changes; with a room code, only posts that
 * carry it count.
 *
 * <pre>
 * POST /handin?name=NAME   body: a hand-in (course-handin/1); header X-Room-Code when the room has a code
 *   200 what was received · 400 not a hand-in, or a bad name · 403 wrong room code · 413 over 8 MiB
 * GET /                    the room summary
 * </pre>
 */
final class RoomServer {
    /** A hand-in holds the learner's reports and races; the largest seen are well under 1 MiB. */
    static final int MAX_BYTES = 8 * 1024 * 1024;
    static final int REFRESH_SECONDS = 10;

    private RoomServer() {}

    /** Serves the room until the process is stopped. */
    static void serve(Path root, Path dir, String host, int port, String code) throws IOException {
        HttpServer server;
        try {
            server = start(root, dir, host, port, code);
        } catch (java.net.BindException e) {
            Room.fail(2, "cannot listen on " + host + ":" + port + " (" + e.getMessage() + "): stop the program using that port, or give --port 0");
            return;
        }
        int bound = server.getAddress().getPort();
        System.out.println("room: serving the room summary at http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + bound
                + "/ (hand-ins kept in " + dir + ")");
        List<String> addresses = host.equals("0.0.0.0") ? addresses() : List.of(host);
        for (String address : addresses) {
            System.out.println("room: learners run: scripts/handin.sh NAME --to http://" + address + ":" + bound + "/"
                    + (code == null ? "" : " --code " + code) + "   (or: jbang handin NAME --to ... with the same options)");
        }
        if (host.startsWith("127.") || host.equals("localhost") || host.equals("::1")) {
            System.out.println("room: only this machine can reach it; to open it to the room, start with --host 0.0.0.0"
                    + " (and --code, so that only the room can post)");
        }
    }

    /** Starts the room's HTTP server (port 0: any free port) on virtual threads, and returns it. */
    static HttpServer start(Path root, Path dir, String host, int port, String code) throws IOException {
        Files.createDirectories(dir);
        Map<String, Chapters.Chapter> registry = Chapters.graded(root);
        HttpServer server = HttpServer.create(new InetSocketAddress(host, port), 128);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", exchange -> {
            try (exchange) {
                if (!exchange.getRequestURI().getPath().equals("/")) {
                    answer(exchange, 404, "text/plain", "no page here: the room summary is at /, hand-ins go to POST /handin\n");
                } else if (!exchange.getRequestMethod().equals("GET") && !exchange.getRequestMethod().equals("HEAD")) {
                    answer(exchange, 405, "text/plain", "GET / only\n");
                } else {
                    answer(exchange, 200, "text/html; charset=utf-8",
                            Summary.html(registry, Summary.read(dir), Instant.now(), REFRESH_SECONDS));
                }
            }
        });
        server.createContext("/handin", exchange -> {
            try (exchange) {
                Answer a = take(exchange, dir, code);
                answer(exchange, a.status(), "text/plain", a.text() + "\n");
            }
        });
        server.start();
        return server;
    }

    record Answer(int status, String text) {}

    /** Checks a posted hand-in and keeps it; what to answer. */
    static Answer take(HttpExchange exchange, Path dir, String code) throws IOException {
        if (!exchange.getRequestMethod().equals("POST")) return new Answer(405, "POST a hand-in here: scripts/handin.sh NAME --to URL");
        if (code != null && !code.equals(exchange.getRequestHeaders().getFirst("X-Room-Code"))) {
            return new Answer(403, "wrong or missing room code: ask the instructor for it, and give it with --code");
        }
        String name = query(exchange.getRequestURI().getRawQuery()).get("name");
        if (!Room.plainName(name)) {
            return new Answer(400, "a name is 1 to 40 letters, digits, dots, dashes or underscores");
        }
        byte[] body;
        try (InputStream in = exchange.getRequestBody()) {
            body = in.readNBytes(MAX_BYTES + 1);
        }
        if (body.length > MAX_BYTES) return new Answer(413, "a hand-in is at most " + MAX_BYTES / (1024 * 1024) + " MiB");
        Room.Handin handin;
        try {
            JsonNode doc = Jackson.tree(new String(body, StandardCharsets.UTF_8));
            if (!Room.SCHEMA.equals(doc.path("schema").asText())) throw new IllegalArgumentException("no \"schema\": \"" + Room.SCHEMA + "\"");
            handin = Jackson.convert(doc, Room.Handin.class);
        } catch (RuntimeException e) {
            return new Answer(400, "not a hand-in from scripts/handin.sh (" + e.getMessage() + ")");
        }
        if (!name.equals(handin.learner())) return new Answer(400, "the hand-in is " + handin.learner() + "'s, not " + name + "'s");
        // Write aside, then move into place: a reader never sees half a file, and two posts never mix.
        Path temporary = Files.createTempFile(dir, ".incoming-", ".json");
        try {
            Files.write(temporary, body);
            Files.move(temporary, dir.resolve(name + ".json"), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(temporary);
        }
        int checks = handin.checks() == null ? 0 : handin.checks().size();
        int races = handin.bench() == null ? 0 : handin.bench().size();
        return new Answer(200, "the room has your hand-in, " + name + ": " + checks + " graded chapter(s) and " + races + " race(s)");
    }

    private static void answer(HttpExchange exchange, int status, String type, String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        boolean head = exchange.getRequestMethod().equals("HEAD");
        exchange.sendResponseHeaders(status, head ? -1 : bytes.length);
        if (!head) exchange.getResponseBody().write(bytes);
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> values = new HashMap<>();
        if (raw == null) return values;
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                values.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                        URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return values;
    }

    /** This machine's IPv4 addresses other than loopback, for the line to give the room. */
    private static List<String> addresses() {
        List<String> found = new ArrayList<>();
        try {
            for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (!nic.isUp() || nic.isLoopback()) continue;
                nic.inetAddresses().filter(a -> a instanceof Inet4Address).forEach(a -> found.add(a.getHostAddress()));
            }
        } catch (IOException e) {
            // none to show
        }
        return found.isEmpty() ? List.of("THIS-MACHINE") : found;
    }
}
