///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
//DEPS org.springframework.boot:spring-boot-starter-web:4.1.2
//SOURCES Workshop.java SpringStart.java

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Collections;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.ActionCode;
import org.apache.tomcat.util.http.InvalidParameterException;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.webmvc.autoconfigure.error.ErrorMvcAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.util.MultiValueMap;
import org.springframework.web.ErrorResponse;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.servlet.NoHandlerFoundException;

/**
 * The workshop's protocol on Spring Boot 4 with Spring MVC on embedded Tomcat, written as Spring's
 * docs teach: a {@code @RestController} for the endpoints, a {@code @RestControllerAdvice} for
 * their errors, a servlet filter for the protocol's limits, and a Tomcat valve for the requests
 * Tomcat refuses before Spring sees them.
 *
 * <p>Threads: Tomcat's acceptor thread accepts connections and its poller thread watches them
 * (NIO). When a request's bytes arrive, a worker of Tomcat's pool ({@code --threads}, default
 * 200) parses it and runs it to the end: filters, Spring's DispatcherServlet, the handler, the
 * write of the response. A blocking wait ({@code /io}'s sleep, {@code /db}'s wait for the pool)
 * holds that worker, so at most {@code --threads} requests are served at once; the others wait
 * in Tomcat's queue. With {@code --virtual true}, Tomcat runs each request on a new virtual
 * thread instead, and {@code --threads} no longer sizes anything: a sleeping request holds no
 * platform thread, and only {@code server.tomcat.max-connections} bounds how many run at once.
 */
// Why not @SpringBootApplication: this class is in the default package (it shares Workshop.java's),
// and its component scan would read every class of every jar. Boot's docs give this equivalent.
// Why no ErrorMvcAutoConfiguration: its error page answers GET /error (in JSON), a path the
// protocol does not have; Errors and TextErrorReport answer every error.
@SpringBootConfiguration(proxyBeanMethods = false)
@EnableAutoConfiguration(exclude = ErrorMvcAutoConfiguration.class)
@Import({Routes.class, Errors.class, Limits.class})
class SpringBootTomcat {
    public static void main(String[] args) throws Exception {
        Options o = Kit.start("SpringBootTomcat", args, "--threads", "200", "--virtual", "false");
        int threads = o.number("--threads");
        Boolean virtual = flag(args, "--virtual");
        if (virtual == null) {
            System.err.println("option --virtual must be true or false");
            System.exit(2);
        }

        Map<String, Object> p = SpringStart.properties(o);
        p.put("server.server-header", "spring-boot-tomcat");            // Tomcat sends none by default
        // Why: a 404 is an ordinary answer here, and Spring MVC logs a warning for each one.
        p.put("logging.level.org.springframework.web.servlet.PageNotFound", "error");
        p.put("server.tomcat.threads.max", threads);                    // the worker pool (Tomcat's own default, 200)
        // Tomcat starts min-spare (10) workers at once; a smaller pool starts all of its workers
        // (Tomcat would cap 10 at the pool's size anyway: this says it).
        if (threads < 10) p.put("server.tomcat.threads.min-spare", threads);
        p.put("spring.threads.virtual.enabled", virtual);               // a virtual thread per request
        // Why: the race holds 10,000 idle connections and storms of 2000 (Tomcat: 8192 and a backlog of 100).
        p.put("server.tomcat.max-connections", 20_000);
        p.put("server.tomcat.accept-count", 1024);
        // Why: Tomcat closes a connection after 100 requests; the other servers keep it open.
        p.put("server.tomcat.max-keep-alive-requests", -1);
        p.put("server.tomcat.keep-alive-timeout", "60s");               // the course's idle timeout
        // Why: Tomcat answers 400 to a head over its limit; Limits answers the protocol's 431 over 8 KiB.
        p.put("server.max-http-request-header-size", "16KB");
        // Why: Boot serves static files at /**, and that handler answers 405 to POST /anything;
        // there are none here, so an unknown path is a 404 whatever the method.
        p.put("spring.web.resources.add-mappings", false);
        SpringStart.run(SpringBootTomcat.class, o, p);
    }

    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> tomcat() {
        return factory -> factory.addContextCustomizers(context -> {
            // Why: after a 413, Tomcat reads and drops up to 2 MiB of the refused body before it
            // closes; the protocol closes without reading it.
            context.setSwallowAbortedUploads(false);
            // Inside Boot's ErrorReportValve (added to the host before this), so it answers first.
            context.getParent().getPipeline().addValve(new TextErrorReport());
        });
    }

    /** A true/false option, default false, or null when it is neither. Options checks the names and the pairs, but hands out only numbers. */
    private static Boolean flag(String[] args, String name) {
        String value = "false";
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (args[i].equals(name)) value = args[i + 1];
        }
        return value.equals("true") ? Boolean.TRUE : value.equals("false") ? Boolean.FALSE : null;
    }
}

/** The endpoints. Each runs on the request's thread, and a wait blocks it, as Spring MVC code does. */
@RestController
class Routes {
    private static final long MAX_MILLIS = 60_000;
    private static final long MAX_BYTES = 64L * 1024 * 1024;

    @GetMapping("/")
    ResponseEntity<byte[]> hello() {
        return reply(Workshop.hello());
    }

    // tag::waits[]
    @GetMapping("/io")
    ResponseEntity<byte[]> io(@RequestParam MultiValueMap<String, String> query) throws InterruptedException {
        long ms = number(query, "ms", MAX_MILLIS);
        Thread.sleep(ms);
        return reply(Workshop.waited(ms));
    }

    @GetMapping("/cpu")
    ResponseEntity<byte[]> cpu(@RequestParam MultiValueMap<String, String> query) {
        return reply(Workshop.burn(number(query, "ms", MAX_MILLIS)));
    }
    // end::waits[]

    @GetMapping("/db")
    ResponseEntity<byte[]> db(@RequestParam MultiValueMap<String, String> query) throws InterruptedException {
        return reply(Workshop.query(number(query, "ms", MAX_MILLIS), query.getFirst("fail")));
    }

    @GetMapping("/stats")
    ResponseEntity<byte[]> stats() {
        return reply(Workshop.stats());
    }

    @GetMapping("/fail")
    ResponseEntity<byte[]> fail() {
        throw new IllegalStateException("GET /fail: a simulated bug in a handler");
    }

    /** Why the raw header: Spring's view of the request adds the request's charset to its Content-Type. */
    @PostMapping("/echo")
    ResponseEntity<byte[]> echo(@RequestBody(required = false) byte[] body,
            @RequestHeader(name = HttpHeaders.CONTENT_TYPE, defaultValue = MediaType.APPLICATION_OCTET_STREAM_VALUE) String type) {
        return ResponseEntity.ok().header(HttpHeaders.CONTENT_TYPE, type).body(body != null ? body : new byte[0]);
    }

    /** Streams n bytes, 64 KiB at a time, to the servlet's output stream. */
    // Why not StreamingResponseBody: it hands the writing to Spring's task executor; this writes on the request's thread.
    @GetMapping("/bytes")
    void bytes(@RequestParam MultiValueMap<String, String> query, HttpServletResponse response) throws IOException {
        long n = number(query, "n", MAX_BYTES);
        response.setContentType(MediaType.APPLICATION_OCTET_STREAM_VALUE);
        response.setContentLengthLong(n);
        byte[] chunk = new byte[(int) Math.min(n, 64 * 1024)];
        OutputStream out = response.getOutputStream();
        for (long sent = 0; sent < n; ) {
            int length = Workshop.pattern(n, sent, chunk);
            out.write(chunk, 0, length);
            sent += length;
        }
    }

    /** N of the query (the first of a parameter given twice), or {@link BadNumber}: 400. */
    private static long number(MultiValueMap<String, String> query, String name, long max) {
        long n = Workshop.number(query.getFirst(name), max);
        if (n < 0) throw new BadNumber(name, max);
        return n;
    }

    /** The kit's answer as Spring MVC writes it (with Content-Length, as for any byte[] body). */
    static ResponseEntity<byte[]> reply(Workshop.Answer answer) {
        ResponseEntity.BodyBuilder response = ResponseEntity.status(answer.status())
                .contentType(MediaType.parseMediaType(answer.contentType()));
        answer.headers().forEach((name, value) -> response.header(name, value));
        if (answer.close()) response.header(HttpHeaders.CONNECTION, "close");
        return response.body(answer.body());
    }
}

/** A missing, bad or out-of-bounds N in a query. */
final class BadNumber extends RuntimeException {
    final String name;
    final long max;

    BadNumber(String name, long max) {
        super(name + " is not a number from 0 to " + max, null, false, false);
        this.name = name;
        this.max = max;
    }
}

/** Spring MVC's errors as the protocol's one-line text answers (instead of Boot's JSON error page). */
@RestControllerAdvice
class Errors {
    @ExceptionHandler
    ResponseEntity<byte[]> badNumber(BadNumber e) {
        return Routes.reply(Workshop.badNumber(e.name, e.max));
    }

    @ExceptionHandler
    ResponseEntity<byte[]> notFound(NoHandlerFoundException e, HttpServletRequest request) {
        return Routes.reply(Workshop.notFound(request.getRequestURI()));
    }

    /** Why: Spring's own Allow lists HEAD and OPTIONS too; the protocol names the one method. */
    @ExceptionHandler
    ResponseEntity<byte[]> wrongMethod(HttpRequestMethodNotSupportedException e, HttpServletRequest request) {
        var methods = e.getSupportedHttpMethods();
        String allowed = methods != null && methods.contains(HttpMethod.POST) ? "POST" : "GET";
        return Routes.reply(Workshop.wrongMethod(request.getRequestURI(), allowed));
    }

    /** A malformed percent-encoding in the query (Tomcat decodes it when Spring asks for the parameters). */
    @ExceptionHandler
    ResponseEntity<byte[]> badQuery(InvalidParameterException e) {
        return Routes.reply(Workshop.Answer.text(e.getErrorCode(), e.getMessage() + "\n"));
    }

    /** Spring MVC's other refusals (an unreadable body, say) keep their status; anything else is a bug: 500, then close. */
    @ExceptionHandler
    ResponseEntity<byte[]> failed(Exception e) {
        return Routes.reply(e instanceof ErrorResponse refusal
                ? Workshop.Answer.text(refusal.getStatusCode().value(), e.getMessage() + "\n")
                : Workshop.failed(e));
    }
}

/**
 * The protocol's limits, before Spring reads anything: 431 for a head over 8 KiB, 413 for a
 * body over 1 MiB (from its Content-Length, unread); each then closes.
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
class Limits extends HttpFilter {
    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        if (headSize(request) > Workshop.MAX_HEAD) write(response, Workshop.headTooLarge());
        else if (request.getContentLengthLong() > Workshop.MAX_BODY) write(response, Workshop.bodyTooLarge());
        else chain.doFilter(request, response);
    }

    /** The head's size as a client sends it: the request line, "Name: value" lines, their CRLFs, the empty line. */
    private static long headSize(HttpServletRequest request) {
        String query = request.getQueryString();
        long size = request.getMethod().length() + 1 + request.getRequestURI().length()
                + (query == null ? 0 : 1 + query.length()) + 1 + request.getProtocol().length() + 2 + 2;
        for (String name : Collections.list(request.getHeaderNames())) {
            for (String value : Collections.list(request.getHeaders(name))) size += name.length() + 2 + value.length() + 2;
        }
        return size;
    }

    static void write(HttpServletResponse response, Workshop.Answer answer) throws IOException {
        response.setStatus(answer.status());
        response.setContentType(answer.contentType());
        if (answer.close()) response.setHeader(HttpHeaders.CONNECTION, "close");
        response.setContentLength(answer.body().length);
        response.getOutputStream().write(answer.body());
    }
}

/**
 * What Tomcat refuses before any servlet runs (a malformed request line or header, an HTTP
 * version it does not speak), answered as one line of text instead of Tomcat's HTML page.
 */
class TextErrorReport extends ErrorReportValve {
    // Tomcat's own Request and Response, by full name: the kit has classes of those names.
    @Override
    protected void report(org.apache.catalina.connector.Request request, org.apache.catalina.connector.Response response,
            Throwable thrown) {
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) return;
        String message = response.getMessage();
        Workshop.Answer answer = Workshop.Answer.text(status, (message == null || message.isBlank() ? "Tomcat refused the request" : message) + "\n");
        // Why: Tomcat closes after an error of its own, but says so only for some statuses (not 505).
        AtomicBoolean closing = new AtomicBoolean();
        response.getCoyoteResponse().action(ActionCode.IS_ERROR, closing);
        try {
            Limits.write(response, closing.get() ? answer.closing() : answer);
        } catch (IOException e) {
            // the client is gone: nothing to answer
        }
    }
}
