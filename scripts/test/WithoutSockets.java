import checks.Grade;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import lib.Chapters;
import lib.Mutants;

/**
 * The self-test's step for a chapter's tests without sockets: a JBang file of JUnit tests that
 * includes the chapter's exercise with {@code //SOURCES ../NN-slug.java} (chapter 06:
 * exercises/demos/HybridHandlerTests.java). What they must find is in
 * scripts/test/spoilers/NN-without-sockets.txt: the file, the tests the untouched exercise fails,
 * and broken variants of the solution with the tests each fails ("?name": may fail or pass). The
 * solution must pass them all. The exercise runs the file itself; the solution and each variant
 * run a copy of it in .broken/ whose //SOURCES names them. One ok/FAIL line per run.
 */
final class WithoutSockets {
    private WithoutSockets() {}

    /** The expectations: the test file, what the exercise fails, and each variant's replacements and failures. */
    record Spec(String file, Set<String> exercise, Map<String, Mutants.Mutant> mutants) {}

    /** Runs the step for {@code chapter} when it has a spec; {@code quick}: the solution and the exercise only. */
    static void run(Path root, Chapters.Chapter chapter, boolean quick) throws IOException, InterruptedException {
        Path specFile = root.resolve("scripts/test/spoilers/" + chapter.number() + "-without-sockets.txt");
        if (!Files.isRegularFile(specFile)) return;
        Spec spec = read(specFile, root.resolve("scripts/test/spoilers/" + chapter.number() + ".txt"));
        SelfTest.section("Chapter " + chapter.number() + ": its tests without sockets (" + spec.file() + ") pass the solution, and fail the exercise"
                + (quick ? "" : " and each broken variant") + " where they should");
        String name = chapter.number() + " without sockets: ";
        Path tests = root.resolve(spec.file());
        String source = Files.readString(tests);
        String include = "//SOURCES ../" + chapter.fileName();
        if (!source.lines().anyMatch(include::equals)) {
            SelfTest.record(name + spec.file() + " includes the exercise", false, "no line '" + include + "'");
            return;
        }
        Path dir = root.resolve(".broken");
        Files.createDirectories(dir);
        Path solution = root.resolve("solutions").resolve(chapter.fileName());
        expect(name + "the solution", copy(dir, chapter.number() + "-without-sockets-solution.java", source, include,
                "//SOURCES ../solutions/" + chapter.fileName()), Set.of());
        expect(name + "the untouched exercise", tests, spec.exercise());
        if (quick) return;
        String solutionText = Files.readString(solution);
        for (var e : spec.mutants().entrySet()) {
            String broken = solutionText;
            for (Mutants.Replacement r : e.getValue().replacements()) {
                String changed = r.file().isEmpty() ? r.applyTo(broken) : null;
                if (changed == null) {
                    broken = null;
                    SelfTest.record(name + "mutant " + e.getKey() + ": '" + r.find() + "' occurs exactly once in the solution", false, "it does not");
                    break;
                }
                broken = changed;
            }
            if (broken == null) continue;
            String server = chapter.number() + "-without-sockets-" + e.getKey() + ".java";
            Files.writeString(dir.resolve(server), broken);
            expect(name + "mutant " + e.getKey(), copy(dir, chapter.number() + "-without-sockets-" + e.getKey() + "-tests.java",
                    source, include, "//SOURCES " + server), new TreeSet<>(e.getValue().checks()));
        }
    }

    /** The chapter's test file, when it has tests without sockets (the self-test builds it before lanes share the parts). */
    static java.util.Optional<Path> testsFile(Path root, Chapters.Chapter chapter) throws IOException {
        Path specFile = root.resolve("scripts/test/spoilers/" + chapter.number() + "-without-sockets.txt");
        if (!Files.isRegularFile(specFile)) return java.util.Optional.empty();
        return java.util.Optional.of(root.resolve(read(specFile, root.resolve("scripts/test/spoilers/" + chapter.number() + ".txt")).file()));
    }

    /** The test file with its //SOURCES line for the exercise replaced, written to {@code dir}. */
    private static Path copy(Path dir, String fileName, String source, String include, String instead) throws IOException {
        Path file = dir.resolve(fileName);
        Files.writeString(file, source.replace(include + "\n", instead + "\n"));
        return file;
    }

    private static final Pattern FAILED = Pattern.compile("^\\s+alone: jbang \\S+ (\\w+)$", Pattern.MULTILINE);
    private static final Pattern SUMMARY = Pattern.compile("^\\s*(\\d+) passed, (\\d+) failed$", Pattern.MULTILINE);

    /** Runs the test file and compares the tests that failed with {@code expected} ("?name": either way). */
    static void expect(String what, Path file, Set<String> expected) throws IOException, InterruptedException {
        Set<String> required = new TreeSet<>();
        Set<String> allowed = new TreeSet<>();
        for (String written : expected) {
            Chapters.Expected e = Chapters.Expected.of(written);
            if (e.mark() != Chapters.Expected.Mark.EITHER) required.add(e.id());
            allowed.add(e.id());
        }
        long start = System.nanoTime();
        Process p = new ProcessBuilder(Grade.JBANG, file.toString()).redirectErrorStream(true).start();
        p.getOutputStream().close();
        java.io.ByteArrayOutputStream output = new java.io.ByteArrayOutputStream();
        Thread reader = Thread.ofVirtual().start(() -> {
            try {
                p.getInputStream().transferTo(output);
            } catch (IOException e) {
                // the process was killed: what it printed so far is enough
            }
        });
        boolean ended = p.waitFor(180, TimeUnit.SECONDS); // a first run builds the file (seconds), then the tests take about one
        if (!ended) p.destroyForcibly().waitFor();
        reader.join();
        String out = output.toString(StandardCharsets.UTF_8);
        long seconds = Math.round((System.nanoTime() - start) / 1e9);
        Set<String> failed = new TreeSet<>();
        Matcher m = FAILED.matcher(out);
        while (m.find()) failed.add(m.group(1));
        Matcher summary = SUMMARY.matcher(out);
        boolean ran = ended && summary.find() && p.exitValue() == (failed.isEmpty() ? 0 : 1)
                && Integer.parseInt(summary.group(2)) == failed.size();
        boolean ok = ran && failed.containsAll(required) && allowed.containsAll(failed);
        SelfTest.record(what + (expected.isEmpty() ? " passes every test" : " fails exactly " + expected) + " [" + seconds + " s]", ok,
                !ran ? "it did not run to its summary (exit " + (ended ? p.exitValue() : "none: killed after 180 s") + "): "
                        + out.strip().lines().reduce((a, b) -> b).orElse("no output")
                        : "failing: " + failed);
    }

    /**
     * Reads a spec: "tests FILE", "exercise: NAME ...", then mutants as in NN.txt ("mutant NAME:
     * TESTS", "- find", "+ replace"); a mutant with no lines of its own is NN.txt's of that name.
     */
    static Spec read(Path file, Path chapterSpec) throws IOException {
        String[] tests = {null};
        Set<String> exercise = new TreeSet<>();
        Map<String, Mutants.Mutant> mutants = Mutants.read(file, line -> {
            if (line.startsWith("tests ")) tests[0] = line.substring(6).strip();
            else if (line.startsWith("exercise:")) exercise.addAll(List.of(line.substring(9).strip().split("\\s+")));
            else return false;
            return true;
        });
        if (tests[0] == null) throw new IOException(file + ": no 'tests FILE' line");
        Map<String, Mutants.Mutant> chapter = null;
        for (var e : mutants.entrySet()) {
            if (!e.getValue().replacements().isEmpty()) continue;
            if (chapter == null) chapter = SelfTest.spec(chapterSpec);
            Mutants.Mutant named = chapter.get(e.getKey());
            if (named == null) throw new IOException(file + ": mutant " + e.getKey() + " has no lines, and " + chapterSpec.getFileName() + " has no mutant of that name");
            e.getValue().replacements().addAll(named.replacements());
        }
        return new Spec(tests[0], exercise, mutants);
    }
}
