//SOURCES ../../../exercises/kit/Kit.java

import java.nio.ByteBuffer;
import java.util.Map;

/**
 * What the framework servers in this folder share, so each file shows only its framework: the
 * workshop's options and ready line (the kit's {@link Options}), the rule for N in a query, the
 * {@code /db} pool and {@code /stats} (the kit's {@link Database}), the calibrated {@code /cpu}
 * work, and the kit's answers in a form a framework writes (status, type, body, one header).
 * Each framework parses HTTP, routes and writes with its own API.
 */
final class Workshop {
    /** Limits of the protocol page: a body of at most 1 MiB, a head of at most 8 KiB. */
    static final int MAX_BODY = 1 << 20;
    static final int MAX_HEAD = 8192;

    private Workshop() {}

    /** An answer as a framework writes it: a status, a Content-Type, a body, at most one more header, and whether to close after it. */
    record Answer(int status, String contentType, byte[] body, Map<String, String> headers, boolean close) {
        static Answer text(int status, String text) {
            return of(Response.text(status, text));
        }

        /** The kit's response (not a generated /bytes body). */
        static Answer of(Response r) {
            String extra = r.extraHeader();
            Map<String, String> headers = extra == null ? Map.of()
                    : Map.of(extra.substring(0, extra.indexOf(':')), extra.substring(extra.indexOf(':') + 1).strip());
            return new Answer(r.status, r.contentType(), r.body(), headers, r.closes());
        }

        Answer closing() {
            return new Answer(status, contentType, body, headers, true);
        }
    }

    /** N of a query parameter: decimal digits only, from 0 to max; -1 when missing, out of bounds or not a number (then 400). */
    static long number(String value, long max) {
        Long n = Endpoints.number(value, max);
        return n == null ? -1 : n;
    }

    /** 400 for a bad N; the connection stays open. */
    static Answer badNumber(String name, long max) {
        return Answer.of(Endpoints.badNumber(name, max).response());
    }

    static Answer hello() {
        return Answer.text(200, "Hello, World!");
    }

    static Answer waited(long ms) {
        return Answer.text(200, "waited " + ms + " ms\n");
    }

    /** Burns ms of CPU on this thread (the kit's calibrated work), and says so. */
    static Answer burn(long ms) {
        Endpoints.burnCpu(ms);
        return Answer.text(200, "burned " + ms + " ms of CPU\n");
    }

    static Answer notFound(String path) {
        return Answer.text(404, "no endpoint at " + path + "\n");
    }

    /** 405, with the one method the path accepts in Allow. */
    static Answer wrongMethod(String path, String allowed) {
        Answer a = Answer.text(405, path + " accepts " + allowed + " only\n");
        return new Answer(405, a.contentType(), a.body(), Map.of("Allow", allowed), false);
    }

    /** A handler threw: 500, then close. */
    static Answer failed(Throwable e) {
        return Answer.of(Response.serverError(e));
    }

    /** 413 for a body over 1 MiB, answered without reading it; then close. */
    static Answer bodyTooLarge() {
        return Answer.text(413, "a body is at most " + MAX_BODY + " bytes\n").closing();
    }

    /** 431 for a head over 8 KiB; then close. */
    static Answer headTooLarge() {
        return Answer.text(431, "the request line and headers are at most " + MAX_HEAD + " bytes\n").closing();
    }

    /**
     * {@code GET /db?ms=N[&fail=1]} on the kit's pool, which books the connection that frees first
     * and says when the answer is due: 200, 500 (then close) or, with no connection within
     * {@code --db-wait}, 503 with Retry-After. A thread that may wait sleeps until then; an
     * event loop sets a timer for {@link Endpoints.Wait#millis()} and answers {@link #answer}.
     */
    static Endpoints.Wait book(long ms, String fail) {
        return Database.book(new Database.Query(ms, "1".equals(fail)));
    }

    /** The same query on a thread that may block: waits until the answer is due, and returns it. */
    static Answer query(long ms, String fail) throws InterruptedException {
        Endpoints.Wait due = book(ms, fail);
        Thread.sleep(due.millis());
        return answer(due);
    }

    static Answer answer(Endpoints.Wait due) {
        return Answer.of(due.response());
    }

    /** {@code GET /stats}: the pool's size, the connections in use, the most at once. */
    static Answer stats() {
        return Answer.of(Database.stats());
    }

    /** The n bytes of {@code /bytes?n=N}, from {@code offset}, into {@code dst} (byte i is 'A' + i % 61); returns how many. */
    static int pattern(long n, long offset, byte[] dst) {
        return Response.pattern(n).fillBody(offset, ByteBuffer.wrap(dst));
    }
}
