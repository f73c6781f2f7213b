//SOURCES ../../exercises/kit/Kit.java ../../exercises/kit/NativeFrame.java ../../exercises/kit/chapter-01/BlockingHttp.java ../../exercises/kit/chapter-03/EventLoop.java

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Unit tests of the workshop kit: parsing, encoding, routing. */
@Tag("unit")
class KitTests {
    static ByteBuffer bytes(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.ISO_8859_1));
    }

    static int status(String raw) {
        HttpError e = assertThrows(HttpError.class, () -> new RequestParser().parse(bytes(raw)));
        return e.status;
    }

    @Test
    @DisplayName("database: the kit's pool books queries in order, never more than its size at once, and refuses past --db-wait")
    void databasePool() throws Exception {
        Database.configure(2, 300);
        try {
            var q500 = new Database.Query(500, false);
            Endpoints.Wait first = Database.book(q500), second = Database.book(q500);
            assertEquals(200, first.response().status);
            assertTrue(first.millis() >= 500 && second.millis() >= 500 && second.millis() < 700, first.millis() + ", " + second.millis());
            Endpoints.Wait third = Database.book(new Database.Query(100, false)); // would wait 500 ms: over 300
            assertEquals(503, third.response().status);
            assertEquals(300, third.millis(), "a refusal comes when the wait is over");
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            Database.stats().writeTo(out);
            String stats = out.toString(StandardCharsets.UTF_8);
            assertTrue(stats.contains("\"dbPool\":2") && stats.contains("\"dbInUse\":2") && stats.contains("\"dbPeak\":2"), stats);
            Database.configure(1, 1000);
            Endpoints.Wait a = Database.book(new Database.Query(100, true)), b = Database.book(new Database.Query(100, false));
            assertEquals(500, a.response().status, "a failing query answers 500");
            assertTrue(b.millis() >= 200 && b.millis() < 300, "the second query starts when the first ends: " + b.millis() + " ms");
        } finally {
            Database.configure(10, 1000);
        }
    }

    @Test
    @DisplayName("options: parse only reads them; Kit.start is what sizes the /db pool")
    void parseOnlyReads() {
        Database.configure(10, 1000);
        try {
            Options o = Options.parse("test", new String[] {"--port", "0", "--db-pool", "3", "--threads", "4"}, "--threads", "16");
            assertEquals(0, o.port);
            assertEquals(4, o.number("--threads"));
            assertEquals(3, o.number("--db-pool"));
            assertEquals(10, Database.poolSize(), "Options.parse must not configure the database");
            Kit.start("test", new String[] {"--port", "0", "--db-pool", "3", "--db-wait", "250"});
            assertEquals(3, Database.poolSize());
            assertEquals(250, Database.waitMillis());
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(null);
            Database.configure(10, 1000);
        }
    }

    @Test
    @DisplayName("parser: a request split at every byte is parsed once, when complete")
    void byteByByte() throws Exception {
        String raw = "POST /echo?x=1 HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabc";
        RequestParser p = new RequestParser();
        Request r = null;
        for (int i = 0; i < raw.length(); i++) {
            assertNull(r, "complete before the last byte");
            r = p.parse(bytes(raw.substring(i, i + 1)));
        }
        assertEquals("POST", r.method());
        assertEquals("/echo", r.path());
        assertEquals("1", r.query().get("x"));
        assertEquals("abc", r.bodyText());
        assertTrue(p.idle());
    }

    @Test
    @DisplayName("reader: a 64 KiB body is read 16 KiB at a time, and a connection waiting for its next request reads into 256 bytes")
    void readerWaitsSmall() throws Exception {
        byte[] body = new byte[64 * 1024];
        String head = "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: " + body.length + "\r\n\r\n";
        java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
        all.writeBytes(head.getBytes(StandardCharsets.ISO_8859_1));
        all.writeBytes(body);
        all.writeBytes("GET / HTTP/1.1\r\nHost: a\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        List<Integer> sizes = new java.util.ArrayList<>(); // the room each read offered
        java.io.InputStream in = new java.io.ByteArrayInputStream(all.toByteArray()) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                sizes.add(len);
                return super.read(b, off, len);
            }
        };
        RequestReader reader = new RequestReader(in);
        assertEquals(body.length, reader.next().body().length, "the POST's body");
        assertEquals("/", reader.next().path(), "the GET after it");
        assertNull(reader.next(), "then the client closed between requests");
        assertEquals(RequestReader.SMALL, sizes.getFirst(), "the first read: " + sizes);
        assertTrue(sizes.contains(RequestReader.LARGE), "a read that fills its buffer is followed by a large one: " + sizes);
        assertEquals(RequestReader.SMALL, sizes.getLast(), "the read that waits for the next request: " + sizes);
        assertEquals(RequestReader.SMALL, reader.holds(), "what a waiting connection holds to read into");
    }

    @Test
    @DisplayName("reader: the idle watchdog lets a connection that sends nothing go after --idle-timeout; with 0 it waits for ever, as setSoTimeout(0) did")
    void idleWatchdog() throws Exception {
        try (java.net.ServerSocket listener = new java.net.ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            // A client that says nothing: the reader gives up on it (null) after 300 ms and the watchdog's look, well within 10 s.
            try (java.net.Socket quiet = new java.net.Socket(listener.getInetAddress(), listener.getLocalPort());
                 java.net.Socket served = listener.accept()) {
                var next = java.util.concurrent.CompletableFuture.supplyAsync(() -> nextOrError(served, 300),
                        java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor());
                assertNull(next.get(10, java.util.concurrent.TimeUnit.SECONDS), "a connection idle past --idle-timeout is let go");
            }
            // With 0, a client that speaks after 1.5 s of silence is still read.
            try (java.net.Socket late = new java.net.Socket(listener.getInetAddress(), listener.getLocalPort());
                 java.net.Socket served = listener.accept()) {
                var next = java.util.concurrent.CompletableFuture.supplyAsync(() -> nextOrError(served, 0),
                        java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor());
                Thread.sleep(1500);
                assertFalse(next.isDone(), "with --idle-timeout 0 the reader let the connection go: " + (next.isDone() ? next.join() : ""));
                late.getOutputStream().write("GET /late HTTP/1.1\r\nHost: a\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
                Object read = next.get(10, java.util.concurrent.TimeUnit.SECONDS);
                assertInstanceOf(Request.class, read, "the request sent after 1.5 s: " + read);
                assertEquals("/late", ((Request) read).path());
            }
        }
    }

    /** The next request on {@code socket} (null when let go), or the error a read threw, as the value. */
    private static Object nextOrError(java.net.Socket socket, int idleMillis) {
        try {
            return new RequestReader(socket.getInputStream()).next(socket, new RequestReader.Timeouts(idleMillis, 5000));
        } catch (Exception e) {
            return e;
        }
    }

    @Test
    @DisplayName("parser: holds no head buffer until a request begins, 256 bytes after a small one, and shrinks back after a large one")
    void headBuffer() throws Exception {
        RequestParser p = new RequestParser();
        assertEquals(0, p.holds(), "a parser that has seen nothing");
        assertNotNull(p.parse(bytes("GET / HTTP/1.1\r\nHost: a\r\n\r\n")));
        assertEquals(RequestParser.SMALL_HEAD, p.holds(), "after a small request");
        String large = "GET / HTTP/1.1\r\nHost: a\r\nX-Big: " + "x".repeat(5000) + "\r\n\r\n";
        ByteBuffer in = bytes(large);
        in.limit(3000);
        assertNull(p.parse(in), "half a large head");
        assertTrue(p.holds() >= 3000, "a head grows as it needs: " + p.holds());
        in.limit(large.length());
        assertNotNull(p.parse(in));
        assertEquals(RequestParser.SMALL_HEAD, p.holds(), "back to small after a large head");
        assertEquals(431, status("GET / HTTP/1.1\r\nHost: a\r\nX-Big: " + "x".repeat(9000) + "\r\n\r\n"), "still 431 past 8 KiB");
    }

    @Test
    @DisplayName("parser: pipelined requests stay in the buffer for the next call")
    void pipelined() throws Exception {
        ByteBuffer in = bytes("GET /a HTTP/1.1\r\nHost: a\r\n\r\nGET /b HTTP/1.1\r\nHost: a\r\n\r\nGET /c");
        RequestParser p = new RequestParser();
        assertEquals("/a", p.parse(in).path());
        assertEquals("/b", p.parse(in).path());
        assertNull(p.parse(in));
        assertFalse(p.idle(), "a partial third request is pending");
    }

    @Test
    @DisplayName("parser: refuses malformed requests with the right status")
    void errors() {
        assertEquals(400, status("GARBAGE\r\n\r\n"));
        assertEquals(400, status("GET / HTTP/1.1\r\nno colon\r\n\r\n"));
        assertEquals(400, status("GET / HTTP/1.1\r\n\r\n"), "HTTP/1.1 without Host");
        assertEquals(400, status("GET / HTTP/1.1\r\nHost: a\r\nContent-Length: x\r\n\r\n"));
        assertEquals(400, status("GET nopath HTTP/1.1\r\nHost: a\r\n\r\n"));
        assertEquals(505, status("GET / HTTP/2.0\r\nHost: a\r\n\r\n"));
        assertEquals(413, status("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 1048577\r\n\r\n"));
        assertEquals(431, status("GET / HTTP/1.1\r\nHost: a\r\nX: " + "y".repeat(8200) + "\r\n\r\n"));
        assertEquals(501, status("POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"));
    }

    @Test
    @DisplayName("request: keep-alive follows the version and the Connection header")
    void keepAlive() throws Exception {
        assertTrue(new RequestParser().parse(bytes("GET / HTTP/1.1\r\nHost: a\r\n\r\n")).keepAlive());
        assertFalse(new RequestParser().parse(bytes("GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")).keepAlive());
        assertFalse(new RequestParser().parse(bytes("GET / HTTP/1.0\r\n\r\n")).keepAlive());
        assertTrue(new RequestParser().parse(bytes("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n")).keepAlive());
    }

    @Test
    @DisplayName("response: head has status, Date, Server, Content-Length, and Connection: close when closing")
    void head() {
        String head = new String(Response.text(404, "nope").closing().head(), StandardCharsets.ISO_8859_1);
        assertTrue(head.startsWith("HTTP/1.1 404 Not Found\r\n"), head);
        assertTrue(head.matches("(?s).*\r\nDate: \\w{3}, \\d{2} \\w{3} \\d{4} \\d{2}:\\d{2}:\\d{2} GMT\r\n.*"), head);
        assertTrue(head.contains("\r\nServer: "), head);
        assertTrue(head.contains("\r\nContent-Length: 4\r\n"), head);
        assertTrue(head.endsWith("Connection: close\r\n\r\n"), head);
    }

    @Test
    @DisplayName("response: a generated body is the same written whole or a chunk at a time")
    void pattern() throws Exception {
        Response r = Response.pattern(300_001);
        ByteArrayOutputStream whole = new ByteArrayOutputStream();
        r.writeTo(whole);
        // a channel that takes at most 777 bytes per write, like a full socket buffer
        ByteArrayOutputStream pieces = new ByteArrayOutputStream();
        WritableByteChannel stingy = new WritableByteChannel() {
            public int write(ByteBuffer src) {
                int n = Math.min(777, src.remaining());
                for (int i = 0; i < n; i++) pieces.write(src.get());
                return n;
            }
            public boolean isOpen() { return true; }
            public void close() { }
        };
        Response.Outgoing out = r.outgoing();
        while (!out.writeTo(stingy)) {
            // a partial write: a reactor would wait for OP_WRITE here
        }
        // the two heads were made at different moments, so their Date lines may differ by a second
        assertArrayEquals(withoutDate(whole.toByteArray()), withoutDate(pieces.toByteArray()));
        byte[] all = whole.toByteArray();
        int bodyStart = all.length - 300_001;
        for (int i = 0; i < 300_001; i++) assertEquals((byte) ('A' + i % 61), all[bodyStart + i], "byte " + i);
    }

    private static byte[] withoutDate(byte[] response) {
        String s = new String(response, StandardCharsets.ISO_8859_1);
        return s.replaceFirst("\r\nDate: [^\r]*\r\n", "\r\nDate: -\r\n").getBytes(StandardCharsets.ISO_8859_1);
    }

    @Test
    @DisplayName("response: Outgoing stops when the channel takes nothing and resumes later")
    void fullSocket() throws Exception {
        Response.Outgoing out = Response.pattern(100_000).outgoing();
        int[] budget = {1000};
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        WritableByteChannel ch = new WritableByteChannel() {
            public int write(ByteBuffer src) {
                int n = Math.min(budget[0], src.remaining());
                for (int i = 0; i < n; i++) got.write(src.get());
                budget[0] -= n;
                return n;
            }
            public boolean isOpen() { return true; }
            public void close() { }
        };
        assertFalse(out.writeTo(ch));
        assertEquals(1000, got.size());
        budget[0] = Integer.MAX_VALUE;
        assertTrue(out.writeTo(ch));
    }

    @Test
    @DisplayName("endpoints: route, plan waits and CPU work, refuse bad numbers")
    void endpoints() throws Exception {
        RequestParser p = new RequestParser();
        assertInstanceOf(Endpoints.Wait.class, Endpoints.plan(p.parse(bytes("GET /io?ms=200 HTTP/1.1\r\nHost: a\r\n\r\n"))));
        assertEquals(200, ((Endpoints.Wait) Endpoints.plan(p.parse(bytes("GET /io?ms=200 HTTP/1.1\r\nHost: a\r\n\r\n")))).millis());
        assertInstanceOf(Endpoints.Burn.class, Endpoints.plan(p.parse(bytes("GET /cpu?ms=5 HTTP/1.1\r\nHost: a\r\n\r\n"))));
        assertEquals(400, Endpoints.plan(p.parse(bytes("GET /io?ms=60001 HTTP/1.1\r\nHost: a\r\n\r\n"))).response().status);
        assertEquals(400, Endpoints.plan(p.parse(bytes("GET /bytes?n=-1 HTTP/1.1\r\nHost: a\r\n\r\n"))).response().status);
        assertEquals(404, Endpoints.plan(p.parse(bytes("GET /x HTTP/1.1\r\nHost: a\r\n\r\n"))).response().status);
        assertEquals(405, Endpoints.plan(p.parse(bytes("GET /echo HTTP/1.1\r\nHost: a\r\n\r\n"))).response().status);
        assertTrue(Endpoints.plan(p.parse(bytes("GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"))).response().closes());
    }

    @Test
    @DisplayName("endpoints: /cpu?ms=100 burns about 100 ms of CPU time")
    void burn() {
        var mx = ManagementFactory.getThreadMXBean();
        Endpoints.burnCpu(10); // calibrates
        long start = mx.getCurrentThreadCpuTime();
        Endpoints.burnCpu(100);
        long ms = (mx.getCurrentThreadCpuTime() - start) / 1_000_000;
        // Wide: the calibration takes a few milliseconds, and another program busy then (on this
        // core or its twin) skews it; 57 ms was seen once while the machine was loaded.
        assertTrue(ms >= 40 && ms <= 250, "burned " + ms + " ms of CPU for 100");
    }

    @Test
    @DisplayName("native frame: runs the task once, called back from C, and rethrows what it throws")
    void nativeFrame() throws Exception {
        java.util.List<String> frames = new java.util.ArrayList<>();
        NativeFrame.run(() -> frames.addAll(java.util.Arrays.stream(new Throwable().getStackTrace()).map(StackTraceElement::getMethodName).toList()));
        assertTrue(frames.contains("compare") && frames.contains("run"), "the task ran from: " + frames);
        var e = assertThrows(IllegalArgumentException.class,
                () -> NativeFrame.run(() -> { throw new IllegalArgumentException("boom"); }));
        assertEquals("boom", e.getMessage());
    }

    /** Serves one accepted connection with the blocking loop on a new thread; returns the client's socket. */
    static java.net.Socket serveOne(java.util.function.BooleanSupplier othersWaiting) throws Exception {
        try (java.net.ServerSocket server = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            java.net.Socket client = new java.net.Socket(server.getInetAddress(), server.getLocalPort());
            java.net.Socket accepted = server.accept();
            Thread.ofVirtual().start(() -> BlockingHttp.serve(accepted, othersWaiting));
            client.setSoTimeout(3000);
            return client;
        }
    }

    /** Sends raw bytes and reads one response whole; returns its head (status line and headers). */
    static String exchange(java.net.Socket client, String raw) throws Exception {
        client.getOutputStream().write(raw.getBytes(StandardCharsets.ISO_8859_1));
        var in = client.getInputStream();
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) throw new java.io.EOFException("closed after: " + head);
            head.append((char) b);
        }
        var m = java.util.regex.Pattern.compile("Content-Length: (\\d+)").matcher(head);
        assertTrue(m.find(), head::toString);
        in.readNBytes(Integer.parseInt(m.group(1)));
        return head.toString();
    }

    @Test
    @DisplayName("blocking loop: keeps a keep-alive connection while nobody waits; says close once others wait")
    void letsGoAfterResponse() throws Exception {
        var waiting = new java.util.concurrent.atomic.AtomicBoolean();
        try (java.net.Socket client = serveOne(waiting::get)) {
            String get = "GET / HTTP/1.1\r\nHost: a\r\n\r\n";
            assertFalse(exchange(client, get).contains("Connection: close"));
            assertFalse(exchange(client, get).contains("Connection: close"));
            waiting.set(true);
            assertTrue(exchange(client, get).contains("Connection: close"));
            assertEquals(-1, client.getInputStream().read(), "the connection should be closed after Connection: close");
        }
    }

    @Test
    @DisplayName("blocking loop: closes an idle connection once others wait, never one mid-request")
    void letsGoWhenIdle() throws Exception {
        var waiting = new java.util.concurrent.atomic.AtomicBoolean();
        try (java.net.Socket client = serveOne(waiting::get)) {
            exchange(client, "GET / HTTP/1.1\r\nHost: a\r\n\r\n");
            client.setSoTimeout(3 * BlockingHttp.IDLE_POLL_MS);
            assertThrows(java.net.SocketTimeoutException.class, () -> client.getInputStream().read(),
                    "an idle connection nobody waits for stays open");
            // Half a request, a pause of several polls while others wait, then the rest: it is answered.
            client.getOutputStream().write("GET / HTTP/1.1\r\n".getBytes(StandardCharsets.ISO_8859_1));
            waiting.set(true);
            Thread.sleep(3 * BlockingHttp.IDLE_POLL_MS);
            client.setSoTimeout(3000);
            String head = exchange(client, "Host: a\r\n\r\n");
            assertTrue(head.startsWith("HTTP/1.1 200") && head.contains("Connection: close"), head);
        }
        waiting.set(false);
        try (java.net.Socket client = serveOne(waiting::get)) {
            exchange(client, "GET / HTTP/1.1\r\nHost: a\r\n\r\n");
            waiting.set(true);
            long start = System.nanoTime();
            assertEquals(-1, client.getInputStream().read(), "an idle connection should be closed once others wait");
            long ms = (System.nanoTime() - start) / 1_000_000;
            assertTrue(ms < 2000, "closed after " + ms + " ms");
        }
        // The first bytes of a request arrive just as a read gives up (here: while letGo is asked).
        var clientRef = new java.util.concurrent.atomic.AtomicReference<java.net.Socket>();
        var begun = new java.util.concurrent.atomic.AtomicBoolean();
        try (java.net.Socket client = serveOne(() -> {
            java.net.Socket c = clientRef.get();
            if (c == null) return false;
            if (begun.compareAndSet(false, true)) {
                try {
                    c.getOutputStream().write("GET / HTTP/1.1\r\n".getBytes(StandardCharsets.ISO_8859_1));
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }
            return true;
        })) {
            clientRef.set(client);
            while (!begun.get()) Thread.sleep(10);
            String head = exchange(client, "Host: a\r\n\r\n");
            assertTrue(head.startsWith("HTTP/1.1 200") && head.contains("Connection: close"), head);
        }
    }

    /**
     * What a refused client sees when it is still sending as the server answers and closes: the
     * server side runs {@code answerAndClose} on the accepted socket, the client sends 64 KiB
     * more in pieces, then reads. Returns what went wrong while sending (a reset: the server
     * closed with bytes arriving), then the client's first line or the exception it got.
     * On Linux loopback a reset does not destroy the answer; across a network, it can.
     */
    static String refusedWhileSending(java.util.function.Consumer<java.net.Socket> answerAndClose) throws Exception {
        try (java.net.ServerSocket server = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress());
             java.net.Socket client = new java.net.Socket(server.getInetAddress(), server.getLocalPort())) {
            client.setSoTimeout(3000);
            java.net.Socket accepted = server.accept();
            client.getOutputStream().write("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 70000\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            Thread.sleep(50);
            answerAndClose.accept(accepted);
            String sending = "sent all";
            try {
                for (int i = 0; i < 8; i++) {
                    client.getOutputStream().write(new byte[8192]); // the body, still on its way
                    Thread.sleep(25);
                }
            } catch (java.io.IOException e) {
                sending = e.toString();
            }
            try {
                return sending + "; " + new java.io.BufferedReader(new java.io.InputStreamReader(client.getInputStream(), StandardCharsets.ISO_8859_1)).readLine();
            } catch (java.io.IOException e) {
                return sending + "; " + e;
            }
        }
    }

    @Test
    @DisplayName("blocking loop: answerAndClose's 503 reaches a client that is still sending (lingering close)")
    void refusalSurvivesLateBytes() throws Exception {
        String first = refusedWhileSending(s -> BlockingHttp.answerAndClose(s, Response.text(503, "busy\n")));
        assertEquals("sent all; HTTP/1.1 503 Service Unavailable", first, "what the refused client saw while sending, then read");
    }
}
