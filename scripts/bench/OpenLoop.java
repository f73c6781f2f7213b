package bench;

import contract.BenchReport;
import contract.Plan;
import contract.Stats;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import lib.Painter;

/**
 * The open loop ({@code --open-loop}): latency without coordinated omission. Each server in
 * turn warms up, then gets GET {@link #PATH} at the fixed rate {@link #RATE} for
 * {@link #seconds} twice: first from Vegeta, an open loop (each request leaves on its schedule,
 * answered or not, so a request that comes due while the server is busy waits in its queue, and
 * that wait is in its latency); then from Bombardier at the same rate with
 * {@link #CONNECTIONS} connections, a closed loop (a connection sends its next request only
 * after the last answer, so while the server stalls the requests that were due are not sent, and
 * at most one slow request a connection is recorded: coordinated omission). Both tools count
 * every request sent in their percentiles, failed ones included. A server sits out when its
 * warm-up lost more than {@link #MAX_WARMUP_LOST_PERCENT}% of its requests or answered fewer than
 * {@link #MIN_WARMUP_PERCENT_OF_RATE}% of the rate: it cannot carry the rate.
 */
public final class OpenLoop {
    private OpenLoop() {}

    /**
     * 2 ms of CPU a request: CPU work queues in a server the way a slow moment does, and each
     * model spreads it over its cores in its own way (the one-loop reactor, 03, on one core;
     * the others on both).
     */
    static final String PATH = "/cpu?ms=2";
    /**
     * 300 requests a second: about 60-70% of what the slowest model that serves connections at
     * once sustains on 2 cores (03: one loop on one core, 2 ms a request, 500 a second at best;
     * 199 a second at 5 ms in the committed reference run), so a queue forms in its loop whenever
     * a request runs long, the JVM pauses or other work takes the core, and about 30% of what the
     * models on both cores sustain. 01 sits out: it serves one connection at a time, so the
     * warm-up's other connections wait. Why a round 300 and not 330 or 350: Bombardier keeps a
     * rate in batches, every 10 ms or more ({@link #batch}); at 300 that is 3 every 10 ms, at 350
     * 7 every 20 ms, at 330 33 every 100 ms.
     */
    static final int RATE = 300;
    /** 30 s a load (thorough 60, smoke 3): 9000 requests, so p99.9 rests on the 9 slowest, not on one. */
    static final int SECONDS = 30, THOROUGH_SECONDS = 60, SMOKE_SECONDS = 3;
    /** The warm-up: Bombardier at the rate, discarded, while the JIT compiles the handler and the burn loop. */
    static final int WARMUP_SECONDS = 5, SMOKE_WARMUP_SECONDS = 2;
    /**
     * The closed loop's connections: 4, twice what the rate needs (300 a second at a few ms is
     * one or two requests in progress), so it keeps up with the rate; a stall shows in its
     * percentiles 4 times at most (4 of 300 a second, about 1%), however many requests came due
     * meanwhile: 30 in a stall of 100 ms.
     */
    public static final int CONNECTIONS = 4;
    /**
     * During both loads, one more connection asks GET {@link #STALL_PATH} {@link #STALL_RATE}
     * time a second, unmeasured: a request that needs 100 ms of CPU, like a large report. A
     * server that runs it on an event loop stalls that loop's connections for 100 ms, and the
     * requests that come due meanwhile wait; one that runs it on a thread of its own does not.
     * That is the stall an open loop records for every request it delays, and a closed loop for
     * at most one request a connection.
     */
    static final String STALL_PATH = "/cpu?ms=100";
    static final int STALL_RATE = 1;

    /** A server sits out when its warm-up lost more than this share of its requests... */
    static final double MAX_WARMUP_LOST_PERCENT = 1;
    /**
     * ...or answered fewer than this share of the rate a second. Why: Bombardier retries a
     * request that got no answer in time, and a server that cannot keep up (01, one connection
     * at a time) loses none, but answered 30 to 60 of the 300 a second here; a server warming up
     * answers less than it will (03, its JIT at work, 80% of it in a first second here).
     */
    static final double MIN_WARMUP_PERCENT_OF_RATE = 75;

    /** The open loop as a workload, for the CPU split (the servers get every CPU: Vegeta and Bombardier cost little at 300 a second). */
    static final Plan.Workload WORKLOAD = new Plan.Workload("open-loop", Plan.Group.OPEN_LOOP, "GET " + PATH + " at " + RATE
            + " a second, from an open and a closed loop", PATH, CONNECTIONS, 2);

    /** Seconds a load lasts in {@code mode}. */
    static int seconds(Plan.Mode mode) {
        return switch (mode.pace()) {
            case SMOKE -> SMOKE_SECONDS;
            case THOROUGH -> THOROUGH_SECONDS;
            case QUICK -> SECONDS;
        };
    }

    static int warmupSeconds(Plan.Mode mode) {
        return mode.smoke() ? SMOKE_WARMUP_SECONDS : WARMUP_SECONDS;
    }

    /** About how long a server takes, for the progress bar. */
    static double secondsPerServer(Plan.Mode mode) {
        return warmupSeconds(mode) + 2 * seconds(mode) + 4;
    }

    /** The phase in a line, for the report's header. */
    static String describe(Plan.Mode mode) {
        return "the open loop: each server in turn, a warm-up of " + warmupSeconds(mode) + " s, then GET " + PATH + " at " + RATE
                + " req/s for " + seconds(mode) + " s from Vegeta (open loop), then from Bombardier with " + CONNECTIONS + " connections (closed loop)";
    }

    /** One server through the warm-up and both loads. */
    static BenchReport.OpenLoopServer run(Server s, Bombardier bombardier, Vegeta vegeta, Plan.Mode mode, Progress progress) {
        if (s.gone() != null) return skipped(s, s.gone(), null, 0);
        String missing = LoadRace.probe(s, WORKLOAD);
        if (missing != null) return skipped(s, missing, null, 0);
        int warm = warmupSeconds(mode), seconds = seconds(mode), timeout = WORKLOAD.timeoutSeconds();
        progress.step("open loop: " + s.id + " warms up at " + RATE + " req/s", warm + 1);
        Bombardier.Result warmup;
        try {
            warmup = bombardier.run(s.url + PATH, CONNECTIONS, warm, timeout, RATE);
        } catch (IOException e) {
            return skipped(s, "its warm-up at " + RATE + " req/s did not finish (" + e.getMessage() + "): it cannot carry this rate", null, 0);
        } finally {
            Bench.pause(100);
        }
        String cannot = cannotCarry(warmup);
        if (cannot != null) return skipped(s, cannot, Stats.figure(warmup.rps()), warmup.non2xx() + warmup.errors());

        List<String> flags = new ArrayList<>();
        progress.step("open loop: " + s.id + ", Vegeta at " + RATE + " req/s (open loop)", seconds + 1);
        BenchReport.OpenLoopRun open = null;
        Process stalls = stalls(s, bombardier, seconds, timeout);
        try {
            open = openRun(vegeta.attack(s.url + PATH, RATE, seconds, timeout), RATE);
        } catch (IOException e) {
            flags.add("the open loop did not finish: " + e.getMessage());
        } finally {
            if (stalls != null) Bombardier.stop(stalls);
            Bench.pause(500); // Why: what the open loop left queued drains before the closed loop starts
        }
        progress.step("open loop: " + s.id + ", Bombardier at " + RATE + " req/s, " + CONNECTIONS + " connections (closed loop)", seconds + 1);
        BenchReport.OpenLoopRun closed = null;
        stalls = stalls(s, bombardier, seconds, timeout);
        try {
            closed = closedRun(bombardier.run(s.url + PATH, CONNECTIONS, seconds, timeout, RATE));
        } catch (IOException e) {
            flags.add("the closed loop did not finish: " + e.getMessage());
        } finally {
            if (stalls != null) Bombardier.stop(stalls);
            Bench.pause(100);
        }
        for (BenchReport.OpenLoopRun r : java.util.Arrays.asList(open, closed)) {
            if (r != null && r.lost() > 0) {
                flags.add(String.format(Locale.ROOT, "%s: %d of %d requests lost (%d errors, %d of them timeouts; %d non-2xx)",
                        r == open ? "open loop" : "closed loop", r.lost(), r.sent(), r.errors(), r.timeouts(), r.non2xx()));
            }
        }
        if (!s.alive()) {
            s.stoppedAnswering("the server exited during the open loop");
            flags.add(s.gone());
        }
        return new BenchReport.OpenLoopServer(s.id, null, Stats.figure(warmup.rps()), warmup.non2xx() + warmup.errors(), open, closed, flags);
    }

    /** The stalling requests for one load of {@code seconds} (null when they cannot start: the load runs without them). */
    private static Process stalls(Server s, Bombardier bombardier, int seconds, int timeout) {
        try {
            return bombardier.start(s.url + STALL_PATH, 1, seconds + 1, timeout, STALL_RATE);
        } catch (IOException e) {
            return null;
        }
    }

    /** Why a server cannot carry the rate, from its warm-up: no answer, over the share lost, or too few answers a second; null when it can. */
    public static String cannotCarry(Bombardier.Result warmup) {
        long lost = warmup.non2xx() + warmup.errors(), sent = warmup.ok() + lost;
        if (sent == 0 || warmup.ok() == 0) return "its warm-up at " + RATE + " req/s got no answer: it cannot carry this rate";
        if (lost * 100.0 > MAX_WARMUP_LOST_PERCENT * sent) {
            return String.format(Locale.ROOT, "its warm-up at %d req/s lost %d of %d requests (%.1f%%: failed, or no answer in time): it cannot carry this rate",
                    RATE, lost, sent, 100.0 * lost / sent);
        }
        if (!(warmup.rps() * 100 >= MIN_WARMUP_PERCENT_OF_RATE * RATE)) {
            return String.format(Locale.ROOT, "its warm-up at %d req/s answered %s a second (under %s%%): it cannot carry this rate",
                    RATE, Stats.rate(warmup.rps()), Stats.millis(MIN_WARMUP_PERCENT_OF_RATE));
        }
        return null;
    }

    /**
     * Vegeta's requests as a load's figures: the percentiles of every request's latency (R-7,
     * {@link Stats#percentile}); answers a second from the first request sent to the last answer;
     * and how far behind its schedule (the first request's time + seq / rate) a request left.
     */
    public static BenchReport.OpenLoopRun openRun(List<Vegeta.Hit> hits, int rate) {
        long ok = 0, non2xx = 0, errors = 0, timeouts = 0;
        long first = Long.MAX_VALUE, last = Long.MIN_VALUE;
        List<Double> latencies = new ArrayList<>(hits.size());
        for (Vegeta.Hit h : hits) {
            if (h.ok()) ok++;
            else if (h.code() > 0) non2xx++;
            else {
                errors++;
                if (h.timedOut()) timeouts++;
            }
            latencies.add(h.latencyNanos() / 1e6);
            first = Math.min(first, h.sentNanos());
            last = Math.max(last, h.sentNanos() + h.latencyNanos());
        }
        double span = hits.isEmpty() ? Double.NaN : (last - first) / 1e9;
        return new BenchReport.OpenLoopRun("vegeta", hits.size(), ok, non2xx, errors, timeouts, Stats.figure(span > 0 ? ok / span : Double.NaN),
                Stats.figure(Stats.percentile(latencies, 50)), Stats.figure(Stats.percentile(latencies, 99)),
                Stats.figure(Stats.percentile(latencies, 99.9)), Stats.figure(Stats.percentile(latencies, 100)), Stats.figure(sendLagMs(hits, rate)));
    }

    /** The most a request left after its time on the schedule, in ms (0 when on time); NaN without sequence numbers. */
    static double sendLagMs(List<Vegeta.Hit> hits, int rate) {
        Vegeta.Hit zero = hits.stream().filter(h -> h.seq() >= 0).min(Comparator.comparingLong(Vegeta.Hit::seq)).orElse(null);
        if (zero == null) return Double.NaN;
        double lag = 0;
        for (Vegeta.Hit h : hits) {
            if (h.seq() < 0) continue;
            double due = zero.sentNanos() + (h.seq() - zero.seq()) * 1e9 / rate;
            lag = Math.max(lag, (h.sentNanos() - due) / 1e6);
        }
        return lag;
    }

    /** Bombardier's run as a load's figures: it reports p50 and p99 (and p75, p90, p95), no p99.9. */
    public static BenchReport.OpenLoopRun closedRun(Bombardier.Result r) {
        return new BenchReport.OpenLoopRun("bombardier", r.ok() + r.non2xx() + r.errors(), r.ok(), r.non2xx(), r.errors(), r.timeouts(),
                Stats.figure(r.rps()), Stats.figure(r.p50Ms()), Stats.figure(r.p99Ms()), null, Stats.figure(r.maxMs()), null);
    }

    private static BenchReport.OpenLoopServer skipped(Server s, String why, Double warmupRps, long warmupLost) {
        return new BenchReport.OpenLoopServer(s.id, why, warmupRps, warmupLost, null, null, List.of());
    }

    public static BenchReport.OpenLoopSummary summary(Plan.Mode mode, String vegeta, BenchReport.CpuSplit cpus, List<BenchReport.OpenLoopServer> servers) {
        return new BenchReport.OpenLoopSummary(PATH, RATE, seconds(mode), warmupSeconds(mode), CONNECTIONS, WORKLOAD.timeoutSeconds(), vegeta, cpus,
                List.of("latency: every request sent, failed ones included, from when it left to its answer or its error, as both tools count it",
                        "achieved: 2xx answers a second, from the first request sent to the last answer (Bombardier: over the time it took)",
                        "p99.9: Bombardier's JSON has p50, p75, p90, p95 and p99 only, so the closed loop has none",
                        "Bombardier keeps its rate in batches (at " + RATE + " a second, " + batch(RATE) + ") that can queue"
                                + " behind each other, where Vegeta's requests leave 1/" + RATE + " s apart: where the closed loop is the slower, that is why",
                        "the two loads run one after the other, so other work on the machine can fall in one and not the other",
                        "maxSendLagMs: how far behind its schedule Vegeta sent a request; more than a few ms means Vegeta itself was short of CPU"),
                servers);
    }

    /** The table: per server, the offered rate, the answers a second, then each percentile, open loop beside closed loop. */
    public static void print(PrintStream out, BenchReport.OpenLoopSummary o, Painter p) {
        out.println();
        out.println(p.bold("The open loop") + String.format(Locale.ROOT, "  GET %s at %d req/s for %d s a server (%s requests due): Vegeta, an open loop, "
                + "then Bombardier at the same rate with %d connections, a closed loop", o.path(), o.rate(), o.seconds(),
                Stats.rate((double) o.rate() * o.seconds()), o.connections()));
        out.println(p.dim("  During both, one more connection asks GET " + STALL_PATH + " " + STALL_RATE
                + " time a second, unmeasured: on an event loop, a stall of everything that loop serves"));
        if (o.cpus() != null) out.println(p.dim("  CPUs: " + o.cpus().words() + "; " + o.vegeta()));
        String pair = "%7s %6s";
        out.println(p.dim(String.format(Locale.ROOT, "  %-10s %7s  " + "  %-14s".repeat(6), "", "", "answers/s", "p50 ms", "p99 ms", "p99.9 ms",
                "max ms", "lost").stripTrailing()));
        Object[] heads = {"server", "offered"};
        List<Object> head = new ArrayList<>(List.of(heads));
        for (int i = 0; i < 6; i++) head.addAll(List.of("open", "closed"));
        out.println(p.dim(String.format(Locale.ROOT, "  %-10s %7s  " + ("  " + pair).repeat(6), head.toArray())));
        for (BenchReport.OpenLoopServer s : o.servers()) {
            if (s.skipReason() != null) {
                out.println(String.format(Locale.ROOT, "  %-10s ", s.server()) + p.dim("sat out: " + s.skipReason()));
                continue;
            }
            BenchReport.OpenLoopRun a = s.openLoop(), b = s.closedLoop();
            List<Object> row = new ArrayList<>(List.of(s.server(), String.valueOf(o.rate())));
            row.addAll(List.of(Stats.rate(known(a, BenchReport.OpenLoopRun::achievedRps)), Stats.rate(known(b, BenchReport.OpenLoopRun::achievedRps))));
            for (java.util.function.Function<BenchReport.OpenLoopRun, Double> f : List.<java.util.function.Function<BenchReport.OpenLoopRun, Double>>of(
                    BenchReport.OpenLoopRun::p50Ms, BenchReport.OpenLoopRun::p99Ms, BenchReport.OpenLoopRun::p999Ms, BenchReport.OpenLoopRun::maxMs)) {
                row.addAll(List.of(Stats.millis(known(a, f)), Stats.millis(known(b, f))));
            }
            row.addAll(List.of(a == null ? "-" : String.valueOf(a.lost()), b == null ? "-" : String.valueOf(b.lost())));
            out.println(" " + (s.flags().isEmpty() ? " " : p.red("!")) + String.format(Locale.ROOT, "%-10s %7s  " + ("  " + pair).repeat(6), row.toArray()));
            if (a != null && a.maxSendLagMs() != null && a.maxSendLagMs() > 10) {
                out.println(p.dim(String.format(Locale.ROOT, "  %-10s note: Vegeta sent a request up to %s ms late: it was short of CPU itself", "",
                        Stats.millis(a.maxSendLagMs()))));
            }
            for (String f : s.flags()) out.println(p.red("  ! ") + s.server() + ": " + f);
        }
        out.println(p.dim("  The closed loop has no p99.9: Bombardier reports percentiles up to p99 only. It keeps its rate in batches"));
        out.println(p.dim("  (" + batch(o.rate()) + ") that queue behind each other: where the closed loop is the slower, that is why."));
        out.println("  Why they differ: Vegeta sends every request on its schedule, so one that comes due while the server is busy waits in");
        out.println("  its queue and that wait is in its latency, while each of Bombardier's " + o.connections() + " connections waits for its answer before");
        out.println("  sending again, so during a stall the requests due are never sent and its percentiles leave the wait out.");
    }

    /**
     * How Bombardier keeps a rate: its rate limiter releases a batch of requests at a fixed
     * interval, the rate as a fraction of a second in lowest terms, stretched to 10 ms when
     * shorter (300 a second: 3 every 10 ms; 350: 7 every 20 ms; 250: 2 every 8 ms).
     */
    public static String batch(long rate) {
        long gcd = java.math.BigInteger.valueOf(rate).gcd(java.math.BigInteger.valueOf(1_000_000_000L)).longValue();
        long requests = rate / gcd, nanos = 1_000_000_000L / gcd, floor = 10_000_000L;
        if (nanos < floor) {
            requests *= floor / nanos;
            nanos *= floor / nanos;
        }
        return requests + (requests == 1 ? " request every " : " requests every ") + Stats.millis(nanos / 1e6) + " ms";
    }

    private static double known(BenchReport.OpenLoopRun r, java.util.function.Function<BenchReport.OpenLoopRun, Double> f) {
        return r == null ? Double.NaN : Stats.known(f.apply(r));
    }
}
