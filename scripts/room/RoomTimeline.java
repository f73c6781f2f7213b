package room;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import lib.ThreadStates;
import lib.Timeline;

/**
 * A learner's latest timeline of one chapter ({@code check.sh NN --timeline}, {@link Timeline})
 * as the room keeps and draws it: the check it was recorded during, each lane's name, role, CPU
 * digits and wait codes, and the virtual threads alive and pinned per slice. Nothing else of the
 * file goes to the room: no path, no notes, no event's words.
 *
 * <p>The hand-in carries, per chapter, the newest timeline of the learner's own exercise
 * ({@link RoomLink#timeline}). The room keeps it only when every part is what the grader writes
 * ({@link #checked}): a check the course knows, at most {@link Timeline#MAX_SLICES} slices and
 * {@link Timeline#MAX_LANES} lanes, strings exactly {@code slices} long holding digits or the
 * known wait codes, a known role, counts that are counts. Anything else drops the timeline and
 * keeps the rest of the hand-in. {@link #drawing} draws it for the room's page, with no script, in at most {@link #MAX_DRAWN} bytes.
 *
 * @param check    the course's id of the check it was recorded during
 * @param recorded the recording's own time, only to tell one timeline from the next (the learner's clock)
 * @param received when the room first had this timeline (the room's clock)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RoomTimeline(String check, String recorded, String received, int sliceMs, int slices, List<Lane> lanes,
                    List<Integer> alive, List<Double> pinned) {

    /** One thread, or the JVM's own folded: {@code cpu} a digit a slice (tenths of a core), {@code state} a wait code a slice. */
    public record Lane(String name, String role, String cpu, String state) {}

    /** The most of a lane's name the room keeps. */
    static final int MAX_NAME = 40;
    /** The wait codes a lane's state may hold: those {@link ThreadStates#WORDS} says, in a fixed order for the key. */
    static final String CODES = ThreadStates.WORDS.keySet().stream().sorted().map(String::valueOf).collect(java.util.stream.Collectors.joining());

    /**
     * The timeline a hand-in's entry holds, as the room keeps it for {@code chapter}; null when
     * any part of it is not what the grader writes. {@code received} is the room's clock.
     */
    static RoomTimeline of(Known known, String chapter, JsonNode t, String received) {
        if (t == null || !t.isObject()) return null;
        List<Lane> lanes = new ArrayList<>();
        for (JsonNode l : t.path("lanes")) {
            if (!l.isObject()) return null;
            lanes.add(new Lane(text(l, "name"), text(l, "role"), text(l, "cpu"), text(l, "state")));
        }
        List<Integer> alive = new ArrayList<>();
        for (JsonNode a : t.path("alive")) alive.add(a.isInt() ? a.intValue() : -1);
        List<Double> pinned = new ArrayList<>();
        for (JsonNode p : t.path("pinned")) pinned.add(p.isNumber() ? p.doubleValue() : Double.NaN);
        RoomTimeline read = new RoomTimeline(text(t, "check"), text(t, "recorded"), received,
                t.path("sliceMs").isInt() ? t.path("sliceMs").intValue() : 0, t.path("slices").isInt() ? t.path("slices").intValue() : 0,
                lanes, alive, pinned);
        return read.checked(known, chapter);
    }

    private static String text(JsonNode node, String field) {
        JsonNode v = node.path(field);
        return v.isTextual() ? v.textValue() : null;
    }

    /** This timeline when every part of it is what the grader writes for a check of {@code chapter}; null otherwise. */
    RoomTimeline checked(Known known, String chapter) {
        if (check == null || known.title(chapter, check) == null) return null;
        if (slices < 1 || slices > Timeline.MAX_SLICES || sliceMs < 10 || sliceMs > 1000) return null;
        if (lanes == null || lanes.isEmpty() || lanes.size() > Timeline.MAX_LANES) return null;
        List<Lane> kept = new ArrayList<>();
        for (Lane l : lanes) {
            if (l == null || l.name() == null || l.name().isBlank() || !ThreadStates.ROLES.contains(l.role())) return null;
            if (!exactly(l.cpu(), "0123456789") || !exactly(l.state(), CODES)) return null;
            String name = PlainText.of(l.name(), false);
            if (name.isBlank()) return null;
            kept.add(new Lane(name.length() > MAX_NAME ? name.substring(0, MAX_NAME) + "…" : name, l.role(), l.cpu(), l.state()));
        }
        if (alive == null || alive.size() != slices || alive.stream().anyMatch(a -> a == null || a < 0 || a > 10_000_000)) return null;
        if (pinned == null || pinned.size() != slices
                || pinned.stream().anyMatch(p -> p == null || !Double.isFinite(p) || p < 0 || p > Timeline.MAX_LANES)) return null;
        return new RoomTimeline(check, Seat.time(recorded), Seat.time(received), sliceMs, slices, List.copyOf(kept), List.copyOf(alive),
                List.copyOf(pinned));
    }

    /** Whether {@code s} is {@code slices} characters long, each one of {@code allowed}. */
    private boolean exactly(String s, String allowed) {
        if (s == null || s.length() != slices) return false;
        for (int i = 0; i < s.length(); i++) if (allowed.indexOf(s.charAt(i)) < 0) return false;
        return true;
    }

    // ---- Drawing ----

    private static final int LABEL = 150, PLOT = 480, LANE = 12, GAP = 3;
    /** The most of a name drawn beside its row, so that it ends before the row begins. */
    private static final int LABEL_CHARS = 26;

    /** The most bytes one drawing takes on the room's page: a longer one is drawn with wider slices ({@link #drawing}). */
    public static final int MAX_DRAWN = 24 * 1024;

    /** A drawing for the page, and the width of its slices: the timeline's own, or a multiple of it. */
    record Drawing(String svg, int sliceMs) {}

    /**
     * The timeline drawn in at most {@link #MAX_DRAWN} bytes: at its own slices when that fits, else
     * with 2, 4, 8... slices drawn as one (a real grading's fits; one with every slice of every lane
     * different needs wider ones).
     */
    Drawing drawing() {
        for (int per = 1; ; per *= 2) {
            String svg = svg(per);
            if (svg.getBytes(java.nio.charset.StandardCharsets.UTF_8).length <= MAX_DRAWN || per >= slices) return new Drawing(svg, per * sliceMs);
        }
    }

    /**
     * A small picture of the timeline, self-contained SVG, {@code per} slices drawn as one (their
     * share of a core the mean, their wait the most common one, the counts the most): a row per
     * lane, its background the wait code of each slice and its dark bar the share of a core it
     * used; then the virtual threads alive and the carriers pinned, when there were any. Its
     * {@code <title>} says each lane's busiest use of a core in words, for a reader that does not see the picture.
     */
    String svg(int per) {
        boolean virtual = alive.stream().anyMatch(a -> a > 0), pins = pinned.stream().anyMatch(p -> p > 0);
        int rows = lanes.size() + (virtual ? 1 : 0) + (pins ? 1 : 0);
        int height = rows * (LANE + GAP) + 14;
        double dx = (double) PLOT / slices;
        int groups = (slices + per - 1) / per;
        StringBuilder s = new StringBuilder();
        s.append("<svg class=\"tl\" viewBox=\"0 0 ").append(LABEL + PLOT).append(' ').append(height)
                .append("\" width=\"").append(LABEL + PLOT).append("\" role=\"img\"><title>")
                .append(Summary.esc(words())).append("</title>");
        int y = 0;
        for (Lane l : lanes) {
            String label = l.name().length() > LABEL_CHARS ? l.name().substring(0, LABEL_CHARS - 1) + "…" : l.name(); // the title has it whole
            s.append("<text x=\"0\" y=\"").append(y + LANE - 2).append("\">").append(Summary.esc(label)).append("</text>");
            StringBuilder state = new StringBuilder();
            for (int g = 0; g < groups; g++) state.append(mostCommon(l.state(), g * per, Math.min(slices, (g + 1) * per)));
            int i = 0;
            while (i < groups) { // runs of one wait code as one rectangle
                int j = i;
                while (j < groups && state.charAt(j) == state.charAt(i)) j++;
                s.append("<rect class=\"s-").append(state.charAt(i) == '.' ? "n" : state.charAt(i)).append("\" x=\"")
                        .append(fmt(LABEL + i * per * dx)).append("\" y=\"").append(y).append("\" width=\"")
                        .append(fmt((Math.min(slices, j * per) - i * per) * dx)).append("\" height=\"").append(LANE).append("\"/>");
                i = j;
            }
            List<Double> cpu = new ArrayList<>();
            for (int k = 0; k < slices; k++) cpu.add((double) (l.cpu().charAt(k) - '0'));
            bars(s, "cpu", grouped(cpu, per, true), 10, y, dx * per);
            y += LANE + GAP;
        }
        if (virtual) y = counts(s, "virtual threads alive", alive.stream().map(Integer::doubleValue).toList(), "alive", y, dx, per);
        if (pins) y = counts(s, "carriers pinned", pinned, "pinned", y, dx, per);
        s.append("<text class=\"axis\" x=\"").append(LABEL).append("\" y=\"").append(y + 10).append("\">0 s</text>")
                .append("<text class=\"axis\" x=\"").append(LABEL + PLOT).append("\" y=\"").append(y + 10).append("\" text-anchor=\"end\">")
                .append(String.format(Locale.ROOT, "%.1f s", slices * sliceMs / 1000.0)).append("</text></svg>");
        return s.toString();
    }

    /** The wait code most common in {@code state} from {@code from} to {@code to}, none ('.') only when there is no other. */
    private static char mostCommon(String state, int from, int to) {
        int[] seen = new int[128];
        char common = '.';
        for (int k = from; k < to; k++) {
            char c = state.charAt(k);
            if (c != '.' && ++seen[c] > seen[common]) common = c;
        }
        return common;
    }

    /** {@code values}, {@code per} at a time as one: their mean ({@code mean}) or their most. */
    private static List<Double> grouped(List<Double> values, int per, boolean mean) {
        List<Double> out = new ArrayList<>();
        for (int from = 0; from < values.size(); from += per) {
            List<Double> group = values.subList(from, Math.min(values.size(), from + per));
            out.add(mean ? group.stream().mapToDouble(Double::doubleValue).average().orElse(0)
                    : group.stream().mapToDouble(Double::doubleValue).max().orElse(0));
        }
        return out;
    }

    /** A bar for each value above 0, up from the row's foot, {@code full} the row's height. */
    private static void bars(StringBuilder s, String cls, List<Double> values, double full, int y, double width) {
        for (int k = 0; k < values.size(); k++) {
            if (values.get(k) <= 0) continue;
            double h = Math.max(1, LANE * Math.min(full, values.get(k)) / full);
            s.append("<rect class=\"").append(cls).append("\" x=\"").append(fmt(LABEL + k * width)).append("\" y=\"").append(fmt(y + LANE - h))
                    .append("\" width=\"").append(fmt(Math.min(width, PLOT - k * width))).append("\" height=\"").append(fmt(h)).append("\"/>");
        }
    }

    private int counts(StringBuilder s, String label, List<Double> values, String cls, int y, double dx, int per) {
        double max = values.stream().mapToDouble(Double::doubleValue).max().orElse(1);
        s.append("<text x=\"0\" y=\"").append(y + LANE - 2).append("\">").append(label).append("</text>");
        bars(s, cls, grouped(values, per, false), max, y, dx * per);
        return y + LANE + GAP;
    }

    /** Each lane's busiest slice and most common wait, in words: "loop-1: up to 10 tenths of a core, mostly waiting for work". */
    String words() {
        List<String> said = new ArrayList<>();
        for (Lane l : lanes) {
            int most = l.cpu().chars().map(c -> c - '0').max().orElse(0);
            char common = mostCommon(l.state(), 0, slices);
            said.add(l.name() + ": up to " + most + " tenths of a core" + (common == '.' ? "" : ", mostly " + ThreadStates.WORDS.get(common)));
        }
        return String.join("; ", said);
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    /** The room page's styles for {@link #svg}: light and dark. */
    static final String STYLE = ".tl{max-width:100%;height:auto;font:10px system-ui,sans-serif;margin:.3rem 0}.tl text{fill:#1d2330}.tl .axis{fill:#5b6474}"
            + ".tl .cpu{fill:#1d2330;fill-opacity:.85}.tl .s-n{fill:#f4f5f7}.tl .s-i{fill:#dfe3ea}.tl .s-a{fill:#b8bfcc}"
            + ".tl .s-r{fill:#8fb8e8}.tl .s-w{fill:#3d7cc9}.tl .s-s{fill:#c9a2e8}.tl .s-p{fill:#9fd6b0}.tl .s-l{fill:#f0c070}"
            + ".tl .s-h{fill:#e0604f}.tl .alive{fill:#5a7fd6}.tl .pinned{fill:#e0604f}"
            + ".tl-key{font-size:.8rem;color:#5b6474}.tl-key .tl{margin:0 0 0 .6rem;vertical-align:-.05em}"
            + "@media (prefers-color-scheme:dark){.tl text{fill:#e4e7ec}.tl .cpu{fill:#f4f5f7}.tl .s-n{fill:#1b1f27}.tl .s-i{fill:#2a303b}"
            + ".tl .s-a{fill:#4a5262}.tl .s-r{fill:#2f5f99}.tl .s-w{fill:#5d9be6}.tl .s-s{fill:#7a4fa0}.tl .s-p{fill:#2e7a48}"
            + ".tl .s-l{fill:#a8782a}.tl-key{color:#9aa3b2}}";

    /** The key under a timeline: the wait codes it uses, in words. */
    String key() {
        StringBuilder k = new StringBuilder("<p class=\"tl-key\">dark bar: share of a core");
        for (char code : CODES.toCharArray()) {
            if (code == ThreadStates.NONE || lanes.stream().noneMatch(l -> l.state().indexOf(code) >= 0)) continue;
            k.append(" <svg class=\"tl\" width=\"10\" height=\"10\" aria-hidden=\"true\"><rect class=\"s-").append(code)
                    .append("\" width=\"10\" height=\"10\"/></svg> ").append(ThreadStates.WORDS.get(code));
        }
        return k.append("</p>").toString();
    }
}
