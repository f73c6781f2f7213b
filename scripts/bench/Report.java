import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Turns the runs into the reported figures (medians, totals, peaks, ratios, flags) and prints
 * them: a table per workload and a bar chart of requests per second.
 */
final class Report {
    private Report() {}

    /** At or above this share of its CPU, the load generator may be what limits the figures. */
    static final double SATURATED_LOAD_PERCENT = 90;

    /** What is worth knowing about a result without being a failure. */
    static List<String> notes(double loadCpuPercent) {
        List<String> notes = new ArrayList<>();
        if (loadCpuPercent >= SATURATED_LOAD_PERCENT) {
            notes.add(String.format(Locale.ROOT, "the load generator used %.0f%% of its CPU (median run): it may be the bottleneck, "
                    + "so these figures are a floor for the server, not its limit", loadCpuPercent));
        }
        return notes;
    }

    /** The summary of one server on one load workload, with its raw runs; see the schema in Bench.java. */
    static Map<String, Object> loadRow(Bench.Workload w, String server, double bound, String skipReason, List<Bench.Run> warmups,
                                       List<Bench.Run> runs, List<String> problems, String gone,
                                       List<String> stalls) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("server", server);
        List<String> flags = new ArrayList<>(problems);
        if (skipReason != null) {
            row.put("status", "skipped");
            row.put("skipReason", skipReason);
            row.put("flags", flags);
            return row;
        }
        row.put("status", runs.isEmpty() && !stalls.isEmpty() ? "stalled" : "measured");
        flags.addAll(stalls);
        List<Double> rps = new ArrayList<>(), p50 = new ArrayList<>(), p99 = new ArrayList<>(), cpu = new ArrayList<>(), loadCpu = new ArrayList<>();
        long ok = 0, non2xx = 0, errors = 0, timeouts = 0, peakRss = -1;
        int peakThreads = -1;
        double cpuTotal = 0;
        Map<String, Long> kinds = new LinkedHashMap<>();
        for (Bench.Run r : runs) {
            rps.add(r.load().rps());
            p50.add(r.load().p50Ms());
            p99.add(r.load().p99Ms());
            cpu.add(r.cpuSeconds());
            if (!Double.isNaN(r.loadCpuPercent())) loadCpu.add(r.loadCpuPercent());
            cpuTotal += r.cpuSeconds();
            ok += r.load().ok();
            non2xx += r.load().non2xx();
            errors += r.load().errors();
            timeouts += r.load().timeouts();
            r.load().errorKinds().forEach((k, v) -> kinds.merge(k, v, Long::sum));
            peakRss = Math.max(peakRss, r.peakRss());
            peakThreads = Math.max(peakThreads, r.peakThreads());
            if (r.percentOfBound() > 100) {
                flags.add(String.format(Locale.ROOT, "a run reached %.1f%% of the Little's-law bound: impossible for a %s ms wait, so the server does not wait as asked",
                        r.percentOfBound(), Stats.millis(w.serviceMillis())));
            }
        }
        double medianRps = Stats.median(rps);
        row.put("rps", Bench.nullIfNaN(medianRps));
        Map<String, Object> latency = new LinkedHashMap<>();
        latency.put("p50", Bench.nullIfNaN(Stats.median(p50)));
        latency.put("p99", Bench.nullIfNaN(Stats.median(p99)));
        row.put("latencyMs", latency);
        row.put("requests2xx", ok);
        row.put("non2xx", non2xx);
        row.put("errors", errors);
        row.put("timeouts", timeouts);
        row.put("errorKinds", kinds);
        row.put("cpuSeconds", Bench.nullIfNaN(Stats.median(cpu)));
        row.put("cpuMillisPerRequest", Bench.nullIfNaN(ok == 0 ? Double.NaN : cpuTotal * 1000 / ok));
        row.put("peakRssBytes", peakRss < 0 ? null : peakRss);
        row.put("peakThreads", peakThreads < 0 ? null : peakThreads);
        row.put("boundRps", Bench.nullIfNaN(bound));
        row.put("percentOfBound", Bench.nullIfNaN(Stats.percentOf(medianRps, bound)));
        double loadCpuPercent = loadCpu.isEmpty() ? Double.NaN : Stats.median(loadCpu);
        row.put("loadCpuPercent", Bench.nullIfNaN(loadCpuPercent));
        row.put("ratio", null);
        row.put("runs", runs.stream().map(Bench.Run::json).toList());
        row.put("warmups", warmups.stream().map(Bench.Run::json).toList());
        if (errors > 0 || non2xx > 0) {
            flags.add(String.format(Locale.ROOT, "%d errors (%d timeouts) and %d non-2xx answers in %d measured runs%s",
                    errors, timeouts, non2xx, runs.size(), kinds.isEmpty() ? "" : "; first error: " + kinds.keySet().iterator().next()));
        }
        if (runs.isEmpty() && stalls.isEmpty()) flags.add("no measured run finished");
        if (gone != null) flags.add(gone);
        row.put("flags", flags);
        row.put("notes", notes(loadCpuPercent));
        return row;
    }

    /** Puts each row's ratio to the row of server {@code compareTo} (learner / reference), when there is one. */
    static void ratios(Bench.Workload w, List<Map<String, Object>> rows, String compareTo) {
        Map<String, Object> base = rows.stream().filter(r -> r.get("server").equals(compareTo)).findFirst().orElse(null);
        for (Map<String, Object> row : rows) {
            if (base == null || !"measured".equals(row.get("status")) || !"measured".equals(base.get("status"))) {
                row.put("ratio", null);
                continue;
            }
            Map<String, Object> ratio = new LinkedHashMap<>();
            if (w.idle()) {
                ratio.put("heapPerConnection", Bench.nullIfNaN(Stats.ratio(num(row, "heapPerConnectionBytes"), num(base, "heapPerConnectionBytes"))));
                ratio.put("rssPerConnection", Bench.nullIfNaN(Stats.ratio(num(row, "rssPerConnectionBytes"), num(base, "rssPerConnectionBytes"))));
            } else {
                ratio.put("rps", Bench.nullIfNaN(Stats.ratio(num(row, "rps"), num(base, "rps"))));
                ratio.put("p50", Bench.nullIfNaN(Stats.ratio(num(latency(row), "p50"), num(latency(base), "p50"))));
                ratio.put("p99", Bench.nullIfNaN(Stats.ratio(num(latency(row), "p99"), num(latency(base), "p99"))));
            }
            row.put("ratio", ratio);
        }
    }

    /** The tables and the chart, from the report object (the same one written as JSON). */
    static void print(PrintStream out, Map<String, Object> report, boolean color) {
        Painter p = new Painter(color);
        List<Object> servers = Json.array(report.get("servers"));
        String compareTo = (String) report.get("compareTo");
        out.println();
        for (Object o : servers) {
            Map<String, Object> s = Json.object(o);
            out.printf("  %-10s %s%n", s.get("id"), p.dim(String.valueOf(s.get("label"))));
        }
        String vs = compareTo == null ? "" : "vs " + compareTo;
        for (Object o : Json.array(report.get("workloads"))) {
            Map<String, Object> w = Json.object(o);
            out.println();
            out.println(p.bold(String.valueOf(w.get("id"))) + "  " + w.get("description"));
            boolean idle = "idle".equals(w.get("group"));
            double bound = num(w, "boundRps");
            if (!Double.isNaN(bound)) {
                out.println(p.dim(String.format(Locale.ROOT, "  Little's-law bound: %s connections / %s s = %s req/s at most",
                        w.get("connections"), Stats.millis(num(w, "serviceMillis") / 1000), Stats.rate(bound))));
            }
            if (idle) {
                out.println(p.dim(String.format(Locale.ROOT, "  %-10s %11s %8s %10s %10s %10s %8s  %s", "server", "served", "refused",
                        "unanswered", "heap/conn", "RSS/conn", "threads", vs)));
            } else {
                out.println(p.dim(String.format(Locale.ROOT, "  %-10s %8s %8s %8s %8s %8s %8s %7s %9s %7s %6s  %s", "server", "req/s",
                        "p50 ms", "p99 ms", "errors", "timeouts", "non-2xx", "CPU s", "peak RSS", "threads",
                        Double.isNaN(bound) ? "" : "bound", vs)));
            }
            for (Object ro : Json.array(w.get("results"))) {
                Map<String, Object> r = Json.object(ro);
                boolean flagged = !Json.array(r.get("flags")).isEmpty();
                String name = String.format(Locale.ROOT, "%-10s", r.get("server"));
                String mark = flagged ? p.red("!") : " ";
                if ("skipped".equals(r.get("status"))) {
                    out.println(" " + mark + name + " " + p.dim("skipped: " + r.get("skipReason")));
                    continue;
                }
                if ("stalled".equals(r.get("status"))) {
                    out.println(" " + mark + name + " " + p.red("stalled") + p.dim(": connections got no answer within "
                            + w.get("timeoutSeconds") + " s; no run finished (see below)"));
                    continue;
                }
                Map<String, Object> ratio = r.get("ratio") == null ? Map.of() : Json.object(r.get("ratio"));
                if (idle) {
                    out.println(" " + mark + name + String.format(Locale.ROOT, " %11s %8s %10s %10s %10s %8s  %s",
                            r.get("served") + "/" + r.get("asked"), whole(r, "refused"), whole(r, "unanswered"),
                            Stats.bytes(num(r, "heapPerConnectionBytes")), Stats.bytes(num(r, "rssPerConnectionBytes")),
                            whole(r, "threadsWith"), Stats.times(num(ratio, "heapPerConnection"))));
                } else {
                    Map<String, Object> lat = latency(r);
                    out.println(" " + mark + name + String.format(Locale.ROOT, " %8s %8s %8s %8s %8s %8s %7s %9s %7s %6s  %s",
                            Stats.rate(num(r, "rps")), Stats.millis(num(lat, "p50")), Stats.millis(num(lat, "p99")),
                            whole(r, "errors"), whole(r, "timeouts"), whole(r, "non2xx"),
                            Double.isNaN(num(r, "cpuSeconds")) ? "-" : String.format(Locale.ROOT, "%.2f", num(r, "cpuSeconds")),
                            Stats.bytes(num(r, "peakRssBytes")), whole(r, "peakThreads"),
                            Double.isNaN(bound) ? "" : Stats.percent(num(r, "percentOfBound")), Stats.times(num(ratio, "rps"))));
                }
            }
            for (Object ro : Json.array(w.get("results"))) {
                Map<String, Object> r = Json.object(ro);
                for (Object note : Json.array(r.get("flags"))) out.println(p.dim("  " + r.get("server") + ": " + note));
                for (Object note : Json.array(r.get("notes"))) out.println(p.dim("  " + r.get("server") + " (note): " + note));
            }
        }
        chart(out, report, p);
    }

    /** Requests per second per workload as horizontal bars, each workload scaled to its fastest server. */
    static void chart(PrintStream out, Map<String, Object> report, Painter p) {
        out.println();
        out.println(p.bold("Requests per second, median") + p.dim("  (each workload scaled to its fastest; longer is better)"));
        for (Object o : Json.array(report.get("workloads"))) {
            Map<String, Object> w = Json.object(o);
            if ("idle".equals(w.get("group"))) continue;
            double max = 0;
            for (Object ro : Json.array(w.get("results"))) max = Math.max(max, nz(num(Json.object(ro), "rps")));
            boolean first = true;
            for (Object ro : Json.array(w.get("results"))) {
                Map<String, Object> r = Json.object(ro);
                String label = String.format(Locale.ROOT, "  %-8s %-10s ", first ? w.get("id") : "", r.get("server"));
                first = false;
                double rps = num(r, "rps");
                String bar = Stats.bar(rps, max, 40, false);
                String value = "measured".equals(r.get("status")) ? Stats.rate(rps) : String.valueOf(r.get("status"));
                out.println(label + p.bar(String.valueOf(r.get("server")), bar) + " " + value);
            }
        }
        boolean anyIdle = false;
        for (Object o : Json.array(report.get("workloads"))) {
            Map<String, Object> w = Json.object(o);
            if (!"idle".equals(w.get("group"))) continue;
            double max = 0;
            for (Object ro : Json.array(w.get("results"))) max = Math.max(max, nz(num(Json.object(ro), "heapPerConnectionBytes")));
            if (!anyIdle) {
                out.println();
                out.println(p.bold("Heap per idle connection, after GC") + p.dim("  (shorter is better)"));
                anyIdle = true;
            }
            for (Object ro : Json.array(w.get("results"))) {
                Map<String, Object> r = Json.object(ro);
                double b = num(r, "heapPerConnectionBytes");
                out.println(String.format(Locale.ROOT, "  %-10s ", r.get("server")) + p.bar(String.valueOf(r.get("server")), Stats.bar(b, max, 40, false))
                        + " " + Stats.bytes(b) + p.dim(r.get("served") == null ? "" : "  (" + r.get("served") + " served)"));
            }
        }
    }

    /** Colours, only when asked (a terminal, and no NO_COLOR). */
    record Painter(boolean on) {
        String paint(String code, String s) {
            return on ? "\u001b[" + code + "m" + s + "\u001b[0m" : s;
        }

        String bold(String s) { return paint("1", s); }
        String dim(String s) { return paint("2", s); }
        String red(String s) { return paint("31", s); }

        String bar(String server, String s) {
            return switch (server) {
                case "learner" -> paint("36", s);
                case "reference" -> paint("33", s);
                case "netty" -> paint("35", s);
                default -> paint("34", s);
            };
        }
    }

    static double num(Map<String, Object> m, String key) {
        Object v = m.get(key);
        return v instanceof Number n ? n.doubleValue() : Double.NaN;
    }

    static String whole(Map<String, Object> m, String key) {
        double v = num(m, key);
        return Double.isNaN(v) ? "-" : String.valueOf(Math.round(v));
    }

    private static double nz(double d) {
        return Double.isNaN(d) ? 0 : d;
    }

    private static Map<String, Object> latency(Map<String, Object> row) {
        Object l = row.get("latencyMs");
        return l == null ? Map.of() : Json.object(l);
    }
}
