//SOURCES PlainText.java RoomTls.java ../contract/Contract.java ../lib/Results.java ../lib/Jackson.java
package room;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import contract.CheckReport;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Stream;
import lib.Jackson;
import lib.Results;

/**
 * The learner's side of the room. A hand-in is the learner's latest whole grading of each
 * chapter ({@code .results/checks/NN.json}) and latest race of each chapter
 * ({@code .results/bench/NN.json}), as they are on disk; it goes to a file or to a live room.
 *
 * <p>A copy of the course that has handed in to a live room once has joined it: {@code
 * .results/room.json} keeps the room's address, its code, the learner's name and the token the
 * room gave that name. From then on every grading and race, which each save through {@link #save},
 * is sent by {@link #sendLater}, in the background: it never fails the learner's command, and delays its
 * exit by at most {@link #EXIT_WAIT} when the room is slow or gone.
 */
public final class RoomLink {
    public static final String SCHEMA = "course-handin/1";
    public static final String CODE_HEADER = "X-Room-Code";
    /** Sent with every post of a joined name, and given back by the room when it gives a name to this machine. */
    public static final String TOKEN_HEADER = "X-Room-Token";
    static final String NAME_RULE = "a name is 1 to 32 letters, digits, dashes or underscores, starting with a letter or digit"
            + " (and not a name Windows keeps for devices, such as con, nul or com1)";
    /** How long a grading or race waits, as it exits, for its hand-in to reach the room. */
    static final Duration EXIT_WAIT = Duration.ofSeconds(2);
    /** A hand-in that could not reach the room is sent once more after this pause. */
    static final Duration RETRY_PAUSE = Duration.ofMillis(300);

    private RoomLink() {}

    /**
     * The room this copy joined, the name it has there and that name's token, and the room's pin
     * when it serves over TLS ({@link RoomTls}); and every token a room gave this copy, by the
     * room and the name ({@link #roomKey}), so a token goes only to the room that issued it, and
     * going back to an earlier room finds its own. A room with a pin is known by its pin, so its
     * tokens still go to it when its address changes.
     */
    public record Joined(String url, String code, String name, String token, java.util.Map<String, String> tokens, String pin) {
        public Joined(String url, String code, String name, String token) {
            this(url, code, name, token, null, null);
        }

        /** A room joined over TLS: its pin too. */
        public static Joined pinned(String url, String pin, String code, String name, String token) {
            return new Joined(url, code, name, token, null, pin);
        }

        /** The token the room at {@code room} (with {@code pin}, or none) gave {@code name}, or null. */
        public String tokenFor(String room, String pin, String name) {
            String kept = tokens == null ? null : tokens.get(roomKey(room, pin, name));
            if (kept != null) return kept;
            // A file written before tokens were kept by room: its one token is its own room's.
            return roomKey(url, this.pin, this.name).equals(roomKey(room, pin, name)) ? token : null;
        }
    }

    /**
     * A room and a name as the tokens are kept: the room's pin when it has one, else its address
     * without a trailing slash, its scheme and host in lower case; then the name's {@link #key}.
     */
    public static String roomKey(String url, String pin, String name) {
        String who = key(name == null ? "" : name);
        if (pin != null) return "pin " + pin + " " + who;
        String u = url == null ? "" : url.strip().replaceAll("/+$", "");
        int path = u.indexOf('/', u.indexOf("://") + 3);
        String head = path < 0 ? u : u.substring(0, path);
        return head.toLowerCase(Locale.ROOT) + (path < 0 ? "" : u.substring(path)) + " " + who;
    }

    /**
     * A learner's name as the room takes it. Names are compared without case (on a Mac or a
     * Windows disk {@code Ada.json} and {@code ada.json} are one file): see {@link #key}.
     */
    static boolean plainName(String name) {
        return name != null && name.matches("[A-Za-z0-9][A-Za-z0-9_-]{0,31}")
                && !name.toLowerCase(Locale.ROOT).matches("con|prn|aux|nul|com[0-9]|lpt[0-9]");
    }

    /** The name as the room files it: lower case. */
    public static String key(String name) {
        return name.toLowerCase(Locale.ROOT);
    }

    // ---- The hand-in ----

    /**
     * The learner's hand-in; its lists are empty when there is nothing to hand in yet (which
     * joins a room all the same). It carries what the room shows and no more ({@link #grading},
     * {@link #race}). Only a chapter's races of the learner's own exercise go in: not
     * {@code --all}, a race of the reference against itself or of another file, or of a server
     * already running ({@code --url}).
     */
    public static ObjectNode handin(Path root, String name) throws IOException {
        JsonNodeFactory json = JsonNodeFactory.instance;
        ArrayNode checks = json.arrayNode(), bench = json.arrayNode();
        for (JsonNode doc : read(root.resolve(".results/checks"))) {
            try {
                checks.add(grading(doc));
            } catch (IllegalArgumentException e) { // JSON, but not a grading's: the room would not take it either
                System.err.println("handin: skipping a grading in .results/checks that is not one (" + e.getMessage() + ")");
            }
        }
        for (JsonNode doc : read(root.resolve(".results/bench"))) {
            // BenchReport.Kind.CHAPTER, read as text: a hand-in copies the figures as they are
            if ("chapter".equals(doc.path("kind").asText()) && ownExercise(doc)) bench.add(race(doc));
        }
        ObjectNode handin = json.objectNode();
        handin.put("schema", SCHEMA).put("learner", name).put("time", Instant.now().toString());
        handin.set("checks", checks);
        handin.set("bench", bench);
        ArrayNode timelines = timelines(root);
        if (!timelines.isEmpty()) handin.set("timelines", timelines);
        return handin;
    }

    /**
     * Per chapter, the newest timeline of the learner's own exercise recorded during a check
     * ({@code .results/timeline/NN-ID.json} from {@code check.sh NN --timeline}), as the room
     * takes it ({@link #timeline}); a file over {@link #MAX_TIMELINE} is left out.
     */
    static ArrayNode timelines(Path root) throws IOException {
        java.util.Map<String, JsonNode> newest = new java.util.TreeMap<>();
        Path dir = root.resolve(".results/timeline");
        if (Files.isDirectory(dir)) {
            try (Stream<Path> files = Files.list(dir)) {
                for (Path f : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
                    if (Files.size(f) > MAX_TIMELINE) continue;
                    JsonNode doc;
                    try {
                        doc = Jackson.tree(Files.readString(f));
                    } catch (RuntimeException e) {
                        continue; // not a timeline the grader wrote
                    }
                    String chapter = doc.path("chapter").asText("");
                    // A check's id has a dot (ch04.spread); a race's timeline is named by its workload (hello).
                    if (!"course-timeline/1".equals(doc.path("schema").asText()) || !doc.path("what").asText().contains(".")
                            || !ownFile(doc.path("server").asText(null), chapter)) continue;
                    newest.merge(chapter, doc, (a, b) -> b.path("recorded").asText().compareTo(a.path("recorded").asText()) > 0 ? b : a);
                }
            }
        }
        ArrayNode kept = JsonNodeFactory.instance.arrayNode();
        newest.values().forEach(doc -> kept.add(timeline(doc)));
        return kept;
    }

    /** A grading as the room takes it ({@link CheckReport#handedIn}): its chapter, time, exit, error and size, and each check's id and status (no messages, hints or paths). */
    static JsonNode grading(JsonNode doc) {
        if (doc.isArray()) {
            ArrayNode all = JsonNodeFactory.instance.arrayNode();
            doc.forEach(d -> all.add(grading(d)));
            return all;
        }
        return Jackson.MAPPER.valueToTree(Jackson.convert(doc, CheckReport.class).handedIn());
    }

    static JsonNode race(JsonNode doc) {
        ObjectNode kept = doc.deepCopy();
        kept.remove(java.util.List.of("command", "machine", "compareTo", "ramp", "spike", "soak", "openLoop", "connections"));
        for (JsonNode server : kept.path("servers")) {
            if (server instanceof ObjectNode o) o.remove(java.util.List.of("label", "file", "url", "args", "pid"));
        }
        return kept;
    }

    /** A timeline as the room takes it ({@link RoomTimeline}): the check, the lanes' names, roles, CPU digits and wait codes, the virtual threads alive and pinned; no path, notes or events' words. */
    public static ObjectNode timeline(JsonNode doc) {
        ObjectNode kept = JsonNodeFactory.instance.objectNode();
        kept.put("chapter", doc.path("chapter").asText());
        kept.put("check", doc.path("what").asText());
        kept.put("recorded", doc.path("recorded").asText());
        kept.put("sliceMs", doc.path("sliceMs").asInt());
        kept.put("slices", doc.path("slices").asInt());
        var lanes = kept.putArray("lanes");
        for (JsonNode l : doc.path("lanes")) {
            lanes.addObject().put("name", l.path("name").asText()).put("role", l.path("role").asText())
                    .put("cpu", l.path("cpu").asText()).put("state", l.path("state").asText());
        }
        for (String counts : java.util.List.of("alive", "pinned")) { // absent from a file the grader did not write: the room drops it
            if (doc.path("virtual").path(counts).isArray()) kept.set(counts, doc.path("virtual").path(counts));
        }
        return kept;
    }

    /**
     * Whether the race's learner is the learner's own exercise of its chapter
     * ({@code exercises/NN-*.java}); a race that names no file and no address (written by
     * hand, or by an older course) counts as theirs.
     */
    static boolean ownExercise(JsonNode race) {
        for (JsonNode server : race.path("servers")) {
            if (!"learner".equals(server.path("role").asText())) continue;
            String file = server.path("file").asText(null);
            if (file == null) return server.path("url").isMissingNode() || server.path("url").isNull();
            return ownFile(file, race.path("chapter").asText("?"));
        }
        return false;
    }

    /** Whether {@code file} is the learner's own exercise of {@code chapter}: {@code exercises/NN-*.java}. */
    static boolean ownFile(String file, String chapter) {
        if (file == null || chapter == null || chapter.isEmpty()) return false;
        Path p;
        try {
            p = Path.of(file);
        } catch (RuntimeException e) {
            return false;
        }
        return p.getParent() != null && p.getParent().getFileName() != null && p.getParent().getFileName().toString().equals("exercises")
                && p.getFileName().toString().startsWith(chapter + "-");
    }

    /** The most of a timeline file a hand-in reads: the grader writes 2 to 8 KB. */
    static final int MAX_TIMELINE = 64 * 1024;

    /** Whether a hand-in holds nothing: no grading and no race. */
    public static boolean empty(JsonNode handin) {
        return handin.path("checks").isEmpty() && handin.path("bench").isEmpty() && handin.path("timelines").isEmpty();
    }

    private static java.util.List<JsonNode> read(Path dir) throws IOException {
        java.util.List<JsonNode> all = new java.util.ArrayList<>();
        if (!Files.isDirectory(dir)) return all;
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
                try {
                    all.add(Jackson.tree(Files.readString(f)));
                } catch (RuntimeException e) {
                    System.err.println("handin: skipping " + f + ": not JSON (" + e.getMessage() + ")");
                }
            }
        }
        return all;
    }

    // ---- The room this copy joined ----

    static Path joinedFile(Path root) {
        return root.resolve(".results/room.json");
    }

    /** The room this copy joined, or null. */
    public static Joined joined(Path root) {
        Joined j = kept(root);
        return j == null || j.url() == null || !plainName(j.name()) ? null : j;
    }

    /** What the file keeps, a room joined or not (after --leave: only the tokens), or null. */
    public static Joined kept(Path root) {
        Path file = joinedFile(root);
        if (!Files.isRegularFile(file)) return null;
        try {
            return Jackson.read(Files.readString(file), Joined.class);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** Joins the room {@code joined} names, keeping its token beside those of the rooms joined before. */
    public static void join(Path root, Joined joined) throws IOException {
        java.util.Map<String, String> tokens = tokens(kept(root));
        if (joined.tokens() != null) tokens.putAll(joined.tokens());
        if (joined.token() != null) tokens.put(roomKey(joined.url(), joined.pin(), joined.name()), joined.token());
        write(root, new Joined(joined.url(), joined.code(), joined.name(), joined.token(), tokens, joined.pin()));
    }

    /** Every token {@code kept} holds, by room and name. */
    private static java.util.Map<String, String> tokens(Joined kept) {
        java.util.Map<String, String> tokens = new java.util.TreeMap<>();
        if (kept != null) {
            if (kept.tokens() != null) tokens.putAll(kept.tokens());
            if (kept.url() != null && kept.token() != null) tokens.putIfAbsent(roomKey(kept.url(), kept.pin(), kept.name()), kept.token());
        }
        return tokens;
    }

    /** Written owner-only where the file system can say so: the tokens prove this laptop's names. */
    private static void write(Path root, Joined joined) throws IOException {
        keepPrivately(joinedFile(root), Jackson.write(joined));
    }

    /** Writes {@code text} to {@code file} whole, readable by its owner only where the file system says so. */
    static void keepPrivately(Path file, String text) throws IOException {
        writeWhole(file, text, true);
    }

    /**
     * Writes {@code text} to {@code file} whole: aside (a name starting with a dot, which no
     * reader of the folder takes), then moved into place, so a reader never sees half a file.
     */
    static void writeWhole(Path file, String text, boolean ownerOnly) throws IOException {
        Files.createDirectories(file.getParent());
        Path temporary = Files.createTempFile(file.getParent(), "." + file.getFileName().toString().replace(".", "") + "-", ".tmp");
        try {
            if (ownerOnly) ownerOnly(temporary, "rw-------");
            Files.writeString(temporary, text, java.nio.charset.StandardCharsets.UTF_8);
            Files.move(temporary, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(temporary);
        }
    }

    /** Gives {@code path} POSIX {@code permissions} ("rw-------"); on a file system without them (Windows), its folder's apply. */
    static void ownerOnly(Path path, String permissions) throws IOException {
        try {
            Files.setPosixFilePermissions(path, java.nio.file.attribute.PosixFilePermissions.fromString(permissions));
        } catch (UnsupportedOperationException e) {
            // not a POSIX file system: the folder's own permissions apply
        }
    }

    /** Stops sending to the room, and keeps the tokens (going back to a room finds its own); true when a room was joined. */
    static boolean leave(Path root) throws IOException {
        Joined kept = kept(root);
        if (kept == null) return false;
        write(root, new Joined(null, null, null, null, tokens(kept), null));
        return kept.url() != null;
    }

    // ---- Posting ----

    /** The room's answer: its status, its one line, and the name's token when it gave one. */
    public record Answer(int status, String text, String token) {}

    /** The most of a room's answer read: a line, and a little more. */
    static final int MAX_ANSWER = 16 * 1024;

    /** Posts a hand-in to a room in plain HTTP (on this machine): {@link #post(String, String, String, String, String, String, Duration)} with no pin. */
    public static Answer post(String url, String code, String name, String token, String body, Duration timeout)
            throws IOException, InterruptedException {
        return post(url, null, code, name, token, body, timeout);
    }

    /**
     * Posts a hand-in to the room at {@code url}; IOException when the room cannot be reached, or
     * does not give its whole answer within {@code timeout} (the connection, the upload and the
     * answer together: a room that trickles its answer holds no one's results). An {@code https}
     * room must show the certificate of {@code pin} before anything is sent
     * ({@link RoomTls#otherRoom} says when it did not); plain {@code http} goes to this machine only,
     * since the code and the token would cross the air readable.
     */
    public static Answer post(String url, String pin, String code, String name, String token, String body, Duration timeout)
            throws IOException, InterruptedException {
        URI to;
        try {
            to = URI.create((url.endsWith("/") ? url : url + "/") + "handin?name=" + name);
            if (!"http".equals(to.getScheme()) && !"https".equals(to.getScheme()) || to.getHost() == null) throw new IllegalArgumentException("not http");
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + url + "' is no address: give the one the instructor's room printed, such as https://10.0.0.5:8400/");
        }
        if ("https".equals(to.getScheme()) && pin == null) {
            throw new IllegalArgumentException("a room at https:// is known by its pin: give --pin as the room's Join line does, such as --pin 7XQ4-M2KD-9RTA-PL3E");
        }
        if ("http".equals(to.getScheme()) && !thisMachine(to.getHost())) {
            throw new IllegalArgumentException("'" + url + "' is plain http to another machine, where the Wi-Fi could read your code and token:"
                    + " a room on the network is https:// with a --pin; copy the Join line the instructor's room shows");
        }
        HttpRequest.Builder request = HttpRequest.newBuilder(to).timeout(timeout)
                .header("Content-Type", "application/json").header(CODE_HEADER, code == null ? "" : code)
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (token != null) request.header(TOKEN_HEADER, token);
        HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(timeout);
        if (pin != null) builder.sslContext(RoomTls.pinned(pin));
        HttpClient client = builder.build();
        java.util.concurrent.FutureTask<Answer> exchange = new java.util.concurrent.FutureTask<>(() -> {
            HttpResponse<java.io.InputStream> answer = client.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
            try (java.io.InputStream in = answer.body()) {
                String text = new String(in.readNBytes(MAX_ANSWER), java.nio.charset.StandardCharsets.UTF_8);
                return new Answer(answer.statusCode(), PlainText.of(text, true).strip(), answer.headers().firstValue(TOKEN_HEADER).orElse(null));
            }
        });
        Thread.ofVirtual().name("room-post").start(exchange);
        try {
            return exchange.get(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new java.net.http.HttpTimeoutException("no whole answer in " + timeout.toSeconds() + " s");
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof IOException io) throw io;
            if (e.getCause() instanceof RuntimeException r) throw r;
            throw new IOException(e.getCause());
        } finally {
            exchange.cancel(true);
            client.shutdownNow(); // Why: close() would wait for a room that trickles its answer
        }
    }

    /** Whether {@code host}, as a URL gives it, is this machine. */
    static boolean thisMachine(String host) {
        String h = host.toLowerCase(Locale.ROOT);
        return h.startsWith("127.") || h.equals("localhost") || h.equals("[::1]") || h.equals("::1");
    }

    // ---- Sending each result as it is saved ----

    /** One send at a time, in the order they were asked for: each reads the files when its turn comes. */
    private static final ReentrantLock TURN = new ReentrantLock(true);
    private static final AtomicReference<Thread> LATEST = new AtomicReference<>();
    private static final AtomicBoolean WAITS_AT_EXIT = new AtomicBoolean();
    /** A send waits for its turn and has not read the files yet: a later result goes with it. */
    private static final AtomicBoolean PENDING = new AtomicBoolean();
    private static final AtomicBoolean SAID = new AtomicBoolean();

    /**
     * Saves a grading's or a race's result as {@link Results#write} does, then sends it to the room
     * this copy joined, if any ({@link #sendLater}); returns the file. Check.sh and bench.sh save
     * here, so a joined copy hands in without a step of the learner's.
     */
    public static Path save(Path root, String kind, String name, String json) throws IOException {
        Path file = Results.write(root, kind, name, json);
        sendLater(root);
        return file;
    }

    /**
     * Sends the learner's hand-in to the room this copy joined, if any, in the background, once
     * more after {@link #RETRY_PAUSE} when it cannot reach the room: a failure, or a send still
     * under way when the command ends, prints one line (once a process) and changes nothing
     * else; the next result sends everything again. At most one send waits for its turn: it reads the files when its turn
     * comes, so it carries every result saved meanwhile.
     */
    public static void sendLater(Path root) {
        Joined joined = joined(root);
        if (joined == null) return;
        if (!PENDING.compareAndSet(false, true)) return;
        Thread sender = Thread.ofPlatform().daemon().name("room-handin").unstarted(() -> send(root, joined));
        if (WAITS_AT_EXIT.compareAndSet(false, true)) {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                Thread last = LATEST.get();
                try {
                    if (last != null) last.join(EXIT_WAIT);
                } catch (InterruptedException e) {
                    // exiting anyway
                }
                if (last != null && last.isAlive()) {
                    say("your results had not reached the room at " + joined.url() + " when this command ended (" + EXIT_WAIT.toSeconds()
                            + " s): they are kept here and go with your next grading or race");
                }
            }));
        }
        LATEST.set(sender);
        sender.start();
    }

    private static void send(Path root, Joined joined) {
        TURN.lock();
        PENDING.set(false);
        try {
            String handin = Jackson.write(handin(root, joined.name()));
            Answer answer;
            try {
                answer = post(joined.url(), joined.pin(), joined.code(), joined.name(), joined.token(), handin, Duration.ofSeconds(5));
            } catch (IOException e) { // once more, after a pause: a room restarting, or a Wi-Fi that dropped one packet
                if (RoomTls.otherRoom(e) != null) throw e; // another machine at the room's address: not again
                Thread.sleep(RETRY_PAUSE.toMillis());
                answer = post(joined.url(), joined.pin(), joined.code(), joined.name(), joined.token(), handin, Duration.ofSeconds(5));
            }
            if (answer.token() != null && (answer.status() == 200 || answer.status() == 202)) { // the room gave the name (or its claim) to this machine just now: keep the proof
                join(root, Joined.pinned(joined.url(), joined.pin(), joined.code(), joined.name(), answer.token()));
            }
            if (answer.status() == 202) {
                say("the room has not let you in yet: " + answer.text());
            } else if (answer.status() != 200) {
                say("the room at " + joined.url() + " refused your results (" + answer.status() + "): " + answer.text());
            }
        } catch (IOException | RuntimeException e) {
            say("could not reach the room at " + joined.url() + " (" + why(e) + "): your results are kept here and go with"
                    + " your next grading or race; scripts/handin.sh --leave stops sending them");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            TURN.unlock();
        }
    }

    /** Why a post failed, in words: a refused connection has no message of its own. */
    public static String why(Exception e) {
        RoomTls.OtherRoom other = RoomTls.otherRoom(e);
        if (other != null) return "the machine there is not the room: " + other.getMessage() + "; nothing was sent";
        if (e instanceof java.net.ConnectException) return "nothing answers at that address";
        if (e instanceof java.net.http.HttpTimeoutException) return "no answer in time";
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }

    private static void say(String line) {
        if (SAID.compareAndSet(false, true)) System.err.println("room: " + line);
    }
}
