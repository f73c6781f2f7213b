import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;

/**
 * Keeps one check's crash from failing all the later ones: before each check, a server that
 * this harness started and that has exited is started again, and the check that killed it
 * is told so. A check whose server cannot be looked into ({@link Unavailable}) is skipped.
 */
final class Alive implements BeforeEachCallback, AfterEachCallback, TestExecutionExceptionHandler {
    /** Notes per check id, shown with its result. */
    static final Map<String, String> NOTES = new ConcurrentHashMap<>();

    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        Target.get().reviveIfDead();
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        Target t = Target.get();
        Long pid = t.pid();
        ProcessHandle server = pid == null ? null : ProcessHandle.of(pid).orElse(null);
        boolean dead = pid != null && server == null;
        if (server != null) {
            try {
                server.onExit().get(150, java.util.concurrent.TimeUnit.MILLISECONDS); // a crash takes a moment
                dead = true;
            } catch (java.util.concurrent.TimeoutException e) {
                dead = false;
            }
        }
        if (dead) {
            NOTES.put(context.getUniqueId(), "the server process exited during this check; the grader restarted it for the next one");
        }
    }

    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable thrown) throws Throwable {
        if (thrown instanceof Unavailable u) throw new org.opentest4j.TestAbortedException(u.getMessage());
        throw thrown;
    }
}
