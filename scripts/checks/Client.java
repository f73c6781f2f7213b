package checks;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import lib.Target;

/**
 * A raw HTTP/1.1 client for the checks: exact bytes out, one parsed response at a time in, and
 * a socket timeout on every read, so a silent server fails a check instead of hanging it.
 * Failure messages quote what actually arrived.
 */
public final class Client implements AutoCloseable {
    /** How long a read waits by default: a server on loopback answers in milliseconds, even on a busy machine. */
    static final int READ_TIMEOUT_MS = 3000;

    /** Nothing arrived within the read timeout: a check that counts answers catches this one. */
    static final class NoAnswer extends AssertionError {
        NoAnswer(String message) {
            super(message);
        }
    }

    static String seconds(int ms) {
        return ms % 1000 == 0 ? ms / 1000 + " s" : String.format(java.util.Locale.ROOT, "%.1f s", ms / 1000.0);
    }

    /** One response as it arrived. */
    public record Reply(String statusLine, int status, Map<String, String> headers, byte[] body) {
        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }

        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        /** Asserts the status code, quoting the status line that came instead. */
        Reply assertStatus(int expected) {
            org.junit.jupiter.api.Assertions.assertEquals(expected, status, () -> "the status line was '" + statusLine + "'");
            return this;
        }
    }

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    private Client(Socket socket) throws IOException {
        this.socket = socket;
        this.in = new BufferedInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
    }

    /** Connects to the server under test. */
    public static Client connect(Target t) throws IOException {
        return connect(t, READ_TIMEOUT_MS);
    }

    public static Client connect(Target t, int readTimeoutMs) throws IOException {
        Socket s = new Socket();
        s.setTcpNoDelay(true);
        try {
            s.connect(new InetSocketAddress(t.host, t.port), 3000);
        } catch (IOException e) {
            s.close();
            throw new AssertionError("could not connect to " + t.url() + ": " + e.getMessage()
                    + " (is the server still running? look at its output above)");
        }
        s.setSoTimeout(readTimeoutMs);
        return new Client(s);
    }

    /** One request on a fresh connection, then close: the reply. */
    public static Reply get(Target t, String path) throws IOException {
        try (Client c = connect(t)) {
            return c.send(request("GET", path)).read();
        }
    }

    /** A whole-number field of {@code GET /stats} ("dbPeak"), as the server reports it now. */
    static long stat(Target t, String field) throws IOException {
        Reply r = get(t, "/stats");
        r.assertStatus(200);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"" + field + "\"\\s*:\\s*(\\d+)").matcher(r.text());
        if (!m.find()) throw new AssertionError("GET /stats has no number \"" + field + "\": " + r.text().strip());
        return Long.parseLong(m.group(1));
    }

    /** An answer, and the milliseconds from connecting until it had all come. */
    record Timed(Reply reply, long ms) {
    }

    /** Sends {@code raw} on a new connection and times its answer. */
    static Timed timed(Target t, String raw, int readTimeoutMs) throws IOException {
        Elapsed start = Elapsed.start();
        try (Client c = connect(t, readTimeoutMs)) {
            Reply reply = c.send(raw).read();
            return new Timed(reply, start.ms());
        }
    }

    /** A well-formed request with Host and, when a body is given, Content-Length. */
    public static String request(String method, String path, String... extraHeaders) {
        StringBuilder b = new StringBuilder(method + " " + path + " HTTP/1.1\r\nHost: localhost\r\n");
        for (String h : extraHeaders) b.append(h).append("\r\n");
        return b.append("\r\n").toString();
    }

    public Client send(String raw) throws IOException {
        return send(raw.getBytes(StandardCharsets.ISO_8859_1));
    }

    Client send(byte[] raw) throws IOException {
        out.write(raw);
        out.flush();
        return this;
    }

    /** Sends in pieces of {@code size} bytes with a pause between them. */
    Client sendInPieces(String raw, int size, long pauseMs) throws IOException, InterruptedException {
        byte[] bytes = raw.getBytes(StandardCharsets.ISO_8859_1);
        for (int i = 0; i < bytes.length; i += size) {
            out.write(bytes, i, Math.min(size, bytes.length - i));
            out.flush();
            if (pauseMs > 0 && i + size < bytes.length) Thread.sleep(pauseMs);
        }
        return this;
    }

    /** Reads one whole response (status line, headers, Content-Length body). */
    public Reply read() throws IOException {
        String status = line("the status line");
        if (!status.matches("HTTP/1\\.[01] \\d{3}( .*)?")) {
            throw new AssertionError("expected a status line like 'HTTP/1.1 200 OK' but the first line was '" + status + "'");
        }
        Map<String, String> headers = new LinkedHashMap<>();
        String line;
        while (!(line = line("the headers")).isEmpty()) {
            int colon = line.indexOf(':');
            if (colon <= 0) throw new AssertionError("malformed header line in the response: '" + line + "'");
            headers.put(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), line.substring(colon + 1).trim());
        }
        String length = headers.get("content-length");
        if (length == null) {
            throw new AssertionError("the response has no Content-Length header (every response needs one): " + status + " " + headers);
        }
        long n = Long.parseLong(length);
        byte[] body = in.readNBytes((int) Math.min(n, Integer.MAX_VALUE));
        if (body.length < n) {
            throw new AssertionError("Content-Length said " + n + " bytes but the connection ended after " + body.length);
        }
        return new Reply(status, Integer.parseInt(status.substring(9, 12)), headers, body);
    }

    /** Asserts that the server closes the connection now (no further bytes, then end of stream). */
    /** Sends {@code raw} on a new connection; the answer must have {@code status}, and the server must close then. */
    static void assertAnsweredThenClosed(Target t, String raw, int status) throws IOException {
        try (Client c = connect(t)) {
            c.send(raw).read().assertStatus(status);
            c.assertClosedByServer();
        }
    }

    /** Whether bytes of an answer have arrived on this connection, without waiting for any. */
    boolean answered() throws IOException {
        return in.available() > 0;
    }

    /**
     * Whether the server has closed this connection: an end of stream or a reset within
     * {@code waitMs}. False when it stays open, or sends more.
     */
    boolean closedByServer(int waitMs) throws IOException {
        socket.setSoTimeout(waitMs);
        try {
            return in.read() == -1;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (java.net.SocketException e) {
            return true; // a reset
        }
    }

    void assertClosedByServer() throws IOException {
        // A server that closes does so right after its answer: wait 0.7 s at most, not a whole read timeout.
        socket.setSoTimeout(Math.min(socket.getSoTimeout() == 0 ? 700 : socket.getSoTimeout(), 700));
        try {
            int b = in.read();
            if (b != -1) {
                byte[] more = in.readNBytes(Math.min(in.available(), 80));
                throw new AssertionError("expected the server to close the connection, but more bytes arrived: '"
                        + (char) b + new String(more, StandardCharsets.ISO_8859_1).replace("\r\n", "\\r\\n") + "'");
            }
        } catch (SocketTimeoutException e) {
            throw new AssertionError("expected the server to close the connection, but it stayed open for "
                    + seconds(socket.getSoTimeout()) + " after its answer");
        } catch (java.net.SocketException e) {
            // a reset counts as closed
        }
    }

    private String line(String what) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try {
            while (true) {
                int c = in.read();
                if (c == -1) {
                    throw new AssertionError(b.size() == 0 && what.equals("the status line")
                            ? "the server closed the connection without answering"
                            : "the connection ended in the middle of " + what + ": '" + b + "'");
                }
                if (c == '\n') break;
                b.write(c);
                if (b.size() > 16 * 1024) throw new AssertionError("a response line longer than 16 KiB");
            }
        } catch (SocketTimeoutException e) {
            throw new NoAnswer("no response within " + seconds(socket.getSoTimeout()) + " while reading " + what
                    + (b.size() > 0 ? " (got '" + b + "' so far)" : ""));
        } catch (java.net.SocketException e) {
            throw new AssertionError("the connection was reset while reading " + what + ": " + e.getMessage());
        }
        String s = b.toString(StandardCharsets.ISO_8859_1);
        return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
    }

    Socket socket() {
        return socket;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
