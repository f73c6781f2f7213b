package room;

import java.net.InetAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Wrong codes (the learners' or the viewer's), by address. An address that gave
 * {@link #PER_MINUTE} wrong codes within a minute is refused every post and page until a
 * minute has passed since the oldest of them, so guessing a code the room made (8 characters
 * of 31: about 40 bits) takes longer than any workshop, even from a hundred addresses at once.
 * Said on the room's terminal: an address's first wrong code of a minute, and each time one is
 * refused; counted for the room's page.
 */
public final class Guesses {
    public static final int PER_MINUTE = 10;
    static final Duration WINDOW = Duration.ofMinutes(1);

    private final Map<InetAddress, Deque<Instant>> wrong = new HashMap<>();
    private final Consumer<String> say;
    private long total;
    private Instant latest;

    public Guesses(Consumer<String> say) {
        this.say = say;
    }

    /** Whether {@code from} gave too many wrong codes in the last minute: refuse it before looking at its code. */
    public synchronized boolean refused(InetAddress from, Instant now) {
        Deque<Instant> times = recent(from, now);
        return times != null && times.size() >= PER_MINUTE;
    }

    /** Counts a wrong code from {@code from}. */
    public synchronized void wrong(InetAddress from, Instant now) {
        Deque<Instant> times = recent(from, now);
        if (times == null) wrong.put(from, times = new ArrayDeque<>());
        times.addLast(now);
        total++;
        latest = now;
        if (times.size() == 1) say.accept("a wrong code from " + from.getHostAddress());
        if (times.size() == PER_MINUTE) say.accept(PER_MINUTE + " wrong codes in a minute from " + from.getHostAddress() + ": refused for a minute");
        if (wrong.size() > 10_000) { // a flood of addresses: only the last minute's are kept
            wrong.values().removeIf(t -> aged(t, now).isEmpty());
        }
    }

    /** For the room's page: how many wrong codes, the latest when, how many addresses are refused now; null when none came. */
    synchronized String summary(Instant now, java.time.format.DateTimeFormatter clock) {
        if (total == 0) return null;
        wrong.values().removeIf(t -> aged(t, now).isEmpty());
        long refusedNow = wrong.values().stream().filter(t -> t.size() >= PER_MINUTE).count();
        return total + " wrong code(s) since the room started, the latest at " + clock.format(latest) + "; "
                + refusedNow + " address(es) refused for now (" + PER_MINUTE + " wrong codes in a minute)";
    }

    /** The wrong codes of {@code from} within the last minute, or null when there are none (and it is forgotten). */
    private Deque<Instant> recent(InetAddress from, Instant now) {
        Deque<Instant> times = wrong.get(from);
        if (times == null) return null;
        if (aged(times, now).isEmpty()) {
            wrong.remove(from);
            return null;
        }
        return times;
    }

    /** {@code times} without those older than a minute before {@code now}. */
    private static Deque<Instant> aged(Deque<Instant> times, Instant now) {
        while (!times.isEmpty() && times.peekFirst().isBefore(now.minus(WINDOW))) times.removeFirst();
        return times;
    }
}
