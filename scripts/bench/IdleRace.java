package bench;

import contract.BenchReport;
import contract.Plan;
import contract.Stats;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * The idle workload: for each server in turn, heap (after a full GC) and RSS before, open the
 * idle keep-alive connections ({@link Connections}, from this host's own address), heap and RSS with them, close them.
 */
public final class IdleRace {
    private IdleRace() {}

    /** How many idle connections to open, and why fewer than {@link #WANTED} (null when not). */
    record Budget(int connections, String note) {}

    static final int WANTED = 10_000;

    /** What this process can open (the JVM raised its soft limit of open files to the hard one at start). */
    static Budget budget() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.UnixOperatingSystemMXBean os) {
            long max = os.getMaxFileDescriptorCount();
            long free = max - os.getOpenFileDescriptorCount() - 256;
            if (free < WANTED) {
                int scaled = (int) Math.max(100, free);
                return new Budget(scaled, "this process may open only " + max + " files (ulimit -n): the idle workload opens "
                        + scaled + " connections instead of " + WANTED + "; raise the limit with 'ulimit -n 20000'");
            }
        }
        return new Budget(WANTED, null);
    }

    /** One result per server, in their order; a server that stopped earlier is skipped. */
    static List<BenchReport.Result> run(Plan.Workload w, List<Server> servers, int connections, Progress progress) {
        List<BenchReport.Result> results = new ArrayList<>();
        for (Server s : servers) {
            if (s.gone() != null) {
                progress.skip(12);
                results.add(new BenchReport.SkippedResult(s.id, s.gone(), List.of(s.gone())));
                continue;
            }
            progress.step(w.id() + ": " + s.id + " opens " + connections + " connections", 12);
            List<String> flags = new ArrayList<>();
            List<String> notes = new ArrayList<>();
            BenchReport.IdleFigures figures = null;
            try {
                figures = measure(s, connections);
                if (figures.served() < figures.asked()) flags.add(shortfall(figures, connections));
                String artefact = rssArtefact(figures);
                if (artefact != null) notes.add(artefact); // the JVM's housekeeping, not the server's fault
            } catch (IOException e) {
                flags.add("the idle connections could not be opened: " + e.getMessage());
            }
            if (!s.alive()) {
                s.stoppedAnswering("the server exited during the idle workload");
                flags.add(s.gone());
            }
            results.add(new BenchReport.IdleResult(s.id, BenchReport.Status.MEASURED, figures, flags, null, notes));
            Bench.pause(500);
        }
        return results;
    }

    /** Opens the connections to one server and reads what they cost it, then closes them. */
    private static BenchReport.IdleFigures measure(Server s, int connections) throws IOException {
        double heapBefore = s.heapAfterGc();
        OptionalLong rssBefore = settledRss(s);
        OptionalInt threadsBefore = s.osThreads();
        try (Connections idle = new Connections()) {
            Connections.Opened o = idle.open(s.target.host, s.target.port, connections, 500, 5_000, 3_000);
            Bench.pause(500);
            double heapWith = s.heapAfterGc();
            OptionalLong rssWith = s.residentBytes();
            OptionalInt threadsWith = s.osThreads();
            int served = o.held() + o.closed(); // answered 2xx; the server may have closed some since
            Double rssPerConnection = rssPerConnection(rssBefore, rssWith, served);
            return new BenchReport.IdleFigures(o.asked(), served, o.refused() + o.turnedAway(), o.unanswered(), o.notAttempted(), o.stopped(),
                    Stats.figure(o.seconds()), Stats.figure(heapBefore), Stats.figure(heapWith),
                    Stats.figure(served == 0 ? Double.NaN : (heapWith - heapBefore) / served),
                    boxed(rssBefore), boxed(rssWith), rssPerConnection, boxed(threadsBefore), boxed(threadsWith), boxed(s.maxOpenFiles()));
        }
    }

    /**
     * The server's resident memory once it stops falling (at most 5 s): after a full collection a
     * JVM gives memory back to the system over the next moments (G1 uncommits concurrently), and
     * a reading taken meanwhile would make the connections' cost look smaller, even negative.
     */
    static OptionalLong settledRss(Server s) {
        OptionalLong last = s.residentBytes();
        for (int i = 0; i < 20 && last.isPresent(); i++) {
            Bench.pause(250);
            OptionalLong now = s.residentBytes();
            if (now.isEmpty() || last.getAsLong() - now.getAsLong() < 1 << 20) return now.isEmpty() ? last : now;
            last = now;
        }
        return last;
    }

    /**
     * Resident memory per connection served, or null where it cannot be told: no reading, no
     * connection, or memory that fell while the connections were open (see {@link #rssArtefact}).
     */
    public static Double rssPerConnection(OptionalLong before, OptionalLong with, int served) {
        if (before.isEmpty() || with.isEmpty() || served == 0 || with.getAsLong() < before.getAsLong()) return null;
        return Stats.figure((double) (with.getAsLong() - before.getAsLong()) / served);
    }

    /**
     * Why {@code f} has no RSS per connection although both readings were taken, or null: resident
     * memory that fell while the connections opened says the JVM gave memory back meanwhile, not
     * that a connection costs less than nothing.
     */
    public static String rssArtefact(BenchReport.IdleFigures f) {
        if (f == null || f.served() == 0 || f.rssBeforeBytes() == null || f.rssWithBytes() == null
                || f.rssWithBytes() >= f.rssBeforeBytes()) return null;
        return String.format(Locale.ROOT, "RSS fell from %d to %d MiB while the connections were open: the JVM gave memory back to the"
                        + " system meanwhile, so this run cannot tell RSS per connection (a measurement artefact, not a cost; heap per connection stands)",
                f.rssBeforeBytes() >> 20, f.rssWithBytes() >> 20);
    }

    /** Why fewer were served than asked, with the server's own limit of open files when it is the likely cause. */
    private static String shortfall(BenchReport.IdleFigures f, int connections) {
        Long serverFiles = f.serverMaxOpenFiles();
        return String.format(Locale.ROOT, "served %d of %d idle connections (%d refused, %d unanswered, %d not tried%s)%s",
                f.served(), f.asked(), f.refused(), f.unanswered(), f.notAttempted(),
                f.stopped() == null ? "" : ": " + f.stopped(),
                serverFiles != null && serverFiles < connections + 100
                        ? "; the server may open only " + serverFiles + " files (its ulimit -n)" : "");
    }

    private static Long boxed(OptionalLong v) {
        return v.isPresent() ? v.getAsLong() : null;
    }

    private static Integer boxed(OptionalInt v) {
        return v.isPresent() ? v.getAsInt() : null;
    }
}
