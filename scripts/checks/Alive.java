package checks;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import lib.Chapters;
import lib.Target;
import lib.Unavailable;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.opentest4j.TestAbortedException;

/**
 * Keeps one check's failure from making every later one wait out its own timeouts. After a
 * check that failed, the server must answer a GET / within {@value #PROBE_MS} ms. One that has
 * exited, or stopped answering, is started again if this harness started it, and the failed
 * check says so (it is started again before the next check, so a last check leaves no restart
 * behind); one given with --url cannot be, and the later checks are skipped, once, with
 * the reason. A check whose server cannot be looked into ({@link Unavailable}) is skipped.
 * What happened is noted on the failed check's own result ({@link Check#NOTE}), and what the
 * later checks must know is kept in the run's store ({@link RunContext}), so neither outlives
 * the run that made it (a --watch or --all grading in the same JVM starts clean). A check that
 * builds on another ({@link Check#after}) fails at once when that one failed earlier in the run.
 */
final class Alive implements BeforeEachCallback, AfterEachCallback, TestExecutionExceptionHandler {
    static final int PROBE_MS = 1000;

    /** The key, in the run's store ({@link RunContext}), of why the later checks cannot run (a --url server that stopped answering). */
    private static final String GONE = "gone";

    /** The key, in the run's store, of the checks that failed so far in this run: id to title. */
    private static final String FAILED = "failed";

    /** The key, in the run's store, of a check that failed without being tried ({@link Check#after}). */
    private static final String NOT_TRIED = "not-tried";

    /** The key, in the run's store, of a server left wedged by the check before: restarted before the next check, if any. */
    private static final String RESTART = "restart";

    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        String gone = RunContext.of(context).get(GONE, String.class);
        if (gone != null) throw new TestAbortedException(gone);
        waitsFor(context);
        Target t = target(context);
        if (RunContext.of(context).remove(RESTART) != null) t.restart(); // the check before left it wedged
        else t.reviveIfDead();
    }

    /** A check whose {@link Check#after} names a check that failed earlier in this run fails now, pointing at that one's TODO. */
    private static void waitsFor(ExtensionContext context) {
        Check check = context.getRequiredTestMethod().getAnnotation(Check.class);
        if (check == null || check.after().length == 0) return;
        Map<String, Failed> failed = failed(context);
        for (String id : check.after()) {
            Failed basis = failed.get(id);
            if (basis == null) continue;
            RunContext.of(context).put(NOT_TRIED, true);
            throw new NotTried(basis.todo(), basis.see(), basis.title(), "not tried: it builds on '" + basis.title() + "' (" + id
                    + "), which failed above; make that one pass first");
        }
    }

    /** A check that failed in this run: its title, the TODO it points at ("" for none), and the page that explains it. */
    private record Failed(String title, String todo, String see) {}

    @SuppressWarnings("unchecked")
    private static Map<String, Failed> failed(ExtensionContext context) {
        return (Map<String, Failed>) RunContext.of(context).getOrComputeIfAbsent(FAILED, k -> new ConcurrentHashMap<String, Failed>(), Map.class);
    }

    private static Chapters.Chapter chapter(ExtensionContext context) {
        return RunContext.of(context).get(Chapters.Chapter.class, Chapters.Chapter.class);
    }

    private static Target target(ExtensionContext context) {
        return RunContext.of(context).get(Target.class, Target.class);
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        Target t = target(context);
        // A server that exits after a check that passed is restarted by the next check's reviveIfDead.
        if (context.getExecutionException().isEmpty()) return;
        Throwable thrown = context.getExecutionException().get();
        // A check skipped (this machine or this server cannot be looked into) did not fail: what builds on it still runs.
        if (thrown instanceof TestAbortedException || thrown instanceof Unavailable) return;
        Check check = context.getRequiredTestMethod().getAnnotation(Check.class);
        Chapters.Chapter chapter = chapter(context);
        String id = Runner.id(context.getRequiredTestMethod());
        String todo = thrown instanceof Check.Symptom s && s.todo != null ? s.todo
                : chapter == null ? "" : chapter.todoFor(id).orElse("");
        failed(context).put(id, new Failed(context.getDisplayName(), todo,
                check == null ? "" : Runner.see(check, chapter == null ? null : chapter.number())));
        if (RunContext.of(context).remove(NOT_TRIED) != null) return; // it sent the server nothing
        if (t.answers(PROBE_MS)) return;
        if (t.exited()) {
            note(context, "the server process exited during this check; the grader restarted it for the next one"
                    + logTail(t));
            return;
        }
        String what = "the server stopped answering during this check (a GET / on a new connection got nothing in "
                + Client.seconds(PROBE_MS) + ")";
        if (t.startedHere()) {
            RunContext.of(context).put(RESTART, true);
            note(context, what + "; the grader restarts it before the next check" + logTail(t));
        } else {
            note(context, what + "; the later checks are skipped");
            RunContext.of(context).put(GONE, "skipped: the server stopped answering during '" + context.getDisplayName() + "'");
        }
    }

    private static void note(ExtensionContext context, String note) {
        context.publishReportEntry(Check.NOTE, note);
    }

    /** The last lines of the server's log, where this harness keeps one. */
    private static String logTail(Target t) {
        if (t.log() == null) return "";
        String tail = Target.tail(t.log(), 5).strip();
        return ". Its log is " + t.log() + (tail.isEmpty() ? "" : "; it ends:\n" + tail);
    }

    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable thrown) throws Throwable {
        if (thrown instanceof Unavailable u) throw u.here ? new NotHere(u.getMessage()) : new TestAbortedException(u.getMessage());
        throw thrown;
    }

    /**
     * A check not tried because one it builds on failed ({@link Check#after}): its own hint stands
     * back, and it sends the learner to the TODO and the page ({@code see}) of that one.
     */
    static final class NotTried extends Check.Symptom {
        final String see;
        final String waitsOn;

        /** {@code todo}: the TODO of the check it waits on, "" for none (not this check's own). */
        NotTried(String todo, String see, String waitsOn, String message) {
            super(todo, message);
            this.see = see;
            this.waitsOn = waitsOn;
        }
    }

    /** A check skipped because this machine cannot run it ({@link Unavailable#here}): it does not keep a chapter from being done. */
    static final class NotHere extends TestAbortedException {
        NotHere(String why) {
            super(why);
        }
    }
}
