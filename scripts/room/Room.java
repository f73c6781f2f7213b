///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
//DEPS com.fasterxml.jackson.core:jackson-databind:2.22.4
//SOURCES ../lib/Jackson.java ../lib/Chapters.java ../checks/CheckReport.java ../bench/BenchReport.java

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Hand-ins and the room summary behind scripts/handin.sh and scripts/room.sh.
 *
 * <p>{@code handin ROOT NAME OUT}: one file, {@code OUT/NAME.json}, with the learner's latest
 * grading ({@code .results/checks/NN.json}) and races ({@code .results/bench/*.json}).
 * {@code summary ROOT FOLDER OUT}: one self-contained HTML page from a folder of hand-ins (or of
 * raw {@code check.sh --json} and {@code bench.sh} files, named after the learner): progress per
 * chapter (a column for each graded chapter of the registry in ROOT, in course order), and the
 * fastest servers per workload.
 */
class Room {
    static final String SCHEMA = "course-handin/1";
    static String who = "room";

    /** A hand-in: {@code schema} is {@link #SCHEMA}; the learner's latest check reports and races. */
    record Handin(String schema, String learner, String time, List<CheckReport> checks, List<BenchReport> bench) {}

    public static void main(String[] args) throws IOException {
        if (args.length == 4 && args[0].equals("handin")) {
            who = "handin";
            handin(Path.of(args[1]), args[2], Path.of(args[3]));
        } else if (args.length == 4 && args[0].equals("summary")) {
            summary(Path.of(args[1]), Path.of(args[2]), Path.of(args[3]));
        } else {
            System.err.println("usage: Room handin ROOT NAME OUT_DIR | Room summary ROOT FOLDER OUT_FILE");
            System.exit(2);
        }
    }

    // ---- The learner's side ----

    static void handin(Path root, String name, Path outDir) throws IOException {
        if (!name.matches("[A-Za-z0-9._-]{1,40}")) fail(2, "a name is 1 to 40 letters, digits, dots, dashes or underscores, not '" + name + "'");
        List<CheckReport> checks = readAll(root.resolve(".results/checks"), CheckReport.class);
        List<BenchReport> bench = readAll(root.resolve(".results/bench"), BenchReport.class);
        if (checks.isEmpty() && bench.isEmpty()) {
            fail(1, "nothing to hand in yet: grade a chapter first (scripts/check.sh 01), or race one (scripts/bench.sh 01)");
        }
        Handin handin = new Handin(SCHEMA, name, Instant.now().toString(), checks, bench);
        Files.createDirectories(outDir);
        Path out = outDir.resolve(name + ".json");
        Files.writeString(out, Jackson.write(handin));
        System.out.println("handin: " + checks.size() + " graded chapter(s) and " + bench.size() + " race(s) in " + out
                + "\nhandin: give that file to your instructor (a shared folder, a USB stick, or chat)");
    }

    static <T> List<T> readAll(Path dir, Class<T> type) throws IOException {
        List<T> all = new ArrayList<>();
        if (!Files.isDirectory(dir)) return all;
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
                try {
                    all.add(Jackson.read(Files.readString(f), type));
                } catch (RuntimeException e) {
                    System.err.println("handin: skipping " + f + ": not JSON (" + e.getMessage() + ")");
                }
            }
        }
        return all;
    }

    // ---- The instructor's side ----

    /** What one learner handed in: the latest report per chapter, and their races. */
    record Learner(String name, Map<String, CheckReport> checks, List<BenchReport> bench) {}

    static void summary(Path root, Path folder, Path out) throws IOException {
        if (!Files.isDirectory(folder)) fail(2, "no folder " + folder + ": give the folder that holds the hand-ins");
        Map<String, Learner> learners = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        List<String> skipped = new ArrayList<>();
        try (Stream<Path> files = Files.list(folder)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
                String stem = f.getFileName().toString().replaceFirst("\\.json$", "");
                try {
                    read(Jackson.tree(Files.readString(f)), stem, learners);
                } catch (RuntimeException e) {
                    skipped.add(f.getFileName() + " (" + e.getMessage() + ")");
                }
            }
        }
        if (learners.isEmpty()) fail(1, "no hand-ins in " + folder + " (files from scripts/handin.sh, check.sh --json or bench.sh)");
        Files.writeString(out, html(Chapters.graded(root), learners, skipped), StandardCharsets.UTF_8);
        System.out.println("room: " + learners.size() + " learner(s) -> " + out + (skipped.isEmpty() ? "" : "; skipped " + skipped));
    }

    /** Reads a hand-in, a check report (one or a list), or a bench result, for learner {@code stem}. */
    static void read(JsonNode doc, String stem, Map<String, Learner> learners) {
        if (SCHEMA.equals(doc.path("schema").asText())) {
            String name = doc.path("learner").asText();
            for (JsonNode c : doc.path("checks")) read(c, name, learners);
            for (JsonNode b : doc.path("bench")) read(b, name, learners);
            return;
        }
        if (doc.isArray()) {
            for (JsonNode o : doc) read(o, stem, learners);
            return;
        }
        Learner l = learners.computeIfAbsent(stem, n -> new Learner(n, new TreeMap<>(), new ArrayList<>()));
        if (BenchReport.SCHEMA.equals(doc.path("schema").asText())) {
            l.bench().add(Jackson.convert(doc, BenchReport.class));
        } else if (doc.has("chapter") && doc.has("exit")) {
            CheckReport report = Jackson.convert(doc, CheckReport.class);
            CheckReport before = l.checks().get(report.chapter());
            if (before == null || String.valueOf(report.time()).compareTo(String.valueOf(before.time())) > 0) {
                l.checks().put(report.chapter(), report);
            }
        } else {
            throw new IllegalArgumentException("neither a hand-in, a check report nor a bench result");
        }
    }

    /** One learner's fastest measured figure of their own server on a workload, or NaN. */
    static double learnerRps(Learner l, String workload) {
        double best = Double.NaN;
        for (BenchReport b : l.bench()) {
            if (!"chapter".equals(b.kind()) || b.workloads() == null) continue;
            for (BenchReport.WorkloadEntry w : b.workloads()) {
                if (!workload.equals(w.id()) || w.results() == null) continue;
                for (BenchReport.Result r : w.results()) {
                    if (r instanceof BenchReport.LoadResult lr && "learner".equals(lr.server()) && lr.measured() && lr.rps() != null) {
                        best = Double.isNaN(best) ? lr.rps() : Math.max(best, lr.rps());
                    }
                }
            }
        }
        return best;
    }

    /** The page: a column for every graded chapter of {@code registry}, then any other chapter a hand-in holds. */
    static String html(Map<String, Chapters.Chapter> registry, Map<String, Learner> learners, List<String> skipped) {
        List<String> chapters = new ArrayList<>(registry.keySet());
        TreeSet<String> others = new TreeSet<>();
        learners.values().forEach(l -> others.addAll(l.checks().keySet()));
        others.removeAll(registry.keySet());
        chapters.addAll(others);
        StringBuilder h = new StringBuilder();
        h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
                .append("<title>Room summary</title><style>")
                .append("body{font-family:system-ui,sans-serif;margin:2rem;color:#1d2330}")
                .append("table{border-collapse:collapse;margin:1rem 0}th,td{border-bottom:1px solid #e3e6ec;padding:.3rem .7rem;text-align:left}")
                .append("td.done{color:#1a7f37;font-weight:600}td.todo{color:#b35900}td.none{color:#9aa3b2}")
                .append(".num{text-align:right;font-variant-numeric:tabular-nums}")
                .append("@media (prefers-color-scheme:dark){body{background:#12151b;color:#e4e7ec}th,td{border-color:#2a303b}}")
                .append("</style></head><body>\n");
        h.append("<h1>Room summary</h1>\n<p>").append(learners.size()).append(" learner(s), made ")
                .append(esc(Instant.now().toString().substring(0, 16).replace('T', ' '))).append(" UTC by scripts/room.sh.</p>\n");

        h.append("<h2>Progress</h2>\n<table><thead><tr><th>Learner</th>");
        for (String c : chapters) {
            Chapters.Chapter chapter = registry.get(c);
            h.append("<th").append(chapter == null ? ">" : " title=\"" + esc(chapter.model()) + "\">").append(esc(c))
                    .append(chapter == null ? "" : "<br><small>" + esc(chapter.title()) + "</small>").append("</th>");
        }
        h.append("<th class=\"num\">Chapters done</th></tr></thead><tbody>\n");
        Map<String, Integer> doneBy = new LinkedHashMap<>();
        for (Learner l : learners.values()) {
            h.append("<tr><td>").append(esc(l.name())).append("</td>");
            int done = 0;
            for (String c : chapters) {
                CheckReport r = l.checks().get(c);
                if (r == null) {
                    h.append("<td class=\"none\">–</td>");
                } else if (count(r.failed()) == 0 && count(r.passed()) > 0) {
                    done++;
                    doneBy.merge(c, 1, Integer::sum);
                    h.append("<td class=\"done\" title=\"").append(count(r.passed())).append(" checks pass\">✓</td>");
                } else {
                    h.append("<td class=\"todo\">").append(count(r.failed())).append(" to fix</td>");
                }
            }
            h.append("<td class=\"num\">").append(done).append("</td></tr>\n");
        }
        h.append("</tbody><tfoot><tr><th>Done</th>");
        for (String c : chapters) h.append("<th>").append(doneBy.getOrDefault(c, 0)).append("/").append(learners.size()).append("</th>");
        h.append("<th></th></tr></tfoot></table>\n");

        h.append("<h2>Fastest servers</h2>\n<p>Each learner's best median requests/s for their own server, from their ")
                .append("<code>scripts/bench.sh NN</code> runs. Machines differ: compare each figure with that learner's reference ratio too.</p>\n");
        for (String workload : List.of("hello", "io-2000", "cpu")) {
            List<Map.Entry<String, Double>> ranked = new ArrayList<>();
            for (Learner l : learners.values()) {
                double rps = learnerRps(l, workload);
                if (!Double.isNaN(rps)) ranked.add(Map.entry(l.name(), rps));
            }
            if (ranked.isEmpty()) continue;
            ranked.sort((a, b) -> Double.compare(b.getValue(), a.getValue()));
            h.append("<h3>").append(esc(workload)).append("</h3>\n<table><thead><tr><th>#</th><th>Learner</th><th class=\"num\">req/s</th></tr></thead><tbody>\n");
            for (int i = 0; i < Math.min(10, ranked.size()); i++) {
                h.append("<tr><td>").append(i + 1).append("</td><td>").append(esc(ranked.get(i).getKey()))
                        .append("</td><td class=\"num\">").append(String.format(Locale.ROOT, "%,.0f", ranked.get(i).getValue())).append("</td></tr>\n");
            }
            h.append("</tbody></table>\n");
        }
        if (!skipped.isEmpty()) {
            h.append("<h2>Skipped files</h2>\n<ul>");
            skipped.forEach(s -> h.append("<li>").append(esc(s)).append("</li>"));
            h.append("</ul>\n");
        }
        return h.append("</body></html>\n").toString();
    }

    /** A count from a report, 0 when absent. */
    static long count(Long n) {
        return n == null ? 0 : n;
    }

    static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    static void fail(int code, String message) {
        System.err.println(who + ": " + message);
        System.exit(code);
    }
}
