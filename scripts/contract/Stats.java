package contract;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * The benchmark's arithmetic: medians and percentiles of repeated runs, ratios, the Little's-law
 * bound of a closed-loop load, and how figures are shown. Every method is pure, for unit tests.
 */
public final class Stats {
    private Stats() {}

    /** The median of the values (the mean of the middle two for an even count); NaN when empty. */
    public static double median(List<? extends Number> values) {
        return percentile(values, 50);
    }

    /**
     * The p-th percentile (0..100) of the values, interpolated linearly between the closest
     * ranks (the "R-7" definition spreadsheets use); NaN when there are no values.
     */
    public static double percentile(List<? extends Number> values, double p) {
        if (p < 0 || p > 100) throw new IllegalArgumentException("percentile must be from 0 to 100, not " + p);
        List<Double> sorted = new ArrayList<>();
        for (Number n : values) {
            if (n != null && !Double.isNaN(n.doubleValue())) sorted.add(n.doubleValue());
        }
        if (sorted.isEmpty()) return Double.NaN;
        Collections.sort(sorted);
        double rank = p / 100 * (sorted.size() - 1);
        int below = (int) Math.floor(rank);
        int above = (int) Math.ceil(rank);
        return sorted.get(below) + (rank - below) * (sorted.get(above) - sorted.get(below));
    }

    /** a / b, or NaN when either is unknown or b is zero (a ratio to nothing means nothing). */
    public static double ratio(double a, double b) {
        if (Double.isNaN(a) || Double.isNaN(b) || b == 0) return Double.NaN;
        return a / b;
    }

    /**
     * Little's law for a closed loop: {@code connections} clients that each wait for an answer
     * before asking again, and each answer takes at least {@code serviceSeconds}, can get at most
     * connections / serviceSeconds answers per second (2000 / 0.2 s = 10,000 req/s).
     */
    public static double littleBound(int connections, double serviceSeconds) {
        if (connections <= 0 || serviceSeconds <= 0) throw new IllegalArgumentException("connections and service time must be positive");
        return connections / serviceSeconds;
    }

    /** What percentage of the bound a throughput reached; NaN when either is unknown. */
    public static double percentOf(double value, double bound) {
        return ratio(value, bound) * 100;
    }

    /** {@code value} rounded to {@code digits} significant digits (12345.6 to 4 digits: 12350). */
    public static double significant(double value, int digits) {
        if (value == 0 || Double.isNaN(value) || Double.isInfinite(value)) return value;
        return new java.math.BigDecimal(value).round(new java.math.MathContext(digits)).doubleValue();
    }

    /** A figure for the JSON: null when unknown, else rounded to 4 significant digits (no more than the runs can tell). */
    public static Double figure(double d) {
        return Double.isNaN(d) || Double.isInfinite(d) ? null : significant(d, 4);
    }

    /** A figure from the JSON: NaN when unknown. */
    public static double known(Number n) {
        return n == null ? Double.NaN : n.doubleValue();
    }

    /** Requests per second, readable: 842, 12.3k, 1.25M. */
    public static String rate(double perSecond) {
        if (Double.isNaN(perSecond)) return "-";
        if (perSecond < 1_000) return String.format(Locale.ROOT, perSecond < 10 ? "%.1f" : "%.0f", perSecond);
        if (perSecond < 1_000_000) return String.format(Locale.ROOT, perSecond < 100_000 ? "%.1fk" : "%.0fk", perSecond / 1_000);
        return String.format(Locale.ROOT, "%.2fM", perSecond / 1_000_000);
    }

    /** Milliseconds, with precision where it matters: 0.12, 4.5, 203, 5012. */
    public static String millis(double ms) {
        if (Double.isNaN(ms)) return "-";
        if (ms < 1) return String.format(Locale.ROOT, "%.2f", ms);
        if (ms < 10) return String.format(Locale.ROOT, "%.1f", ms);
        return String.format(Locale.ROOT, "%.0f", ms);
    }

    /** Bytes in binary units: 512 B, 3.4 KiB, 120 MiB. */
    public static String bytes(double b) {
        if (Double.isNaN(b)) return "-";
        double abs = Math.abs(b);
        if (abs < 1024) return String.format(Locale.ROOT, "%.0f B", b);
        if (abs < 1024 * 1024) return String.format(Locale.ROOT, "%.1f KiB", b / 1024);
        if (abs < 1024.0 * 1024 * 1024) return String.format(Locale.ROOT, "%.0f MiB", b / 1024 / 1024);
        return String.format(Locale.ROOT, "%.1f GiB", b / 1024 / 1024 / 1024);
    }

    /** A ratio as "1.23x", or "-" when unknown. */
    public static String times(double ratio) {
        return Double.isNaN(ratio) ? "-" : String.format(Locale.ROOT, ratio < 10 ? "%.2fx" : "%.0fx", ratio);
    }

    /** A percentage as "87%", or "-" when unknown. */
    public static String percent(double percent) {
        return Double.isNaN(percent) ? "-" : String.format(Locale.ROOT, "%.0f%%", percent);
    }

    /** Seconds as "45 s" or "2m05s", for the time left. */
    public static String duration(double seconds) {
        long s = Math.max(0, Math.round(seconds));
        return s < 60 ? s + " s" : String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
    }

    /**
     * A line of block characters, one per value, from ▁ (0) to █ ({@code max}): a curve in one
     * line of a terminal. An unknown value is a space.
     */
    public static String sparkline(List<Double> values, double max) {
        return sparkline(values, 0, max);
    }

    /** The same from ▁ ({@code min}) to █ ({@code max}); all ▁ when they are equal (a flat line). */
    public static String sparkline(List<Double> values, double min, double max) {
        StringBuilder line = new StringBuilder();
        for (Double v : values) {
            if (v == null || Double.isNaN(v) || Double.isNaN(max) || max <= 0) {
                line.append(' ');
                continue;
            }
            double share = max > min ? (v - min) / (max - min) : 0;
            line.append("▁▂▃▄▅▆▇█".charAt((int) Math.round(Math.max(0, Math.min(1, share)) * 7)));
        }
        return line.toString();
    }

    /**
     * A horizontal bar {@code value / max} of {@code width} cells, in Unicode eighth blocks
     * (or '#' when {@code ascii}); at least a sliver for any value above zero.
     */
    public static String bar(double value, double max, int width, boolean ascii) {
        if (Double.isNaN(value) || value <= 0 || Double.isNaN(max) || max <= 0) return "";
        double cells = Math.min(1, value / max) * width;
        if (ascii) return "#".repeat(Math.max(1, (int) Math.round(cells)));
        int eighths = Math.max(1, (int) Math.round(cells * 8));
        String partial = eighths % 8 == 0 ? "" : String.valueOf("▏▎▍▌▋▊▉".charAt(eighths % 8 - 1));
        return "█".repeat(eighths / 8) + partial;
    }
}
