///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
//DEPS io.helidon.webserver:helidon-webserver:4.5.0
//SOURCES Workshop.java

import io.helidon.http.DirectHandler;
import io.helidon.http.Header;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.HttpPrologue;
import io.helidon.http.Method;
import io.helidon.http.ServerResponseHeaders;
import io.helidon.http.Status;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.ErrorHandling;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.DirectHandlers;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.helidon.webserver.http1.Http1Config;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The workshop protocol on Helidon SE 4's web server. One platform thread
 * ({@code server-@default-listener}) accepts connections; each connection then gets a virtual thread
 * of its own, which reads and parses its requests and runs their handlers, one after another. A
 * handler blocks as plain code does ({@code /io} sleeps, {@code /db} waits for the pool, {@code /cpu}
 * burns), and a blocking wait parks only that virtual thread, freeing its carrier for the others.
 */
class HelidonSe {
    private static final String SERVER = "helidon-se";
    /** Helidon's message for a header section over its {@code maxHeadersSize}, which it answers 400. */
    private static final String HEADERS_TOO_LARGE = "Header size exceeded";
    private static final Workshop.Answer NO_CHUNKS =
            Workshop.Answer.text(501, "Transfer-Encoding in requests is not supported; send Content-Length\n").closing();

    public static void main(String[] args) throws Exception {
        Options o = Kit.start("HelidonSe", args);
        // Why: Helidon logs its features, its bound port and its start time at INFO; warnings only.
        Logger.getLogger("").setLevel(Level.WARNING);
        // Why: on a busy port Helidon logs a stack trace and start() returns a stopped server;
        // binding once first lets the kit turn the BindException into its one sentence.
        try (ServerSocket probe = new ServerSocket()) {
            probe.bind(o.address());
        }
        DirectHandlers.Builder direct = DirectHandlers.builder();
        for (DirectHandler.EventType type : DirectHandler.EventType.values()) direct.addHandler(type, HelidonSe::refuse);
        WebServer server = WebServer.builder()
                .host(o.host)
                .port(o.port)
                // Protocol: a body over 1 MiB gets 413 before it is read, then close (default: no limit).
                .maxPayloadSize(Workshop.MAX_BODY)
                // Protocol: a request line up to 8 KiB (default 4096, over which Helidon answers 414).
                // Why this one protocol only: with several, Helidon sniffs each connection's first
                // line and closes one it cannot place (GARBAGE) without the protocol's 400.
                .protocolsDiscoverServices(false)
                .addProtocol(Http1Config.builder().maxPrologueLength(Workshop.MAX_HEAD).build())
                // Why: hands Helidon's message to refuse() (default: none), the only way to tell its
                // 400 for a header section over 16 KiB from other 400s.
                .errorHandling(ErrorHandling.builder().includeEntity(true).build())
                // The answers Helidon sends by itself (unparsable or refused requests), as the protocol's.
                .directHandlers(direct.build())
                .routing(HelidonSe::routes)
                .build()
                .start();
        if (!server.isRunning()) System.exit(2); // lost the port since the probe; Helidon said why
        o.ready(server.port());
    }

    private static void routes(HttpRouting.Builder routing) {
        routing.addFilter(HelidonSe::headLimitAndClose)
                .error(Exception.class, (req, res, e) -> send(res, Workshop.failed(e)));
        on(routing, Method.GET, "/", (req, res) -> send(res, Workshop.hello()));
        // tag::waits[]
        on(routing, Method.GET, "/io", (req, res) -> {
            long ms = Workshop.number(param(req, "ms"), Endpoints.MAX_MILLIS);
            if (ms < 0) {
                send(res, Workshop.badNumber("ms", Endpoints.MAX_MILLIS));
                return;
            }
            Thread.sleep(ms);
            send(res, Workshop.waited(ms));
        });
        on(routing, Method.GET, "/cpu", (req, res) -> {
            long ms = Workshop.number(param(req, "ms"), Endpoints.MAX_MILLIS);
            send(res, ms < 0 ? Workshop.badNumber("ms", Endpoints.MAX_MILLIS) : Workshop.burn(ms));
        });
        // end::waits[]
        on(routing, Method.GET, "/db", (req, res) -> {
            long ms = Workshop.number(param(req, "ms"), Endpoints.MAX_MILLIS);
            send(res, ms < 0 ? Workshop.badNumber("ms", Endpoints.MAX_MILLIS) : Workshop.query(ms, param(req, "fail")));
        });
        on(routing, Method.GET, "/stats", (req, res) -> send(res, Workshop.stats()));
        on(routing, Method.GET, "/bytes", HelidonSe::bytes);
        on(routing, Method.POST, "/echo", (req, res) -> {
            String type = req.headers().first(HeaderNames.CONTENT_TYPE).orElse("application/octet-stream");
            send(res, Workshop.Answer.of(Response.bytes(type, req.content().inputStream().readAllBytes())));
        });
        on(routing, Method.GET, "/fail", (req, res) -> {
            throw new IllegalStateException("GET /fail: a simulated bug in a handler");
        });
        routing.any((req, res) -> send(res, Workshop.notFound(req.path().path())));
    }

    /** Routes the path for its one method, and every other method to 405 (Helidon would answer 404). */
    private static void on(HttpRouting.Builder routing, Method method, String path, Handler handler) {
        routing.route(method, path, handler)
                .any(path, (req, res) -> send(res, Workshop.wrongMethod(path, method.text())));
    }

    /** {@code GET /bytes?n=N}: streamed a chunk at a time, with Content-Length set first, so never chunked. */
    private static void bytes(ServerRequest req, ServerResponse res) throws Exception {
        long n = Workshop.number(param(req, "n"), Endpoints.MAX_BYTES);
        if (n < 0) {
            send(res, Workshop.badNumber("n", Endpoints.MAX_BYTES));
            return;
        }
        res.header(HeaderNames.SERVER, SERVER).header(HeaderNames.CONTENT_TYPE, "application/octet-stream");
        res.contentLength(n);
        byte[] chunk = new byte[(int) Math.min(n, 64 * 1024)];
        try (OutputStream out = res.outputStream()) {
            for (long sent = 0; sent < n; ) {
                int k = Workshop.pattern(n, sent, chunk);
                out.write(chunk, 0, k);
                sent += k;
            }
        }
    }

    /**
     * Before routing: 431 for a head over 8 KiB, 501 for a chunked body (Helidon would read it).
     * After it: ends the connection when the response says {@code Connection: close} (the client
     * asked, or the answer closes).
     */
    private static void headLimitAndClose(FilterChain chain, RoutingRequest req, RoutingResponse res) {
        if (headBytes(req) > Workshop.MAX_HEAD) send(res, Workshop.headTooLarge());
        else if (req.headers().contains(HeaderNames.TRANSFER_ENCODING)) send(res, NO_CHUNKS);
        else chain.proceed();
        // Why: Helidon 4.5.0 writes Connection: close but then waits for a next request
        // (helidon-io/helidon#12324); this exception ends the connection once the answer is written.
        if (res.headers().contains(HeaderValues.CONNECTION_CLOSE)) throw new CloseConnectionException("Connection: close");
    }

    /**
     * The request line and headers as the client sent them, line ends included (one space after
     * each colon). Why: the protocol's 8 KiB counts them together; Helidon limits each apart.
     */
    private static long headBytes(ServerRequest req) {
        HttpPrologue p = req.prologue();
        String query = p.query().rawValue();
        long n = p.method().text().length() + 1 + p.uriPath().rawPath().length() + (query.isEmpty() ? 0 : 1 + query.length())
                + (p.fragment().hasValue() ? 1 + p.fragment().rawValue().length() : 0) + " HTTP/1.1\r\n".length() + 2;
        for (Header h : req.headers()) {
            for (String value : h.allValues()) n += h.name().length() + 2 + value.length() + 2;
        }
        return n;
    }

    /**
     * What Helidon answers by itself, outside routing: its status, but 431 for a head too large
     * (Helidon says 414 for a long request line, 400 for long headers) and 400 for a request it
     * failed to parse (it says 500), as one line of text. Helidon closes the connection after each.
     */
    private static DirectHandler.TransportResponse refuse(DirectHandler.TransportRequest req, DirectHandler.EventType type,
                                                          Status status, ServerResponseHeaders headers, String message) {
        // Why: a request line Helidon cannot parse (a method with control characters) escapes its
        // parser as a 500 with no request at all, and a warning with a stack trace; it is a 400.
        boolean unparsed = status.code() == 500 && req == DirectHandler.TransportRequest.empty();
        Workshop.Answer a = status.code() == 414 || HEADERS_TOO_LARGE.equals(message) ? Workshop.headTooLarge()
                : status.code() == 413 ? Workshop.bodyTooLarge()
                : unparsed ? Workshop.Answer.text(400, "the request line is malformed\n")
                : Workshop.Answer.text(status.code(), (message == null ? status.reasonPhrase() : message) + "\n");
        return DirectHandler.TransportResponse.builder()
                .status(status(a.status()))
                .headers(headers)
                .header(HeaderNames.SERVER, SERVER)
                .header(HeaderNames.CONTENT_TYPE, a.contentType())
                .entity(a.body())
                .build();
    }

    /** Writes a Workshop answer with Helidon's response API (which adds Date and Content-Length). */
    private static void send(ServerResponse res, Workshop.Answer a) {
        res.status(status(a.status()))
                .header(HeaderNames.SERVER, SERVER)
                .header(HeaderNames.CONTENT_TYPE, a.contentType());
        a.headers().forEach(res::header);
        if (a.close()) res.header(HeaderValues.CONNECTION_CLOSE);
        res.send(a.body());
    }

    private static Status status(int code) {
        return code == 431 ? Status.create(431, "Request Header Fields Too Large") : Status.create(code);
    }

    /** The first value of a query parameter, percent-decoded, or null. */
    private static String param(ServerRequest req, String name) {
        return req.query().first(name).orElse(null);
    }
}
