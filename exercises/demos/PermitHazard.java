///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Chapter 05's permit hazard: where the release of a {@code Semaphore} permit goes. A pool of 2
 * database connections is a semaphore with 2 permits; a query takes one with
 * {@code tryAcquire(wait)} and gives it back. Each round, a query that fails (as {@code /db?fail=1}
 * does) and a good one hold both connections while 3 more wait 50 ms for one. Three placements of
 * the release run four rounds each, and the demo prints, per round, the most queries at once, the
 * refusals and the permits left: a {@code finally} that also covers the timed-out wait gives back
 * permits that nobody took, so the pool grows and more queries run at once than it has
 * connections; a release outside a {@code finally} is skipped by the failing query, so the pool
 * shrinks until every query is refused; a {@code finally} that begins after {@code tryAcquire}
 * said yes keeps it at 2. Run it with {@code jbang exercises/demos/PermitHazard.java}.
 */
class PermitHazard {
    static final int POOL = 2;
    static final long WAIT_MS = 50;

    /** One placement of the release: runs {@code query} with a connection, or answers 503. */
    interface Placement {
        String run(Semaphore pool, Callable<String> query) throws Exception;
    }

    // tag::wrong[]
    static String aroundTheWait(Semaphore pool, Callable<String> query)
            throws Exception {
        try {
            if (!pool.tryAcquire(WAIT_MS, TimeUnit.MILLISECONDS)) {
                return "503";
            }
            return query.call();
        } finally {
            pool.release(); // also after a wait that timed out
        }
    }
    // end::wrong[]

    // tag::lost[]
    static String outsideFinally(Semaphore pool, Callable<String> query)
            throws Exception {
        if (!pool.tryAcquire(WAIT_MS, TimeUnit.MILLISECONDS)) {
            return "503";
        }
        String answer = query.call(); // a throw skips the release
        pool.release();
        return answer;
    }
    // end::lost[]

    // tag::right[]
    static String afterTheWait(Semaphore pool, Callable<String> query)
            throws Exception {
        if (!pool.tryAcquire(WAIT_MS, TimeUnit.MILLISECONDS)) {
            return "503"; // took nothing, gives nothing back
        }
        try {
            return query.call();
        } finally {
            pool.release(); // once per permit taken, however it ends
        }
    }
    // end::right[]

    public static void main(String[] args) throws Exception {
        System.out.println("A pool of " + POOL + " connections. Each round, a failing query and a good one take both, and 3 more");
        System.out.println("wait up to " + WAIT_MS + " ms for one. Four rounds with each placement of the release:");
        run("release in a finally around the wait", PermitHazard::aroundTheWait);
        run("release outside a finally          ", PermitHazard::outsideFinally);
        run("release in a finally after the wait", PermitHazard::afterTheWait);
    }

    /** Four rounds with one placement of the release; prints what each round did to the pool. */
    static void run(String name, Placement placement) throws InterruptedException {
        Semaphore connections = new Semaphore(POOL, true);
        StringBuilder atOnce = new StringBuilder(), refusals = new StringBuilder(), left = new StringBuilder();
        for (int round = 0; round < 4; round++) {
            AtomicInteger inUse = new AtomicInteger(), most = new AtomicInteger(), refused = new AtomicInteger();
            Callable<String> query = () -> {
                most.accumulateAndGet(inUse.incrementAndGet(), Math::max);
                try {
                    Thread.sleep(200);
                    return "200";
                } finally {
                    inUse.decrementAndGet();
                }
            };
            Callable<String> failing = () -> {
                query.call();
                throw new IllegalStateException("the query failed"); // as /db?fail=1 does
            };
            List<Thread> queries = new ArrayList<>();
            queries.add(start(placement, connections, failing, refused));
            Thread.sleep(10);
            queries.add(start(placement, connections, query, refused));
            Thread.sleep(10); // the two hold the pool now
            for (int i = 0; i < 3; i++) queries.add(start(placement, connections, query, refused));
            for (Thread q : queries) q.join();
            atOnce.append(' ').append(most.get());
            refusals.append(' ').append(refused.get());
            left.append(' ').append(connections.availablePermits());
        }
        System.out.println(name + ": queries at once" + atOnce + ", refused" + refusals + ", permits left" + left);
    }

    /** Runs one query on a virtual thread, and counts it when it is refused. */
    static Thread start(Placement placement, Semaphore connections, Callable<String> work, AtomicInteger refused) {
        return Thread.ofVirtual().start(() -> {
            try {
                if (placement.run(connections, work).equals("503")) refused.incrementAndGet();
            } catch (Exception e) {
                // the failed query: a server would answer 500
            }
        });
    }
}
