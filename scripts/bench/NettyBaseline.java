///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
//DEPS io.netty:netty-codec-http:4.2.20.Final
//DEPS info.picocli:picocli:4.7.7
//SOURCES NettyBaselineInitializer.java NettyBaselineHandler.java NettyPool.java ../../exercises/kit/Kit.java
//SOURCES ../lib/Cli.java ../lib/CommandError.java

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.util.concurrent.Callable;
import lib.Cli;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The benchmark's baseline: a plain Netty HTTP server with the workshop's /, /io, /cpu and /db
 * endpoints ({@link NettyBaselineHandler}). The race starts it as a program with {@code --port 0}
 * and the database options, and waits for its ready line; its command line is read by picocli
 * through {@link Cli}, and {@link #call} serves until the process is stopped.
 */
@Command(name = "netty-baseline", sortOptions = false,
        customSynopsis = {"usage: jbang NettyBaseline.java [--port P] [--host H] [--db-pool N] [--db-wait MS]", ""},
        footer = {"", "Prints 'listening on http://HOST:PORT' once it listens, then serves until stopped."})
class NettyBaseline implements Callable<Integer> {
    @Option(names = "--port", paramLabel = "P", description = "the port (default 8080; 0 takes any free one)")
    int port = 8080;

    @Option(names = "--host", paramLabel = "H", description = "the address to listen on (default 127.0.0.1)")
    String host = "127.0.0.1";

    @Option(names = "--db-pool", paramLabel = "N", description = "the database pool's connections (default 10)")
    int dbPool = NettyPool.size;

    @Option(names = "--db-wait", paramLabel = "MS", description = "how long a query waits for a connection before its 503 (default 1000)")
    long dbWait = NettyPool.waitMillis;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "this help")
    boolean help;

    public static void main(String[] args) {
        System.exit(Cli.run("netty-baseline", new NettyBaseline(), args));
    }

    @Override
    public Integer call() throws Exception {
        NettyPool.size = dbPool;
        NettyPool.waitMillis = dbWait;
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

            // Wait until the server socket is closed: main exits once this returns.
            ch.closeFuture().sync();
        } finally {
            // Shut down all event loops to terminate all threads.
            bossGroup.shutdownGracefully();
            workerGroup.shutdownGracefully();
        }
        return 0;
    }
}
