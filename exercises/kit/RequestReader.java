import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;

/** Reads requests one after another from a blocking stream (keeps the bytes of pipelined ones). */
final class RequestReader {
    // tag::buffers[]
    /** A waiting connection reads into SMALL bytes; while reads keep filling their buffer, into LARGE. */
    static final int SMALL = 256;
    static final int LARGE = 16 * 1024;
    private final InputStream in;
    private final RequestParser parser = new RequestParser();
    private final ByteBuffer small = ByteBuffer.allocate(SMALL).flip();
    private ByteBuffer large;            // only while bytes keep coming faster than one small read takes them
    private ByteBuffer buffer = small;   // the bytes read and not parsed yet
    private boolean filled;              // the last read filled its buffer: more is likely waiting

    /**
     * Reads what has arrived, blocking until something has: into the small buffer, or a large
     * one after a read that filled its buffer. A blocked read holds its buffer, so a connection
     * that waits for its next request holds only the small one.
     */
    private int read() throws IOException {
        if (!filled) large = null; // Why: 10,000 idle connections must not keep 16 KiB each
        ByteBuffer into = !filled ? small : large != null ? large : (large = ByteBuffer.allocate(LARGE));
        int n = in.read(into.array(), 0, into.capacity());
        if (n >= 0) {
            buffer = into.clear().limit(n);
            filled = n == into.capacity();
        }
        return n;
    }
    // end::buffers[]

    /** The bytes its read buffers hold now: what a waiting connection costs (for the kit's tests). */
    int holds() {
        return small.capacity() + (large == null ? 0 : large.capacity());
    }

    RequestReader(InputStream in) {
        this.in = in;
    }

    /**
     * Blocks until the next request has arrived whole. Returns null when the client closed the
     * connection between requests; throws {@link HttpError} for a request the server must refuse.
     */
    Request next() throws IOException, HttpError {
        return next(() -> false);
    }

    /**
     * The same, on a socket with a read timeout ({@code Socket.setSoTimeout}): each time a read
     * times out before the first byte of the next request, asks {@code letGo}, and returns null
     * (as if the client had closed) when it says yes and no byte has arrived since. A timeout in the middle of a request, or
     * when {@code letGo} says no, just waits on.
     */
    // tag::next[]
    Request next(BooleanSupplier letGo) throws IOException, HttpError {
        while (true) {
            Request request = parser.parse(buffer);
            if (request != null) return request;
            int n;
            while (true) {
                try {
                    n = read();
                    break;
                } catch (SocketTimeoutException e) {
                    // available(): bytes that arrived just as the read gave up are a request begun.
                    if (parser.idle() && letGo.getAsBoolean() && in.available() == 0) return null;
                }
            }
            if (n < 0) {
                if (parser.idle()) return null;
                throw new EOFException("the client closed the connection in the middle of a request");
            }
        }
    }
    // end::next[]

    /** How long a connection may take: idle between requests, and to send a request's head. */
    record Timeouts(int idleMillis, int headerMillis) {}

    // tag::deadline[]
    /**
     * The same, with timeouts, for the socket this reader reads: between requests, waits at most
     * {@code idleMillis} for a byte, then returns null (let the connection go). From a request's
     * first byte, its head must be whole within {@code headerMillis}, else {@link HttpError} 408;
     * a body that stops for {@code idleMillis} gets 408 too. Each read in a request waits only
     * until the deadline, so a client that sends a byte now and then cannot stretch it.
     */
    Request next(Socket socket, Timeouts timeouts) throws IOException, HttpError {
        long headDeadline = 0;   // System.nanoTime() by which the head must be whole; 0: no head begun
        long lastBytes = System.nanoTime();
        while (true) {
            Request request = parser.parse(buffer);
            if (request != null) return request;
            if (parser.idle()) { // between requests: no timeout on the read, the watchdog lets it go
                socket.setSoTimeout(0);
                if (readOrLetGo(socket, timeouts.idleMillis()) < 0) return null;
                lastBytes = System.nanoTime();
                continue;
            }
            long now = System.nanoTime();
            if (!parser.inHead()) {
                headDeadline = 0;
            } else if (headDeadline == 0) {
                headDeadline = lastBytes + timeouts.headerMillis() * 1_000_000L; // Why: from the first byte, not from the last
            }
            long waitMs = timeouts.idleMillis();
            if (headDeadline != 0) {
                waitMs = (headDeadline - now) / 1_000_000;
                if (waitMs <= 0) throw new HttpError(408, "the request's head did not arrive within " + timeouts.headerMillis() + " ms");
            }
            socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, waitMs));
            int n;
            try {
                n = read();
            } catch (SocketTimeoutException e) {
                if (parser.inHead()) continue;                             // the deadline check answers 408
                throw new HttpError(408, "the request's body stopped arriving for " + timeouts.idleMillis() + " ms");
            }
            if (n < 0) throw new EOFException("the client closed the connection in the middle of a request");
            lastBytes = System.nanoTime();
        }
    }
    // end::deadline[]

    // tag::watchdog[]
    /**
     * Reads while no request is in progress, listed with its deadline for the {@link Watchdog};
     * returns -1 when the client closed, or when the watchdog let the connection go first.
     */
    private int readOrLetGo(Socket socket, int idleMillis) throws IOException {
        if (idleMillis <= 0) return read(); // Why: 0 waits for ever, as setSoTimeout(0) did
        Watchdog.WAITING.put(this, new Waiting(socket, System.nanoTime() + idleMillis * 1_000_000L));
        int n;
        boolean letGo;
        try {
            n = read();
        } finally {
            letGo = Watchdog.WAITING.remove(this) == null; // Why: whoever removes the entry first decides
        }
        return letGo ? -1 : n;
    }

    /** A connection waiting for its next request, and when it must be let go (System.nanoTime()). */
    private record Waiting(Socket socket, long deadline) {}

    /**
     * Lets idle connections go. A read with a timeout costs a timer, set before the thread parks
     * and cancelled when the bytes come: on a keep-alive connection, one per request, each waking
     * the JDK's timer thread. So the wait between requests reads without one, and one virtual
     * thread looks at every waiting connection {@value #WATCH_MS} ms apart: it shuts the input of
     * one past its deadline, and the blocked read returns -1, as if the client had closed.
     */
    private static final class Watchdog {
        static final Map<RequestReader, Waiting> WAITING = new ConcurrentHashMap<>();

        static {
            Thread.ofVirtual().name("idle-watchdog").start(Watchdog::watch);
        }

        private static void watch() {
            while (true) {
                try {
                    Thread.sleep(WATCH_MS);
                } catch (InterruptedException e) {
                    return;
                }
                long now = System.nanoTime();
                WAITING.forEach((reader, waiting) -> {
                    if (now - waiting.deadline() >= 0) letGo(reader, waiting);
                });
            }
        }

        /**
         * Shuts the input of a connection past its deadline, unless its reader took the entry first,
         * or bytes have just arrived: those are a request begun, and its reader is waking for them.
         */
        private static void letGo(RequestReader reader, Waiting waiting) {
            try {
                if (waiting.socket().getInputStream().available() == 0 && WAITING.remove(reader, waiting)) {
                    waiting.socket().shutdownInput();
                }
            } catch (IOException e) {
                WAITING.remove(reader, waiting); // closed already
            }
        }
    }

    /** How often the watchdog looks: an idle connection goes at most this long after its deadline. */
    static final int WATCH_MS = 250;
    // end::watchdog[]
}
