import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;

/**
 * The client of the idle workload and of the connections phase ({@code --connections}): holds
 * many keep-alive connections from this JVM on one thread and one {@link Selector}, the most
 * frugal way a JVM can hold 100,000 sockets (a channel and its key each; no buffer while a
 * connection is idle). Each connects, sends one GET /, reads the whole answer and stays open; a
 * bounded window in flight, a deadline each, and it stops when the server stops answering. For
 * the connections phase it binds each socket to a source address of its own first: a pair of
 * addresses gives at most the ephemeral ports (Linux: 32768 to 60999, 28,232), so connection i
 * leaves from 127.0.0.(2 + i / perSource).
 * Then, with all of them open, a small share asks GET /io?ms=200 once a second each, spread over
 * the second, like the users of a chat server who are typing, and the answers are timed from when
 * each request was due. Never hangs: every wait has a deadline.
 */
final class Connections implements AutoCloseable {
    /** Connections one source address carries at most: well inside the ephemeral ports, so bind() never runs out. */
    static final int MAX_PER_SOURCE = 20_000;
    /** Linux's default ephemeral ports (32768 to 60999), where the kernel's own setting cannot be read. */
    static final int DEFAULT_EPHEMERAL_PORTS = 28_232;

    /**
     * How opening went: {@code asked = held + closed + refused + turnedAway + unanswered + notAttempted},
     * where {@code held} are still open when it ended and {@code closed} were held but the server closed them meanwhile;
     * {@code turnedAway}: answered with an error or closed before answering; {@code stopped}: why
     * it stopped opening more (null when it did not); {@code clientLimit}: it was this process
     * that could open no more sockets (its own open-files limit), not the server.
     */
    record Opened(int asked, int held, int closed, int refused, int turnedAway, int unanswered, int notAttempted, int sources, double seconds,
                  String stopped, boolean clientLimit) {}

    /**
     * The active share's window: {@code connections} each asked once a second; {@code asked}, the
     * requests that came due; {@code answered} 2xx; {@code failed}, answered otherwise or closed;
     * {@code late}, due while that connection's last request was still unanswered (not sent:
     * HTTP/1.1 answers in order, and counted as not answered); {@code unanswered}, sent but no
     * answer by the end of the grace period; latencies of the answered ones, from when each was due,
     * in ms; {@code closedByServer}, idle connections the server closed meanwhile.
     */
    record Active(int connections, long asked, long answered, long failed, long late, long unanswered, double p50Ms, double p99Ms,
                  double maxMs, int closedByServer) {}

    /** A connection on its way to being held. */
    private static final class Pending {
        final SocketChannel channel;
        final long deadline;
        final ByteBuffer in = ByteBuffer.allocate(2048);
        ByteBuffer out;

        Pending(SocketChannel channel, long deadline) {
            this.channel = channel;
            this.deadline = deadline;
        }
    }

    /** One of the active share: its schedule and its request in flight. */
    private static final class Talker {
        final SelectionKey key;
        final ByteBuffer in = ByteBuffer.allocate(4096);
        ByteBuffer out;
        long sentDue; // when the request in flight was due; 0 when none is
        boolean gone;

        Talker(SelectionKey key) {
            this.key = key;
        }
    }

    private final Selector selector;
    private final ByteBuffer scratch = ByteBuffer.allocate(4096);
    private int held;
    private int closedByServer;
    /** The first port this client binds (the first ephemeral port, where it can be read), and how far it moved past ports in use. */
    private final int firstPort = firstEphemeralPort();
    private int skew;

    Connections() throws IOException {
        selector = Selector.open();
    }

    /** Connections a source address carries: 70% of the ephemeral ports, at most {@link #MAX_PER_SOURCE}, at least 1000. */
    static int perSource(int ephemeralPorts) {
        return Math.max(1000, Math.min(MAX_PER_SOURCE, ephemeralPorts * 7 / 10));
    }

    /** The ephemeral ports of this machine (Linux: net.ipv4.ip_local_port_range), or Linux's default where it cannot be read. */
    static int ephemeralPorts() {
        try {
            String[] range = Files.readString(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).trim().split("\\s+");
            return Integer.parseInt(range[1]) - Integer.parseInt(range[0]) + 1;
        } catch (IOException | RuntimeException e) {
            return DEFAULT_EPHEMERAL_PORTS;
        }
    }

    /** The first ephemeral port (Linux: net.ipv4.ip_local_port_range), or Linux's default, 32768. */
    static int firstEphemeralPort() {
        try {
            return Integer.parseInt(Files.readString(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).trim().split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return 32768;
        }
    }

    /** How many source addresses {@code connections} take, {@code perSource} each. */
    static int sources(int connections, int perSource) {
        return connections <= 0 ? 0 : (connections + perSource - 1) / perSource;
    }

    /** The source address of connection {@code i} (from 0): 127.0.0.2 for the first {@code perSource}, then 127.0.0.3, and so on. */
    static InetAddress source(int i, int perSource) {
        int k = 2 + i / perSource;
        if (k > 0xfffffe) throw new IllegalArgumentException("too many source addresses: " + k);
        try {
            return InetAddress.getByAddress(new byte[] {127, (byte) (k >> 16), (byte) (k >> 8), (byte) k});
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Opens {@code asked} connections to host:port from this host's own address, the kernel
     * choosing each port, as {@link #open(String, int, int, int, long, long, int, int)} does
     * otherwise: for counts one address pair's ports hold (the idle workload's 10,000), and where
     * 127.0.0.2 is no address of this host (macOS, until aliased).
     */
    Opened open(String host, int port, int asked, int window, long answerMillis, long stallMillis) throws IOException {
        return open(host, port, asked, window, answerMillis, stallMillis, 0, Integer.MAX_VALUE);
    }

    /**
     * Opens {@code asked} connections to host:port, at most {@code window} in flight, each from
     * its source address ({@link #source}; with {@code perSource} 0, from this host's own, on a
     * port the kernel picks); one unanswered within {@code answerMillis} is closed
     * and counted unanswered. It stops opening more when this process can open no more sockets,
     * when nothing at all was answered for {@code stallMillis}, or when the last
     * {@code turnedAwayInARow} were refused or turned away.
     */
    Opened open(String host, int port, int asked, int window, long answerMillis, long stallMillis, int perSource, int turnedAwayInARow)
            throws IOException {
        byte[] request = ("GET / HTTP/1.1\r\nHost: " + host + ":" + port + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        InetSocketAddress address = new InetSocketAddress(host, port);
        boolean spread = perSource > 0 && address.getAddress() != null && address.getAddress().isLoopbackAddress();
        long start = System.nanoTime(), lastProgress = start, lastSweep = start;
        int attempted = 0, refused = 0, turnedAway = 0, unanswered = 0, pending = 0, inARow = 0, heldBefore = held, closedBefore = closedByServer;
        String stopped = null;
        boolean clientLimit = false;
        while (true) {
            long now = System.nanoTime();
            if (stopped == null && pending > 0 && now - lastProgress > stallMillis * 1_000_000) {
                stopped = String.format(Locale.ROOT, "the server answered nothing for %.0f s", stallMillis / 1000.0);
            }
            if (stopped == null && inARow >= turnedAwayInARow) {
                stopped = "the server refused or turned away the last " + inARow + " connections in a row";
            }
            while (stopped == null && attempted < asked && pending < window) {
                SocketChannel ch;
                try {
                    ch = SocketChannel.open();
                } catch (IOException e) {
                    stopped = "this process (the load generator) cannot open more sockets: " + e.getMessage();
                    clientLimit = true;
                    break;
                }
                try {
                    ch.configureBlocking(false);
                    if (spread) bindSource(ch, attempted, perSource);
                } catch (IOException e) {
                    closeNow(ch);
                    stopped = "cannot bind the source address " + source(attempted, perSource).getHostAddress() + ": " + e.getMessage()
                            + (e.getMessage() != null && e.getMessage().contains("assign")
                            ? " (on macOS, add it first: sudo ifconfig lo0 alias " + source(attempted, perSource).getHostAddress() + " up)" : "");
                    clientLimit = true;
                    break;
                }
                attempted++;
                pending++;
                Pending c = new Pending(ch, now + answerMillis * 1_000_000);
                try {
                    ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                    if (ch.connect(address)) {
                        c.out = ByteBuffer.wrap(request);
                        ch.register(selector, SelectionKey.OP_WRITE, c);
                    } else {
                        ch.register(selector, SelectionKey.OP_CONNECT, c);
                    }
                } catch (IOException e) {
                    refused++;
                    inARow++;
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
                if (!(key.attachment() instanceof Pending c)) {
                    idleReadable(key);
                    continue;
                }
                int verdict; // 0 still going, 1 held, -1 turned away, -2 refused
                try {
                    verdict = step(key, c, request);
                } catch (ConnectException e) {
                    verdict = -2;
                } catch (IOException e) {
                    verdict = -1;
                }
                if (verdict == 0) continue;
                pending--;
                lastProgress = System.nanoTime();
                if (verdict > 0) {
                    held++;
                    inARow = 0;
                    key.attach(null); // idle: no buffer kept
                    key.interestOps(SelectionKey.OP_READ); // only the server closing it wakes it
                } else {
                    if (verdict == -2) refused++;
                    else turnedAway++;
                    inARow++;
                    key.cancel();
                    closeNow(c.channel);
                }
            }
            now = System.nanoTime();
            if (now - lastSweep < 100_000_000) continue;
            lastSweep = now;
            for (SelectionKey key : selector.keys()) {
                if (key.isValid() && key.attachment() instanceof Pending c && now > c.deadline) {
                    key.cancel();
                    closeNow(c.channel);
                    pending--;
                    unanswered++;
                }
            }
        }
        selector.selectNow(); // flush the cancelled keys
        if (stopped == null && attempted < asked) stopped = "stopped early";
        int closed = closedByServer - closedBefore;
        return new Opened(asked, held - heldBefore, closed, refused, turnedAway, unanswered, asked - attempted,
                spread ? sources(attempted, perSource) : Math.min(1, attempted),
                (System.nanoTime() - start) / 1e9, stopped, clientLimit);
    }

    /**
     * Binds connection {@code i} to its source address and a port of its own, chosen here: port 0
     * would have the kernel search its table for a free port at every bind, slower and slower as
     * the ports of that address fill. A port some other socket holds is skipped.
     */
    private void bindSource(SocketChannel ch, int i, int perSource) throws IOException {
        InetAddress address = source(i, perSource);
        for (int tries = 0; ; tries++) {
            int port = Math.floorMod(firstPort + i % perSource + skew, 65536 - firstPort) + firstPort;
            try {
                ch.bind(new InetSocketAddress(address, port));
                return;
            } catch (java.net.BindException e) {
                skew++;
                if (tries == 1000) throw e;
            }
        }
    }

    /** Advances one connection being opened: connect, send GET /, read the answer. 1 held (2xx, kept open), -1 turned away, 0 not yet. */
    private static int step(SelectionKey key, Pending c, byte[] request) throws IOException {
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

    /** An idle connection woke: the server closed it (or sent what nobody asked for, which closes it here too). */
    private void idleReadable(SelectionKey key) {
        SocketChannel ch = (SocketChannel) key.channel();
        int n;
        try {
            scratch.clear();
            n = ch.read(scratch);
        } catch (IOException e) {
            n = -1;
        }
        if (n == 0) return;
        key.cancel();
        closeNow(ch);
        held--;
        closedByServer++;
    }

    /** Connections held open now. */
    int held() {
        return held;
    }

    /** Held connections the server has closed so far. */
    int closedByServer() {
        return closedByServer;
    }

    /** How many of {@code held} connections are active at {@code percent}%: at least one while any is held. */
    static int activeCount(int held, double percent) {
        if (held <= 0 || percent <= 0) return 0;
        return (int) Math.min(held, Math.max(1, Math.round(held * percent / 100)));
    }

    /**
     * While every connection stays open, {@code percent}% of them each ask GET {@code path} once
     * every second, their requests spread evenly over the second, for {@code seconds}; then
     * answers still out get {@code graceMillis}. Latency is from when a request was due.
     */
    Active talk(String host, int port, String path, double percent, int seconds, long graceMillis) throws IOException {
        byte[] request = ("GET " + path + " HTTP/1.1\r\nHost: " + host + ":" + port + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        int closedBefore = closedByServer;
        int n = activeCount(held, percent);
        List<Talker> talkers = new ArrayList<>(n);
        for (SelectionKey key : selector.keys()) {
            if (talkers.size() == n) break;
            if (key.isValid() && key.attachment() == null) {
                Talker t = new Talker(key);
                key.attach(t);
                talkers.add(t);
            }
        }
        n = talkers.size();
        long period = 1_000_000_000L;
        long start = System.nanoTime() + 10_000_000, end = start + seconds * period, last = end + graceMillis * 1_000_000;
        long[] due = new long[n];
        for (int j = 0; j < n; j++) due[j] = start + j * period / Math.max(1, n); // spread over the second, in turn ever after
        int next = 0;
        long asked = 0, answered = 0, failed = 0, late = 0, inFlight = 0;
        List<Double> latencies = new ArrayList<>();
        while (true) {
            long now = System.nanoTime();
            // Send every request that has come due, in turn (each connection's due time moves on by the period, so the order stays).
            while (n > 0 && due[next] <= now && due[next] < end) {
                Talker t = talkers.get(next);
                asked++;
                if (t.gone) {
                    failed++;
                } else if (t.sentDue != 0) {
                    late++;
                } else {
                    try {
                        t.out = ByteBuffer.wrap(request);
                        ((SocketChannel) t.key.channel()).write(t.out);
                        t.sentDue = due[next];
                        inFlight++;
                        t.key.interestOps(t.out.hasRemaining() ? SelectionKey.OP_READ | SelectionKey.OP_WRITE : SelectionKey.OP_READ);
                    } catch (IOException | java.nio.channels.CancelledKeyException e) {
                        failed++;
                        drop(t);
                    }
                }
                due[next] += period;
                next = (next + 1) % n;
            }
            if (now >= last || (now >= end && inFlight == 0)) break;
            long wait = n == 0 ? (now >= end ? last - now : end - now) : (due[next] < end ? due[next] - now : last - now);
            selector.select(Math.max(1, Math.min(100, wait / 1_000_000)));
            Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
            while (keys.hasNext()) {
                SelectionKey key = keys.next();
                keys.remove();
                if (!(key.attachment() instanceof Talker t)) {
                    idleReadable(key);
                    continue;
                }
                SocketChannel ch = (SocketChannel) key.channel();
                try {
                    if (key.isWritable()) {
                        ch.write(t.out);
                        if (!t.out.hasRemaining()) key.interestOps(SelectionKey.OP_READ);
                    }
                    if (key.isValid() && key.isReadable()) {
                        if (ch.read(t.in) < 0) throw new IOException("closed by the server");
                        int verdict = answered(t.in);
                        if (verdict != 0 && t.sentDue != 0) {
                            inFlight--;
                            if (verdict > 0) {
                                answered++;
                                latencies.add((System.nanoTime() - t.sentDue) / 1e6);
                            } else {
                                failed++;
                            }
                            t.sentDue = 0;
                            t.in.clear();
                            if (verdict < 0) drop(t);
                        }
                    }
                } catch (IOException | java.nio.channels.CancelledKeyException e) {
                    if (t.sentDue != 0) {
                        inFlight--;
                        failed++;
                        t.sentDue = 0;
                    }
                    drop(t);
                }
            }
        }
        long unanswered = 0;
        for (Talker t : talkers) {
            if (t.sentDue != 0) unanswered++;
            t.sentDue = 0;
            t.in.clear();
            if (!t.gone && t.key.isValid()) {
                t.key.attach(null); // idle again
                t.key.interestOps(SelectionKey.OP_READ);
            }
        }
        return new Active(n, asked, answered, failed, late, unanswered, Stats.percentile(latencies, 50), Stats.percentile(latencies, 99),
                Stats.percentile(latencies, 100), closedByServer - closedBefore);
    }

    /** An active connection that failed: closed here, and no longer held. */
    private void drop(Talker t) {
        if (t.gone) return;
        t.gone = true;
        t.key.cancel();
        closeNow((SocketChannel) t.key.channel());
        held--;
    }

    /** Closes every connection at once, with a reset so no TIME_WAIT is left behind, and the selector. */
    @Override
    public void close() {
        for (SelectionKey key : selector.keys()) closeNow((SocketChannel) key.channel());
        held = 0;
        try {
            selector.close();
        } catch (IOException e) {
            // closing anyway
        }
    }

    static void closeNow(SocketChannel ch) {
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
