import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code GET /db}: a query on a simulated database that the server reaches through a pool of
 * {@code --db-pool} connections, waiting at most {@code --db-wait} ms for one. The database
 * itself answers any number of queries at once; the pool is what limits them.
 *
 * <p>Unless a server brings its own pool ({@link #ownPool}, chapter 05), the kit keeps it: each
 * query is booked on the connection that frees first, in the order queries arrive. As a query
 * holds its connection for a time known in advance, the booking says at once when the answer is
 * due (or that the wait would be too long), and the server just waits that long, by a timer or a
 * sleep: a non-blocking server holds no thread meanwhile. {@code GET /stats} shows the pool.
 */
final class Database {
    /** A {@code /db} request: hold a connection {@code millis} ms; {@code fails}: the query fails then. */
    record Query(long millis, boolean fails) {}

    /** A server's own pool: runs a query through it, with {@link #run}, or answers {@link #noConnection}. */
    interface Pool {
        Response query(Query query) throws InterruptedException;
    }

    private static int size = 10;
    private static long waitMillis = 1000;
    private static long[] freeAt = new long[size];      // per connection: System.nanoTime() when it is free
    private static Pool own;                            // a server's own pool, or null: the kit books
    private static final AtomicInteger running = new AtomicInteger();   // queries in run(), now
    private static final AtomicInteger peak = new AtomicInteger();

    private Database() {}

    /** Sets the pool's size and longest wait (Options does, from --db-pool and --db-wait). */
    static synchronized void configure(int poolSize, long waitMs) {
        size = poolSize;
        waitMillis = waitMs;
        freeAt = new long[poolSize];
        java.util.Arrays.fill(freeAt, System.nanoTime());
    }

    /** The longest wait for a connection, in ms ({@code --db-wait}). */
    static long waitMillis() {
        return waitMillis;
    }

    /** The pool's size ({@code --db-pool}). */
    static int poolSize() {
        return size;
    }

    /** From now on, blocking servers run {@code /db} through {@code pool}, and the kit books nothing. */
    static void ownPool(Pool pool) {
        own = pool;
    }

    static Pool ownPool() {
        return own;
    }

    // tag::run[]
    /**
     * The query itself, on the calling thread: holds a connection {@code millis} ms, then returns
     * the answer, or throws if the query fails. Counts the connections in use (see {@code /stats}).
     */
    static Response run(Query query) throws InterruptedException {
        peak.accumulateAndGet(running.incrementAndGet(), Math::max);
        try {
            Thread.sleep(query.millis());
        } finally {
            running.decrementAndGet();
        }
        if (query.fails()) throw new IllegalStateException("GET /db?fail=1: the query failed");
        return answer(query);
    }
    // end::run[]

    /** 503: no connection came free within {@code --db-wait}. */
    static Response noConnection() {
        return Response.text(503, "no database connection within " + waitMillis + " ms; try again\n").withHeader("Retry-After: 1");
    }

    private static Response answer(Query query) {
        return Response.text(200, "queried " + query.millis() + " ms\n");
    }

    /**
     * The kit's pool: books the query on the connection that frees first, and says what to
     * answer when. No connection within {@code --db-wait}: 503 when the wait is over.
     */
    static Endpoints.Wait book(Query query) {
        long now = System.nanoTime();
        synchronized (Database.class) {
            int first = 0;
            for (int i = 1; i < size; i++) if (freeAt[i] < freeAt[first]) first = i;
            long start = Math.max(now, size == 0 ? Long.MAX_VALUE : freeAt[first]);
            if (size == 0 || start - now > TimeUnit.MILLISECONDS.toNanos(waitMillis)) {
                return new Endpoints.Wait(waitMillis, noConnection());
            }
            freeAt[first] = start + TimeUnit.MILLISECONDS.toNanos(query.millis());
            peak.accumulateAndGet(busyAt(start), Math::max);
            long due = (freeAt[first] - now + 999_999) / 1_000_000;
            Response answer = query.fails() ? Response.text(500, "the query failed\n").closing() : answer(query);
            return new Endpoints.Wait(due, answer);
        }
    }

    /** Connections booked at {@code time} (a booking starts when the one before it ends, or now). */
    private static int busyAt(long time) {
        int busy = 0;
        for (int i = 0; i < size; i++) if (freeAt[i] > time) busy++;
        return busy;
    }

    /** {@code GET /stats}: the pool's size, the connections in use now, the most in use at once so far. */
    static Response stats() {
        int inUse;
        synchronized (Database.class) {
            inUse = busyAt(System.nanoTime()) + running.get();
        }
        return Response.bytes("application/json",
                ("{\"dbPool\":" + size + ",\"dbInUse\":" + inUse + ",\"dbPeak\":" + peak.get() + "}\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
}
