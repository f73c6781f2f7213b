package bench;

import contract.BenchReport;
import contract.Plan;
import contract.Stats;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.function.ToDoubleFunction;
import lib.Painter;

/**
 * The soak ({@code --soak MIN}): each server in turn carries GET /io?ms=200 at {@link #CONNECTIONS}
 * connections for MIN minutes, in windows of {@link #WINDOW_SECONDS} s; after each window, its
 * heap after a full GC, RSS, threads and open files are sampled. A leak shows as a slope: the
 * least-squares line through the samples, per minute. Growth is flagged when the median of the
 * last third of the samples is above the middle third's by more than a floor (4 MiB, 16 files,
 * 8 threads) and, for memory, by over {@link #GROWTH_PERCENT}%. The first third is left out: a
 * heap that grows while the JIT and the pools warm up, then settles, is not a leak.
 */
public final class Soak {
    private Soak() {}

    static final String PATH = "/io?ms=200";
    static final int CONNECTIONS = 1000, WINDOW_SECONDS = 10;
    static final double GROWTH_PERCENT = 10;
    static final double GROWTH_BYTES = 4 * 1024 * 1024;
    /** The longest soak, per server: --soak is bounded, whatever is asked. */
    static final double MAX_MINUTES = 60;

    static final Plan.Workload WORKLOAD = new Plan.Workload("soak", Plan.Group.SOAK, "GET /io?ms=200 with " + CONNECTIONS + " connections, held",
            PATH, CONNECTIONS, 200);

    /** One server's soak of {@code minutes}. */
    static BenchReport.SoakServer run(Server s, Bombardier bombardier, double minutes, Progress progress) {
        if (s.gone() != null) return skipped(s, s.gone());
        String missing = LoadRace.probe(s, WORKLOAD);
        if (missing != null) return skipped(s, missing);
        int windows = windows(minutes);
        List<BenchReport.SoakSample> samples = new ArrayList<>();
        long start = System.nanoTime();
        for (int i = 0; i < windows; i++) {
            progress.step("soak: " + s.id + " window " + (i + 1) + "/" + windows, WINDOW_SECONDS + 2);
            double rps;
            long failed;
            try {
                Bombardier.Result r = bombardier.run(s.url + PATH, CONNECTIONS, WINDOW_SECONDS, WORKLOAD.timeoutSeconds());
                rps = r.rps();
                failed = r.errors() + r.non2xx();
            } catch (IOException e) {
                rps = 0;
                failed = CONNECTIONS;
            }
            if (i == 0 && failed > 0.01 * (rps * WINDOW_SECONDS + failed)) {
                return skipped(s, "its first window at " + CONNECTIONS + " connections lost " + failed
                        + " requests (failed, or no answer in time): it cannot carry this load, so a soak would measure its failures (see the ramp)");
            }
            double at = (System.nanoTime() - start) / 1e9;
            double heap = s.heapAfterGc();
            OptionalLong rss = s.residentBytes();
            OptionalInt threads = s.osThreads();
            OptionalInt files = s.openFiles();
            samples.add(new BenchReport.SoakSample(Stats.figure(at), Stats.figure(rps), failed, Stats.figure(heap),
                    rss.isPresent() ? rss.getAsLong() : null, threads.isPresent() ? threads.getAsInt() : null,
                    files.isPresent() ? files.getAsInt() : null));
            if (!s.alive()) {
                s.stoppedAnswering("the server exited during the soak");
                break;
            }
        }
        return summarize(s.id, samples, s.gone());
    }

    /** How many windows make {@code minutes} (at least 3: a first, a middle and a last third). */
    public static int windows(double minutes) {
        return Math.max(3, (int) Math.round(Math.min(minutes, MAX_MINUTES) * 60 / WINDOW_SECONDS));
    }

    /** The slopes, the median req/s, and what grew, from a server's samples. */
    public static BenchReport.SoakServer summarize(String server, List<BenchReport.SoakSample> samples, String gone) {
        List<String> flags = new ArrayList<>();
        grew(flags, "heap after GC", samples, x -> Stats.known(x.heapAfterGcBytes()), GROWTH_BYTES, true);
        grew(flags, "RSS", samples, x -> x.rssBytes() == null ? Double.NaN : x.rssBytes(), GROWTH_BYTES, true);
        grew(flags, "open files", samples, x -> x.files() == null ? Double.NaN : x.files(), 16, false);
        grew(flags, "threads", samples, x -> x.threads() == null ? Double.NaN : x.threads(), 8, false);
        long failed = samples.stream().mapToLong(BenchReport.SoakSample::failed).sum();
        if (failed > 0) flags.add(failed + " requests lost (failed, or no answer in time)");
        if (gone != null) flags.add(gone);
        return new BenchReport.SoakServer(server, null, Stats.figure(Stats.median(samples.stream().map(x -> Stats.known(x.rps())).toList())),
                failed, Stats.figure(slope(samples, x -> Stats.known(x.heapAfterGcBytes()))),
                Stats.figure(slope(samples, x -> x.rssBytes() == null ? Double.NaN : x.rssBytes())),
                Stats.figure(slope(samples, x -> x.files() == null ? Double.NaN : x.files())),
                Stats.figure(slope(samples, x -> x.threads() == null ? Double.NaN : x.threads())), samples, flags);
    }

    /**
     * Flags a figure whose last third's median is over {@code floor} above its middle third's and,
     * for memory, over {@link #GROWTH_PERCENT}% above it. Files and threads are sampled between
     * windows, with the load's connections closed, so any lasting growth past the floor is a leak.
     */
    private static void grew(List<String> flags, String what, List<BenchReport.SoakSample> samples, ToDoubleFunction<BenchReport.SoakSample> f,
                             double floor, boolean bytes) {
        int third = samples.size() / 3;
        if (third == 0) return;
        double first = Stats.median(samples.subList(third, 2 * third).stream().map(f::applyAsDouble).toList());
        double last = Stats.median(samples.subList(samples.size() - third, samples.size()).stream().map(f::applyAsDouble).toList());
        if (Double.isNaN(first) || Double.isNaN(last)) return;
        if (last - first > floor && (!bytes || last > first * (1 + GROWTH_PERCENT / 100))) {
            flags.add(String.format(Locale.ROOT, "%s grew from %s to %s (the middle third's median to the last third's)", what,
                    bytes ? Stats.bytes(first) : Stats.rate(first), bytes ? Stats.bytes(last) : Stats.rate(last)));
        }
    }

    /** The least-squares slope of a figure per minute, over the samples where it is known; NaN with fewer than 2. */
    static double slope(List<BenchReport.SoakSample> samples, ToDoubleFunction<BenchReport.SoakSample> f) {
        double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
        for (BenchReport.SoakSample s : samples) {
            double y = f.applyAsDouble(s), x = Stats.known(s.atSeconds()) / 60;
            if (Double.isNaN(y) || Double.isNaN(x)) continue;
            n++;
            sx += x;
            sy += y;
            sxx += x * x;
            sxy += x * y;
        }
        double d = n * sxx - sx * sx;
        return n < 2 || d == 0 ? Double.NaN : (n * sxy - sx * sy) / d;
    }

    private static BenchReport.SoakServer skipped(Server s, String why) {
        return new BenchReport.SoakServer(s.id, why, null, 0, null, null, null, null, List.of(), List.of());
    }

    static BenchReport.SoakSummary summary(double minutes, List<BenchReport.SoakServer> servers) {
        return new BenchReport.SoakSummary(PATH, CONNECTIONS, Math.min(minutes, MAX_MINUTES), WINDOW_SECONDS, GROWTH_PERCENT, servers);
    }

    /** Per server: req/s, then each figure's first and last sample and its slope a minute. */
    public static void print(PrintStream out, BenchReport.SoakSummary soak, Painter p) {
        out.println();
        out.println(p.bold("The soak") + String.format(Locale.ROOT, "  GET %s at %d connections for %s min a server, sampled every %d s;"
                + " growth flagged past %s%% (the middle third of the samples to the last)", soak.path(), soak.connections(),
                minutes(soak.minutes()), soak.windowSeconds(), Stats.millis(soak.growthPercent())));
        out.println(p.dim(String.format(Locale.ROOT, "  %-10s %8s %21s %21s %15s %15s", "server", "req/s", "heap after GC", "RSS",
                "open files", "threads")));
        for (BenchReport.SoakServer s : soak.servers()) {
            if (s.skipReason() != null) {
                out.println(String.format(Locale.ROOT, "  %-10s ", s.server()) + p.dim("sat out: " + s.skipReason()));
                continue;
            }
            List<BenchReport.SoakSample> x = s.samples();
            BenchReport.SoakSample a = x.get(0), z = x.get(x.size() - 1);
            out.println(String.format(Locale.ROOT, "  %-10s %8s %21s %21s %15s %15s", s.server(), Stats.rate(Stats.known(s.rps())),
                    Stats.bytes(Stats.known(a.heapAfterGcBytes())) + " > " + Stats.bytes(Stats.known(z.heapAfterGcBytes())),
                    Stats.bytes(a.rssBytes() == null ? Double.NaN : a.rssBytes()) + " > " + Stats.bytes(z.rssBytes() == null ? Double.NaN : z.rssBytes()),
                    a.files() + " > " + z.files(), a.threads() + " > " + z.threads()));
            out.println(p.dim(String.format(Locale.ROOT, "  %-10s %8s %21s %21s %15s %15s", "", "a minute:",
                    signed(Stats.bytes(Math.abs(Stats.known(s.heapBytesPerMinute()))), s.heapBytesPerMinute()),
                    signed(Stats.bytes(Math.abs(Stats.known(s.rssBytesPerMinute()))), s.rssBytesPerMinute()),
                    signed(String.format(Locale.ROOT, "%.1f", Math.abs(Stats.known(s.filesPerMinute()))), s.filesPerMinute()),
                    signed(String.format(Locale.ROOT, "%.1f", Math.abs(Stats.known(s.threadsPerMinute()))), s.threadsPerMinute()))));
            java.util.DoubleSummaryStatistics heap = x.stream().mapToDouble(y -> Stats.known(y.heapAfterGcBytes())).filter(v -> !Double.isNaN(v))
                    .summaryStatistics();
            double min = heap.getCount() == 0 ? 0 : heap.getMin(), max = heap.getCount() == 0 ? 0 : heap.getMax();
            double top = Math.max(max, min + GROWTH_BYTES); // Why: a few KiB of noise must not fill the line
            out.println(String.format(Locale.ROOT, "  %-10s %s", "", Stats.sparkline(x.stream().map(BenchReport.SoakSample::heapAfterGcBytes).toList(), min, top))
                    + p.dim(String.format(Locale.ROOT, "  heap after GC, sample by sample: %s at the bottom, %s at the top",
                            Stats.bytes(min), Stats.bytes(top))));
            for (String f : s.flags()) out.println(p.red("  ! ") + s.server() + ": " + f);
        }
    }

    private static String signed(String magnitude, Double value) {
        return value == null ? "-" : (value < 0 ? "-" : "+") + magnitude;
    }

    /** Minutes as people write them: 10, 1.5, 0.1. */
    public static String minutes(double m) {
        return m == Math.rint(m) ? String.valueOf((long) m) : String.format(Locale.ROOT, "%.1f", m).replaceAll("\\.0$", "");
    }
}
