package lib;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The chapter registry, site/data/course.json: what the grader, the benchmark, the self-test and
 * the room know about each chapter. The site reads the same file (site/layouts).
 */
public final class Chapters {
    /** The registry's place in the repository. */
    public static final String FILE = "site/data/course.json";

    /**
     * One chapter. {@code kit}: the kit files its exercise includes besides kit/Kit.java;
     * {@code gradeJvm}: JVM options for the server the grader starts (not the race's). {@code checks} is the JUnit class of its own checks (empty for a chapter that
     * is a benchmark only); {@code cap} is how many requests the model serves at once, for the
     * Little's-law bound: a number, an option that sets it, or nothing. {@code benchWorkloads}: the
     * workloads its own race runs by default (null: the standard ones); {@code inShowdown}: whether
     * {@code bench.sh --all} races its solution with every other; {@code core}: for each agenda
     * that has the chapter ("half-day", "full-day"), the TODOs at its core.
     */
    public record Chapter(String number, String slug, String title, String model, int minutes, List<String> kit,
                   List<String> gradeArgs, List<String> gradeJvm, Optional<String> checks, List<String> benchArgs, Cap cap,
                   String benchWorkloads, boolean inShowdown, Map<String, List<String>> todos, Map<String, List<String>> core) {
        public Chapter(String number, String slug, String title, String model, int minutes, List<String> kit,
                List<String> gradeArgs, List<String> gradeJvm, Optional<String> checks, List<String> benchArgs, Cap cap,
                String benchWorkloads, boolean inShowdown, Map<String, List<String>> todos) {
            this(number, slug, title, model, minutes, kit, gradeArgs, gradeJvm, checks, benchArgs, cap, benchWorkloads, inShowdown, todos, Map.of());
        }

        /**
         * The checks of the TODOs at the core of agenda {@code day} ("half-day"), as the registry
         * lists them: what a learner finishes in that day; null when the day's agenda does not
         * have this chapter.
         */
        public java.util.Set<String> coreChecks(String day) {
            List<String> tags = core.get(day);
            if (tags == null) return null;
            java.util.Set<String> ids = new java.util.LinkedHashSet<>();
            for (String tag : tags) for (String id : todos.getOrDefault(tag, List.of())) ids.add(Expected.of(id).id());
            return ids;
        }
        /** The chapter's page on the course site, relative to its root. */
        public String page() {
            return "chapters/" + slug;
        }

        /** The exercise (or solution) file name. */
        public String fileName() {
            return slug + ".java";
        }

        public boolean graded() {
            return checks.isPresent();
        }

        /** The TODO tag whose checks include {@code checkId} ("ch03.slowReader"), if any. */
        public Optional<String> todoFor(String checkId) {
            return todos.entrySet().stream()
                    .filter(e -> e.getValue().stream().anyMatch(c -> Expected.of(c).id().equals(checkId)))
                    .map(Map.Entry::getKey).findFirst();
        }
    }

    /**
     * A check as a list of expected failures writes it (a TODO's in the registry, a broken
     * variant's in scripts/test/spoilers): {@code id} fails, {@code ?id} may fail or not,
     * {@code ~id} fails only as a note of an earlier failure (it waits for an earlier TODO).
     */
    public record Expected(String id, Mark mark) {
        public enum Mark { FAILS, EITHER, AFTER }

        public static Expected of(String written) {
            if (written.startsWith("?")) return new Expected(written.substring(1), Mark.EITHER);
            if (written.startsWith("~")) return new Expected(written.substring(1), Mark.AFTER);
            return new Expected(written, Mark.FAILS);
        }
    }

    /**
     * In a chapter's options (to grade, to race), where the URL of the backend goes that the
     * grader or the race starts for it (chapter 08's trips call one).
     */
    static final String BACKEND = "{backend}";

    /** Whether options {@code args} need a backend's URL. */
    public static boolean callsBackend(List<String> args) {
        return args.stream().anyMatch(a -> a.contains(BACKEND));
    }

    /** Options {@code args} with the backend's URL in place. */
    public static List<String> withBackend(List<String> args, String url) {
        return args.stream().map(a -> a.replace(BACKEND, url)).toList();
    }

    /** The concurrency cap: {@code fixed} requests, or the value of {@code option} (default {@code fallback}); 0 = none. */
    public record Cap(int fixed, String option, int fallback) {
        static final Cap NONE = new Cap(0, null, 0);

        /** The cap for a server started with {@code args}. */
        public int of(List<String> args) {
            if (option == null) return fixed;
            int at = args.indexOf(option);
            return at >= 0 && at + 1 < args.size() ? Integer.parseInt(args.get(at + 1)) : fallback;
        }
    }

    private Chapters() {}

    /** Every chapter, by number, in course order. */
    public static Map<String, Chapter> read(Path root) {
        String text;
        try {
            text = Files.readString(root.resolve(FILE));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the chapter registry " + FILE, e);
        }
        Map<String, Chapter> all = new LinkedHashMap<>();
        for (Entry c : Jackson.read(text, Registry.class).chapters()) {
            Grading grade = c.grade() == null ? new Grading(null, null, null) : c.grade();
            Race bench = c.bench() == null ? new Race(null, null, null, null) : c.bench();
            all.put(c.number(), new Chapter(c.number(), c.slug(), c.title(), c.model(), c.minutes(), listed(c.kit()),
                    listed(grade.args()), listed(grade.jvm()), Optional.ofNullable(grade.checks()), listed(bench.args()), cap(bench.cap()),
                    bench.workloads(), !Boolean.FALSE.equals(bench.all()), c.todos() == null ? Map.of() : c.todos(), core(c.agenda())));
        }
        return all;
    }

    /** The registry as written: the fields the tools read (the site reads the rest too). */
    private record Registry(List<Entry> chapters) {}

    private record Entry(String number, String slug, String title, String model, int minutes, List<String> kit,
                         Grading grade, Race bench, Map<String, List<String>> todos, Map<String, Slot> agenda) {}

    /** A chapter's slot in an agenda, as far as the tools read it: the TODOs at its core. */
    private record Slot(List<String> core) {}

    /** Agenda name to its core TODOs, for the agendas that have the chapter. */
    private static Map<String, List<String>> core(Map<String, Slot> agenda) {
        Map<String, List<String>> core = new LinkedHashMap<>();
        if (agenda != null) agenda.forEach((day, slot) -> core.put(day, slot == null || slot.core() == null ? List.of() : List.copyOf(slot.core())));
        return core;
    }

    /** {@code jvm}: options for the JVM of a server the grader starts (JBang's -R), such as Netty's leak detector. */
    private record Grading(List<String> args, List<String> jvm, String checks) {}

    /**
     * {@code cap}: "none", {"fixed": N}, or {"option": "--threads", "default": N}; {@code workloads}:
     * its race's own default ("trip"); {@code all}: false keeps it out of the showdown.
     */
    private record Race(List<String> args, JsonNode cap, String workloads, Boolean all) {}

    /** The graded chapters only (those with checks), by number. */
    public static Map<String, Chapter> graded(Path root) {
        Map<String, Chapter> graded = new LinkedHashMap<>();
        read(root).forEach((n, c) -> {
            if (c.graded()) graded.put(n, c);
        });
        return graded;
    }

    /** The chapter whose page reads the race of every model ({@code bench.sh --all}): the one without checks. */
    public static Optional<Chapter> showdown(Map<String, Chapter> chapters) {
        return chapters.values().stream().filter(c -> !c.graded()).findFirst();
    }

    private static Cap cap(JsonNode value) {
        if (value == null || value.isNull() || "none".equals(value.asText())) return Cap.NONE;
        if (value.has("fixed")) return new Cap(value.get("fixed").asInt(), null, 0);
        return new Cap(0, value.path("option").asText(), value.path("default").asInt());
    }

    private static List<String> listed(List<String> list) {
        return list == null ? List.of() : list;
    }

    /** A block's explicit id on its own line: {@code [#x]} or {@code [[x]]}. */
    private static final java.util.regex.Pattern EXPLICIT_ID = java.util.regex.Pattern.compile("^\\[(?:#|\\[)([\\w-]+)");

    /**
     * The ids of a page's sections, in the page's order: an explicit id ({@code [#x]}, {@code [[x]]})
     * or the one Asciidoctor makes of a heading's title (hugo.toml: no prefix, '-' between words);
     * empty when the page cannot be read.
     */
    public static List<String> sections(java.nio.file.Path page) {
        return headings(page).stream().map(Heading::id).toList();
    }

    /** A section of a page: its id ({@link #sections}) and its title as the page writes it. */
    public record Heading(String id, String title) {}

    /** The sections of a page with their titles, in the page's order; empty when the page cannot be read. */
    public static List<Heading> headings(java.nio.file.Path page) {
        List<Heading> headings = new java.util.ArrayList<>();
        List<String> lines;
        try {
            lines = java.nio.file.Files.readAllLines(page);
        } catch (java.io.IOException e) {
            return headings;
        }
        String pending = null;
        for (String line : lines) {
            java.util.regex.Matcher explicit = EXPLICIT_ID.matcher(line);
            if (explicit.find()) {
                pending = explicit.group(1);
                continue;
            }
            if (line.matches("^={2,4} .*")) {
                String title = line.replaceFirst("^=+ ", "");
                headings.add(new Heading(pending != null ? pending : autoId(title), title));
            }
            if (!line.isBlank()) pending = null;
        }
        return headings;
    }

    /** Asciidoctor's id of a section titled {@code title}, with no prefix and '-' between words: "Timers in the loop" is timers-in-the-loop. */
    static String autoId(String title) {
        String id = title.toLowerCase(java.util.Locale.ROOT).replaceAll("<[^>]*>", "").replaceAll("&[a-z0-9#]+;", "")
                .replaceAll("[^\\p{L}\\p{N}_ .-]", "").replaceAll("[ .-]+", "-");
        return id.replaceAll("^-+|-+$", "");
    }
}
