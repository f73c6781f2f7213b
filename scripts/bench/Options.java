import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line of scripts/bench.sh: what to race ({@code chapter}, or {@code all}), how
 * ({@code mode}, {@code workloads}), against what ({@code url} and {@code pid}, {@code baseline},
 * {@code selfRace}, {@code learner}: a file raced instead of the exercise, {@code command}: a
 * server in any language the race starts, as words), and the wrapper's own options (where the course, JBang and Bombardier are,
 * {@code out}, whether to redraw progress and use colours). A problem with it exits 2.
 */
record Options(String chapter, boolean all, boolean baseline, boolean frameworks, boolean springDemo, boolean selfRace, Path learner,
               List<String> command, String url, Long pid, Plan.Mode mode,
               List<Plan.Workload> workloads, Phase phase, int serverCpus, Path root, String jbang,
               String bombardier, String vegeta, Path out, boolean tty, boolean color) {

    static Options parse(String[] args) {
        String chapter = null;
        boolean all = false, baseline = false, selfRace = false, tty = false, color = false;
        boolean frameworks = true, springDemo = false, wrapped = false;
        List<Phase> phases = new ArrayList<>(); // the stress phases asked for: one at most
        String url = null, workloadList = null, jbang = "jbang", bombardier = "bombardier", vegeta = "vegeta";
        Long pid = null;
        int serverCpus = 0; // the default split (Cpus)
        Plan.Mode mode = Plan.Pace.QUICK.mode();
        Path root = Path.of(".").toAbsolutePath().normalize();
        Path learner = null; // instead of exercises/NN-*.java
        List<String> command = null; // a server in any language, instead of exercises/NN-*.java
        Path out = null; // instead of .results/bench/NN.json (the self-test keeps the learner's results)
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "-h", "--help" -> { Bench.out.println(USAGE); System.exit(0); }
                case "--all" -> all = true;
                case "--quick", "--thorough", "--smoke" -> mode = Plan.Pace.of(args[i]).mode();
                case "--workloads" -> workloadList = value(args, ++i);
                case "--url" -> url = value(args, ++i);
                case "--pid" -> pid = number(value(args, ++i), "--pid");
                case "--baseline" -> baseline = true;
                case "--no-frameworks" -> frameworks = false;
                case "--spring-demo" -> springDemo = true;
                case "--open-loop" -> phases.add(new Phase.OpenLoops());
                case "--ramp" -> phases.add(new Phase.Ramping());
                case "--spike" -> phases.add(new Phase.Spikes());
                case "--connections" -> {
                    int connections = 0; // the mode's default, unless a number follows
                    if (i + 1 < args.length && args[i + 1].matches("[0-9_,]+")) {
                        String n = args[++i].replace("_", "").replace(",", "");
                        connections = n.length() > 9 ? Integer.MAX_VALUE : Integer.parseInt(n);
                        if (connections < 1 || connections > ConnectionsRace.MAX) usage("--connections takes from 1 to " + ConnectionsRace.MAX + ", not " + args[i]);
                    }
                    phases.add(new Phase.Connecting(connections));
                }
                case "--soak" -> {
                    String minutes = value(args, ++i);
                    double soakMinutes = 0;
                    try {
                        soakMinutes = Double.parseDouble(minutes);
                    } catch (NumberFormatException e) {
                        usage("--soak needs minutes, such as 5, not '" + minutes + "'");
                    }
                    if (!(soakMinutes > 0 && soakMinutes <= Soak.MAX_MINUTES)) usage("--soak takes from a fraction of a minute to " + (int) Soak.MAX_MINUTES);
                    phases.add(new Phase.Soaking(soakMinutes));
                }
                case "--server-cpus" -> {
                    serverCpus = (int) number(value(args, ++i), "--server-cpus");
                    if (serverCpus < 1) usage("--server-cpus needs 1 or more");
                }
                case "--solution-vs-solution" -> selfRace = true;
                case "--learner" -> learner = Path.of(value(args, ++i)).toAbsolutePath().normalize();
                case "--command" -> {
                    try {
                        command = CommandLine.split(value(args, ++i));
                    } catch (IllegalArgumentException e) {
                        usage(e.getMessage());
                    }
                }
                case "--root" -> {
                    root = Path.of(value(args, ++i)).toAbsolutePath().normalize();
                    wrapped = true;
                }
                case "--jbang" -> jbang = value(args, ++i);
                case "--bombardier" -> bombardier = value(args, ++i);
                case "--vegeta" -> vegeta = value(args, ++i);
                case "--out" -> out = Path.of(value(args, ++i)).toAbsolutePath();
                case "--tty" -> tty = true;
                case "--color" -> color = true;
                default -> {
                    if (args[i].startsWith("-") || chapter != null) usage("unknown option " + args[i]);
                    chapter = args[i].length() == 1 ? "0" + args[i] : args[i];
                }
            }
        }
        // Progress on a terminal only: scripts/bench.sh says so (--tty, and --root); run without it (jbang), ask Java.
        if (!tty && !wrapped) tty = System.console() != null && System.console().isTerminal();
        if (springDemo && chapter == null) all = true; // the demo races Spring Boot's shapes, no chapter
        if (all == (chapter != null)) usage("say which chapter to race, e.g. 03, or --all");
        if (phases.size() > 1) usage("one phase at a time: --ramp, --spike, --soak, --open-loop or --connections");
        Phase phase = phases.isEmpty() ? new Phase.Workloads() : phases.get(0);
        if (phase instanceof Phase.Connecting c && c.connections() == 0) phase = new Phase.Connecting(ConnectionsRace.defaultConnections(mode));
        if (springDemo && (chapter != null || workloadList != null || !(phase instanceof Phase.Workloads))) {
            usage("--spring-demo runs on its own: scripts/bench.sh --spring-demo [--quick|--thorough]");
        }
        if (all && (url != null || selfRace)) usage("--all races the reference solutions: no --url or --solution-vs-solution");
        if (pid != null && url == null) usage("--pid goes with --url");
        if (url != null && selfRace) usage("--url or --solution-vs-solution, not both");
        if (learner != null && (all || url != null || selfRace)) usage("--learner races one file against a chapter's reference: no --all, --url or --solution-vs-solution");
        if (command != null && (all || url != null || selfRace || learner != null)) {
            usage("--command races one server against a chapter's reference: no --all, --url, --learner or --solution-vs-solution");
        }
        if (learner != null && !java.nio.file.Files.isRegularFile(learner)) usage("no file " + learner + " (--learner): give the path of a server's .java file");
        List<Plan.Workload> workloads = null; // the chapter's own, or the standard ones (Bench)
        if (phase.ownLoad() && workloadList != null) usage("--spike, --soak, --open-loop and --connections run their own load: no --workloads");
        if (springDemo) {
            workloads = List.of(Plan.SPRING_DEMO);
        } else if (phase.ownLoad()) {
            workloads = List.of();
        } else if (phase instanceof Phase.Ramping) {
            if (workloadList != null) usage("--ramp runs its own steps: no --workloads");
            workloads = Plan.ramp(IdleRace.budget().connections(), mode.smoke());
            mode = mode.forRamp();
        } else if (workloadList != null) {
            try {
                workloads = Plan.pick(workloadList);
            } catch (IllegalArgumentException e) {
                usage(e.getMessage());
            }
        }
        return new Options(chapter, all, (baseline || all) && !springDemo, frameworks && all && !springDemo, springDemo, selfRace, learner, command, url, pid, mode, workloads,
                phase, serverCpus, root, jbang, bombardier, vegeta, out, tty, color);
    }

    /** The same options, racing {@code list}: the chapter's own workloads when none were named. */
    Options racing(List<Plan.Workload> list) {
        return new Options(chapter, all, baseline, frameworks, springDemo, selfRace, learner, command, url, pid, mode, list, phase, serverCpus,
                root, jbang, bombardier, vegeta, out, tty, color);
    }

    /** The command as the learner typed it: scripts/bench.sh and its options, without the wrapper's own. */
    static String command(String[] args) {
        List<String> shown = new ArrayList<>(List.of("scripts/bench.sh"));
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--root", "--jbang", "--bombardier", "--vegeta", "--out" -> i++;
                case "--learner" -> shown.add(args[i] + " " + Path.of(args[++i]).getFileName());
                case "--tty", "--color" -> { }
                default -> shown.add(args[i]);
            }
        }
        return String.join(" ", shown);
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) usage("option " + args[i - 1] + " needs a value");
        return args[i];
    }

    private static long number(String s, String option) {
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            usage(option + " needs a number, not '" + s + "'");
            return -1;
        }
    }

    /** A mistake on the command line: says so, with the usage, and exits 2. */
    static void usage(String problem) {
        System.err.println("bench: " + problem + "\n\n" + USAGE);
        System.exit(2);
    }

    /** Something missing around the bench (a file, a server, a tool): says so and exits 2. */
    static void environment(String problem) {
        System.err.println("bench: " + problem);
        System.exit(2);
    }

    static final String USAGE = """
            usage: scripts/bench.sh NN [options]      race exercises/NN-*.java against solutions/NN-*.java
                   scripts/bench.sh --all [options]   every reference solution, a plain Netty server, and the frameworks
                   scripts/bench.sh --spring-demo     Spring Boot on Tomcat with 16 and 50 platform threads, and with virtual
                                                      threads, on GET /io?ms=400 at 2000 connections (a well-known demo's shape)

              --quick             2-4 warm-ups of 2 s and 3 runs of 2 s per workload and server (hello: 5 runs; io: each run two
                                  loads, of 1 s and 3 s, for the steady rate); the default, about 4 min a chapter, 15 for
                                  --all --no-frameworks, 24 for --all, on a 2-core machine (site/measured/workshop.json)
              --thorough          2-6 warm-ups of 10 s and 5 runs of 10 s (io: 30 s): steadier figures, several times longer
              --smoke             1 s runs, of hello only (or the chapter's own workloads): proves the bench works, measures nothing
              --workloads LIST    some of hello,io,cpu,mixed,db,idle (or io-100, io-1000, io-2000), trip
              --url URL           race a server that is already running (any language) instead of the exercise
              --pid PID           with --url: its process, for CPU, memory and thread figures
              --baseline          add a plain Netty server to the race
              --no-frameworks     with --all, leave out the framework servers (scripts/bench/frameworks: Spring Boot on
                                  Tomcat with platform and with virtual threads, Helidon SE, Vert.x, Spring WebFlux): a shorter run
              --ramp              instead of the workloads, the ramp: GET /io?ms=200 at 100, 250, 500, 1000, 2500, 5000 and
                                  10,000 connections, one run of 5 s a step (thorough 10 s), each server until a step breaks
                                  it (over 1% of requests fail, or p99 over 1 s): about 1.5 minutes for a chapter, 4.5 for
                                  --all --no-frameworks on a 2-core machine (site/measured/workshop.json)
              --spike             instead of the workloads, the spikes: GET /io?ms=200 at 1000 connections, then 8000 for 5 s,
                                  then 1000 again, 3 times: how long each server takes to come back, and whether its files
                                  and threads do (about 1 minute a server)
              --soak MIN          instead of the workloads, GET /io?ms=200 at 1000 connections for MIN minutes a server (60
                                  at most), sampling heap after GC, RSS, open files and threads every 10 s: what grows
              --open-loop         instead of the workloads, latency without coordinated omission: GET /cpu?ms=2 at a fixed
                                  300 req/s for 30 s a server from Vegeta (an open loop), then from Bombardier at the same
                                  rate with 4 connections (a closed loop), while one more connection asks GET /cpu?ms=100
                                  once a second; p50 to max side by side (smoke 3 s, thorough 60 s)
              --connections [N]   instead of the workloads, N keep-alive connections held at once (default 20,000; thorough
                                  100,000; smoke 2000), each server in turn, from source addresses 127.0.0.2, 127.0.0.3, ...
                                  (20,000 each); while all are open, 1% of them ask GET /io?ms=200 once a second for 10 s
                                  (thorough 30, smoke 3): time to open them, answers and p99 of that share, heap (after GC),
                                  RSS and kernel socket memory per connection, threads; and where and why a server stopped
                                  accepting. Needs open files: 'ulimit -n' of N + 1000 or more for this shell and the servers
              --server-cpus N     the servers on CPUs 0 to N-1 and Bombardier on the rest, on every workload (default: the
                                  servers on every CPU, Bombardier sharing them, but on hello, where each gets half)
              --solution-vs-solution   race the reference solution against itself (a sanity check)
              --learner FILE      race FILE (a server of the chapter, e.g. a copy you are trying out) instead of the exercise
              --command "CMD"     race a server in any language that the race starts: CMD --port 0 and the chapter's
                                  options (e.g. --command "python3 server.py"); it must print the ready line
              --out FILE          write the JSON there instead of .results/bench/

            Workloads: hello (GET /, 256 connections), io (GET /io?ms=200 at 100, 1000 and 2000
            connections), cpu (GET /cpu?ms=5, 64 connections), mixed (GET / at 500 a second while
            GET /cpu?ms=5 keeps the server busy), db (GET /db?ms=20, 2000 connections, a pool of 10
            database connections), idle (10,000 idle keep-alive connections). Chapter 08 races
            trip (GET /trip?legs=4&ms=100, 50 connections, against a backend the race starts).
            Chapters race the standard workloads (all but trip) unless the registry names their own.
            Results: a table and a chart here, and JSON in .results/bench/NN.json (all.json for --all,
            spring-demo.json for --spring-demo).
            Exit status: 0 done, 1 done but something was flagged (errors, a figure above its bound),
            2 could not run.""";
}
