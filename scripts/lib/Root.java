package lib;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the course is: the folder holding site/data/course.json, found by walking up from the
 * current folder, so that {@code jbang check 03} works from the repository root and any folder
 * inside it (as JBang finds the root's jbang-catalog.json the same way).
 */
public final class Root {
    private Root() {}

    /** The chapter registry, relative to the root. */
    static final Path REGISTRY = Path.of("site", "data", "course.json");

    /** The course's root above {@code from} (or {@code from} itself), or null when there is none. */
    static Path above(Path from) {
        for (Path dir = from.toAbsolutePath().normalize(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve(REGISTRY))) return dir;
        }
        return null;
    }

    /** The course's root above the current folder; a {@link CommandError} that says where to run from when there is none. */
    public static Path find() {
        Path root = above(Path.of(""));
        if (root == null) {
            throw CommandError.environment("run this from the course's folder (the one with site/data/course.json) or a folder inside it, not from "
                    + Path.of("").toAbsolutePath());
        }
        return root;
    }
}
