package test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;

/**
 * Suite's first step: the self-test shows each result as its program prints it, not when the
 * program ends, and two programs at once (SelfTest's lanes) each keep their section titles.
 */
final class Streaming {
    private Streaming() {}

    /**
     * A result is shown when its program prints it, not when the program ends: a program that
     * prints one, waits 3 s and prints another must have its first shown over 2 s before its second.
     */
    static void check(Suite suite) throws Exception {
        Path source = Files.createTempDirectory("suite").resolve("Emit.java");
        Files.writeString(source, "class Emit { public static void main(String[] a) throws Exception {"
                + " System.out.println(\"ok    first\"); Thread.sleep(3000); System.out.println(\"ok    second\"); } }");
        List<Long> shown = new ArrayList<>();
        Commands.follow(new ProcessBuilder(Suite.java(), source.toString()), suite.logs.resolve("streaming.log"), Duration.ofMinutes(1),
                line -> shown.add(System.nanoTime()));
        Files.delete(source);
        Files.delete(source.getParent());
        long apart = shown.size() == 2 ? TimeUnit.NANOSECONDS.toMillis(shown.get(1) - shown.get(0)) : 0;
        suite.outcomes.record("a result is passed on at once, not at the end of its program", apart >= 2000,
                shown.size() == 2 ? "the two results came " + apart + " ms apart, where the program printed them 3 s apart (held back)"
                        : "read " + shown.size() + " lines of 2");
        lanesKeepTitles(suite);
    }

    /**
     * Two programs at once, as SelfTest's lanes run, shown as they print: every result reads under
     * its own program's section title (shown again when the other program printed in between).
     * Lane A prints its title and a result, lane B its own, then each another result.
     */
    static void lanesKeepTitles(Suite suite) throws Exception {
        Path dir = Files.createTempDirectory("suite-lanes");
        Suite quiet = new Suite();
        quiet.root = suite.root;
        quiet.logs = dir;
        java.io.PrintStream saved = System.out;
        java.io.ByteArrayOutputStream seen = new java.io.ByteArrayOutputStream();
        try (var lanes = Executors.newVirtualThreadPerTaskExecutor()) {
            System.setOut(new java.io.PrintStream(seen, true, java.nio.charset.StandardCharsets.UTF_8));
            for (String lane : List.of("A", "B")) {
                Path source = dir.resolve("Lane" + lane + ".java");
                long first = lane.equals("A") ? 0 : 700;
                Files.writeString(source, "class Lane" + lane + " { public static void main(String[] a) throws Exception {"
                        + " Thread.sleep(" + first + "); System.out.println(\"== lane " + lane + "\"); System.out.println(\"ok    " + lane + "1\");"
                        + " Thread.sleep(1500); System.out.println(\"ok    " + lane + "2\"); System.out.println(\"2 passed, 0 failed\"); } }");
                lanes.submit(() -> {
                    quiet.program("lane " + lane, new ProcessBuilder(Suite.java(), source.toString()), Duration.ofMinutes(1));
                    return null;
                });
            }
        } finally {
            System.setOut(saved);
        }
        Trees.delete(dir);
        String title = "";
        List<String> misplaced = new ArrayList<>();
        List<String> results = new ArrayList<>();
        for (String line : seen.toString(java.nio.charset.StandardCharsets.UTF_8).lines().toList()) {
            if (line.startsWith("== ")) title = line.substring(3);
            Matcher m = Suite.OK.matcher(line);
            if (!m.matches()) continue;
            results.add(m.group(1));
            if (!title.equals("lane " + m.group(1).charAt(0))) misplaced.add(m.group(1) + " under '" + title + "'");
        }
        suite.outcomes.record("two programs at once: each result shows under its own section title", results.size() == 4 && misplaced.isEmpty(),
                results.size() != 4 ? "showed " + results + " of A1, A2, B1, B2" : "misplaced: " + misplaced);
    }
}
