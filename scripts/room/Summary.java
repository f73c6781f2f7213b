package room;

import contract.BenchReport;
import contract.Verdict;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import lib.Chapters;

/**
 * The room summary, drawn from the learners' seats ({@link Seat}): who is stuck on which check
 * and since when; per chapter of the course who is done and the check most of the room is stuck
 * on, each learner's failing checks folded; each learner's races as ratios to the reference on
 * their own machine. Every cell says what it holds. A page for a folder is self-contained; the
 * live room's page updates itself in place ({@link #page} with {@code live}), fetching
 * {@link #body} again, so a list the instructor opened stays open.
 */
public final class Summary {
    private Summary() {}

    /** The failing checks a cell lists; the first is the one to work on, and the page stays light. */
    static final int LISTED = 5;

    /**
     * The most bytes the page takes, so that a projector on a room's Wi-Fi fetches it every few
     * seconds: the timelines drawn are those that fit in what the rest leaves ({@link #threads}).
     */
    public static final int PAGE_BYTES = 400 * 1024;
    /** What the page's head, styles and script take at most: the body gets the rest of {@link #PAGE_BYTES}. */
    static final int HEAD_BYTES = 16 * 1024;
    /** The most the Threads section's drawings take, however much the rest leaves. */
    static final int THREADS_BYTES = 160 * 1024;
    /** The most one timeline's section takes: its drawing, its key and its heading. */
    static final int SECTION_BYTES = RoomTimeline.MAX_DRAWN + 4 * 1024;

    static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm").withZone(ZoneId.systemDefault());

    /** The whole page; {@code refreshSeconds} above 0 makes it the live room's, which updates itself. */
    public static String page(Known known, List<Seat> seats, Instant now, int refreshSeconds, List<String> skipped) {
        return page(known, seats, now, refreshSeconds, skipped, null);
    }

    /** What only the live room shows: what it says of wrong codes ({@link Guesses#summary}, or null), and the names waiting to be let in. */
    record Live(String guessed, List<Claims.Waiting> waiting) {}

    /** The whole page, with what only the live room shows ({@code live}, or null). */
    public static String page(Known known, List<Seat> seats, Instant now, int refreshSeconds, List<String> skipped, Live live) {
        StringBuilder h = new StringBuilder();
        h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
                .append("<link rel=\"icon\" href=\"data:,\">") // self-contained: not even a favicon request
                // The live room sends the same policy as a header, with frame-ancestors; a summary opened from a file has this one.
                .append("<meta http-equiv=\"Content-Security-Policy\" content=\"").append(POLICY).append("\">");
        if (refreshSeconds > 0) { // without JavaScript, the page reloads itself instead
            h.append("<noscript><meta http-equiv=\"refresh\" content=\"").append(refreshSeconds).append("\"></noscript>");
        }
        h.append("<title>Room summary</title><style>")
                .append("body{font-family:system-ui,sans-serif;margin:2rem;color:#1d2330}")
                .append("table{border-collapse:collapse;margin:1rem 0}th,td{border-bottom:1px solid #e3e6ec;padding:.3rem .7rem;text-align:left;vertical-align:top}")
                .append("td.done{color:#1a7f37;font-weight:600}td.todo{color:#b35900}td.none{color:#9aa3b2}td.long{color:#b3261e;font-weight:600}")
                .append("details ul{margin:.3rem 0;padding-left:1.1rem;font-weight:400;color:#1d2330}.num{text-align:right;font-variant-numeric:tabular-nums}")
                .append("small{color:#5b6474}#room-status{color:#b3261e}").append(RoomTimeline.STYLE)
                .append("@media (prefers-color-scheme:dark){body{background:#12151b;color:#e4e7ec}th,td{border-color:#2a303b}details ul{color:#e4e7ec}small{color:#9aa3b2}}")
                .append("</style></head><body>\n<h1>Room summary</h1>\n<p id=\"room-status\" role=\"status\"></p>\n<main id=\"room\"")
                .append(refreshSeconds > 0 ? " data-refresh-ms=\"" + refreshSeconds * 1000 + "\"" : "").append(">\n")
                .append(body(known, seats, now, refreshSeconds, skipped, live))
                .append("</main>\n");
        if (refreshSeconds > 0) h.append(UPDATES);
        return h.append("</body></html>\n").toString();
    }

    /** The hash of the live room's one script as a Content-Security-Policy source. */
    public static final String SCRIPT_HASH = scriptHash();

    /**
     * What a page of the room may do, whatever a hand-in slipped into it: run only the room's own
     * script (by its hash), fetch only from the room, load nothing from anywhere, post its form
     * only to the room. The live room adds frame-ancestors, which a meta cannot carry ({@link RoomServer#POLICY}).
     */
    static final String POLICY = "default-src 'none'; script-src '" + SCRIPT_HASH + "'; style-src 'unsafe-inline'; img-src data:;"
            + " connect-src 'self'; form-action 'self'; base-uri 'none'";

    private static String scriptHash() {
        String script = UPDATES.substring(UPDATES.indexOf("<script>") + "<script>".length(), UPDATES.indexOf("</script>"));
        try {
            byte[] digest = java.security.MessageDigest.getInstance("SHA-256").digest(script.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            return "sha256-" + java.util.Base64.getEncoder().encodeToString(digest);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Fetches the room's body every few seconds and puts it in place, opening again the lists
     * that were open (each has a key: learner and chapter); says so when the room cannot be reached.
     */
    private static final String UPDATES = """
            <script>
            (() => {
              const room = document.getElementById("room");
              const status = document.getElementById("room-status");
              let failing = null;
              async function update() {
                try {
                  const answer = await fetch("summary", { cache: "no-store", credentials: "same-origin" });
                  if (!answer.ok) throw new Error(answer.status === 401
                      ? "the room no longer knows this screen: open the address with ?view= that the room printed"
                      : "the room answered " + answer.status);
                  const html = await answer.text();
                  const open = new Set([...room.querySelectorAll("details[open]")].map(d => d.dataset.key));
                  room.innerHTML = html;
                  room.querySelectorAll("details").forEach(d => { if (open.has(d.dataset.key)) d.open = true; });
                  failing = null;
                  status.textContent = "";
                } catch (e) {
                  failing = failing || new Date();
                  status.textContent = "Not updated since " + failing.toLocaleTimeString() + ": " + e.message;
                }
              }
              setInterval(update, Number(room.dataset.refreshMs));
            })();
            </script>
            """;

    /** What {@code <main>} holds: the part of the page the live room sends again. */
    public static String body(Known known, List<Seat> seats, Instant now, int refreshSeconds, List<String> skipped) {
        return body(known, seats, now, refreshSeconds, skipped, null);
    }

    public static String body(Known known, List<Seat> seats, Instant now, int refreshSeconds, List<String> skipped, Live live) {
        StringBuilder h = new StringBuilder();
        h.append("<p>").append(seats.size()).append(" learner(s), as of ").append(CLOCK.format(now))
                .append(" (this machine's clock)")
                .append(refreshSeconds > 0 ? "; the page updates itself every " + refreshSeconds + " s" : "").append(".</p>\n");
        if (live != null && live.guessed() != null) h.append("<p class=\"guesses\">Wrong codes: ").append(esc(live.guessed())).append(".</p>\n");
        if (live != null) waiting(h, live.waiting());
        StringBuilder rest = new StringBuilder();
        progress(rest, known, seats, now);
        races(rest, known, seats);
        if (!skipped.isEmpty()) {
            rest.append("<h2>Skipped files</h2>\n<ul>");
            skipped.forEach(s -> rest.append("<li>").append(esc(s)).append("</li>"));
            rest.append("</ul>\n");
        }
        // The timelines get what the rest leaves: Stuck linking every one is the most it can take.
        StringBuilder most = new StringBuilder();
        stuck(most, known, seats, now, null);
        int budget = Math.min(THREADS_BYTES, PAGE_BYTES - HEAD_BYTES - bytes(h) - bytes(most) - bytes(rest));
        StringBuilder threads = new StringBuilder();
        java.util.Set<String> drawn = threads(threads, known, seats, now, budget);
        stuck(h, known, seats, now, drawn);
        return h.append(threads).append(rest).toString();
    }

    /** The most waiting names the page lists; the rest are counted, and "turn all away" reaches them too. */
    static final int WAITING_SHOWN = 40;

    /** The names that wait to be let in, each with one click to let in or turn away, and one for all. */
    private static void waiting(StringBuilder h, List<Claims.Waiting> waiting) {
        if (waiting.isEmpty()) return;
        h.append("<h2>Waiting to join (").append(waiting.size()).append(")</h2>\n<p>A new name from the network waits here until you let it in;")
                .append(" a name you do not know in the room, or many from one address, is a machine on the Wi-Fi: turn it away.</p>\n")
                .append("<form method=\"post\" action=\"/admit\"><button name=\"let\" value=\"*\">Let all ").append(waiting.size())
                .append(" in</button> <button name=\"away\" value=\"*\">Turn all away</button></form>\n")
                .append("<table><tr><th>Name</th><th>From</th><th>Waiting since</th><th></th></tr>\n");
        for (Claims.Waiting w : waiting.subList(0, Math.min(WAITING_SHOWN, waiting.size()))) {
            h.append("<tr><td>").append(esc(w.name())).append("</td><td>").append(esc(w.from())).append("</td><td>").append(CLOCK.format(w.since()))
                    .append("</td><td><form method=\"post\" action=\"/admit\"><button name=\"let\" value=\"").append(esc(w.name()))
                    .append("\">Let in</button> <button name=\"away\" value=\"").append(esc(w.name())).append("\">Turn away</button></form></td></tr>\n");
        }
        h.append("</table>\n");
        if (waiting.size() > WAITING_SHOWN) h.append("<p>And ").append(waiting.size() - WAITING_SHOWN).append(" more.</p>\n");
    }

    private static int bytes(CharSequence s) {
        return s.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
    }

    /**
     * Who is stuck where: every chapter of each learner where a check fails (an unfinished chapter
     * stays when they move on), the longest first.
     */
    private static void stuck(StringBuilder h, Known known, List<Seat> seats, Instant now, java.util.Set<String> drawn) {
        record Stuck(Seat seat, String chapter, Seat.Graded graded, Instant since) {}
        List<Stuck> all = new ArrayList<>();
        for (Seat s : seats) {
            for (String chapter : known.shown()) {
                Seat.Graded g = s.chapters().get(chapter);
                if (g == null || g.stuckOn() == null) continue;
                all.add(new Stuck(s, chapter, g, Seat.parse(g.since(), now)));
            }
        }
        if (all.isEmpty()) return;
        all.sort(Comparator.comparing(Stuck::since));
        h.append("<h2>Stuck</h2>\n<p>Each learner's chapters where a check fails").append(known.day() == null ? "" : " of the day's core TODOs")
                .append(": the page's step it belongs to (a link to it) and the first failing check in the order of the page's")
                .append(" steps, since when it has been the first (this machine's clock), and how many gradings have failed it since.")
                .append(" Fifteen minutes or more is red.</p>\n")
                .append("<table><thead><tr><th>Learner</th><th>Chapter</th><th>Step</th><th>First failing check</th><th>Since</th>")
                .append("<th class=\"num\">For</th><th class=\"num\">Gradings</th><th>Timeline</th></tr></thead><tbody>\n");
        for (Stuck s : all) {
            long minutes = Math.max(0, Duration.between(s.since(), now).toMinutes());
            Known.Step step = known.stepOf(s.chapter(), s.graded().stuckOn());
            h.append("<tr><td>").append(esc(s.seat().learner())).append("</td><td>").append(esc(s.chapter())).append("</td><td>")
                    .append(step == null ? "" : "<a href=\"" + esc(known.link(step.see())) + "\">" + esc(step.title() != null ? step.title() : step.see()) + "</a>")
                    .append("</td><td>").append(esc(known.title(s.chapter(), s.graded().stuckOn()))).append(" <small>").append(esc(s.graded().stuckOn()))
                    .append("</small></td><td>").append(CLOCK.format(s.since())).append("</td><td class=\"num").append(minutes >= 15 ? " long" : "")
                    .append("\">").append(minutes).append(" min</td><td class=\"num\">").append(s.graded().gradings()).append(" grading(s)</td><td>")
                    .append(s.seat().timeline(s.chapter()) == null || drawn != null && !drawn.contains(threadsId(s.seat(), s.chapter())) ? ""
                            : "<a href=\"#" + threadsId(s.seat(), s.chapter()) + "\">their threads</a>")
                    .append("</td></tr>\n");
        }
        h.append("</tbody></table>\n");
    }

    /** Where a learner's timeline of a chapter is on the page. */
    static String threadsId(Seat seat, String chapter) {
        return "threads-" + RoomLink.key(seat.learner()) + "-" + chapter;
    }

    /**
     * Each learner's latest timeline of each shown chapter: the threads of their own server during
     * one check ({@code check.sh NN --only ID --timeline}), drawn as the room keeps it
     * ({@link RoomTimeline#drawing}). Those of a chapter where the learner is stuck come first, the
     * longest stuck first, then the rest, the newest first; each is drawn while what is left of
     * {@code budget} bytes holds the largest section ({@link #SECTION_BYTES}), so that no drawing is
     * made only to be thrown away (the live room draws the page for every fetch, and a worst-case
     * drawing takes a large share of a second to make), and the rest are counted. Returns the ids
     * of the sections drawn, which the Stuck table links to.
     */
    private static java.util.Set<String> threads(StringBuilder h, Known known, List<Seat> seats, Instant now, int budget) {
        record Shown(Seat seat, String chapter, RoomTimeline t, Instant stuck) {}
        List<Shown> all = new ArrayList<>();
        for (Seat s : seats) {
            for (String chapter : known.shown()) {
                RoomTimeline t = s.timeline(chapter);
                Seat.Graded g = s.chapters().get(chapter);
                if (t != null) all.add(new Shown(s, chapter, t, g == null || g.stuckOn() == null ? null : Seat.parse(g.since(), now)));
            }
        }
        java.util.Set<String> drawn = new java.util.HashSet<>();
        if (all.isEmpty()) return drawn;
        all.sort(Comparator.comparing((Shown x) -> x.stuck() == null).thenComparing(x -> x.stuck() == null ? Instant.EPOCH : x.stuck())
                .thenComparing(Comparator.comparing((Shown x) -> Seat.parse(x.t().received(), Instant.EPOCH)).reversed()));
        h.append("<h2>Threads</h2>\n<p>The latest timeline each learner handed in per chapter: their own server's threads while one check")
                .append(" ran (<code>scripts/check.sh NN --only ID --timeline</code>), those of a chapter they are stuck on first.")
                .append(" A row is a thread: its colour what it waited for, its dark bar the share of a core it used.")
                .append(" The chapter's page shows the reference solution's beside a mistake's.</p>\n");
        int left = budget - bytes(h) - 200; // the line that counts those not drawn
        int notDrawn = 0;
        for (Shown x : all) {
            if (left < SECTION_BYTES) {
                notDrawn++;
                continue;
            }
            RoomTimeline.Drawing d = x.t().drawing();
            StringBuilder one = new StringBuilder();
            one.append("<section id=\"").append(threadsId(x.seat(), x.chapter())).append("\"><h3>").append(esc(x.seat().learner()))
                    .append(", chapter ").append(esc(x.chapter())).append(": ").append(esc(known.title(x.chapter(), x.t().check())))
                    .append(" <small>").append(esc(x.t().check())).append(", handed in ")
                    .append(x.t().received() == null ? "" : CLOCK.format(Seat.parse(x.t().received())) + ", ")
                    .append(age(Seat.parse(x.t().received(), null), now))
                    .append(d.sliceMs() == x.t().sliceMs() ? "" : ", drawn " + d.sliceMs() + " ms a slice").append("</small></h3>\n")
                    .append(d.svg()).append(x.t().key()).append("</section>\n");
            int size = bytes(one);
            if (size > left) {
                notDrawn++;
                continue;
            }
            left -= size;
            h.append(one);
            drawn.add(threadsId(x.seat(), x.chapter()));
        }
        if (notDrawn > 0) {
            h.append("<p class=\"note\">").append(notDrawn).append(" more timeline(s) not drawn, so that the page stays under ")
                    .append(PAGE_BYTES / 1024).append(" KiB: a stuck learner's are drawn first, then the newest.</p>\n");
        }
        return drawn;
    }

    private static void progress(StringBuilder h, Known known, List<Seat> seats, Instant now) {
        List<String> chapters = known.shown();
        h.append("<h2>Progress</h2>\n");
        h.append("<p class=\"note\">Each laptop grades and races itself and reports what it found: this page is a progress aid for the room,"
                + " not proof of anyone's work.</p>\n");
        if (known.day() != null) {
            h.append("<p>The ").append(esc(known.day())).append(" agenda's chapters; one is done once the checks of the day's core TODOs pass")
                    .append(" (the rest of the chapter is for after the workshop).</p>\n");
        }
        h.append("<table><thead><tr><th>Learner</th><th>Last heard from</th>");
        for (String c : chapters) {
            Chapters.Chapter chapter = known.chapters().get(c);
            h.append("<th title=\"").append(esc(chapter.model())).append("\">").append(esc(c))
                    .append("<br><small>").append(esc(chapter.title())).append("</small></th>");
        }
        h.append("<th class=\"num\">Chapters done</th></tr></thead><tbody>\n");
        Map<String, Integer> doneBy = new LinkedHashMap<>();
        Map<String, Map<String, Integer>> stuckOn = new LinkedHashMap<>(); // chapter -> check -> learners failing it
        for (Seat s : seats) {
            h.append("<tr><td>").append(esc(s.learner())).append("</td><td>").append(age(s.receivedAt(), now)).append("</td>");
            int done = 0;
            for (String c : chapters) {
                Seat.Graded g = s.chapters().get(c);
                if (g == null) {
                    h.append("<td class=\"none\">not graded</td>");
                } else if (g.done()) {
                    done++;
                    doneBy.merge(c, 1, Integer::sum);
                    h.append("<td class=\"done\">✓ all ").append(g.passed()).append(" pass</td>");
                } else if (known.done(c, g)) {
                    done++;
                    doneBy.merge(c, 1, Integer::sum);
                    h.append("<td class=\"done\">✓ the day's TODOs pass <small>(").append(g.failed()).append(" more for later)</small></td>");
                } else {
                    g.failing().forEach(id -> stuckOn.computeIfAbsent(c, k -> new LinkedHashMap<>()).merge(id, 1, Integer::sum));
                    String what = g.error() != null ? "could not run" : g.partial() ? "some checks ran"
                            : g.failed() == 0 && !g.missing().isEmpty() ? "checks missing" : g.failed() + " to fix";
                    h.append("<td class=\"todo\"><details data-key=\"").append(esc(RoomLink.key(s.learner()) + "/" + c)).append("\"><summary>")
                            .append(what).append("</summary><ul>");
                    g.failing().stream().limit(LISTED).forEach(id -> h.append("<li>").append(esc(known.title(c, id))).append("</li>"));
                    if (g.failing().size() > LISTED) h.append("<li>and ").append(g.failing().size() - LISTED).append(" more</li>");
                    if (g.error() != null) h.append("<li>").append(esc(g.error())).append("</li>");
                    else if (g.partial()) h.append("<li>a partial run (--only) is never done: grade the whole chapter</li>");
                    else if (!g.missing().isEmpty()) h.append("<li>the grading lists ").append(g.missing().size())
                            .append(" of the chapter's checks not at all: grade the whole chapter with this course's check.sh</li>");
                    h.append("</ul></details></td>");
                }
            }
            h.append("<td class=\"num\">").append(done).append(" of ").append(chapters.size()).append("</td></tr>\n");
        }
        h.append("</tbody><tfoot><tr><th>Done</th><th></th>");
        for (String c : chapters) h.append("<th>").append(doneBy.getOrDefault(c, 0)).append(" of ").append(seats.size()).append("</th>");
        h.append("<th></th></tr><tr><th>Most stuck on</th><th></th>");
        for (String c : chapters) {
            var top = stuckOn.getOrDefault(c, Map.of()).entrySet().stream().max(Map.Entry.comparingByValue()).orElse(null);
            h.append("<td>").append(top == null ? "" : "<small>" + esc(known.title(c, top.getKey())) + " (" + top.getValue() + " learner(s))</small>")
                    .append("</td>");
        }
        h.append("<td></td></tr></tfoot></table>\n");
    }

    /**
     * Each learner's latest race per chapter, as their server's ratio to the reference on each
     * workload, measured on their own machine (so machines can be compared), with the verdict.
     */
    private static void races(StringBuilder h, Known known, List<Seat> seats) {
        boolean any = seats.stream().anyMatch(s -> !s.races().isEmpty());
        if (!any) return;
        h.append("<h2>Races against the reference</h2>\n<p>Each learner's server against the reference solution on the same ")
                .append("machine (<code>scripts/bench.sh NN</code>): the figure the race decided on, as the learner's over the reference's ")
                .append("(req/s: above 1× is faster; CPU per request and heap per connection: below 1× is cheaper), then the race's verdict. ")
                .append("Ratios compare across laptops; raw figures do not.</p>\n");
        for (String chapter : known.shown()) {
            TreeSet<String> present = new TreeSet<>();
            seats.forEach(s -> present.addAll(s.races().getOrDefault(chapter, Map.of()).keySet()));
            if (present.isEmpty()) continue;
            List<String> workloads = known.workloads().stream().filter(present::contains).toList(); // the race's order
            h.append("<h3>Chapter ").append(esc(chapter)).append(", ").append(esc(known.chapters().get(chapter).title()))
                    .append("</h3>\n<table><thead><tr><th>Learner</th>");
            workloads.forEach(w -> h.append("<th class=\"num\">").append(esc(w)).append("</th>"));
            h.append("</tr></thead><tbody>\n");
            for (Seat s : seats) {
                Map<String, Seat.Raced> cells = s.races().get(chapter);
                if (cells == null) continue;
                h.append("<tr><td>").append(esc(s.learner())).append("</td>");
                for (String w : workloads) h.append("<td class=\"num\">").append(cell(cells.get(w))).append("</td>");
                h.append("</tr>\n");
            }
            h.append("</tbody></table>\n");
        }
    }

    /** "req/s 0.95× the reference's, same", "heap per connection 1.03× the reference's", or what stopped it. */
    static String cell(Seat.Raced r) {
        if (r == null) return "<small>not raced</small>";
        if (r.status() != BenchReport.Status.MEASURED) return "<small>" + esc(String.valueOf(r.status())) + "</small>";
        if (r.ratio() == null || r.figure() == null) return "<small>no ratio</small>";
        String figure = switch (r.figure()) {
            case "cpuPerRequest" -> "CPU per request";
            case "heapPerConnection" -> "heap per connection";
            default -> "req/s";
        };
        String verdict = r.verdict() == null ? "" : ", " + (r.verdict() == Verdict.Call.NOISY ? "too noisy to compare" : r.verdict().label());
        String busy = Boolean.TRUE.equals(r.busy())
                ? " <small class=\"busy\" title=\"other processes used the learner's machine during some turns: the verdict may be the machine's\">⚑ busy machine</small>" : "";
        return "<small>" + figure + "</small> " + String.format(Locale.ROOT, "%.2f×", r.ratio()) + " <small>the reference's" + verdict + "</small>" + busy;
    }

    /** "4 min ago", "just now", or "never". */
    static String age(Instant then, Instant now) {
        if (then == null) return "never";
        long s = Math.max(0, Duration.between(then, now).toSeconds());
        if (s < 60) return "just now";
        if (s < 3600) return s / 60 + " min ago";
        if (s < 86_400) return s / 3600 + " h ago";
        return s / 86_400 + " d ago";
    }

    public static String esc(String s) {
        return s == null ? "" : s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
