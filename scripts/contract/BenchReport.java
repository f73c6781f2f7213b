package contract;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.util.List;
import java.util.Map;
import lib.Jackson;

/**
 * The results file of scripts/bench.sh, {@code .results/bench/NN.json} (or all.json): one object
 * a web page can chart (site/static/js/course/bench.js) and a hand-in carries (scripts/room).
 * These records are its schema, written and read by Jackson (scripts/lib/Jackson.java), fields
 * in this order. A number that is not known is null (JSON has no NaN); figures keep 4
 * significant digits, no more than the runs can tell.
 *
 * @param schema      {@link #SCHEMA}
 * @param kind        {@link Kind}: "chapter" or "all"
 * @param command     what was run, without the wrapper's options: "scripts/bench.sh --all --quick"
 * @param chapter     "03", or null for --all
 * @param date        when the race began, ISO-8601
 * @param exit        0, or 1 when a result was flagged
 * @param compareTo   the server every ratio divides by: "reference", "netty", or null
 * @param servers     in chart order
 * @param workloads   in the order they ran
 * @param ramp        with --ramp, where each server broke (its steps are the workloads ramp-N); else absent
 * @param spike       with --spike, how each server came through the spikes ({@link Spike}); else absent
 * @param soak        with --soak, what each server's memory, files and threads did under constant load ({@link Soak}); else absent
 * @param openLoop    with --open-loop, each server's latency at a fixed rate from an open and a closed loop ({@link OpenLoop}); else absent
 * @param connections with --connections, how many keep-alive connections each server held and what they cost it ({@link ConnectionsRace}); else absent
 * @param flags       every result's flags, each with its workload and server
 * @param seconds     how long the whole race took
 * @param timeline    with --timeline, the workload recorded after the race and what recording cost each server ({@link TimelineTurn}); else absent
 */
public record BenchReport(String schema, Kind kind, String command, String chapter, String date, int exit, String compareTo,
                   Machine machine, Methodology methodology, List<ServerEntry> servers, List<WorkloadEntry> workloads,
                   @JsonInclude(JsonInclude.Include.NON_NULL) RampSummary ramp,
                   @JsonInclude(JsonInclude.Include.NON_NULL) SpikeSummary spike,
                   @JsonInclude(JsonInclude.Include.NON_NULL) SoakSummary soak,
                   @JsonInclude(JsonInclude.Include.NON_NULL) OpenLoopSummary openLoop,
                   @JsonInclude(JsonInclude.Include.NON_NULL) ConnectionsReport.Summary connections, List<String> flags, long seconds,
                   @JsonInclude(JsonInclude.Include.NON_NULL) Timelines timeline) {
    public static final String SCHEMA = "course-bench/1";

    /** What a server is in the race; reports spell it in lower case ({@link #label}). */
    public enum Role implements Jackson.Label {
        /** The learner's file or running server. */
        LEARNER,
        /** A chapter's reference solution. */
        REFERENCE,
        /** Plain Netty, the showdown's yardstick. */
        BASELINE,
        /** A framework people deploy ({@link Framework}). */
        FRAMEWORK;

        @Override
        public String toString() {
            return label();
        }
    }

    /** What a results file holds: one chapter's race against its reference, or every model's; the JSON names it by {@link #label}. */
    public enum Kind implements Jackson.Label {
        CHAPTER, ALL;

        @Override
        public String toString() {
            return label();
        }
    }

    /**
     * How a server fared on a workload: measured; skipped (it could not take part); or stalled
     * (Bombardier never finished: connections starved, no run has figures). The JSON names it by
     * {@link #label}; a label this version does not know reads as null.
     */
    public enum Status implements Jackson.Label {
        MEASURED, SKIPPED, STALLED;

        @Override
        public String toString() {
            return label();
        }
    }

    /** A report without the connections phase (every phase but --connections). */
    public BenchReport(String schema, Kind kind, String command, String chapter, String date, int exit, String compareTo,
                Machine machine, Methodology methodology, List<ServerEntry> servers, List<WorkloadEntry> workloads,
                RampSummary ramp, SpikeSummary spike, SoakSummary soak, OpenLoopSummary openLoop, List<String> flags, long seconds) {
        this(schema, kind, command, chapter, date, exit, compareTo, machine, methodology, servers, workloads, ramp, spike, soak, openLoop,
                null, flags, seconds, null);
    }

    /** A report without --timeline. */
    public BenchReport(String schema, Kind kind, String command, String chapter, String date, int exit, String compareTo,
                Machine machine, Methodology methodology, List<ServerEntry> servers, List<WorkloadEntry> workloads, RampSummary ramp,
                SpikeSummary spike, SoakSummary soak, OpenLoopSummary openLoop, ConnectionsReport.Summary connections, List<String> flags, long seconds) {
        this(schema, kind, command, chapter, date, exit, compareTo, machine, methodology, servers, workloads, ramp, spike, soak, openLoop,
                connections, flags, seconds, null);
    }

    /** The role of the server whose id is {@code server} in this race, or null when it names none. */
    public Role roleOf(String server) {
        if (servers == null) return null;
        return servers.stream().filter(e -> e != null && e.id().equals(server)).map(ServerEntry::role).findFirst().orElse(null);
    }

    /** Reads a results file; IllegalArgumentException when it is not one. */
    public static BenchReport read(String json) {
        return Jackson.read(json, BenchReport.class);
    }

    public String json() {
        return Jackson.write(this);
    }

    /**
     * Where the race ran. {@code memoryBytes} and {@code maxOpenFiles} (this process's ulimit -n)
     * are absent where the JVM cannot tell; {@code pinning} says in words how the CPUs were
     * shared; {@code shared} reminds that other work may have run.
     */
    public record Machine(int cores, String cpuModel, @JsonInclude(JsonInclude.Include.NON_NULL) Long memoryBytes, Os os,
                   String java, String jbang, boolean pinned, String pinning, String shared, String bombardier,
                   @JsonInclude(JsonInclude.Include.NON_NULL) Long maxOpenFiles,
                   @JsonInclude(JsonInclude.Include.NON_NULL) Double othersCoresBefore,
                   @JsonInclude(JsonInclude.Include.NON_NULL) String counters) {
        Machine(int cores, String cpuModel, Long memoryBytes, Os os, String java, String jbang, boolean pinned, String pinning, String shared,
                String bombardier, Long maxOpenFiles, Double othersCoresBefore) {
            this(cores, cpuModel, memoryBytes, os, java, jbang, pinned, pinning, shared, bombardier, maxOpenFiles, othersCoresBefore, null);
        }

        /** The same facts, with the share of a core other processes used in the second before the race ({@link Others}). */
        public Machine withOthersBefore(Double others) {
            return new Machine(cores, cpuModel, memoryBytes, os, java, jbang, pinned, pinning, shared, bombardier, maxOpenFiles, others, counters);
        }
    }

    public record Os(String name, String version, String arch) {}

    /**
     * How the figures were made: {@code mode} "quick", "thorough" or "smoke"; at least
     * {@code warmups} and at most {@code maxWarmups} warm-ups ({@code warmupRule} says when
     * another); {@code warmupPerGroup}: io-1000 and io-2000 reuse io-100's warm-up; {@code forks}:
     * how many fresh processes of each server a forked workload ran in (absent before forks).
     */
    public record Methodology(String mode, int warmups, int maxWarmups, String warmupRule, int warmupSeconds, int runs,
                       int runSeconds, int ioRunSeconds, boolean warmupPerGroup, String statistic, String order,
                       int sampleMillis, String load, List<String> notes, @JsonInclude(JsonInclude.Include.NON_NULL) Integer forks) {}

    /**
     * A server in the race: its {@link Role}; {@code file} and {@code pid} null when unknown;
     * {@code pids}, every process it ran in, in order, when forks started it afresh (else absent).
     */
    public record ServerEntry(String id, Role role, String label, String file, String url, List<String> args, Long pid,
                       boolean pinned, @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Long> pids) {
        ServerEntry(String id, Role role, String label, String file, String url, List<String> args, Long pid, boolean pinned) {
            this(id, role, label, file, url, args, pid, pinned, null);
        }
    }

    /**
     * A workload and each server's result on it, in {@code servers} order. {@code group} is
     * "hello", "io", "cpu" or "idle"; {@code timeoutSeconds} is null for idle; {@code cpus}, the
     * split of the CPUs it ran on; {@code boundRps}
     * (Little's law) is null but for the sleep-bound io workloads.
     */
    public record WorkloadEntry(String id, Plan.Group group, String description, String path, int connections, double serviceMillis,
                         Integer timeoutSeconds, Double boundRps, @JsonInclude(JsonInclude.Include.NON_NULL) CpuSplit cpus,
                         List<Result> results) {}

    /**
     * Where a workload ran ({@link Cpus}): {@code servers} and {@code load}, taskset CPU lists such
     * as "0-1" or "1", or null where that side was not pinned; {@code words} says it in a line.
     * Absent in files written before races split the CPUs (they pinned servers to CPU 0 and
     * Bombardier to CPU 1 throughout).
     */
    public record CpuSplit(String servers, String load, String words) {}

    /**
     * One server's result on one workload: a load result, an idle result, or skipped. Jackson
     * tells them apart by their fields (skipReason: skipped; rps: load; else idle). {@code flags}
     * are why the result made the exit status 1: the server's doing. {@code notes} are worth
     * knowing and never fail a race: how the figures were made, and readings this run could not
     * trust (a measurement artefact, this machine's limits).
     */
    @JsonTypeInfo(use = JsonTypeInfo.Id.DEDUCTION, defaultImpl = IdleResult.class)
    @JsonSubTypes({@JsonSubTypes.Type(LoadResult.class), @JsonSubTypes.Type(IdleResult.class), @JsonSubTypes.Type(SkippedResult.class)})
    public sealed interface Result permits LoadResult, IdleResult, SkippedResult {
        String server();

        Status status();

        List<String> flags();

        default List<String> notes() {
            return List.of();
        }

        default boolean measured() {
            return status() == Status.MEASURED;
        }
    }

    /** The server could not take part: no such endpoint (404), or it stopped earlier. Its ratio is always null. */
    public record SkippedResult(String server, Status status, String skipReason, List<String> flags, Ratio ratio) implements Result {
        public SkippedResult(String server, String skipReason, List<String> flags) {
            this(server, Status.SKIPPED, skipReason, flags, null);
        }
    }

    /**
     * A load workload. Figures are medians over the measured runs, but the totals
     * ({@code requests2xx}, {@code non2xx}, {@code errors} with the {@code timeouts} among
     * them, {@code errorKinds}) and the peaks. {@code boundRps} is this server's own
     * Little's-law bound (01 has one request in progress, 02 --threads), {@code percentOfBound}
     * of it; {@code loadCpuPercent}: Bombardier's CPU time / the run's time / the cores it may
     * use. {@code contextSwitchesPerRequest}: the OS's context switches of the server's threads
     * (voluntary and not) per 2xx answer, the median of the measured runs' ({@link ContextSwitches});
     * absent where /proc does not show them (macOS, Windows, a server without a pid) and in files
     * written before it existed. {@code notes} are worth knowing, not failures (the load generator
     * was saturated).
     */
    public record LoadResult(String server, Status status, Double rps, Latency latencyMs, long requests2xx, long non2xx,
                      long errors, long timeouts, Map<String, Long> errorKinds, Double cpuSeconds,
                      Double cpuMillisPerRequest, @JsonInclude(JsonInclude.Include.NON_NULL) Double contextSwitchesPerRequest,
                      Long peakRssBytes, Integer peakThreads, Double boundRps,
                      Double percentOfBound, Double loadCpuPercent, LoadRatio ratio, List<RunFigures> runs,
                      List<RunFigures> warmups, List<String> flags, List<String> notes) implements Result {
        public LoadResult withRatio(LoadRatio to) {
            return new LoadResult(server, status, rps, latencyMs, requests2xx, non2xx, errors, timeouts, errorKinds,
                    cpuSeconds, cpuMillisPerRequest, contextSwitchesPerRequest, peakRssBytes, peakThreads, boundRps, percentOfBound,
                    loadCpuPercent, to, runs, warmups, flags, notes);
        }
    }

    /** Median latencies in milliseconds. */
    public record Latency(Double p50, Double p99) {}

    /**
     * One warm-up or measured run, raw. {@code othersCores}: what other processes used meanwhile;
     * {@code contextSwitchesPerRequest}: the server's context switches in the run per 2xx answer.
     * Each absent where it is unknown, and in files written before it existed.
     */
    public record RunFigures(Double rps, Double seconds, long requests2xx, long non2xx, long errors, long timeouts, Double p50Ms,
                      Double p99Ms, Double maxMs, Double cpuSeconds, Long peakRssBytes, Integer peakThreads,
                      Double percentOfBound, Double loadCpuPercent, @JsonInclude(JsonInclude.Include.NON_NULL) Double othersCores,
                      @JsonInclude(JsonInclude.Include.NON_NULL) Double contextSwitchesPerRequest,
                      @JsonInclude(JsonInclude.Include.NON_NULL) Integer fork) {
        RunFigures(Double rps, Double seconds, long requests2xx, long non2xx, long errors, long timeouts, Double p50Ms,
                   Double p99Ms, Double maxMs, Double cpuSeconds, Long peakRssBytes, Integer peakThreads,
                   Double percentOfBound, Double loadCpuPercent) {
            this(rps, seconds, requests2xx, non2xx, errors, timeouts, p50Ms, p99Ms, maxMs, cpuSeconds, peakRssBytes, peakThreads,
                    percentOfBound, loadCpuPercent, null, null, null);
        }

        /** The same figures, of a run in fork {@code number} (1, 2 ...). */
        public RunFigures inFork(int number) {
            return new RunFigures(rps, seconds, requests2xx, non2xx, errors, timeouts, p50Ms, p99Ms, maxMs, cpuSeconds, peakRssBytes,
                    peakThreads, percentOfBound, loadCpuPercent, othersCores, contextSwitchesPerRequest, number);
        }
    }

    /** The idle workload; {@code figures} are absent when the connections could not be opened at all. */
    public record IdleResult(String server, Status status, @JsonUnwrapped IdleFigures figures, List<String> flags, IdleRatio ratio,
                      @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> notes) implements Result {
        public IdleResult {
            notes = notes == null ? List.of() : notes;
        }

        public IdleResult withRatio(IdleRatio to) {
            return new IdleResult(server, status, figures, flags, to, notes);
        }
    }

    /**
     * What the idle connections cost: {@code asked = served + refused + unanswered + notAttempted}
     * ({@code unanswered}: no answer within 5 s, then closed); {@code stopped} says why it stopped opening more (null when it did not); heap after a full
     * GC and RSS, before and with the connections open, and per connection served.
     */
    public record IdleFigures(int asked, int served, int refused, int unanswered, int notAttempted, String stopped,
                       Double openSeconds, Double heapBeforeBytes, Double heapWithBytes, Double heapPerConnectionBytes,
                       Long rssBeforeBytes, Long rssWithBytes, Double rssPerConnectionBytes, Integer threadsBefore,
                       Integer threadsWith, Long serverMaxOpenFiles) {}

    /** A result divided by the {@code compareTo} server's: a load ratio or an idle ratio. */
    @JsonTypeInfo(use = JsonTypeInfo.Id.DEDUCTION)
    @JsonSubTypes({@JsonSubTypes.Type(LoadRatio.class), @JsonSubTypes.Type(IdleRatio.class)})
    public sealed interface Ratio permits LoadRatio, IdleRatio {}

    /**
     * Ratios of medians; {@code cpuPerRequest}, the server's CPU time per answer over the compared
     * server's (absent in older files, and where either is unknown); {@code rpsInterval}, absent in
     * files written before it existed and when fewer than two turns were paired, says how far the
     * turns agree on req/s ({@link Verdict}); {@code verdict}, the interval of the figure that
     * decided (req/s, or CPU per request where the load generator was at its CPU limit; absent in
     * older files, where rpsInterval decided); {@code callouts}, other figures far from the compared
     * server's (CPU per request, peak RSS), each an interval whose verdict is "more" or "less".
     */
    public record LoadRatio(Double rps, Double p50, Double p99, @JsonInclude(JsonInclude.Include.NON_NULL) Double cpuPerRequest,
                     @JsonInclude(JsonInclude.Include.NON_NULL) Interval rpsInterval,
                     @JsonInclude(JsonInclude.Include.NON_NULL) Interval verdict,
                     @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Interval> callouts,
                     @JsonInclude(JsonInclude.Include.NON_NULL) String busy) implements Ratio {
        LoadRatio(Double rps, Double p50, Double p99) {
            this(rps, p50, p99, null, null, null, null, null);
        }

        LoadRatio(Double rps, Double p50, Double p99, Double cpuPerRequest, Interval rpsInterval, Interval verdict, List<Interval> callouts) {
            this(rps, p50, p99, cpuPerRequest, rpsInterval, verdict, callouts, null);
        }

        /** The interval that decided: {@code verdict}, or in older files {@code rpsInterval}; null when none. */
        public Interval decided() {
            return verdict != null ? verdict : rpsInterval;
        }
    }

    /**
     * The {@code confidence} interval, {@code low} to {@code high}, of the ratio of {@code figure}
     * ("rps", "cpuPerRequest", "peakRss"; absent in older files: "rps") over {@code turns} paired
     * turns, whose geometric mean is {@code ratio} ({@link Verdict}); {@code verdict} the race's
     * {@link Verdict.Call}: "faster", "slower", "same" or "noisy" (too noisy to compare), or for a
     * figure called out "more" or "less"; {@code detectable}, the smallest difference the race could have called (0.06: 6%);
     * {@code why}, why this figure decided; {@code advice}, when the race could not tell, what
     * would help; {@code forks}, how many fresh processes of each server the turns came from
     * (absent for one, and in files written before forks); {@code forksDisagree}, true when the
     * forks' means differed beyond what their turns explain, so the interval is the forks' own.
     */
    public record Interval(@JsonInclude(JsonInclude.Include.NON_NULL) String figure, @JsonInclude(JsonInclude.Include.NON_NULL) Double ratio,
                    Double low, Double high, int turns, Double confidence, Verdict.Call verdict,
                    @JsonInclude(JsonInclude.Include.NON_NULL) Double detectable,
                    @JsonInclude(JsonInclude.Include.NON_NULL) String why,
                    @JsonInclude(JsonInclude.Include.NON_NULL) String advice,
                    @JsonInclude(JsonInclude.Include.NON_NULL) Integer forks,
                    @JsonInclude(JsonInclude.Include.NON_NULL) Boolean forksDisagree) {
        Interval(String figure, Double ratio, Double low, Double high, int turns, Double confidence, Verdict.Call verdict, Double detectable,
                 String why, String advice) {
            this(figure, ratio, low, high, turns, confidence, verdict, detectable, why, advice, null, null);
        }
    }

    /**
     * Heap and RSS per idle connection over the compared server's; {@code callout}, when the heap
     * per connection is far from the compared server's, says so in words (absent when it is not).
     */
    public record IdleRatio(Double heapPerConnection, Double rssPerConnection,
                     @JsonInclude(JsonInclude.Include.NON_NULL) String callout) implements Ratio {
        public IdleRatio(Double heapPerConnection, Double rssPerConnection) {
            this(heapPerConnection, rssPerConnection, null);
        }
    }

    /**
     * The ramp ({@link Ramp}): {@code path} at the connections of {@code steps}, one run a step;
     * a step breaks a server when over {@code maxErrorPercent} of its requests fail or its p99
     * passes {@code maxP99Ms}, and a server sits out the steps after the one that broke it.
     */
    public record RampSummary(String path, double maxErrorPercent, double maxP99Ms, List<Integer> steps, List<BreakingPoint> servers) {}

    /**
     * One server on the ramp: the most connections it held ({@code held}, null when none), the
     * step that broke it ({@code brokeAt}, null when none did) and {@code why}: what broke it,
     * or why it ran no further (a step skipped: it stopped, or has no such endpoint).
     */
    public record BreakingPoint(String server, Integer held, Integer brokeAt, String why) {}

    /**
     * The spikes ({@link Spike}): {@code path} at {@code base} connections, then {@code peak} for
     * {@code peakSeconds}, then {@code base} again, {@code cycles} times; the load runs in windows
     * of {@code windowSeconds}, and a server has recovered at the first window after a spike whose
     * req/s is within {@code recoveredWithinPercent} of its baseline, with no failed request.
     */
    public record SpikeSummary(String path, int base, int peak, int cycles, int windowSeconds, int peakSeconds,
                        double recoveredWithinPercent, List<SpikeServer> servers) {}

    /**
     * One server through the spikes: {@code skipReason} when it sat them out (its baseline
     * already failed); its baseline (median req/s of the first windows, threads and open files
     * after them); each cycle; every window in order, to draw; {@code flags}: a spike it did not
     * recover from, or files or threads that stayed up.
     */
    public record SpikeServer(String server, String skipReason, Double baselineRps, Integer baselineThreads, Integer baselineFiles,
                       List<SpikeCycle> cycles, List<SpikeWindow> windows, List<String> flags) {}

    /** A cycle: the spike's figures, how long until a window was back ({@code recoveredAfterSeconds}, null: not within the windows tried), threads and files then. */
    public record SpikeCycle(int cycle, Double peakRps, long peakFailed, Double peakP99Ms, Integer recoveredAfterSeconds,
                      Integer threads, Integer files) {}

    /** One window of load: when it began ({@code atSeconds}, from the server's first window), "baseline", "spike" or "after". */
    public record SpikeWindow(double atSeconds, String phase, int cycle, int connections, Double rps, long failed, Double p99Ms) {}

    /**
     * The soak ({@link Soak}): {@code path} at {@code connections} for {@code minutes} a server,
     * in windows of {@code windowSeconds}, sampled after each; memory that grew past
     * {@code growthPercent} (and 4 MiB) from the middle third of the samples to the last is
     * flagged, and so are files and threads that grew by more than 16 and 8.
     */
    public record SoakSummary(String path, int connections, double minutes, int windowSeconds, double growthPercent, List<SoakServer> servers) {}

    /**
     * One server's soak: its samples; the slope per minute of heap after GC, RSS, open files and
     * threads (least squares, null when unknown); median req/s; {@code flags}: what grew.
     */
    public record SoakServer(String server, String skipReason, Double rps, long failed, Double heapBytesPerMinute, Double rssBytesPerMinute,
                      Double filesPerMinute, Double threadsPerMinute, List<SoakSample> samples, List<String> flags) {}

    /** One sample, after a window: its req/s and failures, then the server's heap after a full GC, RSS, threads and files. */
    public record SoakSample(double atSeconds, Double rps, long failed, Double heapAfterGcBytes, Long rssBytes, Integer threads, Integer files) {}

    /**
     * The open loop ({@link OpenLoop}): GET {@code path} at a fixed {@code rate} a second for
     * {@code seconds} a server, after a warm-up of {@code warmupSeconds}; first from Vegeta
     * ({@code vegeta}, its version), an open loop, then from Bombardier with {@code connections},
     * a closed loop; every request awaited {@code timeoutSeconds}. {@code cpus}: where it ran
     * (Vegeta where Bombardier runs); {@code notes}: how the figures were made.
     */
    public record OpenLoopSummary(String path, int rate, int seconds, int warmupSeconds, int connections, int timeoutSeconds, String vegeta,
                           CpuSplit cpus, List<String> notes, List<OpenLoopServer> servers) {}

    /**
     * One server: {@code skipReason} when it sat out (its warm-up lost requests, or answered too
     * few a second: it cannot carry the rate), with the warm-up's answers a second and lost
     * requests either way; the open loop's and the closed loop's figures (null when that load
     * could not run); {@code flags}: requests lost in either, or a load that did not finish.
     */
    public record OpenLoopServer(String server, String skipReason, Double warmupRps, long warmupLost, OpenLoopRun openLoop,
                          OpenLoopRun closedLoop, List<String> flags) {}

    /** With --timeline: the {@code workload} recorded, one more turn of it a server after the measured ones; the learner's, then the reference's. */
    public record Timelines(String workload, int seconds, List<Recorded> servers) {}

    /**
     * One server's recorded turn: its timeline {@code file} (null when it has none), its CPU time
     * per 2xx answer while recorded and in the race's measured turns of the workload, in µs (null
     * when unknown); {@code note}, why it has no timeline, or what may have skewed the cost.
     */
    public record Recorded(String server, String file, Double cpuMicrosPerRequestRecorded, Double cpuMicrosPerRequestMeasured, String note) {}

    /**
     * One load at the fixed rate, by {@code tool} ("vegeta" or "bombardier"): the requests
     * {@code sent} (at the rate, rate x seconds; fewer when a closed loop waited), answered 2xx,
     * answered otherwise ({@code non2xx}), and {@code errors}, the {@code timeouts} among them;
     * {@code achievedRps}, 2xx answers a second from the first request sent to the last answer;
     * the latency percentiles of every request sent, in ms ({@code p999Ms} null when the tool
     * reports none: Bombardier stops at p99); {@code maxSendLagMs}, how far behind its schedule
     * the open loop sent a request (null for the closed loop, which has no schedule).
     */
    public record OpenLoopRun(String tool, long sent, long ok, long non2xx, long errors, long timeouts, Double achievedRps,
                       Double p50Ms, Double p99Ms, Double p999Ms, Double maxMs, Double maxSendLagMs) {
        public long lost() {
            return non2xx + errors;
        }
    }
}
