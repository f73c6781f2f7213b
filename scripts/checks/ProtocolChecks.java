package checks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import lib.Inspect;
import lib.Target;

/** The workshop protocol: every chapter's server must keep it, whatever its concurrency model. */
@Check.Suite
public class ProtocolChecks {
    /** The server under test, handed in by the run ({@link RunContext}). */
    private final Target target;

    ProtocolChecks(Target target) {
        this.target = target;
    }
    /** Chapter 03's loop sends the error answers already; its likely mistake is the close. */
    static final String CLOSE_IN_03 = "In chapter 03 the loop sends this answer already; what is missing is the close. "
            + "Cancelling a key does not close its channel: close() must close the channel too (step Closing).";

    @Check(order = 1, title = "answers GET / with 200 and 'Hello, World!'",
           hint = "Start the server by hand and try: curl -i http://127.0.0.1:8080/ . Does it print the ready line, and does the response carry Date, Server and Content-Length?",
           see = "protocol#endpoints")
    void hello() throws Exception {
        Client.Reply r = Client.get(target, "/");
        assertEquals(200, r.status(), () -> "expected 'HTTP/1.1 200' but the status line was '" + r.statusLine() + "'");
        assertEquals("Hello, World!", r.text(), "the body");
        assertNotNull(r.header("date"), "every response needs a Date header");
        assertNotNull(r.header("server"), "every response needs a Server header");
    }

    @Check(order = 2, title = "keeps the connection open for a second request (keep-alive)",
           hint = "HTTP/1.1 connections stay open by default. After answering one request, what should the server do with the same socket?",
           see = "protocol#keep-alive")
    void keepAlive() throws Exception {
        try (Client c = Client.connect(target)) {
            c.send(Client.request("GET", "/")).read().assertStatus(200);
            Client.Reply second = c.send(Client.request("GET", "/bytes?n=3")).read();
            assertEquals("ABC", second.text(), "the second request on the same connection was not answered correctly");
        }
    }

    @Check(order = 3, title = "closes the connection after answering 'Connection: close'",
           hint = "A client that sends 'Connection: close' waits for the server to close. Which Response method tells you that?",
           see = "protocol#keep-alive",
           in = @Check.In(chapter = "03", value = CLOSE_IN_03, see = "chapters/03-reactor#closing"))
    void connectionClose() throws Exception {
        try (Client c = Client.connect(target)) {
            Client.Reply r = c.send(Client.request("GET", "/", "Connection: close")).read();
            assertEquals(200, r.status());
            assertEquals("close", r.header("connection"), "the response should say 'Connection: close'");
            c.assertClosedByServer();
        }
    }

    @Check(order = 4, title = "answers two pipelined requests, sent in one write, in order",
           hint = "Both requests can arrive in one read. Do you keep the bytes after the first request for the next one?",
           see = "protocol#pipelining")
    void pipelining() throws Exception {
        try (Client c = Client.connect(target)) {
            c.send(Client.request("GET", "/bytes?n=3") + Client.request("GET", "/"));
            assertEquals("ABC", c.read().text(), "the first response should answer the first request");
            c.socket().setSoTimeout(1000); // the second was in the same read: a second is a wide margin
            assertEquals("Hello, World!", c.read().text(), "the second response should answer the second request");
        }
    }

    @Check(order = 5, title = "answers a request that arrives in three pieces",
           hint = "One read() is not one request: TCP delivers bytes, not messages. Keep reading until the request is complete.",
           see = "protocol#partial-requests")
    void requestInPieces() throws Exception {
        try (Client c = Client.connect(target)) {
            c.sendInPieces(Client.request("GET", "/bytes?n=5", "User-Agent: pieces"), 12, 30); // 30 ms apart: each piece its own read
            assertEquals("ABCDE", c.read().text());
        }
    }

    @Check(order = 6, title = "answers a request that arrives one byte at a time",
           hint = "A slow network can deliver one byte per read. Does your loop handle a read that completes nothing?",
           see = "protocol#partial-requests")
    void requestByteByByte() throws Exception {
        try (Client c = Client.connect(target)) {
            c.sendInPieces(Client.request("GET", "/"), 1, 2);
            assertEquals("Hello, World!", c.read().text());
        }
    }

    @Check(order = 7, title = "echoes a POST /echo body of 100 KiB",
           hint = "The body follows the headers and is exactly Content-Length bytes long, often in several reads.",
           see = "protocol#endpoints")
    void echo() throws Exception {
        byte[] body = new byte[100 * 1024];
        for (int i = 0; i < body.length; i++) body[i] = (byte) ('a' + i % 26);
        try (Client c = Client.connect(target)) {
            c.send(Client.request("POST", "/echo", "Content-Type: text/plain", "Content-Length: " + body.length));
            c.send(body);
            Client.Reply r = c.read();
            r.assertStatus(200);
            assertTrue(java.util.Arrays.equals(body, r.body()), "the echoed body differs from what was sent");
        }
    }

    @Check(order = 8, title = "sends every byte of /bytes?n=4MiB, in order",
           hint = "A write may take only part of a big response. Every byte must arrive, in order, and nothing more.",
           see = "protocol#endpoints")
    void bigResponse() throws Exception {
        int n = 4 * 1024 * 1024;
        try (Client c = Client.connect(target, 1000)) { // on loopback the bytes flow at once: a pause of a second means some were lost
            Client.Reply r = c.send(Client.request("GET", "/bytes?n=" + n)).read();
            assertEquals(n, r.body().length);
            for (int i = 0; i < n; i++) {
                if (r.body()[i] != (byte) ('A' + i % 61)) {
                    throw new AssertionError("byte " + i + " is '" + (char) r.body()[i] + "', expected '" + (char) ('A' + i % 61) + "'");
                }
            }
        }
    }

    @Check(order = 9, title = "answers /io?ms=N after N ms, not before",
           hint = "/io stands for a database call: the answer comes once N ms have passed, not before, and it does come. "
            + "A blocking server sleeps N ms, then answers; a non-blocking one sets a timer that answers.",
           see = "protocol#endpoints",
           in = @Check.In(chapter = "03", value = "/io's answer comes from a timer. If it never comes: is the timer kept (schedule), "
                  + "does select() wake by its deadline, and do due timers run after every select()? If it comes too early: "
                  + "the deadline is the request's arrival plus N ms.",
                  see = "chapters/03-reactor#timers-in-the-loop"),
           after = {"ch03.loneTimer", "ch06.flushes"}) // a timer that never fires alone, or an answer never flushed, stalls this lone /io
    void ioWaits() throws Exception {
        Elapsed start = Elapsed.start();
        Client.Reply r;
        try (Client c = Client.connect(target)) {
            r = c.send(Client.request("GET", "/io?ms=300")).read();
        } catch (Client.NoAnswer e) {
            throw new AssertionError("/io?ms=300 got no answer within " + Client.seconds(Client.READ_TIMEOUT_MS));
        }
        long took = start.ms();
        r.assertStatus(200);
        assertTrue(took >= 290, "/io?ms=300 answered after " + took + " ms");
    }

    @Check(order = 10, title = "answers 404 for an unknown path and keeps the connection",
           hint = "A 404 is an ordinary response: unlike after a 400, the connection stays open for the next request.",
           see = "protocol#errors")
    void notFound() throws Exception {
        try (Client c = Client.connect(target)) {
            assertEquals(404, c.send(Client.request("GET", "/no-such-page")).read().status());
            assertEquals(200, c.send(Client.request("GET", "/")).read().status(), "the connection should stay usable after a 404");
        }
    }

    @Check(order = 11, title = "answers 405 with an Allow header for a wrong method",
           hint = "Let the kit's Endpoints route the request.", see = "protocol#errors")
    void wrongMethod() throws Exception {
        try (Client c = Client.connect(target)) {
            Client.Reply r = c.send(Client.request("DELETE", "/")).read();
            r.assertStatus(405);
            assertEquals("GET", r.header("allow"));
        }
    }

    @Check(order = 12, title = "answers 400 to a malformed request line and to a header line without a colon, closing each connection",
           hint = "The kit throws HttpError for a request it cannot parse. Send e.response() to the client, then close that connection only.",
           see = "protocol#errors",
           in = @Check.In(chapter = "03", value = CLOSE_IN_03, see = "chapters/03-reactor#closing"))
    void malformed() throws Exception {
        Client.assertAnsweredThenClosed(target, "GARBAGE\r\n\r\n", 400);
        Client.assertAnsweredThenClosed(target, "GET / HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n", 400);
    }

    @Check(order = 14, title = "answers 413 for a body over 1 MiB, without reading it",
           hint = "The kit refuses a Content-Length over 1 MiB with HttpError 413. Answer it, then close.",
           see = "protocol#errors")
    void bodyTooLarge() throws Exception {
        try (Client c = Client.connect(target)) {
            Client.Reply r = c.send(Client.request("POST", "/echo", "Content-Length: 2000000")).read();
            r.assertStatus(413);
        }
    }

    @Check(order = 15, title = "answers 431 for a header section over 8 KiB, then closes",
           hint = "The kit refuses headers over 8 KiB with HttpError 431. Answer it, then close.",
           see = "protocol#errors",
           in = @Check.In(chapter = "03", value = CLOSE_IN_03, see = "chapters/03-reactor#closing"))
    void headersTooLarge() throws Exception {
        Client.assertAnsweredThenClosed(target, Client.request("GET", "/", "X-Big: " + "x".repeat(9000)), 431);
    }

    @Check(order = 16, title = "answers 500 when a handler throws (GET /fail), and keeps serving",
           hint = "GET /fail throws an exception from the handler, like a bug would. Answer Response.serverError(e) and end only that connection.",
           see = "protocol#errors",
           in = @Check.In(chapter = "06", value = "GET /fail throws from Endpoints.plan, on the event loop. An exception that leaves "
                  + "channelRead goes to exceptionCaught, which closes the connection unanswered: call Endpoints.plan, as well as the "
                  + "work, inside the try that answers Response.serverError(e).",
                  see = "chapters/06-netty-hybrid#moving-the-work-off-the-loop"))
    void handlerFails() throws Exception {
        try (Client c = Client.connect(target)) {
            Client.Reply r;
            try {
                r = c.send(Client.request("GET", "/fail")).read();
            } catch (AssertionError e) {
                if (e instanceof Client.NoAnswer || !String.valueOf(e.getMessage()).contains("without answering")) throw e;
                throw new AssertionError("GET /fail: the server closed the connection without answering: the exception escaped"
                        + " the code that answers 500 (or was caught where the connection is closed)");
            }
            r.assertStatus(500);
        }
        Thread.sleep(200);
        assertEquals(200, Client.get(target, "/").status(), "the server should go on serving after a handler failed");
    }

    @Check(order = 17, title = "keeps serving after a malformed request and an abrupt disconnect",
           hint = "An exception from one connection must never escape to the accept loop. Catch it per connection.",
           see = "protocol#errors")
    void survivesBadClients() throws Exception {
        try (Client c = Client.connect(target)) {
            c.send("\u0001\u0002 nonsense\r\n\r\n");
        }
        try (Client c = Client.connect(target)) {
            c.socket().setSoLinger(true, 0); // close with a reset, mid-request
            c.send("GET / HTTP/1.1\r\nHo");
        }
        Thread.sleep(300);
        Client.Reply r = Client.get(target, "/");
        assertEquals(200, r.status(), "a new connection after two bad clients should be served");
    }

    @Check(order = 18, title = "answers GET /db?ms=N after N ms, 500 for a query that fails, and GET /stats with the pool's figures",
           hint = "The kit's Endpoints answer /db and /stats like /io: a blocking server waits in place, a non-blocking one by a timer. In chapter 05, query() runs /db: return what Database.run(query) returns.",
           see = "protocol#the-database-pool",
           after = {"ch03.loneTimer", "ch06.flushes"})
    void database() throws Exception {
        Client.Timed query = Client.timed(target, Client.request("GET", "/db?ms=100"), 5000);
        query.reply().assertStatus(200);
        assertEquals("queried 100 ms\n", query.reply().text(), "the body of /db?ms=100");
        assertTrue(query.ms() >= 90, "/db?ms=100 was answered after " + query.ms() + " ms: a query holds its connection 100 ms");
        assertEquals(400, Client.get(target, "/db?ms=x").status(), "/db?ms=x should get 400");
        Client.get(target, "/db?ms=10&fail=1").assertStatus(500);
        assertTrue(Client.stat(target, "dbPool") >= 1, "dbPool is the pool's size, --db-pool");
        assertTrue(Client.stat(target, "dbPeak") >= 1, "dbPeak is the most connections in use at once, and a query has run");
        assertEquals(0, Client.stat(target, "dbInUse"), "no query runs now, so no connection is in use");
    }

    /** The open files the copy of the server in {@link #outOfFiles} may hold: enough to start a JVM and Netty, few enough to use up. */
    static final int OPEN_FILES = 256;
    /** How long the request in progress while the server runs out takes. */
    static final int HELD_MS = 3000;
    /** How long after the flood closed a server that still holds all its files is taken to keep them. */
    static final int HELD_AFTER_CLOSE_MS = 2000;

    @Check(order = 19, title = "survives running out of file descriptors: answers what it holds, spins no core, accepts again once some close",
           hint = "With no file descriptor left, accept() fails ('Too many open files') until a connection closes. That failure must "
            + "not end the accept loop, its thread or the server, nor be retried at once in a loop: wait a moment and try again "
            + "(Kit.accept does), or stop asking the selector for OP_ACCEPT for a while.",
           see = "protocol#out-of-file-descriptors",
           after = {"ch03.noLeaks", "ch03.loneTimer", "ch03.oneThreadAndIdle", "ch06.flushes"})
    // A reactor that never closes a connection never gets its descriptors back; one that spins whenever it waits spins here
    // too; the /io held meanwhile needs a timer and a flush.
    void outOfFiles(org.junit.jupiter.api.TestReporter reporter) throws Exception {
        Target limited = target.startWithOpenFiles(OPEN_FILES);
        List<Socket> flood = new ArrayList<>();
        try (Client held = Client.connect(limited, HELD_MS + 10_000)) {
            held.send(Client.request("GET", "/io?ms=" + HELD_MS));
            Thread.sleep(300); // it is served before the flood comes
            // More connections than the server has descriptors, held open. A server may refuse or delay
            // new connections while it is out: the first that does not connect within a second ends the flood.
            for (int i = 0; i < OPEN_FILES + 64; i++) {
                Socket s = new Socket();
                flood.add(s);
                try {
                    s.connect(new InetSocketAddress(limited.host, limited.port), 1000);
                } catch (IOException e) {
                    break;
                }
            }
            Thread.sleep(500);
            assertAlive(limited, "as it ran out of file descriptors");
            Inspect inspect = limited.inspect();
            String never = neverRanOut(inspect.openFiles(), flood.size());
            if (never != null) reporter.publishEntry(Check.NOTE, never);
            Duration before = inspect.cpuTime();
            Elapsed window = Elapsed.start();
            Thread.sleep(2000); // two seconds: a server that backs off may still spend a burst of CPU on each retry
            assertAlive(limited, "while it was out of file descriptors");
            long cpuMs = inspect.cpuTime().minus(before).toMillis();
            long wallMs = window.ms();
            assertTrue(cpuMs < wallMs / 2, "while out of file descriptors, with " + flood.size() + " connections open and nothing asked, "
                    + "the server used " + cpuMs + " ms of CPU in " + wallMs + " ms: it tries accept() again and again");
            try {
                held.read().assertStatus(200);
            } catch (Client.NoAnswer e) {
                throw new AssertionError("a request in progress as the server ran out of file descriptors (/io?ms=" + HELD_MS
                        + ") got no answer within " + Client.seconds(HELD_MS + 10_000));
            }
        } finally {
            for (Socket s : flood) s.close();
        }
        try {
            boolean answered = false;
            Inspect inspect = limited.inspect();
            for (Elapsed freed = Elapsed.start(); !answered && freed.ms() < 10_000; ) {
                answered = limited.answers(1000);
                if (!answered) Thread.sleep(200);
                // A server that still holds all its files seconds after every connection closed
                // never gets them back: say so now rather than wait out the 10 s.
                java.util.OptionalInt held = answered ? java.util.OptionalInt.empty() : inspect.openFiles();
                if (held.isPresent() && freed.ms() >= HELD_AFTER_CLOSE_MS && held.getAsInt() >= OPEN_FILES - 16 && !limited.exited()) {
                    throw new AssertionError("after the " + flood.size() + " connections closed, the server still held " + held.getAsInt()
                            + " of its " + OPEN_FILES + " files " + freed.ms() / 1000 + " s later and answered nothing: a connection that ends"
                            + " must have its channel closed (cancelling its key does not close it), or its descriptor is never given back");
                }
            }
            assertAlive(limited, "after the connections closed");
            assertTrue(answered, "after the " + flood.size() + " connections closed, a new connection got no answer to GET / within 10 s");
        } finally {
            limited.stop();
        }
    }

    /**
     * What to say when the copy, with {@code flooding} connections open to it, held fewer open
     * files than it may (at least 32 to spare): it never ran out, so the check saw only the rest of
     * the behaviour; null when it ran out (or its files cannot be counted).
     */
    public static String neverRanOut(java.util.OptionalInt files, int flooding) {
        if (files.isEmpty() || files.getAsInt() > OPEN_FILES - 32) return null;
        return "passes without running out: the server held " + files.getAsInt() + " of its " + OPEN_FILES + " files with "
                + flooding + " connections open to it, the rest waiting in the kernel's queue or turned away (one connection at a time,"
                + " or a bounded pool that refuses the rest, never runs out; a server that holds every connection does)";
    }

    /** Fails, quoting the end of its output, if the server {@code t} (started here) has exited. */
    private static void assertAlive(Target t, String when) {
        if (t.exited()) {
            List<String> said = Target.tail(t.log(), 60).lines().filter(l -> !l.strip().startsWith("at ")).toList(); // no stack frames
            throw new AssertionError("the server exited " + when + ". Its output ends:\n"
                    + String.join("\n", said.subList(Math.max(0, said.size() - 4), said.size())));
        }
    }

    static String ascii(byte[] b) {
        return new String(b, StandardCharsets.ISO_8859_1);
    }
}
