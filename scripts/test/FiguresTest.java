///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
//DEPS com.fasterxml.jackson.core:jackson-databind:2.22.4

package test;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Proves that the pages' figures come from the committed runs (scripts/site/Figures.java), on
 * copies of the site: a reference JSON with edited figures changes the built page's sentences;
 * a page that quotes a committed figure as a literal fails the build, naming it; a page that
 * refers to a figure no run holds fails the build, naming it; an agenda slot shorter than the
 * measured run it holds (site/measured/workshop.json, site/data/course.json's "holds") fails the build.
 * Usage: FiguresTest ROOT (a line "ok    ..." or "FAIL  ..." a case, then "N passed, N failed"; exit 1 if any failed).
 * It reads ROOT/site/generated/figures.adoc: build the site first (test.sh runs it after step_site's build).
 */
class FiguresTest {
    static final List<String> TREE = List.of("hugo.toml", "site", "scripts", "exercises", "solutions");
    static Path ROOT_TOOLS;
    static int passed;

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args[0]).toAbsolutePath();
        ROOT_TOOLS = root.resolve(".tools");
        Path work = Files.createTempDirectory("figures-test");
        List<String> failed = new ArrayList<>();
        try {
            editedRun(root, work.resolve("edited"), failed);
            literalCopy(root, work.resolve("literal"), failed);
            missingFigure(root, work.resolve("missing"), failed);
            slowerRun(root, work.resolve("slower"), failed);
        } finally {
            try (Stream<Path> all = Files.walk(work)) {
                all.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        System.out.println(passed + " passed, " + failed.size() + " failed");
        System.exit(failed.isEmpty() ? 0 : 1);
    }

    /** 03's share of the bound on io-2000 and 05's rate on hello, set to figures no run made: chapter 07 says the new ones. */
    static void editedRun(Path root, Path copy, List<String> failed) throws Exception {
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
        if (built.ok() && fresh && page.contains("virtual threads (05) 12,345") && page.contains("reached 12% to")) {
            pass("an edited reference.json changes chapter 07's sentences (05's hello rate 12,345; io-2000's least share of the bound 12%)");
        } else {
            fail(failed, "chapter 07 did not follow an edited reference.json: built " + built.ok() + ", " + built.tail());
        }
    }

    /** A sentence that types 05's p99 on mixed (a committed figure) instead of referring to it. */
    static void literalCopy(Path root, Path copy, List<String> failed) throws Exception {
        copy(root, copy);
        String p99 = figure(root, "reference-mixed-05-latency-ms-p99");
        Path page = copy.resolve("site/content/chapters/04-multi-reactor.adoc");
        Files.writeString(page, Files.readString(page) + "\nOn `mixed`, 05's p99 was " + p99 + " ms.\n");
        Result built = build(copy);
        if (!built.ok() && built.output().contains("'" + p99 + " ms' is a figure of a committed run")) {
            pass("a page that quotes a committed figure as a literal (" + p99 + " ms) fails the build, naming it");
        } else {
            fail(failed, "a literal copy of " + p99 + " ms in a page did not fail the build: " + built.tail());
        }
    }

    /** A reference to a figure that no committed run holds. */
    static void missingFigure(Path root, Path copy, List<String> failed) throws Exception {
        copy(root, copy);
        Path page = copy.resolve("site/content/chapters/07-showdown.adoc");
        Files.writeString(page, Files.readString(page) + "\nThe race made {reference-io-2000-03-no-such-figure} of them.\n");
        Result built = build(copy);
        if (!built.ok() && built.output().contains("missing attribute: reference-io-2000-03-no-such-figure")) {
            pass("a page that refers to a figure no run holds fails the build, naming it");
        } else {
            fail(failed, "a reference to a missing figure did not fail the build: " + built.tail());
        }
    }

    /** The showdown's measured run made longer than chapter 07's slot in the full day. */
    static void slowerRun(Path root, Path copy, List<String> failed) throws Exception {
        Result built = buildEdited(root, copy, "site/measured/workshop.json", tree -> {
            for (var run : tree.withArray("runs")) {
                if (run.path("id").asText().equals("bench-all-quick-no-frameworks")) ((ObjectNode) run).put("wallMinutes", 99.0);
            }
        });
        if (!built.ok() && built.output().contains("cannot hold [bench-all-quick-no-frameworks] (99.0 minutes measured")) {
            pass("an agenda slot shorter than the measured run it holds (bench-all-quick-no-frameworks at 99 minutes) fails the build, naming it");
        } else {
            fail(failed, "a showdown run longer than its slot did not fail the build: " + built.tail());
        }
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
        builder.environment().putIfAbsent("COURSE_TOOLS_DIR", ROOT_TOOLS.toString());
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

    static void pass(String what) {
        System.out.println("ok    " + what);
        passed++;
    }

    static void fail(List<String> failed, String what) {
        failed.add(what);
        System.out.println("FAIL  " + what);
    }
}
