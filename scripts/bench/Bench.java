///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
//DEPS com.fasterxml.jackson.core:jackson-databind:2.22.4
//SOURCES Options.java Plan.java Server.java LoadRace.java Tally.java Sampler.java IdleRace.java Idle.java
//SOURCES MachineFacts.java BenchReport.java Report.java Verdict.java Stats.java Bombardier.java Progress.java
//SOURCES ../lib/Jackson.java ../lib/Chapters.java ../lib/Results.java ../lib/Target.java
//SOURCES ../lib/Inspect.java ../lib/Unavailable.java

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

/**
 * The benchmark behind scripts/bench.sh: starts the learner's server and the reference solution
 * (or every solution and a Netty baseline), loads them in turn with Bombardier on the same
 * workloads, and reports medians, errors, CPU, memory and threads, in the terminal and as JSON
 * (its schema: BenchReport.java).
 */
class Bench {
    static final PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);

    public static void main(String[] args) throws Exception {
        Options given = Options.parse(args);
        Map<String, Chapters.Chapter> chapters = null;
        try {
            chapters = Chapters.read(given.root());
        } catch (RuntimeException e) {
            Options.environment(e.getMessage());
        }
        List<Server> servers = Server.lineUp(given, chapters);
        Chapters.Chapter own = given.all() ? null : chapters.get(given.chapter());
        Options o = given.workloads() != null ? given
                : given.racing(own != null && own.benchWorkloads() != null ? Plan.pick(own.benchWorkloads())
                        : given.mode().name().equals("smoke") ? Plan.pick("hello") : Plan.standard());
        boolean backend = servers.stream().anyMatch(Server::callsBackend) || o.workloads().stream().anyMatch(Plan.Workload::callsBackend);
        if (o.url() != null) {
            try {
                if (!Target.running(o.url(), o.pid()).accepting()) Options.environment("nothing accepts connections at " + o.url() + ": start your server first");
            } catch (IllegalArgumentException e) {
                Options.usage(e.getMessage());
            }
            if (o.pid() != null && ProcessHandle.of(o.pid()).isEmpty()) Options.environment("no process " + o.pid() + " (--pid)");
        }

        boolean pin = MachineFacts.canPin();
        Bombardier bombardier = new Bombardier(o.bombardier(), pin ? List.of("taskset", "-c", "1") : List.of());
        BenchReport.Machine machine = MachineFacts.read(o.jbang(), bombardier.version(), pin);
        IdleRace.Budget idle = IdleRace.budget();

        Instant began = Instant.now();
        Report.Painter p = new Report.Painter(o.color());
        header(o, chapters, servers, machine, p);

        // Start the servers, all at once, and keep them running for the whole race.
        Progress progress = new Progress(o.tty(), o.mode(), o.workloads(), servers.size());
        Target calls = backend ? Server.startBackend(o, pin) : null;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            servers.forEach(Server::stop);
            if (calls != null) calls.stop();
        }));
        Server.startAll(servers, o, pin, progress);

        List<BenchReport.WorkloadEntry> entries = new ArrayList<>();
        List<String> flags = new ArrayList<>();
        String compareTo = o.all() ? (o.baseline() ? "netty" : null) : "reference";
        LoadRace load = new LoadRace(o.mode(), bombardier, progress);
        for (Plan.Workload w : o.workloads()) {
            List<BenchReport.Result> results = Report.ratios(
                    w.idle() ? IdleRace.run(w, servers, idle.connections(), progress) : load.run(w, servers), compareTo, o.mode().name());
            for (BenchReport.Result r : results) {
                for (String f : r.flags()) flags.add(w.id() + ", " + r.server() + ": " + f);
            }
            entries.add(new BenchReport.WorkloadEntry(w.id(), w.group(), w.description(), w.idle() ? "/" : w.path(),
                    w.idle() ? idle.connections() : w.connections(), w.serviceMillis(), w.idle() ? null : w.timeoutSeconds(),
                    Stats.figure(w.boundRps()), results));
        }
        progress.done();
        servers.forEach(Server::stop);
        if (calls != null) calls.stop();

        boolean urlPinnedLate = servers.stream().anyMatch(s -> s.file == null && s.pinned);
        BenchReport report = new BenchReport(BenchReport.SCHEMA, o.all() ? "all" : "chapter", Options.command(args), o.chapter(),
                began.toString(), flags.isEmpty() ? 0 : 1, compareTo, machine, Plan.methodology(o.mode(), pin, idle.note(), urlPinnedLate, backend),
                servers.stream().map(s -> s.entry(o.root())).toList(), entries, flags, Duration.between(began, Instant.now()).toSeconds());

        Report.print(out, report, o.color());
        Path file;
        if (o.out() != null) {
            file = o.out();
            Files.createDirectories(file.getParent());
            Files.writeString(file, report.json());
        } else {
            file = Results.write(o.root(), "bench", o.all() ? "all" : o.chapter(), report.json());
        }
        out.println();
        if (!flags.isEmpty()) {
            out.println(p.red(flags.size() + " flagged result(s), marked ! above (exit status 1)"));
        }
        out.println("Results: " + (file.startsWith(o.root()) ? o.root().relativize(file) : file)
                + p.dim("  (took " + Stats.duration(Duration.between(began, Instant.now()).toSeconds()) + ")"));
        System.exit(flags.isEmpty() ? 0 : 1);
    }

    /** What is raced, how, and on what. */
    private static void header(Options o, Map<String, Chapters.Chapter> chapters, List<Server> servers,
                               BenchReport.Machine machine, Report.Painter p) {
        Plan.Mode mode = o.mode();
        String all = Chapters.showdown(chapters).map(c -> "Chapter " + c.number() + ", " + c.title()).orElse("Every model");
        out.println(p.bold(o.all() ? all + ": every reference solution" + (o.baseline() ? " and a plain Netty server" : "")
                : "Chapter " + o.chapter() + ": " + servers.get(0).label + " against " + servers.get(1).label));
        out.println(p.dim("  " + mode.warmups() + (mode.maxWarmups() > mode.warmups() ? " to " + mode.maxWarmups() : "")
                + " warm-up run(s) of " + mode.warmupSeconds() + " s (discarded; more while still over 10% faster than the last), then "
                + mode.runs() + " runs of " + mode.runSeconds() + " s"
                + (mode.ioRunSeconds() != mode.runSeconds() ? " (io: " + mode.ioRunSeconds() + " s)" : "")
                + " per server, taking turns (who goes first alternates); median reported, and a verdict from the turns"
                + (mode.warmGroupOnce() ? "; io-1000 and io-2000 reuse io-100's warm-up" : "")));
        out.println(p.dim("  " + machine.pinning()));
        out.println(p.dim("  " + machine.cores() + " CPUs, " + machine.java() + ", " + machine.bombardier()
                + "; other work on this machine skews the figures"));
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
