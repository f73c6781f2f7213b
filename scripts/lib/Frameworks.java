package lib;

import java.util.List;

/**
 * The servers people deploy, which the race runs beside the course's own
 * ({@code scripts/bench/frameworks}): the one list the race ({@code Framework}) and the
 * self-test (every one keeps the protocol) read. Each speaks the workshop protocol and takes the
 * kit's options; {@code cap} is what the model serves at once, for Little's law (0: no cap).
 */
public final class Frameworks {
    private Frameworks() {}

    public static final String DIR = "scripts/bench/frameworks";
    /** Tomcat's own default worker pool (server.tomcat.threads.max). */
    static final int TOMCAT_THREADS = 200;

    /** One framework server: its id in the race, its file under {@link #DIR}, its options, what it is, and its cap. */
    public record Entry(String id, String file, List<String> args, String label, int cap) {}

    /** What {@code bench.sh --all} adds, in chart order. */
    public static List<Entry> race() {
        return List.of(
                spring("spring", TOMCAT_THREADS),
                springVirtual(),
                new Entry("helidon", "HelidonSe.java", List.of(), "Helidon SE 4.5, a virtual thread a request (" + DIR + "/HelidonSe.java)", 0),
                new Entry("vertx", "VertxServer.java", List.of(), "Vert.x 5.1, event loops, /cpu on its worker pool (" + DIR + "/VertxServer.java)", 0),
                new Entry("webflux", "SpringWebFlux.java", List.of(),
                        "Spring WebFlux 7 on Reactor Netty, event loops, /cpu on Reactor's parallel scheduler (" + DIR + "/SpringWebFlux.java)", 0),
                new Entry("micronaut", "MicronautServer.java", List.of(),
                        "Micronaut 4.10 on Netty, blocking routes on a virtual thread a request (" + DIR + "/MicronautServer.java)", 0),
                new Entry("micronaut-loom", "MicronautServer.java", List.of("--loom-carrier", "true"),
                        "Micronaut 4.10 on Netty, its event loops carrying the blocking routes' virtual threads (" + DIR
                                + "/MicronautServer.java --loom-carrier true)", 0));
    }

    /** What {@code bench.sh --spring-demo} races: Tomcat with 16 and 50 platform threads, and with virtual threads. */
    public static List<Entry> springDemo() {
        return List.of(spring("spring-16", 16), spring("spring-50", 50), springVirtual());
    }

    private static Entry spring(String id, int threads) {
        return new Entry(id, "SpringBootTomcat.java", List.of("--threads", String.valueOf(threads)),
                "Spring Boot 4.1 on Tomcat, " + threads + " platform threads (" + DIR + "/SpringBootTomcat.java --threads " + threads + ")", threads);
    }

    private static Entry springVirtual() {
        return new Entry("spring-vt", "SpringBootTomcat.java", List.of("--virtual", "true"),
                "Spring Boot 4.1 on Tomcat, virtual threads (" + DIR + "/SpringBootTomcat.java --virtual true)", 0);
    }
}
