package room;

import com.fasterxml.jackson.annotation.JsonInclude;
import contract.BenchReport;
import contract.CheckReport;
import contract.Verdict;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the room keeps of one learner (schema {@value #SCHEMA}), made from what they handed in
 * and holding only what the course knows ({@link Known}): per chapter their latest whole grading,
 * and per chapter and workload their latest race against the reference. Every time in it is the
 * room's clock: a learner's clock says nothing the room believes.
 *
 * @param learner  the name as the learner last spelled it (the room files it without case)
 * @param received when the room last heard from them
 * @param chapters by chapter, in the course's order
 * @param races    by chapter, then workload
 * @param timelines by chapter, the latest timeline of their own server handed in ({@link RoomTimeline}); absent when none
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Seat(String schema, String learner, String received, Map<String, Graded> chapters, Map<String, Map<String, Raced>> races,
            Map<String, RoomTimeline> timelines) {
    public static final String SCHEMA = "course-room/1";
    /**
     * The largest ratio of two servers the room keeps (and its inverse the smallest): no race of
     * two servers on one machine measures a thousandfold difference, so a figure beyond it is no
     * race's.
     */
    static final double MAX_RATIO = 1000;
    /** The most of a could-not-run message the room keeps. */
    static final int MAX_ERROR = 200;

    /**
     * A chapter's latest whole grading. {@code failing}: the course's ids of the checks that fail,
     * in the order of the chapter page's steps that teach them (the grader's order within a step); {@code error}: why it could not run; {@code partial}: only
     * some checks ran ({@code --only}), never done. {@code graded}: the report's own time, only to
     * tell one grading from the next. {@code stuckOn}: the first failing check (the page's earliest step), {@code since} when
     * (the room's clock) it became the first, and {@code gradings} how many gradings have failed
     * it since; {@code changed}: when this chapter was last graded anew. {@code unlisted}: the
     * course's checks the grading does not list at all (passed, failed or skipped), absent when
     * none: a grading that leaves some out is never done.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Graded(long passed, long failed, boolean partial, List<String> failing, String error, String graded,
                  String stuckOn, String since, int gradings, String changed, List<String> unlisted) {
        public Graded(long passed, long failed, boolean partial, List<String> failing, String error, String graded,
               String stuckOn, String since, int gradings, String changed) {
            this(passed, failed, partial, failing, error, graded, stuckOn, since, gradings, changed, null);
        }

        public boolean done() {
            return failed == 0 && passed > 0 && !partial && error == null && (unlisted == null || unlisted.isEmpty());
        }

        /** The checks this grading does not list (never null). */
        public List<String> missing() {
            return unlisted == null ? List.of() : unlisted;
        }
    }

    /**
     * The learner's server on one workload of their race: {@code status} "measured", "skipped" or
     * "stalled" (a status this version does not know reads as skipped); {@code figure} the ratio's figure ("rps", "cpuPerRequest", "heapPerConnection"),
     * {@code ratio} the learner's over the reference's, {@code verdict} the race's (a verdict the
     * course knows, or absent).
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Raced(BenchReport.Status status, String figure, Double ratio, Verdict.Call verdict,
                 @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL) Boolean busy) {
        Raced(BenchReport.Status status, String figure, Double ratio, Verdict.Call verdict) {
            this(status, figure, ratio, verdict, null);
        }
    }

    public Instant receivedAt() {
        return received == null ? null : parse(received);
    }

    /** A time the room wrote, or the start of the epoch when there is none. */
    static Instant parse(String text) {
        return parse(text, Instant.EPOCH);
    }

    /** A time the room wrote, or {@code otherwise} when there is none or it cannot be read. */
    static Instant parse(String text, Instant otherwise) {
        try {
            return Instant.parse(text);
        } catch (RuntimeException e) {
            return otherwise;
        }
    }

    /** Where a learner's timeline of {@code chapter} is, or null. */
    public RoomTimeline timeline(String chapter) {
        return timelines == null ? null : timelines.get(chapter);
    }

    /**
     * The seat of {@code name} after a hand-in of {@code handed}'s gradings, races and timelines,
     * received at {@code now} by the room's clock; {@code before}, their seat until now (or null),
     * carries over the chapters, races and timelines this hand-in does not hold and how long they
     * have been stuck.
     */
    static Seat of(Known known, String name, Room.Handed handed, Instant now, Seat before) {
        List<CheckReport> reports = handed.reports();
        List<BenchReport> races = handed.races();
        Map<String, CheckReport> latest = new LinkedHashMap<>();
        for (CheckReport r : reports) {
            if (r == null || !known.chapters().containsKey(r.chapter())) continue;
            latest.merge(r.chapter(), r, (a, b) -> String.valueOf(b.time()).compareTo(String.valueOf(a.time())) > 0 ? b : a);
        }
        Map<String, Graded> chapters = new LinkedHashMap<>();
        for (String chapter : known.chapters().keySet()) {
            Graded was = before == null || before.chapters() == null ? null : before.chapters().get(chapter);
            CheckReport r = latest.get(chapter);
            if (r == null) {
                if (was != null) chapters.put(chapter, was);
                continue;
            }
            chapters.put(chapter, graded(known, chapter, r, was, now));
        }
        Map<String, Map<String, Raced>> raced = new LinkedHashMap<>();
        Map<String, BenchReport> latestRace = new LinkedHashMap<>();
        for (BenchReport b : races) {
            if (b == null || b.kind() != BenchReport.Kind.CHAPTER || !known.chapters().containsKey(b.chapter()) || b.workloads() == null) continue;
            if (b.methodology() != null && "smoke".equals(b.methodology().mode())) continue; // a smoke race measures nothing: not a race to show
            latestRace.merge(b.chapter(), b, (x, y) -> String.valueOf(y.date()).compareTo(String.valueOf(x.date())) > 0 ? y : x);
        }
        for (String chapter : known.chapters().keySet()) {
            BenchReport b = latestRace.get(chapter);
            if (b != null) {
                Map<String, Raced> cells = new LinkedHashMap<>();
                for (BenchReport.WorkloadEntry w : b.workloads()) {
                    if (w == null || !known.workloads().contains(w.id())) continue;
                    Raced cell = raced(known, b, w);
                    if (cell != null) cells.put(w.id(), cell);
                }
                if (!cells.isEmpty()) raced.put(chapter, cells);
            } else if (before != null && before.races() != null && before.races().containsKey(chapter)) {
                raced.put(chapter, before.races().get(chapter));
            }
        }
        // Kept only as a seat read back is: what the room draws is bounded the same way however it came.
        return new Seat(SCHEMA, name, now.toString(), chapters, raced, timelines(known, handed.timelines(), now, before)).checked(known);
    }

    /**
     * Per chapter, the newest timeline handed in that the room can keep ({@link RoomTimeline#of});
     * one the room already had keeps the time it first came; a chapter with none handed in keeps
     * the one before. Null when there is none.
     */
    private static Map<String, RoomTimeline> timelines(Known known, List<com.fasterxml.jackson.databind.JsonNode> handed, Instant now, Seat before) {
        Map<String, RoomTimeline> latest = new LinkedHashMap<>();
        for (var t : handed) {
            String chapter = t.path("chapter").asText();
            if (!known.chapters().containsKey(chapter)) continue;
            RoomTimeline read = RoomTimeline.of(known, chapter, t, now.toString());
            if (read == null) continue;
            latest.merge(chapter, read, (a, b) -> String.valueOf(b.recorded()).compareTo(String.valueOf(a.recorded())) > 0 ? b : a);
        }
        Map<String, RoomTimeline> kept = new LinkedHashMap<>();
        for (String chapter : known.chapters().keySet()) {
            RoomTimeline was = before == null ? null : before.timeline(chapter), handedIn = latest.get(chapter);
            boolean same = was != null && handedIn != null && was.recorded() != null && was.recorded().equals(handedIn.recorded());
            RoomTimeline keep = handedIn == null || same ? was : handedIn; // the one the room had keeps when it first came
            if (keep != null) kept.put(chapter, keep);
        }
        return kept.isEmpty() ? null : kept;
    }

    private static Graded graded(Known known, String chapter, CheckReport r, Graded was, Instant now) {
        List<String> failing = new ArrayList<>(), unlisted = new ArrayList<>();
        long passed = 0;
        var checks = r.checks() == null ? List.<CheckReport.Check>of() : r.checks();
        for (String id : known.checks().get(chapter).keySet()) { // the course's order, and only its checks
            boolean listed = false;
            for (CheckReport.Check c : checks) {
                if (c == null || !id.equals(c.id()) || c.status() == null) continue;
                listed = true;
                if (c.failed()) failing.add(id);
                else if (c.status() == CheckReport.Status.PASS) passed++;
                break;
            }
            if (!listed) unlisted.add(id);
        }
        String error = clip(r.error());
        if (error == null && r.exit() == 2) error = "it could not run";
        String graded = r.time() == null ? null : r.time().length() > 40 ? r.time().substring(0, 40) : r.time();
        boolean anew = was == null || graded == null || !graded.equals(was.graded());
        String changed = anew ? now.toString() : was.changed();
        // Stuck on the earliest step of the page whose checks fail, as a learner working down the page meets them;
        // for a day, on the earliest of the day's core TODOs (a TODO the day skips keeps no one).
        failing.sort(Comparator.comparingInt(id -> known.step(chapter, id)));
        String stuckOn = failing.stream().filter(id -> known.blocks(chapter, id)).findFirst().orElse(null);
        String since = now.toString();
        int gradings = 1;
        if (stuckOn != null && was != null && stuckOn.equals(was.stuckOn()) && was.since() != null) {
            since = was.since();
            gradings = was.gradings() + (anew ? 1 : 0);
        }
        return new Graded(passed, failing.size(), r.total() != null, failing, error, graded,
                stuckOn, stuckOn == null ? null : since, stuckOn == null ? 0 : gradings, changed, unlisted.isEmpty() ? null : unlisted);
    }

    /**
     * This seat as read from a file (the live room's folder, or one given to room.sh), holding
     * only what a seat made from a hand-in could hold: the course's chapters, checks and
     * workloads, counts no larger than the chapter's checks, finite ratios, times the room can
     * read. IllegalArgumentException when it has no learner's name.
     */
    public Seat checked(Known known) {
        if (!RoomLink.plainName(learner)) throw new IllegalArgumentException("no learner's name in it");
        Map<String, Graded> graded = new LinkedHashMap<>();
        for (String chapter : known.chapters().keySet()) {
            Graded g = chapters == null ? null : chapters.get(chapter);
            if (g == null) continue;
            Map<String, String> ids = known.checks().get(chapter);
            List<String> failing = g.failing() == null ? List.of() : g.failing().stream().filter(ids::containsKey).distinct().toList();
            List<String> unlisted = g.missing().stream().filter(ids::containsKey).filter(id -> !failing.contains(id)).distinct().toList();
            long passed = Math.max(0, Math.min(g.passed(), ids.size() - failing.size() - unlisted.size()));
            List<String> blocking = failing.stream().filter(id -> known.blocks(chapter, id)).toList();
            String stuckOn = blocking.isEmpty() ? null : blocking.contains(g.stuckOn()) ? g.stuckOn() : blocking.get(0);
            String error = clip(g.error());
            graded.put(chapter, new Graded(passed, failing.size(), g.partial(), failing, error, time(g.graded()), stuckOn,
                    stuckOn == null ? null : time(g.since()), stuckOn == null ? 0 : Math.max(1, g.gradings()), time(g.changed()),
                    unlisted.isEmpty() ? null : unlisted));
        }
        Map<String, Map<String, Raced>> raced = new LinkedHashMap<>();
        for (String chapter : known.chapters().keySet()) {
            Map<String, Raced> cells = races == null ? null : races.get(chapter);
            if (cells == null) continue;
            Map<String, Raced> kept = new LinkedHashMap<>();
            for (var e : cells.entrySet()) {
                Raced c = e.getValue();
                if (c == null || !known.workloads().contains(e.getKey())) continue;
                boolean ratio = c.ratio() != null && c.ratio() >= 1 / MAX_RATIO && c.ratio() <= MAX_RATIO;
                kept.put(e.getKey(), new Raced(c.status() == null ? BenchReport.Status.SKIPPED : c.status(),
                        ratio && c.figure() != null && c.figure().matches("rps|cpuPerRequest|heapPerConnection") ? c.figure() : null,
                        ratio ? c.ratio() : null, c.verdict() != null && known.verdicts().contains(c.verdict()) ? c.verdict() : null, c.busy()));
            }
            if (!kept.isEmpty()) raced.put(chapter, kept);
        }
        Map<String, RoomTimeline> threads = new LinkedHashMap<>();
        for (String chapter : known.chapters().keySet()) {
            RoomTimeline t = timeline(chapter);
            if (t != null && (t = t.checked(known, chapter)) != null) threads.put(chapter, t);
        }
        return new Seat(SCHEMA, learner, time(received), graded, raced, threads.isEmpty() ? null : threads);
    }

    /** A could-not-run message as the room keeps it: plain text ({@link PlainText#of}), at most {@link #MAX_ERROR} characters. */
    private static String clip(String error) {
        String plain = PlainText.of(error, false);
        return plain == null || plain.length() <= MAX_ERROR ? plain : plain.substring(0, MAX_ERROR) + "…";
    }

    /** A time as the room writes it, or null when there is none or it cannot be read. */
    static String time(String text) {
        Instant t = text == null ? null : parse(text, null);
        return t == null ? null : t.toString();
    }

    /** The learner's cell of one workload (the result of the server whose role is learner), or null when the race has none there. */
    private static Raced raced(Known known, BenchReport race, BenchReport.WorkloadEntry w) {
        if (w.results() == null) return null;
        for (BenchReport.Result r : w.results()) {
            if (r == null || race.roleOf(r.server()) != BenchReport.Role.LEARNER) continue;
            BenchReport.Status status = r.status() == null ? BenchReport.Status.SKIPPED : r.status();
            if (!r.measured()) return new Raced(status, null, null, null);
            if (r instanceof BenchReport.LoadResult l && l.ratio() instanceof BenchReport.LoadRatio ratio && ratio.rps() != null) {
                // The figure the verdict was decided on (CPU per request where req/s measured the load generator), so the two agree.
                BenchReport.Interval i = ratio.decided();
                boolean cpu = i != null && "cpuPerRequest".equals(i.figure()) && i.ratio() != null;
                Verdict.Call verdict = i != null && i.verdict() != null && known.verdicts().contains(i.verdict()) ? i.verdict() : null;
                return new Raced(status, cpu ? "cpuPerRequest" : "rps", cpu ? i.ratio() : ratio.rps(), verdict,
                        ratio.busy() != null ? Boolean.TRUE : null); // measured while other processes were busy (bench's Others)
            }
            if (r instanceof BenchReport.IdleResult i && i.ratio() instanceof BenchReport.IdleRatio ratio && ratio.heapPerConnection() != null) {
                return new Raced(status, "heapPerConnection", ratio.heapPerConnection(), null);
            }
            return new Raced(status, null, null, null);
        }
        return null;
    }
}
