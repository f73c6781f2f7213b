import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import lib.Chapters;
import lib.Frameworks;

/**
 * Self-tests run side by side ({@code SelfTest --share DIR}, as scripts/test/Suite.java runs its
 * lanes): grading mostly waits, so lanes side by side take less time (Suite.LANES says how much
 * here). Each part (a chapter, the independent
 * server, the framework servers) runs in the first lane to claim it: a file {@code DIR/part-ID},
 * made atomically. The first lane to join builds every server with JBang before any lane claims a
 * part: JBang (0.132) writes its dependency cache file in place, so two JBang processes that
 * resolve dependencies at once can leave it half-written for each other, which a fresh machine
 * would do. Each lane leaves its checks' times in {@code DIR/times-N.tsv} for the run that prints
 * the table of the slowest ({@code --times-from DIR}).
 */
public record Lanes(Path dir, int number) {
    /** How long a lane waits for the first to build: JBang's first build of Spring Boot fetches its jars. */
    public static final Duration BUILD_LIMIT = Duration.ofMinutes(30);

    /** Joins the lanes that share {@code dir}: this lane's number is the first free one, from 1. */
    public static Lanes join(Path dir) throws IOException {
        Files.createDirectories(dir);
        for (int n = 1; ; n++) {
            try {
                Files.createFile(dir.resolve("lane-" + n));
                return new Lanes(dir, n);
            } catch (FileAlreadyExistsException taken) {
                // the next
            }
        }
    }

    /** Whether this lane runs {@code part}: true for the first lane to ask. */
    public boolean claim(String part) throws IOException {
        try {
            Files.createFile(dir.resolve("part-" + part));
            return true;
        } catch (FileAlreadyExistsException taken) {
            return false;
        }
    }

    /** Says the servers are built (the first lane, whether or not every build worked: a part that needs a broken one says so). */
    public void built() throws IOException {
        Files.writeString(dir.resolve("built"), "");
    }

    /** Waits for the first lane's builds, at most {@link #BUILD_LIMIT}; false when it gave up. */
    public boolean awaitBuilt() throws InterruptedException {
        long end = System.nanoTime() + BUILD_LIMIT.toNanos();
        while (!Files.exists(dir.resolve("built"))) {
            if (System.nanoTime() > end) return false;
            Thread.sleep(200);
        }
        return true;
    }

    /**
     * Builds with {@code jbang build} (JBang's words), one at a time, a server of each set of
     * dependencies the parts start: each chapter's solution (its exercise and broken variants have
     * its dependencies), its tests without sockets, and the framework servers; {@code only} as
     * SelfTest's. Prints one line: how many, how long, and which did not build (a part that starts
     * one says why), their output in .results/selftest-build.log.
     */
    public void build(Path root, List<String> jbang, List<String> only) throws IOException, InterruptedException {
        java.util.Set<Path> files = new java.util.LinkedHashSet<>();
        for (Chapters.Chapter chapter : Chapters.graded(root).values()) {
            if (!only.isEmpty() && !only.contains(chapter.number())) continue;
            files.add(root.resolve("solutions").resolve(chapter.fileName()));
            WithoutSockets.testsFile(root, chapter).ifPresent(files::add);
        }
        if (only.isEmpty() || only.contains("frameworks")) {
            for (Frameworks.Entry e : Frameworks.race()) files.add(root.resolve(Frameworks.DIR).resolve(e.file()));
        }
        Path log = root.resolve(".results/selftest-build.log");
        Files.createDirectories(log.getParent());
        Files.deleteIfExists(log);
        long start = System.nanoTime();
        List<Path> failed = new ArrayList<>();
        for (Path file : files) {
            List<String> command = new ArrayList<>(jbang);
            command.add("build");
            command.add(file.toString());
            Process p = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).redirectInput(ProcessBuilder.Redirect.PIPE).start();
            p.getOutputStream().close();
            if (!p.waitFor(10, java.util.concurrent.TimeUnit.MINUTES)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                p.waitFor();
            }
            if (p.exitValue() != 0) failed.add(file);
        }
        System.out.println("(built " + files.size() + " servers with JBang, one at a time, in " + Math.round((System.nanoTime() - start) / 1e9)
                + " s, before the lanes share the parts" + (failed.isEmpty() ? "" : "; these did not build: "
                + failed.stream().map(f -> root.relativize(f).toString()).toList() + ", see " + root.relativize(log)) + ")");
    }

    /** Leaves {@code times} (check id: total ms, runs) in this lane's file. */
    public void saveTimes(Map<String, long[]> times) throws IOException {
        StringBuilder tsv = new StringBuilder();
        times.forEach((id, t) -> tsv.append(id).append('\t').append(t[0]).append('\t').append(t[1]).append('\n'));
        Files.writeString(dir.resolve("times-" + number + ".tsv"), tsv);
    }

    /** Adds every lane's times in {@code dir} to {@code times}. */
    public static void addTimes(Path dir, Map<String, long[]> times) throws IOException {
        if (!Files.isDirectory(dir)) return;
        try (var files = Files.list(dir)) {
            for (Path file : files.filter(f -> f.getFileName().toString().matches("times-\\d+\\.tsv")).sorted().toList()) {
                for (String line : Files.readAllLines(file)) {
                    String[] f = line.split("\t");
                    if (f.length != 3) continue;
                    long[] sum = times.computeIfAbsent(f[0], k -> new long[2]);
                    sum[0] += Long.parseLong(f[1]);
                    sum[1] += Long.parseLong(f[2]);
                }
            }
        }
    }
}
