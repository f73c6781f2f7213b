///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
//SOURCES Stats.java Bombardier.java Idle.java Report.java Progress.java
//SOURCES ../lib/Json.java ../lib/Results.java ../lib/Target.java ../lib/Inspect.java ../lib/Unavailable.java

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/*
 * The results file, .results/bench/NN.json (or all.json), is one object a web page can chart:
 *
 * {
 *   "schema": "course-bench/1",
 *   "command": "scripts/bench.sh --all --quick",   // what was run, without the wrapper's options
 *   "kind": "chapter" | "all",  "chapter": "03" | null,  "date": ISO-8601,  "exit": 0 | 1,
 *   "compareTo": "reference" | "netty" | null,   // the server every "ratio" divides by
 *   "machine": { "cores", "cpuModel", "memoryBytes", "os": {"name","version","arch"},
 *                "java", "jbang", "bombardier", "pinned": bool, "pinning": "how, in words",
 *                "maxOpenFiles", "shared": "a reminder that other work may have run" },
 *   "methodology": { "mode": "quick"|"thorough"|"smoke", "warmups", "maxWarmups", "warmupRule", "runs", "runSeconds", "ioRunSeconds",
 *                    "warmupSeconds", "warmupPerGroup" (io-1000/io-2000 reuse io-100's warm-up), "statistic": "median", "order": "...", "sampleMillis",
 *                    "notes": [strings] },
 *   "servers": [ { "id", "role": "learner"|"reference"|"baseline", "label", "file"|null,
 *                  "url", "args": [], "pid"|null, "pinned": bool } ],          // chart order
 *   "workloads": [ {
 *       "id": "hello"|"io-100"|"io-1000"|"io-2000"|"cpu"|"idle", "group": "hello"|"io"|"cpu"|"idle",
 *       "description", "path", "connections", "serviceMillis", "timeoutSeconds",
 *       "boundRps": number | null,            // Little's law, sleep-bound workloads only
 *       "results": [ {                         // one per server, in "servers" order
 *           "server": id, "status": "measured"|"skipped"|"stalled", "skipReason"?,
 *           // "stalled": Bombardier never finished (connections starved), so no run has figures
 *           // load workloads (all figures are medians over the measured runs unless named total/peak):
 *           "rps", "latencyMs": {"p50","p99"}, "requests2xx" (total), "non2xx" (total),
 *           "errors" (total, timeouts included), "timeouts" (total), "errorKinds": {text: count},
 *           "cpuSeconds", "cpuMillisPerRequest", "peakRssBytes", "peakThreads",
 *           "boundRps" | null (this server's own bound: 01 has 1 request in progress, 02 --threads),
 *           "percentOfBound" | null (of its own bound), "ratio": {"rps","p50","p99"} | null,
 *           "loadCpuPercent" | null (Bombardier's CPU time / the run's time / the cores it may use, median),
 *           "runs": [ {"rps","seconds","requests2xx","non2xx","errors","timeouts","p50Ms","p99Ms",
 *                      "maxMs","cpuSeconds","peakRssBytes","peakThreads","percentOfBound","loadCpuPercent"} ],
 *           "warmups": [ same as runs ],
 *           // idle workload instead:
 *           "asked", "served", "refused", "unanswered", "notAttempted", "stopped" | null,
 *           "openSeconds", "heapBeforeBytes", "heapWithBytes", "heapPerConnectionBytes",
 *           "rssBeforeBytes", "rssWithBytes", "rssPerConnectionBytes", "threadsBefore",
 *           "threadsWith", "serverMaxOpenFiles", "ratio": {"heapPerConnection","rssPerConnection"} | null,
 *           "flags": [strings],              // why this result made the exit status 1
 *           "notes": [strings]               // worth knowing, not a failure (e.g. the load generator was saturated)
 *       } ] } ],
 *   "flags": [strings]                        // every flag above, with workload and server
 * }
 * Unknown numbers are null (JSON has no NaN).
 */

/**
 * The benchmark behind scripts/bench.sh: starts the learner's server and the reference solution
 * (or every solution and a Netty baseline), loads them in turn with Bombardier on the same
 * workloads, and reports medians, errors, CPU, memory and threads, in the terminal and as JSON.
 */
class Bench {
    /** A workload: a named load on one path, or the idle connections. */
    record Workload(String id, String group, String description, String path, int connections, double serviceMillis) {
        boolean sleepBound() {
            return group.equals("io");
        }

        boolean idle() {
            return group.equals("idle");
        }

        /** Well above the service time, so a slow answer is late, not lost. */
        int timeoutSeconds() {
            return (int) Math.max(5, Math.ceil(20 * serviceMillis / 1000));
        }

        double boundRps() {
            return sleepBound() ? Stats.littleBound(connections, serviceMillis / 1000) : Double.NaN;
        }
    }

    static final List<Workload> WORKLOADS = List.of(
            new Workload("hello", "hello", "GET / with 256 connections: the cost of the server's own machinery", "/", 256, 0),
            new Workload("io-100", "io", "GET /io?ms=200 (a 200 ms wait, like a database call) with 100 connections", "/io?ms=200", 100, 200),
            new Workload("io-1000", "io", "GET /io?ms=200 with 1000 connections", "/io?ms=200", 1000, 200),
            new Workload("io-2000", "io", "GET /io?ms=200 with 2000 connections", "/io?ms=200", 2000, 200),
            new Workload("cpu", "cpu", "GET /cpu?ms=5 (5 ms of CPU work) with 64 connections", "/cpu?ms=5", 64, 5),
            new Workload("idle", "idle", "10,000 idle keep-alive connections, each served one GET /: memory and threads per connection", "/", 10_000, 0));

    /**
     * How long and how often: warm-ups are discarded, the median of the runs is reported. With
     * {@code warmGroupOnce}, io-1000 and io-2000 reuse io-100's warm-up (the same code runs).
     */
    record Mode(String name, int warmups, int maxWarmups, int warmupSeconds, int runs, int runSeconds, int ioRunSeconds,
                boolean warmGroupOnce) {
        /**
         * How long a measured run of this workload lasts. A closed-loop run loses a few tenths of
         * a second at its edges (connecting, then waiting for the last answers): 2-4% of a 10 s
         * io run, so thorough io runs last longer and show the server's steady rate.
         */
        int runSecondsFor(Workload w) {
            return w.sleepBound() ? ioRunSeconds : runSeconds;
        }

        /** At least this many warm-ups for the workload (0 when it reuses its group's). */
        int warmupsFor(Workload w) {
            return warmGroupOnce && !w.id().equals(WORKLOADS.stream().filter(x -> x.group().equals(w.group()))
                    .findFirst().orElseThrow().id()) ? 0 : warmups;
        }

        /** At most this many: warming up goes on while a warm-up was over 10% faster than the one before (the JIT is still at work). */
        int maxWarmupsFor(Workload w) {
            return warmupsFor(w) == 0 ? 0 : Math.max(warmups, maxWarmups);
        }
    }

    static final Map<String, Mode> MODES = Map.of(
            "quick", new Mode("quick", 2, 4, 2, 3, 2, 2, true),        // about 2 minutes for a chapter, all workloads
            "thorough", new Mode("thorough", 2, 6, 10, 5, 10, 30, false),
            "smoke", new Mode("smoke", 1, 1, 1, 2, 1, 1, true));

    /** Whether a server needs another warm-up: fewer than the minimum, or the last one still climbed by over 10%. */
    static boolean stillWarming(List<Run> warmups, int min, int max) {
        int n = warmups.size();
        if (n < min) return true;
        if (n >= max || n < 2) return false;
        return warmups.get(n - 1).load().rps() > 1.1 * warmups.get(n - 2).load().rps();
    }

    /** Chapter options for benchmarking, where the defaults would spoil a workload. */
    static final Map<String, List<String>> CHAPTER_ARGS = Map.of(
            "05", List.of("--max-concurrent", "20000")); // its default 10000 refuses part of the idle workload

    static final int SAMPLE_MILLIS = 200;

    /** A server in the race. {@code target} and {@code inspect} are set once it runs. */
    static final class Server {
        final String id;
        final String role;
        final String label;
        final Path file;
        final List<String> args;
        String url;
        Target target;
        Inspect inspect;
        boolean pinned;
        String gone; // why it stopped answering, once it has

        /**
         * How many requests the model can have in progress at once, when the model caps it: one
         * for chapter 01's single thread, --threads (default 16) for chapter 02's pool; 0 = no cap.
         */
        int concurrency() {
            String name = file == null ? "" : file.getFileName().toString();
            if (name.startsWith("01-")) return 1;
            if (name.startsWith("02-")) {
                int at = args.indexOf("--threads");
                return at >= 0 && at + 1 < args.size() ? Integer.parseInt(args.get(at + 1)) : 16;
            }
            return 0;
        }

        Server(String id, String role, String label, Path file, List<String> args) {
            this.id = id;
            this.role = role;
            this.label = label;
            this.file = file;
            this.args = args;
        }
    }

    // Options
    static Path root = Path.of(".").toAbsolutePath().normalize();
    static String jbang = "jbang";
    static String bombardierPath = "bombardier";
    static Mode mode = MODES.get("quick");
    static List<Workload> workloads = WORKLOADS;
    static boolean tty;
    static boolean color;
    static Path outFile; // instead of .results/bench/NN.json (the self-test keeps the learner's results)

    static final PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true, StandardCharsets.UTF_8);
    static Progress progress;

    public static void main(String[] args) throws Exception {
        String chapter = null;
        boolean all = false;
        boolean baseline = false;
        boolean selfRace = false;
        String url = null;
        Long pid = null;
        String workloadList = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "-h", "--help" -> { out.println(USAGE); System.exit(0); }
                case "--all" -> all = true;
                case "--quick", "--thorough", "--smoke" -> mode = MODES.get(args[i].substring(2));
                case "--workloads" -> workloadList = value(args, ++i);
                case "--url" -> url = value(args, ++i);
                case "--pid" -> pid = number(value(args, ++i), "--pid");
                case "--baseline" -> baseline = true;
                case "--solution-vs-solution" -> selfRace = true;
                case "--root" -> root = Path.of(value(args, ++i)).toAbsolutePath().normalize();
                case "--jbang" -> jbang = value(args, ++i);
                case "--bombardier" -> bombardierPath = value(args, ++i);
                case "--out" -> outFile = Path.of(value(args, ++i)).toAbsolutePath();
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
        if (mode.name().equals("smoke") && workloadList == null) workloadList = "hello";
        if (workloadList != null) workloads = pick(workloadList);
        if (all) baseline = true;

        // The servers, in chart order.
        List<Server> servers = new ArrayList<>();
        if (all) {
            for (Path file : solutions()) {
                String n = file.getFileName().toString().substring(0, 2);
                servers.add(new Server(n, "reference", "solutions/" + file.getFileName(), file, CHAPTER_ARGS.getOrDefault(n, List.of())));
            }
            if (servers.isEmpty()) environment("no solutions/NN-*.java under " + root);
        } else {
            List<String> chapterArgs = CHAPTER_ARGS.getOrDefault(chapter, List.of());
            Path reference = chapterFile("solutions", chapter);
            if (url != null) {
                servers.add(new Server("learner", "learner", url, null, List.of()));
            } else {
                Path learner = selfRace ? reference : chapterFile("exercises", chapter);
                servers.add(new Server("learner", "learner", root.relativize(learner).toString(), learner, chapterArgs));
            }
            servers.add(new Server("reference", "reference", root.relativize(reference).toString(), reference, chapterArgs));
        }
        if (baseline) {
            Path netty = root.resolve("scripts/bench/NettyBaseline.java");
            servers.add(new Server("netty", "baseline", "Netty 4.2 (scripts/bench/NettyBaseline.java)", netty, List.of()));
        }

        if (url != null) {
            try {
                if (!Target.running(url, pid).accepting()) environment("nothing accepts connections at " + url + ": start your server first");
            } catch (IllegalArgumentException e) {
                usage(e.getMessage());
            }
            if (pid != null && ProcessHandle.of(pid).isEmpty()) environment("no process " + pid + " (--pid)");
        }

        Map<String, Object> machine = machine();
        boolean pin = (Boolean) machine.get("pinned");
        Bombardier bombardier = new Bombardier(bombardierPath, pin ? List.of("taskset", "-c", "1") : List.of());
        machine.put("bombardier", bombardier.version());
        int idleConnections = idleBudget(machine);

        Instant began = Instant.now();
        out.println(bold(all ? "The showdown: every reference solution and a plain Netty server"
                : "Chapter " + chapter + ": " + servers.get(0).label + " against " + servers.get(1).label));
        out.println(dim("  " + mode.warmups() + (mode.maxWarmups() > mode.warmups() ? " to " + mode.maxWarmups() : "")
                + " warm-up run(s) of " + mode.warmupSeconds() + " s (discarded; more while still over 10% faster than the last), then "
                + mode.runs() + " runs of " + mode.runSeconds() + " s"
                + (mode.ioRunSeconds() != mode.runSeconds() ? " (io: " + mode.ioRunSeconds() + " s)" : "")
                + " per server, taking turns; median reported"
                + (mode.warmGroupOnce() ? "; io-1000 and io-2000 reuse io-100's warm-up" : "")));
        out.println(dim("  " + machine.get("pinning")));
        out.println(dim("  " + machine.get("cores") + " CPUs, " + machine.get("java") + ", " + machine.get("bombardier")
                + "; other work on this machine skews the figures"));

        // Start the servers, all at once, and keep them running for the whole race.
        progress = new Progress(tty, mode, workloads, servers.size());
        Runtime.getRuntime().addShutdownHook(new Thread(() -> servers.forEach(s -> { if (s.target != null) s.target.stop(); })));
        start(servers, url, pid, pin);

        List<Object> results = new ArrayList<>();
        List<String> flags = new ArrayList<>();
        String compareTo = all ? (baseline ? "netty" : null) : "reference";
        for (Workload w : workloads) {
            List<Map<String, Object>> rows = w.idle() ? idle(w, servers, idleConnections) : load(w, servers, bombardier);
            Report.ratios(w, rows, compareTo);
            for (Map<String, Object> row : rows) {
                for (Object f : Json.array(row.get("flags"))) flags.add(w.id() + ", " + row.get("server") + ": " + f);
            }
            Map<String, Object> wj = new LinkedHashMap<>();
            wj.put("id", w.id());
            wj.put("group", w.group());
            wj.put("description", w.description());
            wj.put("path", w.idle() ? "/" : w.path());
            wj.put("connections", w.idle() ? idleConnections : w.connections());
            wj.put("serviceMillis", w.serviceMillis());
            wj.put("timeoutSeconds", w.idle() ? null : w.timeoutSeconds());
            wj.put("boundRps", nullIfNaN(w.boundRps()));
            wj.put("results", rows);
            results.add(wj);
        }
        progress.done();
        servers.forEach(s -> { if (s.target != null) s.target.stop(); });

        Map<String, Object> report = new LinkedHashMap<>();
        report.put("schema", "course-bench/1");
        report.put("kind", all ? "all" : "chapter");
        report.put("command", command(args));
        report.put("chapter", chapter);
        report.put("date", began.toString());
        report.put("exit", flags.isEmpty() ? 0 : 1);
        report.put("compareTo", compareTo);
        report.put("machine", machine);
        report.put("methodology", methodology(pin, idleConnections));
        report.put("servers", servers.stream().map(Bench::serverJson).toList());
        report.put("workloads", results);
        report.put("flags", flags);
        report.put("seconds", Duration.between(began, Instant.now()).toSeconds());

        Report.print(out, report, color);
        Path file;
        if (outFile != null) {
            file = outFile;
            Files.createDirectories(file.getParent());
            Files.writeString(file, Json.write(report));
        } else {
            file = Results.write(root, "bench", all ? "all" : chapter, Json.write(report));
        }
        out.println();
        if (!flags.isEmpty()) {
            out.println(red(flags.size() + " flagged result(s), marked ! above (exit status 1)"));
        }
        out.println("Results: " + (file.startsWith(root) ? root.relativize(file) : file) + dim("  (took " + Stats.duration(Duration.between(began, Instant.now()).toSeconds()) + ")"));
        System.exit(flags.isEmpty() ? 0 : 1);
    }

    // ---- Servers ----

    /** Starts every server that has a file (in parallel), or attaches to the running one; pins them when asked. */
    static void start(List<Server> servers, String url, Long pid, boolean pin) {
        progress.say("starting " + servers.size() + " servers with JBang (the first build of a file takes a while)");
        // JBang must not build one file twice at once: a second server of the same file starts after the first.
        java.util.Set<Path> files = new java.util.HashSet<>();
        List<Server> first = new ArrayList<>(), again = new ArrayList<>();
        for (Server s : servers) (s.file == null || files.add(s.file) ? first : again).add(s);
        startAll(first, url, pid, pin);
        startAll(again, url, pid, pin);
        for (Server s : servers) {
            progress.say(String.format(Locale.ROOT, "%-9s %s at %s%s", s.id, s.label, s.url,
                    s.target.pid() == null ? " (no --pid: no CPU, memory or thread figures)" : ", pid " + s.target.pid()));
        }
    }

    static void startAll(List<Server> servers, String url, Long pid, boolean pin) {
        List<CompletableFuture<Void>> starting = new ArrayList<>();
        for (Server s : servers) {
            if (s.file == null) {
                try {
                    s.target = Target.running(url, pid);
                } catch (IllegalArgumentException e) {
                    usage(e.getMessage());
                }
                if (!s.target.accepting()) environment("nothing accepts connections at " + url);
                if (pid != null) {
                    s.inspect = new Inspect(pid);
                    s.pinned = pin && pinRunning(pid);
                    urlPinnedLate = s.pinned;
                }
                s.url = s.target.url();
                continue;
            }
            starting.add(CompletableFuture.runAsync(() -> {
                List<String> command = new ArrayList<>();
                if (pin) command.addAll(List.of("taskset", "-c", "0"));
                command.addAll(List.of(jbang, s.file.toString(), "--port", "0"));
                command.addAll(s.args);
                Path log = root.resolve(".results/logs/bench-" + s.id + ".log");
                try {
                    Files.deleteIfExists(log);
                    s.target = Target.start(command, log, Duration.ofSeconds(180));
                } catch (IOException e) {
                    throw new IllegalStateException(s.label + ": " + e.getMessage(), e);
                }
                s.url = s.target.url();
                s.pinned = pin;
                if (s.target.pid() != null) s.inspect = new Inspect(s.target.pid());
            }, r -> Thread.ofPlatform().start(r)));
        }
        try {
            CompletableFuture.allOf(starting.toArray(CompletableFuture[]::new)).join();
        } catch (RuntimeException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            progress.done();
            environment("a server did not start: " + cause.getMessage());
        }
    }

    /** Pins a running process and all its threads to CPU 0 ({@code taskset -a -p -c 0 PID}). */
    static boolean pinRunning(long pid) {
        try {
            Process p = new ProcessBuilder("taskset", "-a", "-p", "-c", "0", String.valueOf(pid)).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    static List<Path> solutions() throws IOException {
        try (Stream<Path> files = Files.list(root.resolve("solutions"))) {
            return files.filter(p -> p.getFileName().toString().matches("\\d\\d-.*\\.java")).sorted().toList();
        }
    }

    static Path chapterFile(String dir, String chapter) throws IOException {
        if (!chapter.matches("\\d\\d")) usage("a chapter is a number such as 03, not '" + chapter + "'");
        try (Stream<Path> files = Files.list(root.resolve(dir))) {
            return files.filter(p -> p.getFileName().toString().matches(chapter + "-.*\\.java")).findFirst()
                    .orElseGet(() -> { usage("no " + dir + "/" + chapter + "-*.java"); return null; });
        }
    }

    static Map<String, Object> serverJson(Server s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", s.id);
        m.put("role", s.role);
        m.put("label", s.label);
        m.put("file", s.file == null ? null : root.relativize(s.file).toString());
        m.put("url", s.url);
        m.put("args", s.args);
        m.put("pid", s.target == null ? null : s.target.pid());
        m.put("pinned", s.pinned);
        return m;
    }

    // ---- Load workloads ----

    /** One run's figures, with what the sampler saw of the server meanwhile. */
    record Run(Bombardier.Result load, double cpuSeconds, long peakRss, int peakThreads, double percentOfBound, double loadCpuPercent) {
        Map<String, Object> json() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("rps", nullIfNaN(load.rps()));
            m.put("seconds", nullIfNaN(load.seconds()));
            m.put("requests2xx", load.ok());
            m.put("non2xx", load.non2xx());
            m.put("errors", load.errors());
            m.put("timeouts", load.timeouts());
            m.put("p50Ms", nullIfNaN(load.p50Ms()));
            m.put("p99Ms", nullIfNaN(load.p99Ms()));
            m.put("maxMs", nullIfNaN(load.maxMs()));
            m.put("cpuSeconds", nullIfNaN(cpuSeconds));
            m.put("peakRssBytes", peakRss < 0 ? null : peakRss);
            m.put("peakThreads", peakThreads < 0 ? null : peakThreads);
            m.put("percentOfBound", nullIfNaN(percentOfBound));
            m.put("loadCpuPercent", nullIfNaN(loadCpuPercent));
            return m;
        }
    }

    /** Warm-ups, then measured runs, the servers taking turns (A B A B ...), one under load at a time. */
    static List<Map<String, Object>> load(Workload w, List<Server> servers, Bombardier bombardier) {
        Map<Server, String> skip = new LinkedHashMap<>();
        for (Server s : servers) {
            String why = probe(s, w);
            if (why != null) skip.put(s, why);
        }
        Map<Server, List<Run>> warm = new LinkedHashMap<>();
        Map<Server, List<Run>> runs = new LinkedHashMap<>();
        Map<Server, List<String>> problems = new LinkedHashMap<>();
        for (Server s : servers) {
            warm.put(s, new ArrayList<>());
            runs.put(s, new ArrayList<>());
            problems.put(s, new ArrayList<>());
        }
        java.util.Set<Server> cut = new java.util.HashSet<>();
        Map<Server, List<String>> stalls = new LinkedHashMap<>();
        servers.forEach(s -> stalls.put(s, new ArrayList<>()));
        // Warm up, each server until it is steady (or the most warm-ups), taking turns; then the measured runs, taking turns.
        int minWarm = mode.warmupsFor(w);
        int maxWarm = mode.maxWarmupsFor(w);
        for (int round = 0; round < maxWarm; round++) {
            for (Server s : servers) {
                if (skip.containsKey(s) || s.gone != null || cut.contains(s) || !stillWarming(warm.get(s), minWarm, maxWarm)) {
                    if (round < minWarm) progress.skip(mode.warmupSeconds() + 1);
                    continue;
                }
                String what = w.id() + ": " + s.id + " warm-up " + (round + 1) + (round + 1 > minWarm ? " (still getting faster)" : "/" + minWarm);
                turn(w, s, bombardier, what, true, round, mode.warmupSeconds(), warm, runs, problems, stalls, cut);
            }
        }
        for (int round = 0; round < mode.runs(); round++) {
            for (Server s : servers) {
                if (skip.containsKey(s) || s.gone != null || cut.contains(s)) {
                    progress.skip(mode.runSecondsFor(w) + 1);
                    continue;
                }
                String what = w.id() + ": " + s.id + " run " + (round + 1) + "/" + mode.runs();
                turn(w, s, bombardier, what, false, round, mode.runSecondsFor(w), warm, runs, problems, stalls, cut);
            }
        }
        List<Map<String, Object>> rows = new ArrayList<>();
        for (Server s : servers) {
            rows.add(Report.loadRow(w, s.id, bound(w, s), skip.get(s), warm.get(s), runs.get(s), problems.get(s), s.gone, stalls.get(s)));
        }
        return rows;
    }

    /** One server's turn under load: a warm-up or a measured run, recorded where it belongs. */
    static void turn(Workload w, Server s, Bombardier bombardier, String what, boolean warmup, int round, int seconds,
                     Map<Server, List<Run>> warm, Map<Server, List<Run>> runs, Map<Server, List<String>> problems,
                     Map<Server, List<String>> stalls, java.util.Set<Server> cut) {
        progress.step(what, seconds + 1);
        try {
            Run r = measure(w, s, bombardier, seconds);
            (warmup ? warm : runs).get(s).add(r);
        } catch (Bombardier.Stalled e) {
            // More runs would stall the same way, and take as long: this server is done with this workload.
            stalls.get(s).add((warmup ? "the warm-up" : "run " + (round + 1)) + " stalled: "
                    + "Bombardier had not finished " + e.afterSeconds + " s after a " + seconds + " s run, so some of the "
                    + w.connections() + " connections got no answer within " + w.timeoutSeconds()
                    + " s (starved); it was stopped, and that run has no counts");
            cut.add(s);
        } catch (IOException e) {
            problems.get(s).add((warmup ? "warm-up" : "run") + " failed: " + e.getMessage());
        }
        if (!alive(s)) s.gone = "the server exited during " + what + " (see .results/logs/bench-" + s.id + ".log)";
        pause(100);
    }

    /** One Bombardier run against a server, sampling its memory and threads every 200 ms. */
    static Run measure(Workload w, Server s, Bombardier bombardier, int seconds) throws IOException {
        Sampler sampler = new Sampler(s.inspect);
        double cpuBefore = cpuSeconds(s);
        sampler.start();
        Bombardier.Result r;
        try {
            r = bombardier.run(s.url + w.path(), w.connections(), seconds, w.timeoutSeconds());
        } finally {
            sampler.stop();
        }
        double cpu = cpuSeconds(s) - cpuBefore;
        return new Run(r, cpu, sampler.peakRss.get(), sampler.peakThreads.get(), Stats.percentOf(r.rps(), bound(w, s)),
                r.cpuPercent(bombardier.cores()));
    }

    /**
     * Little's law for this server on a sleep-bound workload: the requests it can have in
     * progress (the connections, or fewer when the model caps them) / the service time.
     */
    static double bound(Workload w, Server s) {
        if (!w.sleepBound()) return Double.NaN;
        int inProgress = s.concurrency() > 0 ? Math.min(w.connections(), s.concurrency()) : w.connections();
        return Stats.littleBound(inProgress, w.serviceMillis() / 1000);
    }

    static double cpuSeconds(Server s) {
        if (s.inspect == null) return Double.NaN;
        try {
            return s.inspect.cpuTime().toNanos() / 1e9;
        } catch (RuntimeException e) {
            return Double.NaN;
        }
    }

    static boolean alive(Server s) {
        Long pid = s.target.pid();
        if (pid != null) return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
        return s.target.accepting();
    }

    /** Samples a server's peak RSS and OS thread count in the background. */
    static final class Sampler {
        final AtomicLong peakRss = new AtomicLong(-1);
        final AtomicInteger peakThreads = new AtomicInteger(-1);
        private final Inspect inspect;
        private Thread thread;

        Sampler(Inspect inspect) {
            this.inspect = inspect;
        }

        void start() {
            if (inspect == null) return;
            thread = Thread.ofPlatform().daemon().name("sampler").start(() -> {
                while (!Thread.currentThread().isInterrupted()) {
                    sample();
                    try {
                        Thread.sleep(SAMPLE_MILLIS);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
        }

        void sample() {
            OptionalLong rss = inspect.residentBytes();
            if (rss.isPresent()) peakRss.accumulateAndGet(rss.getAsLong(), Math::max);
            OptionalInt threads = inspect.osThreads();
            if (threads.isPresent()) peakThreads.accumulateAndGet(threads.getAsInt(), Math::max);
        }

        void stop() {
            if (thread == null) return;
            thread.interrupt();
            try {
                thread.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            sample();
        }
    }

    /**
     * Asks once for the workload's path, on a fresh connection: null when it answers (any
     * status but 404), else why the workload is skipped for this server.
     */
    static String probe(Server s, Workload w) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(s.target.host, s.target.port), 5000);
            socket.setSoTimeout(5_000);
            OutputStream o = socket.getOutputStream();
            o.write(("GET " + w.path() + " HTTP/1.1\r\nHost: " + s.target.host + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            o.flush();
            InputStream in = socket.getInputStream();
            byte[] head = in.readNBytes(12);
            String status = new String(head, StandardCharsets.ISO_8859_1);
            if (status.startsWith("HTTP/1.1 404") || status.startsWith("HTTP/1.0 404")) return "it has no " + w.path() + " endpoint (404)";
            return null;
        } catch (IOException e) {
            return null; // the runs will show what goes wrong
        }
    }

    // ---- Idle connections ----

    /** For each server in turn: heap and RSS before, open the idle connections, heap and RSS with them, close them. */
    static List<Map<String, Object>> idle(Workload w, List<Server> servers, int connections) {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (Server s : servers) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("server", s.id);
            List<String> flags = new ArrayList<>();
            if (s.gone != null) {
                progress.skip(12);
                row.put("status", "skipped");
                row.put("skipReason", s.gone);
                row.put("flags", List.of(s.gone));
                rows.add(row);
                continue;
            }
            progress.step(w.id() + ": " + s.id + " opens " + connections + " connections", 12);
            row.put("status", "measured");
            double heapBefore = heap(s);
            long rssBefore = s.inspect == null ? -1 : s.inspect.residentBytes().orElse(-1);
            int threadsBefore = s.inspect == null ? -1 : s.inspect.osThreads().orElse(-1);
            try (Idle idle = new Idle()) {
                Idle.Outcome o = idle.open(s.target.host, s.target.port, connections, 500, 5_000, 3_000);
                pause(500);
                double heapWith = heap(s);
                long rssWith = s.inspect == null ? -1 : s.inspect.residentBytes().orElse(-1);
                int threadsWith = s.inspect == null ? -1 : s.inspect.osThreads().orElse(-1);
                row.put("asked", o.asked());
                row.put("served", o.served());
                row.put("refused", o.refused());
                row.put("unanswered", o.unanswered());
                row.put("notAttempted", o.notAttempted());
                row.put("stopped", o.stopped());
                row.put("openSeconds", nullIfNaN(o.seconds()));
                row.put("heapBeforeBytes", nullIfNaN(heapBefore));
                row.put("heapWithBytes", nullIfNaN(heapWith));
                row.put("heapPerConnectionBytes", nullIfNaN(o.served() == 0 ? Double.NaN : (heapWith - heapBefore) / o.served()));
                row.put("rssBeforeBytes", rssBefore < 0 ? null : rssBefore);
                row.put("rssWithBytes", rssWith < 0 ? null : rssWith);
                row.put("rssPerConnectionBytes", rssBefore < 0 || rssWith < 0 || o.served() == 0 ? null : nullIfNaN((double) (rssWith - rssBefore) / o.served()));
                row.put("threadsBefore", threadsBefore < 0 ? null : threadsBefore);
                row.put("threadsWith", threadsWith < 0 ? null : threadsWith);
                long serverFiles = s.inspect == null ? -1 : s.inspect.maxOpenFiles().orElse(-1);
                row.put("serverMaxOpenFiles", serverFiles < 0 ? null : serverFiles);
                if (o.served() < o.asked()) {
                    flags.add(String.format(Locale.ROOT, "served %d of %d idle connections (%d refused, %d unanswered, %d not tried%s)%s",
                            o.served(), o.asked(), o.refused(), o.unanswered(), o.notAttempted(),
                            o.stopped() == null ? "" : ": " + o.stopped(),
                            serverFiles >= 0 && serverFiles < connections + 100
                                    ? "; the server may open only " + serverFiles + " files (its ulimit -n)" : ""));
                }
            } catch (IOException e) {
                flags.add("the idle connections could not be opened: " + e.getMessage());
            }
            if (!alive(s)) {
                s.gone = "the server exited during the idle workload";
                flags.add(s.gone);
            }
            row.put("flags", flags);
            rows.add(row);
            pause(500);
        }
        return rows;
    }

    /** Heap in use after a full GC, or NaN when the server is not a JVM we can attach to. */
    static double heap(Server s) {
        if (s.inspect == null) return Double.NaN;
        try {
            return s.inspect.heapAfterGc();
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    /** How many idle connections this process can open (the JVM raised its soft limit to the hard one at start). */
    static int idleBudget(Map<String, Object> machine) {
        int wanted = 10_000;
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.UnixOperatingSystemMXBean os) {
            long max = os.getMaxFileDescriptorCount();
            long free = max - os.getOpenFileDescriptorCount() - 256;
            machine.put("maxOpenFiles", max);
            if (free < wanted) {
                int scaled = (int) Math.max(100, free);
                idleNote = "this process may open only " + max + " files (ulimit -n): the idle workload opens "
                        + scaled + " connections instead of " + wanted + "; raise the limit with 'ulimit -n 20000'";
                return scaled;
            }
        }
        return wanted;
    }

    static String idleNote;
    static boolean urlPinnedLate;

    // ---- Machine and methodology ----

    static Map<String, Object> machine() {
        Map<String, Object> m = new LinkedHashMap<>();
        int cores = Runtime.getRuntime().availableProcessors();
        m.put("cores", cores);
        m.put("cpuModel", cpuModel());
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            m.put("memoryBytes", os.getTotalMemorySize());
        }
        Map<String, Object> os = new LinkedHashMap<>();
        os.put("name", System.getProperty("os.name"));
        os.put("version", System.getProperty("os.version"));
        os.put("arch", System.getProperty("os.arch"));
        m.put("os", os);
        m.put("java", "Java " + Runtime.version() + " (" + System.getProperty("java.vendor") + ")");
        m.put("jbang", jbangVersion());
        boolean taskset = onPath("taskset");
        boolean pin = taskset && cores >= 2;
        m.put("pinned", pin);
        m.put("pinning", pin ? "pinned: servers on CPU 0 (taskset -c 0), Bombardier on CPU 1 (taskset -c 1)"
                : "not pinned: " + (taskset ? "fewer than 2 CPUs" : "no taskset on this system")
                + "; servers and Bombardier share the CPUs, so expect more spread");
        m.put("shared", "other programs running on this machine at the same time skew the figures");
        return m;
    }

    static Map<String, Object> methodology(boolean pin, int idleConnections) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("mode", mode.name());
        m.put("warmups", mode.warmups());
        m.put("maxWarmups", mode.maxWarmups());
        m.put("warmupRule", "at least warmups, at most maxWarmups: another while the last warm-up was over 10% faster than the one before");
        m.put("warmupSeconds", mode.warmupSeconds());
        m.put("runs", mode.runs());
        m.put("runSeconds", mode.runSeconds());
        m.put("ioRunSeconds", mode.ioRunSeconds());
        m.put("warmupPerGroup", mode.warmGroupOnce());
        m.put("statistic", "median of the runs");
        m.put("order", "per workload: every server warms up, then the servers take turns run by run (A B A B ...); all stay running, one is under load at a time");
        m.put("sampleMillis", SAMPLE_MILLIS);
        m.put("load", "Bombardier, closed loop: each connection sends its next request when the last answer came; its percentiles suffer from coordinated omission");
        List<String> notes = new ArrayList<>();
        notes.add("requests per second = 2xx answers / the time Bombardier took (which includes connecting and waiting for the last answers)");
        notes.add("loadCpuPercent: Bombardier's own CPU use; near 100% it may be the bottleneck, and the result gets a note");
        notes.add("errors, timeouts and non-2xx answers are counted and shown, never dropped");
        notes.add("sleep-bound workloads (io) cannot beat Little's law: connections / service time");
        notes.add("idle: heap after a full GC (jcmd GC.run) with the connections open minus before, divided by connections served; RSS likewise");
        if (idleConnections < 10_000 && idleNote != null) notes.add(idleNote);
        notes.add(pin ? "servers pinned to CPU 0 and Bombardier to CPU 1; a JVM limited to one CPU sizes itself for one (Serial GC, fewer threads)"
                : "not pinned");
        if (pin && urlPinnedLate) notes.add("the --url server was pinned after it started: its JVM had sized itself for every CPU");
        m.put("notes", notes);
        return m;
    }

    static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) return line.substring(line.indexOf(':') + 1).strip();
            }
        } catch (IOException | RuntimeException e) {
            // not Linux
        }
        return System.getProperty("os.arch");
    }

    static String jbangVersion() {
        try {
            Process p = new ProcessBuilder(jbang, "--version").redirectErrorStream(true).start();
            String v = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            p.waitFor();
            return v.lines().reduce((a, b) -> b).orElse("unknown");
        } catch (IOException | InterruptedException e) {
            return "unknown";
        }
    }

    static boolean onPath(String command) {
        String path = System.getenv("PATH");
        if (path == null) return false;
        for (String dir : path.split(java.io.File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, command))) return true;
        }
        return false;
    }

    // ---- Small helpers ----

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

    static List<Workload> pick(String list) {
        List<Workload> picked = new ArrayList<>();
        for (Workload w : WORKLOADS) {
            for (String name : list.split(",")) {
                if (name.equals(w.id()) || name.equals(w.group())) {
                    picked.add(w);
                    break;
                }
            }
        }
        for (String name : list.split(",")) {
            if (WORKLOADS.stream().noneMatch(w -> w.id().equals(name) || w.group().equals(name))) {
                usage("no workload '" + name + "'; workloads: hello, io (io-100, io-1000, io-2000), cpu, idle");
            }
        }
        return picked;
    }

    /** A figure for the JSON: null when unknown, else rounded to 4 significant digits (no more than the runs can tell). */
    static Object nullIfNaN(double d) {
        return Double.isNaN(d) || Double.isInfinite(d) ? null : Stats.significant(d, 4);
    }

    static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static String value(String[] args, int i) {
        if (i >= args.length) usage("option " + args[i - 1] + " needs a value");
        return args[i];
    }

    static long number(String s, String option) {
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            usage(option + " needs a number, not '" + s + "'");
            return -1;
        }
    }

    static void usage(String problem) {
        System.err.println("bench: " + problem + "\n\n" + USAGE);
        System.exit(2);
    }

    static void environment(String problem) {
        System.err.println("bench: " + problem);
        System.exit(2);
    }

    // The report's colours, on once --color is read.
    static String bold(String s) { return new Report.Painter(color).bold(s); }
    static String dim(String s) { return new Report.Painter(color).dim(s); }
    static String red(String s) { return new Report.Painter(color).red(s); }

    static final String USAGE = """
            usage: scripts/bench.sh NN [options]      race exercises/NN-*.java against solutions/NN-*.java
                   scripts/bench.sh --all [options]   the showdown: every solution and a plain Netty server

              --quick             2-4 warm-ups of 2 s and 3 runs of 2 s per workload and server (the default; 1.5-3 min a chapter here)
              --thorough          2-6 warm-ups of 10 s and 5 runs of 10 s (io: 30 s): steadier figures, several times longer
              --smoke             hello only, 1 s runs: proves the bench works, measures nothing
              --workloads LIST    some of hello,io,cpu,idle (or io-100, io-1000, io-2000)
              --url URL           race a server that is already running (any language) instead of the exercise
              --pid PID           with --url: its process, for CPU, memory and thread figures
              --baseline          add a plain Netty server to the race
              --solution-vs-solution   race the reference solution against itself (a sanity check)
              --out FILE          write the JSON there instead of .results/bench/

            Workloads: hello (GET /, 256 connections), io (GET /io?ms=200 at 100, 1000 and 2000
            connections), cpu (GET /cpu?ms=5, 64 connections), idle (10,000 idle keep-alive connections).
            Results: a table and a chart here, and JSON in .results/bench/NN.json (all.json for --all).
            Exit status: 0 done, 1 done but something was flagged (errors, a figure above its bound),
            2 could not run.""";
}
