///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
//SOURCES kit/Kit.java kit/chapter-01/BlockingHttp.java

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * Chapter 05: chapter 01's blocking code, one virtual thread per connection.
 *
 * It starts a platform thread per connection, like chapter 02's first version. Make each one
 * a virtual thread, limit the connections served at once to --max-concurrent, the queries
 * that hold a database connection to --db-pool, and the requests that burn CPU to fewer than
 * the carriers. Grade it with scripts/check.sh 05 (it starts the server with
 * --max-concurrent 2500 --db-pool 10 --db-wait 1000 --carriers 2).
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
        // TODO(limit): a Semaphore with --max-concurrent permits; a connection that gets no
        //  permit (tryAcquire) is answered with refuse(socket) at once. Release it when done.
        Database.ownPool(VirtualThreadServer::query); // GET /db runs through query(), below
        var timeouts = new RequestReader.Timeouts(options.number("--idle-timeout"), options.number("--header-timeout"));
        Endpoints.limitCpu(VirtualThreadServer::burn); // GET /cpu runs through burn(), below
        try (ServerSocket server = new ServerSocket()) {
            server.setReuseAddress(true);
            server.bind(options.address(), 4096);
            options.ready(server.getLocalPort());
            // tag::accept-loop[]
            while (true) {
                Socket socket = Kit.accept(server); // Why: out of file descriptors, accept() fails; Kit.accept waits and tries again.
                // TODO(virtual): a platform thread per connection reserves a stack and an OS
                //  thread for every client. Start a virtual thread instead.
                // TODO(timeouts): BlockingHttp.serve(socket) waits for ever for a client that sends
                //  nothing, or a byte now and then, and holds its permit. Serve with deadlines:
                //  BlockingHttp.serve(socket, timeouts). (A timeout per read, setSoTimeout, does
                //  not stop the client that sends a byte before each one runs out.)
                Thread.ofPlatform().start(() -> BlockingHttp.serve(socket));
            }
            // end::accept-loop[]
        }
    }

    // tag::pool[]
    /** GET /db: one query of the database, on this connection's virtual thread. */
    static Response query(Database.Query query) throws InterruptedException {
        // TODO(pool): the database has --db-pool connections, and a query holds one. Take a
        //  permit of a Semaphore with that many (set up once, in main) before the query, waiting
        //  at most --db-wait ms; none in time: return Database.noConnection(), a 503. Give the
        //  permit back however the query ends.
        return Database.run(query);
    }
    // end::pool[]

    // tag::cpu[]
    /** GET /cpu: CPU work on this connection's virtual thread, which nothing preempts. */
    static Response burn(Endpoints.Burn work) throws InterruptedException {
        // TODO(cpu): a virtual thread that burns CPU holds its carrier until it is done. When
        //  every carrier burns, nothing else runs, not even the JDK's socket poller. Let fewer
        //  requests burn at once than there are carriers (--carriers), with a Semaphore made
        //  once, in main: the others wait for a permit, unmounted, and a carrier stays free.
        return Endpoints.perform(work);
    }
    // end::cpu[]

    /** Answers 503 at once and closes. */
    static void refuse(Socket socket) {
        BlockingHttp.answerAndClose(socket, Response.text(503, "busy: too many connections; try again\n").withHeader("Retry-After: 1"));
    }
}
