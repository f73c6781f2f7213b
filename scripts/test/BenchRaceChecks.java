package test;

import contract.BenchReport;
import contract.ConnectionsReport;
import contract.Plan;
import contract.Stats;
import contract.Verdict;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import lib.Inspect;
import lib.Jackson;
import lib.Others;
import lib.Outcomes;
import lib.Timeline;

/**
 * What the JSON of a race must hold, one method a race: a smoke run, a self-race, a server made
 * slower on purpose, db and mixed, chapter 08's trips, a ramp, an open loop, the connections
 * phase, a server started with --command, a race with --timeline (and the timelines it wrote).
 * TestBench calls one on a file (--smoke FILE and the like), BenchRaces each on the race it runs
 * (--races); each check is recorded in {@link #checked}, named after {@link #about}.
 */
final class BenchRaceChecks {
    private BenchRaceChecks() {}

    /** The score of the checks of results files: TestBench and BenchRaces set it before they check. */
    static Outcomes checked;

    /** What {@link #check} puts before a name: the race it is about, in {@code --races}. */
    static String about = "";

    static void check(String name, boolean ok, String why) {
        checked.record(about + name, ok, why);
    }

    /** The names, of name-value pairs, whose value is null. */
    static List<String> missing(Object... namesAndValues) {
        List<String> absent = new ArrayList<>();
        for (int i = 0; i < namesAndValues.length; i += 2) if (namesAndValues[i + 1] == null) absent.add((String) namesAndValues[i]);
        return absent;
    }

    /** What a smoke run's results must hold: every field a web page reads, no errors, a ratio near 1. */
    static void smoke(Path file) throws Exception {
        BenchReport report;
        try {
            report = BenchReport.read(Files.readString(file));
            check("the smoke run wrote its results as JSON", true, "");
        } catch (Exception e) {
            check("the smoke run wrote its results as JSON", false, file + ": " + e.getMessage());
            return;
        }
        check("results name their schema", BenchReport.SCHEMA.equals(report.schema()), "schema " + report.schema());
        BenchReport.Machine m = report.machine();
        List<String> missing = m == null ? List.of("machine") : missing("cores", m.cores() > 0 ? m.cores() : null, "cpuModel", m.cpuModel(),
                "memoryBytes", m.memoryBytes(), "os", m.os(), "java", m.java(), "jbang", m.jbang(), "bombardier", m.bombardier(),
                "pinning", m.pinning());
        if (m != null && m.os() != null) missing.addAll(missing("name", m.os().name(), "version", m.os().version(), "arch", m.os().arch()));
        check("results describe the machine (cores, OS, Java, JBang, Bombardier, pinning)", missing.isEmpty(), "missing " + missing);
        BenchReport.Methodology method = report.methodology();
        check("results describe the methodology (warm-ups, runs, durations)", method != null && method.mode() != null
                && method.warmups() > 0 && method.warmupSeconds() > 0 && method.runs() > 0 && method.runSeconds() > 0
                && method.statistic() != null && method.order() != null, "methodology " + method);
        List<BenchReport.ServerEntry> servers = report.servers() == null ? List.of() : report.servers();
        check("results list the learner and the reference, with their processes", servers.size() == 2
                && servers.stream().allMatch(s -> s.pid() != null), "servers " + servers);
        List<BenchReport.WorkloadEntry> workloads = report.workloads() == null ? List.of() : report.workloads();
        BenchReport.WorkloadEntry hello = workloads.isEmpty() ? null : workloads.get(0);
        check("the smoke run measured the hello workload", hello != null && "hello".equals(hello.id()), "workloads " + workloads.size());
        if (hello != null) {
            BenchReport.CpuSplit cpus = hello.cpus();
            boolean pinned = m != null && m.pinned();
            check("hello states how it shared the CPUs" + (pinned ? ", and the servers were pinned to theirs" : ""),
                    cpus != null && cpus.words() != null && (!pinned || cpus.servers() != null && servers.stream().allMatch(BenchReport.ServerEntry::pinned)),
                    "cpus " + cpus + ", servers " + servers);
        }
        for (BenchReport.Result result : hello == null ? List.<BenchReport.Result>of() : hello.results()) {
            String who = result.server();
            if (!(result instanceof BenchReport.LoadResult r)) {
                check(who + ": measured", false, "status " + result.status() + ", flags " + result.flags());
                continue;
            }
            List<String> fields = missing("rps", r.rps(), "latencyMs", r.latencyMs(), "cpuSeconds", r.cpuSeconds(),
                    "cpuMillisPerRequest", r.cpuMillisPerRequest(), "peakRssBytes", r.peakRssBytes(), "peakThreads", r.peakThreads(),
                    "ratio", r.ratio(), "runs", r.runs(), "warmups", r.warmups());
            check(who + ": every figure is there (rps, latency, errors, CPU, RSS, threads, ratio, raw runs)", fields.isEmpty(), "missing " + fields);
            int runs = r.runs() == null ? 0 : r.runs().size();
            check(who + ": 2 measured runs and 1 warm-up, kept raw", runs == 2 && r.warmups() != null && r.warmups().size() == 1, "runs " + runs);
            check(who + ": no errors, timeouts or non-2xx answers", r.errors() + r.non2xx() == 0 && r.flags().isEmpty(), "flags " + r.flags());
            // Linux's /proc shows each thread's switches; the portable inspection (as on macOS) does not, and the JSON then has none.
            boolean proc = Inspect.procWanted();
            check(who + ": " + (proc ? "each run counts" : "no run claims") + " the server's context switches per request",
                    r.runs() != null && (r.contextSwitchesPerRequest() != null) == proc
                            && r.runs().stream().allMatch(x -> (x.contextSwitchesPerRequest() != null) == proc),
                    "contextSwitchesPerRequest " + r.contextSwitchesPerRequest() + ", runs " + r.runs());
            check(who + ": each run says what other processes used meanwhile, and none was busy (a quiet machine)", r.runs() != null
                    && r.runs().stream().allMatch(x -> x.othersCores() != null && !Others.busy(x.othersCores())), "runs " + r.runs());
            double ratio = r.ratio() == null ? Double.NaN : Stats.known(r.ratio().rps());
            check(who + ": the same server races itself within a factor of 2 (ratio " + Stats.times(ratio) + ")",
                    ratio >= 0.5 && ratio <= 2, "ratio " + ratio);
        }
        check("the run was not flagged (exit 0 recorded)", report.exit() == 0, "flags " + report.flags());
    }

    /**
     * A race of chapter 03 on db and mixed. db: the servers got the bench's pool options (a wait
     * of 1 s, the default, would refuse most of 2000 connections with 503) and reached at least
     * half the pool's bound. mixed: the background /cpu load ran (it keeps a one-loop server's
     * CPU busy; GET / alone at 500 a second costs it a few percent).
     */
    static void dbMixed(Path file) throws Exception {
        BenchReport report = BenchReport.read(Files.readString(file));
        double runSeconds = report.methodology().runSeconds();
        int seen = 0;
        for (BenchReport.WorkloadEntry w : report.workloads()) {
            for (BenchReport.Result result : w.results()) {
                if (!(result instanceof BenchReport.LoadResult r)) {
                    check(w.id() + " " + result.server() + ": measured", false, "status " + result.status() + ", flags " + result.flags());
                    continue;
                }
                if ("db".equals(w.id())) {
                    seen++;
                    atHalfTheBound("db " + r.server() + ": every query answered 2xx", "the pool's bound", r);
                } else if ("mixed".equals(w.id())) {
                    seen++;
                    double busy = Stats.known(r.cpuSeconds()) / runSeconds;
                    check("mixed " + r.server() + ": the background /cpu load ran (the server's CPU " + Math.round(busy * 100)
                            + "% busy in a run, at least 50%)", busy >= 0.5 && r.errors() + r.non2xx() == 0, "flags " + r.flags());
                }
            }
        }
        check("the race measured db and mixed for both servers", seen == 4, seen + " results");
    }

    /** A sleep-bound result: every answer 2xx, at least half its bound, unflagged. */
    static void atHalfTheBound(String what, String bound, BenchReport.LoadResult r) {
        double percent = Stats.known(r.percentOfBound());
        check(what + ", at " + Stats.figure(percent) + "% of " + bound + " (at least 50%)",
                r.errors() + r.non2xx() == 0 && percent >= 50 && r.flags().isEmpty(), "non-2xx " + r.non2xx() + ", flags " + r.flags());
    }

    /**
     * A server in another language that the race starts (--command): the independent Python
     * server, raced with its process known (so its CPU is measured) against the reference.
     */
    static void command(Path file) throws Exception {
        BenchReport report = BenchReport.read(Files.readString(file));
        BenchReport.ServerEntry learner = report.servers().stream().filter(s -> s.role() == BenchReport.Role.LEARNER).findFirst().orElse(null);
        check("--command: the learner is the command the race started, with its process", learner != null
                && learner.label().equals("python3 -u scripts/test/independent/server.py") && learner.pid() != null, String.valueOf(learner));
        BenchReport.WorkloadEntry hello = report.workloads().isEmpty() ? null : report.workloads().get(0);
        check("--command: hello measured both, the Python server's CPU time per request among them", hello != null && hello.results().size() == 2
                && hello.results().stream().allMatch(r -> r instanceof BenchReport.LoadResult l && l.measured() && l.rps() != null && l.rps() > 0
                        && l.cpuMillisPerRequest() != null), hello == null ? "no workload" : String.valueOf(hello.results()));
        List<BenchReport.Recorded> recorded = report.timeline() == null ? List.of() : report.timeline().servers();
        check("--command --timeline: the Python server has no timeline, and one sentence says why; the reference's is written",
                recorded.size() == 2 && recorded.get(0).file() == null && recorded.get(0).note() != null && recorded.get(0).note().contains("not a Java process")
                        && recorded.get(1).file() != null, String.valueOf(report.timeline()));
    }

    /**
     * Chapter 04's smoke race with --timeline hello, begun at {@code began}: both timelines written
     * since, in timeline/ beside the race's JSON {@code file} (--out: the checkout's results are the
     * learner's), each of schema course-timeline/1 with a
     * lane of an event loop and the recording's cost, which the race's JSON keeps too.
     */
    static void timeline(Path root, java.time.Instant began, Path file) throws Exception {
        BenchReport.Timelines t = BenchReport.read(Files.readString(file)).timeline();
        check("the race's JSON names the workload recorded and each server's timeline and cost", t != null && "hello".equals(t.workload())
                && t.servers().size() == 2 && t.servers().stream().allMatch(r -> r.file() != null && r.cpuMicrosPerRequestRecorded() != null
                && r.cpuMicrosPerRequestMeasured() != null), String.valueOf(t));
        for (String name : List.of("04-hello", "04-hello-reference")) {
            Path path = file.toAbsolutePath().getParent().resolve("timeline").resolve(name + ".json");
            if (!Files.isRegularFile(path)) {
                check(name + ".json: written", false, "no " + path);
                continue;
            }
            Timeline.Doc doc = Jackson.read(Files.readString(path), Timeline.Doc.class);
            check(name + ".json: written by this race, schema " + Timeline.SCHEMA + ", the workload hello", Timeline.SCHEMA.equals(doc.schema())
                    && !java.time.Instant.parse(doc.recorded()).isBefore(began) && "hello".equals(doc.what())
                    && Plan.pick("hello").get(0).description().equals(doc.title()), doc.schema() + ", recorded " + doc.recorded() + ", what " + doc.what());
            check(name + ".json: a lane of an event loop", doc.lanes().stream().anyMatch(l -> "loop".equals(l.role())),
                    "lanes " + doc.lanes().stream().map(l -> l.name() + " (" + l.role() + ")").toList());
            Timeline.Overhead o = doc.overhead();
            check(name + ".json: the recording's cost, CPU per request while recorded and in a turn as long unrecorded", o != null
                    && o.cpuMicrosPerRequestRecorded() != null && o.cpuMicrosPerRequestRecorded() > 0
                    && o.cpuMicrosPerRequestMeasured() != null && o.cpuMicrosPerRequestMeasured() > 0, String.valueOf(o));
        }
    }

    /**
     * A smoke ramp of chapter 03 (its first two steps, 100 and 250 connections): both servers
     * held both steps, the summary says so, and the steps' results are there to draw the curve.
     */
    static void ramp(Path file) throws Exception {
        BenchReport report = BenchReport.read(Files.readString(file));
        BenchReport.RampSummary ramp = report.ramp();
        check("the ramp wrote its summary", ramp != null, "no ramp in " + file);
        if (ramp == null) return;
        check("the ramp ran its first two steps, 100 and 250 connections", ramp.steps().equals(List.of(100, 250))
                && report.workloads().stream().allMatch(w -> w.group() == Plan.Group.RAMP), "steps " + ramp.steps());
        for (BenchReport.BreakingPoint b : ramp.servers()) {
            check("ramp " + b.server() + ": held 250 connections (a reactor breaks far later)", Integer.valueOf(250).equals(b.held())
                    && b.brokeAt() == null, String.valueOf(b));
        }
        check("the ramp measured both servers", ramp.servers().size() == 2, ramp.servers().size() + " servers");
        check("a ramp's errors do not fail the race (exit 0 recorded)", report.exit() == 0, "flags " + report.flags());
    }

    /** The open loop: both servers got the rate from Vegeta and from Bombardier, lost nothing, and their percentiles are in order. */
    static void openLoop(Path file) throws Exception {
        BenchReport report = BenchReport.read(Files.readString(file));
        BenchReport.OpenLoopSummary open = report.openLoop();
        check("the open loop wrote its summary", open != null, "no openLoop in " + file);
        if (open == null) return;
        check("the open loop measured both servers", open.servers().size() == 2, open.servers().size() + " servers");
        for (BenchReport.OpenLoopServer s : open.servers()) {
            for (BenchReport.OpenLoopRun run : java.util.Arrays.asList(s.openLoop(), s.closedLoop())) {
                String what = "open loop " + s.server() + (run == null ? "" : ", " + run.tool());
                check(what + ": ran, lost nothing, answered at about the rate (within 20%), p50 <= p99 <= max", run != null && run.lost() == 0
                        && run.achievedRps() != null && Math.abs(run.achievedRps() - open.rate()) <= 0.2 * open.rate()
                        && run.p50Ms() != null && run.p99Ms() != null && run.maxMs() != null
                        && run.p50Ms() <= run.p99Ms() && run.p99Ms() <= run.maxMs(), String.valueOf(run));
            }
            check("open loop " + s.server() + ": Vegeta's p99.9 is there", s.openLoop() != null && s.openLoop().p999Ms() != null, String.valueOf(s.openLoop()));
        }
    }

    /**
     * The connections phase, small: each server held every connection asked (from 127.0.0.2;
     * ConnectionsTests spreads them over several addresses), answered its active share, accepted a new connection after, and no cost
     * per connection below zero.
     */
    static void connections(Path file) throws Exception {
        ConnectionsReport.Summary c = BenchReport.read(Files.readString(file)).connections();
        check("the connections phase wrote its summary", c != null, "no connections in " + file);
        if (c == null) return;
        check("the connections phase measured both servers", c.servers().size() == 2, c.servers().size() + " servers");
        for (ConnectionsReport.Server s : c.servers()) {
            ConnectionsReport.Opened o = s.opened();
            check("connections " + s.server() + ": held all " + c.asked(), o != null && o.held() == c.asked(), String.valueOf(o));
            ConnectionsReport.Active a = s.active();
            check("connections " + s.server() + ": its active share was answered (90% or more), p99 at least the 200 ms wait",
                    a != null && a.answeredPercent() != null && a.answeredPercent() >= 90 && a.p99Ms() != null && a.p99Ms() >= 200, String.valueOf(a));
            ConnectionsReport.Cost k = s.costs();
            check("connections " + s.server() + ": no cost per connection below zero, heap per connection measured",
                    k != null && k.heapPerConnectionBytes() != null && java.util.stream.Stream.of(k.heapPerConnectionBytes(),
                            k.rssPerConnectionBytes(), k.tcpMemPerConnectionBytes(), k.tcpSlabPerConnectionBytes())
                            .allMatch(v -> v == null || v >= 0), String.valueOf(k));
            check("connections " + s.server() + ": accepts a new connection after", Boolean.TRUE.equals(s.acceptsAfter()), String.valueOf(s.acceptsAfter()));
            check("connections " + s.server() + ": a reading that fell is a note, not a flag (other processes' sockets are not the server's doing)",
                    s.flags().stream().noneMatch(f -> f.contains("artefact")), String.valueOf(s.flags()));
        }
    }

    /** Chapter 08's race: both servers made their trips through the backend the race started. */
    static void trip(Path file) throws Exception {
        BenchReport report = BenchReport.read(Files.readString(file));
        int seen = 0;
        for (BenchReport.WorkloadEntry w : report.workloads()) {
            for (BenchReport.Result result : w.results()) {
                if ("trip".equals(w.id()) && result instanceof BenchReport.LoadResult r) {
                    seen++;
                    atHalfTheBound("trip " + r.server() + ": every trip answered 2xx", "Little's bound", r);
                }
            }
        }
        boolean backend = report.methodology().notes().stream().anyMatch(n -> n.startsWith("trip:"));
        check("the race measured trip for both servers, against the backend it started", seen == 2 && backend,
                seen + " results; the methodology " + (backend ? "names" : "does not name") + " the backend");
    }

    /**
     * A server raced against itself: on no load workload is it called faster or slower (each has
     * its interval; "too noisy to compare" is no claim, and says so), and on at least one the
     * verdict is "the same", so a race that could tell nothing fails.
     */
    static void same(Path file) throws Exception {
        BenchReport report = BenchReport.read(Files.readString(file));
        int same = 0;
        for (BenchReport.WorkloadEntry w : report.workloads()) {
            for (BenchReport.Result result : w.results()) {
                if (!(result instanceof BenchReport.LoadResult r) || !"learner".equals(r.server())) continue;
                BenchReport.Interval i = r.ratio() == null ? null : r.ratio().decided();
                if (i != null && i.verdict() == Verdict.Call.SAME) same++;
                if (w.group() == Plan.Group.HELLO) forked("self-race hello", r, i, report);
                check("self-race " + w.id() + ": the reference against itself is not called faster or slower"
                        + (i == null ? "" : " (" + Verdict.sentence(i, "the reference") + ")"),
                        i != null && (i.verdict() == Verdict.Call.SAME || i.verdict() == Verdict.Call.NOISY),
                        i == null ? "no interval: " + r.ratio() : "verdict " + i.verdict());
            }
        }
        check("the self-race ran load workloads, and called the reference \"the same\" as itself on at least one",
                report.workloads().stream().anyMatch(w -> w.group() != Plan.Group.IDLE) && same > 0, same + " the same");
    }

    /**
     * A race of a server made slower on purpose against the reference, on hello: the verdict,
     * decided on CPU per request (Bombardier is at its CPU limit there), must be "slower", and
     * say what the race could tell.
     */
    static void slower(Path file) throws Exception {
        BenchReport report = BenchReport.read(Files.readString(file));
        int seen = 0;
        for (BenchReport.WorkloadEntry w : report.workloads()) {
            for (BenchReport.Result result : w.results()) {
                if (!(result instanceof BenchReport.LoadResult r) || !"learner".equals(r.server()) || !"hello".equals(w.id())) continue;
                seen++;
                BenchReport.Interval i = r.ratio() == null ? null : r.ratio().decided();
                check("slower race hello: a server with more CPU per request is called \"slower\""
                        + (i == null ? "" : " (" + Verdict.sentence(i, "the reference") + ")"),
                        i != null && i.verdict() == Verdict.Call.SLOWER, i == null ? "no verdict: " + r.ratio() : "verdict " + i.verdict() + ", req/s " + r.ratio().rpsInterval());
                check("slower race hello: the verdict was decided on CPU per request, and says what the race could tell",
                        i != null && "cpuPerRequest".equals(i.figure()) && i.why() != null && i.detectable() != null, String.valueOf(i));
                forked("slower race hello", r, i, report);
            }
        }
        check("the slower race measured hello", seen == 1, seen + " results");
    }

    /** A quick race's hello: its turns came from two forks of fresh processes, half each, and its verdict names them. */
    private static void forked(String what, BenchReport.LoadResult r, BenchReport.Interval i, BenchReport report) {
        for (BenchReport.ServerEntry s : report.servers()) {
            check(what + ": " + s.id() + " ran in two processes, one a fork", s.pids() != null && s.pids().size() == 2
                    && !s.pids().get(0).equals(s.pids().get(1)), "pids " + s.pids());
        }
        java.util.Map<Integer, Long> perFork = r.runs().stream().collect(java.util.stream.Collectors.groupingBy(
                x -> x.fork() == null ? 0 : x.fork(), java.util.TreeMap::new, java.util.stream.Collectors.counting()));
        check(what + ": " + Plan.QUICK_HELLO_RUNS + " turns in 2 forks of fresh processes, and the verdict rests on both",
                perFork.equals(java.util.Map.of(1, (long) Plan.QUICK_HELLO_RUNS / 2, 2, (long) Plan.QUICK_HELLO_RUNS / 2)) && i != null && Integer.valueOf(2).equals(i.forks())
                        && i.turns() == Plan.QUICK_HELLO_RUNS, "turns per fork " + perFork + ", verdict " + i);
    }
}
