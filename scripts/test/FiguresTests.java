package test;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves that the pages' figures come from the committed runs (scripts/site/Figures.java), on
 * copies of the site: a reference JSON with edited figures changes the built page's sentences;
 * a page that quotes a committed figure as a literal fails the build, naming it; a page that
 * refers to a figure no run holds fails the build, naming it; an agenda slot shorter than the
 * measured run it holds (site/measured/workshop.json, site/data/course.json's "holds") fails the build.
 * The figures tier: {@code jbang scripts/test/Units.java . --tags figures}. It reads the checkout's
 * site/generated/figures.adoc: build the site first (the suite runs it after SiteTest's build).
 */
@Tag(Units.FIGURES)
class FiguresTests {
    static final List<String> TREE = List.of("hugo.toml", "site", "scripts", "exercises", "solutions");
    static Path root;

    @BeforeAll
    static void root() {
        root = Path.of(System.getProperty("course.root", ".")).toAbsolutePath().normalize();
    }

    /** 03's share of the bound on io-2000 and 05's rate on hello, set to figures no run made: chapter 07 says the new ones. */
    @Test
    @DisplayName("an edited reference.json changes chapter 07's sentences (05's hello rate 12,345; io-2000's least share of the bound 12%)")
    void editedRun(@TempDir Path copy) throws Exception {
        Result built = buildEdited(root, copy, "site/static/bench/reference.json", tree -> {
            for (var workload : tree.withArray("workloads")) {
                for (var result : workload.withArray("results")) {
                    ObjectNode r = (ObjectNode) result;
                    if (workload.path("id").asText().equals("io-2000") && r.path("server").asText().equals("03")) r.put("percentOfBound", 12.34);
                    if (workload.path("id").asText().equals("hello") && r.path("server").asText().equals("05")) r.put("rps", 12345.0);
                }
            }
        });
        String page = built.ok() ? text(copy.resolve("out/chapters/07-showdown/index.html")) : "";
        String original = text(root.resolve("site/static/bench/reference.json"));
        boolean fresh = !original.contains("12.34") && !original.contains("12345.0");
        assertTrue(built.ok() && fresh && page.contains("virtual threads (05) 12,345") && page.contains("reached 12% to"),
                () -> "chapter 07 did not follow an edited reference.json: built " + built.ok() + ", " + built.tail());
    }

    /** A sentence that types 05's p99 on mixed (a committed figure) instead of referring to it. */
    @Test
    @DisplayName("a page that quotes a committed figure as a literal (05's p99 on mixed) fails the build, naming it")
    void literalCopy(@TempDir Path copy) throws Exception {
        copy(root, copy);
        String p99 = figure(root, "reference-mixed-05-latency-ms-p99");
        Path page = copy.resolve("site/content/chapters/04-multi-reactor.adoc");
        Files.writeString(page, Files.readString(page) + "\nOn `mixed`, 05's p99 was " + p99 + " ms.\n");
        Result built = build(copy);
        assertTrue(!built.ok() && built.output().contains("'" + p99 + " ms' is a figure of a committed run"),
                () -> "a literal copy of " + p99 + " ms in a page did not fail the build: " + built.tail());
    }

    /** A reference to a figure that no committed run holds. */
    @Test
    @DisplayName("a page that refers to a figure no run holds fails the build, naming it")
    void missingFigure(@TempDir Path copy) throws Exception {
        copy(root, copy);
        Path page = copy.resolve("site/content/chapters/07-showdown.adoc");
        Files.writeString(page, Files.readString(page) + "\nThe race made {reference-io-2000-03-no-such-figure} of them.\n");
        Result built = build(copy);
        assertTrue(!built.ok() && built.output().contains("missing attribute: reference-io-2000-03-no-such-figure"),
                () -> "a reference to a missing figure did not fail the build: " + built.tail());
    }

    /** The showdown's measured run made longer than chapter 07's slot in the full day. */
    @Test
    @DisplayName("an agenda slot shorter than the measured run it holds (bench-all-quick-no-frameworks at 99 minutes) fails the build, naming it")
    void slowerRun(@TempDir Path copy) throws Exception {
        Result built = buildEdited(root, copy, "site/measured/workshop.json", tree -> {
            for (var run : tree.withArray("runs")) {
                if (run.path("id").asText().equals("bench-all-quick-no-frameworks")) ((ObjectNode) run).put("wallMinutes", 99.0);
            }
        });
        assertTrue(!built.ok() && built.output().contains("cannot hold [bench-all-quick-no-frameworks] (99.0 minutes measured"),
                () -> "a showdown run longer than its slot did not fail the build: " + built.tail());
    }

    // ---- Helpers ----------------------------------------------------------------------------

    /** Copies the site's sources to {@code copy}, edits the committed run {@code json} there, and builds the copy. */
    static Result buildEdited(Path root, Path copy, String json, java.util.function.Consumer<ObjectNode> edit) throws Exception {
        copy(root, copy);
        Path file = copy.resolve(json);
        ObjectMapper mapper = new ObjectMapper();
        ObjectNode tree = (ObjectNode) mapper.readTree(file.toFile());
        edit.accept(tree);
        mapper.writeValue(file.toFile(), tree);
        return build(copy);
    }

    record Result(boolean ok, String output) {
        String tail() {
            String[] lines = output.strip().split("\n");
            return String.join(" | ", List.of(lines).subList(Math.max(0, lines.length - 3), lines.length));
        }
    }

    /** The site's sources, as test.sh copies them for its broken-site case. */
    static void copy(Path root, Path copy) throws Exception {
        Files.createDirectories(copy);
        List<String> command = new ArrayList<>(List.of("sh", "-c", "tar -cf - " + String.join(" ", TREE) + " | tar -xf - -C '" + copy + "'"));
        Process p = new ProcessBuilder(command).directory(root.toFile()).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        if (p.waitFor() != 0) throw new IOException("could not copy the site to " + copy);
        Files.deleteIfExists(copy.resolve("site/generated/figures.adoc"));
    }

    static Result build(Path copy) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(copy.resolve("scripts/site.sh").toString(), "build", copy.resolve("out").toString())
                .redirectErrorStream(true);
        // The checkout's tools, not a fresh install into the copy (as test.sh builds its broken copy).
        builder.environment().putIfAbsent("COURSE_TOOLS_DIR", root.resolve(".tools").toString());
        Process p = builder.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return new Result(p.waitFor() == 0, out);
    }

    /** A figure's value as the generator wrote it for the checkout (its site/generated/figures.adoc). */
    static String figure(Path root, String name) throws IOException {
        for (String line : Files.readAllLines(root.resolve("site/generated/figures.adoc"))) {
            if (line.startsWith(":" + name + ": ")) return line.substring(name.length() + 3);
        }
        throw new IOException("no figure " + name + " in site/generated/figures.adoc: build the site first");
    }

    /** A built page's text: tags dropped, entities read, white space as single spaces. */
    static String text(Path html) throws IOException {
        return Files.readString(html).replaceAll("<[^>]+>", "").replace("&#8217;", "'").replace("&amp;", "&")
                .replaceAll("\\s+", " ");
    }
}
