import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;

/**
 * Opens many idle keep-alive connections from this JVM: each connects, sends one GET /, reads
 * the whole answer, and stays open. Never hangs: a bounded window of connections in flight, a
 * deadline per connection, and it stops opening more when the server stops answering.
 */
final class Idle implements AutoCloseable {
    /** What happened to the connections asked for; {@code served + refused + unanswered + notAttempted == asked}. */
    record Outcome(int asked, int served, int refused, int unanswered, int notAttempted, double seconds, String stopped) {}

    /** One connection on its way to being served. */
    private static final class Conn {
        final SocketChannel channel;
        final long deadline;
        final ByteBuffer in = ByteBuffer.allocate(4096);
        ByteBuffer out;

        Conn(SocketChannel channel, long deadline) {
            this.channel = channel;
            this.deadline = deadline;
        }
    }

    private final List<SocketChannel> open = new ArrayList<>();

    /**
     * Opens {@code asked} connections to host:port, at most {@code window} in flight at once; a
     * connection not answered within {@code answerMillis} is unanswered, and when nothing at all
     * was answered for {@code stallMillis} no more are opened.
     */
    Outcome open(String host, int port, int asked, int window, long answerMillis, long stallMillis) throws IOException {
        byte[] request = ("GET / HTTP/1.1\r\nHost: " + host + ":" + port + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        InetSocketAddress address = new InetSocketAddress(host, port);
        long start = System.nanoTime();
        long lastProgress = start;
        long lastSweep = start;
        int attempted = 0, served = 0, refused = 0, unanswered = 0, pending = 0;
        String stopped = null;
        try (Selector selector = Selector.open()) {
            while (true) {
                long now = System.nanoTime();
                if (stopped == null && pending > 0 && now - lastProgress > stallMillis * 1_000_000) {
                    stopped = String.format(Locale.ROOT, "the server answered nothing for %.0f s", stallMillis / 1000.0);
                }
                // Open more, up to the window.
                while (stopped == null && attempted < asked && pending < window) {
                    SocketChannel ch;
                    try {
                        ch = SocketChannel.open();
                    } catch (IOException e) {
                        stopped = "this process cannot open more sockets: " + e.getMessage();
                        break;
                    }
                    attempted++;
                    pending++;
                    Conn c = new Conn(ch, now + answerMillis * 1_000_000);
                    try {
                        ch.configureBlocking(false);
                        ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                        if (ch.connect(address)) {
                            c.out = ByteBuffer.wrap(request);
                            ch.register(selector, SelectionKey.OP_WRITE, c);
                        } else {
                            ch.register(selector, SelectionKey.OP_CONNECT, c);
                        }
                    } catch (IOException e) {
                        refused++;
                        pending--;
                        closeNow(ch);
                    }
                }
                if (pending == 0 && (attempted >= asked || stopped != null)) break;
                selector.select(100);
                Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
                while (keys.hasNext()) {
                    SelectionKey key = keys.next();
                    keys.remove();
                    Conn c = (Conn) key.attachment();
                    int verdict; // 0 still going, 1 served, -1 refused
                    try {
                        verdict = step(key, c, request);
                    } catch (IOException e) {
                        verdict = -1;
                    }
                    if (verdict != 0) {
                        pending--;
                        lastProgress = System.nanoTime();
                        key.cancel();
                        if (verdict > 0) {
                            served++;
                            open.add(c.channel);
                        } else {
                            refused++;
                            closeNow(c.channel);
                        }
                    }
                }
                // Connections past their deadline are unanswered: they stay open (the server holds them), uncounted as served.
                now = System.nanoTime();
                if (now - lastSweep < 100_000_000) continue;
                lastSweep = now;
                for (SelectionKey key : selector.keys()) {
                    if (key.isValid() && key.attachment() instanceof Conn c && now > c.deadline) {
                        key.cancel();
                        pending--;
                        unanswered++;
                        open.add(c.channel);
                    }
                }
            }
        }
        if (stopped == null && attempted < asked) stopped = "stopped early";
        return new Outcome(asked, served, refused, unanswered, asked - attempted, (System.nanoTime() - start) / 1e9, stopped);
    }

    /** Advances one connection: connect, send the request, read the answer. 1 served (2xx), -1 refused, 0 not yet. */
    private static int step(SelectionKey key, Conn c, byte[] request) throws IOException {
        SocketChannel ch = c.channel;
        if (key.isConnectable()) {
            if (!ch.finishConnect()) return 0;
            c.out = ByteBuffer.wrap(request);
            key.interestOps(SelectionKey.OP_WRITE);
        }
        if (key.isValid() && (key.interestOps() & SelectionKey.OP_WRITE) != 0) {
            ch.write(c.out);
            if (!c.out.hasRemaining()) key.interestOps(SelectionKey.OP_READ);
            return 0;
        }
        if (key.isReadable()) {
            if (ch.read(c.in) < 0) return -1;
            return answered(c.in);
        }
        return 0;
    }

    /** Whether the bytes so far hold a whole response: 1 if it is 2xx, -1 otherwise, 0 if incomplete. */
    static int answered(ByteBuffer in) {
        String text = new String(in.array(), 0, in.position(), StandardCharsets.ISO_8859_1);
        int end = text.indexOf("\r\n\r\n");
        if (end < 0) return in.hasRemaining() ? 0 : -1;
        long length = 0;
        for (String line : text.substring(0, end).split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase("content-length")) {
                try {
                    length = Long.parseLong(line.substring(colon + 1).trim());
                } catch (NumberFormatException e) {
                    return -1;
                }
            }
        }
        if (text.length() - end - 4 < length) return in.hasRemaining() ? 0 : -1;
        boolean ok = text.startsWith("HTTP/1.1 2") || text.startsWith("HTTP/1.0 2");
        boolean closes = text.substring(0, end).toLowerCase(Locale.ROOT).contains("connection: close");
        return ok && !closes ? 1 : -1;
    }

    /** Connections still open (served or unanswered). */
    int openCount() {
        return open.size();
    }

    /** Closes every connection at once, with a reset so no TIME_WAIT is left behind. */
    @Override
    public void close() {
        open.forEach(Idle::closeNow);
        open.clear();
    }

    private static void closeNow(SocketChannel ch) {
        try {
            ch.setOption(StandardSocketOptions.SO_LINGER, 0);
        } catch (IOException | RuntimeException e) {
            // not connected: a plain close does
        }
        try {
            ch.close();
        } catch (IOException e) {
            // closing anyway
        }
    }
}
