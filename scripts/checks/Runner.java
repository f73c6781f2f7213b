package checks;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import contract.CheckReport;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import lib.Jcmd;
import lib.Others;
import lib.Target;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/** Runs JUnit 5 classes in-process and collects one result per check, with its hint. */
public final class Runner {
    /**
     * One check's outcome. {@code status} is pass, fail or skip; {@code note} what the check or the
     * harness noted beside it ("" when nothing), such as why a pass says little; {@code todo} the
     * TODO its symptom points at, when the check named one ({@link Check.Symptom}), else null;
     * {@code ms} how long it ran; {@code notHere}, skipped because this machine cannot run it
     * ({@link Alive.NotHere}); {@code waitsOn}, the title of the check this one was not tried for
     * ({@link Alive.NotTried}), else null.
     */
    public record Result(String id, String name, CheckReport.Status status, String message, String note, String todo, String hint, String see, long ms,
                  boolean notHere, String waitsOn) {
        public Result(String id, String name, CheckReport.Status status, String message, String note, String todo, String hint, String see, long ms) {
            this(id, name, status, message, note, todo, hint, see, ms, false, null);
        }

        public boolean failed() {
            return status == CheckReport.Status.FAIL;
        }
    }

    /** Called as each check finishes, so a caller can print progress. */
    public interface Progress {
        void finished(Result result);
    }

    /** Runs tests that need nothing from a run (the self-test's unit tests). */
    public static List<Result> run(List<Class<?>> classes, Progress progress) {
        return run(classes, null, List.of(), List.of(), progress);
    }

    /**
     * Runs the checks for {@code chapter} (its own hints win), or for no chapter in particular;
     * only those named in {@code only} ("ch03.slowReader", "protocol.keepAlive"), or all of them
     * when it is empty (a name that is no check of these classes is an error). {@code given}: what
     * this run hands the checks ({@link RunContext}), such as its {@link Target}, each by its class.
     */
    /** JUnit's settings for every run: a timeout per check, on a thread of its own (a socket read ignores interrupts). */
    private static final Map<String, String> SETTINGS = Map.of(
            "junit.jupiter.execution.timeout.default", "60 s",
            "junit.jupiter.execution.timeout.thread.mode.default", "SEPARATE_THREAD");

    public static List<Result> run(List<Class<?>> classes, String chapter, List<String> only, List<Object> given, Progress progress) {
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(selectors(classes, only))
                .configurationParameters(SETTINGS)
                .build();
        List<Result> results = new ArrayList<>();
        Map<String, Long> started = new java.util.concurrent.ConcurrentHashMap<>();
        // What other programs used during each check (Check.timed): a server given by its PID is ours too.
        java.util.Set<Long> outside = given.stream().filter(Target.class::isInstance).map(Target.class::cast)
                .filter(t -> !t.startedHere() && t.pid() != null).map(Target::pid).collect(java.util.stream.Collectors.toSet());
        Map<String, Others.Snapshot> machine = new java.util.concurrent.ConcurrentHashMap<>();
        // Timed checks that failed on a busy machine, with what others used then: each runs again alone at the
        // end, and its entry, taken out when that run ends, tells it from the first.
        Map<Method, Double> again = java.util.Collections.synchronizedMap(new java.util.LinkedHashMap<>());
        // Notes published during this run only (Check.NOTE): one run's notes never reach another's results.
        Map<String, List<String>> notes = new java.util.concurrent.ConcurrentHashMap<>();
        TestExecutionListener listener = new TestExecutionListener() {
            @Override
            public void executionStarted(TestIdentifier id) {
                started.put(id.getUniqueId(), System.nanoTime());
                if (id.isTest()) { // what others use, for a check timed or one whose look inside the server fails
                    Others.Snapshot now = Others.take(outside);
                    if (now != null) machine.put(id.getUniqueId(), now);
                }
            }

            @Override
            public void reportingEntryPublished(TestIdentifier id, ReportEntry entry) {
                String note = entry.getKeyValuePairs().get(Check.NOTE);
                if (note != null) notes.computeIfAbsent(id.getUniqueId(), k -> new java.util.concurrent.CopyOnWriteArrayList<>()).add(note);
            }

            @Override
            public void executionSkipped(TestIdentifier id, String reason) {
                if (id.isTest()) add(id, CheckReport.Status.SKIP, reason, null);
            }

            @Override
            public void executionFinished(TestIdentifier id, TestExecutionResult result) {
                if (id.isTest()) {
                    CheckReport.Status status = switch (result.getStatus()) {
                        case SUCCESSFUL -> CheckReport.Status.PASS;
                        case ABORTED -> CheckReport.Status.SKIP;
                        case FAILED -> CheckReport.Status.FAIL;
                    };
                    Throwable thrown = result.getThrowable().orElse(null);
                    String message = thrown == null ? "" : status == CheckReport.Status.SKIP ? skipped(thrown) : describe(thrown);
                    add(id, status, message, thrown);
                } else if (result.getStatus() == TestExecutionResult.Status.FAILED) {
                    // a whole class failed before its checks ran
                    add(id, CheckReport.Status.FAIL, result.getThrowable().map(Runner::describe).orElse("failed"), null);
                }
            }

            /**
             * One result; {@code thrown}, what the check threw (null for a skip before it ran, or a
             * class that failed), gives what the harness reads from it: a symptom's TODO and own
             * hint ({@link Check.Symptom}), a check not tried ({@link Alive.NotTried}: it sends the
             * learner to the check it waits on, and its own hint stands back), or one this machine
             * cannot run ({@link Alive.NotHere}).
             */
            private void add(TestIdentifier id, CheckReport.Status status, String message, Throwable thrown) {
                String todo = thrown instanceof Check.Symptom s ? s.todo : null;
                String ownHint = thrown instanceof Check.Symptom s ? s.hint : null;
                Alive.NotTried notTried = thrown instanceof Alive.NotTried n ? n : null;
                boolean notHere = thrown instanceof Alive.NotHere;
                String checkId = id.getDisplayName();
                String hint = "";
                String see = "";
                Method method = null;
                if (id.getSource().orElse(null) instanceof MethodSource ms) {
                    checkId = idPrefix(ms.getJavaClass()) + "." + ms.getMethodName();
                    try {
                        method = ms.getJavaMethod();
                        Check check = method.getAnnotation(Check.class);
                        if (check != null) {
                            hint = hint(check, chapter);
                            see = see(check, chapter);
                        }
                    } catch (RuntimeException e) {
                        // no hint then
                    }
                }
                Others.Snapshot from = machine.remove(id.getUniqueId());
                double others = from == null ? Double.NaN : Others.cores(from, Others.take(outside));
                Double first = method == null ? null : again.remove(method); // present: this run is the one again, alone
                // A look inside the server that failed (jcmd, Jcmd.Failed) says nothing of the server: run again alone, always.
                boolean lookFailed = lookFailed(thrown);
                if (status == CheckReport.Status.FAIL && (timed(id) || lookFailed) && notTried == null && method != null) {
                    if (first == null && (lookFailed || Double.isNaN(others) || others >= Others.BUSY_CORES_FOR_CHECKS)) {
                        again.put(method, others); // its result comes when it has run again, alone
                        started.remove(id.getUniqueId());
                        notes.remove(id.getUniqueId());
                        return;
                    }
                    String said = message;
                    if (first != null) message = busy(first, others, lookFailed).map(b -> b + "\n" + said).orElse(said);
                }
                if (notTried != null) {
                    hint = "";
                    see = notTried.see;
                } else if (ownHint != null) {
                    hint = ownHint;
                }
                Long start = started.remove(id.getUniqueId());
                long ms = start == null ? 0 : (System.nanoTime() - start) / 1_000_000;
                String note = String.join("; ", notes.getOrDefault(id.getUniqueId(), List.of()));
                Result r = new Result(checkId, id.getDisplayName(), status, message, note, todo, hint, see, ms, notHere,
                        notTried == null ? null : notTried.waitsOn);
                results.add(r);
                if (progress != null) progress.finished(r);
            }
        };
        // The basic checks (Check.basic) run first, in a pass of their own; a check that builds on
        // one of a later class (Check.after) runs after that class, in a last pass of the same
        // session: either way, a check sees whether the ones it builds on failed.
        List<Method> selected = selected(classes, only);
        List<Method> first = selected.stream().filter(Runner::basic).toList();
        List<Method> later = deferred(classes, selected);
        try (LauncherSession session = LauncherFactory.openSession()) {
            for (Object value : given) session.getStore().put(RunContext.SESSION, value.getClass(), value);
            if (first.isEmpty() && later.isEmpty()) {
                session.getLauncher().execute(request, listener);
            } else {
                for (List<Method> pass : List.of(first, selected.stream().filter(m -> !first.contains(m) && !later.contains(m)).toList(), later)) {
                    if (!pass.isEmpty()) session.getLauncher().execute(requestFor(pass), listener);
                }
            }
            for (Method busy : List.copyOf(again.keySet())) session.getLauncher().execute(requestFor(List.of(busy)), listener);
        }
        return results;
    }

    /** Whether a test is a check whose verdict rests on time ({@link Check#timed}). */
    private static boolean timed(TestIdentifier id) {
        try {
            return id.getSource().orElse(null) instanceof MethodSource ms && ms.getJavaMethod().getAnnotation(Check.class) instanceof Check c && c.timed();
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** How the first line of what happened begins when a timed check failed twice on a busy machine. */
    public static final String BUSY = "the machine was busy";

    /**
     * The sentence that comes first when a timed check ({@link Check#timed}) failed on a busy
     * machine and again when it ran alone: what others used each time; empty when the second run
     * was quiet (then the failure is the server's) or the machine cannot tell.
     */
    public static java.util.Optional<String> busy(double first, double second) {
        return busy(first, second, false);
    }

    /**
     * {@link #busy(double, double)}, for a check that timed the server or, {@code looked}, one
     * whose look inside it ({@link Jcmd.Failed}) failed both times.
     */
    public static java.util.Optional<String> busy(double first, double second, boolean looked) {
        if (Double.isNaN(second) || second < Others.BUSY_CORES_FOR_CHECKS) return java.util.Optional.empty();
        String why = looked ? "This check looks inside the server with the JDK's jcmd, which a busy machine slows and cuts short"
                : "This check times the server";
        return java.util.Optional.of(BUSY + ": other programs used " + (Double.isNaN(first) ? "?" : Others.words(first))
                + " during this check, and " + Others.words(second) + " when it ran again alone, after the others."
                + " " + why + ": close what you can (a build, a browser tab, a video call) and grade again"
                + " to be sure of what it saw:");
    }

    /** Whether a check failed because a look inside the server failed ({@link Jcmd.Failed}), which is not the server's answer. */
    static boolean lookFailed(Throwable thrown) {
        for (Throwable t = thrown; t != null; t = t.getCause()) {
            if (t instanceof Jcmd.Failed) return true;
        }
        return false;
    }

    /** A run of exactly these checks, with the run's settings. */
    private static LauncherDiscoveryRequest requestFor(List<Method> checks) {
        return LauncherDiscoveryRequestBuilder.request()
                .selectors(checks.stream().<org.junit.platform.engine.DiscoverySelector>map(
                        m -> org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod(m.getDeclaringClass(), m)).toList())
                .configurationParameters(SETTINGS)
                .build();
    }

    /** The check methods this run selects, class by class in the order given. */
    static List<Method> selected(List<Class<?>> classes, List<String> only) {
        List<Method> all = new ArrayList<>();
        for (Class<?> c : classes) {
            for (Method m : c.getDeclaredMethods()) {
                if (m.isAnnotationPresent(Check.class) && (only.isEmpty() || only.contains(id(m)) || only.contains(idPrefix(c)))) all.add(m);
            }
        }
        return all;
    }

    /** A check's hint in {@code chapter}: its own for that chapter ({@link Check.In}), else its general one. */
    static String hint(Check check, String chapter) {
        for (Check.In in : check.in()) if (in.chapter().equals(chapter)) return in.value();
        return check.hint();
    }

    /** The page and section a check sends the learner to in {@code chapter}. */
    static String see(Check check, String chapter) {
        for (Check.In in : check.in()) if (in.chapter().equals(chapter)) return in.see();
        return check.see();
    }

    /** Whether a check is one that others build on ({@link Check#basic}): it runs first. */
    static boolean basic(Method check) {
        return check.getAnnotation(Check.class).basic();
    }

    /**
     * The checks of {@code selected} that name, in Check.after, a selected check of a class that
     * runs after their own (a basic check runs first, whatever its class).
     */
    static List<Method> deferred(List<Class<?>> classes, List<Method> selected) {
        List<String> ids = selected.stream().map(Runner::id).toList();
        List<Method> later = new ArrayList<>();
        for (Method m : selected) {
            if (basic(m)) continue;
            int own = classes.indexOf(m.getDeclaringClass());
            for (String after : m.getAnnotation(Check.class).after()) {
                int at = ids.indexOf(after);
                if (at >= 0 && !basic(selected.get(at)) && classes.indexOf(selected.get(at).getDeclaringClass()) > own) {
                    later.add(m);
                    break;
                }
            }
        }
        return later;
    }

    /** Every check's id in {@code classes} ("ch03.slowReader", "protocol.keepAlive"). */
    public static List<String> ids(List<Class<?>> classes) {
        List<String> ids = new ArrayList<>();
        for (Class<?> c : classes) {
            for (Method m : c.getDeclaredMethods()) {
                if (m.isAnnotationPresent(Check.class)) ids.add(id(m));
            }
        }
        return ids;
    }

    /** What to run: every check of {@code classes}, or only those named in {@code only}; an unknown name is an error. */
    public static List<org.junit.platform.engine.DiscoverySelector> selectors(List<Class<?>> classes, List<String> only) {
        List<org.junit.platform.engine.DiscoverySelector> selectors = new ArrayList<>();
        if (only.isEmpty()) classes.forEach(c -> selectors.add(selectClass(c)));
        List<String> known = ids(classes);
        for (String id : only) {
            Class<?> suite = classes.stream().filter(c -> idPrefix(c).equals(id)).findFirst().orElse(null);
            if (suite != null) { // a suite's name: all its checks, such as "protocol"
                selectors.add(selectClass(suite));
                continue;
            }
            if (!known.contains(id)) throw new IllegalArgumentException("no check '" + id + "' in this chapter");
            int dot = id.indexOf('.');
            Class<?> owner = classes.stream().filter(c -> idPrefix(c).equals(id.substring(0, dot))).findFirst().orElseThrow();
            Method check = java.util.Arrays.stream(owner.getDeclaredMethods())
                    .filter(m -> m.getName().equals(id.substring(dot + 1)) && m.isAnnotationPresent(Check.class)).findFirst().orElseThrow();
            selectors.add(org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod(owner, check)); // its parameters too (a TestReporter)
        }
        return selectors;
    }

    private static final java.util.regex.Pattern EXPECTED = java.util.regex.Pattern.compile(
            "(?s)(.*?)\\s*(?:==> )?expected: <(.*)> but was: <(.*)>");

    /**
     * JUnit's "MESSAGE ==> expected: <0> but was: <49>" in plain words: "MESSAGE (expected 0, got
     * 49)"; the "expected: <true> but was: <false>" of a failed assertTrue goes, the message says it all.
     */
    public static String plain(String message) {
        java.util.regex.Matcher m = EXPECTED.matcher(message);
        if (!m.matches()) return message;
        String said = m.group(1).strip();
        String expected = m.group(2).strip();
        String got = m.group(3).strip();
        boolean truth = (expected.equals("true") && got.equals("false")) || (expected.equals("false") && got.equals("true"));
        if (truth) return said.isEmpty() ? "assertion failed" : said;
        String plain = "expected " + expected + ", got " + (got.isEmpty() ? "nothing" : got);
        return said.isEmpty() ? plain : said + " (" + plain + ")";
    }

    /** The first part of a check's id: "ch03" for Ch03Checks, "protocol" for ProtocolChecks. */
    static String idPrefix(Class<?> checks) {
        return checks.getSimpleName().replace("Checks", "").toLowerCase();
    }

    /** A check's id: "ch03.slowReader" for Ch03Checks.slowReader. */
    public static String id(Method check) {
        return idPrefix(check.getDeclaringClass()) + "." + check.getName();
    }

    /** Why a check was skipped, in plain words: the reason alone, without JUnit's "Assumption failed:" or a class name. */
    static String skipped(Throwable t) {
        String message = t.getMessage() == null ? "" : t.getMessage().strip();
        if (message.startsWith("Assumption failed:")) message = message.substring("Assumption failed:".length()).strip();
        return message.isEmpty() ? "skipped" : message;
    }

    /** An assertion's message without JUnit's noise; other exceptions with their type. */
    private static String describe(Throwable t) {
        String message = t.getMessage() == null ? "" : t.getMessage().strip();
        if (t instanceof AssertionError) return message.isEmpty() ? "assertion failed" : plain(message);
        if (t instanceof java.util.concurrent.TimeoutException) return "the check took too long: " + message;
        return t.getClass().getSimpleName() + (message.isEmpty() ? "" : ": " + message);
    }
}
