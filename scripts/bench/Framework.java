package bench;

import contract.BenchReport;
import java.nio.file.Path;
import java.util.List;
import lib.Frameworks;

/** The framework servers of the race ({@link Frameworks}, the one list), as servers to start. Their role is {@link BenchReport.Role#FRAMEWORK}. */
public final class Framework {
    private Framework() {}

    /** What {@code --all} adds, in chart order. */
    public static List<Server> race(Path root) {
        return Frameworks.race().stream().map(e -> server(root, e)).toList();
    }

    /** What {@code --spring-demo} races: Tomcat with 16 and 50 platform threads, and with virtual threads. */
    static List<Server> springDemo(Path root) {
        return Frameworks.springDemo().stream().map(e -> server(root, e)).toList();
    }

    private static Server server(Path root, Frameworks.Entry e) {
        return new Server(e.id(), BenchReport.Role.FRAMEWORK, e.label(), root.resolve(Frameworks.DIR).resolve(e.file()), e.args(), e.cap());
    }
}
