import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line of scripts/bench.sh: what to race ({@code chapter}, or {@code all}), how
 * ({@code mode}, {@code workloads}), against what ({@code url} and {@code pid}, {@code baseline},
 * {@code selfRace}), and the wrapper's own options (where the course, JBang and Bombardier are,
 * {@code out}, whether to redraw progress and use colours). A problem with it exits 2.
 */
record Options(String chapter, boolean all, boolean baseline, boolean selfRace, String url, Long pid, Plan.Mode mode,
               List<Plan.Workload> workloads, Path root, String jbang, String bombardier, Path out, boolean tty,
               boolean color) {

    static Options parse(String[] args) {
        String chapter = null;
        boolean all = false, baseline = false, selfRace = false, tty = false, color = false;
        String url = null, workloadList = null, jbang = "jbang", bombardier = "bombardier";
        Long pid = null;
        Plan.Mode mode = Plan.MODES.get("quick");
        Path root = Path.of(".").toAbsolutePath().normalize();
        Path out = null; // instead of .results/bench/NN.json (the self-test keeps the learner's results)
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "-h", "--help" -> { Bench.out.println(USAGE); System.exit(0); }
                case "--all" -> all = true;
                case "--quick", "--thorough", "--smoke" -> mode = Plan.MODES.get(args[i].substring(2));
                case "--workloads" -> workloadList = value(args, ++i);
                case "--url" -> url = value(args, ++i);
                case "--pid" -> pid = number(value(args, ++i), "--pid");
                case "--baseline" -> baseline = true;
                case "--solution-vs-solution" -> selfRace = true;
                case "--root" -> root = Path.of(value(args, ++i)).toAbsolutePath().normalize();
                case "--jbang" -> jbang = value(args, ++i);
                case "--bombardier" -> bombardier = value(args, ++i);
                case "--out" -> out = Path.of(value(args, ++i)).toAbsolutePath();
                case "--tty" -> tty = true;
                case "--color" -> color = true;
                default -> {
                    if (args[i].startsWith("-") || chapter != null) usage("unknown option " + args[i]);
                    chapter = args[i].length() == 1 ? "0" + args[i] : args[i];
                }
            }
        }
        if (all == (chapter != null)) usage("say which chapter to race, e.g. 03, or --all");
        if (all && (url != null || selfRace)) usage("--all races the reference solutions: no --url or --solution-vs-solution");
        if (pid != null && url == null) usage("--pid goes with --url");
        if (url != null && selfRace) usage("--url or --solution-vs-solution, not both");
        List<Plan.Workload> workloads = null; // the chapter's own, or the standard ones (Bench)
        if (workloadList != null) {
            try {
                workloads = Plan.pick(workloadList);
            } catch (IllegalArgumentException e) {
                usage(e.getMessage());
            }
        }
        return new Options(chapter, all, baseline || all, selfRace, url, pid, mode, workloads, root, jbang, bombardier, out, tty, color);
    }

    /** The same options, racing {@code list}: the chapter's own workloads when none were named. */
    Options racing(List<Plan.Workload> list) {
        return new Options(chapter, all, baseline, selfRace, url, pid, mode, list, root, jbang, bombardier, out, tty, color);
    }

    /** The command as the learner typed it: scripts/bench.sh and its options, without the wrapper's own. */
    static String command(String[] args) {
        List<String> shown = new ArrayList<>(List.of("scripts/bench.sh"));
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--root", "--jbang", "--bombardier", "--out" -> i++;
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
                   scripts/bench.sh --all [options]   every reference solution and a plain Netty server

              --quick             2-4 warm-ups of 2 s and 3 runs of 2 s per workload and server (the default; 1.5-3 min a chapter here)
              --thorough          2-6 warm-ups of 10 s and 5 runs of 10 s (io: 30 s): steadier figures, several times longer
              --smoke             1 s runs, of hello only (or the chapter's own workloads): proves the bench works, measures nothing
              --workloads LIST    some of hello,io,cpu,mixed,db,idle (or io-100, io-1000, io-2000), trip
              --url URL           race a server that is already running (any language) instead of the exercise
              --pid PID           with --url: its process, for CPU, memory and thread figures
              --baseline          add a plain Netty server to the race
              --solution-vs-solution   race the reference solution against itself (a sanity check)
              --out FILE          write the JSON there instead of .results/bench/

            Workloads: hello (GET /, 256 connections), io (GET /io?ms=200 at 100, 1000 and 2000
            connections), cpu (GET /cpu?ms=5, 64 connections), mixed (GET / at 500 a second while
            GET /cpu?ms=5 keeps the server busy), db (GET /db?ms=20, 2000 connections, a pool of 10
            database connections), idle (10,000 idle keep-alive connections). Chapter 08 races
            trip (GET /trip?legs=4&ms=100, 50 connections, against a backend the race starts).
            Chapters race the standard workloads (all but trip) unless the registry names their own.
            Results: a table and a chart here, and JSON in .results/bench/NN.json (all.json for --all).
            Exit status: 0 done, 1 done but something was flagged (errors, a figure above its bound),
            2 could not run.""";
}
