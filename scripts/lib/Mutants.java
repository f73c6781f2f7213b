package lib;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Known-broken variants of a solution, read and applied in one place, for the self-test and the
 * site's timelines of a mistake (scripts/site/Timelines.java) alike (SelfTest's
 * scripts/test/spoilers/NN.txt, WithoutSockets' specs, TestBench's fixtures). A spec's lines:
 * <pre>
 * # a comment
 * mutant NAME: CHECK ...        the checks it must fail ("?CHECK": may fail)
 * says WORDS                    what the failure of the check named first must say
 * in FILE                       the following replacements change FILE (a kit file), not the solution
 * - TEXT                        text that occurs exactly once ...
 * + TEXT                        ... and what replaces it
 * </pre>
 */
public final class Mutants {
    private Mutants() {}

    /** Replace {@code find} (which must occur exactly once) with {@code put}, in {@code file} ("" = the solution). */
    public record Replacement(String find, String put, String file) {
        /** {@code text} with the replacement made; null when {@code find} does not occur exactly once in it. */
        public String applyTo(String text) {
            int at = text.indexOf(find);
            if (at < 0 || text.indexOf(find, at + 1) >= 0) return null;
            return text.substring(0, at) + put + text.substring(at + find.length());
        }
    }

    /** A broken variant: the checks it must fail, its replacements, and what the failure of the check named for it must say. */
    public record Mutant(List<String> checks, List<Replacement> replacements, List<String> says) {}

    /**
     * The mutants of {@code file}, by name, in its order. A line none of the above reads goes to
     * {@code other} (a caller's own headers), which says whether it took it; else IOException.
     */
    public static Map<String, Mutant> read(Path file, Predicate<String> other) throws IOException {
        Map<String, Mutant> mutants = new LinkedHashMap<>();
        Mutant current = null;
        String find = null;
        String in = "";
        for (String raw : Files.readAllLines(file)) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) continue;
            if (line.startsWith("mutant ")) {
                int colon = line.indexOf(':');
                if (colon < 0) throw new IOException(file + ": a mutant line is 'mutant NAME: CHECKS', not '" + raw + "'");
                String listed = line.substring(colon + 1).strip();
                current = new Mutant(listed.isEmpty() ? List.of() : List.of(listed.split("\\s+")), new ArrayList<>(), new ArrayList<>());
                mutants.put(line.substring(7, colon).strip(), current);
                in = "";
                find = null;
            } else if (line.startsWith("says ") && current != null) {
                current.says().add(line.substring(5).strip());
            } else if (line.startsWith("in ") && current != null) {
                in = line.substring(3).strip();
            } else if (line.startsWith("- ") && current != null) {
                find = line.substring(2);
            } else if (line.startsWith("+ ") && current != null && find != null) {
                current.replacements().add(new Replacement(find, line.substring(2), in));
                find = null;
            } else if (!other.test(line)) {
                throw new IOException(file + ": cannot read line '" + raw + "'");
            }
        }
        return mutants;
    }

    /** The replacements of a spec with no mutant lines ("- TEXT" then "+ TEXT", "#" comments): TestBench's fixtures. */
    public static List<Replacement> replacements(Path file) throws IOException {
        List<Replacement> all = new ArrayList<>();
        String find = null;
        for (String line : Files.readAllLines(file)) {
            if (line.startsWith("- ")) {
                find = line.substring(2);
            } else if (line.startsWith("+ ") && find != null) {
                all.add(new Replacement(find, line.substring(2), ""));
                find = null;
            }
        }
        return all;
    }
}
