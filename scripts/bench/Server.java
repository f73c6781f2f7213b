package bench;

import contract.BenchReport;
import contract.Plan;
import contract.Stats;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import lib.Chapters;
import lib.CommandError;
import lib.ContextSwitches;
import lib.Inspect;
import lib.Subject;
import lib.Target;
import lib.Tools;

/**
 * A server in the race: the file JBang runs (or the URL of one already running), the options it
 * gets from the chapter registry, and, once it runs, its process, whether it was pinned (a race
 * pins it workload by workload, {@link Cpus}), and why it stopped answering, if it did.
 * {@link #lineUp} picks the servers; {@link #startAll}
 * starts them.
 */
public final class Server {
    public final String id;
    public final BenchReport.Role role;
    final String label;
    /** What it is: a file JBang runs, a command in any language ({@code --command}), or a server already running ({@code --url}). */
    final Subject subject;
    /** The file JBang runs, or null for a command or a running server. */
    public final Path file;
    public final List<String> args;
    /** How many requests the model serves at once, for the Little's-law bound (01: one, 02: --threads); 0 = no cap. */
    final int cap;
    String url;
    Target target;
    public Inspect inspect;
    boolean pinned;
    private String gone; // why it stopped answering, once it has

    public Server(String id, BenchReport.Role role, String label, Path file, List<String> args, int cap) {
        this(id, role, label, new Subject.File(file), args, cap);
    }

    private Server(String id, BenchReport.Role role, String label, Subject subject, List<String> args, int cap) {
        this.id = id;
        this.role = role;
        this.label = label;
        this.subject = subject;
        this.file = subject instanceof Subject.File f ? f.path() : null;
        this.args = args;
        this.cap = cap;
    }

    /** Why it stopped answering, or null while it answers: the phases after skip it, and its results say why. */
    String gone() {
        return gone;
    }

    /** Records why it stopped answering. The first reason stays: it is the cause, and each phase skips a server already gone. */
    void stoppedAnswering(String why) {
        if (gone == null) gone = why;
    }

    /** Whether the race starts it (a file, or a command), rather than finding it running (--url). */
    boolean startedHere() {
        return !(subject instanceof Subject.Running);
    }

    /** Whether it must be given a backend's URL ({@link Chapters#BACKEND} in its options). */
    boolean callsBackend() {
        return Chapters.callsBackend(args);
    }

    /** A chapter's server: its file, with the options the registry gives it for the race. */
    public static Server of(Chapters.Chapter chapter, String id, BenchReport.Role role, String label, Path file) {
        return new Server(id, role, label, file, chapter.benchArgs(), chapter.cap().of(chapter.benchArgs()));
    }

    /**
     * The servers to race, in chart order: the learner's (the exercise, the reference itself with
     * --solution-vs-solution, or --url) and the reference; or with --all every chapter's
     * solution (with --chapters, those chapters' only); then the Netty baseline when asked.
     */
    public static List<Server> lineUp(RaceOptions o, Map<String, Chapters.Chapter> chapters) {
        List<Server> servers = new ArrayList<>();
        if (o.springDemo()) return Framework.springDemo(o.root());
        if (o.all()) {
            for (Chapters.Chapter c : chapters.values()) {
                if (!c.inShowdown()) continue; // its race is its own (chapter 08's trips)
                if (o.chapters() != null && !o.chapters().contains(c.number())) continue;
                Path file = o.root().resolve("solutions").resolve(c.fileName());
                if (Files.isRegularFile(file)) servers.add(of(c, c.number(), BenchReport.Role.REFERENCE, "solutions/" + c.fileName(), file));
                // A chapter asked for by name is raced or the race stops: a line-up quietly short of it would answer another question.
                else if (o.chapters() != null) throw CommandError.environment("--chapters " + c.number() + ": no solutions/" + c.fileName());
            }
            if (servers.isEmpty()) throw CommandError.environment("no solutions/NN-*.java under " + o.root());
        } else {
            String n = o.chapter();
            if (!n.matches("\\d\\d")) throw CommandError.usage("a chapter is a number such as 03, not '" + n + "'");
            Chapters.Chapter chapter = chapters.get(n);
            Path reference = chapterFile(o.root(), "solutions", n, chapter);
            switch (o.subject()) {
                case Subject.Running r -> servers.add(new Server("learner", BenchReport.Role.LEARNER, r.url(), r, List.of(), 0));
                // Raced with the chapter's options, as the reference; no cap of its own is known (no Little's-law bound from one).
                case Subject.Command c -> servers.add(new Server("learner", BenchReport.Role.LEARNER, c.line(), c, chapter.benchArgs(), 0));
                case Subject.Solution s -> servers.add(of(chapter, "learner", BenchReport.Role.LEARNER, o.root().relativize(reference).toString(), reference));
                case Subject.File f -> servers.add(of(chapter, "learner", BenchReport.Role.LEARNER, o.root().relativize(f.path()).toString(), f.path()));
                case Subject.Exercise e -> {
                    Path learner = chapterFile(o.root(), "exercises", n, chapter);
                    servers.add(of(chapter, "learner", BenchReport.Role.LEARNER, o.root().relativize(learner).toString(), learner));
                }
            }
            servers.add(of(chapter, "reference", BenchReport.Role.REFERENCE, o.root().relativize(reference).toString(), reference));
        }
        if (o.baseline()) {
            Path netty = o.root().resolve("scripts/bench/NettyBaseline.java");
            servers.add(new Server("netty", BenchReport.Role.BASELINE, "Netty 4.2 (scripts/bench/NettyBaseline.java)", netty, List.of(), 0));
        }
        if (o.frameworks()) servers.addAll(Framework.race(o.root()));
        return servers;
    }

    /** DIR/SLUG.java of the chapter: a usage error for a chapter the course does not have, one sentence for a file that is gone. */
    private static Path chapterFile(Path root, String dir, String number, Chapters.Chapter chapter) {
        if (chapter == null) throw CommandError.usage("no " + dir + "/" + number + "-*.java");
        Path file = root.resolve(dir).resolve(chapter.fileName());
        if (!Files.isRegularFile(file)) throw Subject.missing(root, file);
        return file;
    }

    /**
     * Starts every server that has a file (in parallel), unpinned, or attaches to the running one;
     * {@code backend}, the URL of the backend the race started, or null.
     */
    static void startAll(List<Server> servers, RaceOptions o, String backend, Progress progress) {
        progress.say("starting " + servers.size() + " servers with JBang (the first build of a file takes a while)");
        if (servers.stream().anyMatch(Server::startedHere)) {
            cpuUnits = String.valueOf(Math.round(KitCpuWork.calibrate()));
            progress.say("/cpu's work: " + cpuUnits + " turns of its loop a millisecond, measured once here and given to every server"
                    + " this race starts (" + KitCpuWork.ENV + "), so each does the same work");
        }
        startOnce(servers, o, backend, progress);
        for (Server s : servers) {
            progress.say(String.format(Locale.ROOT, "%-9s %s at %s%s", s.id, s.label, s.url,
                    s.target.pid() == null ? " (no --pid: no CPU, memory or thread figures)" : ", pid " + s.target.pid()));
        }
    }

    /**
     * Stops every server the race started and starts it again, as at the start of the race
     * (unpinned, asked each kind of work once), in the order given: fresh processes for a fork,
     * with the same /cpu work as before.
     */
    static void restartAll(List<Server> servers, RaceOptions o, String backend, Progress progress) {
        for (Server s : servers) s.stop();
        startOnce(servers, o, backend, progress);
    }

    /** Starts them in parallel, but JBang must not build one file twice at once: a second server of the same file starts after the first. */
    private static void startOnce(List<Server> servers, RaceOptions o, String backend, Progress progress) {
        Set<Path> files = new HashSet<>();
        List<Server> first = new ArrayList<>(), again = new ArrayList<>();
        for (Server s : servers) (s.file == null || files.add(s.file) ? first : again).add(s);
        start(first, o, backend, progress);
        start(again, o, backend, progress);
    }

    /**
     * /cpu's units of work a millisecond, calibrated once by the race and handed to every server
     * it starts: a server calibrating for itself, while the others start or run, can do a tenth
     * more or less work per request than another process of the same code (self-races on cpu
     * here: 0.92x to 1.11x, steady over their turns).
     */
    private static String cpuUnits;

    private static void start(List<Server> servers, RaceOptions o, String backend, Progress progress) {
        List<CompletableFuture<Void>> starting = new ArrayList<>();
        for (Server s : servers) {
            if (s.subject instanceof Subject.Running r) {
                s.attach(r);
                continue;
            }
            starting.add(CompletableFuture.runAsync(() -> s.launch(o, backend), r -> Thread.ofPlatform().start(r)));
        }
        try {
            CompletableFuture.allOf(starting.toArray(CompletableFuture[]::new)).join();
        } catch (RuntimeException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            progress.done();
            throw CommandError.environment("a server did not start: " + cause.getMessage());
        }
    }

    /** Uses the server already running at its URL; with its pid, reads its process (and pins it, workload by workload). */
    private void attach(Subject.Running running) {
        try {
            target = Target.attach(running.url(), running.pid()); // SubjectOptions has read the URL
        } catch (java.io.IOException e) {
            throw CommandError.environment(e.getMessage());
        }
        if (running.pid() != null) inspect = new Inspect(running.pid());
        this.url = target.url();
    }

    /** Starts its file with JBang (or its command) on a free port, unpinned, its output in .results/logs/bench-ID.log. */
    private void launch(RaceOptions o, String backend) {
        List<String> options = new ArrayList<>(Plan.dbOptions());
        options.addAll(backend == null ? args : Chapters.withBackend(args, backend));
        try {
            Subject.Launch launch = subject.launch(o.root(), Tools.jbang(o.root(), o.jbang()), null, List.of(), options);
            target = launch.start(o.root().resolve(".results/logs/bench-" + id + ".log"), cpuUnits == null ? Map.of() : Map.of(KitCpuWork.ENV, cpuUnits));
        } catch (IOException e) {
            throw new IllegalStateException(label + ": " + e.getMessage(), e);
        }
        url = target.url();
        if (target.pid() != null) {
            inspect = new Inspect(target.pid());
            pids.add(target.pid());
        }
        touchEveryPath();
    }

    /** Every process it was started in, in order: one, or one a fork. */
    private final List<Long> pids = new ArrayList<>();

    /** What a started server is asked once, before the race first pins it. */
    static final List<String> FIRST_REQUESTS = List.of("/", "/io?ms=1", "/cpu?ms=1");

    /**
     * Asks a just-started server, still on every CPU, for each kind of work once. A JVM tells
     * how many CPUs it has at the moment it is asked, and many pools ask when they are first
     * used, not at start: the JDK's virtual-thread scheduler at the first virtual thread, a
     * server's pool for CPU work at its first connection, Reactor's parallel scheduler at its
     * first timer. Asked during hello, where the race pins the servers to half the CPUs, they
     * would keep that half for the whole race. An answer that does not come is ignored: a
     * broken server shows in the race itself.
     */
    private void touchEveryPath() {
        for (String path : FIRST_REQUESTS) target.answers(path, 5000);
    }

    /** Pins its process, every thread of it, to the CPUs of the taskset list {@code cpus}; false when it cannot be. */
    boolean pinTo(String cpus) {
        Long pid = target == null ? null : target.pid();
        boolean done = pid != null && pinRunning(pid, cpus);
        pinned |= done;
        return done;
    }

    /** Pins a running process and all its threads ({@code taskset -a -p -c CPUS PID}). */
    static boolean pinRunning(long pid, String cpus) {
        try {
            Process p = new ProcessBuilder("taskset", "-a", "-p", "-c", cpus, String.valueOf(pid)).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    /**
     * Little's law for this server on a sleep-bound workload: the requests it can have in
     * progress (the connections, or fewer when the model or the pool caps them) / the service time.
     */
    public double bound(Plan.Workload w) {
        if (!w.sleepBound()) return Double.NaN;
        int inProgress = cap > 0 ? Math.min(w.inProgress(), cap) : w.inProgress();
        return Stats.littleBound(inProgress, w.serviceMillis() / 1000);
    }

    /** Whether its process still lives (or, with no pid, it still accepts connections). */
    boolean alive() {
        Long pid = target.pid();
        if (pid != null) return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
        return target.accepting();
    }

    void stop() {
        if (target != null) target.stop();
    }

    /**
     * Starts the backend that trips call ({@code scripts/checks/Backend.java}), unpinned (a race
     * pins it with Bombardier): on a free port, or on 8081 (the servers' default --backend) when
     * racing a server that is already running.
     */
    static Target startBackend(RaceOptions o) {
        List<String> command = new ArrayList<>(Tools.jbang(o.root(), o.jbang()));
        command.addAll(List.of(o.root().resolve(Path.of("scripts", "checks", "Backend.java")).toString(),
                "--port", String.valueOf(o.subject().backendPort())));
        try {
            return Target.start(command, o.root().resolve(".results/logs/bench-backend.log"), Duration.ofSeconds(180));
        } catch (IOException e) {
            throw CommandError.environment("the backend for the trips did not start: " + e.getMessage());
        }
    }

    /** CPU time used so far, or NaN when its process is not known. */
    double cpuSeconds() {
        if (inspect == null) return Double.NaN;
        try {
            return inspect.cpuTime().toNanos() / 1e9;
        } catch (RuntimeException e) {
            return Double.NaN;
        }
    }

    /**
     * CPU seconds so far of each of its JIT compiler threads ("C1 CompilerThre", "C2 CompilerThre"),
     * by thread id; empty where /proc does not show threads, or for a server not a JVM.
     */
    java.util.Map<Long, Double> compilerCpu() {
        java.util.Map<Long, Double> jit = new java.util.HashMap<>();
        if (inspect == null) return jit;
        for (Inspect.ThreadCpu t : inspect.threadCpu()) {
            if (t.name().matches("C[12] CompilerThre.*")) jit.put(t.tid(), t.cpu().toNanos() / 1e9);
        }
        return jit;
    }

    /** How much the threads of {@code after} used since {@code before} (a thread new since: all of it). */
    public static double grown(java.util.Map<Long, Double> before, java.util.Map<Long, Double> after) {
        double sum = 0;
        for (var e : after.entrySet()) sum += Math.max(0, e.getValue() - before.getOrDefault(e.getKey(), 0.0));
        return sum;
    }

    /**
     * The OS's context switches of each of its threads so far, by thread id ({@link Inspect#contextSwitches});
     * null where they are unknown: no pid, or no /proc (macOS, Windows, the portable inspection).
     */
    java.util.Map<Long, Long> contextSwitches() {
        return inspect == null ? null : inspect.contextSwitches().orElse(null);
    }

    /**
     * The context switches its threads made from reading {@code before} to reading {@code after}
     * ({@link ContextSwitches#since}: a thread that ended between them is not counted, one that
     * started counts all of its own); -1 when either reading is unknown.
     */
    public static long switchedSince(java.util.Map<Long, Long> before, java.util.Map<Long, Long> after) {
        return before == null || after == null ? -1 : ContextSwitches.since(before, after);
    }

    /** Heap in use after a full GC, or NaN when the server is not a JVM we can attach to. */
    double heapAfterGc() {
        if (inspect == null) return Double.NaN;
        try {
            return inspect.heapAfterGc();
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    OptionalLong residentBytes() {
        return inspect == null ? OptionalLong.empty() : inspect.residentBytes();
    }

    OptionalInt osThreads() {
        return inspect == null ? OptionalInt.empty() : inspect.osThreads();
    }

    OptionalInt openFiles() {
        return inspect == null ? OptionalInt.empty() : inspect.openFiles();
    }

    OptionalLong maxOpenFiles() {
        return inspect == null ? OptionalLong.empty() : inspect.maxOpenFiles();
    }

    /** The server as the report lists it. */
    BenchReport.ServerEntry entry(Path root) {
        return new BenchReport.ServerEntry(id, role, label, file == null ? null : root.relativize(file).toString(), url, args,
                target == null ? null : target.pid(), pinned, pids.size() > 1 ? List.copyOf(pids) : null);
    }

    /**
     * The kit's /cpu loop (exercises/kit/CpuWork.java), which this race compiles with it: the kit
     * is the learner's code, in the unnamed package as every server is, where a package cannot
     * name it, so it is found by name once. The race calibrates it, not a copy of it.
     */
    private static final class KitCpuWork {
        static final String ENV;

        static {
            try {
                java.lang.reflect.Field env = kit().getDeclaredField("ENV");
                env.setAccessible(true);
                ENV = (String) env.get(null);
            } catch (ReflectiveOperationException e) {
                throw missing(e);
            }
        }

        static double calibrate() {
            try {
                java.lang.reflect.Method calibrate = kit().getDeclaredMethod("calibrate");
                calibrate.setAccessible(true);
                return (double) calibrate.invoke(null);
            } catch (ReflectiveOperationException e) {
                throw missing(e);
            }
        }

        private static Class<?> kit() throws ClassNotFoundException {
            return Class.forName("CpuWork");
        }

        private static IllegalStateException missing(ReflectiveOperationException e) {
            return new IllegalStateException("the race is built without the kit's CpuWork (exercises/kit/CpuWork.java): " + e, e);
        }
    }
}
