package checks;

import java.nio.file.Path;
import java.util.List;
import lib.Target;
import lib.Timeline;
import lib.Unavailable;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import room.RoomLink;

/**
 * check.sh --timeline: records the server's threads while a check about them runs
 * ({@link Check#timeline}, or any check named with --only), and writes what it saw as
 * {@code .results/timeline/NN-ID.json} ({@link Timeline}), which the chapter's page draws beside
 * the reference solution's. A grading without --timeline hands the run no {@link Request}, and
 * nothing is recorded. A server that is not a JVM, or cannot be looked into, is graded as usual,
 * with a note that says why it has no timeline.
 */
public final class Recorder implements BeforeEachCallback, AfterEachCallback {
    /**
     * What the grading asked for: where the course is, the folder to write to (the learner's
     * {@link Timeline#LEARNER}, or the self-test's own), the chapter, the checks to record (all
     * that are about threads when empty), and the server's words.
     */
    public record Request(Path root, Path dir, String chapter, List<String> only, String label, String word) {
        /** The file's name: "04-ch04.spread" for the exercise, "04-ch04.spread-solution" for the solution. */
        public String name(String id) {
            return chapter + "-" + id + ("exercise".equals(word) ? "" : "-" + word);
        }
    }

    private static final String RECORDING = "timeline-recording";

    @Override
    public void beforeEach(ExtensionContext context) {
        Request request = RunContext.of(context).get(Request.class, Request.class);
        if (request == null || !wanted(request, context)) return;
        Target target = RunContext.of(context).get(Target.class, Target.class);
        try {
            RunContext.of(context).put(RECORDING, Timeline.start(target.inspect()));
        } catch (Exception e) {
            context.publishReportEntry(Check.NOTE, "no timeline: " + (e instanceof Unavailable ? e.getMessage() : "the server could not be recorded (" + e.getMessage() + ")"));
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        Timeline.Recording recording = RunContext.of(context).remove(RECORDING, Timeline.Recording.class);
        if (recording == null) return;
        Request request = RunContext.of(context).get(Request.class, Request.class);
        String id = Runner.id(context.getRequiredTestMethod());
        try {
            Timeline.Doc doc = recording.stop(request.chapter(), id, context.getDisplayName(), request.label());
            Path file = Timeline.write(request.root(), request.dir(), request.name(id), doc);
            // One of the learner's results: it reaches a room this copy joined now, not with the next full grading.
            if (Timeline.learners(request.root(), request.dir())) RoomLink.sendLater(request.root());
            context.publishReportEntry(Check.NOTE, "timeline: " + request.root().relativize(file)
                    + " (the chapter's page draws it beside the reference's, when the course is served by scripts/start.sh)");
        } catch (Exception e) {
            recording.discard();
            context.publishReportEntry(Check.NOTE, "no timeline: the recording could not be read (" + e.getMessage() + ")");
        }
    }

    /** Whether this check is recorded: named with --only, or about threads. */
    private static boolean wanted(Request request, ExtensionContext context) {
        if (!request.only().isEmpty()) return request.only().contains(Runner.id(context.getRequiredTestMethod()));
        Check check = context.getRequiredTestMethod().getAnnotation(Check.class);
        return check != null && check.timeline();
    }
}
