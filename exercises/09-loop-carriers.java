///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
//DEPS io.netty:netty-codec-http:4.2.20.Final
//SOURCES kit/Kit.java kit/NettyHttp.java kit/chapter-06/HybridConnection.java
//JAVA_OPTIONS --add-opens java.base/java.lang=ALL-UNNAMED

import io.netty.channel.ChannelHandlerContext;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;

/**
 * Chapter 09: Netty's event loops own the sockets and carry the virtual threads. This is chapter
 * 06's server (its connection comes from kit/chapter-06/HybridConnection.java) with one change to
 * make: work that waits runs on a virtual thread whose carrier is its connection's event loop, so
 * the wait and the loop's I/O take turns on one thread; and CPU work must then leave the loop.
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
 * loop; everything else is chapter 06's connection.
 */
final class CarriedHandler extends HybridConnection {
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
        // TODO(burn): with the loops as carriers, a /cpu burning on a virtual thread holds its loop, and
        //  every connection of that loop waits. Run a Burn on a pool of one platform thread per core
        //  (Executors.newFixedThreadPool), and only a Wait on this connection's virtual threads.
        waiters.newThread(job).start();
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
    private LoopCarriers() {}

    /** A builder of virtual threads that {@code carrier} runs: every time one starts or is woken, carrier.execute runs it. */
    static Thread.Builder.OfVirtual on(Executor carrier) {
        // TODO(carrier): these virtual threads run on the JDK's own scheduler (a ForkJoinPool), not on
        //  the loop. Find the constructor that takes a scheduler, Class.forName(
        //  "java.lang.ThreadBuilders$VirtualThreadBuilder").getDeclaredConstructor(Executor.class), make
        //  it accessible (setAccessible(true), once), and return newInstance(carrier) as a Thread.Builder.OfVirtual.
        return Thread.ofVirtual();
    }
}
// end::loop-carriers[]
