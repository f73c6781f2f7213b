///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
//DEPS io.netty:netty-codec-http:4.2.20.Final
//SOURCES kit/Kit.java kit/NettyHttp.java
//JAVA_OPTIONS --add-opens java.base/java.lang=ALL-UNNAMED

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.flow.FlowControlHandler;
import io.netty.handler.stream.ChunkedWriteHandler;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.ReferenceCountUtil;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * Chapter 09: Netty's event loops own the sockets and carry the virtual threads. This is chapter
 * 06's server with one change to make: work that waits runs on a virtual thread whose carrier is
 * its connection's event loop, so the wait and the loop's I/O take turns on one thread; and CPU
 * work must then leave the loop. Each answer is written by the loop, in request order.
 */
class LoopCarrierServer {
    public static void main(String[] args) throws InterruptedException {
        int cores = Runtime.getRuntime().availableProcessors();
        Options options = Kit.start("09-loop-carriers", args, "--loops", String.valueOf(cores),
                "--idle-timeout", "60000", "--header-timeout", "10000");
        int idleMillis = options.number("--idle-timeout");
        int headerMillis = options.number("--header-timeout");
        // Configure the server: one acceptor loop (the boss), --loops loops for the connections.
        EventLoopGroup boss = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        EventLoopGroup loops = new MultiThreadIoEventLoopGroup(Math.max(1, options.number("--loops")), NioIoHandler.newFactory());
        try {
            // tag::pipeline[]
            ServerBootstrap bootstrap = new ServerBootstrap()
                    .group(boss, loops)
                    .channel(NioServerSocketChannel.class)
                    .option(ChannelOption.SO_BACKLOG, 1024)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel channel) {
                            channel.pipeline().addLast(
                                    // tag::idle[]
                                    // Nothing read and nothing of the answers taken for idleMillis: an IdleStateEvent.
                                    new IdleStateHandler(true, 0, 0, idleMillis, TimeUnit.MILLISECONDS),
                                    // end::idle[]
                                    new NettyHttp.Decoder(headerMillis), // bytes -> kit Requests; 408 for a head too slow
                                    new FlowControlHandler(),     // holds decoded requests while reading is off
                                    new ChunkedWriteHandler(),    // writes a Body only as fast as the client reads
                                    new CarriedHandler());        // the concurrency model: this chapter
                        }
                    });
            // end::pipeline[]
            // Start the server.
            Channel server = bootstrap.bind(options.address()).sync().channel();
            options.ready(((InetSocketAddress) server.localAddress()).getPort());
            // Wait until the server socket is closed.
            server.closeFuture().sync();
        } finally {
            // Shut down all event loops to terminate all threads.
            boss.shutdownGracefully();
            loops.shutdownGracefully();
        }
    }
}

/**
 * One connection. Quick answers are written on the event loop; work that waits runs on a virtual
 * thread carried by this connection's event loop, and CPU work on a pool of one platform thread
 * per core. Answers leave in request order, and reading stops while the connection has too much
 * in flight or the client does not read what it is sent.
 */
final class CarriedHandler extends ChannelInboundHandlerAdapter {
    static final int MAX_IN_FLIGHT = 16;

    /** A request's place in the answer order; it holds the response once its work is done. */
    private static final class Slot {
        Response response;
    }

    // Touched on this connection's event loop only, so it needs no lock.
    private final ArrayDeque<Slot> inFlight = new ArrayDeque<>();
    private boolean closing;


    // tag::carrier[]
    /** Starts this connection's waits: virtual threads whose carrier is the connection's event loop. */
    private ThreadFactory waiters;

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        // Why ctx.executor(): the loop that owns this connection runs its virtual threads' continuations too.
        waiters = LoopCarriers.on(ctx.executor()).name("wait-", 1).factory();
    }
    // end::carrier[]

    // tag::release[]
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) {
        try {
            accept(ctx, message instanceof NettyHttp.Upload upload ? upload.request() : message);
        } finally {
            ReferenceCountUtil.release(message); // Why: the last holder gives a buffer back, on every path.
        }
    }
    // end::release[]

    private void accept(ChannelHandlerContext ctx, Object message) {
        if (closing) return;
        Slot slot = new Slot();
        inFlight.add(slot);
        if (message instanceof HttpError refused) {
            finish(ctx, slot, refused.response());
            return;
        }
        Request request = (Request) message;
        Endpoints.Work work;
        try {
            work = Endpoints.plan(request);
        } catch (RuntimeException e) {
            finish(ctx, slot, Response.serverError(e));
            return;
        }
        if (work instanceof Endpoints.Ready ready) {
            finish(ctx, slot, ready.response()); // nothing to wait for: answer from the loop
        } else {
            Runnable job = () -> {
                Response response = perform(work);
                // Why: a carried virtual thread is not the loop's thread (inEventLoop() is false): hand the answer over.
                ctx.executor().execute(() -> finish(ctx, slot, response));
            };
            // tag::where[]
            // TODO(burn): with the loops as carriers, a /cpu burning on a virtual thread holds its loop, and
            //  every connection of that loop waits. Run a Burn on a pool of one platform thread per core
            //  (Executors.newFixedThreadPool), and only a Wait on this connection's virtual threads.
            waiters.newThread(job).start();
            // end::where[]
        }
        updateReading(ctx);
    }

    /** Does the work on this thread (virtual, or of the pool); a handler that throws gets 500. */
    private static Response perform(Endpoints.Work work) {
        try {
            return Endpoints.perform(work);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Response.text(503, "interrupted\n").closing();
        } catch (RuntimeException e) {
            return Response.serverError(e);
        }
    }

    // tag::in-order[]
    /** Stores a response, then sends every response that is next in line. Runs on the event loop. */
    private void finish(ChannelHandlerContext ctx, Slot slot, Response response) {
        slot.response = response;
        while (!closing && !inFlight.isEmpty() && inFlight.peek().response != null) {
            Response next = inFlight.poll().response;
            ChannelFuture sent = ctx.write(new NettyHttp.Body(next)); // Why: ChunkedWriteHandler sends it as the client reads.
            if (next.closes()) {
                closing = true;
                inFlight.clear();
                sent.addListener(ChannelFutureListener.CLOSE);
            }
        }
        ctx.flush();
        updateReading(ctx);
    }
    // end::in-order[]

    // tag::backpressure[]
    /** Reads more only while this connection keeps up: few answers pending, and a client that reads. */
    private void updateReading(ChannelHandlerContext ctx) {
        boolean keepUp = !closing && inFlight.size() < MAX_IN_FLIGHT && ctx.channel().isWritable();
        ctx.channel().config().setAutoRead(keepUp); // Why: a client that does not read gets no more of our memory.
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        updateReading(ctx);
        ctx.fireChannelWritabilityChanged();
    }
    // end::backpressure[]

    // tag::timeouts[]
    /** The connection went idle: close it if it waits for nothing, or if its client reads none of its answers. */
    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event instanceof IdleStateEvent) {
            // Why: a long /io in flight is not idle; a keep-alive connection that says nothing, or a client that never reads, is.
            if (inFlight.isEmpty() || !ctx.channel().isWritable()) ctx.close();
            return;
        }
        ctx.fireUserEventTriggered(event);
    }
    // end::timeouts[]

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close(); // a broken connection costs that connection only
    }
}

// tag::loop-carriers[]
/**
 * Virtual threads with a carrier of one's own. The JDK has the constructor
 * (java.lang.ThreadBuilders.VirtualThreadBuilder(Executor)) but does not export it: it is opened
 * with --add-opens java.base/java.lang=ALL-UNNAMED (this file's //JAVA_OPTIONS) and may change
 * in any JDK release.
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
