///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
//DEPS io.netty:netty-codec-http:4.2.20.Final
//SOURCES ../../exercises/kit/Kit.java

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The benchmark's baseline: a plain Netty HTTP server with the workshop's /, /io and /db endpoints. */
class NettyBaseline {
    public static void main(String[] args) throws Exception {
        String host = "127.0.0.1";
        int port = 8080;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--port" -> port = Integer.parseInt(args[i + 1]);
                case "--host" -> host = args[i + 1];
                case "--db-pool" -> NettyPool.size = Integer.parseInt(args[i + 1]);
                case "--db-wait" -> NettyPool.waitMillis = Long.parseLong(args[i + 1]);
                default -> {
                    System.err.println("usage: jbang NettyBaseline.java [--port P] [--host H] [--db-pool N] [--db-wait MS]");
                    System.exit(2);
                }
            }
        }
        // Configure the server.
        EventLoopGroup bossGroup = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        EventLoopGroup workerGroup = new MultiThreadIoEventLoopGroup(NioIoHandler.newFactory());
        try {
            ServerBootstrap b = new ServerBootstrap();
            b.option(ChannelOption.SO_BACKLOG, 1024)
                    .group(bossGroup, workerGroup)
                    .channel(NioServerSocketChannel.class)
                    .childHandler(new NettyBaselineInitializer());

            // Start the server.
            Channel ch = b.bind(host, port).sync().channel();
            int bound = ((java.net.InetSocketAddress) ch.localAddress()).getPort();
            System.out.println("listening on http://" + host + ":" + bound);
            System.out.flush();

            // Wait until the server socket is closed.
            ch.closeFuture().sync();
        } finally {
            // Shut down all event loops to terminate all threads.
            bossGroup.shutdownGracefully();
            workerGroup.shutdownGracefully();
        }
    }
}

/** Sets up each new connection's pipeline: HTTP codec, aggregator, handler. */
class NettyBaselineInitializer extends ChannelInitializer<SocketChannel> {
    @Override
    public void initChannel(SocketChannel ch) {
        ChannelPipeline p = ch.pipeline();
        p.addLast(new HttpServerCodec());
        p.addLast(new HttpObjectAggregator(64 * 1024));
        p.addLast(new NettyBaselineHandler());
    }
}

/**
 * Answers GET / at once, GET /io?ms=N after N ms on the event loop's timer, GET /cpu?ms=N after
 * burning N ms of CPU on the event loop (as plain Netty code does, with a loop per core; the
 * same calibrated work as every course server, the kit's), and GET /db?ms=N through
 * {@link NettyPool}, never sleeping; 404 otherwise.
 */
class NettyBaselineHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
    @Override
    public void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
        boolean keepAlive = HttpUtil.isKeepAlive(req);
        if (!req.decoderResult().isSuccess()) {
            send(ctx, HttpResponseStatus.BAD_REQUEST, "bad request\n", false);
            return;
        }
        QueryStringDecoder uri = new QueryStringDecoder(req.uri());
        boolean get = req.method().equals(HttpMethod.GET);
        switch (uri.path()) {
            case "/" -> send(ctx, get ? HttpResponseStatus.OK : HttpResponseStatus.METHOD_NOT_ALLOWED,
                    get ? "Hello, World!" : "/ accepts GET only\n", keepAlive);
            case "/io" -> {
                long ms = millis(uri.parameters().get("ms"));
                if (!get || ms < 0) {
                    send(ctx, HttpResponseStatus.BAD_REQUEST, "GET /io?ms=N with N from 0 to 60000\n", keepAlive);
                    return;
                }
                // The wait is a timer on this connection's event loop: no thread sleeps.
                ctx.executor().schedule(() -> send(ctx, HttpResponseStatus.OK, "waited " + ms + " ms\n", keepAlive),
                        ms, TimeUnit.MILLISECONDS);
            }
            case "/cpu" -> {
                long ms = millis(uri.parameters().get("ms"));
                if (!get || ms < 0) {
                    send(ctx, HttpResponseStatus.BAD_REQUEST, "GET /cpu?ms=N with N from 0 to 60000\n", keepAlive);
                    return;
                }
                Endpoints.burnCpu(ms); // on the loop: its other connections wait, as in chapter 04
                send(ctx, HttpResponseStatus.OK, "burned " + ms + " ms of CPU\n", keepAlive);
            }
            case "/db" -> {
                long ms = millis(uri.parameters().get("ms"));
                if (!get || ms < 0) {
                    send(ctx, HttpResponseStatus.BAD_REQUEST, "GET /db?ms=N with N from 0 to 60000\n", keepAlive);
                    return;
                }
                NettyPool.query(ctx, ms, () -> send(ctx, HttpResponseStatus.OK, "queried " + ms + " ms\n", keepAlive),
                        () -> send(ctx, HttpResponseStatus.SERVICE_UNAVAILABLE, "no database connection within " + NettyPool.waitMillis + " ms\n", keepAlive));
            }
            default -> send(ctx, HttpResponseStatus.NOT_FOUND, "no endpoint at " + uri.path() + "\n", keepAlive);
        }
    }

    private static long millis(List<String> values) {
        if (values == null || values.size() != 1 || !values.get(0).matches("\\d{1,5}")) return -1;
        long ms = Long.parseLong(values.get(0));
        return ms <= 60_000 ? ms : -1;
    }

    private static void send(ChannelHandlerContext ctx, HttpResponseStatus status, String body, boolean keepAlive) {
        FullHttpResponse response = new DefaultFullHttpResponse(io.netty.handler.codec.http.HttpVersion.HTTP_1_1, status,
                Unpooled.copiedBuffer(body, StandardCharsets.UTF_8));
        response.headers()
                .set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8")
                .setInt(HttpHeaderNames.CONTENT_LENGTH, response.content().readableBytes());
        if (!keepAlive) {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        } else {
            ctx.writeAndFlush(response);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }
}

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
