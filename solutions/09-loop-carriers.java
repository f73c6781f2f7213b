///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
//DEPS io.netty:netty-codec-http:4.2.20.Final
//SOURCES ../exercises/kit/Kit.java ../exercises/kit/NettyHttp.java ../exercises/kit/chapter-06/HybridConnection.java
//JAVA_OPTIONS --add-opens java.base/java.lang=ALL-UNNAMED

import io.netty.channel.ChannelHandlerContext;
import java.lang.reflect.Constructor;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;

/**
 * Chapter 09: Netty's event loops own the sockets and carry the virtual threads. Work that waits
 * runs on a virtual thread whose carrier is its connection's event loop, so the wait and the
 * loop's I/O take turns on one thread; CPU work still leaves the loop for a pool of one thread
 * per core; each answer is written by the loop, in request order.
 */
class LoopCarrierServer {
    public static void main(String[] args) throws InterruptedException {
        int cores = Runtime.getRuntime().availableProcessors();
        Options options = Kit.start("09-loop-carriers", args, "--loops", String.valueOf(cores),
                "--idle-timeout", "60000", "--header-timeout", "10000");
        // Netty's loops own the sockets; chapter 06's connection answers in order, paces its
        // writes, lets idle connections go and releases its buffers (kit/chapter-06/HybridConnection.java).
        HybridConnection.serve(options, CarriedHandler::new);
    }
}

/**
 * One connection. Work that waits runs on a virtual thread carried by this connection's event
 * loop, and CPU work on a pool of one platform thread per core; everything else is chapter 06's connection.
 */
final class CarriedHandler extends HybridConnection {
    // tag::burners[]
    // Why: a virtual thread that burns CPU holds the loop that carries it, and every connection of that loop.
    private static final ExecutorService BURNERS = Executors.newFixedThreadPool(
            Runtime.getRuntime().availableProcessors(), Thread.ofPlatform().name("burn-", 1).daemon().factory());
    // end::burners[]

    // tag::carrier[]
    /** Starts this connection's waits: virtual threads whose carrier is the connection's event loop. */
    private ThreadFactory waiters;

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        // Why ctx.executor(): the loop that owns this connection runs its virtual threads' continuations too.
        waiters = LoopCarriers.on(ctx.executor()).name("wait-", 1).factory();
    }
    // end::carrier[]

    // tag::where[]
    /** Runs a job that waits or burns; it hands its answer back to the loop itself. Called on the loop. */
    @Override
    protected void start(ChannelHandlerContext ctx, Endpoints.Work work, Runnable job) {
        if (work instanceof Endpoints.Burn) BURNERS.execute(job); // Why: CPU work never runs on a loop.
        else waiters.newThread(job).start(); // Why: a wait parks, and its loop goes back to its sockets.
    }
    // end::where[]
}

// tag::loop-carriers[]
/**
 * Virtual threads with a carrier of one's own. The JDK has the constructor
 * (java.lang.ThreadBuilders.VirtualThreadBuilder(Executor)), package-private, in a package it does
 * not open to reflection: --add-opens java.base/java.lang=ALL-UNNAMED (this file's //JAVA_OPTIONS)
 * opens it, and any JDK release may change it.
 */
final class LoopCarriers {
    private static final Constructor<?> BUILDER;

    static {
        try {
            BUILDER = Class.forName("java.lang.ThreadBuilders$VirtualThreadBuilder").getDeclaredConstructor(Executor.class);
            BUILDER.setAccessible(true);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("this JDK does not let a virtual thread choose its carrier; run with "
                    + "--add-opens java.base/java.lang=ALL-UNNAMED on JDK 21 to 25", e);
        }
    }

    private LoopCarriers() {}

    /** A builder of virtual threads that {@code carrier} runs: every time one starts or is woken, carrier.execute runs it. */
    static Thread.Builder.OfVirtual on(Executor carrier) {
        try {
            return (Thread.Builder.OfVirtual) BUILDER.newInstance(carrier);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
// end::loop-carriers[]
