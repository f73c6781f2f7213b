///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
//SOURCES ../exercises/kit/Kit.java ../exercises/kit/chapter-03/EventLoop.java

import java.io.IOException;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Chapter 04: an acceptor thread and N event loops, each with its own Selector and its own
 * connections: Netty's boss/worker model, by hand.
 */
class MultiReactorServer {
    public static void main(String[] args) throws IOException {
        int cores = Runtime.getRuntime().availableProcessors();
        Options options = Kit.start("04-multi-reactor", args, "--loops", String.valueOf(cores));
        int n = Math.max(1, options.number("--loops"));
        // Start the loops.
        // tag::loops[]
        Worker[] workers = new Worker[n];
        for (int i = 0; i < n; i++) {
            workers[i] = new Worker();
            Thread.ofPlatform().name("loop-" + (i + 1)).start(workers[i]);
        }
        // end::loops[]
        // Start the acceptor: a blocking accept() on this thread is all it does.
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(options.address(), 1024);
            options.ready(server.socket().getLocalPort());
            // tag::accept[]
            for (long next = 0; ; next++) {
                SocketChannel channel = Kit.accept(server); // Why: out of file descriptors, accept() fails; Kit.accept waits and tries again.
                workers[(int) (next % n)].take(channel); // Why: round robin spreads connections evenly.
            }
            // end::accept[]
        }
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
    /** Called on the acceptor thread: queue the connection, then wake the loop. */
    void take(SocketChannel channel) {
        handover.add(channel);
        selector.wakeup(); // Why: the loop may sleep in select(); a wakeup() before select() makes the next one return at once, so none is lost.
    }

    /** The loop thread, before each select(): adopt what the acceptor queued. */
    private void adoptQueued() {
        // Why here: a Selector and its key set are thread-safe, but its selected-key set, its
        //  cancelled-key set and each connection's state are not: one thread owns them, and
        //  the others hand work over.
        SocketChannel channel;
        while ((channel = handover.poll()) != null) { // Why: several may have come since the last turn.
            try {
                loop.adopt(channel); // Why: one thread owns each connection's state, and its key: this loop's.
            } catch (IOException e) {
                try {
                    channel.close();
                } catch (IOException ignored) {
                    // gone already
                }
            }
        }
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
