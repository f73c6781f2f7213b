package checks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import lib.Inspect;
import lib.Target;
import lib.Unavailable;

/**
 * Chapter 09, the event loop carries the virtual threads, started with --loops 2: waits run on
 * virtual threads whose carrier is an event loop, and CPU work leaves the loops. What a thread
 * dump shows decides it: where the waits park, which threads carry them, which threads burn.
 * The /cpu check runs last: a burn it leaves on the JDK's carriers would delay the others' waits.
 */
@Check.Suite
class Ch09Checks {
    /** The server under test, handed in by the run ({@link RunContext}). */
    private final Target target;

    Ch09Checks(Target target) {
        this.target = target;
    }

    /** The name the JDK gives the carriers of its own scheduler, a ForkJoinPool: ForkJoinPool-1-worker-1. */
    static final String JDK_CARRIER = "ForkJoinPool-\\d+-worker-\\d+";

    // tag::carried[]
    @Check(timed = true, order = 1, timeline = true, title = "runs the waits on virtual threads, and the JDK's own scheduler starts no carrier",
           hint = "Thread.ofVirtual() hands its threads to the JDK's scheduler, a ForkJoinPool whose workers (ForkJoinPool-1-worker-1, ...) "
            + "carry them. A builder made with a scheduler of your own (LoopCarriers.on(ctx.executor())) hands each start and each "
            + "wake-up to the connection's event loop instead, which runs it as a task between two selects.",
           see = "chapters/09-loop-carriers#the-carrier")
    void carriedByLoops() throws Exception {
        try (Clients waiting = new Clients(target).connect(100, 30_000).sendAll(Client.request("GET", "/io?ms=1500"))) {
            // Watch the server, not the clock: dumps until half the waits are seen parked, or 3 s.
            List<List<Inspect.ThreadInfo>> dumps = Watch.dumps(target, 3000, d -> Watch.count(d, Watch::waitsOnVirtual) >= 50);
            long parked = Watch.most(dumps, Watch::waitsOnVirtual);
            List<String> carriers = dumps.stream().flatMap(List::stream).filter(t -> !t.virtual() && t.name().matches(JDK_CARRIER))
                    .map(Inspect.ThreadInfo::label).distinct().toList();
            assertTrue(parked >= 50, "of 100 requests of /io?ms=1500 in flight, at most " + parked + " were waiting on virtual threads"
                    + " (" + dumps.size() + " thread dumps): the waits run elsewhere (on a loop, or on a pool of platform threads)");
            assertTrue(carriers.isEmpty(), "the JDK's own scheduler carries virtual threads here (" + String.join(", ", carriers)
                    + "): the waits' virtual threads are not carried by the event loops");
            for (Client c : waiting) c.read().assertStatus(200);
        }
    }
    // end::carried[]

    // tag::own-loop[]
    @Check(timed = true, order = 2, title = "carries each wait on its own connection's event loop: the loop that read the request runs its virtual thread",
           hint = "LoopCarriers.on(executor) makes virtual threads that executor runs. ctx.executor() is the loop that owns this connection: "
            + "the wait, its answer and the socket take turns on one thread. Another loop (group.next(), or one chosen once for every "
            + "connection) carries the wait on a thread that does not own the connection, and each answer crosses from loop to loop.",
           see = "chapters/09-loop-carriers#the-carrier",
           after = "ch09.carriedByLoops")
    void ownLoop() throws Exception {
        // Which thread each wait's scheduler runs it on, and which loop owns the connection its task answers
        // (InspectAgent: it asks each scheduler and each connection's loop to run a probe, and reads their names).
        java.util.Map<Long, Inspect.Carried> carried;
        try (Clients waiting = new Clients(target).connect(40, 30_000).sendAll(Client.request("GET", "/io?ms=1500"))) {
            List<List<Inspect.ThreadInfo>> dumps = Watch.dumps(target, 3000, d -> Watch.count(d, Watch::waitsOnVirtual) >= 20);
            java.util.Set<Long> parked = new java.util.HashSet<>(dumps.getLast().stream().filter(Watch::waitsOnVirtual).filter(t -> t.tid() != null).map(t -> Long.parseLong(t.tid())).toList());
            carried = target.inspect().carriers().orElseThrow(() -> new Unavailable(
                    "the grader could not ask this server's JVM which thread carries its virtual threads (the attach API)"));
            carried.keySet().retainAll(parked);
            for (Client c : waiting) c.read().assertStatus(200);
        }
        List<Inspect.Carried> known = carried.values().stream().filter(c -> c.owner() != null).toList();
        assertTrue(known.size() >= 20, "of 40 waits of /io?ms=1500 in flight, the grader found the connection of " + known.size()
                + " (" + carried.size() + " parked in /io): the waits do not run on virtual threads whose task holds their connection");
        List<Inspect.Carried> crossed = known.stream().filter(c -> !c.carrier().equals(c.owner())).toList();
        assertEquals(0, crossed.size(), crossed.size() + " of " + known.size() + " waits ran on another loop than their connection's: "
                + crossed.stream().map(c -> "a wait of a connection of '" + c.owner() + "' carried by '" + c.carrier() + "'").distinct().limit(2).toList());
    }
    // end::own-loop[]

    @Check(timed = true, order = 9, timeline = true, title = "burns /cpu on platform threads, not on a virtual thread that a loop carries, and no loop waits for it",
           hint = "A virtual thread runs on its carrier until it parks, and CPU work does not park: carried by a loop, /cpu holds that loop "
            + "and every connection on it for the whole burn. Give Burn work to a pool of one platform thread per core; only waits "
            + "go to the loop's virtual threads.",
           see = "chapters/09-loop-carriers#cpu-leaves-the-loop")
    void cpuOffLoop() throws Exception {
        Ch06Checks.assertCpuOffLoop(target, true);
    }

    @Check(timed = true, order = 2, timeline = true, title = "answers GET / during a flood of 500 /io?ms=1000, with no event loop asleep in a wait and the waits in flight together",
           hint = "A wait that runs on the loop itself (not on a virtual thread it carries) sleeps the loop: every connection of it waits. "
            + "Start the wait on the connection's virtual threads; when it sleeps, its continuation leaves the loop free.",
           see = "chapters/09-loop-carriers#the-carrier")
    void ioFlood() throws Exception {
        Ch06Checks.assertIoFlood(target);
    }

    @Check(order = 8, title = "keeps its threads as requests come and go: 96 more requests of /cpu and /io leave at most 16 new platform threads",
           hint = "A pool of burners made for each /cpu (Executors.newFixedThreadPool inside start()) starts threads that nobody shuts "
            + "down: the server's threads grow with its requests. Make the pool of one platform thread per core once (a static final "
            + "field) and share it; the waits' virtual threads end with their requests.",
           see = "chapters/09-loop-carriers#cpu-leaves-the-loop")
    void threadsStay() throws Exception {
        Watch.assertThreadsStay(target);
    }

    @Check(order = 3, title = "keeps answers in request order when pipelined work finishes out of order",
           hint = "Each answer goes back to the loop (ctx.executor().execute) and waits in the connection's queue for the ones before it.",
           see = "chapters/09-loop-carriers#the-carrier")
    void inOrder() throws Exception {
        Ch06Checks.assertInOrder(target);
    }
}
