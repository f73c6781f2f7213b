package bench;

import contract.Stats;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import lib.Jackson;

/**
 * Runs one Bombardier load (closed loop: C connections, each sends its next request when the
 * last answer came) and reads its single JSON line. Its exit code says nothing: the counts do.
 */
public final class Bombardier {
    /** One run's figures. Latencies in ms; {@code errors} includes the {@code timeouts}. */
    public record Result(double seconds, long ok, long non2xx, long errors, long timeouts,
                  double p50Ms, double p99Ms, double maxMs, Map<String, Long> errorKinds, double cpuSeconds) {
        /** The same figures, with the CPU time Bombardier itself used (NaN when unknown). */
        public Result withCpu(double loadCpuSeconds) {
            return new Result(seconds, ok, non2xx, errors, timeouts, p50Ms, p99Ms, maxMs, errorKinds, loadCpuSeconds);
        }

        /** Bombardier's CPU time as a percentage of the cores it may use over the run: near 100, it is the bottleneck. */
        public double cpuPercent(int cores) {
            return seconds > 0 && cores > 0 ? 100 * cpuSeconds / (seconds * cores) : Double.NaN;
        }

        /** Successful answers per second over the whole time Bombardier took. */
        public double rps() {
            return seconds > 0 ? ok / seconds : Double.NaN;
        }

        public boolean clean() {
            return non2xx == 0 && errors == 0;
        }
    }

    /** The run did not end in time: some connections got no answer; Bombardier was stopped, so there are no counts. */
    static final class Stalled extends IOException {
        final long afterSeconds;

        Stalled(long afterSeconds) {
            super("Bombardier had not finished after " + afterSeconds + " s: some connections got no answer in time");
            this.afterSeconds = afterSeconds;
        }
    }

    private final String binary;
    private final String cpus; // a taskset CPU list ("1"), or null: not pinned
    private final int cores;

    public Bombardier(String binary) {
        this(binary, null, Runtime.getRuntime().availableProcessors());
    }

    private Bombardier(String binary, String cpus, int cores) {
        this.binary = binary;
        this.cpus = cpus;
        this.cores = cores;
    }

    /** The same Bombardier on the CPUs of the taskset list {@code list} ({@code count} of them), or on any when null. */
    Bombardier on(String list, int count) {
        return new Bombardier(binary, list, list == null ? Runtime.getRuntime().availableProcessors() : count);
    }

    /** The cores Bombardier may run on: those it is pinned to, else all of them. */
    int cores() {
        return cores;
    }

    /** The version line Bombardier prints, e.g. "bombardier version v1.2.6 linux/amd64". */
    String version() {
        try {
            Process p = new ProcessBuilder(binary, "--version").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            p.waitFor(10, TimeUnit.SECONDS);
            if (out.contains("unspecified")) {
                String v = GoTools.moduleVersion(java.nio.file.Path.of(binary), "github.com/codesenberg/bombardier");
                if (v != null) return out.replace("unspecified", v);
            }
            return out;
        } catch (IOException | InterruptedException | RuntimeException e) {
            return "unknown";
        }
    }

    /**
     * Loads {@code url} with {@code connections} for {@code seconds}. A run normally ends within
     * one timeout after its duration; if not, some connection got no answer, and Bombardier's
     * client would retry the GET up to 5 times, waiting 5 timeouts: it is stopped, {@link Stalled}.
     */
    Result run(String url, int connections, int seconds, int timeoutSeconds) throws IOException {
        return run(url, connections, seconds, timeoutSeconds, 0);
    }

    /** The same at a fixed {@code rate} of requests a second (0: as fast as answers come). */
    Result run(String url, int connections, int seconds, int timeoutSeconds, int rate) throws IOException {
        List<String> command = command(connections, seconds, timeoutSeconds);
        command.addAll(List.of("-l", "-o", "json"));
        if (rate > 0) command.addAll(List.of("-r", String.valueOf(rate)));
        command.add(url);
        Process p = new ProcessBuilder(command).redirectErrorStream(false).start();
        Thread hook = new Thread(p::destroyForcibly); // taskset execs bombardier: one process
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> GoTools.readAll(p.getErrorStream()), GoTools.READER);
            CompletableFuture<String> stdout = CompletableFuture.supplyAsync(() -> GoTools.readAll(p.getInputStream()), GoTools.READER);
            long limit = seconds + timeoutSeconds + 5L;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(limit);
            // Its CPU time, read while it runs (an exited process has none to read): the last
            // reading misses at most the final 100 ms.
            double cpu = Double.NaN;
            while (!p.waitFor(100, TimeUnit.MILLISECONDS)) {
                if (System.nanoTime() > deadline) throw new Stalled(limit);
                java.util.Optional<java.time.Duration> used = p.toHandle().info().totalCpuDuration();
                if (used.isPresent()) cpu = used.get().toNanos() / 1e9;
            }
            String out = stdout.join();
            int start = out.indexOf('{');
            if (start < 0) throw new IOException("bombardier printed no JSON (exit " + p.exitValue() + "): " + (out + err.join()).strip());
            return parse(out.substring(start).strip()).withCpu(cpu);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while bombardier ran");
        } finally {
            p.destroyForcibly();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // the JVM is shutting down: the hook runs anyway
            }
        }
    }

    /**
     * Starts an unmeasured load on {@code url} for at most {@code seconds}, its output dropped;
     * {@link #stop} ends it.
     */
    Process start(String url, int connections, int seconds, int timeoutSeconds) throws IOException {
        return start(url, connections, seconds, timeoutSeconds, 0);
    }

    /** The same at a fixed {@code rate} of requests a second (0: as fast as answers come). */
    Process start(String url, int connections, int seconds, int timeoutSeconds, int rate) throws IOException {
        List<String> command = command(connections, seconds, timeoutSeconds);
        if (rate > 0) command.addAll(List.of("-r", String.valueOf(rate)));
        command.add(url);
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    }

    /** The command both loads share, up to the URL: {@code connections} for {@code seconds}, each answer awaited {@code timeoutSeconds}. */
    private List<String> command(int connections, int seconds, int timeoutSeconds) {
        List<String> command = new ArrayList<>();
        if (cpus != null) command.addAll(List.of("taskset", "-c", cpus));
        command.addAll(List.of(binary, "-c", String.valueOf(connections), "-d", seconds + "s", "-p", "r", "--timeout", timeoutSeconds + "s"));
        return command;
    }

    /** Ends a load that {@link #start} started, and waits for it. */
    static void stop(Process p) {
        p.destroyForcibly();
        try {
            p.waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Bombardier's JSON, the parts read here: counts per status class, errors, latency in MICROSECONDS. */
    record Output(Body result) {
        record Body(Double timeTakenSeconds, long req1xx, long req2xx, long req3xx, long req4xx, long req5xx, long others,
                    List<ErrorKind> errors, Latency latency) {}

        /** One kind of error; {@code errors} is absent when there were none. */
        record ErrorKind(String description, long count) {}

        public record Latency(Double max, Map<String, Double> percentiles) {}
    }

    /** Reads Bombardier's JSON line. */
    public static Result parse(String json) {
        Output.Body result = Jackson.read(json, Output.class).result();
        long non2xx = result.req1xx() + result.req3xx() + result.req4xx() + result.req5xx();
        Map<String, Long> kinds = new LinkedHashMap<>();
        long errors = 0;
        long timeouts = 0;
        for (Output.ErrorKind e : result.errors() == null ? List.<Output.ErrorKind>of() : result.errors()) {
            String what = String.valueOf(e.description());
            kinds.merge(what, e.count(), Long::sum);
            errors += e.count();
            String lower = what.toLowerCase();
            if (lower.contains("timeout") || lower.contains("timed out")) timeouts += e.count();
        }
        // "others" counts answers outside 1xx-5xx, and also every request that failed with an error.
        non2xx += Math.max(0, result.others() - errors);
        Output.Latency latency = result.latency() == null ? new Output.Latency(null, Map.of()) : result.latency();
        Map<String, Double> percentiles = latency.percentiles() == null ? Map.of() : latency.percentiles();
        return new Result(Stats.known(result.timeTakenSeconds()), result.req2xx(), non2xx, errors, timeouts,
                Stats.known(percentiles.get("50")) / 1000, Stats.known(percentiles.get("99")) / 1000,
                Stats.known(latency.max()) / 1000, kinds, Double.NaN);
    }
}
