package room;

import contract.CheckList;
import contract.Plan;
import contract.Verdict;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import lib.Chapters;
import lib.SiteAddress;

/**
 * What the course knows, which is all the room shows: the graded chapters of the registry, each
 * chapter's checks (from the course's list of them, {@link CheckList}, in the order the grader runs them), the
 * race's workloads and its verdicts. A hand-in's other chapters, checks and workloads are
 * ignored, so no hand-in adds a column, a heading or a row of its own.
 */
public record Known(Map<String, Chapters.Chapter> chapters, Map<String, Map<String, String>> checks, Set<String> workloads,
             Set<Verdict.Call> verdicts, Map<String, Map<String, Step>> steps, String day, String site) {

    /**
     * Where a check is taught on its chapter's page: the section's place in the page's order
     * ({@code at}, smaller is earlier; {@link Integer#MAX_VALUE} with no title when the page has
     * no such section), its title, and the link to it ("chapters/03-reactor#closing").
     */
    public record Step(int at, String title, String see) {}

    /**
     * The same, for the day of agenda {@code day} ("half-day", "full-day" in the registry): the
     * room shows that day's chapters, and counts one done once the checks of the day's core TODOs
     * pass. Null: every chapter, done when every check passes.
     */
    public Known forDay(String day) {
        if (day == null) return this;
        Set<String> days = new java.util.TreeSet<>();
        chapters.values().forEach(c -> days.addAll(c.core().keySet()));
        if (!days.contains(day)) throw new IllegalArgumentException("no agenda '" + day + "' in the registry: give one of " + String.join(", ", days));
        return new Known(chapters, checks, workloads, verdicts, steps, day, site);
    }

    /** The chapters the room shows: the day's graded chapters, or every graded one. */
    public List<String> shown() {
        return chapters.values().stream().filter(c -> day == null || c.core().containsKey(day)).map(Chapters.Chapter::number).toList();
    }

    /**
     * Whether failing check {@code id} keeps a learner on chapter {@code chapter}: any check, or
     * for the day, a check of the day's core TODOs (one of a TODO the day skips does not).
     */
    boolean blocks(String chapter, String id) {
        if (day == null) return true;
        Set<String> core = chapters.get(chapter).coreChecks(day);
        return core == null || core.contains(id);
    }

    /** Whether a grading counts as done: every check of the course listed and none failing, or for the day, every check of its core TODOs listed and passing. */
    public boolean done(String chapter, Seat.Graded g) {
        if (g == null) return false;
        if (g.done()) return true;
        Set<String> core = day == null ? null : chapters.get(chapter).coreChecks(day);
        return core != null && g.error() == null && !g.partial() && g.passed() > 0 && g.failing().stream().noneMatch(core::contains)
                && g.missing().stream().noneMatch(core::contains);
    }

    /** What the course at {@code root} knows: its registry, its list of checks ({@link CheckList}) and its pages' steps. */
    public static Known of(Path root) {
        Map<String, Chapters.Chapter> chapters = Chapters.graded(root);
        Map<String, List<CheckList.Listed>> listed = CheckList.read(root).byChapter();
        Map<String, Map<String, String>> checks = new LinkedHashMap<>();
        Map<String, Map<String, Step>> steps = new LinkedHashMap<>();
        for (Chapters.Chapter chapter : chapters.values()) {
            Map<String, String> titles = new LinkedHashMap<>();
            Map<String, Step> places = new LinkedHashMap<>();
            List<Chapters.Heading> sections = Chapters.headings(root.resolve("site/content/" + chapter.page() + ".adoc"));
            for (CheckList.Listed c : listed.getOrDefault(chapter.number(), List.of())) {
                titles.put(c.id(), c.title());
                String see = c.see();
                String anchor = see.startsWith(chapter.page() + "#") ? see.substring(see.indexOf('#') + 1) : null;
                int at = -1;
                for (int i = 0; i < sections.size() && at < 0; i++) if (sections.get(i).id().equals(anchor)) at = i;
                places.put(c.id(), at < 0 ? new Step(Integer.MAX_VALUE, null, see) : new Step(at, sections.get(at).title(), see));
            }
            checks.put(chapter.number(), titles);
            steps.put(chapter.number(), places);
        }
        Set<String> workloads = Plan.WORKLOADS.stream().map(Plan.Workload::id).collect(Collectors.toCollection(java.util.LinkedHashSet::new));
        return new Known(chapters, checks, workloads, Set.of(Verdict.Call.FASTER, Verdict.Call.SLOWER, Verdict.Call.SAME, Verdict.Call.NOISY), steps,
                null, SiteAddress.of(System.getenv("COURSE_SITE"), root));
    }

    /** Where on chapter {@code chapter}'s page the step that teaches check {@code id} is: a smaller number is earlier. */
    int step(String chapter, String id) {
        Step step = steps.getOrDefault(chapter, Map.of()).get(id);
        return step == null ? Integer.MAX_VALUE : step.at();
    }

    /** The step of the page that teaches check {@code id}, or null when the course has no such check. */
    public Step stepOf(String chapter, String id) {
        return steps.getOrDefault(chapter, Map.of()).get(id);
    }

    /** A link to a page of the course ("chapters/03-reactor#closing"), where the instructor reads it ({@link SiteAddress#of}). */
    public String link(String see) {
        return SiteAddress.url(site, see);
    }

    /** The title of check {@code id} of chapter {@code chapter}, or null when the course has no such check. */
    public String title(String chapter, String id) {
        Map<String, String> titles = checks.get(chapter);
        return titles == null ? null : titles.get(id);
    }
}
