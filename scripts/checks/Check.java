package checks;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.lang.reflect.Method;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.MethodDescriptor;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.MethodOrdererContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * One check, as a learner sees it: its place in the run ({@code order}), its title (the behaviour
 * it asserts), the hint shown when it fails (the likely causes, without the answer), and the step
 * of the course site that teaches the fix (see: a page and the anchor of its section; SiteTest proves every
 * anchor exists). A check that runs in several chapters (the protocol's) may say more where a
 * chapter has its own likely cause: {@code in = @Check.In(chapter = "03", value = "...", see = "...")}.
 * A class of checks carries {@link Suite}.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
@Test
public @interface Check {
    int order();

    String title();

    String hint();

    String see();

    /** The hint in a given chapter, where its likely causes differ. */
    In[] in() default {};

    /**
     * The checks whose behaviour this one builds on ("ch08.failFast"): when one of them failed
     * earlier in the same run, this one fails at once, naming it and its TODO, instead of waiting
     * out its own timeouts to report the same cause ({@link Alive}). A check not run (--only) or
     * not in the chapter does not count.
     */
    String[] after() default {};

    /**
     * A behaviour that many checks build on, such as chapter 03's timers or chapter 06's flush: it
     * runs before every other check of the chapter (the protocol's included), so that the checks
     * that name it in {@link #after} know whether it failed, and a mistake that would fail them
     * all is reported once, by this check, with its cause.
     */
    boolean basic() default false;

    /**
     * A check about the server's threads (which one did the work, what they waited for):
     * {@code check.sh NN --timeline} records them while it runs ({@link Recorder}), and its
     * failure prints that command.
     */
    boolean timeline() default false;

    /**
     * A check whose verdict rests on elapsed time (an answer within a bound, a pin over 20 ms), or on what the server
     * shows within a window of it (waits seen in flight together by thread dumps): when it fails while
     * other programs keep the machine busy ({@link Others#BUSY_CORES_FOR_CHECKS}), or where the
     * grader cannot tell, it runs once more alone at the end of the grading; if it fails again on
     * a busy machine, what happened begins by saying so, and by how much ({@link Runner#busy}).
     * Observing the server (which thread, how many in flight) keeps such windows wide: a busy machine
     * slows what they see, and seldom changes it. Any check whose look inside the server fails
     * ({@link lib.Jcmd.Failed}: jcmd timed out, or its dump came back cut short) runs once more
     * alone too, whatever the machine: that failure is the tool's, not the server's answer.
     */
    boolean timed() default false;

    @Retention(RetentionPolicy.RUNTIME)
    @Target({})
    @interface In {
        String chapter();

        String value();

        String see();
    }

    /**
     * A failure whose symptom points at a cause of its own: another TODO than the one the registry
     * gives the check ({@code new Check.Symptom("fan-out", "the legs ran one after another")}), whose
     * "work on" line it names, and a hint for that symptom in place of the check's
     * ({@code Check.Symptom.hinting("...", "response 17 of 40 answers request 18")}).
     */
    class Symptom extends AssertionError {
        final String todo;
        final String hint;

        Symptom(String todo, String message) {
            this(todo, null, message);
        }

        Symptom(String todo, String hint, String message) {
            super(message);
            this.todo = todo;
            this.hint = hint;
        }

        /** A failure whose symptom has its own hint, under the check's TODO. */
        static Symptom hinting(String hint, String message) {
            return new Symptom(null, hint, message);
        }
    }

    /**
     * The key of a note a check publishes on its result (JUnit's {@code TestReporter}):
     * {@code reporter.publishEntry(Check.NOTE, "passes only because ...")}. The grader prints it
     * under the check's line, pass or fail.
     */
    String NOTE = "note";

    /**
     * A class of checks: run in {@code order}, named by {@code title}, handed what the run holds
     * ({@link RunContext}), stopped early when the server dies ({@link Alive}), and recorded
     * when asked ({@link Recorder}).
     */
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.TYPE)
    @ExtendWith({RunContext.class, Alive.class, Recorder.class})
    @TestMethodOrder(Check.InOrder.class)
    @DisplayNameGeneration(Check.Titles.class)
    @interface Suite {
    }

    /** Orders a class's checks by {@link Check#order()}, then by name: the order they run in, and the list of checks' ({@link Grade#checkList}). */
    final class InOrder implements MethodOrderer {
        /** The order itself; a method that is no check goes last. */
        static final Comparator<Method> RUN = Comparator.<Method>comparingInt(
                m -> m.isAnnotationPresent(Check.class) ? m.getAnnotation(Check.class).order() : Integer.MAX_VALUE).thenComparing(Method::getName);

        @Override
        public void orderMethods(MethodOrdererContext context) {
            context.getMethodDescriptors().sort(Comparator.comparing(MethodDescriptor::getMethod, RUN));
        }
    }

    /** Names each check by its {@link Check#title()}. */
    final class Titles extends DisplayNameGenerator.Standard {
        @Override
        public String generateDisplayNameForMethod(List<Class<?>> enclosing, Class<?> testClass, Method method) {
            Check check = method.getAnnotation(Check.class);
            return check != null ? check.title() : super.generateDisplayNameForMethod(enclosing, testClass, method);
        }
    }
}
