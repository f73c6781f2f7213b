///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
//SOURCES ../exercises/kit/Kit.java ../exercises/kit/chapter-01/BlockingHttp.java

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Chapter 05: chapter 01's blocking code, one virtual thread per connection; a Semaphore
 * (not a pool) limits how many connections are served at once, another how many queries
 * hold one of the database's connections, and a third how many requests burn CPU at once.
 */
class VirtualThreadServer {
    public static void main(String[] args) throws IOException {
        Options options = Kit.start("05-virtual-threads", args, "--max-concurrent", "10000",
                "--carriers", String.valueOf(Runtime.getRuntime().availableProcessors() + 2),
                "--idle-timeout", "60000", "--header-timeout", "10000");
        // tag::carriers[]
        // Why: the JVM reads this when the first virtual thread starts. Its default is one carrier
        // per CPU; with one carrier, woken threads wait behind the JDK's socket poller, and with
        // CPU work capped below the carriers, the CPUs would not all burn.
        System.setProperty("jdk.virtualThreadScheduler.parallelism", String.valueOf(options.number("--carriers")));
        // end::carriers[]
        // tag::limit[]
        Semaphore permits = new Semaphore(options.number("--max-concurrent"));
        // end::limit[]
        // tag::pool-setup[]
        connections = new Semaphore(options.number("--db-pool"), true); // Why fair: waiters are served in the order they came.
        dbWait = options.number("--db-wait");
        // end::pool-setup[]
        Database.ownPool(VirtualThreadServer::query); // GET /db runs through query(), below
        // tag::timeouts[]
        var timeouts = new RequestReader.Timeouts(options.number("--idle-timeout"), options.number("--header-timeout"));
        // end::timeouts[]
        // tag::cpu-setup[]
        cpuWork = new Semaphore(Math.max(1, options.number("--carriers") - 1)); // Why one fewer: a carrier stays free for the rest.
        // end::cpu-setup[]
        Endpoints.limitCpu(VirtualThreadServer::burn); // GET /cpu runs through burn(), below
        try (ServerSocket server = new ServerSocket()) {
            server.setReuseAddress(true);
            server.bind(options.address(), 4096);
            options.ready(server.getLocalPort());
            // tag::accept-loop[]
            Thread.Builder connections = Thread.ofVirtual().name("conn-", 0); // Why once: the builder numbers conn-0, conn-1, ...
            while (true) {
                Socket socket = Kit.accept(server); // Why: out of file descriptors, accept() fails; Kit.accept waits and tries again.
                if (!permits.tryAcquire()) { // Why: a limit on concurrency answers at once instead of queueing.
                    refuse(socket);
                    continue;
                }
                connections.start(() -> { // Why: a thread per connection costs little now.
                    try {
                        BlockingHttp.serve(socket, timeouts); // chapter 01's loop, with deadlines: blocking calls unmount the virtual thread
                    } finally {
                        permits.release();
                    }
                });
            }
            // end::accept-loop[]
        }
    }

    /** The database's connections: a query holds one. */
    static Semaphore connections;
    /** The longest wait for a connection, in ms. */
    static long dbWait;

    // tag::pool[]
    /** GET /db: one query of the database, on this connection's virtual thread. */
    static Response query(Database.Query query) throws InterruptedException {
        if (!connections.tryAcquire(dbWait, TimeUnit.MILLISECONDS)) { // Why: a scarce resource is worth a wait, but not for ever.
            return Database.noConnection();
        }
        try {
            return Database.run(query);
        } finally {
            connections.release(); // Why in finally: a query that fails gives its connection back too.
        }
    }
    // end::pool[]

    /** Requests that may burn CPU at once: fewer than the carriers. */
    static Semaphore cpuWork;

    // tag::cpu[]
    /** GET /cpu: CPU work on this connection's virtual thread, which nothing preempts. */
    static Response burn(Endpoints.Burn work) throws InterruptedException {
        cpuWork.acquire(); // Why: a thread waiting here is unmounted; one that burns holds its carrier.
        try {
            return Endpoints.perform(work);
        } finally {
            cpuWork.release();
        }
    }
    // end::cpu[]

    /** Answers 503 at once and closes. */
    static void refuse(Socket socket) {
        BlockingHttp.answerAndClose(socket, Response.text(503, "busy: too many connections; try again\n").withHeader("Retry-After: 1"));
    }
}
