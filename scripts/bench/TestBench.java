///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
//DEPS org.junit.jupiter:junit-jupiter:5.14.2
//DEPS org.junit.platform:junit-platform-launcher:1.14.2
//SOURCES Bench.java ../test/BenchTests.java

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * Runs the benchmark's unit tests (scripts/test/BenchTests.java), or with {@code --smoke FILE}
 * checks the JSON of a smoke run (a solution raced against itself): one ok/FAIL line per
 * check, then "N passed, N failed".
 */
class TestBench {
    static int passed;
    static int failed;

    public static void main(String[] args) throws Exception {
        if (args.length == 2 && args[0].equals("--smoke")) {
            smoke(Path.of(args[1]));
            System.out.println(passed + " passed, " + failed + " failed");
            System.exit(failed == 0 ? 0 : 1);
        }
        unitTests();
    }

    /** What a smoke run's results must hold: every field a web page reads, no errors, a ratio near 1. */
    static void smoke(Path file) throws Exception {
        Map<String, Object> report;
        try {
            report = Json.object(Json.parse(Files.readString(file)));
            check("the smoke run wrote its results as JSON", true, "");
        } catch (Exception e) {
            check("the smoke run wrote its results as JSON", false, file + ": " + e.getMessage());
            return;
        }
        check("results name their schema", "course-bench/1".equals(report.get("schema")), "schema " + report.get("schema"));
        Map<String, Object> machine = Json.object(report.getOrDefault("machine", Map.of()));
        List<String> missing = missing(machine, "cores", "cpuModel", "memoryBytes", "os", "java", "jbang", "bombardier", "pinned", "pinning");
        missing.addAll(missing(Json.object(machine.getOrDefault("os", Map.of())), "name", "version", "arch"));
        check("results describe the machine (cores, OS, Java, JBang, Bombardier, pinning)", missing.isEmpty(), "missing " + missing);
        Map<String, Object> method = Json.object(report.getOrDefault("methodology", Map.of()));
        check("results describe the methodology (warm-ups, runs, durations)",
                missing(method, "mode", "warmups", "warmupSeconds", "runs", "runSeconds", "statistic", "order").isEmpty(), "methodology " + method);
        List<Object> servers = Json.array(report.get("servers"));
        check("results list the learner and the reference, with their processes", servers.size() == 2
                && servers.stream().allMatch(o -> Json.object(o).get("pid") != null), "servers " + servers);
        List<Object> workloads = Json.array(report.get("workloads"));
        Map<String, Object> hello = workloads.isEmpty() ? Map.of() : Json.object(workloads.get(0));
        check("the smoke run measured the hello workload", "hello".equals(hello.get("id")), "workloads " + workloads.size());
        for (Object o : Json.array(hello.get("results"))) {
            Map<String, Object> r = Json.object(o);
            String who = String.valueOf(r.get("server"));
            List<String> fields = missing(r, "rps", "latencyMs", "requests2xx", "non2xx", "errors", "timeouts", "cpuSeconds",
                    "cpuMillisPerRequest", "peakRssBytes", "peakThreads", "ratio", "runs", "warmups");
            check(who + ": every figure is there (rps, latency, errors, CPU, RSS, threads, ratio, raw runs)", fields.isEmpty(), "missing " + fields);
            check(who + ": 2 measured runs and 1 warm-up, kept raw", Json.array(r.get("runs")).size() == 2
                    && Json.array(r.get("warmups")).size() == 1, "runs " + Json.array(r.get("runs")).size());
            long bad = count(r, "errors") + count(r, "non2xx");
            check(who + ": no errors, timeouts or non-2xx answers", bad == 0 && Json.array(r.get("flags")).isEmpty(), "flags " + r.get("flags"));
            double ratio = r.get("ratio") == null ? Double.NaN : Report.num(Json.object(r.get("ratio")), "rps");
            check(who + ": the same server races itself within a factor of 2 (ratio " + Stats.times(ratio) + ")",
                    ratio >= 0.5 && ratio <= 2, "ratio " + ratio);
        }
        check("the run was not flagged (exit 0 recorded)", Report.num(report, "exit") == 0, "flags " + report.get("flags"));
    }

    static List<String> missing(Map<String, Object> m, String... keys) {
        List<String> absent = new java.util.ArrayList<>();
        for (String k : keys) if (m.get(k) == null) absent.add(k);
        return absent;
    }

    static long count(Map<String, Object> m, String key) {
        return m.get(key) instanceof Number n ? n.longValue() : -1;
    }

    static void check(String name, boolean ok, String why) {
        if (ok) {
            passed++;
            System.out.println("ok    bench smoke: " + name);
        } else {
            failed++;
            System.out.println("FAIL  bench smoke: " + name + ": " + why);
        }
    }

    static void unitTests() {
        AtomicInteger passed = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        LauncherFactory.create().execute(LauncherDiscoveryRequestBuilder.request().selectors(selectClass(BenchTests.class)).build(),
                new TestExecutionListener() {
                    @Override
                    public void executionFinished(TestIdentifier id, TestExecutionResult result) {
                        if (!id.isTest() && result.getStatus() != TestExecutionResult.Status.FAILED) return;
                        if (result.getStatus() == TestExecutionResult.Status.SUCCESSFUL) {
                            passed.incrementAndGet();
                            System.out.println("ok    bench: " + id.getDisplayName());
                        } else {
                            failed.incrementAndGet();
                            System.out.println("FAIL  bench: " + id.getDisplayName() + ": "
                                    + result.getThrowable().map(t -> String.valueOf(t.getMessage()).strip()).orElse("failed"));
                        }
                    }
                });
        System.out.println(passed + " passed, " + failed + " failed");
        System.exit(failed.get() == 0 && passed.get() > 0 ? 0 : 1);
    }
}
