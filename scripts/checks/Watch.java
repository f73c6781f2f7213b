package checks;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import lib.Inspect;
import lib.Target;

/**
 * What a server holds while requests are in flight, seen in its thread dumps, one after another:
 * the checks that ask how much it does at once, or which thread waits where, read these instead of
 * timing the answers, so a busy machine slows them down but does not change their verdict.
 */
final class Watch {
    private Watch() {}

    /**
     * Thread dumps of the server taken one after another until one satisfies {@code enough}, or
     * {@code ms} have passed (at least one dump, and one more after the deadline only if none was taken).
     */
    static List<List<Inspect.ThreadInfo>> dumps(Target target, long ms, Predicate<List<Inspect.ThreadInfo>> enough) throws IOException {
        List<List<Inspect.ThreadInfo>> dumps = new ArrayList<>();
        Elapsed watching = Elapsed.start();
        do {
            List<Inspect.ThreadInfo> dump = target.inspect().threads();
            dumps.add(dump);
            if (enough.test(dump)) break;
        } while (watching.ms() < ms);
        return dumps;
    }

    /** The most threads of one dump that {@code which} selects. */
    static long most(List<List<Inspect.ThreadInfo>> dumps, Predicate<Inspect.ThreadInfo> which) {
        return dumps.stream().mapToLong(d -> d.stream().filter(which).count()).max().orElse(0);
    }

    /** How many threads of one dump {@code which} selects. */
    static long count(List<Inspect.ThreadInfo> dump, Predicate<Inspect.ThreadInfo> which) {
        return dump.stream().filter(which).count();
    }

    /** A thread asleep in the protocol's /io wait (the kit's Thread.sleep; a virtual thread's shows as VirtualThread.sleepNanos). */
    static boolean inIoWait(Inspect.ThreadInfo t) {
        return t.stack().stream().anyMatch(f -> f.contains("Thread.sleep"));
    }

    /** A virtual thread parked in the protocol's /io wait. */
    static boolean waitsOnVirtual(Inspect.ThreadInfo t) {
        return t.virtual() && inIoWait(t);
    }

    /** A thread burning the protocol's /cpu (the kit's Endpoints.burnCpu). */
    static boolean burning(Inspect.ThreadInfo t) {
        return t.stack().stream().anyMatch(f -> f.contains("burnCpu"));
    }

    /** The first of a thread's frames that {@code which} selects, shortened to its method: "java.util.concurrent.FutureTask.get". */
    static String frame(Inspect.ThreadInfo t, Predicate<String> which) {
        return t.stack().stream().filter(which).findFirst().map(f -> f.contains("(") ? f.substring(0, f.indexOf('(')) : f).orElse("?");
    }

    /** Requests per round of {@link #assertThreadsStay}, of each kind. */
    static final int ROUND = 16;

    /** Platform threads that {@link #assertThreadsStay}'s 96 requests may leave: pools that start lazily stay under it. */
    static final int THREADS_LEFT = 16;

    /**
     * What the server holds does not grow with the requests: after a round of /cpu and /io to warm
     * every pool, three more rounds (96 requests on new connections) leave at most
     * {@value #THREADS_LEFT} more platform threads. A pool, a client or an executor made per request
     * and never shut down leaves its threads behind, one or more per request.
     */
    static void assertThreadsStay(Target target) throws Exception {
        round(target);
        List<Inspect.ThreadInfo> before = target.inspect().platformThreads();
        for (int i = 0; i < 3; i++) round(target);
        List<Inspect.ThreadInfo> after = target.inspect().platformThreads();
        if (after.size() <= before.size() + THREADS_LEFT) return;
        throw new AssertionError("the server had " + before.size() + " platform threads after a first round of /cpu and /io, and "
                + after.size() + " after " + (3 * 2 * ROUND) + " more requests: its threads grow with the requests (new: " + grown(before, after) + ")");
    }

    /** The threads of {@code after} not in {@code before}, counted by name with numbers as N: {worker-N=496}. */
    static java.util.Map<String, Long> grown(List<Inspect.ThreadInfo> before, List<Inspect.ThreadInfo> after) {
        java.util.Set<String> old = new java.util.HashSet<>(before.stream().map(Inspect.ThreadInfo::label).toList());
        return after.stream().map(Inspect.ThreadInfo::label).filter(n -> !old.contains(n))
                .collect(java.util.stream.Collectors.groupingBy(n -> n.replaceAll("\\d+", "N"), java.util.TreeMap::new, java.util.stream.Collectors.counting()));
    }

    /** {@value #ROUND} requests of /cpu?ms=1 and {@value #ROUND} of /io?ms=5, at once, each on a new connection, all answered 200. */
    private static void round(Target target) throws Exception {
        try (Clients clients = new Clients(target).connect(2 * ROUND, 30_000)) {
            int i = 0;
            for (Client c : clients) c.send(Client.request("GET", i++ % 2 == 0 ? "/cpu?ms=1" : "/io?ms=5"));
            for (Client c : clients) c.read().assertStatus(200);
        }
    }
}
