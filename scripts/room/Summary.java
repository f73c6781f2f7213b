import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
 * The room summary: a folder of hand-ins (or of raw {@code check.sh --json} and {@code bench.sh}
 * files, each named after its learner) read into learners, and one self-contained page: per
 * chapter who is done and the check most of the room is stuck on; per learner the failing checks
 * (folded) and the age of the hand-in; and each learner's races as ratios to the reference on
 * their own machine, with the race's verdict.
 */
final class Summary {
    private Summary() {}

    /** What one learner handed in: the latest report per chapter, their races, and when each file was handed in. */
    record Learner(String name, Map<String, CheckReport> checks, List<BenchReport> bench, List<Instant> times) {
        Learner(String name) {
            this(name, new TreeMap<>(), new ArrayList<>(), new ArrayList<>());
        }

        /** The latest hand-in, or null when unknown. */
        Instant handedIn() {
            return times.stream().max(Instant::compareTo).orElse(null);
        }
    }

    /** The learners in a folder, by name, and the files that could not be read (with why). */
    record Handins(Map<String, Learner> learners, List<String> skipped) {}

    static Handins read(Path folder) throws IOException {
        Map<String, Learner> learners = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        List<String> skipped = new ArrayList<>();
        try (Stream<Path> files = Files.list(folder)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
                String stem = f.getFileName().toString().replaceFirst("\\.json$", "");
                try {
                    read(Jackson.tree(Files.readString(f)), stem, Files.getLastModifiedTime(f).toInstant(), learners);
                } catch (RuntimeException | IOException e) {
                    skipped.add(f.getFileName() + " (" + e.getMessage() + ")");
                }
            }
        }
        return new Handins(learners, skipped);
    }

    /** Reads a hand-in, a check report (one or a list), or a bench result, for learner {@code stem}. */
    static void read(JsonNode doc, String stem, Instant fileTime, Map<String, Learner> learners) {
        if (Room.SCHEMA.equals(doc.path("schema").asText())) {
            String name = doc.path("learner").asText();
            Instant time = instant(doc.path("time").asText(), fileTime);
            for (JsonNode c : doc.path("checks")) read(c, name, time, learners);
            for (JsonNode b : doc.path("bench")) read(b, name, time, learners);
            learners.computeIfAbsent(name, Learner::new).times().add(time);
            return;
        }
        if (doc.isArray()) {
            for (JsonNode o : doc) read(o, stem, fileTime, learners);
            return;
        }
        Learner l = learners.computeIfAbsent(stem, Learner::new);
        l.times().add(fileTime);
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

    private static Instant instant(String text, Instant otherwise) {
        try {
            return Instant.parse(text);
        } catch (RuntimeException e) {
            return otherwise;
        }
    }

    /**
     * The page: a column for every graded chapter of {@code registry}, then any other chapter a
     * hand-in holds. {@code refreshSeconds} above 0 makes the page reload itself (the live room).
     */
    static String html(Map<String, Chapters.Chapter> registry, Handins room, Instant now, int refreshSeconds) {
        Map<String, Learner> learners = room.learners();
        List<String> chapters = new ArrayList<>(registry.keySet());
        TreeSet<String> others = new TreeSet<>();
        learners.values().forEach(l -> others.addAll(l.checks().keySet()));
        others.removeAll(registry.keySet());
        chapters.addAll(others);

        StringBuilder h = new StringBuilder();
        h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
                .append("<link rel=\"icon\" href=\"data:,\">"); // self-contained: not even a favicon request
        if (refreshSeconds > 0) h.append("<meta http-equiv=\"refresh\" content=\"").append(refreshSeconds).append("\">");
        h.append("<title>Room summary</title><style>")
                .append("body{font-family:system-ui,sans-serif;margin:2rem;color:#1d2330}")
                .append("table{border-collapse:collapse;margin:1rem 0}th,td{border-bottom:1px solid #e3e6ec;padding:.3rem .7rem;text-align:left;vertical-align:top}")
                .append("td.done{color:#1a7f37;font-weight:600}td.todo{color:#b35900}td.none{color:#9aa3b2}")
                .append("details ul{margin:.3rem 0;padding-left:1.1rem;font-weight:400;color:#1d2330}.num{text-align:right;font-variant-numeric:tabular-nums}")
                .append("small{color:#5b6474}")
                .append("@media (prefers-color-scheme:dark){body{background:#12151b;color:#e4e7ec}th,td{border-color:#2a303b}details ul{color:#e4e7ec}small{color:#9aa3b2}}")
                .append("</style></head><body>\n");
        h.append("<h1>Room summary</h1>\n<p>").append(learners.size()).append(" learner(s), made ")
                .append(esc(now.toString().substring(0, 16).replace('T', ' '))).append(" UTC by scripts/room.sh")
                .append(refreshSeconds > 0 ? "; this page reloads every " + refreshSeconds + " s" : "").append(".</p>\n");

        h.append("<h2>Progress</h2>\n<table><thead><tr><th>Learner</th><th>Handed in</th>");
        for (String c : chapters) {
            Chapters.Chapter chapter = registry.get(c);
            h.append("<th").append(chapter == null ? ">" : " title=\"" + esc(chapter.model()) + "\">").append(esc(c))
                    .append(chapter == null ? "" : "<br><small>" + esc(chapter.title()) + "</small>").append("</th>");
        }
        h.append("<th class=\"num\">Chapters done</th></tr></thead><tbody>\n");
        Map<String, Integer> doneBy = new LinkedHashMap<>();
        Map<String, Map<String, Integer>> stuckOn = new LinkedHashMap<>(); // chapter -> check name -> learners failing it
        for (Learner l : learners.values()) {
            h.append("<tr><td>").append(esc(l.name())).append("</td><td>").append(age(l.handedIn(), now)).append("</td>");
            int done = 0;
            for (String c : chapters) {
                CheckReport r = l.checks().get(c);
                if (r == null) {
                    h.append("<td class=\"none\">–</td>");
                } else if (count(r.failed()) == 0 && count(r.passed()) > 0 && r.total() == null) { // a partial run (--only) is never "done"
                    done++;
                    doneBy.merge(c, 1, Integer::sum);
                    h.append("<td class=\"done\" title=\"").append(count(r.passed())).append(" checks pass\">✓</td>");
                } else {
                    List<String> failing = r.checks() == null ? List.of()
                            : r.checks().stream().filter(CheckReport.Check::failed).map(CheckReport.Check::name).toList();
                    failing.forEach(name -> stuckOn.computeIfAbsent(c, k -> new LinkedHashMap<>()).merge(name, 1, Integer::sum));
                    h.append("<td class=\"todo\"><details><summary>").append(count(r.failed())).append(" to fix</summary><ul>");
                    failing.forEach(name -> h.append("<li>").append(esc(name)).append("</li>"));
                    if (r.error() != null) h.append("<li>could not run: ").append(esc(r.error())).append("</li>");
                    else if (failing.isEmpty()) h.append("<li>the report names no checks</li>");
                    h.append("</ul></details></td>");
                }
            }
            h.append("<td class=\"num\">").append(done).append("</td></tr>\n");
        }
        h.append("</tbody><tfoot><tr><th>Done</th><th></th>");
        for (String c : chapters) h.append("<th>").append(doneBy.getOrDefault(c, 0)).append("/").append(learners.size()).append("</th>");
        h.append("<th></th></tr><tr><th>Stuck on</th><th></th>");
        for (String c : chapters) {
            var top = stuckOn.getOrDefault(c, Map.of()).entrySet().stream().max(Map.Entry.comparingByValue()).orElse(null);
            h.append("<td>").append(top == null ? "" : "<small>" + esc(top.getKey()) + " (" + top.getValue() + ")</small>").append("</td>");
        }
        h.append("<td></td></tr></tfoot></table>\n");
        races(h, learners);
        if (!room.skipped().isEmpty()) {
            h.append("<h2>Skipped files</h2>\n<ul>");
            room.skipped().forEach(s -> h.append("<li>").append(esc(s)).append("</li>"));
            h.append("</ul>\n");
        }
        return h.append("</body></html>\n").toString();
    }

    /**
     * Each learner's latest race per chapter, as their server's ratio to the reference on each
     * workload, measured on their own machine (so machines can be compared), with the verdict.
     */
    private static void races(StringBuilder h, Map<String, Learner> learners) {
        Map<String, Map<String, BenchReport>> byChapter = new TreeMap<>(); // chapter -> learner -> latest race
        for (Learner l : learners.values()) {
            for (BenchReport b : l.bench()) {
                if (!"chapter".equals(b.kind()) || b.chapter() == null || b.workloads() == null) continue;
                byChapter.computeIfAbsent(b.chapter(), k -> new TreeMap<>(String.CASE_INSENSITIVE_ORDER))
                        .merge(l.name(), b, (x, y) -> String.valueOf(x.date()).compareTo(String.valueOf(y.date())) >= 0 ? x : y);
            }
        }
        if (byChapter.isEmpty()) return;
        h.append("<h2>Races against the reference</h2>\n<p>Each learner's server against the reference solution on the same ")
                .append("machine (<code>scripts/bench.sh NN</code>): its median requests/s divided by the reference's, and the ")
                .append("race's verdict. Ratios compare across laptops; raw requests/s do not.</p>\n");
        for (var chapter : byChapter.entrySet()) {
            TreeSet<String> workloads = new TreeSet<>();
            chapter.getValue().values().forEach(b -> b.workloads().forEach(w -> workloads.add(w.id())));
            h.append("<h3>Chapter ").append(esc(chapter.getKey())).append("</h3>\n<table><thead><tr><th>Learner</th>");
            workloads.forEach(w -> h.append("<th class=\"num\">").append(esc(w)).append("</th>"));
            h.append("</tr></thead><tbody>\n");
            for (var race : chapter.getValue().entrySet()) {
                h.append("<tr><td>").append(esc(race.getKey())).append("</td>");
                for (String w : workloads) h.append("<td class=\"num\">").append(ratio(race.getValue(), w)).append("</td>");
                h.append("</tr>\n");
            }
            h.append("</tbody></table>\n");
        }
    }

    /** "0.95× (same)" for the learner's result on workload {@code w} of a race, or "–". */
    private static String ratio(BenchReport race, String w) {
        for (BenchReport.WorkloadEntry entry : race.workloads()) {
            if (!entry.id().equals(w) || entry.results() == null) continue;
            for (BenchReport.Result r : entry.results()) {
                if (!"learner".equals(r.server())) continue;
                if (!r.measured()) return esc(r.status());
                if (r instanceof BenchReport.LoadResult l && l.ratio() != null && l.ratio().rps() != null) {
                    // The ratio of the figure the verdict was decided on (CPU per request on hello), so the two agree.
                    BenchReport.Interval i = l.ratio().decided();
                    boolean cpu = i != null && "cpuPerRequest".equals(i.figure()) && i.ratio() != null;
                    return String.format(Locale.ROOT, "%.2f×", cpu ? i.ratio() : l.ratio().rps()) + (cpu ? " µs/req" : "")
                            + (i == null ? "" : " <small>" + esc(i.verdict()) + "</small>");
                }
                if (r instanceof BenchReport.IdleResult i && i.ratio() != null && i.ratio().heapPerConnection() != null) {
                    return String.format(Locale.ROOT, "%.2f× heap", i.ratio().heapPerConnection());
                }
            }
        }
        return "–";
    }

    /** "4 min ago", "just now", or "–". */
    static String age(Instant then, Instant now) {
        if (then == null) return "–";
        long s = Math.max(0, Duration.between(then, now).toSeconds());
        if (s < 60) return "just now";
        if (s < 3600) return s / 60 + " min ago";
        if (s < 86_400) return s / 3600 + " h ago";
        return s / 86_400 + " d ago";
    }

    /** A count from a report, 0 when absent. */
    static long count(Long n) {
        return n == null ? 0 : n;
    }

    static String esc(String s) {
        return s == null ? "" : s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
