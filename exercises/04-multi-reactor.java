///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
//SOURCES kit/Kit.java kit/chapter-03/EventLoop.java

import java.io.IOException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Chapter 04: an acceptor thread and N event loops, each with its own Selector.
 *
 * It runs chapter 03's loop (EventLoop, from the kit) once: one thread accepts, reads and
 * writes for everyone, on one core. Spread the connections over --loops loops. Grade it with
 * scripts/check.sh 04 (it starts the server with --loops 2).
 */
class MultiReactorServer {
    public static void main(String[] args) throws IOException {
        int cores = Runtime.getRuntime().availableProcessors();
        Options options = Kit.start("04-multi-reactor", args, "--loops", String.valueOf(cores));
        int n = Math.max(1, options.number("--loops"));
        // TODO(loops): start n Workers, each on its own thread (name them loop-1, loop-2...).
        //  Then let this thread be the acceptor: a blocking Kit.accept(server) in a loop (the
        //  kit's server.accept() that survives running out of file descriptors), handing each
        //  connection to the next Worker in turn with take(channel).
        // tag::single-loop[]
        try (Selector selector = Selector.open(); ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(options.address(), 1024);
            server.configureBlocking(false);
            server.register(selector, SelectionKey.OP_ACCEPT);
            options.ready(server.socket().getLocalPort());
            new EventLoop(selector).run(); // accepts, reads and writes, all on this thread
        }
        // end::single-loop[]
    }
}

/** One event loop on its own thread, and the queue through which it receives new connections. */
final class Worker implements Runnable {
    private final Selector selector;
    private final EventLoop loop;
    private final Queue<SocketChannel> handover = new ConcurrentLinkedQueue<>();

    Worker() throws IOException {
        selector = Selector.open();
        loop = new EventLoop(selector);
    }

    // tag::handover[]
    /** Called on the acceptor thread. */
    void take(SocketChannel channel) {
        handover.add(channel);
        // TODO(loops): the loop may be asleep in select(), with nothing to wake it up.
    }

    /** The loop thread, before each select(). */
    private void adoptQueued() {
        // TODO(loops): adopt every connection queued since the last turn: loop.adopt(channel),
        //  here, on the loop's own thread. A Selector and its key set are thread-safe, but its
        //  selected-key set, its cancelled-key set and each connection's state are not: one
        //  thread owns them, and the others hand work over.
    }
    // end::handover[]

    @Override
    public void run() {
        try {
            loop.run(this::adoptQueued);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
