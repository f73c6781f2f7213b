package test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Folders the tests copy and remove whole: a fixture into a temporary course, a temporary folder at the end. */
public final class Trees {
    private Trees() {}

    /** Copies file or folder {@code from} to {@code to}, links as links, leaving out what {@code leftOut} names (relative to {@code from}). */
    static void copy(Path from, Path to, Path... leftOut) throws IOException {
        if (!Files.isDirectory(from)) {
            Files.createDirectories(to.toAbsolutePath().getParent());
            Files.copy(from, to, java.nio.file.LinkOption.NOFOLLOW_LINKS);
            return;
        }
        try (Stream<Path> all = Files.walk(from)) {
            for (Path f : all.toList()) {
                if (Stream.of(leftOut).anyMatch(from.relativize(f)::startsWith)) continue;
                Path target = to.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f, java.nio.file.LinkOption.NOFOLLOW_LINKS)) Files.createDirectories(target);
                else Files.copy(f, target, java.nio.file.LinkOption.NOFOLLOW_LINKS);
            }
        }
    }

    /** Removes folder {@code dir} and all it holds; nothing when it is not there. */
    public static void delete(Path dir) throws IOException {
        if (!Files.exists(dir)) return;
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path f : all.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(f);
        }
    }
}
