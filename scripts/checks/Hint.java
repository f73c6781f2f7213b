import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * What the grader tells a learner when a check fails: a hint that teaches without giving the
 * answer, and the section of the course site that explains it ({@code page#anchor}). A check
 * that runs in several chapters (the protocol's) may say more where a chapter has its own likely
 * cause: {@code in = @Hint.In(chapter = "03", value = "...", see = "chapters/03-reactor#closing")}.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
@interface Hint {
    String value();

    String see();

    /** The hint in a given chapter, where its likely causes differ. */
    In[] in() default {};

    @Retention(RetentionPolicy.RUNTIME)
    @Target({})
    @interface In {
        String chapter();

        String value();

        String see();
    }
}
