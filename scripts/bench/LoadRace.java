package bench;

import contract.BenchReport;
import contract.Plan;
import contract.Stats;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import lib.Others;

/**
 * A load workload (hello, io, cpu, mixed, db): every server warms up until it is steady, then the servers
 * take turns run by run, who goes first alternating (A B, B A, A B ...), one under load at a
 * time, each with a {@link Tally}. Run i of one server and run i of another make turn i. A forked
 * workload does all that again in fresh processes of every server, fork by fork, as JMH forks.
 */
public final class LoadRace {
    private final Plan.Mode mode;
    private final Bombardier bombardier;
    private final Progress progress;
    private final List<Plan.Workload> plan;

    /** A race of the workloads of {@code plan}, one at a time ({@link #run}). */
    public LoadRace(Plan.Mode mode, Bombardier bombardier, Progress progress, List<Plan.Workload> plan) {
        this.plan = plan;
        this.mode = mode;
        this.bombardier = bombardier;
        this.progress = progress;
    }

    /**
     * Fresh processes for a fork: {@code restart} starts every server again (and pins it as the
     * workload asks); null when the race cannot (a server it did not start, --url), and then
     * every workload runs in one fork. Shared by the race's workloads, so it knows whether the
     * servers have served a load since they started.
     */
    static final class Processes {
        private final java.util.function.BiConsumer<Boolean, Plan.Workload> restart;
        private boolean used;

        /** {@code restart} starts every server afresh, in their order or in reverse (true), pinned as the workload asks. */
        Processes(java.util.function.BiConsumer<Boolean, Plan.Workload> restart) {
            this.restart = restart;
        }

        boolean canFork() {
            return restart != null;
        }

        /**
         * Starts the servers afresh for fork {@code fork} of {@code w}, unless nothing has loaded them since they
         * started: in their order for an odd fork, in reverse for an even one, so that starting
         * first or second favours no one.
         */
        void fresh(int fork, Plan.Workload w) {
            if (used && restart != null) restart.accept(fork % 2 == 0, w);
            used = false;
        }
    }

    /**
     * Races the servers on {@code w}: one result per server, in their order; a server for which
     * {@code sitOut} gives a reason sits this workload out (a ramp's step after the one that broke it).
     * A forked workload ({@link Plan.Mode#forksFor}) runs each fork in fresh processes ({@code processes}):
     * warm-ups, then its turns; who starts, warms up and goes first alternates across forks, as who goes first does across turns.
     */
    List<BenchReport.Result> run(Plan.Workload w, List<Server> servers, java.util.function.Function<Server, String> sitOut, Processes processes) {
        List<Tally> tallies = new ArrayList<>();
        for (Server s : servers) {
            String out = sitOut.apply(s);
            tallies.add(new Tally(s, out != null ? out : probe(s, w)));
        }
        int forks = processes.canFork() ? mode.forksFor(w) : 1;
        int runs = forks > 1 ? mode.runsPerFork(w) : mode.runsFor(w);
        for (int fork = 1; fork <= forks; fork++) {
            if (forks > 1) {
                if (fork > 1) progress.step(w.id() + ": fork " + fork + "/" + forks + ", fresh processes", Progress.RESTART_SECONDS);
                processes.fresh(fork, w);
            }
            for (Tally t : tallies) t.fork(fork, forks);
            // Who warms up first alternates across forks too, as who starts first does.
            List<Tally> warming = new ArrayList<>(tallies);
            if (fork % 2 == 0) java.util.Collections.reverse(warming);
            String of = forks > 1 ? " (fork " + fork + "/" + forks + ")" : "";
            // Warm up, each server until it is steady (or the most warm-ups), taking turns; then the measured runs, taking turns.
            int minWarm = mode.warmupsFor(w, plan);
            int maxWarm = mode.maxWarmupsFor(w, plan);
            for (int round = 0; round < maxWarm; round++) {
                for (Tally t : warming) {
                    if (t.out() || !Tally.stillWarming(t.forkWarmups(), minWarm, maxWarm)) {
                        if (round < minWarm) progress.skip(mode.warmupSeconds() + 1);
                        continue;
                    }
                    String what = w.id() + of + ": " + t.server.id + " warm-up " + (round + 1) + (round + 1 > minWarm ? " (still getting faster)" : "/" + minWarm);
                    turn(w, t, what, true, round, mode.warmupSeconds());
                }
            }
            for (int round = 0; round < runs; round++) {
                // Who goes first alternates (A B, B A, ...), and so does who begins a fork, so that going first or second favours no one.
                List<Tally> order = new ArrayList<>(tallies);
                if ((round + fork - 1) % 2 == 1) java.util.Collections.reverse(order);
                for (Tally t : order) {
                    if (t.out()) {
                        progress.skip(mode.runSecondsFor(w) + 1);
                        continue;
                    }
                    String what = w.id() + of + ": " + t.server.id + " run " + (round + 1) + "/" + runs;
                    turn(w, t, what, false, round, mode.runSecondsFor(w));
                }
            }
            processes.used = true;
        }
        return tallies.stream().map(t -> t.result(w)).toList();
    }

    /** One server's turn under load: a warm-up or a measured run, recorded in its tally. */
    private void turn(Plan.Workload w, Tally t, String what, boolean warmup, int round, int seconds) {
        Server s = t.server;
        progress.step(what, mode.steady(w) && !warmup ? seconds + 2 * Plan.STEADY_SHORT_SECONDS + 2 : seconds + 1);
        try {
            Tally.Run r = warmup ? measureOnce(w, s, seconds) : measure(w, s, seconds);
            // Other processes took a share of the machine during a measured run: run it again once, after a pause.
            if (!warmup && Others.busy(r.othersCores()) && t.retries < mode.runsFor(w)) {
                t.retries++;
                progress.step(what + " again: other processes used " + Others.words(r.othersCores()), seconds + 1 + Others.RETRY_PAUSE_MILLIS / 1000.0);
                Bench.pause(Others.RETRY_PAUSE_MILLIS);
                r = measure(w, s, seconds);
            }
            if (warmup) t.warmups.add(r);
            else t.measured(r);
        } catch (Bombardier.Stalled e) {
            t.stalls.add((warmup ? "the warm-up" : "run " + (round + 1)) + " stalled: "
                    + "Bombardier had not finished " + e.afterSeconds + " s after a " + seconds + " s run, so some of the "
                    + w.connections() + " connections got no answer within " + w.timeoutSeconds()
                    + " s (starved); it was stopped, and that run has no counts");
            t.cut = true;
        } catch (IOException e) {
            t.problems.add((warmup ? "warm-up" : "run") + " failed: " + e.getMessage());
        }
        if (!s.alive()) s.stoppedAnswering("the server exited during " + what + " (see .results/logs/bench-" + s.id + ".log)");
        Bench.pause(100);
    }

    /**
     * One measured run: one Bombardier load, or for a steady run ({@link Plan.Mode#steady}) two,
     * a short one and one {@code seconds} longer, whose steady rate is the difference of their
     * answers over the difference of their times: connecting and the last answers weigh the same
     * in both, and cancel. The other figures are of both loads together (latency: the longer's).
     */
    private Tally.Run measure(Plan.Workload w, Server s, int seconds) throws IOException {
        if (!mode.steady(w)) return measureOnce(w, s, seconds);
        Tally.Run a = measureOnce(w, s, Plan.STEADY_SHORT_SECONDS);
        Bench.pause(100);
        Tally.Run b = measureOnce(w, s, Plan.STEADY_SHORT_SECONDS + seconds);
        Bombardier.Result x = a.load(), y = b.load();
        double steady = (y.ok() - x.ok()) / (y.seconds() - x.seconds());
        java.util.Map<String, Long> kinds = new java.util.LinkedHashMap<>(x.errorKinds());
        y.errorKinds().forEach((k, v) -> kinds.merge(k, v, Long::sum));
        Bombardier.Result both = new Bombardier.Result(x.seconds() + y.seconds(), x.ok() + y.ok(), x.non2xx() + y.non2xx(),
                x.errors() + y.errors(), x.timeouts() + y.timeouts(), y.p50Ms(), y.p99Ms(), Math.max(x.maxMs(), y.maxMs()), kinds,
                x.cpuSeconds() + y.cpuSeconds());
        return new Tally.Run(both, a.cpuSeconds() + b.cpuSeconds(), Math.max(a.peakRss(), b.peakRss()), Math.max(a.peakThreads(), b.peakThreads()),
                Math.max(a.percentOfBound(), b.percentOfBound()), both.cpuPercent(bombardier.cores()), steady > 0 ? steady : Double.NaN, s.bound(w),
                Double.isNaN(a.othersCores()) ? b.othersCores() : Math.max(a.othersCores(), b.othersCores()),
                a.contextSwitches() < 0 || b.contextSwitches() < 0 ? -1 : a.contextSwitches() + b.contextSwitches());
    }

    /**
     * One Bombardier load against a server, sampling its memory and threads meanwhile, and what
     * other processes used; its CPU time and its threads' context switches are read just before
     * the load starts and just after it ends, as the run's. The turns above call it, and so does
     * the recorded turn of --timeline ({@link TimelineTurn}), which is held to them.
     */
    Tally.Run measureOnce(Plan.Workload w, Server s, int seconds) throws IOException {
        Sampler sampler = new Sampler(s);
        Others.Snapshot othersFrom = Others.take();
        Process background = w.background() == null ? null
                : bombardier.start(s.url + w.background().path(), w.background().connections(), seconds + w.timeoutSeconds() + 5, w.timeoutSeconds());
        Bombardier.Result r;
        double cpuBefore;
        java.util.Map<Long, Double> jitBefore;
        java.util.Map<Long, Long> switchesBefore;
        long switches;
        try {
            if (background != null) Bench.pause(500); // the other load is on before the measured one starts
            cpuBefore = s.cpuSeconds();
            jitBefore = s.compilerCpu();
            switchesBefore = s.contextSwitches();
            sampler.start();
            r = bombardier.run(s.url + w.path(), w.connections(), seconds, w.timeoutSeconds(), w.rate());
            // Read before the sampler's last sample and the background load's end: the switches of the run, not of its end.
            switches = Server.switchedSince(switchesBefore, s.contextSwitches());
        } finally {
            sampler.stop();
            if (background != null) Bombardier.stop(background);
        }
        // The JIT compiling late is warming up, not serving: its threads' CPU is left out (where /proc shows threads).
        double cpu = s.cpuSeconds() - cpuBefore - Server.grown(jitBefore, s.compilerCpu());
        return new Tally.Run(r, cpu, sampler.peakRss.get(), sampler.peakThreads.get(), Stats.percentOf(r.rps(), s.bound(w)),
                r.cpuPercent(bombardier.cores())).withOthers(Others.cores(othersFrom, Others.take())).withContextSwitches(switches);
    }

    /**
     * Asks once for the workload's path, on a fresh connection: null when it answers (any
     * status but 404), else why the workload is skipped for this server.
     */
    static String probe(Server s, Plan.Workload w) {
        String missing = probe(s, w.path());
        return missing == null && w.background() != null ? probe(s, w.background().path()) : missing;
    }

    private static String probe(Server s, String path) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(s.target.host, s.target.port), 5000);
            socket.setSoTimeout(5_000);
            OutputStream o = socket.getOutputStream();
            o.write(("GET " + path + " HTTP/1.1\r\nHost: " + s.target.host + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            o.flush();
            InputStream in = socket.getInputStream();
            byte[] head = in.readNBytes(12);
            String status = new String(head, StandardCharsets.ISO_8859_1);
            if (status.startsWith("HTTP/1.1 404") || status.startsWith("HTTP/1.0 404")) return "it has no " + path + " endpoint (404)";
            return null;
        } catch (IOException e) {
            return null; // the runs will show what goes wrong
        }
    }
}
