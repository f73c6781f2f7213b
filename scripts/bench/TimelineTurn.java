package bench;

import contract.BenchReport;
import contract.Plan;
import contract.Stats;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import lib.Others;
import lib.Painter;
import lib.Timeline;
import lib.Unavailable;

/**
 * scripts/bench.sh NN --timeline WORKLOAD: once the race's measured turns are over, one more turn
 * of that workload for the learner's server, then the reference, each while {@link Timeline}
 * records its threads, written as {@code .results/timeline/NN-WORKLOAD.json} and
 * {@code NN-WORKLOAD-reference.json} (beside the race's JSON, in {@code timeline/}, when --out
 * names it), which the chapter's page draws. The turn is a measured turn's load
 * ({@link LoadRace#measureOnce}: the same connections, request and CPU reading), run twice, the
 * same length each: unrecorded, then recorded; the server's CPU per 2xx answer in the second
 * beside the first is what recording cost it. The race's measured figures never include either.
 * A server that is not a JVM, or cannot be looked into, gets
 * no timeline and a sentence saying why; the race goes on. Bench calls {@link #run} and
 * {@link #print}.
 */
public final class TimelineTurn {
    /** How long the recorded turn loads each server. */
    public static final int SECONDS = 4;

    private TimelineTurn() {}

    /**
     * Records one turn of {@code w} for the learner's server and the reference of {@code servers},
     * with {@code load} (Bombardier on the workload's CPUs).
     */
    static BenchReport.Timelines run(RaceOptions o, Plan.Workload w, List<Server> servers, LoadRace load, Progress progress) {
        List<BenchReport.Recorded> recorded = new ArrayList<>();
        for (BenchReport.Role role : List.of(BenchReport.Role.LEARNER, BenchReport.Role.REFERENCE)) {
            for (Server s : servers) {
                if (s.role != role) continue;
                progress.step(w.id() + ": " + s.id + " recorded for its timeline", 2 * SECONDS + 3);
                recorded.add(record(o.root(), dir(o), fileName(o.chapter(), w, role), o.chapter(), w, s, load));
                Bench.pause(100);
            }
        }
        return new BenchReport.Timelines(w.id(), SECONDS, recorded);
    }

    /** Where the timelines go: the learner's results, or beside the race's JSON when --out names it (the self-test's races). */
    static Path dir(RaceOptions o) {
        if (o.out() == null) return o.root().resolve(Timeline.LEARNER);
        Path parent = o.out().toAbsolutePath().getParent();
        return parent.resolve("timeline");
    }

    /** The timeline's name: "04-hello" for the learner's server, "04-hello-reference" for the reference. */
    public static String fileName(String chapter, Plan.Workload w, BenchReport.Role role) {
        return chapter + "-" + w.id() + (role == BenchReport.Role.LEARNER ? "" : "-" + role.label());
    }

    /**
     * One server's recorded turn, written as {@code NAME.json} in {@code dir}: a turn unrecorded,
     * then the recording starts, the same turn runs again, the recording stops. A server it cannot
     * record gets a note instead of a file.
     */
    public static BenchReport.Recorded record(Path root, Path dir, String name, String chapter, Plan.Workload w, Server s, LoadRace load) {
        Double measured = null;
        if (s.gone() != null) return skipped(s, "it stopped answering during the race", measured);
        if (s.inspect == null) return skipped(s, "its process is not known", measured);
        if (Boolean.FALSE.equals(s.inspect.javaProcess())) return notJava(s);
        try {
            measured = Stats.figure(Tally.cpuMillisPerRequest(List.of(load.measureOnce(w, s, SECONDS))) * 1000);
        } catch (IOException e) {
            return skipped(s, "its unrecorded turn failed (" + e.getMessage() + ")", null);
        }
        Timeline.Recording recording;
        try {
            recording = Timeline.start(s.inspect);
        } catch (Unavailable e) {
            return notJava(s);
        } catch (IOException | RuntimeException e) {
            return skipped(s, "it could not be recorded (" + e.getMessage() + ")", measured);
        }
        Tally.Run run;
        try {
            run = load.measureOnce(w, s, SECONDS);
        } catch (IOException e) {
            recording.discard();
            return skipped(s, "its recorded turn failed (" + e.getMessage() + ")", measured);
        }
        Double cost = Stats.figure(Tally.cpuMillisPerRequest(List.of(run)) * 1000);
        String busy = Others.busy(run.othersCores())
                ? "other processes used " + Others.words(run.othersCores()) + " during the recorded turn: the cost may be partly theirs" : null;
        try {
            Timeline.Doc d = recording.stop(chapter, w.id(), w.description(), s.label);
            Timeline.Doc doc = new Timeline.Doc(d.schema(), d.chapter(), d.what(), d.title(), d.server(), d.recorded(), d.cores(), d.sliceMs(),
                    d.slices(), d.lanes(), d.virtual(), d.events(), d.states(), d.notes(), new Timeline.Overhead(cost, measured));
            Path file = Timeline.write(root, dir, name, doc);
            String shown = file.toAbsolutePath().startsWith(root.toAbsolutePath()) ? root.toAbsolutePath().relativize(file.toAbsolutePath()).toString() : file.toString();
            return new BenchReport.Recorded(s.id, shown, cost, measured, busy);
        } catch (IOException | RuntimeException e) {
            return skipped(s, "its recording could not be read (" + e.getMessage() + ")", measured);
        }
    }

    private static BenchReport.Recorded notJava(Server s) {
        return skipped(s, "it is not a Java process" + (s.target == null || s.target.pid() == null ? "" : " (pid " + s.target.pid() + ")")
                + ", and the flight recorder records JVMs only", null);
    }

    private static BenchReport.Recorded skipped(Server s, String why, Double measured) {
        return new BenchReport.Recorded(s.id, null, null, measured, "no timeline: " + why);
    }

    /** The report's lines: each server's timeline, one line, and what recording cost it, or why it has none. */
    public static void print(PrintStream out, BenchReport.Timelines t, Painter p) {
        out.println();
        out.println(p.bold("Timelines of " + t.workload()) + p.dim("  (one more turn of " + t.seconds()
                + " s a server after the measured ones, unrecorded then recorded by the JVM's flight recorder; the chapter's page draws them)"));
        out.println(p.dim("  Two turns of the same server vary by a few percent unrecorded too (the measured turns' spread is in the JSON): a difference of that size is noise, not cost."));
        for (BenchReport.Recorded r : t.servers()) {
            String who = String.format(Locale.ROOT, "  %-10s ", r.server());
            if (r.file() == null) {
                out.println(who + r.note());
                continue;
            }
            out.println(who + r.file());
            out.println(" ".repeat(who.length()) + p.dim(cost(r.cpuMicrosPerRequestRecorded(), r.cpuMicrosPerRequestMeasured())
                    + (r.note() == null ? "" : "; " + r.note())));
        }
    }

    /** "recording cost: 41.2 µs/req while recorded against 39.8 µs/req unrecorded (+3.5%)"; a figure unknown says so. */
    public static String cost(Double recorded, Double measured) {
        double a = Stats.known(recorded);
        double b = Stats.known(measured);
        if (Double.isNaN(a) || Double.isNaN(b) || b <= 0) {
            return "recording cost: unknown (" + (Double.isNaN(a) ? "no CPU per request while recorded" : "no CPU per request in the unrecorded turn") + ")";
        }
        return "recording cost: " + Report.micros(a) + " µs/req while recorded against " + Report.micros(b) + " µs/req in a turn as long just before, unrecorded ("
                + String.format(Locale.ROOT, "%+.1f%%", (a / b - 1) * 100) + ")";
    }
}
