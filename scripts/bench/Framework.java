import java.nio.file.Path;
import java.util.List;

/**
 * The servers people deploy, in the race beside the course's own (scripts/bench/frameworks):
 * each speaks the workshop protocol, passes its checks, and takes the kit's options. Their
 * role is "framework"; {@code cap} is what the model serves at once, for Little's law.
 */
final class Framework {
    private Framework() {}

    static final String DIR = "scripts/bench/frameworks";
    /** Tomcat's own default worker pool (server.tomcat.threads.max). */
    static final int TOMCAT_THREADS = 200;

    /** What {@code --all} adds, in chart order. */
    static List<Server> race(Path root) {
        return List.of(
                spring(root, "spring", TOMCAT_THREADS),
                springVirtual(root),
                server(root, "helidon", "HelidonSe.java", "Helidon SE 4.5, a virtual thread a request"),
                server(root, "vertx", "VertxServer.java", "Vert.x 5.1, event loops, /cpu on its worker pool"));
    }

    /** What {@code --spring-demo} races: Tomcat with 16 and 50 platform threads, and with virtual threads. */
    static List<Server> springDemo(Path root) {
        return List.of(spring(root, "spring-16", 16), spring(root, "spring-50", 50), springVirtual(root));
    }

    private static Server spring(Path root, String id, int threads) {
        return new Server(id, Server.Role.FRAMEWORK, "Spring Boot 4.1 on Tomcat, " + threads + " platform threads (" + DIR + "/SpringBootTomcat.java --threads "
                + threads + ")", root.resolve(DIR).resolve("SpringBootTomcat.java"), List.of("--threads", String.valueOf(threads)), threads);
    }

    private static Server springVirtual(Path root) {
        return new Server("spring-vt", Server.Role.FRAMEWORK, "Spring Boot 4.1 on Tomcat, virtual threads (" + DIR + "/SpringBootTomcat.java --virtual true)",
                root.resolve(DIR).resolve("SpringBootTomcat.java"), List.of("--virtual", "true"), 0);
    }

    private static Server server(Path root, String id, String file, String what) {
        return new Server(id, Server.Role.FRAMEWORK, what + " (" + DIR + "/" + file + ")", root.resolve(DIR).resolve(file), List.of(), 0);
    }
}
