package site;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the figures of committed runs that a page quotes as literals instead of by reference.
 * A number in a page's prose or tables counts when it has a unit (ms, s, µs, KiB, MiB, GiB, %,
 * ×, req/s, "a second") or, without one, when it has three significant digits or a decimal
 * point, and when some measured figure of site/static/bench/*.json or site/measured/*.json,
 * rounded as the literal is written, gives it (in ms or s for a time, in KiB, MiB or GiB for
 * bytes). Numbers with one significant digit (200 ms, 2000, 5%) are left alone: they are
 * almost always set-up, and so are the keys Figures.SETUP names, HTTP status codes, the
 * figures of each run, window or sample (pages quote medians), and the bench's ratios (a race
 * has hundreds near 1.0, so 1.02× on a page would match one by chance). A number with two significant
 * digits counts only in ms, µs, KiB or % (78 ms from a p50 in ms, 1.1 KiB from bytes): 1.5 s or
 * 64 MiB would match some figure of a large run by chance. Code blocks, inline code,
 * links, comments, attribute references and numbers that name something (JEP 491, Java 25, port
 * 1313) are skipped. A page that must say such a number for
 * another reason lists it on a comment line: {@code // not-measured: 16 KiB, 4.3}.
 */
class Literals {
    static final Pattern NUMBER = Pattern.compile(
            "(?<![\\w.,/+-])(\\d{1,3}(?:,\\d{3})+|\\d+)(\\.\\d+)?(?![\\w]|[.,]\\d)(\\s?(?:req/s|ms\\b|µs|us\\b|KiB|MiB|GiB|%|×| s\\b|(?: times)? a second))?");
    /** HTTP status codes, which pages name bare and runs count (503s): never a figure on their own. */
    static final Set<String> STATUS = Set.of("200", "400", "404", "405", "408", "413", "431", "500", "501", "502", "503", "504", "505");

    /** What a figure measures, from its key: a time in ms or s, bytes, a percentage, or anything else (rates, counts, ratios). */
    static String family(String key) {
        String k = key.toLowerCase(java.util.Locale.ROOT);
        if (k.endsWith("bytes")) return "bytes";
        if (k.contains("percent")) return "%";
        if (k.endsWith("seconds")) return "s";
        if (k.endsWith("ms") || k.contains("millis") || k.matches("p\\d+|max|min|mean")) return "ms";
        return "";
    }

    /** A literal's unit, and the families (with the factor from the figure to the literal) it can come from. */
    static Map<String, Object[]> reads(String unit) {
        return switch (unit) {
            case "ms" -> Map.of("ms", new Object[] {1.0}, "s", new Object[] {1000.0});
            case "s" -> Map.of("s", new Object[] {1.0}, "ms", new Object[] {0.001});
            case "µs", "us" -> Map.of("ms", new Object[] {1000.0});
            case "KiB" -> Map.of("bytes", new Object[] {1.0 / 1024});
            case "MiB" -> Map.of("bytes", new Object[] {1.0 / (1024 * 1024)});
            case "GiB" -> Map.of("bytes", new Object[] {1.0 / (1024 * 1024 * 1024)});
            case "%" -> Map.of("%", new Object[] {1.0});
            default -> Map.of("", new Object[] {1.0});
        };
    }

    static final List<String> UNITS = List.of("ms", "s", "µs", "KiB", "MiB", "GiB", "%", "");

    /**
     * Every measured figure, as a literal in each unit it can be read in would say it: "ms|1|201.7".
     * Figures inside lists without ids (each run, window or sample), and ratios, are left out:
     * there are too many of those to tell a copy from a coincidence.
     */
    static Map<String, String> forms(Map<String, Figures.Figure> figures) {
        Map<String, String> forms = new HashMap<>();
        for (Figures.Figure f : figures.values()) {
            if (!f.value().isNumber() || f.key() == null || Figures.SETUP.contains(f.key()) || f.listed()
                    || f.name().contains("-ratio-")) continue;
            double v = f.value().doubleValue();
            String family = family(f.key());
            for (String unit : UNITS) {
                Object[] factor = reads(unit).get(family);
                if (factor == null) continue;
                // A two-digit literal (1.5 s, 64 MiB) is too coarse to tell a copy from a coincidence
                // unless it is in the figure's own unit: those forms are marked "direct".
                boolean direct = ((double) factor[0] == 1.0 && !unit.equals("s")) || unit.equals("µs") || unit.equals("KiB");
                // A count (1 connection served) is no figure for a literal with decimals (1.00×).
                for (int d = 0; d <= (v == Math.rint(v) ? 0 : 3); d++) {
                    String form = unit + "|" + d + "|" + BigDecimal.valueOf(v * (double) factor[0]).setScale(d, RoundingMode.HALF_UP).toPlainString();
                    forms.putIfAbsent(form, f.name());
                    if (direct) forms.putIfAbsent("direct|" + form, f.name());
                }
            }
        }
        return forms;
    }

    static Map<Map<String, Figures.Figure>, Map<String, String>> cache = new HashMap<>();

    static List<String> find(String page, List<String> lines, Map<String, Figures.Figure> figures) {
        Map<String, String> forms = cache.computeIfAbsent(figures, Literals::forms);
        List<String> found = new ArrayList<>();
        Set<String> allowed = new HashSet<>();
        for (String line : lines) {
            if (line.startsWith("// not-measured:")) {
                for (String a : line.substring(16).split(",")) allowed.add(a.replaceAll("\\s", ""));
            }
        }
        String block = null;
        boolean front = !lines.isEmpty() && lines.get(0).equals("---");
        for (int i = front ? 1 : 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (front) {
                front = !line.equals("---");
                continue;
            }
            if (block != null) {
                if (line.equals(block)) block = null;
                continue;
            }
            if (line.matches("(----|\\.\\.\\.\\.|\\+\\+\\+\\+|////)")) {
                block = line;
                continue;
            }
            if (line.startsWith("//") || line.startsWith(":") || line.startsWith("include::")) continue;
            String prose = line.replaceAll("`[^`]*`", " ").replaceAll("\\{[^}]*}", " ").replaceAll("(https?|link):[^\\[\\s]*", " ")
                    .replaceAll("<<[^>]*>>", " ")
                    .replaceAll("\\b(JEPs?|JDK|Java|ports?)\\s+\\d+(\\s+and\\s+\\d+)?", " "); // names: JEP 491, port 1313, ports 8080 and 1313
            Matcher m = NUMBER.matcher(prose);
            while (m.find()) {
                String whole = m.group(1).replace(",", "");
                String decimals = m.group(2) == null ? "" : m.group(2);
                String unit = m.group(3) == null ? "" : m.group(3).strip();
                String literal = m.group(1) + decimals + (unit.isEmpty() ? "" : " " + unit);
                if (allowed.contains(literal.replaceAll("\\s", "")) || allowed.contains(m.group(1) + decimals)) continue;
                String digits = (whole + decimals.replace(".", "")).replaceAll("^0+", "");
                int significant = decimals.isEmpty() ? digits.replaceAll("0+$", "").length() : digits.length();
                boolean counts = unit.isEmpty() ? significant >= 3 && !STATUS.contains(m.group(1) + decimals) : significant >= 2;
                if (!counts) continue;
                String family = switch (unit) {
                    case "ms", "s", "µs", "KiB", "MiB", "GiB", "%" -> unit;
                    case "us" -> "µs";
                    default -> "";
                };
                int d = decimals.isEmpty() ? 0 : decimals.length() - 1;
                if (d > 3) continue;
                String form = family + "|" + d + "|" + whole + decimals;
                String figure = forms.get(significant >= 3 ? form : "direct|" + form);
                if (figure != null) {
                    found.add(page + ":" + (i + 1) + ": '" + literal + "' is a figure of a committed run (" + figure + ", and maybe others):"
                            + " refer to it ({name}, see scripts/site/Figures.java), or list it on a line '// not-measured: " + literal + "'");
                }
            }
        }
        return found;
    }
}
