package lib;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The learner's results folder, {@code .results/}: check.sh writes {@code checks/NN.json}, bench.sh
 * {@code bench/NN.json}, and both keep {@code site/results.json}, the list of them that the locally
 * served site reads (it fetches only files that exist, and live reload shows a new result at once).
 * The list has a folder of its own because hugo server watches the folders below .results/, not
 * .results/ itself. Writing knows nothing of a live room: the commands that grade and race save
 * through the room's link (room.RoomLink#save), which sends a copy that joined a room its results.
 */
public final class Results {
    static final List<String> KINDS = List.of("checks", "bench", "timeline");

    private Results() {}

    /** Writes {@code json} as {@code .results/KIND/NAME.json}, then the index; returns the file. */
    public static Path write(Path root, String kind, String name, String json) throws IOException {
        Path file = root.resolve(".results").resolve(kind).resolve(name + ".json");
        Files.createDirectories(file.getParent());
        Files.writeString(file, json);
        index(root);
        return file;
    }

    /** Writes {@code .results/site/results.json}: every {@code KIND/NAME.json} there, e.g. ["checks/03.json"]. */
    static void index(Path root) throws IOException {
        Path dir = root.resolve(".results");
        List<String> files = new ArrayList<>();
        for (String kind : KINDS) {
            if (!Files.isDirectory(dir.resolve(kind))) continue;
            try (Stream<Path> list = Files.list(dir.resolve(kind))) {
                list.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".json")).sorted()
                        .forEach(n -> files.add(kind + "/" + n));
            }
        }
        // In place, not renamed into place: hugo server syncs a changed file, but not a rename.
        Files.createDirectories(dir.resolve("site"));
        Files.writeString(dir.resolve("site/results.json"), Jackson.write(files));
    }
}
