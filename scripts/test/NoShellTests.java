package test;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The catalog's aliases (jbang-catalog.json) as a machine with no shell runs them: a PATH that
 * holds only java, and JBang run by scripts/tools/jbang/JBang.java (a launcher in Java, which
 * runs JBang's jar and the command it prints) instead of JBang's bash script; each from another
 * folder of the course. jbang check, doctor, handin, room FOLDER, room serve with handin --to,
 * and bench --smoke. The no-shell tier: {@code jbang scripts/test/Units.java . --tags no-shell}.
 */
@Tag(Units.NO_SHELL)
class NoShellTests {
    static Path root;
    /** A folder holding java alone, the PATH of every command here. */
    static Path bin;

    @BeforeAll
    static void shellless(@TempDir Path dir) throws Exception {
        root = Path.of(System.getProperty("course.root", ".")).toAbsolutePath().normalize();
        bin = Files.createDirectories(dir.resolve("bin"));
        Files.createSymbolicLink(bin.resolve("java"), Path.of(System.getProperty("java.home"), "bin", "java"));
        try (Stream<Path> inBin = Files.list(bin)) {
            assertTrue(inBin.noneMatch(p -> p.getFileName().toString().matches("(ba)?sh")), "the shell-less PATH holds a shell: " + bin);
        }
    }

    @Test
    @DisplayName("jbang check 01 --solution from exercises/, no shell: every check passes")
    void check() throws Exception {
        Run check = run(root.resolve("exercises"), "check", "01", "--solution");
        assertTrue(check.status == 0 && check.out.contains(" 0 failed") && check.out.contains("chapter 01 done"), check.said());
    }

    @Test
    @DisplayName("jbang doctor from site/, no shell: finds JBang through the Java launcher, reports Asciidoctor missing, exits 2")
    void doctor() throws Exception {
        // Only java on PATH: the doctor must find JBang through the Java launcher, and say Asciidoctor is missing.
        Run doctor = run(root.resolve("site"), "doctor");
        assertTrue(doctor.status == 2 && Pattern.compile("ok +jbang .*JBang\\.java").matcher(doctor.out).find()
                && Pattern.compile("missing +asciidoctor").matcher(doctor.out).find(), doctor.said());
    }

    @Test
    @DisplayName("jbang handin ada and jbang room FOLDER from scripts/, no shell: a hand-in, and its summary")
    void handinAndSummary(@TempDir Path room, @TempDir Path dir) throws Exception {
        Path learner = learner(dir);
        Run handin = run(root.resolve("scripts"), "handin", "ada", "--root", learner.toString(), "--out", room.toString());
        Run summary = run(root.resolve("scripts"), "room", room.toString());
        Path page = room.resolve("room.html");
        assertTrue(handin.status == 0 && Files.exists(room.resolve("ada.json")) && summary.status == 0
                && Files.exists(page) && Files.readString(page).contains("1 learner(s)"), handin.said() + " / " + summary.said());
    }

    @Test
    @DisplayName("jbang room serve and jbang handin ada --to URL, no shell: the live room keeps the hand-in")
    void liveRoom(@TempDir Path dir) throws Exception {
        // The launcher's JVM stops the room it started when it is stopped.
        Path learner = learner(dir);
        Path log = dir.resolve("serve.log");
        Process serve = command(root, "room", "serve", "--port", "0", "--dir", dir.resolve("live").toString(), "--code", "sesame")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            String url = null;
            Pattern line = Pattern.compile("^room: learners run once: scripts/handin.sh NAME --to (http://\\S+)", Pattern.MULTILINE);
            for (int i = 0; i < 300 && url == null && serve.isAlive(); i++) {
                Matcher m = line.matcher(Files.readString(log));
                if (m.find()) url = m.group(1);
                else Thread.sleep(100);
            }
            assertTrue(url != null, () -> "no address in 30 s: " + read(log));
            Run sent = run(root, "handin", "ada", "--root", learner.toString(), "--to", url, "--code", "sesame");
            assertTrue(sent.status == 0 && Files.exists(dir.resolve("live/ada.json")), () -> sent.said() + " (the room said: " + read(log) + ")");
        } finally {
            Commands.stop(serve);
        }
    }

    @Test
    @DisplayName("jbang bench 03 --smoke from scripts/, no shell: finds Bombardier in .tools/bin and races")
    void bench(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("bench-03.json");
        Run bench = run(root.resolve("scripts"), "bench", "03", "--smoke", "--out", json.toString());
        assertTrue(bench.status <= 1 && bench.status >= 0 && Files.exists(json)
                && Pattern.compile("\"bombardier\" *: *\"bombardier version").matcher(Files.readString(json)).find(), bench.said());
    }

    /** A learner's copy in {@code dir}: its results (scripts/test/fixtures/room/ada-results), to hand in. */
    static Path learner(Path dir) throws java.io.IOException {
        Path learner = dir.resolve("learner");
        Trees.copy(root.resolve("scripts/test/fixtures/room/ada-results"), learner.resolve(".results"));
        return learner;
    }

    /** How a command ended: its exit status (-1: it did not end in 5 minutes) and its output. */
    record Run(int status, String out) {
        String said() {
            List<String> lines = out.lines().toList();
            return "exit " + status + ": " + String.join(" ", lines.subList(Math.max(0, lines.size() - 3), lines.size()));
        }
    }

    /** Runs alias {@code args} from folder {@code cwd} as a machine with no shell would, to its end. */
    static Run run(Path cwd, String... args) throws Exception {
        Path log = Files.createTempFile("no-shell", ".log");
        try {
            Commands.Ended ended = Commands.run(command(cwd, args), log, java.time.Duration.ofMinutes(5));
            return new Run(ended.status(), ended.output());
        } finally {
            Files.deleteIfExists(log);
        }
    }

    /** What a log holds, or why it cannot be read. */
    static String read(Path log) {
        try {
            return Files.readString(log).strip();
        } catch (java.io.IOException e) {
            return "(" + e.getMessage() + ")";
        }
    }

    /**
     * The command: folder {@code bin} (java alone) as PATH, JBang run by its Java launcher, and an
     * environment cleared but for what JBang and the leftover check need.
     */
    static ProcessBuilder command(Path cwd, String... args) {
        List<String> command = new ArrayList<>(List.of(bin.resolve("java").toString(), root.resolve("scripts/tools/jbang/JBang.java").toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).directory(cwd.toFile());
        Map<String, String> env = pb.environment();
        Map<String, String> kept = new java.util.HashMap<>();
        for (String name : List.of("HOME", "COURSE_TEST_RUN", "JBANG_DIR", "JBANG_REPO", "COURSE_TOOLS_DIR")) {
            String value = System.getenv(name);
            if (value != null && !value.isEmpty()) kept.put(name, value);
        }
        env.clear();
        env.putAll(kept);
        env.put("PATH", bin.toString());
        env.put("JAVA_HOME", System.getProperty("java.home"));
        return pb;
    }
}
