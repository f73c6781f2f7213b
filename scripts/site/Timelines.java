///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
//SOURCES ../checks/Grade.java ../lib/Mutants.java

package site;

import checks.Grade;
import checks.Recorder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import lib.Chapters;
import lib.Mutants;
import lib.Root;
import lib.Subject;

/**
 * Records the timelines the chapter pages draw (site/static/timeline/): for each check below,
 * the reference solution's, and the untouched exercise's or a known-broken variant's (from
 * scripts/test/spoilers/NN.txt), in which the chapter's mistake shows. Each is one grading of
 * that check alone with --timeline ({@link Recorder}), on this machine; run it after changing a
 * chapter's check, solution or exercise, on a quiet machine:
 * {@code jbang scripts/site/Timelines.java [NN ...]}.
 */
public final class Timelines {
    /** A picture: chapter, check, and the servers recorded: "solution", "exercise", or a broken variant's name. */
    record Picture(String chapter, String check, List<String> servers) {}

    static final List<Picture> PICTURES = List.of(
            new Picture("02", "ch02.releasesIdle", List.of("solution", "keeps-idle-connections")),
            new Picture("04", "ch04.spread", List.of("solution", "exercise")),
            new Picture("05", "ch05.noPinning", List.of("solution", "serves-below-a-native-frame")),
            new Picture("06", "ch06.ioFlood", List.of("solution", "exercise")),
            new Picture("08", "ch08.failFast", List.of("solution", "joins-without-cancelling")));

    public static void main(String[] args) throws Exception {
        Path root = Root.find();
        List<String> only = List.of(args);
        Path out = root.resolve("site/static/timeline");
        Files.createDirectories(out);
        int failed = 0;
        for (Picture p : PICTURES) {
            if (!only.isEmpty() && !only.contains(p.chapter())) continue;
            for (String server : p.servers()) {
                Path made = record(root, p, server);
                if (made == null) {
                    failed++;
                    continue;
                }
                Path kept = out.resolve(p.chapter() + "-" + p.check() + "-" + server + ".json");
                Files.copy(made, kept, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                Files.delete(made);
                Files.delete(made.getParent());
                System.out.println("timelines: " + root.relativize(kept));
            }
        }
        System.exit(failed == 0 ? 0 : 1);
    }

    /** Grades {@code p}'s check alone on {@code server} with a recording; the file it wrote, or null. */
    static Path record(Path root, Timelines.Picture p, String server) throws Exception {
        Chapters.Chapter chapter = Chapters.graded(root).get(p.chapter());
        Subject subject = switch (server) {
            case "solution" -> new Subject.Solution();
            case "exercise" -> new Subject.Exercise();
            default -> new Subject.File(broken(root, chapter, server));
        };
        Path dir = Files.createTempDirectory("timelines-");
        Grade grade = new Grade(new Grade.Options(root, Grade.JBANG, subject, false, false, System.out, List.of(p.check()), null, dir));
        grade.grade(chapter);
        Path made = dir.resolve(new Recorder.Request(root, dir, p.chapter(), List.of(), "", subject.word()).name(p.check()) + ".json");
        if (!Files.isRegularFile(made)) {
            System.err.println("timelines: " + p.chapter() + " " + server + ": no timeline was written (see the grading above)");
            return null;
        }
        return made;
    }

    /** The solution with the broken variant {@code name} of scripts/test/spoilers/NN.txt made, in .broken/. */
    static Path broken(Path root, Chapters.Chapter chapter, String name) throws Exception {
        Map<String, Mutants.Mutant> all = Mutants.read(root.resolve("scripts/test/spoilers/" + chapter.number() + ".txt"), line -> line.startsWith("todo "));
        Mutants.Mutant mutant = all.get(name);
        if (mutant == null) throw new IllegalArgumentException("chapter " + chapter.number() + " has no broken variant " + name);
        String source = Files.readString(root.resolve("solutions/" + chapter.fileName()));
        for (Mutants.Replacement r : mutant.replacements()) {
            if (!r.file().isEmpty()) throw new IllegalArgumentException(name + " changes " + r.file() + " too; pick a variant of the solution alone");
            source = r.applyTo(source);
            if (source == null) throw new IllegalStateException(name + ": a replacement no longer matches the solution");
        }
        Path dir = Files.createDirectories(root.resolve(".broken"));
        Path file = dir.resolve(chapter.fileName().replace(".java", "-" + name + ".java"));
        Files.writeString(file, source);
        return file;
    }
}
