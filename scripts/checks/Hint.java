import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * What the grader tells a learner when a check fails: a hint that teaches without giving the
 * answer, and the section of the course site that explains it ({@code page#anchor}).
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
@interface Hint {
    String value();

    String see();
}
