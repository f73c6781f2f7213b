import io.netty.channel.ChannelHandlerContext;
import java.util.concurrent.TimeUnit;

/**
 * The database pool, non-blocking: a query takes a free connection or waits in line, holding no
 * thread; a connection given back goes to the oldest waiter, on that waiter's own event loop.
 * A waiter not served within waitMillis gets 503 (the caller's refusal).
 */
final class NettyPool {
    static int size = 10;
    static long waitMillis = 1000;
    private static int taken;
    private static final java.util.ArrayDeque<Waiter> waiting = new java.util.ArrayDeque<>();

    /** A query waiting for a connection; settled once, by a grant or by its timeout. */
    private static final class Waiter {
        final java.util.concurrent.atomic.AtomicBoolean settled = new java.util.concurrent.atomic.AtomicBoolean();
        final io.netty.util.concurrent.EventExecutor loop;
        final Runnable hold;
        io.netty.util.concurrent.ScheduledFuture<?> timeout;

        Waiter(io.netty.util.concurrent.EventExecutor loop, Runnable hold) {
            this.loop = loop;
            this.hold = hold;
        }
    }

    private NettyPool() {}

    /** Runs the query on the connection's event loop; {@code answer} once it is done, {@code refuse} if no connection came in time. */
    static void query(ChannelHandlerContext ctx, long ms, Runnable answer, Runnable refuse) {
        Runnable hold = () -> ctx.executor().schedule(() -> {
            giveBack();
            answer.run();
        }, ms, TimeUnit.MILLISECONDS);
        Waiter w = new Waiter(ctx.executor(), hold);
        boolean now;
        synchronized (NettyPool.class) {
            now = taken < size;
            if (now) taken++;
            else waiting.add(w);
        }
        if (now) {
            hold.run();
            return;
        }
        w.timeout = ctx.executor().schedule(() -> {
            if (!w.settled.compareAndSet(false, true)) return;
            synchronized (NettyPool.class) {
                waiting.remove(w);
            }
            refuse.run();
        }, waitMillis, TimeUnit.MILLISECONDS);
    }

    /** A connection comes back: to the oldest waiter, on its loop, or to the free ones. */
    private static void giveBack() {
        Waiter next;
        synchronized (NettyPool.class) {
            next = waiting.poll();
            if (next == null) taken--;
        }
        if (next == null) return;
        next.loop.execute(() -> {
            if (next.settled.compareAndSet(false, true)) {
                next.timeout.cancel(false);
                next.hold.run();
            } else {
                giveBack(); // it gave up as the connection came: pass it on
            }
        });
    }
}
