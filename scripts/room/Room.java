//SOURCES RoomLink.java RoomTls.java Claims.java Front.java Cutoffs.java Known.java Seat.java Summary.java RoomServer.java RoomTimeline.java Guesses.java ../lib/CommandError.java
//SOURCES ../lib/Lib.java ../contract/Contract.java

package room;

import com.fasterxml.jackson.databind.JsonNode;
import contract.BenchReport;
import contract.CheckReport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import lib.CommandError;
import lib.Jackson;

/**
 * The instructor's side of the room: the learners' seats read from a folder, the summary page
 * written from them, and a name freed for another laptop. The live room is {@link RoomServer};
 * the learner's side, {@link RoomLink}.
 *
 * <p>A folder holds the live room's seats ({@code NAME.json}, {@link Seat}), or hand-ins from
 * {@code jbang handin NAME}, or raw {@code check.sh --json} and {@code bench.sh} files, each
 * named after its learner. Names are the same without case; what the course does not know is
 * left out ({@link Known}). A file's own times are not believed: a hand-in counts as received
 * when its file was last written.
 */
public final class Room {
    private Room() {}

    /** The seats in a folder, by name without case, and the files that could not be read (with why). */
    public record Folder(List<Seat> seats, List<String> skipped) {}

    /** What a learner handed in: gradings, races, and timelines as the hand-in carries them ({@link RoomLink#timeline}). */
    record Handed(List<CheckReport> reports, List<BenchReport> races, List<JsonNode> timelines) {
        Handed() {
            this(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        }
    }

    public static Folder read(Known known, Path folder) throws IOException {
        Map<String, Seat> seats = new TreeMap<>();
        Map<String, Handed> handed = new LinkedHashMap<>();
        Map<String, String> spelled = new LinkedHashMap<>();
        Map<String, Instant> received = new LinkedHashMap<>();
        List<String> skipped = new ArrayList<>();
        List<Path> files;
        try (Stream<Path> list = Files.list(folder)) {
            files = list.filter(p -> p.getFileName().toString().endsWith(".json") && !p.getFileName().toString().startsWith(".")).sorted().toList();
        }
        for (Path f : files) {
            String stem = f.getFileName().toString().replaceFirst("\\.json$", "");
            try {
                JsonNode doc = Jackson.tree(Files.readString(f));
                Instant time = Files.getLastModifiedTime(f).toInstant();
                if (Seat.SCHEMA.equals(doc.path("schema").asText())) {
                    Seat seat = Jackson.convert(doc, Seat.class).checked(known);
                    seats.put(RoomLink.key(ownName(stem, seat.learner())), seat);
                    continue;
                }
                String name = RoomLink.SCHEMA.equals(doc.path("schema").asText()) ? ownName(stem, doc.path("learner").asText()) : stem;
                if (!RoomLink.plainName(name)) throw new IllegalArgumentException(RoomLink.NAME_RULE);
                String key = RoomLink.key(name);
                spelled.putIfAbsent(key, name);
                received.merge(key, time, (a, b) -> a.isAfter(b) ? a : b);
                collect(doc, handed.computeIfAbsent(key, k -> new Handed()));
            } catch (RuntimeException | IOException e) {
                skipped.add(f.getFileName() + " (" + e.getMessage() + ")");
            }
        }
        for (String key : spelled.keySet()) {
            seats.put(key, Seat.of(known, spelled.get(key), handed.get(key), received.get(key), seats.get(key)));
        }
        return new Folder(new ArrayList<>(seats.values()), skipped);
    }

    /**
     * The learner a file of the folder names, when it is the file's own: a hand-in or a seat is
     * filed under its learner's name ({@code handin/NAME.json}, the room's {@code name.json}), so
     * {@code mallory.json} that says it is ada's speaks for no one. IllegalArgumentException otherwise.
     */
    private static String ownName(String stem, String learner) {
        if (!RoomLink.plainName(learner)) throw new IllegalArgumentException(RoomLink.NAME_RULE);
        if (!RoomLink.key(stem).equals(RoomLink.key(learner))) {
            throw new IllegalArgumentException("it says it is " + learner + "'s, and a hand-in is filed under its learner's name (" + learner + ".json)");
        }
        return learner;
    }

    /** The check reports, races and timelines in a hand-in, or a check report (one or a list), or a bench result. */
    static void collect(JsonNode doc, Handed into) {
        if (RoomLink.SCHEMA.equals(doc.path("schema").asText())) {
            for (JsonNode c : doc.path("checks")) collect(c, into);
            for (JsonNode b : doc.path("bench")) collect(b, into);
            for (JsonNode t : doc.path("timelines")) into.timelines().add(t); // read, and kept only when whole, by RoomTimeline
        } else if (doc.isArray()) {
            for (JsonNode o : doc) collect(o, into);
        } else if (BenchReport.SCHEMA.equals(doc.path("schema").asText())) {
            into.races().add(Jackson.convert(doc, BenchReport.class));
        } else if (doc.has("chapter") && doc.has("exit")) {
            into.reports().add(Jackson.convert(doc, CheckReport.class));
        } else {
            throw new IllegalArgumentException("neither a hand-in, a check report nor a bench result");
        }
    }

    /** The page for a folder of hand-ins, written to {@code out}. */
    static void summary(Path root, Path folder, Path out) throws IOException {
        summary(root, folder, out, null);
    }

    /** The same, for the day of agenda {@code day} (null: every chapter). */
    static void summary(Path root, Path folder, Path out, String day) throws IOException {
        if (!Files.isDirectory(folder)) throw CommandError.of(2, "no folder " + folder + ": give the folder that holds the hand-ins");
        Known known = Known.of(root).forDay(day);
        Folder room = read(known, folder);
        if (room.seats().isEmpty()) throw CommandError.of(1, "no hand-ins in " + folder + " (files from jbang handin, check.sh --json or bench.sh)");
        Files.writeString(out, Summary.page(known, room.seats(), Instant.now(), 0, room.skipped()), StandardCharsets.UTF_8);
        System.out.println("room: " + room.seats().size() + " learner(s) -> " + out
                + (room.skipped().isEmpty() ? "" : "; skipped " + room.skipped()));
    }

    /** Lets another laptop take {@code name} in the room kept in {@code dir}; its results stay until that laptop hands in. */
    public static void free(Path dir, String name) throws IOException {
        if (!RoomLink.plainName(name)) throw CommandError.of(2, RoomLink.NAME_RULE + ", not '" + name + "'");
        boolean was = Files.deleteIfExists(RoomServer.owner(dir, name));
        System.out.println(was ? "room: " + name + " is free: the next laptop that hands in as " + name + " takes it"
                : "room: no laptop holds " + name + " in " + dir + ": the next one to hand in as " + name + " takes it");
    }

    /** Takes {@code name} off the room kept in {@code dir}: its seat and its owner; the next laptop to hand in as NAME starts afresh. */
    public static void remove(Path dir, String name) throws IOException {
        if (!RoomLink.plainName(name)) throw CommandError.of(2, RoomLink.NAME_RULE + ", not '" + name + "'");
        boolean seat = Files.deleteIfExists(dir.resolve(RoomLink.key(name) + ".json"));
        boolean owner = Files.deleteIfExists(RoomServer.owner(dir, name));
        System.out.println(seat || owner ? "room: " + name + " is off the room: its results are gone, and the next laptop that hands in as " + name + " starts afresh"
                : "room: no " + name + " in " + dir);
    }
}
