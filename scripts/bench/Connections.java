package bench;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

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
 * each request was due. Never hangs: every wait has a deadline. {@link IdleRace} and
 * {@link ConnectionsRace} call it; one {@link Opening} counts each call of {@link #open} and one
 * {@link ActiveShare} each of {@link #talk}, while this class does the sockets' work.
 */
public final class Connections implements AutoCloseable {
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
    public record Opened(int asked, int held, int closed, int refused, int turnedAway, int unanswered, int notAttempted, int sources, double seconds,
                  String stopped, boolean clientLimit) {}

    /**
     * The active share's window: {@code connections} each asked once a second; {@code asked}, the
     * requests that came due; {@code answered} 2xx; {@code failed}, answered otherwise or closed;
     * {@code late}, due while that connection's last request was still unanswered (not sent:
     * HTTP/1.1 answers in order, and counted as not answered); {@code unanswered}, sent but no
     * answer by the end of the grace period; latencies of the answered ones, from when each was due,
     * in ms; {@code closedByServer}, idle connections the server closed meanwhile.
     */
    public record Active(int connections, long asked, long answered, long failed, long late, long unanswered, double p50Ms, double p99Ms,
                  double maxMs, int closedByServer) {}

    private final Selector selector;
    private final ByteBuffer scratch = ByteBuffer.allocate(4096);
    private int held;
    private int closedByServer;
    /** The first port this client binds (the first ephemeral port, where it can be read), and how far it moved past ports in use. */
    private final int firstPort = firstEphemeralPort();
    private int skew;

    public Connections() throws IOException {
        selector = Selector.open();
    }

    /** Connections a source address carries: 70% of the ephemeral ports, at most {@link #MAX_PER_SOURCE}, at least 1000. */
    public static int perSource(int ephemeralPorts) {
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
    public static int sources(int connections, int perSource) {
        return connections <= 0 ? 0 : (connections + perSource - 1) / perSource;
    }

    /** The source address of connection {@code i} (from 0): 127.0.0.2 for the first {@code perSource}, then 127.0.0.3, and so on. */
    public static InetAddress source(int i, int perSource) {
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
    public Opened open(String host, int port, int asked, int window, long answerMillis, long stallMillis) throws IOException {
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
    public Opened open(String host, int port, int asked, int window, long answerMillis, long stallMillis, int perSource, int turnedAwayInARow)
            throws IOException {
        Opening o = new Opening(host, port, asked, window, answerMillis, stallMillis, perSource, turnedAwayInARow, held, closedByServer);
        while (true) {
            long now = System.nanoTime();
            o.stopIfStuck(now);
            startMore(o, now + o.answerNanos);
            if (o.finished()) break;
            selector.select(100);
            settleSelected(o);
            closeOverdue(o);
        }
        selector.selectNow(); // flush the cancelled keys
        return o.opened(held, closedByServer);
    }

    /** GET {@code path} with its Host header, as this client sends it. */
    static byte[] get(String path, String host, int port) {
        return ("GET " + path + " HTTP/1.1\r\nHost: " + host + ":" + port + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    /** Starts connections while {@code o} lets another start, each due an answer by {@code deadline}. */
    private void startMore(Opening o, long deadline) {
        while (o.mayStartAnother()) {
            SocketChannel ch = newChannel(o);
            if (ch == null) return;
            o.started();
            connect(o, ch, deadline);
        }
    }

    /** A channel for the next connection, bound to its source address where they are spread; null when this process can open no more. */
    private SocketChannel newChannel(Opening o) {
        SocketChannel ch;
        try {
            ch = SocketChannel.open();
        } catch (IOException e) {
            o.cannotOpen("this process (the load generator) cannot open more sockets: " + e.getMessage());
            return null;
        }
        try {
            ch.configureBlocking(false);
            if (o.spread) bindSource(ch, o.attempted, o.perSource);
            return ch;
        } catch (IOException e) {
            closeNow(ch);
            String source = source(o.attempted, o.perSource).getHostAddress();
            o.cannotOpen("cannot bind the source address " + source + ": " + e.getMessage()
                    + (e.getMessage() != null && e.getMessage().contains("assign") ? " (on macOS, add it first: sudo ifconfig lo0 alias " + source + " up)" : ""));
            return null;
        }
    }

    /** Connects {@code ch} and registers it: to send GET / at once if it connected at once, else once it connects; a connect that fails at once is refused. */
    private void connect(Opening o, SocketChannel ch, long deadline) {
        Opening.Pending c = new Opening.Pending(ch, deadline);
        try {
            ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
            if (ch.connect(o.address)) {
                c.out = ByteBuffer.wrap(o.request);
                ch.register(selector, SelectionKey.OP_WRITE, c);
            } else {
                ch.register(selector, SelectionKey.OP_CONNECT, c);
            }
        } catch (IOException e) {
            o.refusedAtOnce();
            closeNow(ch);
        }
    }

    /** Advances every connection the selector woke: one being opened a step further ({@link #step}), an idle one closed by the server. */
    private void settleSelected(Opening o) {
        Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
        while (keys.hasNext()) {
            SelectionKey key = keys.next();
            keys.remove();
            if (key.attachment() instanceof Opening.Pending c) settle(o, key, c, advance(key, c, o.request));
            else idleReadable(key);
        }
    }

    /** Counts a connection that settled: held, it stays idle with no buffer kept; refused or turned away, it closes. */
    private void settle(Opening o, SelectionKey key, Opening.Pending c, ConnectionOutcome outcome) {
        if (outcome == ConnectionOutcome.STILL_GOING) return;
        o.settled(outcome);
        if (outcome == ConnectionOutcome.HELD) {
            held++;
            key.attach(null); // idle: no buffer kept
            key.interestOps(SelectionKey.OP_READ); // only the server closing it wakes it
        } else {
            key.cancel();
            closeNow(c.channel);
        }
    }

    /** Every 100 ms, closes each connection being opened that is past its deadline: unanswered. */
    private void closeOverdue(Opening o) {
        long now = System.nanoTime();
        if (!o.sweepDue(now)) return;
        for (SelectionKey key : selector.keys()) {
            if (key.isValid() && key.attachment() instanceof Opening.Pending c && now > c.deadline) {
                key.cancel();
                closeNow(c.channel);
                o.unanswered();
            }
        }
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

    /** Advances one connection being opened ({@link #step}): a connect that fails is refused, any other failure turns it away. */
    private static ConnectionOutcome advance(SelectionKey key, Opening.Pending c, byte[] request) {
        try {
            return step(key, c, request);
        } catch (ConnectException e) {
            return ConnectionOutcome.REFUSED;
        } catch (IOException e) {
            return ConnectionOutcome.TURNED_AWAY;
        }
    }

    /** One step of a connection being opened: connect, send GET /, read the answer ({@link ConnectionOutcome#ofAnswer}). */
    private static ConnectionOutcome step(SelectionKey key, Opening.Pending c, byte[] request) throws IOException {
        SocketChannel ch = c.channel;
        if (key.isConnectable()) {
            if (!ch.finishConnect()) return ConnectionOutcome.STILL_GOING;
            c.out = ByteBuffer.wrap(request);
            key.interestOps(SelectionKey.OP_WRITE);
        }
        if (key.isValid() && (key.interestOps() & SelectionKey.OP_WRITE) != 0) {
            ch.write(c.out);
            if (!c.out.hasRemaining()) key.interestOps(SelectionKey.OP_READ);
            return ConnectionOutcome.STILL_GOING;
        }
        if (key.isReadable()) {
            if (ch.read(c.in) < 0) return ConnectionOutcome.TURNED_AWAY;
            return ConnectionOutcome.ofAnswer(c.in);
        }
        return ConnectionOutcome.STILL_GOING;
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
    public int held() {
        return held;
    }

    /** Held connections the server has closed so far. */
    public int closedByServer() {
        return closedByServer;
    }

    /** How many of {@code held} connections are active at {@code percent}%: at least one while any is held. */
    public static int activeCount(int held, double percent) {
        if (held <= 0 || percent <= 0) return 0;
        return (int) Math.min(held, Math.max(1, Math.round(held * percent / 100)));
    }

    /**
     * While every connection stays open, {@code percent}% of them each ask GET {@code path} once
     * every second, their requests spread evenly over the second, for {@code seconds}; then
     * answers still out get {@code graceMillis}. Latency is from when a request was due.
     */
    public Active talk(String host, int port, String path, double percent, int seconds, long graceMillis) throws IOException {
        byte[] request = get(path, host, port);
        int closedBefore = closedByServer;
        ActiveShare share = new ActiveShare(enlist(activeCount(held, percent)), seconds, graceMillis);
        while (true) {
            long now = System.nanoTime();
            askDue(share, request, now);
            if (share.over(now)) break;
            selector.select(share.waitMillis(now));
            serveSelected(share);
        }
        return share.standDown(closedByServer - closedBefore);
    }

    /** Up to {@code n} of the idle connections held, each made a talker (its key's attachment). */
    private List<ActiveShare.Talker> enlist(int n) {
        List<ActiveShare.Talker> talkers = new ArrayList<>(n);
        for (SelectionKey key : selector.keys()) {
            if (talkers.size() == n) break;
            if (key.isValid() && key.attachment() == null) {
                ActiveShare.Talker t = new ActiveShare.Talker(key);
                key.attach(t);
                talkers.add(t);
            }
        }
        return talkers;
    }

    /** Every request come due by {@code now}, in turn: failed where its connection is gone, late where it still waits for its last answer, else sent. */
    private void askDue(ActiveShare share, byte[] request, long now) {
        for (; share.dueBy(now); share.nextTurn()) {
            ActiveShare.Talker t = share.turn();
            if (t.gone) share.failedOne();
            else if (t.sentDue != 0) share.lateOne();
            else send(share, t, request);
        }
    }

    /** Sends this turn's request, as much as the socket takes now (the rest once it is writable); a connection that fails is dropped. */
    private void send(ActiveShare share, ActiveShare.Talker t, byte[] request) {
        try {
            t.out = ByteBuffer.wrap(request);
            ((SocketChannel) t.key.channel()).write(t.out);
            share.sent(t);
            t.key.interestOps(t.out.hasRemaining() ? SelectionKey.OP_READ | SelectionKey.OP_WRITE : SelectionKey.OP_READ);
        } catch (IOException | CancelledKeyException e) {
            share.failedOne();
            drop(t);
        }
    }

    /** Serves every connection the selector woke: a talker's rest of its request or its answer, an idle one closed by the server. */
    private void serveSelected(ActiveShare share) {
        Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
        while (keys.hasNext()) {
            SelectionKey key = keys.next();
            keys.remove();
            if (key.attachment() instanceof ActiveShare.Talker t) serve(share, key, t);
            else idleReadable(key);
        }
    }

    /** Writes the rest of a talker's request and reads its answer; an error answer, a close or a failure drops it. */
    private void serve(ActiveShare share, SelectionKey key, ActiveShare.Talker t) {
        SocketChannel ch = (SocketChannel) key.channel();
        try {
            if (key.isWritable()) {
                ch.write(t.out);
                if (!t.out.hasRemaining()) key.interestOps(SelectionKey.OP_READ);
            }
            if (key.isValid() && key.isReadable()) {
                if (ch.read(t.in) < 0) throw new IOException("closed by the server");
                ConnectionOutcome outcome = ConnectionOutcome.ofAnswer(t.in);
                if (outcome != ConnectionOutcome.STILL_GOING && t.sentDue != 0) {
                    share.answered(t, outcome);
                    if (outcome != ConnectionOutcome.HELD) drop(t);
                }
            }
        } catch (IOException | CancelledKeyException e) {
            share.lost(t);
            drop(t);
        }
    }

    /** An active connection that failed: closed here, and no longer held. */
    private void drop(ActiveShare.Talker t) {
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

    /** Closes with a reset (SO_LINGER 0): thousands closing at once would otherwise leave as many ports in TIME_WAIT. */
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
