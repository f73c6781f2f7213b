package contract;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lib.Jackson;

/**
 * The course's checks, listed once, for what reads them without running them (the room): each
 * graded chapter's checks in the order the grader runs them, with each one's title and the step
 * of the page that teaches it ({@code see}, for that chapter). The grader's check classes are the
 * source; {@code jbang scripts/checks/ListChecks.java} writes this list from them into
 * {@value #FILE}, and the self-test fails when the two differ, so a reader of the list needs
 * neither JUnit nor the check classes (JMH's BenchmarkList, which its annotation processor
 * writes at build time, is the model).
 */
public record CheckList(List<Listed> checks) {
    public static final String FILE = "scripts/checks/checks.json";

    /** One check of one chapter: its id ("ch03.slowReader"), title and the page's step that teaches it ("chapters/03-reactor#closing"). */
    public record Listed(String chapter, String id, String title, String see) {}

    /** The list kept in the course at {@code root}. */
    public static CheckList read(Path root) {
        Path file = root.resolve(FILE);
        try {
            return Jackson.read(Files.readString(file, StandardCharsets.UTF_8), CheckList.class);
        } catch (IOException e) {
            throw new UncheckedIOException("no list of checks at " + file + " (" + e.getMessage() + "): get the course's own back with git checkout -- " + FILE, e);
        }
    }

    /** The checks of each chapter, in the order the grader runs them. */
    public Map<String, List<Listed>> byChapter() {
        Map<String, List<Listed>> by = new LinkedHashMap<>();
        for (Listed c : checks) by.computeIfAbsent(c.chapter(), k -> new java.util.ArrayList<>()).add(c);
        return by;
    }

    /** The list as it is kept: JSON, one check a line, so a change reads as a one-line diff. */
    public String text() {
        StringBuilder s = new StringBuilder("{\n  \"checks\": [\n");
        for (int i = 0; i < checks.size(); i++) {
            try {
                s.append("    ").append(Jackson.MAPPER.writeValueAsString(checks.get(i))).append(i + 1 < checks.size() ? ",\n" : "\n");
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
        }
        return s.append("  ]\n}\n").toString();
    }
}
