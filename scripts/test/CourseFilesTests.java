package test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import checks.Grade;
import checks.GradeCommand;
import contract.CheckList;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import lib.Chapters;
import lib.Cli;
import lib.CommandError;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What each chapter's file includes from the kit, and that the kit's copy of an answer matches its chapter. */
@Tag("unit")
public class CourseFilesTests {
    static final Path ROOT = Path.of(System.getProperty("course.root", "."));

    /** The kit files each graded chapter includes beyond kit/Kit.java (the HTTP basics), from the registry. */
    static Map<String, List<String>> extraKit() {
        Map<String, List<String>> extra = new TreeMap<>();
        Chapters.graded(ROOT).forEach((n, c) -> extra.put(n, c.kit()));
        return extra;
    }

    /** Every file a JBang script names on its //SOURCES lines, as written. */
    static List<String> sources(Path file) throws IOException {
        List<String> all = new ArrayList<>();
        for (String line : Files.readAllLines(file)) {
            if (line.startsWith("//SOURCES ")) all.addAll(List.of(line.substring(10).strip().split("\\s+")));
        }
        return all;
    }

    /** Chapter number to file, for exercises/ or solutions/. */
    static Map<String, Path> chapterFiles(String dir) throws IOException {
        Map<String, Path> files = new TreeMap<>();
        try (Stream<Path> list = Files.list(ROOT.resolve(dir))) {
            list.filter(p -> p.getFileName().toString().matches("\\d\\d-.*\\.java"))
                    .forEach(p -> files.put(p.getFileName().toString().substring(0, 2), p));
        }
        return files;
    }

    /** A command whose work fails in a way no course code foresaw. */
    @picocli.CommandLine.Command(name = "boom")
    static final class Boom implements java.util.concurrent.Callable<Integer> {
        @Override
        public Integer call() {
            throw new IllegalStateException("exercises/03-reactor.java vanished\n\tsecond line");
        }
    }

    @Test
    @DisplayName("every command: an exception it did not foresee is one sentence and exit 2 (could not run), not a stack trace and 1 (checks failed)")
    void unexpectedIsOneSentence() {
        java.io.PrintStream before = System.err;
        java.io.ByteArrayOutputStream text = new java.io.ByteArrayOutputStream();
        int status;
        try {
            System.setErr(new java.io.PrintStream(text, true, java.nio.charset.StandardCharsets.UTF_8));
            status = Cli.run("check", new Boom(), new String[0]);
        } finally {
            System.setErr(before);
        }
        String said = text.toString(java.nio.charset.StandardCharsets.UTF_8);
        String sentence = "check: stopped on an unexpected IllegalStateException (exercises/03-reactor.java vanished); run it again with COURSE_DEBUG=1";
        assertEquals(2, status, said);
        assertTrue(said.startsWith(sentence), said); // scripts/test.sh sets COURSE_DEBUG=1, so a trace may follow
        // Without COURSE_DEBUG: the sentence alone; with it, the stack trace after it.
        java.io.StringWriter plain = new java.io.StringWriter(), debug = new java.io.StringWriter();
        Exception e = new IllegalStateException("exercises/03-reactor.java vanished\n\tsecond line");
        assertEquals(2, Cli.unexpected("check", e, new java.io.PrintWriter(plain), false));
        assertEquals(1, plain.toString().lines().count(), plain.toString());
        assertTrue(plain.toString().startsWith(sentence), plain.toString());
        assertEquals(2, Cli.unexpected("check", e, new java.io.PrintWriter(debug), true));
        assertTrue(debug.toString().lines().skip(1).anyMatch(l -> l.strip().startsWith("at " + CourseFilesTests.class.getName() + ".")), debug.toString());
    }

    @Test
    @DisplayName("README: its chapter table has one row per chapter of the registry, in order, with the registry's model, the exercise that exists (the showdown: its race), and a page for each")
    void readmeChapterTable() throws IOException {
        java.util.regex.Pattern row = java.util.regex.Pattern.compile("^\\| (\\d\\d) \\| ([^|]+?) \\| `([^`]+)` \\| .+ \\|$");
        Map<String, List<String>> readme = new java.util.LinkedHashMap<>();
        for (String line : Files.readAllLines(ROOT.resolve("README.md"))) {
            var m = row.matcher(line);
            if (m.matches()) readme.put(m.group(1), List.of(m.group(2).strip(), m.group(3)));
        }
        Map<String, Chapters.Chapter> registry = Chapters.read(ROOT);
        assertEquals(List.copyOf(registry.keySet()), List.copyOf(readme.keySet()),
                "README.md's chapter table and site/data/course.json list different chapters (or another order)");
        for (Chapters.Chapter c : registry.values()) {
            List<String> cells = readme.get(c.number());
            String model = c.graded() ? c.model() : c.title();
            assertEquals(model, cells.get(0), "README.md's row " + c.number() + " names another model than course.json");
            String exercise = c.graded() ? "exercises/" + c.fileName() : "scripts/bench.sh --all";
            assertEquals(exercise, cells.get(1), "README.md's row " + c.number() + " names another file than the chapter's");
            if (c.graded()) assertTrue(Files.isRegularFile(ROOT.resolve(exercise)), exercise + " is missing");
            assertTrue(Files.isRegularFile(ROOT.resolve("site/content/" + c.page() + ".adoc")), "chapter " + c.number() + " has no page, site/content/" + c.page() + ".adoc");
        }
    }

    @Test
    @DisplayName("grader: every check class the registry names is compiled into the grader (Grade.java's //SOURCES)")
    void everyCheckClassIsCompiled() throws IOException {
        List<String> compiled = sources(ROOT.resolve("scripts/checks/Grade.java"));
        for (Chapters.Chapter c : Chapters.graded(ROOT).values()) {
            String checks = c.checks().orElse(null);
            if (checks == null) continue;
            assertTrue(compiled.contains(checks + ".java"), "chapter " + c.number() + "'s checks, " + checks + ", are not on Grade.java's //SOURCES: "
                    + "the grader would fail only when it grades that chapter");
        }
    }

    @Test
    @DisplayName("grader: the list of checks (scripts/checks/checks.json) is the check classes', in their order, titles and steps")
    void checkListAgrees() throws IOException {
        String made = Grade.checkList(Chapters.graded(ROOT).values()).text();
        assertEquals(made, Files.readString(ROOT.resolve(CheckList.FILE)), CheckList.FILE + " is not the check classes' list: run jbang scripts/checks/ListChecks.java");
        assertEquals(made, CheckList.read(ROOT).text(), "the list does not read back as it was written");
    }

    @Test
    @DisplayName("room: jbang room and jbang handin compile without JUnit or any check class (they read the list of checks)")
    void roomWithoutJunit() throws IOException {
        for (String entry : List.of("scripts/room/RoomCommand.java", "scripts/room/Handin.java")) {
            java.util.Set<Path> seen = new java.util.LinkedHashSet<>();
            java.util.Deque<Path> next = new java.util.ArrayDeque<>(List.of(ROOT.resolve(entry).normalize()));
            List<String> deps = new ArrayList<>();
            while (!next.isEmpty()) {
                Path f = next.pop();
                if (!seen.add(f)) continue;
                for (String line : Files.readAllLines(f)) if (line.startsWith("//DEPS ")) deps.add(line.substring(7).strip());
                for (String source : sources(f)) next.push(f.resolveSibling(source).normalize());
            }
            assertTrue(deps.stream().noneMatch(d -> d.contains("junit")), entry + " compiles with JUnit: " + deps);
            List<String> checks = seen.stream().map(f -> f.getFileName().toString())
                    .filter(n -> n.matches("Grade\\.java|Runner\\.java|Check\\.java|.*Checks\\.java")).toList();
            assertTrue(checks.isEmpty(), entry + " compiles check classes: " + checks);
            assertTrue(seen.size() > 5, entry + ": its //SOURCES were not followed (" + seen + ")");
        }
    }

    @Test
    @DisplayName("code: every //DEPS artifact has one version across the tree (a version bump is one edit in each file, and a test names any file left behind)")
    void oneVersionPerDependency() throws IOException {
        Map<String, Map<String, List<String>>> versions = new TreeMap<>(); // group:artifact -> version -> files
        for (String dir : List.of("scripts", "exercises", "solutions")) {
            try (Stream<Path> all = Files.walk(ROOT.resolve(dir))) {
                for (Path f : all.filter(p -> p.toString().endsWith(".java")).toList()) {
                    for (String line : Files.readAllLines(f)) {
                        if (!line.startsWith("//DEPS ")) continue;
                        for (String dep : line.substring(7).strip().split("\\s+")) {
                            String[] parts = dep.replaceFirst("@.*$", "").split(":");
                            if (parts.length < 3) continue;
                            versions.computeIfAbsent(parts[0] + ":" + parts[1], k -> new TreeMap<>())
                                    .computeIfAbsent(parts[2], k -> new ArrayList<>()).add(ROOT.relativize(f).toString());
                        }
                    }
                }
            }
        }
        assertFalse(versions.isEmpty(), "no //DEPS line found under " + ROOT);
        for (var e : versions.entrySet()) {
            assertEquals(1, e.getValue().size(), e.getKey() + " is named at more than one version: " + e.getValue());
        }
    }

    @Test
    @DisplayName("kit: Kit.java gives every chapter the HTTP basics and no chapter's answer")
    void kitHoldsNoAnswer() throws IOException {
        List<String> basics = sources(ROOT.resolve("exercises/kit/Kit.java"));
        for (String answer : List.of("BlockingHttp", "EventLoop", "NativeFrame", "NettyHttp")) {
            assertFalse(basics.stream().anyMatch(s -> s.contains(answer)), "kit/Kit.java includes " + answer + ": " + basics);
        }
    }

    @Test
    @DisplayName("kit: each exercise includes kit/Kit.java and only the kit files its registry entry names")
    void exercisesIncludeWhatTheyNeed() throws IOException {
        Map<String, Path> exercises = chapterFiles("exercises");
        Map<String, List<String>> extra = extraKit();
        assertEquals(extra.keySet(), exercises.keySet(), "chapters with an exercise, and graded chapters in " + Chapters.FILE);
        for (var e : exercises.entrySet()) {
            List<String> expected = new ArrayList<>(List.of("kit/Kit.java"));
            expected.addAll(extra.get(e.getKey()));
            assertEquals(expected, sources(e.getValue()), "//SOURCES of " + ROOT.relativize(e.getValue()));
        }
    }

    @Test
    @DisplayName("kit: each solution includes exactly what its exercise includes")
    void solutionsIncludeTheSame() throws IOException {
        Map<String, Path> exercises = chapterFiles("exercises");
        for (var e : chapterFiles("solutions").entrySet()) {
            List<String> expected = sources(exercises.get(e.getKey())).stream().map(s -> "../exercises/" + s).toList();
            assertEquals(expected, sources(e.getValue()), "//SOURCES of " + ROOT.relativize(e.getValue()));
        }
    }

    @Test
    @DisplayName("kit: the event loop in kit/chapter-03/EventLoop.java is chapter 03's solution, line for line")
    void sameAsChapter03() throws IOException {
        String solution = normalize(Files.readString(ROOT.resolve("solutions/03-reactor.java")))
                .replace("Loop", "EventLoop").replace("Connection", "ReactorConnection");
        String kit = normalize(Files.readString(ROOT.resolve("exercises/kit/chapter-03/EventLoop.java")))
                .replace("            eachTurn.run();\n", "");
        for (String member : List.of("void run() throws IOException {", "void schedule(long millis, Runnable task) {",
                "private void runDueTimers() {", "private SocketChannel acceptOrPause(SelectionKey key) {",
                "final class ReactorConnection {")) {
            assertEquals(block(solution, member), block(kit, member),
                    "'" + member + "' differs between solutions/03-reactor.java and kit/chapter-03/EventLoop.java: change both");
        }
    }

    @Test
    @DisplayName("kit: the connection in kit/chapter-06/HybridConnection.java is chapter 06's solution, line for line")
    void sameAsChapter06() throws IOException {
        String solution = normalize(Files.readString(ROOT.resolve("solutions/06-netty-hybrid.java")));
        String kit = normalize(Files.readString(ROOT.resolve("exercises/kit/chapter-06/HybridConnection.java")));
        // Where slow work runs is the subclass's (start), so accept differs; the rest is chapter 06's answer.
        for (String member : List.of("public void channelRead(", "private static Response perform(", "private void finish(",
                "private void updateReading(", "public void channelWritabilityChanged(", "public void userEventTriggered(",
                "public void exceptionCaught(", "private static final class Slot {")) {
            assertEquals(block(solution, member), block(kit, member),
                    "'" + member + "' differs between solutions/06-netty-hybrid.java and kit/chapter-06/HybridConnection.java: change both");
        }
    }

    /** Drops tag lines, which only the solution has (the pages include its regions). */
    static String normalize(String source) {
        return source.lines().filter(l -> !l.strip().matches("// (tag|end)::[a-z0-9-]+\\[]")).reduce("", (a, l) -> a + l + "\n");
    }

    /** The text from the line that contains {@code start} to its matching closing brace. */
    static String block(String source, String start) {
        int at = source.indexOf(start);
        assertTrue(at >= 0, "no '" + start + "' found");
        assertEquals(-1, source.indexOf(start, at + 1), "'" + start + "' occurs twice");
        return blockAt(source, at);
    }

    /** The text from the line that holds index {@code at} to the brace that closes the first one after it. */
    static String blockAt(String source, int at) {
        int from = source.lastIndexOf('\n', at) + 1;
        int depth = 0;
        for (int i = at; i < source.length(); i++) {
            char c = source.charAt(i);
            if (c == '{') depth++;
            if (c == '}' && --depth == 0) return source.substring(from, i + 1);
        }
        throw new AssertionError("no closing brace after: " + source.substring(from, Math.min(source.length(), from + 80)));
    }

    @Test
    @DisplayName("code: no exercise, solution or kit file swallows InterruptedException")
    void interruptsAreKept() throws IOException {
        List<String> swallowed = new ArrayList<>();
        try (Stream<Path> files = Stream.concat(Files.walk(ROOT.resolve("exercises")), Files.walk(ROOT.resolve("solutions")))) {
            for (Path file : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                String source = Files.readString(file);
                java.util.regex.Matcher m = java.util.regex.Pattern.compile("catch \\([^)]*InterruptedException[^)]*\\) \\{").matcher(source);
                while (m.find()) {
                    String body = blockAt(source, m.end() - 1);
                    if (!body.contains("interrupt()") && !body.contains("throw ") && !body.contains("return")) {
                        swallowed.add(ROOT.relativize(file) + ": " + body.lines().findFirst().orElse("").strip());
                    }
                }
            }
        }
        assertEquals(List.of(), swallowed, "catch blocks that neither restore the interrupt, rethrow, nor end the thread's work");
    }

    /** Statements a review found wrong, each with why; none may come back in a page or a course file. */
    static final Map<String, String> ERRATA = Map.of(
            "not safe to share between threads", "a Selector is thread-safe; its key sets and each connection's state are not",
            "chapter 04 fixes it", "chapter 04 confines a CPU stall to one loop; chapter 06 moves the work off the loop",
            "chapter 02 kept in a", "chapter 02 keeps no per-thread context",
            "Any model with backpressure", "the blocking models have backpressure for free; it is not a property of 03, 04 and 06 alone",
            "skipNBytes(in.available())", "available() misses bytes still on their way: close gently (BlockingHttp.answerAndClose)",
            "event loops (one per core by default)", "Netty's default group has two loops per core");

    @Test
    @DisplayName("text: no page or course file repeats a statement a review found wrong")
    void noKnownErrata() throws IOException {
        List<String> found = new ArrayList<>();
        for (String dir : List.of("site/content", "exercises", "solutions")) {
            try (Stream<Path> files = Files.walk(ROOT.resolve(dir))) {
                for (Path file : files.filter(p -> p.toString().matches(".*\\.(adoc|java)")).toList()) {
                    String text = Files.readString(file);
                    ERRATA.forEach((wrong, why) -> {
                        if (text.contains(wrong)) found.add(ROOT.relativize(file) + ": '" + wrong + "' (" + why + ")");
                    });
                }
            }
        }
        assertEquals(List.of(), found, "statements found wrong before");
    }

    /** What bash 3.2 (macOS's /bin/bash) cannot run, and GNU-only flags; each with what to write instead. */
    static final Map<java.util.regex.Pattern, String> NOT_PORTABLE = Map.ofEntries(
            rule("\\$\\{[A-Za-z_][A-Za-z_0-9]*(\\^\\^|,,|\\^|,)\\}", "case changes in ${x^^} or ${x,,} (bash 4): use tr"),
            rule("\\b(declare|local|typeset) -[a-zA-Z]*[An]", "associative arrays and namerefs (bash 4)"),
            rule("\\b(mapfile|readarray)\\b", "mapfile/readarray (bash 4): a while read loop"),
            rule("\\|&|&>>", "|& and &>> (bash 4): 2>&1 |, >> f 2>&1"),
            rule("\\[\\[ -v ", "[[ -v (bash 4.2): ${x+set}"),
            rule("\\[-[0-9]+\\]}", "negative array indices (bash 4.3)"),
            rule("\\bwait -n\\b", "wait -n (bash 4.3)"),
            rule("(^|[;&|(!]\\s*|\\$\\(\\s*)timeout ", "timeout (GNU coreutils; not on macOS)"),
            rule("\\bsed -i( |$)", "sed -i without a suffix (BSD sed takes the next word as one)"),
            rule("\\breadlink -f\\b", "readlink -f (GNU)"),
            rule("\\bdate \\+%N|%N", "date +%N (GNU)"),
            rule("\\bstat -c\\b", "stat -c (GNU; BSD stat takes -f)"),
            rule("\\bgrep -[a-zA-Z]*P", "grep -P (GNU)"));

    private static Map.Entry<java.util.regex.Pattern, String> rule(String regex, String instead) {
        return Map.entry(java.util.regex.Pattern.compile(regex), instead);
    }

    @Test
    @DisplayName("the learner's scripts run on macOS's bash 3.2 and BSD tools: no bash 4 syntax, no GNU-only flag without a fallback on its line")
    void portableShell() throws IOException {
        List<String> found = new ArrayList<>();
        try (Stream<Path> scripts = Files.list(ROOT.resolve("scripts"))) {
            for (Path script : scripts.filter(p -> p.toString().endsWith(".sh")).sorted().toList()) {
                if (script.getFileName().toString().equals("test.sh")) continue; // the self-test runs on CI's Linux only
                List<String> lines = Files.readAllLines(script);
                for (int i = 0; i < lines.size(); i++) {
                    String line = lines.get(i).strip();
                    if (line.startsWith("#")) continue;
                    for (var rule : NOT_PORTABLE.entrySet()) {
                        boolean gnu = rule.getValue().contains("GNU") || rule.getValue().contains("BSD");
                        if (rule.getKey().matcher(line).find() && !(gnu && line.contains("||"))) {
                            found.add(ROOT.relativize(script) + ":" + (i + 1) + ": " + rule.getValue() + ": " + line);
                        }
                    }
                }
            }
        }
        assertTrue(found.isEmpty(), String.join("\n", found));
        assertTrue(NOT_PORTABLE.keySet().stream().anyMatch(p -> p.matcher("var=\"${name^^}\"").find()), "the lint must see ${name^^}");
    }

    @Test
    @DisplayName("setup.sh puts the JBang it installed where a new shell finds it: a launcher in ~/.local/bin, the PATH line once in ~/.bashrc; a jbang of the learner's own is left alone")
    void jbangOnPath(@TempDir Path dir) throws Exception {
        Path tools = Files.createDirectories(dir.resolve("tools"));
        Files.createDirectories(tools.resolve("bin"));
        Files.writeString(tools.resolve("bin/jbang"), "#!/bin/sh\necho fake-jbang \"$@\"\n");
        tools.resolve("bin/jbang").toFile().setExecutable(true);
        String twice = "source scripts/setup.sh; JBANG=\"$TOOLS/bin/jbang\"; put_jbang_on_path; put_jbang_on_path; PATH=\"$HOME/.local/bin:$PATH\" jbang version";
        // Neither ~/.local/bin nor ~/bin on the PATH: a launcher, and ~/.bashrc adds the folder once.
        Path home = Files.createDirectories(dir.resolve("home"));
        String said = shell(home, tools, "/usr/bin:/bin", twice);
        assertTrue(said.contains("fake-jbang version") && said.contains("export PATH=\"$HOME/.local/bin:$PATH\""), said);
        String rc = Files.readString(home.resolve(".bashrc"));
        assertEquals(1, rc.split("added by the course", -1).length - 1, rc);
        // ~/.local/bin on the PATH already: the launcher only, no rc file touched.
        Path onPath = Files.createDirectories(dir.resolve("home-on-path"));
        Files.createDirectories(onPath.resolve(".local/bin"));
        said = shell(onPath, tools, onPath.resolve(".local/bin") + ":/usr/bin:/bin", twice);
        assertTrue(said.contains("fake-jbang version") && !Files.exists(onPath.resolve(".bashrc")), said);
        // The learner's own jbang in ~/.local/bin (not on the PATH): left as it was, and setup says what to type instead.
        Path own = Files.createDirectories(dir.resolve("home-own-jbang"));
        Files.createDirectories(own.resolve(".local/bin"));
        Files.writeString(own.resolve(".local/bin/jbang"), "#!/bin/sh\necho own-jbang\n");
        said = shell(own, tools, "/usr/bin:/bin", "source scripts/setup.sh; JBANG=\"$TOOLS/bin/jbang\"; put_jbang_on_path; echo status=$?");
        assertTrue(said.contains("status=1") && said.contains("left alone") && Files.readString(own.resolve(".local/bin/jbang")).contains("own-jbang"), said);
    }

    @Test
    @DisplayName("every command the pages print names a course file or JBang alias that exists, and each check.sh line is one the grader reads")
    void pageCommands() throws Exception {
        List<PageCommands.Command> commands = PageCommands.read(ROOT);
        assertTrue(commands.size() > 50, "the pages' commands were not found: " + commands.size());
        java.util.Set<String> aliases = new java.util.TreeSet<>();
        java.util.regex.Matcher alias = java.util.regex.Pattern.compile("\"jbang-([a-z]+)\"\\s*:").matcher(Files.readString(ROOT.resolve("jbang-catalog.json")));
        while (alias.find()) aliases.add(alias.group(1));
        java.util.Set<String> graded = Chapters.graded(ROOT).keySet();
        List<String> wrong = new ArrayList<>();
        for (PageCommands.Command c : commands) {
            String where = c.page() + ": " + c.line() + ": ";
            if (c.program().equals("jbang")) {
                String what = c.args().isEmpty() ? "" : c.args().get(0);
                if (what.endsWith(".java") ? !Files.isRegularFile(ROOT.resolve(what)) : !what.equals("jdk") && !aliases.contains(what)) {
                    wrong.add(where + "no " + what);
                }
                continue;
            }
            if (!Files.isExecutable(ROOT.resolve(c.program()))) wrong.add(where + "no " + c.program());
            if (c.program().equals("scripts/check.sh")) {
                String problem = gradeProblem(c.args(), graded);
                if (problem != null) wrong.add(where + problem);
            }
        }
        assertTrue(wrong.isEmpty(), String.join("\n", wrong));
        // Able to fail: a misspelt option, and a chapter that does not exist.
        assertTrue(gradeProblem(List.of("03", "--wach"), graded) != null && gradeProblem(List.of("07"), graded) != null);
    }

    /** Why the grader would refuse these words as they are, before it grades anything; null when it reads them. */
    private static String gradeProblem(List<String> args, java.util.Set<String> graded) {
        GradeCommand command = new GradeCommand();
        try {
            new picocli.CommandLine(command).parseArgs(args.toArray(String[]::new));
            command.server.subject();
        } catch (picocli.CommandLine.ParameterException | CommandError e) {
            return e.getMessage();
        }
        for (String n : command.chapters) {
            if (!graded.contains(n.length() == 1 ? "0" + n : n)) return "no graded chapter " + n;
        }
        return command.chapters.isEmpty() && !command.all ? "no chapter" : null;
    }

    /** Runs bash -c {@code script} in the course's folder with only HOME, PATH and the tools folder set; its output and errors together. */
    private static String shell(Path home, Path tools, String path, String script) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", script).directory(ROOT.toFile()).redirectErrorStream(true);
        pb.environment().clear();
        pb.environment().putAll(Map.of("HOME", home.toString(), "PATH", path, "COURSE_TOOLS_DIR", tools.toString(), "SHELL", "/bin/bash"));
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes());
        p.waitFor();
        return out;
    }
}
