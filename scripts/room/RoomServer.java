package room;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;
import lib.CommandError;
import lib.Jackson;

/**
 * The live room, on the instructor's laptop. Learners post hand-ins ({@code jbang handin NAME
 * --to URL}, then every grading and race by itself); the room keeps a {@link Seat} per learner
 * in a folder ({@code name.json}, lower case), so a restart loses nothing and {@code room.sh
 * FOLDER} reads the same folder.
 *
 * <p>A name belongs to the first laptop that hands in under it: the room answers that post with
 * a token ({@value RoomLink#TOKEN_HEADER}), keeps only the token's SHA-256 (in {@code
 * .owners/name}), and refuses the name to a post without it; {@code jbang room free NAME} lets
 * another laptop take it. The room takes what the course knows and nothing else (see
 * {@link Known}), at most {@link #MAX_BYTES} a hand-in and {@code maxLearners} learners, and
 * reads at most {@link #AT_ONCE} hand-ins at a time. Only a screen that gave the viewer code,
 * which the room prints for the instructor alone, sees the page.
 *
 * <pre>
 * POST /handin?name=NAME   a hand-in (course-handin/1); X-Room-Code, and X-Room-Token once the name is taken
 *   200 taken (with X-Room-Token the first time) · 400 not a hand-in, or a bad name · 403 wrong room code
 *   409 the name is another laptop's · 413 over MAX_BYTES · 503 the room is full, or busy
 * GET /?view=CODE          sets the viewer's cookie, and sends the screen to /
 * GET /                    the room summary (with the cookie), or a form that asks for the viewer code (401)
 * GET /summary             the page's body, which the page fetches to update itself (with the cookie)
 * </pre>
 */
public final class RoomServer {
    /**
     * The most a hand-in may be. A hand-in holds a chapter's latest grading and race for each
     * chapter; all eight graded and raced, with every check failing, is far under this (the
     * self-test's RoomTest measures the largest it can make and says by how much).
     */
    public static final int MAX_BYTES = 1024 * 1024;
    public static final int MAX_LEARNERS = 60;
    /** Hand-ins read and parsed at once; the others wait for a turn, up to 10 s, then 503. */
    public static final int AT_ONCE = 8;
    public static final int REFRESH_SECONDS = 10;
    /**
     * A request (its head and its body) not read in full within this many seconds is cut off by
     * the JDK's server ({@value #REQUEST_TIME_PROPERTY}): a hand-in is a few hundred KiB at most,
     * and one that trickles in must not hold the room. The learner's laptop gives up after 5 s.
     */
    static final int REQUEST_SECONDS = 20;
    public static final String REQUEST_TIME_PROPERTY = "sun.net.httpserver.maxReqTime";
    /**
     * The most a request's head may hold, its headers counted too ({@value #HEAD_SIZE_PROPERTY};
     * the JDK's default is 380 KiB): a hand-in's head is a few hundred bytes, so a machine that
     * opens thousands of connections with huge heads holds 16 KiB with each, not 380.
     */
    public static final int HEAD_BYTES = 16 * 1024;
    static final String HEAD_SIZE_PROPERTY = "sun.net.httpserver.maxReqHeaderSize";
    /** The most headers a request may have ({@value #HEADERS_PROPERTY}; the JDK's default is 200). */
    static final int HEADERS = 64;
    static final String HEADERS_PROPERTY = "sun.net.httpserver.maxReqHeaders";
    /** Hand-ins one address may have in flight at once (read, waiting for a turn, or taken); loopback is not limited. */
    public static final int PER_ADDRESS = 4;
    /** Which addresses {@link #PER_ADDRESS} limits: every one but this machine's own (RoomTest limits loopback too). */
    public static java.util.function.Predicate<java.net.InetAddress> limited = a -> !a.isLoopbackAddress();
    public static final String VIEW_COOKIE = "room-view";

    private RoomServer() {}

    /**
     * How the room runs: its folder, the code learners post with (or null), the viewer's code, the
     * most learners, how often the page updates itself, the day's agenda it shows (or null: every
     * chapter), and whether a new name from the network waits until the instructor lets it in.
     */
    public record Settings(Path dir, String code, String viewCode, int maxLearners, int refreshSeconds, String day, boolean admit) {
        public Settings(Path dir, String code, String viewCode, int maxLearners, int refreshSeconds, String day) {
            this(dir, code, viewCode, maxLearners, refreshSeconds, day, false);
        }

        public Settings(Path dir, String code, String viewCode) {
            this(dir, code, viewCode, MAX_LEARNERS, REFRESH_SECONDS, null);
        }

        /** The same room, where a new name from the network waits until the instructor lets it in ({@link Claims}). */
        public Settings admitting() {
            return new Settings(dir, code, viewCode, maxLearners, refreshSeconds, day, true);
        }
    }

    /**
     * The viewer's code and the cookie value that stands for it once given (a random session id,
     * not the code), kept in the room's folder ({@code .viewer}, readable by its owner only), so
     * that a restarted room keeps both and the projector's page stays open.
     */
    public record Viewer(String code, String session) {
        public static final String FILE = ".viewer";

        /** The room's viewer in {@code dir}: {@code given} when not null (a new session if it changed), else the kept one, else a new one. */
        public static Viewer kept(Path dir, String given) throws IOException {
            Path file = dir.resolve(FILE);
            Viewer before = null;
            if (Files.isRegularFile(file)) {
                List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
                if (lines.size() >= 2 && lines.get(0).matches(CODE_PATTERN) && lines.get(1).matches("[0-9a-f]{32}")) {
                    before = new Viewer(lines.get(0), lines.get(1));
                }
            }
            if (before != null && (given == null || before.code().equals(given))) return before;
            Viewer now = new Viewer(given != null ? given : newViewCode(), newSession());
            RoomLink.keepPrivately(file, now.code() + "\n" + now.session() + "\n");
            return now;
        }

        private static String newSession() {
            byte[] bytes = new byte[16];
            new SecureRandom().nextBytes(bytes);
            return HexFormat.of().formatHex(bytes);
        }
    }

    /**
     * The code learners post with: {@code given} (kept in the folder's {@code .code},
     * owner-only, for the next start), else the one the folder kept, else, for a room
     * {@code beyond} this machine, a new one (a room on the Wi-Fi without a code takes any web
     * page's posts), else null.
     */
    public static String learnerCode(Path dir, String given, boolean beyond) throws IOException {
        Path file = dir.resolve(".code");
        String kept = Files.isRegularFile(file) ? Files.readString(file, StandardCharsets.UTF_8).strip() : null;
        if (given == null && kept != null && !kept.isEmpty() && (!beyond || kept.matches(CODE_PATTERN))) return kept; // a short one kept for loopback is not taken beyond
        if (given == null && !beyond) return null;
        String code = given != null ? given : newViewCode();
        RoomLink.keepPrivately(file, code + "\n");
        return code;
    }


    /** Whether {@code host} is this machine only (a room there needs no code). */
    static boolean loopback(String host) {
        return RoomLink.thisMachine(host);
    }

    /** New names one laptop may ask for ({@link Claims#PER_LAPTOP}); loopback is not limited. */
    public static final int NAMES_PER_ADDRESS = Claims.PER_LAPTOP;

    /** What a viewer code may be: 8 to 64 letters, digits, - or _. */
    public static final String CODE_PATTERN = "[A-Za-z0-9_-]{8,64}";

    /** Why {@code code}, given with --code, is too weak for a room {@code beyond} this machine; null when it will do. */
    public static String weakCode(String code, boolean beyond) {
        if (code == null || !beyond || code.matches(CODE_PATTERN)) return null;
        return "a learners' code for a room on the network is 8 to 64 letters, digits, - or _ ('" + code
                + "' is guessed too soon): give a longer one, or leave --code out and the room makes one";
    }

    /** A viewer code: 8 letters and digits that read without doubt. */
    public static String newViewCode() {
        String alphabet = "abcdefghjkmnpqrstuvwxyz23456789";
        SecureRandom random = new SecureRandom();
        StringBuilder code = new StringBuilder();
        for (int i = 0; i < 8; i++) code.append(alphabet.charAt(random.nextInt(alphabet.length())));
        return code.toString();
    }

    /**
     * Starts the room on {@code host:port} and prints where it is; it serves on the server's
     * threads until the process is stopped. A room beyond this machine serves learners over TLS
     * only ({@link RoomTls}: its key kept in the folder, its pin on the Join line), and the
     * instructor's page, in plain HTTP, on this machine only, at the next port: a browser there
     * opens it without a warning, and nothing of it crosses the air.
     */
    static void serve(Path root, Settings settings, String host, int port) throws IOException {
        boolean local = loopback(host);
        RoomTls.Kept tls = local ? null : RoomTls.kept(settings.dir());
        Handlers handlers = handlers(root, settings);
        int bound;
        try {
            if (local) {
                bound = listen(handlers, host, port, null).getAddress().getPort();
            } else { // the door counts connections by laptop, and passes them on to the TLS server on loopback
                HttpServer learners = listen(handlers, "127.0.0.1", 0, tls.context());
                bound = Front.open(host, port, learners.getAddress(), limited, line -> System.err.println("room: " + line)).port();
            }
        } catch (java.net.BindException e) {
            throw CommandError.environment("cannot listen on " + host + ":" + port + " (" + e.getMessage() + "): stop the program using that port, or give --port 0");
        }
        int pagePort = bound;
        if (!local) {
            HttpServer page;
            try {
                page = listen(handlers, "127.0.0.1", bound + 1, null);
            } catch (java.net.BindException e) { // the next port is another program's: any free one
                page = listen(handlers, "127.0.0.1", 0, null);
            }
            pagePort = page.getAddress().getPort();
        }
        String shown = host.contains(":") ? "[" + host + "]" : host;
        System.out.println("room: serving the room (hand-ins kept in " + settings.dir() + ")");
        System.out.println("room: the room's page, for your screen only: http://" + (local ? shown : "127.0.0.1") + ":" + pagePort
                + "/?view=" + settings.viewCode() + "   (the viewer code is " + settings.viewCode() + "; the learners' code does not open it)");
        if (local) {
            System.out.println(joinLine(shown, bound, settings.code(), null) + "   (or jbang handin with the same words, on Windows without bash); then each grading and race reaches the room by itself");
            System.out.println("room: only this machine can reach it; to open it to the room, start with --host 0.0.0.0"
                    + " (the room then takes posts with its code only: yours with --code, or one it makes and keeps in its folder)");
            return;
        }
        List<String> addresses = host.equals("0.0.0.0") ? addresses() : List.of(shown);
        for (String address : addresses) {
            System.out.println(joinLine(address, bound, settings.code(), tls.pin()) + "   (or jbang handin with the same words, on Windows without bash)");
        }
        System.out.println("room: each grading and race then reaches the room by itself, over TLS to the room whose pin is " + tls.pin()
                + " and no other; the pin stays while this folder keeps " + RoomTls.FILE);
        if (settings.admit()) {
            System.out.println("room: a new name from the network waits on your page until you let it in (one click, or one for all):"
                    + " a machine on the Wi-Fi that is not in the room takes no seat");
        }
        if (host.equals("0.0.0.0")) watchAddresses(addresses, bound, settings.code(), tls.pin());
    }

    /** The line learners type, once: their name, the room's address, its code, and its pin when it serves over TLS. */
    static String joinLine(String address, int port, String code, String pin) {
        return "room: learners run once: scripts/handin.sh NAME --to " + (pin == null ? "http" : "https") + "://" + address + ":" + port + "/"
                + (code == null ? "" : " --code " + code) + (pin == null ? "" : " --pin " + pin);
    }

    /**
     * Prints the Join line again whenever this laptop's addresses change (a new Wi-Fi, a lease
     * renewed with another address): the room listens on all of them, learners hand in once more
     * with the new address, and their names stay theirs, since their copies keep each token by
     * the room's pin, not by its address.
     */
    private static void watchAddresses(List<String> first, int port, String code, String pin) {
        Thread.ofVirtual().name("room-addresses").start(() -> {
            List<String> before = first;
            while (true) {
                try {
                    Thread.sleep(ADDRESS_CHECK.toMillis());
                } catch (InterruptedException e) {
                    return;
                }
                List<String> now = addresses();
                if (now.equals(before)) continue;
                System.out.println("room: this laptop's address changed (" + String.join(", ", before) + " to " + String.join(", ", now)
                        + "): learners hand in once more with the new one, and keep their names");
                for (String address : now) System.out.println(joinLine(address, port, code, pin));
                before = now;
            }
        });
    }

    /** How often a room on every address looks whether this laptop's addresses changed. */
    static final java.time.Duration ADDRESS_CHECK = java.time.Duration.ofSeconds(10);

    /** Starts the room's HTTP server (port 0: any free port) on virtual threads, and returns it. */
    public static HttpServer start(Path root, Settings settings, String host, int port) throws IOException {
        return listen(handlers(root, settings), host, port, null);
    }

    /** What the room answers: its page, and hand-ins. One pair serves each of the room's listeners, so they share its seats, turns and limits. */
    record Handlers(HttpHandler page, HttpHandler handin) {}

    /** The room's HTTP server on {@code host:port} (port 0: any free port), over TLS with {@code tls} when not null, on virtual threads; started. */
    public static HttpServer listen(Handlers handlers, String host, int port, SSLContext tls) throws IOException {
        InetSocketAddress at = new InetSocketAddress(host, port);
        HttpServer server;
        if (tls == null) {
            server = HttpServer.create(at, 128);
        } else {
            HttpsServer secure = HttpsServer.create(at, 128);
            secure.setHttpsConfigurator(new HttpsConfigurator(tls));
            server = secure;
        }
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", handlers.page());
        server.createContext("/handin", handlers.handin());
        server.start();
        return server;
    }

    /** The room's answers, reading and keeping its folder. */
    public static Handlers handlers(Path root, Settings settings) throws IOException {
        // Read once, when the JDK's server is first used: set before the first HttpServer.create.
        if (System.getProperty(REQUEST_TIME_PROPERTY) == null) System.setProperty(REQUEST_TIME_PROPERTY, String.valueOf(REQUEST_SECONDS));
        if (System.getProperty(HEAD_SIZE_PROPERTY) == null) System.setProperty(HEAD_SIZE_PROPERTY, String.valueOf(HEAD_BYTES));
        if (System.getProperty(HEADERS_PROPERTY) == null) System.setProperty(HEADERS_PROPERTY, String.valueOf(HEADERS));
        Files.createDirectories(settings.dir().resolve(".owners"));
        String session = Viewer.kept(settings.dir(), settings.viewCode()).session();
        Known known = Known.of(root).forDay(settings.day());
        Semaphore turns = new Semaphore(AT_ONCE, true);
        ReentrantLock seats = new ReentrantLock(); // names, tokens and seat files change one hand-in at a time
        Guesses guesses = new Guesses(line -> System.err.println("room: " + line));
        Cutoffs.install(line -> System.err.println("room: " + line));
        HttpHandler page = exchange -> {
            try (exchange) {
                String path = exchange.getRequestURI().getPath();
                java.net.InetAddress from = from(exchange);
                if (limited.test(from) && guesses.refused(from, Instant.now())) {
                    answer(exchange, 429, "text/plain", TOO_MANY_WRONG);
                } else if (path.equals("/admit")) {
                    admit(exchange, settings, session, seats);
                } else if (!path.equals("/") && !path.equals("/summary")) {
                    answer(exchange, 404, "text/plain", "no page here: the room summary is at /, hand-ins go to POST /handin\n");
                } else if (!exchange.getRequestMethod().equals("GET") && !exchange.getRequestMethod().equals("HEAD")) {
                    answer(exchange, 405, "text/plain", "GET only\n");
                } else if (path.equals("/") && query(exchange.getRequestURI().getRawQuery()).containsKey("view")) {
                    String given = query(exchange.getRequestURI().getRawQuery()).get("view");
                    if (!same(given, settings.viewCode())) {
                        if (limited.test(from)) guesses.wrong(from, Instant.now());
                        answer(exchange, 401, "text/html; charset=utf-8", askForCode("That is not the viewer code."));
                    } else { // the code goes into a cookie, and out of the address bar the projector shows
                        exchange.getResponseHeaders().add("Set-Cookie", VIEW_COOKIE + "=" + session + "; Path=/; HttpOnly; SameSite=Strict");
                        exchange.getResponseHeaders().set("Location", "/");
                        answer(exchange, 303, "text/plain", "to /\n");
                    }
                } else if (!viewer(exchange, session)) {
                    answer(exchange, 401, "text/html; charset=utf-8", askForCode(""));
                } else {
                    Room.Folder room = Room.read(known, settings.dir());
                    Summary.Live live = new Summary.Live(guesses.summary(Instant.now(), Summary.CLOCK), Claims.waiting(settings.dir()));
                    answer(exchange, 200, "text/html; charset=utf-8", path.equals("/")
                            ? Summary.page(known, room.seats(), Instant.now(), settings.refreshSeconds(), room.skipped(), live)
                            : Summary.body(known, room.seats(), Instant.now(), settings.refreshSeconds(), room.skipped(), live));
                }
            }
        };
        Map<java.net.InetAddress, Integer> inFlight = new java.util.concurrent.ConcurrentHashMap<>();
        HttpHandler handin = exchange -> {
            java.net.InetAddress from = from(exchange);
            boolean limit = limited.test(from);
            boolean counted = false;
            try (exchange) {
                Answer a = limit && guesses.refused(from, Instant.now()) ? new Answer(429, TOO_MANY_WRONG.strip(), null) : refused(exchange, settings);
                if (a != null && a.status() == 403 && limit) guesses.wrong(from, Instant.now());
                if (a == null && limit) {
                    counted = true;
                    if (inFlight.merge(from, 1, Integer::sum) > PER_ADDRESS) {
                        a = new Answer(429, "too many hand-ins at once from " + from.getHostAddress() + ": your next grading or race sends your results again", null);
                    }
                }
                if (a == null) {
                    // The body first, outside a turn: a slow one holds only its own virtual thread, and the JDK's server
                    // cuts it off after REQUEST_SECONDS (the read then fails, and the connection is gone).
                    byte[] body;
                    try (InputStream in = exchange.getRequestBody()) {
                        body = in.readNBytes(MAX_BYTES + 1);
                    }
                    if (body.length > MAX_BYTES) {
                        a = new Answer(413, "a hand-in is at most " + MAX_BYTES / 1024 + " KiB", null);
                    } else if (!turns.tryAcquire(10, TimeUnit.SECONDS)) {
                        a = new Answer(503, "the room is busy: your next grading or race sends your results again", null);
                    } else {
                        try {
                            a = take(exchange, body, known, settings, seats, from, limit);
                        } catch (IOException | RuntimeException e) { // Why: a failure here must not look like a dropped connection to the learner
                            System.err.println("room: a hand-in failed: " + e);
                            a = new Answer(500, "the room could not keep this hand-in (" + e + "): tell the instructor", null);
                        } finally {
                            turns.release();
                        }
                    }
                }
                if (a.token() != null) exchange.getResponseHeaders().set(RoomLink.TOKEN_HEADER, a.token());
                answer(exchange, a.status(), "text/plain", a.text() + "\n");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                if (counted) inFlight.computeIfPresent(from, (k, n) -> n > 1 ? n - 1 : null);
            }
        };
        return new Handlers(page, handin);
    }

    /**
     * {@code POST /admit} from the room's page (its viewer's cookie; from the page itself, not
     * another site's): {@code let=NAME} lets a waiting name in, {@code let=*} every one waiting,
     * {@code away=NAME} turns one away, {@code away=*} every one; then back to the page.
     */
    private static void admit(HttpExchange exchange, Settings settings, String session, ReentrantLock seats) throws IOException {
        String origin = exchange.getRequestHeaders().getFirst("Origin");
        String host = exchange.getRequestHeaders().getFirst("Host");
        if (!exchange.getRequestMethod().equals("POST")) {
            answer(exchange, 405, "text/plain", "POST only, from the room's page\n");
        } else if (!viewer(exchange, session)) {
            answer(exchange, 401, "text/html; charset=utf-8", askForCode(""));
        } else if (origin != null && (host == null || !origin.replaceFirst("^https?://", "").equals(host))) {
            answer(exchange, 403, "text/plain", "only the room's own page lets learners in\n");
        } else {
            Map<String, String> form;
            try (InputStream in = exchange.getRequestBody()) {
                form = query(new String(in.readNBytes(4096), StandardCharsets.UTF_8));
            }
            seats.lock();
            try {
                List<String> names = new ArrayList<>();
                String which = form.containsKey("let") ? form.get("let") : form.get("away");
                if ("*".equals(which)) {
                    for (Claims.Waiting w : Claims.waiting(settings.dir())) names.add(w.name());
                } else if (RoomLink.plainName(which)) {
                    names.add(which);
                }
                int done = 0;
                long seated = learners(settings.dir()); // counted once: only this loop seats anyone while it holds the lock
                for (String name : names) {
                    if (form.containsKey("let") ? seated + done < settings.maxLearners() && Claims.letIn(settings.dir(), name)
                            : Claims.turnAway(settings.dir(), name)) done++;
                }
                if (done > 0) System.err.println("room: " + (form.containsKey("let") ? "let in " : "turned away ") + done + " name(s)");
            } finally {
                seats.unlock();
            }
            exchange.getResponseHeaders().set("Location", "/");
            answer(exchange, 303, "text/plain", "to /\n");
        }
    }

    /** The answer to an address that gave too many wrong codes ({@link Guesses}). */
    static final String TOO_MANY_WRONG = "too many wrong codes from this address: wait a minute, then use the code the instructor shows\n";

    /** What to answer a post: status, one line, and the name's new token when one was given. */
    record Answer(int status, String text, String token) {}

    /** What to answer a post refused by its head alone (method, room code, name), before its body is read; null when it may go on. */
    static Answer refused(HttpExchange exchange, Settings settings) {
        if (!exchange.getRequestMethod().equals("POST")) return new Answer(405, "POST a hand-in here: scripts/handin.sh NAME --to URL", null);
        if (settings.code() != null && !same(exchange.getRequestHeaders().getFirst(RoomLink.CODE_HEADER), settings.code())) {
            return new Answer(403, "wrong or missing room code: ask the instructor for it, and give it with --code", null);
        }
        String name = query(exchange.getRequestURI().getRawQuery()).get("name");
        if (!RoomLink.plainName(name)) return new Answer(400, RoomLink.NAME_RULE, null);
        return null;
    }

    /** Checks a posted hand-in (its head passed {@link #refused}; its body read) and keeps the learner's seat; what to answer. */
    static Answer take(HttpExchange exchange, byte[] body, Known known, Settings settings, ReentrantLock seats,
                       java.net.InetAddress from, boolean limited) throws IOException {
        String name = query(exchange.getRequestURI().getRawQuery()).get("name");
        Room.Handed handed = new Room.Handed();
        try {
            JsonNode doc = Jackson.tree(new String(body, StandardCharsets.UTF_8));
            if (!RoomLink.SCHEMA.equals(doc.path("schema").asText())) throw new IllegalArgumentException("no \"schema\": \"" + RoomLink.SCHEMA + "\"");
            if (!name.equals(doc.path("learner").asText())) return new Answer(400, "the hand-in is " + doc.path("learner").asText() + "'s, not " + name + "'s", null);
            Room.collect(doc, handed);
        } catch (RuntimeException e) {
            return new Answer(400, "not a hand-in from jbang handin (" + e.getMessage() + ")", null);
        }
        String token = exchange.getRequestHeaders().getFirst(RoomLink.TOKEN_HEADER);
        seats.lock();
        try {
            Path owner = owner(settings.dir(), name);
            String issued = null;
            boolean held = Files.exists(owner);
            String waits = held ? null : Claims.waitingHash(settings.dir(), name); // read only for a name no laptop holds
            if (held) {
                if (token == null || !same(sha256(token), Files.readString(owner).strip())) {
                    return new Answer(409, "the name " + name + " is another laptop's in this room: hand in under another name (jbang handin "
                            + name + "-2 --to ...), or, if " + name + " is you on a new laptop, ask the instructor to run: jbang room free " + name, null);
                }
            } else if (waits != null) {
                if (token == null || !same(sha256(token), waits)) {
                    return new Answer(409, "another laptop asked for the name " + name + " first, and waits for the instructor: hand in under another name,"
                            + " or ask the instructor to turn that laptop away", null);
                }
                return new Answer(202, WAIT_LINE.formatted(name), null);
            } else {
                if (learners(settings.dir()) >= settings.maxLearners()) {
                    return new Answer(503, "the room is full (" + settings.maxLearners() + " learners): ask the instructor", null);
                }
                String laptop = Claims.laptop(from);
                if (limited && !Claims.askedBefore(settings.dir(), name) && Claims.askedBy(settings.dir(), laptop) >= Claims.PER_LAPTOP) {
                    return new Answer(429, "this laptop (" + laptop + ") already asked for " + Claims.PER_LAPTOP
                            + " names in the room: hand in under one of them, or ask the instructor", null);
                }
                issued = newToken();
                if (limited && settings.admit()) { // a new name from the network waits for the instructor, and takes no seat meanwhile
                    if (Claims.waitingCount(settings.dir()) >= Claims.MAX_WAITING) {
                        return new Answer(503, "too many names wait to join: ask the instructor to let yours in", null);
                    }
                    if (!Claims.wait(settings.dir(), name, sha256(issued), laptop, Instant.now())) {
                        return new Answer(409, "the name " + name + " was just asked for by another laptop: hand in under another name", null);
                    }
                    Claims.asked(settings.dir(), name, laptop);
                    System.err.println("room: " + name + " asks to join, from " + from.getHostAddress() + ": let them in on your page");
                    return new Answer(202, WAIT_LINE.formatted(name), issued);
                }
                try {
                    Files.writeString(owner, sha256(issued), java.nio.file.StandardOpenOption.CREATE_NEW, java.nio.file.StandardOpenOption.WRITE);
                } catch (FileAlreadyExistsException e) {
                    return new Answer(409, "the name " + name + " was just taken by another laptop: hand in under another name", null);
                }
                if (limited) Claims.asked(settings.dir(), name, laptop);
            }
            Path file = settings.dir().resolve(RoomLink.key(name) + ".json");
            Seat seat;
            try {
                Seat before = null;
                if (Files.isRegularFile(file)) {
                    try {
                        before = Jackson.read(Files.readString(file), Seat.class).checked(known);
                    } catch (RuntimeException e) {
                        // an unreadable seat is replaced
                    }
                }
                seat = Seat.of(known, name, handed, Instant.now(), before);
                RoomLink.writeWhole(file, Jackson.write(seat), false);
            } catch (IOException | RuntimeException e) {
                // Why: a name given out with no seat kept would be locked to a token the learner never received.
                if (issued != null) Files.deleteIfExists(owner);
                throw e;
            }
            long graded = seat.chapters().size(), raced = seat.races().size();
            return new Answer(200, graded + raced == 0 ? "you are in the room, " + name + ": nothing graded or raced yet"
                    : "the room has your results, " + name + ": " + graded + " graded chapter(s) and " + raced + " raced", issued);
        } finally {
            seats.unlock();
        }
    }

    /** Where the room keeps the SHA-256 of the token of {@code name}. */
    public static Path owner(Path dir, String name) {
        return Claims.owner(dir, name);
    }

    /** The answer to a laptop whose new name waits for the instructor (202): nothing of its hand-in is kept till then. */
    static final String WAIT_LINE = "you asked to join as %s: the instructor lets you in from the room's page;"
            + " once in, your next grading or race hands in everything";

    /** The names taken in the room. */
    private static long learners(Path dir) throws IOException {
        try (Stream<Path> owners = Files.list(dir.resolve(".owners"))) {
            return owners.count();
        }
    }

    private static String newToken() {
        byte[] bytes = new byte[24];
        new SecureRandom().nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Equal, in a time that does not tell how much of a guess was right; false for null. */
    private static boolean same(String given, String expected) {
        return given != null && expected != null
                && MessageDigest.isEqual(given.getBytes(StandardCharsets.UTF_8), expected.getBytes(StandardCharsets.UTF_8));
    }

    /** Whose a request is: the learner's address, also when it came through the room's door ({@link Front}). */
    static java.net.InetAddress from(HttpExchange exchange) {
        return Front.peer(exchange.getLocalAddress(), exchange.getRemoteAddress());
    }

    /** Whether the request comes from a screen that gave the viewer code (its cookie: the room's session id). */
    private static boolean viewer(HttpExchange exchange, String session) {
        for (String header : exchange.getRequestHeaders().getOrDefault("Cookie", List.of())) {
            for (String pair : header.split(";")) {
                String[] kv = pair.strip().split("=", 2);
                if (kv.length == 2 && kv[0].equals(VIEW_COOKIE) && same(kv[1], session)) return true;
            }
        }
        return false;
    }

    private static String askForCode(String problem) {
        return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><link rel=\"icon\" href=\"data:,\"><title>Room summary</title></head>"
                + "<body style=\"font-family:system-ui,sans-serif;margin:2rem\"><h1>Room summary</h1>"
                + (problem.isEmpty() ? "" : "<p>" + problem + "</p>")
                + "<p>This page shows every learner's results: it asks for the viewer code, which the room printed on the instructor's screen"
                + " (the learners' code does not open it).</p><form method=\"get\" action=\"/\"><label>Viewer code "
                + "<input name=\"view\" autocomplete=\"off\" autofocus></label> <button>Open</button></form></body></html>\n";
    }

    /** {@link Summary#POLICY}, and framed by no one. */
    static final String POLICY = Summary.POLICY + "; frame-ancestors 'none'";

    private static void answer(HttpExchange exchange, int status, String type, String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        exchange.getResponseHeaders().set("Content-Security-Policy", POLICY);
        exchange.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
        exchange.getResponseHeaders().set("X-Frame-Options", "DENY");
        exchange.getResponseHeaders().set("Referrer-Policy", "no-referrer");
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
                try {
                    values.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                            URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
                } catch (IllegalArgumentException e) {
                    // a malformed escape: not a value
                }
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
