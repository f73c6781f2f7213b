///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
//SOURCES ../exercises/kit/Kit.java ../exercises/kit/chapter-01/BlockingHttp.java

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.SynchronousQueue;

/**
 * Chapter 02: a fixed pool of worker threads, each serving one connection at a time, fed by a
 * bounded queue of accepted connections; a worker lets its connection go when others wait, and
 * when the queue is full, a connection gets 503.
 */
class ThreadPoolServer {
    public static void main(String[] args) throws Exception {
        Options options = Kit.start("02-thread-pool", args, "--threads", "16", "--queue", "64");
        int threads = options.number("--threads");
        int queued = options.number("--queue");
        // Configure the pool.
        // tag::pool[]
        BlockingQueue<Socket> queue = queued == 0 ? new SynchronousQueue<>() : new ArrayBlockingQueue<>(queued);
        for (int i = 1; i <= threads; i++) {
            Thread.ofPlatform().name("worker-" + i).start(() -> work(queue));
        }
        // end::pool[]
        // Start the server.
        try (ServerSocket server = new ServerSocket()) {
            server.setReuseAddress(true);
            server.bind(options.address(), 1024);
            options.ready(server.getLocalPort());
            // tag::accept-loop[]
            while (true) {
                Socket socket = Kit.accept(server); // Why: out of file descriptors, accept() fails; Kit.accept waits and tries again.
                if (!queue.offer(socket)) {
                    refuse(socket, threads, queued); // Why: a full queue answers now; it must not grow without end.
                }
            }
            // end::accept-loop[]
        }
    }

    // tag::work[]
    /** A worker: takes connections off the queue and serves each until it closes, or others wait. */
    static void work(BlockingQueue<Socket> queue) {
        while (true) {
            Socket socket;
            try {
                socket = queue.take();
            } catch (InterruptedException e) {
                return;
            }
            try {
                // Why the test: a keep-alive connection holds this worker even while it is idle, so when
                // connections wait in the queue, the worker lets this one go (chapter 01's loop, from the kit).
                BlockingHttp.serve(socket, () -> !queue.isEmpty());
            } catch (RuntimeException e) {
                // Why: an uncaught exception would end this thread, and the pool would shrink for good.
                System.err.println("worker " + Thread.currentThread().getName() + ": " + e);
            }
        }
    }
    // end::work[]

    // tag::refuse[]
    /** Answers 503 at once and closes, without waiting for a worker. */
    static void refuse(Socket socket, int threads, int queued) {
        Response busy = Response.text(503, "busy: " + threads + " workers and " + queued
                + " waiting connections; try again\n").withHeader("Retry-After: 1");
        BlockingHttp.answerAndClose(socket, busy); // Why: a plain close with bytes on their way sends a reset that can destroy the 503.
    }
    // end::refuse[]
}
