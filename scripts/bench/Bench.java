///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
//SOURCES RaceOptions.java BenchCommand.java ../contract/Contract.java Server.java LoadRace.java Tally.java Sampler.java IdleRace.java
//SOURCES MachineFacts.java Ramp.java Spike.java Soak.java Report.java Compare.java
//SOURCES Bombardier.java Progress.java Framework.java OpenLoop.java Vegeta.java Phase.java GoTools.java Connections.java ConnectionsRace.java ConnectionOutcome.java Opening.java ActiveShare.java
//SOURCES TimelineTurn.java ../../exercises/kit/CpuWork.java
//SOURCES ../lib/Lib.java ../room/RoomLink.java

package bench;

import contract.BenchReport;
import contract.ConnectionsReport;
import contract.Cpus;
import contract.Plan;
import contract.Stats;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import lib.Chapters;
import lib.Cli;
import lib.CommandError;
import lib.Others;
import lib.Painter;
import lib.Results;
import lib.Subject;
import lib.Target;
import lib.Tools;
import room.RoomLink;

/**
 * The benchmark behind scripts/bench.sh: starts the learner's server and the reference solution
 * (or every solution and a Netty baseline), loads them in turn with Bombardier on the same
 * workloads, and reports medians, errors, CPU, memory and threads, in the terminal and as JSON
 * (its schema: BenchReport.java).
 */
public class Bench {
    static final PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);

    public static void main(String[] args) {
        System.exit(Cli.run("bench", new BenchCommand(args), args));
    }

    /** Runs the race {@code given} asks for ({@code args}, the words it was given, for the report); returns 0, or 1 when something was flagged. */
    static int race(RaceOptions given, String[] args) throws Exception {
        LineUp up = lineUp(given);
        RaceOptions o = up.options();
        Instant began = Instant.now();
        Painter p = new Painter(o.color());
        header(o, up.chapters(), up.servers(), up.machine(), p);
        // One second of the machine before anything starts: a race on a busy machine says so at once.
        double othersBefore = Others.look(1000);
        String busyBefore = Others.before(othersBefore);
        if (busyBefore != null) out.println(p.red("  " + busyBefore));
        else if (Double.isNaN(othersBefore)) out.println(p.dim("  this machine does not show what other processes use (no /proc): the race cannot tell a busy turn"));
        BenchReport.Machine machine = up.machine().withOthersBefore(Stats.figure(othersBefore));

        Measured measured = measure(up);
        BenchReport report = new BenchReport(BenchReport.SCHEMA, o.all() ? BenchReport.Kind.ALL : BenchReport.Kind.CHAPTER, RaceOptions.command(args), o.chapter(),
                began.toString(), measured.flags().isEmpty() ? 0 : 1, up.compareTo(), machine, Plan.methodology(o.mode(), up.cpus(), up.idle().note(), up.backend()),
                up.servers().stream().map(s -> s.entry(o.root())).toList(), measured.entries(),
                o.phase() instanceof Phase.Ramping ? Ramp.summarize(measured.entries(), up.servers().stream().map(s -> s.id).toList()) : null,
                measured.spike(), measured.soak(), measured.openLoop(), measured.connections(), measured.flags(),
                Duration.between(began, Instant.now()).toSeconds(), measured.timelines());
        return finish(o, report, began, p);
    }

    /**
     * What a race is, settled before any server starts: its options with the workloads chosen, the
     * servers, the CPUs, the load generators and the machine; a usage error, a missing tool or a
     * {@code --url} where nothing answers stops it here.
     */
    private record LineUp(RaceOptions options, Map<String, Chapters.Chapter> chapters, List<Server> servers, Plan.Workload recorded,
                          boolean backend, Cpus cpus, Bombardier bombardier, Vegeta vegeta, BenchReport.Machine machine,
                          IdleRace.Budget idle, String compareTo) {}

    private static LineUp lineUp(RaceOptions given) throws Exception {
        given = given.withTools(); // a missing Bombardier (or Vegeta for --open-loop) stops it here, saying what to install
        if (Tools.onPath("taskset").isEmpty()) System.err.println("bench: " + Tools.install("taskset"));
        Map<String, Chapters.Chapter> chapters;
        try {
            chapters = Chapters.read(given.root());
        } catch (RuntimeException e) {
            throw CommandError.environment(e.getMessage());
        }
        List<Server> servers = Server.lineUp(given, chapters);
        Chapters.Chapter own = given.all() ? null : chapters.get(given.chapter());
        RaceOptions o = given.workloads() != null ? given
                : given.racing(own != null && own.benchWorkloads() != null ? Plan.pick(own.benchWorkloads())
                        : given.mode().smoke() ? Plan.pick("hello") : Plan.standard());
        Plan.Workload recorded = o.timelineWorkload(); // --timeline's, one of these: a usage error before anything starts
        boolean backend = servers.stream().anyMatch(Server::callsBackend) || o.workloads().stream().anyMatch(Plan.Workload::callsBackend);
        if (o.running() != null) {
            Subject.Running r = o.running();
            try {
                Target.attach(r.url(), r.pid()); // before anything starts; each server attaches again when its turn comes
            } catch (java.io.IOException e) {
                throw CommandError.environment(e.getMessage());
            }
        }
        Cpus cpus = MachineFacts.cpus(o.serverCpus());
        Bombardier bombardier = new Bombardier(o.bombardier());
        Vegeta vegeta = o.phase() instanceof Phase.OpenLoops ? Vegeta.found(o.vegeta()) : null; // before the servers start: exits 2 when it is not there
        BenchReport.Machine machine = MachineFacts.read(o.jbang(), bombardier.version(), cpus);
        String compareTo = o.all() ? (o.baseline() ? "netty" : null) : "reference";
        return new LineUp(o, chapters, servers, recorded, backend, cpus, bombardier, vegeta, machine, IdleRace.budget(), compareTo);
    }

    /** What the servers did: a result per workload, a stress phase's summary, the timelines, and what was flagged. */
    private record Measured(List<BenchReport.WorkloadEntry> entries, BenchReport.SpikeSummary spike, BenchReport.SoakSummary soak,
                            BenchReport.OpenLoopSummary openLoop, ConnectionsReport.Summary connections, BenchReport.Timelines timelines,
                            List<String> flags) {}

    /** Starts the servers (and the backend), runs the workloads or the stress phase, and the timeline's turn; stops them all. */
    private static Measured measure(LineUp up) throws Exception {
        RaceOptions o = up.options();
        List<Server> servers = up.servers();
        Cpus cpus = up.cpus();
        Progress progress = new Progress(o.tty(), o.mode(), o.workloads(), servers.size(),
                o.phase().secondsPerServer(o.mode()) + (up.recorded() == null ? 0 : 2 * TimelineTurn.SECONDS + 3), servers.stream().allMatch(Server::startedHere));
        // Start the servers, all at once, and keep them running for the whole race.
        Target calls = up.backend() ? Server.startBackend(o) : null;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            servers.forEach(Server::stop);
            if (calls != null) calls.stop();
        }));
        Server.startAll(servers, o, calls == null ? null : calls.url(), progress);
        // Forks: fresh processes of every server, pinned as the workload running asks (only servers the race started can be).
        LoadRace.Processes processes = new LoadRace.Processes(!servers.stream().allMatch(Server::startedHere) ? null : (reversed, w) -> {
            Server.restartAll(reversed ? servers.reversed() : servers, o, calls == null ? null : calls.url(), progress);
            share(cpus, cpus.of(w), servers, calls, up.bombardier());
        });
        List<BenchReport.WorkloadEntry> entries = new ArrayList<>();
        List<String> flags = new ArrayList<>();
        Map<String, Integer> brokeAt = new java.util.HashMap<>(); // the ramp: where each server broke
        for (Plan.Workload w : o.workloads()) {
            BenchReport.CpuSplit split = cpus.of(w);
            LoadRace load = new LoadRace(o.mode(), share(cpus, split, servers, calls, up.bombardier()), progress, o.workloads());
            List<BenchReport.Result> results = Compare.ratios(w.idle() ? IdleRace.run(w, servers, up.idle().connections(), progress)
                    : load.run(w, servers, s -> Ramp.sitOut(brokeAt, s.id), processes), up.compareTo(), o.mode().pace(), w.group());
            for (BenchReport.Result r : results) {
                if (w.ramp()) { // errors past a breaking point are the ramp's finding, not a failure
                    if (Ramp.broke(r) != null) brokeAt.putIfAbsent(r.server(), w.connections());
                    continue;
                }
                for (String f : r.flags()) flags.add(w.id() + ", " + r.server() + ": " + f);
            }
            entries.add(new BenchReport.WorkloadEntry(w.id(), w.group(), w.description(), w.idle() ? "/" : w.path(),
                    w.idle() ? up.idle().connections() : w.connections(), w.serviceMillis(), w.idle() ? null : w.timeoutSeconds(),
                    Stats.figure(w.boundRps()), split, results));
        }
        BenchReport.SpikeSummary spike = null;
        BenchReport.SoakSummary soak = null;
        BenchReport.OpenLoopSummary openLoop = null;
        ConnectionsReport.Summary connections = null;
        if (o.phase().ownLoad()) {
            BenchReport.CpuSplit split = cpus.of(o.phase().splitBy());
            Bombardier b = share(cpus, split, servers, calls, up.bombardier());
            switch (o.phase()) {
                case Phase.Spikes s -> spike = spikes(servers, b, progress, flags);
                case Phase.OpenLoops l -> openLoop = openLoop(servers, b, up.vegeta().on(split.load()), split, o.mode(), progress, flags);
                case Phase.Soaking s -> soak = soak(servers, b, s.minutes(), progress, flags);
                case Phase.Connecting c -> connections = connections(servers, c.connections(), o.mode(), progress, flags);
                case Phase.Workloads w -> throw new IllegalStateException("the workloads bring no load of their own");
                case Phase.Ramping r -> throw new IllegalStateException("the ramp runs as workloads");
            }
        }
        // --timeline: one more turn of its workload a server, recorded, once the measured turns are over.
        BenchReport.Timelines timelines = null;
        if (up.recorded() != null) {
            LoadRace load = new LoadRace(o.mode(), share(cpus, cpus.of(up.recorded()), servers, calls, up.bombardier()), progress, o.workloads());
            timelines = TimelineTurn.run(o, up.recorded(), servers, load, progress);
        }
        progress.done();
        servers.forEach(Server::stop);
        if (calls != null) calls.stop();
        return new Measured(entries, spike, soak, openLoop, connections, timelines, flags);
    }

    /** Prints the report, saves it (--out's file, or the learner's results, which reach a room they joined); the exit status. */
    private static int finish(RaceOptions o, BenchReport report, Instant began, Painter p) throws java.io.IOException {
        Report.print(out, report, o.color());
        if (report.timeline() != null) TimelineTurn.print(out, report.timeline(), p);
        Path file;
        if (o.out() != null) {
            file = o.out();
            Files.createDirectories(file.getParent());
            Files.writeString(file, report.json());
        } else {
            file = RoomLink.save(o.root(), "bench", o.springDemo() ? "spring-demo" : o.all() ? "all" : o.chapter(), report.json());
        }
        out.println();
        if (!report.flags().isEmpty()) {
            out.println(p.red(report.flags().size() + " flagged result(s), marked ! above (exit status 1)"));
        }
        out.println("Results: " + (file.startsWith(o.root()) ? o.root().relativize(file) : file)
                + p.dim("  (took " + Stats.duration(Duration.between(began, Instant.now()).toSeconds()) + ")"));
        return report.flags().isEmpty() ? 0 : 1;
    }

    /** What is raced, how, and on what. */
    private static void header(RaceOptions o, Map<String, Chapters.Chapter> chapters, List<Server> servers,
                               BenchReport.Machine machine, Painter p) {
        Plan.Mode mode = o.mode();
        String all = Chapters.showdown(chapters).map(c -> "Chapter " + c.number() + ", " + c.title()).orElse("Every model");
        long frameworks = servers.stream().filter(s -> s.role == BenchReport.Role.FRAMEWORK).count();
        String solutions = o.chapters() == null ? "every reference solution"
                : (o.chapters().size() == 1 ? "the reference solution of chapter " : "the reference solutions of chapters ") + String.join(", ", o.chapters());
        out.println(p.bold(o.springDemo() ? "The Spring Boot demo's shape: Tomcat with 16 and 50 platform threads, and with virtual threads"
                : o.all() ? all + ": " + solutions + (o.baseline() ? ", a plain Netty server" : "")
                        + (frameworks > 0 ? " and " + frameworks + " framework servers" : "")
                : "Chapter " + o.chapter() + ": " + servers.get(0).label + " against " + servers.get(1).label));
        for (Server s : servers) if (s.role == BenchReport.Role.FRAMEWORK) out.println(p.dim("  " + s.id + ": " + s.label));
        out.println(p.dim("  " + startedWith(servers)));
        String phase = o.phase().describe(mode);
        if (phase != null) {
            out.println(p.dim("  " + phase));
        } else out.println(p.dim("  " + mode.warmups() + (mode.maxWarmups() > mode.warmups() ? " to " + mode.maxWarmups() : "")
                + " warm-up run(s) of " + mode.warmupSeconds() + " s (discarded; more while still over 10% faster, or a tenth cheaper an answer, than the last), then "
                + mode.runs() + " runs of " + mode.runSeconds() + " s"
                + helloRuns(mode)
                + (mode.ioRunSeconds() != mode.runSeconds() ? " (io: " + mode.ioRunSeconds() + " s)" : "")
                + " per server, taking turns (who goes first alternates); median reported, and a verdict from the turns"
                + forks(mode, o.workloads(), servers)
                + (mode.warmGroupOnce() ? "; io-1000 and io-2000 reuse io-100's warm-up" : "")));
        if (o.timeline() != null) {
            out.println(p.dim("  then, for its timeline, two more turns of " + TimelineTurn.SECONDS + " s of " + o.timeline()
                    + " a server, the second while the flight recorder records it: not among the measured turns"));
        }
        out.println(p.dim("  " + machine.pinning()));
        if (machine.counters() != null) out.println(p.dim("  " + machine.counters()));
        out.println(p.dim("  " + machine.cores() + " CPUs, " + machine.java() + ", " + machine.bombardier()
                + "; other work on this machine skews the figures"));
    }

    /** " (hello: 48 of 2 s)" where hello's turns differ from the others' in count or length, else "". */
    public static String helloRuns(Plan.Mode mode) {
        Plan.Workload hello = Plan.WORKLOADS.get(0);
        if (mode.runsFor(hello) == mode.runs() && mode.runSecondsFor(hello) == mode.runSeconds()) return "";
        return " (hello: " + mode.runsFor(hello) + (mode.runSecondsFor(hello) != mode.runSeconds() ? " of " + mode.runSecondsFor(hello) + " s" : "") + ")";
    }

    /**
     * Which workloads run in forks, in words: "; hello in 2 forks of 12 (fresh processes of each
     * server, warmed up again)"; "" when none does; when the race did not start every server, that it cannot fork.
     */
    static String forks(Plan.Mode mode, List<Plan.Workload> workloads, List<Server> servers) {
        List<Plan.Workload> forked = workloads.stream().filter(w -> mode.forksFor(w) > 1).toList();
        if (forked.isEmpty()) return "";
        if (!servers.stream().allMatch(Server::startedHere)) return "; one process of each server, no forks: the race did not start every server";
        return "; " + String.join(", ", forked.stream().map(w -> w.id() + " in " + mode.forksFor(w) + " forks of " + mode.runsPerFork(w)).toList())
                + " (fresh processes of each server, warmed up again)";
    }

    /**
     * The options the race starts its servers with, beyond --port 0: the database pool every
     * server gets (the db workload depends on it) and each chapter's own (carriers, limits).
     */
    static String startedWith(List<Server> servers) {
        StringBuilder line = new StringBuilder("servers started with " + String.join(" ", Plan.dbOptions()));
        java.util.Set<String> seen = new java.util.LinkedHashSet<>();
        for (Server s : servers) {
            if (!s.startedHere() || s.args.isEmpty() || !seen.add(String.join(" ", s.args))) continue;
            boolean one = servers.stream().filter(Server::startedHere).allMatch(x -> x.args.equals(s.args));
            line.append(one ? " " : "; " + s.id + " also ").append(String.join(" ", s.args));
        }
        return line.append(" (db: each request waits up to ").append(Plan.DB_WAIT_MILLIS / 1000).append(" s for one of the pool's ")
                .append(Plan.DB_POOL).append(" connections before a 503)").toString();
    }

    /** Each server through the spikes, in turn; what they flag joins {@code flags}. */
    private static BenchReport.SpikeSummary spikes(List<Server> servers, Bombardier b, Progress progress, List<String> flags) {
        BenchReport.SpikeSummary spike = Spike.summary(servers.stream().map(s -> Spike.run(s, b, progress)).toList());
        spike.servers().forEach(s -> s.flags().forEach(f -> flags.add("spike, " + s.server() + ": " + f)));
        return spike;
    }

    /** Each server's soak of {@code minutes}, in turn; what they flag joins {@code flags}. */
    private static BenchReport.SoakSummary soak(List<Server> servers, Bombardier b, double minutes, Progress progress, List<String> flags) {
        BenchReport.SoakSummary soak = Soak.summary(minutes, servers.stream().map(s -> Soak.run(s, b, minutes, progress)).toList());
        soak.servers().forEach(s -> s.flags().forEach(f -> flags.add("soak, " + s.server() + ": " + f)));
        return soak;
    }

    /** Each server through the open loop, in turn, Vegeta on Bombardier's CPUs; what they flag joins {@code flags}. */
    private static BenchReport.OpenLoopSummary openLoop(List<Server> servers, Bombardier b, Vegeta vegeta, BenchReport.CpuSplit split,
                                                        Plan.Mode mode, Progress progress, List<String> flags) {
        BenchReport.OpenLoopSummary open = OpenLoop.summary(mode, vegeta.version(), split,
                servers.stream().map(s -> OpenLoop.run(s, b, vegeta, mode, progress)).toList());
        open.servers().forEach(s -> s.flags().forEach(f -> flags.add("open loop, " + s.server() + ": " + f)));
        return open;
    }

    /** Each server through the connections phase, in turn; what they flag joins {@code flags}. */
    private static ConnectionsReport.Summary connections(List<Server> servers, int connections, Plan.Mode mode, Progress progress, List<String> flags) {
        ConnectionsReport.Summary summary = ConnectionsRace.run(servers, connections, mode, progress);
        summary.servers().forEach(s -> s.flags().forEach(f -> flags.add("connections, " + s.server() + ": " + f)));
        return summary;
    }

    /**
     * Pins every server to the workload's server CPUs (every CPU when only the load is limited),
     * and the backend, if any, with Bombardier; nothing when the machine cannot pin. Returns
     * Bombardier on the workload's load CPUs.
     */
    private static Bombardier share(Cpus cpus, BenchReport.CpuSplit split, List<Server> servers, Target backend, Bombardier bombardier) {
        if (cpus.canPin()) {
            for (Server s : servers) s.pinTo(split.servers() == null ? cpus.every() : split.servers());
            if (backend != null && backend.pid() != null) Server.pinRunning(backend.pid(), split.load() == null ? cpus.every() : split.load());
        }
        return bombardier.on(split.load(), cpus.count(split.load()));
    }

    /** Lets a server settle between turns (sockets closing, a GC). */
    static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
