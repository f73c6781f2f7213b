package bench;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.Locale;

/**
 * One call of {@link Connections#open} while it runs: what it was asked, how many connections it
 * has started and has in flight, how each that settled ended ({@link ConnectionOutcome}), and
 * whether and why it stopped opening more. Connections' opening loop keeps one, counts into it,
 * and asks it when to stop, so the stop rules read apart from the selector's mechanics.
 */
public final class Opening {
    /** A connection on its way to being held: its channel, its deadline, and its request and answer so far. */
    static final class Pending {
        final SocketChannel channel;
        final long deadline;
        final ByteBuffer in = ByteBuffer.allocate(2048);
        ByteBuffer out;

        Pending(SocketChannel channel, long deadline) {
            this.channel = channel;
            this.deadline = deadline;
        }
    }

    final InetSocketAddress address;
    /** GET / with its Host, the request every connection sends once. */
    final byte[] request;
    final int asked, window, perSource;
    /** Whether each connection leaves from its own source address ({@link Connections#source}), not the kernel's choice. */
    final boolean spread;
    /** How long a connection may take to be answered, in ns. */
    final long answerNanos;
    private final long stallMillis;
    private final int turnedAwayInARow;
    /** The connections' held and closed counts when it began: this call's own are the difference. */
    private final int heldBefore, closedBefore;
    private final long start = System.nanoTime();
    private long lastProgress = start, lastSweep = start;
    int attempted;
    private int pending, refused, turnedAway, unanswered, inARow;
    private String stopped;
    private boolean clientLimit;

    public Opening(String host, int port, int asked, int window, long answerMillis, long stallMillis, int perSource, int turnedAwayInARow,
            int heldBefore, int closedBefore) {
        this.request = Connections.get("/", host, port);
        this.address = new InetSocketAddress(host, port);
        this.spread = perSource > 0 && address.getAddress() != null && address.getAddress().isLoopbackAddress();
        this.asked = asked;
        this.window = window;
        this.answerNanos = answerMillis * 1_000_000;
        this.stallMillis = stallMillis;
        this.perSource = perSource;
        this.turnedAwayInARow = turnedAwayInARow;
        this.heldBefore = heldBefore;
        this.closedBefore = closedBefore;
    }

    /** Stops opening when some wait but nothing was answered for the stall time, or the last so many in a row were refused or turned away. */
    public void stopIfStuck(long now) {
        if (stopped == null && pending > 0 && now - lastProgress > stallMillis * 1_000_000) {
            stopped = String.format(Locale.ROOT, "the server answered nothing for %.0f s", stallMillis / 1000.0);
        }
        if (stopped == null && inARow >= turnedAwayInARow) {
            stopped = "the server refused or turned away the last " + inARow + " connections in a row";
        }
    }

    /** Whether another connection may start: opening has not stopped, some are still to try, and the window has room. */
    public boolean mayStartAnother() {
        return stopped == null && attempted < asked && pending < window;
    }

    /** This process can open no more sockets: opening stops, and the limit is its own, not the server's. */
    void cannotOpen(String why) {
        stopped = why;
        clientLimit = true;
    }

    public void started() {
        attempted++;
        pending++;
    }

    /** A connect that failed as it began: refused, but no progress, as nothing was answered. */
    void refusedAtOnce() {
        refused++;
        inARow++;
        pending--;
    }

    /** A connection that settled: progress; one held ends the run of refusals, any other lengthens it. */
    public void settled(ConnectionOutcome outcome) {
        pending--;
        lastProgress = System.nanoTime();
        switch (outcome) {
            case HELD -> inARow = 0;
            case REFUSED -> {
                refused++;
                inARow++;
            }
            case TURNED_AWAY -> {
                turnedAway++;
                inARow++;
            }
            case STILL_GOING -> throw new IllegalArgumentException("a connection still going has not settled");
        }
    }

    /** A connection past its deadline, closed unanswered. */
    void unanswered() {
        pending--;
        unanswered++;
    }

    /** Whether the deadlines are due a look (every 100 ms: a sweep walks every key, held ones too); if so, the look starts now. */
    boolean sweepDue(long now) {
        if (now - lastSweep < 100_000_000) return false;
        lastSweep = now;
        return true;
    }

    /** Whether opening is over: none in flight, and every connection tried or opening stopped. */
    public boolean finished() {
        return pending == 0 && (attempted >= asked || stopped != null);
    }

    /** How it went, from the connections' held and closed counts now. */
    public Connections.Opened opened(int heldNow, int closedNow) {
        if (stopped == null && attempted < asked) stopped = "stopped early";
        return new Connections.Opened(asked, heldNow - heldBefore, closedNow - closedBefore, refused, turnedAway, unanswered, asked - attempted,
                spread ? Connections.sources(attempted, perSource) : Math.min(1, attempted),
                (System.nanoTime() - start) / 1e9, stopped, clientLimit);
    }
}
