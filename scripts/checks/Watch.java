import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

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

    /** A thread burning the protocol's /cpu (the kit's Endpoints.burnCpu). */
    static boolean burning(Inspect.ThreadInfo t) {
        return t.stack().stream().anyMatch(f -> f.contains("burnCpu"));
    }

    /** The first of a thread's frames that {@code which} selects, shortened to its method: "java.util.concurrent.FutureTask.get". */
    static String frame(Inspect.ThreadInfo t, Predicate<String> which) {
        return t.stack().stream().filter(which).findFirst().map(f -> f.contains("(") ? f.substring(0, f.indexOf('(')) : f).orElse("?");
    }
}
