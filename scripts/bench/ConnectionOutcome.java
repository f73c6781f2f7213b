package bench;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Where one connection of the connections phase stands ({@link Connections}): still on its way,
 * held, turned away or refused. Connections' opening loop settles each connection it opens by it
 * ({@link Opening#settled}), and its talking loop reads each answer with {@link #ofAnswer}: there,
 * held means answered 2xx and still open, and turned away means the connection is lost.
 */
public enum ConnectionOutcome {
    /** Not settled yet: connecting, sending, or its answer not all read. */
    STILL_GOING,
    /** Answered 2xx and kept alive: it stays open. */
    HELD,
    /** Answered with an error or with "Connection: close", closed before answering, or failed otherwise. */
    TURNED_AWAY,
    /** The connect itself failed: nothing listening, or its backlog full. */
    REFUSED;

    /**
     * What the bytes read so far say: {@link #HELD} for a whole 2xx response that keeps the
     * connection, {@link #TURNED_AWAY} for any other whole response (or a full buffer, which no
     * answer to GET fills), {@link #STILL_GOING} while it is incomplete.
     */
    public static ConnectionOutcome ofAnswer(ByteBuffer in) {
        String text = new String(in.array(), 0, in.position(), StandardCharsets.ISO_8859_1);
        int end = text.indexOf("\r\n\r\n");
        if (end < 0) return in.hasRemaining() ? STILL_GOING : TURNED_AWAY;
        long length = 0;
        for (String line : text.substring(0, end).split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase("content-length")) {
                try {
                    length = Long.parseLong(line.substring(colon + 1).trim());
                } catch (NumberFormatException e) {
                    return TURNED_AWAY;
                }
            }
        }
        if (text.length() - end - 4 < length) return in.hasRemaining() ? STILL_GOING : TURNED_AWAY;
        boolean ok = text.startsWith("HTTP/1.1 2") || text.startsWith("HTTP/1.0 2");
        boolean closes = text.substring(0, end).toLowerCase(Locale.ROOT).contains("connection: close");
        return ok && !closes ? HELD : TURNED_AWAY;
    }
}
