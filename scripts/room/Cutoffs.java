package room;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Says when the JDK's server cuts a request off for the room: a head over
 * {@link RoomServer#HEAD_BYTES}, or a request not sent in full within
 * {@link RoomServer#REQUEST_SECONDS}. The server does it without a word of its own but a line
 * in its debug log ({@code com.sun.net.httpserver}), which this reads: the first cut-off is
 * said at once, and the rest counted and said at most once a minute.
 */
public final class Cutoffs extends Handler {
    static final Duration EVERY = Duration.ofMinutes(1);
    /** The JDK's logger, held here: a logger no one holds may be collected, and its level with it. */
    private static final Logger JDK = Logger.getLogger("com.sun.net.httpserver");
    private static Cutoffs installed;

    private final Consumer<String> say;
    private final AtomicInteger heads = new AtomicInteger();
    private final AtomicInteger slow = new AtomicInteger();
    private Instant last = Instant.EPOCH;

    private Cutoffs(Consumer<String> say) {
        this.say = say;
    }

    /** Listens from now on, telling {@code say}; once a process (a second call changes whom it tells). */
    public static synchronized void install(Consumer<String> say) {
        if (installed != null) JDK.removeHandler(installed);
        installed = new Cutoffs(say);
        installed.setLevel(Level.ALL);
        JDK.setLevel(Level.FINER); // the server's debug (FINE) and trace (FINER) lines: the cut-offs are there
        JDK.addHandler(installed);
    }

    @Override
    public void publish(LogRecord record) {
        String message = record.getMessage() == null ? "" : record.getMessage();
        Throwable thrown = record.getThrown();
        if (thrown != null && String.valueOf(thrown.getMessage()).contains("maxReqHeaderSize")) heads.incrementAndGet();
        else if (message.startsWith("closing: no request")) slow.incrementAndGet();
        else return;
        Instant now = Instant.now();
        synchronized (this) {
            if (now.isBefore(last.plus(EVERY))) return;
            last = now;
        }
        int h = heads.getAndSet(0), s = slow.getAndSet(0);
        StringBuilder line = new StringBuilder("cut off ");
        if (h > 0) line.append(h).append(" request(s) whose head passed ").append(RoomServer.HEAD_BYTES / 1024).append(" KiB");
        if (h > 0 && s > 0) line.append(" and ");
        if (s > 0) line.append(s).append(" not sent in full within ").append(Long.getLong(RoomServer.REQUEST_TIME_PROPERTY, RoomServer.REQUEST_SECONDS)).append(" s");
        say.accept(line.append(" (said at most once a minute)").toString());
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
}
