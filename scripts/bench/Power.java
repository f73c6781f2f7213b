///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
//DEPS com.fasterxml.jackson.core:jackson-databind:2.22.4
//SOURCES ../contract/Contract.java ../lib/Jackson.java

package bench;

import contract.BenchReport;
import contract.Plan;
import contract.Stats;
import contract.Verdict;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import lib.Jackson;

/**
 * What the quick race can tell, from the races scripts/bench/power.sh ran: for each kind of race
 * (the reference against itself, or against itself plus N ns of CPU time per request), each race's
 * verdict on hello and how often each verdict came out. Written as JSON (site/static/bench/power.json).
 */
class Power {
    /** One race: its verdict on hello, the ratio and interval of the figure that decided, what it could tell, req/s's own interval. */
    record Race(String file, Verdict.Call verdict, String figure, Double ratio, Double low, Double high, Double detectable,
                Double learnerMicros, Double referenceMicros, Double rpsRatio, Double rpsLow, Double rpsHigh, Verdict.Call rpsVerdict,
                Double loadCpuPercent, long seconds, Integer turns, Integer forks, Boolean forksDisagree) {}

    /** How many races gave each verdict. */
    record Counts(int faster, int slower, int same, int noisy) {
        static Counts of(List<Verdict.Call> verdicts) {
            return new Counts(count(verdicts, Verdict.Call.FASTER), count(verdicts, Verdict.Call.SLOWER), count(verdicts, Verdict.Call.SAME),
                    count(verdicts, Verdict.Call.NOISY));
        }

        private static int count(List<Verdict.Call> verdicts, Verdict.Call v) {
            return (int) verdicts.stream().filter(x -> x == v).count();
        }
    }

    /**
     * A kind of race, {@code id} "self" or "spin-N": {@code spinNanos} 0 for the self-race; how
     * often each verdict came out ({@code verdicts}), and how often req/s alone would have given
     * each ({@code rpsVerdicts}); the median extra CPU per request and the lowest and highest
     * bound of the intervals; in how many races the forks disagreed beyond their turns.
     */
    record Kind(String id, String kind, int spinNanos, Verdict.Call expected, int races, Counts verdicts, int asExpected, Counts rpsVerdicts,
                Double medianExtraCpuPercent, Double lowestLow, Double highestHigh, int forksDisagreed, List<Race> runs) {}

    /**
     * Over every race: the reference's CPU per request, what the races could tell (as a
     * fraction: 0.06 is 6%), Bombardier's share of its CPU, and how long a race took, least and
     * most; in how many races the forks disagreed.
     */
    record Overall(int races, Double referenceMicrosMin, Double referenceMicrosMax, Double detectableMin, Double detectableMax,
                   Double loadCpuPercentMin, Double loadCpuPercentMax, Long secondsMin, Long secondsMax, int forksDisagreed) {}

    record Summary(String schema, String command, String date, String what, BenchReport.Machine machine, Overall overall, List<Kind> kinds) {}

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        Map<Integer, List<Race>> byKind = new TreeMap<>();
        BenchReport.Machine machine = null;
        String date = null;
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        }
        Path commands = dir.resolve("commands.txt");
        String command = Files.isRegularFile(commands) ? String.join("; then ", Files.readAllLines(commands)) : args.length > 2 ? args[2] : null;
        for (Path f : files) {
            String name = f.getFileName().toString();
            int spin = name.startsWith("self-") ? 0 : Integer.parseInt(name.split("-")[1]);
            BenchReport r = BenchReport.read(Files.readString(f));
            machine = r.machine();
            if (date == null) date = r.date();
            BenchReport.WorkloadEntry hello = r.workloads().stream().filter(w -> w.id().equals("hello")).findFirst().orElseThrow();
            BenchReport.LoadResult learner = (BenchReport.LoadResult) hello.results().get(0);
            BenchReport.LoadResult reference = (BenchReport.LoadResult) hello.results().get(1);
            BenchReport.Interval i = learner.ratio().decided();
            BenchReport.Interval rps = learner.ratio().rpsInterval();
            byKind.computeIfAbsent(spin, k -> new ArrayList<>()).add(new Race(name, i.verdict(), i.figure(), i.ratio(), i.low(), i.high(),
                    i.detectable(), micros(learner), micros(reference), learner.ratio().rps(), rps == null ? null : rps.low(),
                    rps == null ? null : rps.high(), rps == null ? null : rps.verdict(), learner.loadCpuPercent(), r.seconds(),
                    i.turns(), i.forks(), i.forksDisagree()));
        }
        List<Kind> kinds = new ArrayList<>();
        for (var e : byKind.entrySet()) {
            Verdict.Call expected = e.getKey() == 0 ? Verdict.Call.SAME : Verdict.Call.SLOWER;
            List<Race> rs = e.getValue();
            Counts counts = Counts.of(rs.stream().map(Race::verdict).toList());
            double extra = Stats.median(rs.stream().map(x -> x.ratio() == null ? Double.NaN : (x.ratio() - 1) * 100).toList());
            kinds.add(new Kind(e.getKey() == 0 ? "self" : "spin-" + e.getKey(), e.getKey() == 0 ? "the reference against itself" : "the reference plus " + e.getKey() + " ns of CPU time per request",
                    e.getKey(), expected, rs.size(), counts, expected == Verdict.Call.SAME ? counts.same() : counts.slower(),
                    Counts.of(rs.stream().map(Race::rpsVerdict).toList()), Stats.figure(extra),
                    min(rs.stream().map(Race::low)), max(rs.stream().map(Race::high)),
                    (int) rs.stream().filter(x -> Boolean.TRUE.equals(x.forksDisagree())).count(), rs));
        }
        List<Race> all = byKind.values().stream().flatMap(List::stream).toList();
        Overall overall = new Overall(all.size(), min(all.stream().map(Race::referenceMicros)), max(all.stream().map(Race::referenceMicros)),
                min(all.stream().map(Race::detectable)), max(all.stream().map(Race::detectable)),
                min(all.stream().map(Race::loadCpuPercent)), max(all.stream().map(Race::loadCpuPercent)),
                all.stream().mapToLong(Race::seconds).min().orElse(0), all.stream().mapToLong(Race::seconds).max().orElse(0),
                (int) all.stream().filter(x -> Boolean.TRUE.equals(x.forksDisagree())).count());
        Plan.Mode quick = Plan.Pace.QUICK.mode();
        Plan.Workload hello = Plan.pick("hello").get(0);
        Summary summary = new Summary("course-bench-power/1", command, date,
                "quick races of chapter 03 on hello (" + quick.runsFor(hello) + " turns of " + quick.runSecondsFor(hello) + " s in "
                        + quick.forksFor(hello) + " forks of " + quick.runsPerFork(hello) + ", each fork after " + quick.warmups() + "-"
                        + quick.maxWarmups() + " warm-ups), decided on the server's CPU"
                        + " time per request; the slower servers are solutions/03-reactor.java with scripts/test/fixtures/bench/03-slower.txt, which"
                        + " spends BENCH_SPIN_NANOS of its thread's CPU time on each request",
                machine, overall, kinds);
        Files.createDirectories(Path.of(args[1]).toAbsolutePath().getParent());
        Files.writeString(Path.of(args[1]), Jackson.write(summary));
        for (Kind k : kinds) {
            System.out.printf("%-50s %d of %d %s (median extra CPU per request %s%%) %s%n", k.kind(), k.asExpected(), k.races(), k.expected().label(),
                    k.medianExtraCpuPercent(), k.verdicts());
        }
    }

    private static Double min(Stream<Double> values) {
        return values.filter(java.util.Objects::nonNull).min(Double::compare).orElse(null);
    }

    private static Double max(Stream<Double> values) {
        return values.filter(java.util.Objects::nonNull).max(Double::compare).orElse(null);
    }

    private static Double micros(BenchReport.LoadResult r) {
        return r.cpuMillisPerRequest() == null ? null : Stats.figure(r.cpuMillisPerRequest() * 1000);
    }
}
