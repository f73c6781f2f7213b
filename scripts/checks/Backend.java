///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
//DEPS info.picocli:picocli:4.7.7
//SOURCES ../lib/Cli.java ../lib/CommandError.java

package checks;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import lib.Cli;
import lib.CommandError;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The backend that chapter 08's trips call: {@code GET /io?ms=S} answers after S ms,
 * {@code GET /fail} answers 500 at once, as every workshop server does. It also watches what a
 * grader needs to see: the calls in flight (and the most at once), each call's
 * {@code X-Request-Id}, the connections opened, and the calls whose client closed the
 * connection before the answer (a cancelled leg). The grader runs it in its own JVM; the
 * benchmark starts it as a program ({@code jbang scripts/checks/Backend.java --port 0}), which
 * keeps counts only; {@link Standalone} reads that program's command line.
 */
public final class Backend implements AutoCloseable {
    /** One call: what was asked, with which id, and how it ended (answered, or closed by the client first). */
    public record Call(String path, String id, long startNanos, long endNanos, boolean closedEarly) {
        long millis() {
            return (endNanos - startNanos) / 1_000_000;
        }
    }

    private final ServerSocket server;
    private final boolean recording;
    /** Prints a line per call as it ends (the standalone backend's --verbose). */
    volatile boolean verbose;
    private final List<Call> calls = new ArrayList<>();
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private int inFlight;
    private int maxInFlight;
    private int opened;

    private Backend(ServerSocket server, boolean recording) {
        this.server = server;
        this.recording = recording;
    }

    /** Starts a backend on {@code host:port} (0: any free port); {@code recording} keeps every call. */
    public static Backend start(String host, int port, boolean recording) throws IOException {
        ServerSocket server = new ServerSocket();
        server.setReuseAddress(true);
        server.bind(new InetSocketAddress(InetAddress.getByName(host), port), 4096);
        Backend b = new Backend(server, recording);
        Thread.ofVirtual().name("backend-accept").start(b::accept);
        return b;
    }


    public String url() {
        return "http://127.0.0.1:" + server.getLocalPort();
    }

    /** Forgets the calls so far and the peak; the connections opened count from now. */
    public synchronized void reset() {
        calls.clear();
        maxInFlight = inFlight;
        opened = 0;
    }

    public synchronized List<Call> calls() {
        return List.copyOf(calls);
    }

    synchronized int maxInFlight() {
        return maxInFlight;
    }

    synchronized int inFlight() {
        return inFlight;
    }

    /** Connections opened since the last reset. */
    synchronized int opened() {
        return opened;
    }

    /** Connections open now. */
    int open() {
        return open.size();
    }

    /** Waits up to {@code millis} for no call to be in flight; whether none is. */
    public boolean awaitIdle(long millis) throws InterruptedException {
        long end = System.nanoTime() + millis * 1_000_000;
        while (inFlight() > 0 && System.nanoTime() < end) Thread.sleep(20);
        return inFlight() == 0;
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException e) {
            // closing anyway
        }
        for (Socket s : open) closeQuietly(s);
    }

    private void accept() {
        Thread.Builder threads = Thread.ofVirtual().name("backend-conn-", 0);
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                s.setTcpNoDelay(true);
                open.add(s);
                synchronized (this) {
                    opened++;
                }
                threads.start(() -> serve(s));
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    /** Reads requests and answers them until the client closes. */
    private void serve(Socket s) {
        try (s) {
            InputStream in = s.getInputStream();
            OutputStream out = s.getOutputStream();
            ByteArrayOutputStream buffer = new ByteArrayOutputStream();
            while (true) {
                String head = readHead(in, buffer);
                if (head == null) return;
                String[] lines = head.split("\r\n");
                String[] first = lines[0].split(" ");
                if (first.length != 3) {
                    write(out, 400, "bad request line\n");
                    return;
                }
                String id = null;
                for (int i = 1; i < lines.length; i++) {
                    int colon = lines[i].indexOf(':');
                    if (colon > 0 && lines[i].substring(0, colon).trim().equalsIgnoreCase("x-request-id")) id = lines[i].substring(colon + 1).trim();
                }
                String path = first[1];
                if (path.equals("/fail")) {
                    record(path, id, System.nanoTime(), false);
                    write(out, 500, "a failing call\n");
                } else if (path.startsWith("/io?ms=") && path.substring(7).matches("\\d{1,6}")) {
                    long ms = Long.parseLong(path.substring(7));
                    if (!waitFor(s, in, buffer, path, id, ms)) return;
                    write(out, 200, "waited " + ms + " ms\n");
                } else if (path.equals("/")) {
                    write(out, 200, "Hello, World!");
                } else {
                    write(out, 404, "the backend has /io?ms=N and /fail only\n");
                }
            }
        } catch (IOException e) {
            // the client went away
        } finally {
            open.remove(s);
        }
    }

    /**
     * Waits {@code ms} while watching the connection: a client that closes it meanwhile has
     * cancelled the call. Bytes that arrive (a pipelined request) are kept. Whether to answer.
     */
    private boolean waitFor(Socket s, InputStream in, ByteArrayOutputStream buffer, String path, String id, long ms) throws IOException {
        long start = System.nanoTime();
        synchronized (this) {
            inFlight++;
            maxInFlight = Math.max(maxInFlight, inFlight);
        }
        boolean closed = false;
        try {
            long end = start + ms * 1_000_000;
            byte[] chunk = new byte[4096];
            while (true) {
                long left = (end - System.nanoTime()) / 1_000_000;
                if (left <= 0) break;
                s.setSoTimeout((int) left);
                try {
                    int n = in.read(chunk);
                    if (n < 0) {
                        closed = true;
                        break;
                    }
                    buffer.write(chunk, 0, n);
                } catch (SocketTimeoutException e) {
                    break;
                } catch (IOException e) {
                    closed = true;
                    break;
                }
            }
            s.setSoTimeout(0);
            return !closed;
        } finally {
            synchronized (this) {
                inFlight--;
            }
            record(path, id, start, closed);
        }
    }

    private synchronized void record(String path, String id, long start, boolean closedEarly) {
        Call call = new Call(path, id, start, System.nanoTime(), closedEarly);
        if (recording) calls.add(call);
        if (verbose) {
            System.out.printf(Locale.ROOT, "GET %-12s X-Request-Id: %-10s %s after %d ms%n", path, id == null ? "(none)" : id,
                    closedEarly ? "CLOSED by the client (cancelled)" : path.equals("/fail") ? "answered 500" : "answered", call.millis());
        }
    }

    /** The next request's head, without the blank line; null when the client closed first. */
    private static String readHead(InputStream in, ByteArrayOutputStream buffer) throws IOException {
        byte[] chunk = new byte[4096];
        while (true) {
            byte[] seen = buffer.toByteArray();
            int end = indexOf(seen);
            if (end >= 0) {
                buffer.reset();
                buffer.write(seen, end + 4, seen.length - end - 4);
                return new String(seen, 0, end, StandardCharsets.ISO_8859_1);
            }
            if (seen.length > 16 * 1024) throw new IOException("a request head over 16 KiB");
            int n = in.read(chunk);
            if (n < 0) return null;
            buffer.write(chunk, 0, n);
        }
    }

    private static int indexOf(byte[] b) {
        for (int i = 0; i + 3 < b.length; i++) {
            if (b[i] == '\r' && b[i + 1] == '\n' && b[i + 2] == '\r' && b[i + 3] == '\n') return i;
        }
        return -1;
    }

    private static void write(OutputStream out, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        String reason = switch (status) {
            case 200 -> "OK";
            case 400 -> "Bad Request";
            case 404 -> "Not Found";
            default -> "Internal Server Error";
        };
        byte[] head = String.format(Locale.ROOT, "HTTP/1.1 %d %s\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: %d\r\n\r\n",
                status, reason, bytes.length).getBytes(StandardCharsets.US_ASCII);
        byte[] whole = java.util.Arrays.copyOf(head, head.length + bytes.length);
        System.arraycopy(bytes, 0, whole, head.length, bytes.length);
        out.write(whole); // Why one write: two small ones meet Nagle's algorithm and the client's delayed ACK, 40 ms a call
        out.flush();
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // closing anyway
        }
    }

    /** {@code jbang scripts/checks/Backend.java [--port P] [--host H] [--verbose]}: runs until stopped. */
    public static void main(String[] args) {
        System.exit(Cli.run("backend", new Standalone(), args));
    }

    /**
     * The backend as a program of its own (the race's, and a learner's beside their server in
     * chapter 08), its command line read by picocli through {@link Cli}: serves until the process
     * is stopped, keeping counts only.
     */
    @Command(name = "backend", sortOptions = false,
            customSynopsis = {"usage: jbang scripts/checks/Backend.java [--port P] [--host H] [--verbose]", ""},
            footer = {"", "GET /io?ms=N answers after N ms, GET /fail answers 500 at once; it runs until stopped."})
    static final class Standalone implements Callable<Integer> {
        @Option(names = "--port", paramLabel = "P", description = "the port (default 8081, the servers' default --backend; 0 takes any free one)")
        int port = 8081;

        @Option(names = "--host", paramLabel = "H", description = "the address to listen on (default 127.0.0.1)")
        String host = "127.0.0.1";

        @Option(names = "--verbose", description = "prints a line per call as it ends: answered, or closed by the client first")
        boolean verbose;

        @Option(names = {"-h", "--help"}, usageHelp = true, description = "this help")
        boolean help;

        @Override
        public Integer call() throws Exception {
            if (port < 0 || port > 65535) throw CommandError.usage("--port must be a number from 0 to 65535, not '" + port + "'");
            Backend b;
            try {
                b = start(host, port, false);
            } catch (java.net.BindException e) {
                throw CommandError.environment("cannot listen on " + host + ":" + port + " (" + e.getMessage()
                        + "): stop the program using that port, or start with --port 0");
            }
            b.verbose = verbose;
            System.out.println("listening on http://" + host + ":" + b.server.getLocalPort());
            System.out.flush();
            // Its threads are virtual (daemons), and main exits once this returns: it serves from here till the process is stopped.
            Thread.currentThread().join();
            return 0;
        }
    }
}
