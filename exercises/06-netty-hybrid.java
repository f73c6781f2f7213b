///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
//DEPS io.netty:netty-codec-http:4.2.20.Final
//SOURCES kit/Kit.java kit/NettyHttp.java

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
import io.netty.util.ReferenceCountUtil;
import java.net.InetSocketAddress;

/**
 * Chapter 06: Netty's event loops own the sockets; work that waits runs on virtual threads, CPU
 * work on a pool of one thread per core.
 *
 * Netty runs the connections already, but the handler does each request's work on the event
 * loop, and writes whole responses however slowly the client reads. Move the work off the loop,
 * pace the writes, and let idle and too-slow connections go. Grade it with
 * scripts/check.sh 06 (it starts --loops 2 --idle-timeout 3000 --header-timeout 1500).
 */
class NettyHybridServer {
    public static void main(String[] args) throws InterruptedException {
        int cores = Runtime.getRuntime().availableProcessors();
        Options options = Kit.start("06-netty-hybrid", args, "--loops", String.valueOf(cores),
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
                            // TODO(timeouts): a connection that says nothing stays open for ever, and so does
                            //  one whose request head trickles in. Put an IdleStateHandler (idleMillis) first,
                            //  give the decoder headerMillis, and close on the IdleStateEvent (HybridHandler).
                            channel.pipeline().addLast(
                                    new NettyHttp.Decoder(),      // bytes -> kit Requests
                                    new FlowControlHandler(),     // holds decoded requests while reading is off
                                    new ChunkedWriteHandler(),    // writes a Body only as fast as the client reads
                                    new HybridHandler());         // the concurrency model: this chapter
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

/** One connection: for now, every request is served on the event loop. */
final class HybridHandler extends ChannelInboundHandlerAdapter {
    // tag::release[]
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) {
        // TODO(release): a request with a body arrives as a NettyHttp.Upload, its body in a buffer
        //  from the channel's pool, and this handler is its last holder. Nothing gives the buffer
        //  back: release the message (ReferenceCountUtil.release) once it is read, on every path.
        accept(ctx, message instanceof NettyHttp.Upload upload ? upload.request() : message);
    }
    // end::release[]

    // tag::on-the-loop[]
    private void accept(ChannelHandlerContext ctx, Object message) {
        if (message instanceof HttpError refused) {
            send(ctx, refused.response());
            return;
        }
        Response response;
        try {
            // TODO(offload): this sleeps (/io) or burns CPU (/cpu) on the event loop, and every
            //  connection of the loop waits. Plan the request (Endpoints.plan), answer Ready work
            //  at once, run a Wait on a virtual thread and a Burn on a pool of one platform thread
            //  per core, and hand the response back to the loop with ctx.executor().execute(...).
            //  Pipelined answers must still leave in order.
            response = Endpoints.serve((Request) message);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            response = Response.text(503, "interrupted\n").closing();
        } catch (RuntimeException e) {
            response = Response.serverError(e);
        }
        send(ctx, response);
    }
    // end::on-the-loop[]

    // tag::send-all[]
    private void send(ChannelHandlerContext ctx, Response response) {
        // TODO(backpressure): this makes every chunk now and queues them all, however slowly the
        //  client reads. Write one NettyHttp.Body instead (the ChunkedWriteHandler pulls chunks
        //  while the channel is writable), and turn autoRead off while the channel is not
        //  writable (channelWritabilityChanged) or 16 requests are in flight, so a client that
        //  does not read is not read either.
        NettyHttp.Body body = new NettyHttp.Body(response);
        ChannelFuture sent = ctx.newSucceededFuture();
        while (!body.isEndOfInput()) sent = ctx.write(body.readChunk(ctx.alloc()));
        ctx.flush();
        if (response.closes()) sent.addListener(ChannelFutureListener.CLOSE);
    }
    // end::send-all[]

    // TODO(timeouts): override userEventTriggered. On an IdleStateEvent, close the connection if
    //  it waits for nothing, or if its client reads none of its answers; pass other events on.

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close(); // a broken connection costs that connection only
    }
}
