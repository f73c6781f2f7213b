import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What the course knows, which is all the room shows: the graded chapters of the registry, each
 * chapter's checks (read from the grader's own check classes, in the order it runs them), the
 * race's workloads and its verdicts. A hand-in's other chapters, checks and workloads are
 * ignored, so no hand-in adds a column, a heading or a row of its own.
 */
record Known(Map<String, Chapters.Chapter> chapters, Map<String, Map<String, String>> checks, Set<String> workloads,
             Set<Verdict.Call> verdicts) {

    static Known of(Path root) {
        Map<String, Chapters.Chapter> chapters = Chapters.graded(root);
        Map<String, Map<String, String>> checks = new LinkedHashMap<>();
        for (Chapters.Chapter chapter : chapters.values()) {
            Map<String, String> titles = new LinkedHashMap<>();
            for (Class<?> suite : Grade.checkClasses(chapter)) {
                List<Method> methods = new ArrayList<>(List.of(suite.getDeclaredMethods()));
                methods.removeIf(m -> !m.isAnnotationPresent(Check.class));
                methods.sort(Comparator.comparingInt(m -> m.getAnnotation(Check.class).order()));
                for (Method m : methods) titles.put(Runner.idPrefix(suite) + "." + m.getName(), m.getAnnotation(Check.class).title());
            }
            checks.put(chapter.number(), titles);
        }
        Set<String> workloads = Plan.WORKLOADS.stream().map(Plan.Workload::id).collect(Collectors.toCollection(java.util.LinkedHashSet::new));
        return new Known(chapters, checks, workloads, Set.of(Verdict.Call.FASTER, Verdict.Call.SLOWER, Verdict.Call.SAME, Verdict.Call.NOISY));
    }

    /** The title of check {@code id} of chapter {@code chapter}, or null when the course has no such check. */
    String title(String chapter, String id) {
        Map<String, String> titles = checks.get(chapter);
        return titles == null ? null : titles.get(id);
    }
}
