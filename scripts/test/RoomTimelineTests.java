package test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import lib.Jackson;
import lib.ThreadStates;
import lib.Timeline;
import room.RoomLink;
import room.RoomServer;
import room.RoomTimeline;
import room.Seat;
import room.Summary;

/**
 * A learner's timeline in the room (RoomTest runs these): the hand-in carries the newest one of
 * their own exercise per chapter, and only what the room draws; the room keeps it only when
 * every part is what the grader writes, draws it with no script, and links it from the Stuck
 * table. The timelines are the committed ones the grader recorded (site/static/timeline/).
 */
final class RoomTimelineTests {
    private RoomTimelineTests() {}

    static JsonNode committed(String name) throws Exception {
        return Jackson.tree(Files.readString(RoomTest.root.resolve("site/static/timeline/" + name + ".json")));
    }

    /**
     * The hand-in takes, per chapter, the newest timeline recorded during a check of the
     * learner's own exercise: not the reference's, not a file's of {@code .broken/}, not a race's,
     * and of that one no path, notes or events.
     */
    static void handedIn() throws Exception {
        Path course = Files.createTempDirectory("room-timelines");
        Path dir = Files.createDirectories(course.resolve(".results/timeline"));
        ObjectNode own = (ObjectNode) committed("04-ch04.spread-exercise");
        ObjectNode older = own.deepCopy().put("recorded", "2020-01-01T00:00:00Z").put("what", "ch04.older");
        Files.writeString(dir.resolve("04-ch04.spread.json"), own.toString());
        Files.writeString(dir.resolve("04-ch04.older.json"), older.toString());
        Files.writeString(dir.resolve("05-ch05.noPinning.json"), committed("05-ch05.noPinning-serves-below-a-native-frame").toString()); // .broken/
        Files.writeString(dir.resolve("02-ch02.releasesIdle.json"), committed("02-ch02.releasesIdle-solution").toString()); // solutions/
        ObjectNode race = own.deepCopy().put("chapter", "06").put("what", "hello").put("server", "exercises/06-hybrid.java");
        race.putObject("overhead").put("cpuMicrosPerRequestRecorded", 12.0);
        Files.writeString(dir.resolve("06-hello.json"), race.toString());
        Files.writeString(dir.resolve("03-broken.json"), "{not json");
        JsonNode handin = RoomLink.handin(course, "ada");
        JsonNode timelines = handin.path("timelines");
        String text = timelines.toString();
        RoomTest.outcomes.record("the hand-in carries the newest timeline of the learner's own exercise per chapter, without its path, notes or events",
                timelines.size() == 1 && "04".equals(timelines.get(0).path("chapter").asText()) && "ch04.spread".equals(timelines.get(0).path("check").asText())
                        && timelines.get(0).path("lanes").size() == own.path("lanes").size() && !text.contains("exercises/") && !text.contains("\"notes\"")
                        && !text.contains("\"events\"") && !text.contains("\"states\"") && !RoomLink.empty(handin),
                text.length() > 400 ? text.substring(0, 400) + "…" : text);
        Trees.delete(course);
    }

    /** A hand-in with a timeline, as the learner's copy sends it. */
    static ObjectNode withTimeline(String name, Consumer<ObjectNode> change) throws Exception {
        ObjectNode h = RoomTest.handin(name, Map.of("04", 1));
        ObjectNode t = (ObjectNode) RoomLink.timeline(committed("04-ch04.spread-exercise"));
        change.accept(t);
        h.putArray("timelines").add(t);
        return h;
    }

    /**
     * The live room draws a timeline handed in (SVG, no script) under Threads and links it from the
     * Stuck table; one whose any part is not what the grader writes is dropped, and the rest of that
     * hand-in kept; a lane's name is shown as text, never as markup.
     */
    static void drawnAndChecked() throws Exception {
        Path dir = Files.createTempDirectory("room-threads");
        HttpServer server = RoomServer.start(RoomTest.root, new RoomServer.Settings(dir, RoomTest.CODE, RoomTest.VIEW), "127.0.0.1", 0);
        String url = "http://127.0.0.1:" + server.getAddress().getPort();
        try {
            String longName = "a-thread-whose-name-runs-on-past-its-row";
            ObjectNode good = withTimeline("tl-tess", t -> {
                ((ObjectNode) t.withArray("lanes").get(0)).put("name", "<script>alert(1)</script>");
                lane(t, l -> l.put("name", longName));
            });
            int status = RoomTest.post(url, "tl-tess", good.toString(), RoomTest.CODE).statusCode();
            Seat seat = Jackson.read(Files.readString(dir.resolve("tl-tess.json")), Seat.class);
            String page = RoomTest.get(url + "/", RoomTest.viewerCookie(dir)).body();
            RoomTest.outcomes.record("the room keeps a learner's timeline and draws it under Threads (SVG, its names as text, a long one clipped beside its row and whole in its title), linked from the Stuck table",
                    status == 200 && seat.timeline("04") != null && page.contains("<section id=\"threads-tl-tess-04\">") && page.contains("<svg class=\"tl\"")
                            && page.contains("href=\"#threads-tl-tess-04\"") && !page.contains("<script>alert") && page.contains("&lt;script&gt;alert")
                            && page.contains(RoomTest.known.title("04", "ch04.spread"))
                            && page.contains(">" + longName.substring(0, 25) + "…</text>") && page.contains(longName + ": up to")
                            && !page.contains("ms a slice"),
                    status + "; seat " + (seat.timeline("04") == null ? "without" : "with") + " a timeline");

            Map<String, Consumer<ObjectNode>> spoofs = new LinkedHashMap<>();
            spoofs.put("a check the course does not have", t -> t.put("check", "ch04.madeUp"));
            spoofs.put("a check of another chapter", t -> t.put("check", "ch05.noPinning"));
            spoofs.put("a CPU string a slice short", t -> lane(t, l -> l.put("cpu", l.path("cpu").asText().substring(1))));
            spoofs.put("a letter in the CPU digits", t -> lane(t, l -> l.put("cpu", "x" + l.path("cpu").asText().substring(1))));
            spoofs.put("a wait code the grader does not write", t -> lane(t, l -> l.put("state", "z" + l.path("state").asText().substring(1))));
            spoofs.put("a role the grader does not write", t -> lane(t, l -> l.put("role", "evil")));
            spoofs.put("more slices than a timeline has", t -> t.put("slices", Timeline.MAX_SLICES + 1));
            spoofs.put("more lanes than a timeline has", t -> {
                ArrayNode lanes = t.withArray("lanes");
                while (lanes.size() <= Timeline.MAX_LANES) lanes.add(lanes.get(0).deepCopy());
            });
            spoofs.put("a negative count of virtual threads", t -> ((ArrayNode) t.withArray("alive")).set(0, -5));
            spoofs.put("a pinned count as text", t -> ((ArrayNode) t.withArray("pinned")).set(0, "many"));
            spoofs.put("a lane that is not an object", t -> t.withArray("lanes").add("loop"));
            List<String> kept = new ArrayList<>();
            for (var e : spoofs.entrySet()) {
                Files.deleteIfExists(dir.resolve("tl-mal.json")); // each alone: a seat keeps the timeline before when a hand-in has none it can keep
                ObjectNode h = withTimeline("tl-mal", e.getValue());
                int answered = RoomTest.post(url, "tl-mal", h.toString(), RoomTest.CODE).statusCode();
                Seat s = Jackson.read(Files.readString(dir.resolve("tl-mal.json")), Seat.class);
                if (answered != 200 || s.timeline("04") != null || s.chapters().get("04") == null) kept.add(e.getKey() + " (" + answered + ")");
            }
            RoomTest.outcomes.record("a timeline with any part the grader does not write is dropped, and the rest of the hand-in kept (" + spoofs.size() + " kinds)",
                    kept.isEmpty(), "kept or refused: " + kept);

            // A seat file edited by hand is held to the same rules when the room reads it.
            Path file = dir.resolve("tl-tess.json");
            ObjectNode edited = (ObjectNode) Jackson.tree(Files.readString(file));
            ((ObjectNode) edited.path("timelines").path("04").path("lanes").get(0)).put("state", "?");
            Seat read = Jackson.convert(edited, Seat.class).checked(RoomTest.known);
            RoomTest.outcomes.record("a seat file whose timeline the grader could not have written is read without it",
                    read.timeline("04") == null && read.chapters().get("04") != null, Jackson.write(read.timelines()));
        } finally {
            server.stop(0);
            Trees.delete(dir);
        }
    }

    /**
     * A room of 60 learners, each with a timeline of every chapter at the largest the room keeps
     * (every lane, every slice, each slice unlike the one before), ten of them stuck on chapter 05:
     * the page stays under its size, each drawing under {@link RoomTimeline#MAX_DRAWN} (drawn with
     * wider slices, and says so), the stuck learners' drawn first, each link from Stuck lands on a
     * drawing, and those not drawn are counted.
     */
    static void budget() {
        java.time.Instant now = java.time.Instant.now();
        List<Seat> seats = new ArrayList<>();
        for (int i = 1; i <= 60; i++) {
            Map<String, Seat.Graded> chapters = new LinkedHashMap<>();
            Map<String, RoomTimeline> timelines = new LinkedHashMap<>();
            for (String chapter : RoomTest.known.shown()) {
                String check = RoomTest.known.checks().get(chapter).keySet().iterator().next();
                boolean stuck = i <= 10 && chapter.equals("05");
                chapters.put(chapter, new Seat.Graded(3, stuck ? 1 : 0, false, stuck ? List.of(check) : List.of(), null, now.toString(),
                        stuck ? check : null, stuck ? now.minusSeconds(600L * i).toString() : null, 1, now.toString(), null));
                timelines.put(chapter, largest(check, now.minusSeconds(i * 10L + chapter.hashCode() % 7)));
            }
            seats.add(new Seat(Seat.SCHEMA, "busy-" + i, now.toString(), chapters, Map.of(), timelines));
        }
        String page = Summary.page(RoomTest.known, seats, now, 5, List.of());
        int size = page.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        List<String> drawn = new ArrayList<>();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("<section id=\"(threads-[^\"]+)\">").matcher(page);
        while (m.find()) drawn.add(m.group(1));
        int largestDrawing = 0;
        m = java.util.regex.Pattern.compile("<svg class=\"tl\" viewBox.*?</svg>", java.util.regex.Pattern.DOTALL).matcher(page);
        while (m.find()) largestDrawing = Math.max(largestDrawing, m.group().getBytes(java.nio.charset.StandardCharsets.UTF_8).length);
        List<String> dead = new ArrayList<>();
        m = java.util.regex.Pattern.compile("href=\"#(threads-[^\"]+)\"").matcher(page);
        while (m.find()) if (!drawn.contains(m.group(1))) dead.add(m.group(1));
        int all = 60 * RoomTest.known.shown().size();
        boolean stuckFirst = !drawn.isEmpty() && drawn.subList(0, Math.min(10, drawn.size())).stream().allMatch(id -> id.endsWith("-05"));
        RoomTest.outcomes.record("60 learners with the largest timelines the room keeps, " + all + " in all: the page is " + size / 1024 + " KiB, under "
                        + RoomTest.PAGE_LIMIT / 1024 + " KiB; " + drawn.size() + " drawn (the stuck first, at most " + RoomTimeline.MAX_DRAWN / 1024
                        + " KiB each, with wider slices), the rest counted, each Stuck link landing",
                size < RoomTest.PAGE_LIMIT && drawn.size() >= 3 && stuckFirst && largestDrawing <= RoomTimeline.MAX_DRAWN
                        && page.contains("ms a slice") && dead.isEmpty() && page.contains((all - drawn.size()) + " more timeline(s) not drawn"),
                size + " bytes; drawn " + drawn + "; largest drawing " + largestDrawing + " bytes; links to no drawing " + dead);
    }

    /** A timeline as large as the room keeps: every lane, every slice, each slice's share of a core and wait unlike the one before. */
    private static RoomTimeline largest(String check, java.time.Instant received) {
        int slices = Timeline.MAX_SLICES;
        List<RoomTimeline.Lane> lanes = new ArrayList<>();
        StringBuilder cpu = new StringBuilder(), state = new StringBuilder();
        for (int k = 0; k < slices; k++) {
            cpu.append((char) ('1' + k % 9));
            state.append(k % 2 == 0 ? ThreadStates.READ : ThreadStates.PARKED);
        }
        for (int l = 0; l < Timeline.MAX_LANES; l++) lanes.add(new RoomTimeline.Lane("loop-" + l, "loop", cpu.toString(), state.toString()));
        List<Integer> alive = new ArrayList<>();
        List<Double> pinned = new ArrayList<>();
        for (int k = 0; k < slices; k++) {
            alive.add(1 + k % 5);
            pinned.add((double) (k % 3));
        }
        return new RoomTimeline(check, received.toString(), received.toString(), 100, slices, lanes, alive, pinned);
    }

    private static void lane(ObjectNode t, Consumer<ObjectNode> change) {
        change.accept((ObjectNode) t.withArray("lanes").get(1));
    }
}
