import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The chapter registry, site/data/course.json: what the grader, the benchmark, the self-test and
 * the room know about each chapter. The site reads the same file (site/layouts).
 */
final class Chapters {
    /** The registry's place in the repository. */
    static final String FILE = "site/data/course.json";

    /**
     * One chapter. {@code kit}: the kit files its exercise includes besides kit/Kit.java. {@code checks} is the JUnit class of its own checks (empty for a chapter that
     * is a benchmark only); {@code cap} is how many requests the model serves at once, for the
     * Little's-law bound: a number, an option that sets it, or nothing.
     */
    record Chapter(String number, String slug, String title, String model, int minutes, List<String> kit,
                   List<String> gradeArgs, Optional<String> checks, List<String> benchArgs, Cap cap,
                   Map<String, List<String>> todos) {
        /** The chapter's page on the course site, relative to its root. */
        String page() {
            return "chapters/" + slug;
        }

        /** The exercise (or solution) file name. */
        String fileName() {
            return slug + ".java";
        }

        boolean graded() {
            return checks.isPresent();
        }

        /** The TODO tag whose checks include {@code checkId} ("ch03.slowReader"), if any. */
        Optional<String> todoFor(String checkId) {
            return todos.entrySet().stream()
                    .filter(e -> e.getValue().stream().anyMatch(c -> c.replace("?", "").equals(checkId)))
                    .map(Map.Entry::getKey).findFirst();
        }
    }

    /** The concurrency cap: {@code fixed} requests, or the value of {@code option} (default {@code fallback}); 0 = none. */
    record Cap(int fixed, String option, int fallback) {
        static final Cap NONE = new Cap(0, null, 0);

        /** The cap for a server started with {@code args}. */
        int of(List<String> args) {
            if (option == null) return fixed;
            int at = args.indexOf(option);
            return at >= 0 && at + 1 < args.size() ? Integer.parseInt(args.get(at + 1)) : fallback;
        }
    }

    private Chapters() {}

    /** Every chapter, by number, in course order. */
    static Map<String, Chapter> read(Path root) {
        String text;
        try {
            text = Files.readString(root.resolve(FILE));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the chapter registry " + FILE, e);
        }
        Map<String, Chapter> all = new LinkedHashMap<>();
        for (Object o : Json.array(Json.object(Json.parse(text)).get("chapters"))) {
            Map<String, Object> c = Json.object(o);
            Map<String, Object> grade = c.containsKey("grade") ? Json.object(c.get("grade")) : Map.of();
            Map<String, Object> bench = c.containsKey("bench") ? Json.object(c.get("bench")) : Map.of();
            Map<String, List<String>> todos = new LinkedHashMap<>();
            if (c.containsKey("todos")) Json.object(c.get("todos")).forEach((tag, checks) -> todos.put(tag, strings(checks)));
            String number = String.valueOf(c.get("number"));
            all.put(number, new Chapter(number, String.valueOf(c.get("slug")), String.valueOf(c.get("title")),
                    String.valueOf(c.get("model")), ((Number) c.get("minutes")).intValue(), strings(c.getOrDefault("kit", List.of())),
                    strings(grade.getOrDefault("args", List.of())), Optional.ofNullable((String) grade.get("checks")),
                    strings(bench.getOrDefault("args", List.of())), cap(bench.get("cap")), todos));
        }
        return all;
    }

    /** The graded chapters only (those with checks), by number. */
    static Map<String, Chapter> graded(Path root) {
        Map<String, Chapter> graded = new LinkedHashMap<>();
        read(root).forEach((n, c) -> {
            if (c.graded()) graded.put(n, c);
        });
        return graded;
    }

    private static Cap cap(Object value) {
        if (value == null || "none".equals(value)) return Cap.NONE;
        Map<String, Object> cap = Json.object(value);
        if (cap.containsKey("fixed")) return new Cap(((Number) cap.get("fixed")).intValue(), null, 0);
        return new Cap(0, String.valueOf(cap.get("option")), ((Number) cap.get("default")).intValue());
    }

    private static List<String> strings(Object array) {
        List<String> out = new ArrayList<>();
        for (Object o : Json.array(array)) out.add(String.valueOf(o));
        return out;
    }
}
