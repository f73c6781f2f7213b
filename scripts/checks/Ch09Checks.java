import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

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
    @Check(order = 1, timeline = true, title = "runs each wait on a virtual thread that an event loop carries: the JDK's own scheduler starts no carrier",
           hint = "Thread.ofVirtual() hands its threads to the JDK's scheduler, a ForkJoinPool whose workers (ForkJoinPool-1-worker-1, ...) "
            + "carry them. A builder made with a scheduler of your own (LoopCarriers.on(ctx.executor())) hands each start and each "
            + "wake-up to the connection's event loop instead, which runs it as a task between two selects.",
           see = "chapters/09-loop-carriers#the-carrier")
    void carriedByLoops() throws Exception {
        try (Clients waiting = new Clients(target).connect(100, 30_000).sendAll(Client.request("GET", "/io?ms=1500"))) {
            // Watch the server, not the clock: dumps until half the waits are seen parked, or 3 s.
            List<List<Inspect.ThreadInfo>> dumps = Watch.dumps(target, 3000, d -> Watch.count(d, PARKED) >= 50);
            long parked = Watch.most(dumps, PARKED);
            List<String> carriers = dumps.stream().flatMap(List::stream).filter(t -> !t.virtual() && t.name().matches(JDK_CARRIER))
                    .map(Inspect.ThreadInfo::label).distinct().toList();
            assertTrue(parked >= 50, "of 100 requests of /io?ms=1500 in flight, at most " + parked + " were waiting on virtual threads"
                    + " (" + dumps.size() + " thread dumps): the waits run elsewhere (on a loop, or on a pool of platform threads)");
            assertTrue(carriers.isEmpty(), "the JDK's own scheduler carries virtual threads here (" + String.join(", ", carriers)
                    + "): the waits' virtual threads are not carried by the event loops");
            for (Client c : waiting) c.read().assertStatus(200);
        }
    }

    /** A virtual thread parked in /io's wait. */
    static final java.util.function.Predicate<Inspect.ThreadInfo> PARKED = t -> t.virtual() && Watch.inIoWait(t);
    // end::carried[]

    @Check(order = 9, timeline = true, title = "burns /cpu on platform threads, not on a virtual thread that a loop carries, and no loop waits for it",
           hint = "A virtual thread runs on its carrier until it parks, and CPU work does not park: carried by a loop, /cpu holds that loop "
            + "and every connection on it for the whole burn. Give Burn work to a pool of one platform thread per core; only waits "
            + "go to the loop's virtual threads.",
           see = "chapters/09-loop-carriers#cpu-leaves-the-loop")
    void cpuOffLoop() throws Exception {
        Ch06Checks.assertCpuOffLoop(target, true);
    }

    @Check(order = 2, timeline = true, title = "answers GET / during a flood of 500 /io?ms=1000: each wait parks, and no loop sleeps in one",
           hint = "A wait that runs on the loop itself (not on a virtual thread it carries) sleeps the loop: every connection of it waits. "
            + "Start the wait on the connection's virtual threads; when it sleeps, its continuation leaves the loop free.",
           see = "chapters/09-loop-carriers#the-carrier")
    void ioFlood() throws Exception {
        Ch06Checks.assertIoFlood(target);
    }

    @Check(order = 3, title = "keeps answers in request order when pipelined work finishes out of order",
           hint = "Each answer goes back to the loop (ctx.executor().execute) and waits in the connection's queue for the ones before it.",
           see = "chapters/09-loop-carriers#the-carrier")
    void inOrder() throws Exception {
        Ch06Checks.assertInOrder(target);
    }
}
