package site;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A chapter page measured as a learner meets it in the workshop (SiteTest's "fits its slot"; the
 * same rules as the team's page-budget tool): the words on the page (comment, attribute and include
 * lines, and listing and passthrough blocks, left out: code included by tag is not read as prose),
 * against 150 words a minute for 35% of the chapter's slot in site/data/course.json (the rest of
 * the slot is building, grading and racing; a chapter with no exercise, read while its race runs,
 * 3,000 words); the line where its steps (a race chapter: its prediction) start, at most 120; the
 * passages that tell the course's own history (chapter and deeper pages alike); and whether it
 * shows a picture of its idea (an SVG, or a widget).
 */
public record Pages(String file, int words, int budget, Integer stepsAt, List<String> history, boolean picture) {
    public static final int STEPS_BY = 120;
    /** Reading speed, words a minute: the slow end of technical prose (the page budget and the agendas' rehearsal). */
    static final double WORDS_A_MINUTE = 150;
    static final int RACE_CHAPTER_WORDS = 3000;
    static final Pattern HISTORY = Pattern.compile(
            "(an|the) earlier (run|version|solution|reference run|reader)|before (this|the) fix|git worktree"
            + "|\\(was [0-9]|\\bOLD/|the old (server|reader|solution|course)|used to (be|spend|cost|say)"
            + "|\\b(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\\b", Pattern.CASE_INSENSITIVE);
    static final Pattern PICTURE = Pattern.compile(
            "image::?[^\\[]*\\.svg|class=\"(selector-loop|littles-law|diagram|carriers|timeline)[^\"]*\"");
    static final Pattern FENCE = Pattern.compile("^(----|\\.\\.\\.\\.|\\+\\+\\+\\+)\\s*$");
    static final Pattern STEPS = Pattern.compile("^== (Steps|Predict first)");

    /** A page's prose, with what is not read as prose left out. */
    static String prose(List<String> lines) {
        List<String> prose = new ArrayList<>();
        boolean inBlock = false;
        for (String line : lines) {
            if (FENCE.matcher(line).matches()) {
                inBlock = !inBlock;
                continue;
            }
            if (inBlock || line.startsWith("//") || line.startsWith(":") || line.startsWith("include::")) continue;
            prose.add(line);
        }
        return String.join("\n", prose);
    }

    /** The words of {@code prose} (what {@link #prose} keeps). */
    static int words(String prose) {
        return prose.isBlank() ? 0 : prose.strip().split("\\s+").length;
    }

    /** The page at FILE; minutes is its chapter's slot, or 0 for a chapter with no exercise (its race is the work). */
    public static Pages measure(Path file, int minutes) throws IOException {
        List<String> lines = Files.readAllLines(file);
        String text = prose(lines);
        int words = words(text);
        Integer steps = null;
        for (int i = 0; i < lines.size() && steps == null; i++) if (STEPS.matcher(lines.get(i)).find()) steps = i + 1;
        List<String> history = new ArrayList<>();
        Matcher m = HISTORY.matcher(text);
        while (m.find()) history.add(m.group());
        int budget = minutes == 0 ? RACE_CHAPTER_WORDS : (int) (WORDS_A_MINUTE * 0.35 * minutes);
        return new Pages(file.getFileName().toString(), words, budget, steps, history, PICTURE.matcher(String.join("\n", lines)).find());
    }

    /** What keeps a chapter page from its slot, empty when it fits. */
    public List<String> overs() {
        List<String> over = new ArrayList<>();
        if (words > budget) over.add(words + " words, over its " + budget);
        if (stepsAt == null) over.add("no '== Steps' (a race chapter: '== Predict first')");
        else if (stepsAt > STEPS_BY) over.add("its steps start at line " + stepsAt + ", after line " + STEPS_BY);
        if (!history.isEmpty()) over.add("it tells the course's history: '" + history.getFirst() + "'");
        if (!picture) over.add("no picture of its idea (an image::...svg[] or a widget)");
        return over;
    }
}
