///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
//SOURCES kit/Kit.java kit/chapter-01/BlockingHttp.java

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * Chapter 02: many connections at once, with threads.
 *
 * It starts a new thread for every connection: fast until a flood of connections makes
 * thousands of threads. Bound it: a fixed pool of --threads workers fed by a queue of at most
 * --queue connections, a worker that lets an idle connection go when others wait, and a quick
 * 503 when that queue is full. Grade it with
 * scripts/check.sh 02 (it starts the server with --threads 4 --queue 4).
 */
class ThreadPoolServer {
    public static void main(String[] args) throws IOException {
        Options options = Kit.start("02-thread-pool", args, "--threads", "16", "--queue", "64");
        int threads = options.number("--threads");
        int queued = options.number("--queue");
        // TODO(pool): start `threads` worker threads that each take accepted sockets from a
        //  BlockingQueue of at most `queued` sockets, and serve them one after another with
        //  BlockingHttp.serve(socket). A worker must survive a handler that throws.
        // TODO(release): a keep-alive connection holds its worker even while it is idle. Serve with
        //  BlockingHttp.serve(socket, othersWaiting) instead, where othersWaiting says whether
        //  connections wait in the queue: the kit then lets the connection go.
        // Start the server.
        try (ServerSocket server = new ServerSocket()) {
            server.setReuseAddress(true);
            server.bind(options.address(), 1024);
            options.ready(server.getLocalPort());
            // tag::accept-loop[]
            while (true) {
                Socket socket = Kit.accept(server); // Why: out of file descriptors, accept() fails; Kit.accept waits and tries again.
                // TODO(pool): hand the socket to the workers instead of a new thread each time.
                // TODO(refuse): when the queue is full, answer 503 (Retry-After: 1) at once and
                //  close, instead of waiting: a client that gets an answer can retry elsewhere.
                Thread.ofPlatform().start(() -> BlockingHttp.serve(socket));
            }
            // end::accept-loop[]
        }
    }
}
