package test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tooling's packages depend one way, and the compiler is the proof: each package compiles
 * with the layers below it and its libraries alone, so a class that names a package above it, or
 * one beside it, does not compile. The learner's kit, the Netty baseline server and the
 * self-test's driver stay in the unnamed package, which no package can name.
 */
@Tag("unit")
public class PackagesTests {
    /**
     * The layers, lowest first; the packages of one layer do not use each other. The core (lib);
     * the contract the others exchange; the room, on those two alone; the grader and the race;
     * the site's tools and the doctor; the self-test.
     */
    static final List<List<String>> LAYERS = List.of(List.of("lib"), List.of("contract"), List.of("room"),
            List.of("checks", "bench"), List.of("site", "tools"), List.of("test"));
    private static final Pattern PACKAGE = Pattern.compile("(?m)^package (\\w+);");

    @Test
    @DisplayName("packages: each compiles with the layers below it alone (lib, contract, room, checks and bench, site and tools, test);"
            + " a class in lib that names the room does not")
    void dependenciesRunOneWay(@TempDir Path dir) throws IOException {
        Map<String, List<Path>> packages = packages(CourseFilesTests.ROOT.resolve("scripts"));
        assertEquals(new TreeSet<>(packages.keySet()), new TreeSet<>(LAYERS.stream().flatMap(List::stream).toList()),
                "every package of scripts/ has a layer here, and every layer a package");
        List<Path> below = new ArrayList<>();
        for (List<String> layer : LAYERS) {
            for (String p : layer) {
                String errors = compile(packages.get(p), below, dir.resolve("classes").resolve(p));
                assertEquals("", errors, "package " + p + " names a package that is not below it (" + LAYERS + ")");
            }
            layer.forEach(p -> below.add(dir.resolve("classes").resolve(p)));
        }
        // Able to fail: the core naming the room.
        Path probe = Files.writeString(Files.createDirectories(dir.resolve("probe")).resolve("Probe.java"),
                "package lib;\nfinal class Probe {\n    room.RoomLink link;\n}\n");
        List<Path> lib = new ArrayList<>(packages.get("lib"));
        lib.add(probe);
        String errors = compile(lib, List.of(), dir.resolve("probe-classes"));
        assertTrue(errors.contains("package room does not exist"), errors);
    }

    @Test
    @DisplayName("a file deeper than a package's folder (a launcher, a fixture, a server) stays in the unnamed package, as the java launcher runs it by path")
    void deeperFilesUnnamed() throws IOException {
        Path scripts = CourseFilesTests.ROOT.resolve("scripts");
        List<String> named = new ArrayList<>();
        try (Stream<Path> files = Files.walk(scripts)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                Path relative = scripts.relativize(file);
                if (relative.getNameCount() <= 2 || relative.startsWith("bench/frameworks")) continue; // frameworks: projects of their own
                if (PACKAGE.matcher(Files.readString(file)).find()) named.add(relative.toString());
            }
        }
        assertEquals(List.of(), named, "java FILE.java needs a file's package to match its folder: leave these in the unnamed package");
    }

    @Test
    @DisplayName("every class of scripts/test/ with JUnit tests carries @Tag(\"unit\"), so the unit tier (Units.java) runs it")
    void everyTestClassTagged() throws IOException {
        List<String> untagged = new ArrayList<>();
        try (Stream<Path> files = Files.list(CourseFilesTests.ROOT.resolve("scripts/test"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                String source = Files.readString(file);
                boolean tests = source.contains("@Test\n") || source.contains("@TestFactory") || source.contains("@ParameterizedTest");
                boolean aClass = Pattern.compile("(?m)^(public |final |public final )?class ").matcher(source).find();
                boolean tagged = TIER_TAG.matcher(source).results().anyMatch(m -> m.group(1) != null
                        ? Units.TIERS.contains(m.group(1)) : tierNamed(m.group(2)));
                if (tests && aClass && !tagged) untagged.add(file.getFileName().toString());
            }
        }
        assertEquals(List.of(), untagged, "JUnit finds a class of tests by its tier's tag: add @Tag(\"unit\") (or a tier of Units.TIERS, and say where it runs)");
    }

    /** A class's tag: @Tag("NAME") or @Tag(Units.CONSTANT). */
    static final Pattern TIER_TAG = Pattern.compile("@Tag\\((?:\"([a-z-]+)\"|Units\\.([A-Z_]+))\\)");

    /** Whether Units' constant {@code name} is a tier's tag. */
    static boolean tierNamed(String name) {
        try {
            return Units.TIERS.contains(Units.class.getField(name).get(null));
        } catch (ReflectiveOperationException e) {
            return false;
        }
    }

    /** The files of each named package under {@code scripts} (by their package line), by package. */
    static Map<String, List<Path>> packages(Path scripts) throws IOException {
        Map<String, List<Path>> packages = new TreeMap<>();
        try (Stream<Path> files = Files.walk(scripts)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                if (scripts.relativize(file).getNameCount() != 2) continue; // a package is a folder of scripts/; deeper ones are servers
                Matcher m = PACKAGE.matcher(Files.readString(file));
                if (m.find()) packages.computeIfAbsent(m.group(1), k -> new ArrayList<>()).add(file);
            }
        }
        return packages;
    }

    /** Compiles {@code files} into {@code out} with {@code below} and the libraries only; javac's errors, or "". */
    static String compile(List<Path> files, List<Path> below, Path out) throws IOException {
        Files.createDirectories(out);
        List<String> path = new ArrayList<>(below.stream().map(Path::toString).toList());
        path.addAll(libraries());
        Path noSources = Files.createDirectories(out.resolveSibling(out.getFileName() + "-no-sources"));
        List<String> args = new ArrayList<>(List.of("-proc:none", "-implicit:none", "-nowarn", "-Xlint:none", "-d", out.toString(),
                "-sourcepath", noSources.toString(), "-cp", String.join(File.pathSeparator, path)));
        files.forEach(f -> args.add(f.toString()));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        java.io.ByteArrayOutputStream said = new java.io.ByteArrayOutputStream();
        int status = javac.run(null, said, said, args.toArray(String[]::new));
        return status == 0 ? "" : said.toString(java.nio.charset.StandardCharsets.UTF_8).lines().filter(l -> l.contains("error:"))
                .limit(10).reduce("", (a, b) -> a + b + "\n");
    }

    /** This JVM's class path without the course's own classes: the libraries (JUnit, Jackson, picocli). */
    static List<String> libraries() {
        List<String> libraries = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (entry.isEmpty() || holdsCourseClasses(Path.of(entry))) continue;
            libraries.add(entry);
        }
        return libraries;
    }

    private static boolean holdsCourseClasses(Path entry) {
        if (Files.isDirectory(entry)) return Files.exists(entry.resolve("lib/Root.class"));
        try (java.util.jar.JarFile jar = new java.util.jar.JarFile(entry.toFile())) {
            return jar.getEntry("lib/Root.class") != null;
        } catch (IOException e) {
            return false;
        }
    }
}
