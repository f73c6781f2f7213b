///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
//DEPS com.fasterxml.jackson.core:jackson-databind:2.22.4
//SOURCES Literals.java

package site;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Gives the pages their measured figures the way they get code: by reference, from committed
 * runs. scripts/site.sh runs it before Hugo; it writes site/generated/figures.adoc (git-ignored),
 * which a page that quotes figures includes ({@code include::{reporoot}/site/generated/figures.adoc[]}),
 * and it fails when a page quotes, as a literal, a figure that a committed run holds.
 *
 * <p>Where figures come from: every {@code site/static/bench/*.json} (a run of scripts/bench.sh,
 * committed) and every {@code site/measured/*.json} (figures measured once by hand for a page, a
 * demo's output say, with the {@code command} and {@code machine} that made them).
 *
 * <p>Names. Every number, string and boolean of such a file is an attribute named by its path:
 * <ul>
 * <li>the file's name without {@code .json} first ({@code reference}, {@code open-loop});
 * <li>then each key, camelCase to kebab-case ({@code percentOfBound} is {@code percent-of-bound},
 *     {@code latencyMs.p99} is {@code latency-ms-p99});
 * <li>a list whose elements all have an {@code id} (or else all a {@code server}) names each
 *     element by that value and leaves out its own name: {@code workloads[id=io-2000].results[server=03]}
 *     is {@code io-2000-03}; any other list names an element by its index ({@code runs-0});
 * <li>values: whole numbers with thousands separators (4,691), others to 3 significant digits
 *     (93.8, 0.0317), 1,000 and over to the unit (2,150); null is no attribute at all.
 * </ul>
 * So {@code {reference-io-2000-03-percent-of-bound}} is chapter 03's share of the bound on
 * {@code io-2000} in reference.json, {@code {ramp-ramp-05-held}} the connections 05 held in the ramp,
 * {@code {reference-machine-cores}} the cores of the machine. Two paths that make one name fail.
 *
 * <p>Derived figures: a page may ask for a figure computed from others by joining words with
 * {@code --}; this writes each one a page refers to:
 * <ul>
 * <li>{@code A--over--B} (A / B; also {@code minus}, {@code plus}, {@code times}):
 *     {@code {reference-cpu-06-rps--over--reference-cpu-03-rps}} is how many times 03's rate 06 made;
 * <li>{@code min--PATTERN--ID--ID...} and {@code max--...}: the least or greatest of PATTERN with
 *     the word {@code each} replaced by each ID: {@code {min--reference-io-2000-each-percent-of-bound--03--04--05}}
 *     (not {@code _}: AsciiDoc reads {@code _..._} as emphasis before it replaces attributes);
 * <li>a unit last: {@code us} and {@code ms} (times 1000), {@code s} (over 1000), {@code kib},
 *     {@code mib}, {@code gib} (bytes), {@code pct} (times 100);
 * <li>a precision last: {@code int}, {@code d0} to {@code d3} (decimals), {@code sig2}, {@code sig3},
 *     or {@code raw} (the number as stored, no separators: for {@code ifeval::[{x--raw} > 1000]}).
 * </ul>
 * Usage: Figures ROOT (exit 1, after writing, when a derived figure cannot be made or a page quotes a literal)
 */
class Figures {
    static final Path OUT = Path.of("site/generated/figures.adoc");
    static final List<String> SOURCES = List.of("site/static/bench", "site/measured");
    /** Keys whose numbers describe the set-up, not a measurement: a page may say them as literals. */
    static final Set<String> SETUP = Set.of("connections", "serviceMillis", "timeoutSeconds", "boundRps", "cores",
            "memoryBytes", "maxOpenFiles", "serverMaxOpenFiles", "warmups", "maxWarmups", "warmupSeconds", "runs", "runSeconds",
            "ioRunSeconds", "sampleMillis", "pid", "steps", "base", "peak", "cycles", "cycle", "windowSeconds",
            "peakSeconds", "recoveredWithinPercent", "minutes", "growthPercent", "rate", "maxErrorPercent", "maxP99Ms",
            "confidence", "turns", "exit", "asked", "seconds", "atSeconds", "legs", "legMillis", "pool", "waitMillis");
    static final Set<String> UNITS = Set.of("us", "ms", "s", "kib", "mib", "gib", "pct");
    static final Set<String> OPS = Set.of("over", "minus", "plus", "times");
    static final String PRECISION = "int|d[0-3]|sig[23]|raw";
    static final Pattern REF = Pattern.compile("\\{([a-z0-9]+(?:-+[a-z0-9]+)*)}");

    /** One value of a committed file: its attribute name, its JSON key, and whether it sits in a list without ids (a run, a window). */
    record Figure(String name, JsonNode value, String key, boolean listed, String source) {}

    public static void main(String[] args) throws IOException {
        Path root = Path.of(args[0]);
        Map<String, Figure> figures = new TreeMap<>();
        List<String> problems = new ArrayList<>();
        for (String dir : SOURCES) {
            if (!Files.isDirectory(root.resolve(dir))) continue;
            try (Stream<Path> files = Files.list(root.resolve(dir))) {
                for (Path file : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
                    String prefix = kebab(file.getFileName().toString().replaceAll("\\.json$", ""));
                    JsonNode tree = new ObjectMapper().readTree(file.toFile());
                    flatten(prefix, tree, null, false, root.relativize(file).toString(), figures, problems);
                }
            }
        }
        Map<String, String> derived = new TreeMap<>();
        List<Path> pages;
        try (Stream<Path> walk = Files.walk(root.resolve("site/content"))) {
            pages = walk.filter(p -> p.toString().endsWith(".adoc")).sorted().toList();
        }
        for (Path page : pages) {
            String where = root.relativize(page).toString();
            List<String> lines = Files.readAllLines(page);
            for (int i = 0; i < lines.size(); i++) {
                Matcher m = REF.matcher(lines.get(i));
                while (m.find()) {
                    if (!m.group(1).contains("--") || derived.containsKey(m.group(1))) continue;
                    try {
                        derived.put(m.group(1), derive(m.group(1), figures));
                    } catch (IllegalArgumentException e) {
                        problems.add(where + ":" + (i + 1) + ": {" + m.group(1) + "}: " + e.getMessage());
                    }
                }
            }
            problems.addAll(Literals.find(where, lines, figures));
        }
        StringBuilder out = new StringBuilder("""
                // Written by scripts/site/Figures.java from the committed runs (site/static/bench/*.json)
                // and the figures measured by hand (site/measured/*.json): do not edit. Names: see Figures.java.
                """);
        figures.values().forEach(f -> out.append(':').append(f.name()).append(": ").append(text(f.value())).append('\n'));
        out.append("// Derived: the figures the pages compute from the ones above.\n");
        derived.forEach((k, v) -> out.append(':').append(k).append(": ").append(v).append('\n'));
        Files.createDirectories(root.resolve(OUT).getParent());
        Files.writeString(root.resolve(OUT), out);
        System.out.println("figures: " + figures.size() + " figures and " + derived.size() + " derived, into " + OUT);
        problems.forEach(p -> System.err.println("figures: " + p));
        if (!problems.isEmpty()) System.exit(1);
    }

    // ---- Names ------------------------------------------------------------------------------

    static void flatten(String name, JsonNode node, String key, boolean listed, String source,
                        Map<String, Figure> figures, List<String> problems) {
        if (node.isObject()) {
            for (var e : node.properties()) {
                JsonNode child = e.getValue();
                String by = child.isArray() ? keyedBy(child) : null;
                if (by != null) {
                    for (JsonNode element : child) {
                        flatten(name + "-" + kebab(element.get(by).asText()), element, e.getKey(), listed, source, figures, problems);
                    }
                } else {
                    flatten(name + "-" + kebab(e.getKey()), child, e.getKey(), listed, source, figures, problems);
                }
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) flatten(name + "-" + i, node.get(i), key, true, source, figures, problems);
        } else if (!node.isNull()) {
            Figure before = figures.putIfAbsent(name, new Figure(name, node, key, listed, source));
            if (before != null) problems.add(source + ": two values make the name " + name + " (see Figures.java's naming rules)");
        }
    }

    /** The field that names each element of a list of objects ("id", else "server"), or null. */
    static String keyedBy(JsonNode list) {
        for (String by : List.of("id", "server")) {
            boolean all = !list.isEmpty();
            for (JsonNode e : list) all &= e.isObject() && e.path(by).isTextual();
            if (all) return by;
        }
        return null;
    }

    /** percentOfBound -> percent-of-bound; requests2xx -> requests2xx; "io-2000" stays; "spring_vt" -> spring-vt. */
    static String kebab(String s) {
        return s.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-")
                .replaceAll("^-|-$", "");
    }

    // ---- Values -----------------------------------------------------------------------------

    static String text(JsonNode v) {
        if (v.isNumber()) return format(v.doubleValue(), "default");
        return v.asText().replace("{", "&#123;").replace("\n", " ");
    }

    /** A number as a page prints it: see the class comment for the default. */
    static String format(double v, String precision) {
        BigDecimal d = BigDecimal.valueOf(v);
        if (precision.equals("raw")) return d.stripTrailingZeros().toPlainString();
        BigDecimal r = switch (precision) {
            case "int", "d0" -> d.setScale(0, RoundingMode.HALF_UP);
            case "d1", "d2", "d3" -> d.setScale(precision.charAt(1) - '0', RoundingMode.HALF_UP);
            case "sig2", "sig3" -> sig(d, precision.charAt(3) - '0');
            default -> Math.abs(v) >= 1000 || v == Math.rint(v) ? d.setScale(0, RoundingMode.HALF_UP) : sig(d, 3);
        };
        if (precision.equals("default") || precision.startsWith("sig")) r = r.scale() > 0 ? r.stripTrailingZeros() : r;
        if (r.scale() < 0) r = r.setScale(0);
        String plain = r.toPlainString();
        String sign = plain.startsWith("-") ? "-" : "";
        String digits = sign.isEmpty() ? plain : plain.substring(1);
        int dot = digits.indexOf('.');
        String whole = dot < 0 ? digits : digits.substring(0, dot);
        String grouped = whole.length() > 3 ? whole.replaceAll("\\B(?=(\\d{3})+$)", ",") : whole;
        return sign + grouped + (dot < 0 ? "" : digits.substring(dot));
    }

    static BigDecimal sig(BigDecimal d, int digits) {
        if (d.signum() == 0) return d;
        return d.round(new java.math.MathContext(digits, RoundingMode.HALF_UP));
    }

    // ---- Derived figures --------------------------------------------------------------------

    static String derive(String name, Map<String, Figure> figures) {
        String[] t = name.split("--");
        int[] at = {0};
        double v = term(t, at, figures);
        String precision = "default";
        while (at[0] < t.length) {
            String w = t[at[0]++];
            if (OPS.contains(w)) {
                if (at[0] >= t.length) throw new IllegalArgumentException("'" + w + "' needs a figure after it");
                double o = term(t, at, figures);
                v = switch (w) { case "over" -> v / o; case "minus" -> v - o; case "plus" -> v + o; default -> v * o; };
            } else if (UNITS.contains(w)) {
                v = switch (w) {
                    case "us", "ms" -> v * 1000;
                    case "s" -> v / 1000;
                    case "kib" -> v / 1024;
                    case "mib" -> v / (1024 * 1024);
                    case "gib" -> v / (1024 * 1024 * 1024);
                    default -> v * 100;
                };
            } else if (w.matches(PRECISION)) {
                precision = w;
            } else {
                throw new IllegalArgumentException("'" + w + "' is no operation, unit or precision (Figures.java lists them)");
            }
        }
        if (Double.isNaN(v) || Double.isInfinite(v)) throw new IllegalArgumentException("is not a number");
        return format(v, precision);
    }

    static double term(String[] t, int[] at, Map<String, Figure> figures) {
        String w = t[at[0]++];
        if (w.equals("min") || w.equals("max")) {
            if (at[0] >= t.length || !("-" + t[at[0]] + "-").contains("-each-")) throw new IllegalArgumentException(w + " needs a pattern with 'each' in it");
            String pattern = "-" + t[at[0]++] + "-";
            List<Double> all = new ArrayList<>();
            while (at[0] < t.length && !OPS.contains(t[at[0]]) && !UNITS.contains(t[at[0]]) && !t[at[0]].matches(PRECISION)) {
                String name = pattern.replace("-each-", "-" + t[at[0]++] + "-");
                all.add(number(name.substring(1, name.length() - 1), figures));
            }
            if (all.isEmpty()) throw new IllegalArgumentException(w + " needs at least one id after its pattern");
            return w.equals("min") ? all.stream().mapToDouble(d -> d).min().orElseThrow() : all.stream().mapToDouble(d -> d).max().orElseThrow();
        }
        return number(w, figures);
    }

    static double number(String name, Map<String, Figure> figures) {
        Figure f = figures.get(name);
        if (f == null) throw new IllegalArgumentException("no figure named " + name);
        if (!f.value().isNumber()) throw new IllegalArgumentException(name + " is not a number");
        return f.value().doubleValue();
    }
}
