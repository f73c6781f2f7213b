import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/** Runs JUnit 5 classes in-process and collects one result per check, with its hint. */
final class Runner {
    /** One check's outcome. {@code status} is pass, fail or skip. */
    record Result(String id, String name, String status, String message, String hint, String see) {
        boolean failed() {
            return status.equals("fail");
        }
    }

    /** Called as each check finishes, so a caller can print progress. */
    interface Progress {
        void finished(Result result);
    }

    static List<Result> run(List<Class<?>> classes, Progress progress) {
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(classes.stream().map(c -> selectClass(c)).toList())
                .configurationParameters(Map.of(
                        "junit.jupiter.execution.timeout.default", "60 s",
                        "junit.jupiter.execution.timeout.thread.mode.default", "SEPARATE_THREAD"))
                .build();
        List<Result> results = new ArrayList<>();
        TestExecutionListener listener = new TestExecutionListener() {
            @Override
            public void executionSkipped(TestIdentifier id, String reason) {
                if (id.isTest()) add(id, "skip", reason);
            }

            @Override
            public void executionFinished(TestIdentifier id, TestExecutionResult result) {
                if (id.isTest()) {
                    String status = switch (result.getStatus()) {
                        case SUCCESSFUL -> "pass";
                        case ABORTED -> "skip";
                        case FAILED -> "fail";
                    };
                    String message = result.getThrowable().map(Runner::describe).orElse("");
                    String note = Alive.NOTES.get(id.getUniqueId());
                    if (note != null) message = message.isEmpty() ? note : message + " (" + note + ")";
                    add(id, status, message);
                } else if (result.getStatus() == TestExecutionResult.Status.FAILED) {
                    // a whole class failed before its checks ran
                    add(id, "fail", result.getThrowable().map(Runner::describe).orElse("failed"));
                }
            }

            private void add(TestIdentifier id, String status, String message) {
                String checkId = id.getDisplayName();
                String hint = "";
                String see = "";
                if (id.getSource().orElse(null) instanceof MethodSource ms) {
                    checkId = ms.getClassName().replace("Checks", "").toLowerCase() + "." + ms.getMethodName();
                    try {
                        Method m = ms.getJavaMethod();
                        Hint h = m.getAnnotation(Hint.class);
                        if (h != null) {
                            hint = h.value();
                            see = h.see();
                        }
                    } catch (RuntimeException e) {
                        // no hint then
                    }
                }
                Result r = new Result(checkId, id.getDisplayName(), status, message, hint, see);
                results.add(r);
                if (progress != null) progress.finished(r);
            }
        };
        LauncherFactory.create().execute(request, listener);
        return results;
    }

    /** An assertion's message without JUnit's noise; other exceptions with their type. */
    private static String describe(Throwable t) {
        String message = t.getMessage() == null ? "" : t.getMessage().strip();
        if (t instanceof AssertionError) return message.isEmpty() ? "assertion failed" : message;
        if (t instanceof java.util.concurrent.TimeoutException) return "the check took too long: " + message;
        return t.getClass().getSimpleName() + (message.isEmpty() ? "" : ": " + message);
    }
}
