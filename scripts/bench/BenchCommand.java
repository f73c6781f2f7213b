package bench;

import contract.Plan;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import lib.Chapters;
import lib.CommandError;
import lib.Root;
import lib.Subject;
import lib.SubjectOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The command line of scripts/bench.sh (and {@code jbang bench}), read by picocli: what to race,
 * how, against what (the server under test, {@link SubjectOptions}, shared with the grader), and
 * the wrapper's own options. {@link #options} checks how they go together and gives the race its
 * {@link RaceOptions}; {@link Bench#main} runs it through {@link Cli}.
 */
@Command(name = "bench", sortOptions = false,
        customSynopsis = {"usage: scripts/bench.sh NN [options]      race exercises/NN-*.java against solutions/NN-*.java",
                "       scripts/bench.sh --all [options]   every reference solution, a plain Netty server, and the frameworks",
                "       scripts/bench.sh --spring-demo     Spring Boot on Tomcat with 16 and 50 platform threads, and with virtual",
                "                                          threads, on GET /io?ms=400 at 2000 connections (a well-known demo's shape)", ""},
        footer = {"", "Workloads: hello (GET /, 256 connections), io (GET /io?ms=200 at 100, 1000 and 2000",
                "connections), cpu (GET /cpu?ms=5, 64 connections), mixed (GET / at 500 a second while",
                "GET /cpu?ms=5 keeps the server busy), db (GET /db?ms=20, 2000 connections, a pool of 10",
                "database connections), idle (10,000 idle keep-alive connections). Chapter 08 races",
                "trip (GET /trip?legs=4&ms=100, 50 connections, against a backend the race starts).",
                "Chapters race the standard workloads (all but trip) unless the registry names their own.",
                "Results: a table and a chart here, and JSON in .results/bench/NN.json (all.json for --all,",
                "spring-demo.json for --spring-demo).",
                "Exit status: 0 done, 1 done but something was flagged (errors, a figure above its bound),",
                "2 could not run."})
public final class BenchCommand implements Callable<Integer> {
    /** The words it was given, for the report's command line. */
    final String[] given;

    public BenchCommand(String[] given) {
        this.given = given;
    }

    @Parameters(paramLabel = "NN", arity = "0..1", description = "the chapter to race (3 or 03)")
    String chapter;

    @Option(names = "--all", description = "every reference solution, a plain Netty server, and the frameworks")
    boolean all;

    @Option(names = "--chapters", paramLabel = "LIST", split = ",", hideParamSyntax = true,
            description = "with --all, these chapters' solutions only, beside Netty and the frameworks (--no-frameworks leaves those out), such as 05,06,09")
    List<String> chapters;

    @Option(names = "--spring-demo", description = "the Spring Boot demo's shape (see above); runs on its own")
    boolean springDemo;

    Plan.Pace pace = Plan.Pace.QUICK;

    @Option(names = "--quick", description = {"2-4 warm-ups of 2 s and 3 runs of 2 s per workload and server (hello: " + Plan.QUICK_HELLO_RUNS
            + " runs in 2 forks of", "fresh processes, each warmed up, or with --all " + Plan.SHOWDOWN_HELLO_RUNS
            + " runs in one; io: each run two loads, of 1 s and 3 s, for the",
            "steady rate); the default, about 6 min a chapter on a 2-core machine (site/measured/workshop.json)"})
    void quick(boolean on) {
        pace = Plan.Pace.QUICK;
    }

    @Option(names = "--thorough", description = {"2-6 warm-ups of 10 s and 6 runs of 10 s (io: 30 s; hello: " + Plan.THOROUGH_HELLO_RUNS
            + " runs of " + Plan.HELLO_RUN_SECONDS + " s), every workload in 2 forks",
            "(with --all, one): steadier figures and finer verdicts, several times longer"})
    void thorough(boolean on) {
        pace = Plan.Pace.THOROUGH;
    }

    @Option(names = "--smoke", description = "1 s runs, of hello only (or the chapter's own workloads): proves the bench works, measures nothing")
    void smoke(boolean on) {
        pace = Plan.Pace.SMOKE;
    }

    @Option(names = "--workloads", paramLabel = "LIST", description = "some of hello,io,cpu,mixed,db,idle (or io-100, io-1000, io-2000), trip")
    String workloads;

    @Mixin
    SubjectOptions server;

    @Option(names = "--baseline", description = "add a plain Netty server to the race")
    boolean baseline;

    @Option(names = "--no-frameworks", description = {"with --all, leave out the framework servers (scripts/bench/frameworks: Spring Boot on",
            "Tomcat with platform and with virtual threads, Helidon SE, Vert.x, Spring WebFlux): a shorter run"})
    boolean noFrameworks;

    /** The stress phases asked for: one at most. */
    final List<Phase> phases = new ArrayList<>();

    @Option(names = "--ramp", description = {"instead of the workloads, the ramp: GET /io?ms=200 at 100, 250, 500, 1000, 2500, 5000 and",
            "10,000 connections, one run of 5 s a step (thorough 10 s), each server until a step breaks",
            "it (over 1%% of requests fail, or p99 over 1 s): about 1.5 minutes for a chapter, 4.5 for",
            "--all --no-frameworks on a 2-core machine (site/measured/workshop.json)"})
    void ramp(boolean on) {
        phases.add(new Phase.Ramping());
    }

    @Option(names = "--spike", description = {"instead of the workloads, the spikes: GET /io?ms=200 at 1000 connections, then 8000 for 5 s,",
            "then 1000 again, 3 times: how long each server takes to come back, and whether its files",
            "and threads do (about 1 minute a server)"})
    void spike(boolean on) {
        phases.add(new Phase.Spikes());
    }

    @Option(names = "--soak", paramLabel = "MIN", description = {"instead of the workloads, GET /io?ms=200 at 1000 connections for MIN minutes a server (60",
            "at most), sampling heap after GC, RSS, open files and threads every 10 s: what grows"})
    void soak(String minutes) {
        double soakMinutes;
        try {
            soakMinutes = Double.parseDouble(minutes);
        } catch (NumberFormatException e) {
            throw CommandError.usage("--soak needs minutes, such as 5, not '" + minutes + "'");
        }
        if (!(soakMinutes > 0 && soakMinutes <= Soak.MAX_MINUTES)) throw CommandError.usage("--soak takes from a fraction of a minute to " + (int) Soak.MAX_MINUTES);
        phases.add(new Phase.Soaking(soakMinutes));
    }

    @Option(names = "--open-loop", description = {"instead of the workloads, latency without coordinated omission: GET /cpu?ms=2 at a fixed",
            "300 req/s for 30 s a server from Vegeta (an open loop), then from Bombardier at the same",
            "rate with 4 connections (a closed loop), while one more connection asks GET /cpu?ms=100",
            "once a second; p50 to max side by side (smoke 3 s, thorough 60 s)"})
    void openLoop(boolean on) {
        phases.add(new Phase.OpenLoops());
    }

    @Option(names = "--connections", paramLabel = "N", arity = "0..1", fallbackValue = "", description = {
            "instead of the workloads, N keep-alive connections held at once (default 20,000; thorough",
            "100,000; smoke 2000), each server in turn, from source addresses 127.0.0.2, 127.0.0.3, ...",
            "(20,000 each); while all are open, 1%% of them ask GET /io?ms=200 once a second for 10 s",
            "(thorough 30, smoke 3): time to open them, answers and p99 of that share, heap (after GC),",
            "RSS and kernel socket memory per connection, threads; and where and why a server stopped",
            "accepting. Needs open files: 'ulimit -n' of N + 1000 or more for this shell and the servers"})
    void connections(String n) {
        int connections = 0; // the mode's default, unless a number is given
        if (!n.isEmpty()) {
            if (!n.matches("[0-9_,]+")) throw CommandError.usage("--connections takes from 1 to " + ConnectionsRace.MAX + ", not " + n);
            String digits = n.replace("_", "").replace(",", "");
            connections = digits.length() > 9 ? Integer.MAX_VALUE : Integer.parseInt(digits);
            if (connections < 1 || connections > ConnectionsRace.MAX) throw CommandError.usage("--connections takes from 1 to " + ConnectionsRace.MAX + ", not " + n);
        }
        phases.add(new Phase.Connecting(connections));
    }

    @Option(names = "--timeline", paramLabel = "WORKLOAD", description = {"after the race, one more turn of " + TimelineTurn.SECONDS + " s of WORKLOAD (one the race runs, such as hello) for",
            "your server, then the reference, while the JVM's flight recorder records their threads:",
            ".results/timeline/NN-WORKLOAD.json and NN-WORKLOAD-reference.json, which the chapter's",
            "page draws, with what recording cost each in CPU per request (not with --all or a stress",
            "phase; with --url, give --pid)"})
    String timeline;

    @Option(names = "--server-cpus", paramLabel = "N", description = {"the servers on CPUs 0 to N-1 and Bombardier on the rest, on every workload (default: the",
            "servers on every CPU, Bombardier sharing them, but on hello, where each gets half)"})
    Integer serverCpus; // null: the default split (Cpus)

    @Option(names = "--out", paramLabel = "FILE", description = "write the JSON there instead of .results/bench/")
    Path out;

    @Option(names = "--root", hidden = true, description = "the course's folder (the shell wrapper's; else found from here)")
    Path root;

    @Option(names = "--jbang", hidden = true, description = "the JBang that starts servers")
    String jbang = "jbang";

    @Option(names = "--bombardier", hidden = true, description = "the Bombardier to load with (else found as scripts/setup.sh finds it)")
    String bombardier;

    @Option(names = "--vegeta", hidden = true, description = "the Vegeta of --open-loop (else found as scripts/setup.sh finds it)")
    String vegeta;

    @Option(names = "--tty", hidden = true, description = "redraw progress in place (the shell wrapper says when it is on a terminal)")
    boolean tty;

    @Option(names = "--color", hidden = true, description = "colours (the shell wrapper's)")
    boolean color;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "this help")
    boolean help;

    @Override
    public Integer call() throws Exception {
        return Bench.race(options(), given);
    }

    /** The race's options, checked against each other; a {@link CommandError} (usage) for a combination it cannot run. */
    RaceOptions options() {
        Plan.Mode mode = pace.mode();
        String n = chapter == null ? null : chapter.length() == 1 ? "0" + chapter : chapter;
        Subject subject = server.subject();
        // Progress on a terminal only: scripts/bench.sh says so (--tty, and --root); run without it (jbang), ask Java.
        boolean redraw = tty || root == null && System.console() != null && System.console().isTerminal();
        boolean every = all || springDemo && n == null; // the demo races Spring Boot's shapes, no chapter
        if (every == (n != null)) throw CommandError.usage("say which chapter to race, e.g. 03, or --all");
        if (every) mode = mode.showdown(); // --all: one process a server, fewer turns on hello (Plan.Mode#showdown)
        if (phases.size() > 1) throw CommandError.usage("one phase at a time: --ramp, --spike, --soak, --open-loop or --connections");
        Phase phase = phases.isEmpty() ? new Phase.Workloads() : phases.get(0);
        if (phase instanceof Phase.Connecting c && c.connections() == 0) phase = new Phase.Connecting(ConnectionsRace.defaultConnections(mode));
        if (springDemo && (n != null || workloads != null || !(phase instanceof Phase.Workloads))) {
            throw CommandError.usage("--spring-demo runs on its own: scripts/bench.sh --spring-demo [--quick|--thorough]");
        }
        if (every && !(subject instanceof Subject.Exercise)) {
            throw CommandError.usage("--all races the reference solutions: no --solution, --file, --command or --url");
        }
        List<Plan.Workload> list = null; // the chapter's own, or the standard ones (Bench)
        if (phase.ownLoad() && workloads != null) throw CommandError.usage("--spike, --soak, --open-loop and --connections run their own load: no --workloads");
        if (springDemo) {
            list = List.of(Plan.SPRING_DEMO);
        } else if (phase.ownLoad()) {
            list = List.of();
        } else if (phase instanceof Phase.Ramping) {
            if (workloads != null) throw CommandError.usage("--ramp runs its own steps: no --workloads");
            list = Plan.ramp(IdleRace.budget().connections(), mode.smoke());
            mode = mode.forRamp();
        } else if (workloads != null) {
            try {
                list = Plan.pick(workloads);
            } catch (IllegalArgumentException e) {
                throw CommandError.usage(e.getMessage());
            }
        }
        if (timeline != null) {
            if (every) throw CommandError.usage("--timeline records a turn of a chapter's race, such as scripts/bench.sh 04 --timeline hello: not with --all or --spring-demo");
            if (!(phase instanceof Phase.Workloads)) throw CommandError.usage("--timeline records a turn of a workload: not with " + phase.option());
            if (subject instanceof Subject.Running r && r.pid() == null) throw CommandError.usage("--timeline records the server's threads, which needs its process: give --pid with --url");
        }
        if (serverCpus != null && serverCpus < 1) throw CommandError.usage("--server-cpus needs 1 or more");
        Path course = root != null ? root.toAbsolutePath().normalize() : Root.find();
        java.util.Set<String> picked = chapters == null ? null : picked(course);
        RaceOptions o = new RaceOptions(n, every, picked, (baseline || every) && !springDemo, !noFrameworks && every && !springDemo, springDemo, subject,
                mode, list, phase, serverCpus == null ? 0 : serverCpus, course, jbang, bombardier, vegeta, out == null ? null : out.toAbsolutePath(), redraw, color,
                timeline);
        if (list != null) o.timelineWorkload(); // a --timeline that --workloads leaves out stops here; else Bench asks once it has picked them
        return o;
    }

    /**
     * The chapters of --chapters, by their numbers in the registry of {@code course} ("5" is 05):
     * each one that --all races (in the registry, in the showdown, and a model with a server of
     * its own); a {@link CommandError} (usage) for any other, or without --all.
     */
    private java.util.Set<String> picked(Path course) {
        if (!all || springDemo) throw CommandError.usage("--chapters picks the chapters of --all, such as scripts/bench.sh --all --chapters 05,06,09");
        java.util.Map<String, Chapters.Chapter> registry;
        try {
            registry = Chapters.read(course);
        } catch (RuntimeException e) {
            throw CommandError.environment(e.getMessage());
        }
        java.util.Set<String> picked = new java.util.TreeSet<>();
        for (String word : chapters) {
            String number = word.strip().matches("\\d") ? "0" + word.strip() : word.strip();
            Chapters.Chapter c = registry.get(number);
            if (c == null) throw CommandError.usage("--chapters takes chapter numbers such as 05,06,09, and the course has no chapter '" + word + "'");
            if (!c.graded()) throw CommandError.usage("--chapters takes the chapters --all races, and chapter " + number + " is the showdown itself, with no server of its own");
            if (!c.inShowdown()) throw CommandError.usage("--chapters takes the chapters --all races, and chapter " + number + " races on its own (scripts/bench.sh " + number + ")");
            picked.add(number);
        }
        return picked;
    }
}
