package bench;

import contract.Stats;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.util.ArrayList;
import java.util.List;

/**
 * The active share of one {@link Connections#talk} while it runs: its connections
 * ({@link Talker}), whose turn it is to ask and when, and what became of the requests.
 * Connections' talking loop keeps one: it sends each request as its turn comes due here, counts
 * each answer into it, and asks it how long to wait and when the window is over.
 */
final class ActiveShare {
    /** One connection of the active share: its key, and its request in flight. */
    static final class Talker {
        final SelectionKey key;
        final ByteBuffer in = ByteBuffer.allocate(4096);
        ByteBuffer out;
        long sentDue; // when the request in flight was due; 0 when none is
        boolean gone;

        Talker(SelectionKey key) {
            this.key = key;
        }
    }

    /** Each connection asks once a period. */
    private static final long PERIOD = 1_000_000_000L;

    private final List<Talker> talkers;
    /** When each connection asks next: they take turns in this order, each a period after its last, so the order stays. */
    private final long[] due;
    private int next;
    /** When the window ends (no request is due from then on), and when the answers still out stop being waited for. */
    private final long end, last;
    private long asked, answered, failed, late, inFlight;
    private final List<Double> latencies = new ArrayList<>();

    /** The share of {@code talkers}, asking for {@code seconds} from 10 ms from now, their answers waited for {@code graceMillis} more. */
    ActiveShare(List<Talker> talkers, int seconds, long graceMillis) {
        this.talkers = talkers;
        int n = talkers.size();
        long start = System.nanoTime() + 10_000_000;
        end = start + seconds * PERIOD;
        last = end + graceMillis * 1_000_000;
        due = new long[n];
        for (int j = 0; j < n; j++) due[j] = start + j * PERIOD / Math.max(1, n); // spread over the second, in turn ever after
    }

    /** Whether the next request in turn has come due by {@code now}, inside the window. */
    boolean dueBy(long now) {
        return !talkers.isEmpty() && due[next] <= now && due[next] < end;
    }

    /** The connection whose turn it is. */
    Talker turn() {
        return talkers.get(next);
    }

    /** Ends this turn, its request counted asked: its connection asks again a period later, and the next one's turn comes. */
    void nextTurn() {
        asked++;
        due[next] += PERIOD;
        next = (next + 1) % talkers.size();
    }

    /** This turn's connection sent its request: in flight, its latency counted from when it was due. */
    void sent(Talker t) {
        t.sentDue = due[next];
        inFlight++;
    }

    /** This turn's request failed: its connection was gone, or sending failed. */
    void failedOne() {
        failed++;
    }

    /** This turn's request is late: not sent, as HTTP/1.1 answers in order and the connection's last is still unanswered. */
    void lateOne() {
        late++;
    }

    /** An answer to {@code t}'s request in flight: answered when held ({@link ConnectionOutcome#HELD}), failed otherwise. */
    void answered(Talker t, ConnectionOutcome outcome) {
        inFlight--;
        if (outcome == ConnectionOutcome.HELD) {
            answered++;
            latencies.add((System.nanoTime() - t.sentDue) / 1e6);
        } else {
            failed++;
        }
        t.sentDue = 0;
        t.in.clear();
    }

    /** {@code t} failed: its request in flight, if any, failed with it. */
    void lost(Talker t) {
        if (t.sentDue == 0) return;
        inFlight--;
        failed++;
        t.sentDue = 0;
    }

    /** Whether the window is over: the grace period ended, or the window ended and no answer is still out. */
    boolean over(long now) {
        return now >= last || (now >= end && inFlight == 0);
    }

    /** How long the selector may wait: until the next request is due (or the window or the grace period ends), 1 to 100 ms. */
    long waitMillis(long now) {
        long wait = talkers.isEmpty() ? (now >= end ? last - now : end - now) : (due[next] < end ? due[next] - now : last - now);
        return Math.max(1, Math.min(100, wait / 1_000_000));
    }

    /**
     * Ends the window: a request still in flight counts unanswered, and every connection still
     * open is idle again (no buffer attached; only the server closing it wakes it).
     */
    Connections.Active standDown(int closedByServer) {
        long unanswered = 0;
        for (Talker t : talkers) {
            if (t.sentDue != 0) unanswered++;
            t.sentDue = 0;
            t.in.clear();
            if (!t.gone && t.key.isValid()) {
                t.key.attach(null);
                t.key.interestOps(SelectionKey.OP_READ);
            }
        }
        return new Connections.Active(talkers.size(), asked, answered, failed, late, unanswered, Stats.percentile(latencies, 50),
                Stats.percentile(latencies, 99), Stats.percentile(latencies, 100), closedByServer);
    }
}
