package contract;

import java.util.ArrayList;
import java.util.List;
import lib.Jackson;

/** What a race runs: the workloads, how long and how often (the modes), and the methodology the report states. */
public final class Plan {
    private Plan() {}

    /** A workload's family: workloads of one group share a warm-up and a chart; the JSON names it by {@link #label}. */
    public enum Group implements Jackson.Label {
        HELLO, IO, CPU, MIXED, DB, IDLE, TRIP, DEMO, RAMP, SPIKE, SOAK, OPEN_LOOP, CONNECTIONS;

        /** The group a label names (as the JSON and {@code --workloads} write it), or null. */
        static Group of(String label) {
            for (Group g : values()) if (g.label().equals(label)) return g;
            return null;
        }
    }

    /**
     * A workload: a named load on one path, or the idle connections. {@code rate}: requests a
     * second, or 0 for as fast as answers come (closed loop); {@code background}: a second load
     * that runs during each run, unmeasured, or null.
     */
    public record Workload(String id, Group group, String description, String path, int connections, double serviceMillis,
                    int rate, Background background) {
        /** A load on {@code path} that runs beside the measured one. */
        public record Background(String path, int connections) {}

        public Workload(String id, Group group, String description, String path, int connections, double serviceMillis) {
            this(id, group, description, path, connections, serviceMillis, 0, null);
        }

        public boolean sleepBound() {
            return group == Group.IO || demo() || ramp() || pooled() || callsBackend();
        }

        /** The Spring Boot demo's shape ({@link Plan#SPRING_DEMO}). */
        boolean demo() {
            return group == Group.DEMO;
        }

        /** A step of the ramp ({@link Plan#ramp}): its errors are its finding, not a failure. */
        public boolean ramp() {
            return group == Group.RAMP;
        }

        /** trip: each request calls a backend ({@link #TRIP_LEGS} calls of {@link #serviceMillis} at once); chapter 08's race. */
        public boolean callsBackend() {
            return group == Group.TRIP;
        }

        /** db: each request holds one of the pool's {@link #DB_POOL} connections while it waits. */
        public boolean pooled() {
            return group == Group.DB;
        }

        /** How many requests can be in progress at once: the connections, or the pool's size. */
        public int inProgress() {
            return pooled() ? Math.min(connections, DB_POOL) : connections;
        }

        public boolean idle() {
            return group == Group.IDLE;
        }

        /**
         * hello: Bombardier needs about as much CPU as the server it loads (tens of thousands of
         * requests a second), so it gets CPUs of its own; every other load costs it little.
         */
        boolean loadCostsCpu() {
            return group == Group.HELLO;
        }

        /** Well above the service time, so a slow answer is late, not lost; for db, above the longest wait for a connection. */
        public int timeoutSeconds() {
            if (pooled()) return DB_WAIT_MILLIS / 1000 + 5;
            // Why: 16 threads answer the demo's 2000 connections 40 a second, so the last waits
            // 50 s; every answer is awaited, and the latency says what the rate hides.
            if (demo()) return 60;
            return (int) Math.max(5, Math.ceil(20 * serviceMillis / 1000));
        }

        public double boundRps() {
            return sleepBound() ? Stats.littleBound(inProgress(), serviceMillis / 1000) : Double.NaN;
        }
    }

    public static final List<Workload> WORKLOADS = List.of(
            new Workload("hello", Group.HELLO, "GET / with 256 connections: the cost of the server's own machinery", "/", 256, 0),
            new Workload("io-100", Group.IO, "GET /io?ms=200 (a 200 ms wait, like a database call) with 100 connections", "/io?ms=200", 100, 200),
            new Workload("io-1000", Group.IO, "GET /io?ms=200 with 1000 connections", "/io?ms=200", 1000, 200),
            new Workload("io-2000", Group.IO, "GET /io?ms=200 with 2000 connections", "/io?ms=200", 2000, 200),
            new Workload("cpu", Group.CPU, "GET /cpu?ms=5 (5 ms of CPU work) with 64 connections", "/cpu?ms=5", 64, 5),
            new Workload("mixed", Group.MIXED, "GET / at 500 a second with 16 connections, while 16 more keep GET /cpu?ms=5 busy: the p99 of GET / is the figure",
                    "/", 16, 0, 500, new Workload.Background("/cpu?ms=5", 16)),
            new Workload("db", Group.DB, "GET /db?ms=20 (a 20 ms query through a pool of 10 connections) with 2000 connections: the pool is the bound",
                    "/db?ms=20", 2000, 20),
            new Workload("idle", Group.IDLE, "10,000 idle keep-alive connections, each served one GET /: memory and threads per connection", "/", 10_000, 0),
            new Workload("trip", Group.TRIP, "GET /trip?legs=4&ms=100 (4 calls of 100 ms to a backend, at once) with 50 connections: 200 calls in flight",
                    "/trip?legs=" + Plan.TRIP_LEGS + "&ms=100", 50, 100));

    /**
     * The shape of a well-known Spring Boot demo of virtual threads: a 400 ms wait at 2000
     * connections, raced by {@code --spring-demo} against Tomcat with 16 and 50 platform threads
     * and with virtual threads. Its bounds: 16 / 0.4 s = 40, 50 / 0.4 s = 125, 2000 / 0.4 s = 5000.
     */
    public static final Workload SPRING_DEMO = new Workload("demo", Group.DEMO,
            "GET /io?ms=400 (a 400 ms wait) with 2000 connections: the Spring Boot demo's shape", "/io?ms=400", 2000, 400);

    /** The ramp's steps: connections to GET /io?ms=200, rising until each server breaks. */
    static final int[] RAMP_STEPS = {100, 250, 500, 1000, 2500, 5000, 10_000};
    /** A step breaks a server when more than this share of its requests fail (errors, timeouts, non-2xx)... */
    public static final double RAMP_MAX_ERROR_PERCENT = 1;
    /** ...or when its p99 passes this: five times the 200 ms wait, a queue that no longer drains. */
    public static final double RAMP_MAX_P99_MS = 1000;

    /** The ramp's steps up to {@code max} connections (what this process may open); with {@code smoke}, the first two. */
    public static List<Workload> ramp(int max, boolean smoke) {
        List<Workload> steps = new ArrayList<>();
        for (int c : RAMP_STEPS) {
            if (c > max || smoke && steps.size() == 2) break;
            steps.add(new Workload("ramp-" + c, Group.RAMP, "GET /io?ms=200 with " + c + " connections, a step of the ramp", "/io?ms=200", c, 200));
        }
        return steps;
    }

    /** The calls a trip of the trip workload makes. */
    static final int TRIP_LEGS = 4;

    /** The workloads a race runs when none are named: every one but those of a single chapter (trip). */
    public static List<Workload> standard() {
        return WORKLOADS.stream().filter(w -> !w.callsBackend()).toList();
    }

    /** The three modes a race runs in ({@code --quick}, {@code --thorough}, {@code --smoke}); the JSON names them by {@link #label}. */
    public enum Pace implements Jackson.Label {
        QUICK, THOROUGH, SMOKE;

        /** The pace an option names ("--smoke"), or null. */
        static Pace of(String option) {
            for (Pace p : values()) if (("--" + p.label()).equals(option)) return p;
            return null;
        }

        public Mode mode() {
            return switch (this) {
                case QUICK -> new Mode(this, false, 2, 4, 2, 3, 2, 2, true, 2, QUICK_HELLO_RUNS, HELLO_RUN_SECONDS);   // about 6 minutes for a chapter here, all workloads (workshop.json, bench-03)
                case THOROUGH -> new Mode(this, false, 2, 6, 10, 6, 10, 30, false, 2, THOROUGH_HELLO_RUNS, HELLO_RUN_SECONDS);
                case SMOKE -> new Mode(this, false, 1, 1, 1, 2, 1, 1, true, 1, 2, 1);
            };
        }
    }

    /**
     * How long and how often: warm-ups are discarded, the median of the runs is reported. With
     * {@code warmGroupOnce}, io-1000 and io-2000 reuse io-100's warm-up (the same code runs);
     * {@code ramp}: the ramp's steps ({@link #forRamp}); {@code forks}: how many fresh processes
     * of each server a forked workload runs in ({@link #forksFor}); {@code helloRuns}: the turns
     * on hello ({@link #runsFor}), of {@code helloRunSeconds} each ({@link #runSecondsFor}).
     */
    public record Mode(Pace pace, boolean ramp, int warmups, int maxWarmups, int warmupSeconds, int runs, int runSeconds, int ioRunSeconds,
                boolean warmGroupOnce, int forks, int helloRuns, int helloRunSeconds) {
        /** As the JSON and the report name it: "quick", "thorough ramp". */
        String name() {
            return pace.label() + (ramp ? " ramp" : "");
        }

        public boolean smoke() {
            return pace == Pace.SMOKE;
        }

        boolean quick() {
            return pace == Pace.QUICK;
        }

        /**
         * How long a measured run of this workload lasts. A closed-loop run loses a few tenths of
         * a second at its edges (connecting, then waiting for the last answers): 2-4% of a 10 s
         * io run, so thorough io runs last longer and show the server's steady rate. hello's turns
         * keep their own length in every pace ({@link #HELLO_RUN_SECONDS}): its power comes from their number.
         */
        public int runSecondsFor(Workload w) {
            if (w.loadCostsCpu()) return helloRunSeconds;
            return w.sleepBound() ? ioRunSeconds : runSeconds;
        }

        /**
         * Whether a run of {@code w} is two loads, of {@link #STEADY_SHORT_SECONDS} and of that
         * plus its run time, whose difference is the steady rate: quick io runs, whose 2 s would
         * otherwise lose 10-20% to their edges (2000 clients connecting, the last answers awaited).
         */
        public boolean steady(Workload w) {
            return quick() && w.group() == Group.IO;
        }

        /**
         * How many measured runs (turns) of {@code w}, over all its forks: {@link #QUICK_HELLO_RUNS}
         * on hello (but in a smoke race), where the verdict reads CPU per request, whose turns differ by
         * about 9% on a quiet machine (site/static/bench/power.json), so a tenth needs them; else
         * {@code runs}.
         */
        public int runsFor(Workload w) {
            return w.loadCostsCpu() ? Math.max(runs, helloRuns) : runs;
        }

        /**
         * The same for --all: one process of each server and {@link #SHOWDOWN_HELLO_RUNS} turns
         * on hello. The showdown compares models that differ by far more than a tenth, and with
         * a dozen servers forks would add half an hour; a chapter's race, the learner's against
         * the reference, is where a tenth matters.
         */
        public Mode showdown() {
            return new Mode(pace, ramp, warmups, maxWarmups, warmupSeconds, runs, runSeconds, ioRunSeconds, warmGroupOnce, 1,
                    Math.min(helloRuns, Math.max(runs, SHOWDOWN_HELLO_RUNS)), runSeconds);
        }

        /**
         * In how many fresh processes of each server {@code w} runs, as JMH forks a benchmark:
         * each JVM carries its own JIT decisions, code layout and GC heuristics, so one pair of
         * processes can differ by more than a learner's change. Forked in a thorough race every
         * workload under load but the ramp's steps; in a quick one, hello (its verdict reads CPU per
         * request, where a tenth matters), since a fork's warm-ups on every workload would double
         * the race; never in a smoke race.
         */
        public int forksFor(Workload w) {
            if (ramp || w.idle() || forks < 2) return 1;
            return quick() && !w.loadCostsCpu() ? 1 : forks;
        }

        /**
         * The turns of {@code w} in each of its forks: its runs shared out, rounded up. Who begins
         * a fork alternates too, so an odd count a fork still has each server go first as often over two forks.
         */
        public int runsPerFork(Workload w) {
            int f = forksFor(w);
            return (runsFor(w) + f - 1) / f;
        }

        /**
         * The same in a race of {@code raced}: a workload that would reuse its group's warm-up
         * warms up itself when no workload of its group ran before it (io-1000 raced without io-100).
         */
        public int warmupsFor(Workload w, List<Workload> raced) {
            int at = raced.indexOf(w);
            boolean warmedBefore = at > 0 && raced.subList(0, at).stream().anyMatch(x -> x.group() == w.group());
            return warmupsFor(w) == 0 && !warmedBefore ? warmups : warmupsFor(w);
        }

        /** The most warm-ups for the workload in a race of {@code raced}. */
        public int maxWarmupsFor(Workload w, List<Workload> raced) {
            return warmupsFor(w, raced) == 0 ? 0 : Math.max(warmups, maxWarmups);
        }

        /** At least this many warm-ups for the workload (0 when it reuses its group's). */
        public int warmupsFor(Workload w) {
            List<Workload> all = w.ramp() ? Plan.ramp(Integer.MAX_VALUE, false) : WORKLOADS;
            Workload first = all.stream().filter(x -> x.group() == w.group()).findFirst().orElse(w); // the demo's is its own
            return warmGroupOnce && !w.id().equals(first.id()) ? 0 : warmups;
        }

        /** The same warm-ups, then one run a step of the ramp: 5 s (thorough 10 s, smoke 1 s). */
        public Mode forRamp() {
            int step = switch (pace) {
                case SMOKE -> 1;
                case THOROUGH -> 10;
                case QUICK -> 5;
            };
            return new Mode(pace, true, warmups, maxWarmups, warmupSeconds, 1, step, step, true, 1, 1, step);
        }

        /** At most this many: warming up goes on while a warm-up was over 10% faster than the one before (the JIT is still at work). */
        public int maxWarmupsFor(Workload w) {
            return warmupsFor(w) == 0 ? 0 : Math.max(warmups, maxWarmups);
        }
    }

    /** Turns on hello in a quick race ({@link Mode#runsFor}): 12 in each of its 2 forks. */
    public static final int QUICK_HELLO_RUNS = 24;

    /** Turns on hello in a thorough race: twice the quick race's, so a smaller difference shows. */
    public static final int THOROUGH_HELLO_RUNS = 48;

    /**
     * How long a turn on hello lasts, in a quick or a thorough race. In exploratory runs on the
     * course's 2-core machine (2026-11-29, not committed), a server's CPU per answer moved from turn
     * to turn by 6-15% on a quiet machine whether a turn lasted 1, 2 or 10 s: about
     * three quarters of it is the kernel's (loopback TCP), and it settles with the pace Bombardier
     * and the server fall into at a turn's start, even with the server held to a CPU quota so that
     * it never waits. So a race's power on hello grows with its number of turns, not their
     * length; turns of 1 s spread wider still (their edges weigh more), so 2 s it is.
     */
    public static final int HELLO_RUN_SECONDS = 2;

    /** Turns on hello in a quick race of --all ({@link Mode#showdown}). */
    public static final int SHOWDOWN_HELLO_RUNS = 5;

    /** The shorter of a steady run's two loads ({@link Mode#steady}). */
    public static final int STEADY_SHORT_SECONDS = 1;

    /** The database pool every started server gets (--db-pool), and its longest wait (--db-wait): 2000 connections at 500 a second queue for 4 s. */
    public static final int DB_POOL = 10;
    public static final int DB_WAIT_MILLIS = 10_000;

    /** The options that give a started server that pool. */
    public static List<String> dbOptions() {
        return List.of("--db-pool", String.valueOf(DB_POOL), "--db-wait", String.valueOf(DB_WAIT_MILLIS));
    }

    /** How often the sampler reads a server's RSS and threads during a run. */
    public static final int SAMPLE_MILLIS = 200;

    /** The workloads a list names ("hello,io" or "io-100"), in plan order; IllegalArgumentException for a name that is none. */
    public static List<Workload> pick(String list) {
        List<Workload> picked = new ArrayList<>();
        for (Workload w : WORKLOADS) {
            for (String name : list.split(",")) {
                if (name.equals(w.id()) || w.group() == Group.of(name)) {
                    picked.add(w);
                    break;
                }
            }
        }
        for (String name : list.split(",")) {
            if (WORKLOADS.stream().noneMatch(w -> w.id().equals(name) || w.group() == Group.of(name))) {
                throw new IllegalArgumentException("no workload '" + name + "'; workloads: hello, io (io-100, io-1000, io-2000), cpu, mixed, db, idle, trip");
            }
        }
        return picked;
    }

    /**
     * The methodology as the report states it. {@code idleNote} says why the idle workload opens
     * fewer connections (null when it opens them all); {@code urlPinnedLate}: the --url server
     * was pinned after it started; {@code backend}: the race started a backend for the servers to call.
     */
    public static BenchReport.Methodology methodology(Mode mode, Cpus cpus, String idleNote, boolean backend) {
        List<String> notes = new ArrayList<>();
        notes.add("requests per second = 2xx answers / the time Bombardier took (which includes connecting and waiting for the last answers)"
                + (mode.quick() ? "; quick io runs are two loads, of " + STEADY_SHORT_SECONDS + " s and " + (STEADY_SHORT_SECONDS + mode.ioRunSeconds())
                + " s, and their rate is the steady one: the difference of their answers / the difference of their times, so the edges cancel"
                + " (percentOfBound of a run is that rate's; a run is flagged above the bound by its plain rate, and the verdict compares"
                + " plain rates, whose edges weigh the same for both servers)" : ""));
        notes.add("loadCpuPercent: Bombardier's own CPU use; near 100% it may be the bottleneck, and the result gets a note");
        notes.add("errors, timeouts and non-2xx answers are counted and shown, never dropped");
        notes.add("sleep-bound workloads (io) cannot beat Little's law: connections / service time");
        notes.add("db: every started server has a pool of " + DB_POOL + " database connections and waits up to " + DB_WAIT_MILLIS
                + " ms for one (" + String.join(" ", dbOptions()) + "); its bound is the pool / the query time, whatever the connections");
        if (backend) {
            notes.add("trip: the servers call a backend (scripts/checks/Backend.java, started for the race, on Bombardier's CPUs), "
                    + TRIP_LEGS + " calls a trip; its bound is the connections / one call's time, when a trip's calls wait together");
        }
        notes.add("idle: heap after a full GC (jcmd GC.run) with the connections open minus before, divided by connections served; RSS likewise");
        if (idleNote != null) notes.add(idleNote);
        notes.add("CPUs, " + cpus.rule() + "; each workload's own split is in its entry (cpus)");
        if (cpus.canPin()) {
            notes.add("servers start unpinned, so each JVM sizes itself (GC, carriers, event loops) for every CPU, and are pinned "
                    + "before each workload (taskset -a -p); a server on fewer CPUs than it sized itself for is like one on a busy machine");
        }
        notes.add("cpuMillisPerRequest: the server's CPU time / its 2xx answers, leaving out the JIT compiler threads' (a one-off cost of warming up,"
                + " where /proc shows threads); unlike req/s on hello, it does not depend on the load generator keeping up");
        if (mode.helloRuns() > mode.runs()) {
            notes.add("hello: " + mode.helloRuns() + " turns of " + mode.helloRunSeconds() + " s, not " + mode.runs() + " of " + mode.runSeconds()
                    + " s: its verdict reads CPU per request, which moves from turn to turn and needs many");
        }
        if (mode.forks() > 1) {
            notes.add("forks: " + (mode.quick() ? "hello runs" : "each workload under load runs") + " in " + mode.forks() + " fresh processes of each"
                    + " server, its warm-ups and turns in each, who goes first alternating across forks as across turns (A B, B A); a verdict"
                    + " pools the turns of every fork, and when they disagree beyond their turns its interval spans each fork's own");
        }
        return new BenchReport.Methodology(mode.name(), mode.warmups(), mode.maxWarmups(),
                "at least warmups, at most maxWarmups: another while the last warm-up was over 10% faster than the one before, or spent a tenth less CPU an answer",
                mode.warmupSeconds(), mode.runs(), mode.runSeconds(), mode.ioRunSeconds(), mode.warmGroupOnce(),
                "median of the runs",
                "per workload: every server warms up, then the servers take turns run by run, who goes first alternating (A B, B A, ...); all stay running, one is under load at a time",
                SAMPLE_MILLIS,
                "Bombardier, closed loop: each connection sends its next request when the last answer came; its percentiles suffer from coordinated omission",
                notes, mode.forks());
    }
}
