import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
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
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Chapter 06's answer, for the chapter built on it (09 includes this file): one connection of a
 * Netty server whose slow work runs off the loop. It answers quick requests on the loop, leaves
 * answers in request order, stops reading while it falls behind or its client does not read,
 * lets idle connections go, and gives back every buffer it is last to hold. Where the work that
 * waits or burns runs is the subclass's: {@link #start}. Open it after you pass chapter 06.
 */
abstract class HybridConnection extends ChannelInboundHandlerAdapter {
    static final int MAX_IN_FLIGHT = 16;

    /**
     * Serves the workshop protocol with Netty until the server socket closes: one acceptor loop,
     * {@code --loops} loops for the connections, each connection's pipeline ending in a handler
     * from {@code handlers}.
     */
    static void serve(Options options, Supplier<ChannelHandler> handlers) throws InterruptedException {
        int idleMillis = options.number("--idle-timeout");
        int headerMillis = options.number("--header-timeout");
        EventLoopGroup boss = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        EventLoopGroup loops = new MultiThreadIoEventLoopGroup(Math.max(1, options.number("--loops")), NioIoHandler.newFactory());
        try {
            ServerBootstrap bootstrap = new ServerBootstrap()
                    .group(boss, loops)
                    .channel(NioServerSocketChannel.class)
                    .option(ChannelOption.SO_BACKLOG, 1024)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel channel) {
                            channel.pipeline().addLast(
                                    new IdleStateHandler(true, 0, 0, idleMillis, TimeUnit.MILLISECONDS),
                                    new NettyHttp.Decoder(headerMillis),
                                    new FlowControlHandler(),
                                    new ChunkedWriteHandler(),
                                    handlers.get());
                        }
                    });
            Channel server = bootstrap.bind(options.address()).sync().channel();
            options.ready(((InetSocketAddress) server.localAddress()).getPort());
            server.closeFuture().sync();
        } finally {
            boss.shutdownGracefully();
            loops.shutdownGracefully();
        }
    }

    /** A request's place in the answer order; it holds the response once its work is done. */
    private static final class Slot {
        Response response;
    }

    // Touched on this connection's event loop only, so it needs no lock.
    private final ArrayDeque<Slot> inFlight = new ArrayDeque<>();
    private boolean closing;

    /**
     * Runs {@code job}, which does {@code work} (a Wait or a Burn) and hands its answer back to
     * this connection's loop, on the thread this model gives that kind of work. Called on the loop.
     */
    protected abstract void start(ChannelHandlerContext ctx, Endpoints.Work work, Runnable job);

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) {
        try {
            accept(ctx, message instanceof NettyHttp.Upload upload ? upload.request() : message);
        } finally {
            ReferenceCountUtil.release(message); // Why: the last holder gives a buffer back, on every path.
        }
    }

    private void accept(ChannelHandlerContext ctx, Object message) {
        if (closing) return;
        Slot slot = new Slot();
        inFlight.add(slot);
        if (message instanceof HttpError refused) {
            finish(ctx, slot, refused.response());
            return;
        }
        Endpoints.Work work;
        try {
            work = Endpoints.plan((Request) message);
        } catch (RuntimeException e) {
            finish(ctx, slot, Response.serverError(e));
            return;
        }
        if (work instanceof Endpoints.Ready ready) {
            finish(ctx, slot, ready.response()); // nothing to wait for: answer from the loop
        } else {
            start(ctx, work, () -> {
                Response response = perform(work);
                // Why: only the loop touches the connection (a virtual thread it carries is not the loop's thread either).
                ctx.executor().execute(() -> finish(ctx, slot, response));
            });
        }
        updateReading(ctx);
    }

    /** Does the work on this thread; a handler that throws gets 500. */
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

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close(); // a broken connection costs that connection only
    }
}
