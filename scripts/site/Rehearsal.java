///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
//DEPS com.fasterxml.jackson.core:jackson-databind:2.22.4
//SOURCES Pages.java ../lib/Chapters.java ../lib/Jackson.java

package site;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import lib.Chapters;
import lib.Jackson;

/**
 * The agendas rehearsed against what is measured: for every slot of every plan in
 * site/data/course.json, the minutes it needs, from the words its learners read (the chapter's
 * page, or the sections an item "reads"), the gradings of its core TODOs (site/measured/workshop.json's
 * check-NN, the untouched exercise's), the measured runs it holds, the writing of each core TODO
 * and the live demo (both assumed: {@link #CODING_MINUTES_PER_TODO}, {@link #DEMO_MINUTES}), and a
 * buffer ({@link #BUFFER}). Writes site/measured/rehearsal.json, whole minutes only; the guide's
 * timetables show each slot's need from it, the site build fails on a slot shorter than its need,
 * and SiteTest fails when the committed file is not what this computes from the committed sources.
 *
 * <p>Usage (from the project root): {@code jbang scripts/site/Rehearsal.java [ROOT]}, after a
 * change to a page, an agenda, or a measured run.
 */
public final class Rehearsal {
    public static final Path FILE = Path.of("site/measured/rehearsal.json");
    /** Reading speed, words a minute, as the page budget reads ({@link Pages#WORDS_A_MINUTE}). */
    static final double WORDS_A_MINUTE = Pages.WORDS_A_MINUTE;
    /** Writing one TODO of a core path, from reading its comment to a save that compiles: an assumption, not a measurement. */
    static final double CODING_MINUTES_PER_TODO = 6;
    /** Gradings a core TODO takes: one that fails and shows a hint, one that passes. */
    static final int GRADINGS_PER_TODO = 2;
    /** The live demo of a chapter (or of a titled slot that has one), with the room predicting first: an assumption. */
    static final double DEMO_MINUTES = 5;
    /** What a real room adds: questions, a laptop that needs help, a break that runs over. */
    static final double BUFFER = 0.10;

    /** One slot of a plan, in whole minutes: what it has, what it needs, and of what. */
    record Slot(String id, String name, int minutes, int needMinutes, int readingMinutes, int codingMinutes,
                int gradingMinutes, int runMinutes, int demoMinutes, boolean fits) {}

    public record Plan(String id, String title, List<Slot> slots) {}

    record Assumptions(double wordsPerMinute, double codingMinutesPerTodo, int gradingsPerTodo, double demoMinutes, double buffer) {}

    record File(String about, String command, Assumptions assumptions, List<Plan> plans) {}

    public static void main(String[] args) throws IOException {
        Path root = Path.of(args.length > 0 ? args[0] : ".").toAbsolutePath().normalize();
        List<Plan> plans = plans(root);
        Files.writeString(root.resolve(FILE), text(plans));
        System.out.println("rehearsal: " + FILE + " written");
        unfit(plans).forEach(u -> System.out.println("rehearsal: " + u));
    }

    /** The file's text for {@code plans} (as {@link #plans} computes them from a root's committed sources). */
    public static String text(List<Plan> plans) {
        return Jackson.write(new File(
                "Each agenda slot of site/data/course.json rehearsed against what is measured, in whole minutes (scripts/site/Rehearsal.java:"
                        + " do not edit). need = (reading + coding + gradings + runs + demo) x (1 + buffer), rounded up. Reading: the chapter's page"
                        + " (or the sections a slot reads) at wordsPerMinute, its prose only (code included by tag left out). Gradings: one before the"
                        + " first step and gradingsPerTodo for each TODO of the slot's core path, each as long as the untouched exercise's grading"
                        + " (site/measured/workshop.json, check-NN). Runs: the measured runs the slot holds; a chapter with no exercise is read while"
                        + " its race runs, so it needs the longer of the two. Coding (codingMinutesPerTodo a core TODO) and the demo are assumptions,"
                        + " not measurements.",
                "jbang scripts/site/Rehearsal.java",
                new Assumptions(WORDS_A_MINUTE, CODING_MINUTES_PER_TODO, GRADINGS_PER_TODO, DEMO_MINUTES, BUFFER),
                plans)) + "\n";
    }

    /** Every slot of {@code plans} shorter than its need, one line each. */
    public static List<String> unfit(List<Plan> plans) {
        List<String> unfit = new ArrayList<>();
        for (Plan p : plans) {
            for (Slot s : p.slots()) {
                if (!s.fits()) {
                    unfit.add(String.format(Locale.ROOT, "%s, %s: %d minutes, and it needs %d (reading %d, coding %d, gradings %d, runs %d, demo %d, and a %d%% buffer)",
                            p.id(), s.name(), s.minutes(), s.needMinutes(), s.readingMinutes(), s.codingMinutes(), s.gradingMinutes(),
                            s.runMinutes(), s.demoMinutes(), Math.round(BUFFER * 100)));
                }
            }
        }
        return unfit;
    }

    public static List<Plan> plans(Path root) throws IOException {
        JsonNode course = Jackson.tree(Files.readString(root.resolve(Chapters.FILE)));
        JsonNode workshop = Jackson.tree(Files.readString(root.resolve("site/measured/workshop.json")));
        Map<String, Double> runMinutes = new HashMap<>();
        workshop.path("runs").forEach(r -> runMinutes.put(r.path("id").asText(), r.path("wallSeconds").asDouble() / 60));
        Map<String, Chapters.Chapter> chapters = Chapters.read(root);
        Map<String, JsonNode> agendaOf = new HashMap<>();
        course.path("chapters").forEach(c -> agendaOf.put(c.path("number").asText(), c.path("agenda")));
        List<Plan> plans = new ArrayList<>();
        for (JsonNode plan : course.path("agendas")) {
            String id = plan.path("id").asText();
            List<Slot> slots = new ArrayList<>();
            for (JsonNode item : plan.path("items")) {
                Chapters.Chapter c = chapters.get(item.path("chapter").asText(null));
                if (c != null) {
                    slots.add(chapter(root, c, agendaOf.get(c.number()).path(id), runMinutes));
                } else {
                    slots.add(titled(root, item, runMinutes));
                }
            }
            plans.add(new Plan(id, plan.path("title").asText(), unique(slots)));
        }
        return plans;
    }

    static Slot chapter(Path root, Chapters.Chapter c, JsonNode in, Map<String, Double> runMinutes) throws IOException {
        int minutes = in.path("minutes").asInt(c.minutes());
        double reading = Pages.measure(root.resolve("site/content/chapters/" + c.slug() + ".adoc"), 0).words() / WORDS_A_MINUTE;
        double held = held(in, runMinutes);
        double demo = in.hasNonNull("live") ? DEMO_MINUTES : 0;
        int core = in.path("core").size();
        double coding = core * CODING_MINUTES_PER_TODO;
        double grading = 0;
        if (!c.todos().isEmpty()) {
            Double one = runMinutes.get("check-" + c.number());
            if (one == null) throw new IOException("site/measured/workshop.json has no check-" + c.number() + " (chapter " + c.number() + "'s untouched grading)");
            grading = (1 + GRADINGS_PER_TODO * core) * one;
        }
        // A chapter with no exercise is read while its race runs.
        double work = c.todos().isEmpty() ? Math.max(reading, held) + demo : reading + coding + grading + held + demo;
        return slot(c.number(), c.number() + " " + c.title(), minutes, work, reading, coding, grading, held, demo);
    }

    static Slot titled(Path root, JsonNode item, Map<String, Double> runMinutes) throws IOException {
        String title = item.path("title").asText();
        double reading = 0;
        for (JsonNode r : item.path("reads")) reading += words(root, r.asText()) / WORDS_A_MINUTE;
        double held = held(item, runMinutes);
        double demo = item.hasNonNull("live") ? DEMO_MINUTES : 0;
        // A slot that reads nothing and holds no run (a break, lunch, the close, a buffer) needs nothing.
        double work = reading + held + demo;
        return slot(id(title), title, item.path("minutes").asInt(), work, reading, 0, 0, held, demo);
    }

    static Slot slot(String id, String name, int minutes, double work, double reading, double coding, double grading, double held, double demo) {
        int need = (int) Math.ceil(work * (1 + BUFFER) - 1e-9);
        return new Slot(id, name, minutes, need, (int) Math.round(reading), (int) Math.round(coding), (int) Math.round(grading),
                (int) Math.round(held), (int) Math.round(demo), need <= minutes);
    }

    static double held(JsonNode in, Map<String, Double> runMinutes) throws IOException {
        double held = 0;
        for (JsonNode h : in.path("holds")) {
            Double m = runMinutes.get(h.asText());
            if (m == null) throw new IOException("site/measured/workshop.json has no run " + h.asText() + ", which an agenda slot holds");
            held += m;
        }
        return held;
    }

    /**
     * The words of {@code what}, a page under site/content ("protocol") or a section of one
     * ("protocol#Endpoints": from its "== Endpoints" line to the next "== " line).
     */
    static int words(Path root, String what) throws IOException {
        String[] parts = what.split("#", 2);
        Path page = root.resolve("site/content/" + parts[0] + ".adoc");
        if (!Files.isRegularFile(page)) throw new IOException("an agenda slot reads " + what + ", and there is no " + page);
        List<String> lines = Files.readAllLines(page);
        if (parts.length == 2) {
            int from = lines.indexOf("== " + parts[1]);
            if (from < 0) throw new IOException("an agenda slot reads " + what + ", and " + parts[0] + ".adoc has no section '== " + parts[1] + "'");
            int to = from + 1;
            while (to < lines.size() && !lines.get(to).startsWith("== ")) to++;
            lines = lines.subList(from, to);
        }
        return Pages.words(Pages.prose(lines));
    }

    /** The slots with ids made unique within their plan: a second "break" is "break-2". */
    static List<Slot> unique(List<Slot> slots) {
        Map<String, Integer> seen = new HashMap<>();
        List<Slot> out = new ArrayList<>();
        for (Slot s : slots) {
            int n = seen.merge(s.id(), 1, Integer::sum);
            out.add(n == 1 ? s : new Slot(s.id() + "-" + n, s.name(), s.minutes(), s.needMinutes(), s.readingMinutes(), s.codingMinutes(),
                    s.gradingMinutes(), s.runMinutes(), s.demoMinutes(), s.fits()));
        }
        return out;
    }

    /** "A buffer" -> "a-buffer". */
    static String id(String title) {
        return title.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-|-$", "");
    }
}
