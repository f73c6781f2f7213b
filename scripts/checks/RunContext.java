package checks;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * What one run of checks holds, handed to the checks by JUnit: the server under test
 * ({@link Target}), and for chapter 08 the {@link Backend} its trips call. {@link Runner} puts
 * them in the store of the launcher session it opens for the run, so a check declares what it
 * needs ({@code Ch03Checks(Target target)}) and nothing outlives the run: a second grading in
 * the same JVM (--watch, --all, the self-test) starts from its own. {@link Alive} keeps its
 * state there too.
 */
final class RunContext implements ParameterResolver {
    static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create("course-run");
    /** The same namespace, as the launcher session's store names it. */
    static final org.junit.platform.engine.support.store.Namespace SESSION = org.junit.platform.engine.support.store.Namespace.create("course-run");

    /** The run's store, from any check's or extension's context. */
    static ExtensionContext.Store of(ExtensionContext context) {
        return context.getStore(ExtensionContext.StoreScope.LAUNCHER_SESSION, NAMESPACE);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return of(context).get(parameter.getParameter().getType()) != null;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return of(context).get(type, type);
    }
}
