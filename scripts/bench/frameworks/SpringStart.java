import java.io.IOException;
import java.net.ServerSocket;
import java.util.HashMap;
import java.util.Map;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;

/**
 * How the two Spring Boot servers in this folder start (Tomcat's and WebFlux's): Boot's
 * properties that every one of them sets, then the application on the kit's options, and the
 * kit's ready line with the port Boot took. Each file adds the properties of its own server.
 */
final class SpringStart {
    private SpringStart() {}

    /** The properties both servers set: the kit's address and port, a quiet start, and Boot's shutdown. */
    static Map<String, Object> properties(Options o) {
        Map<String, Object> p = new HashMap<>();
        p.put("server.address", o.host);
        p.put("server.port", o.port);                                   // 0: any free port
        p.put("spring.main.banner-mode", "off");                        // a quick start and a small log
        p.put("logging.level.root", "warn");
        // Why: it warns that JPA entities are not scanned in the default package; there are none.
        p.put("logging.level.org.springframework.boot.autoconfigure.AutoConfigurationPackages", "error");
        // Why: Boot 4 waits up to 30 s for requests in flight when stopped; the race and the
        // grader stop a server after its load, and must not wait for it.
        p.put("server.shutdown", "immediate");
        return p;
    }

    /** Starts {@code application} with {@code properties}, then prints the kit's ready line. */
    static void run(Class<?> application, Options o, Map<String, Object> properties) throws IOException {
        // Why: Boot reports a busy port in a 15-line failure report and exits 1; try the port first,
        // so a BindException reaches the kit, which says it in one sentence (exit 2).
        if (o.port != 0) {
            try (ServerSocket probe = new ServerSocket()) {
                probe.bind(o.address());
            }
        }
        SpringApplication app = new SpringApplication(application);
        app.setDefaultProperties(properties);
        var context = (WebServerApplicationContext) app.run();        // Spring's own arguments: none
        o.ready(context.getWebServer().getPort());
    }
}
