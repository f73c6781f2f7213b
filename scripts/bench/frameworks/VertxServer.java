///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
//DEPS io.vertx:vertx-core:5.1.6
//SOURCES Workshop.java

import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.net.SocketAddress;
import java.util.Map;

/**
 * The workshop protocol on Vert.x 5 core, for the benchmark to race beside the course's servers.
 *
 * <p>Requests arrive on event loops and must never block them: {@code /io?ms=N} answers from a
 * timer ({@code vertx.setTimer}), {@code /db} books the kit's pool with {@link Workshop#book} and
 * answers from a timer after the booking's {@code millis()}, and {@code /cpu} runs off the loop
 * ({@code vertx.executeBlocking}, not ordered, so CPU work runs in parallel on the worker pool),
 * then answers on the loop.
 *
 * <p>Threads: Vert.x's acceptor thread accepts connections and deals them round-robin to the
 * server instances, one per event loop (2 x cores, Vert.x's default). A connection's event loop
 * parses its requests (Netty's HTTP codec), runs the request handler, fires its timers and writes
 * its responses; the worker pool (20 threads) burns {@code /cpu}. No thread waits blocked.
 */
class VertxServer {
    public static void main(String[] args) {
        Options o = Kit.start("VertxServer", args);
        // Why: Netty 4.2 refuses a line that ends with a bare LF (400); the protocol accepts one.
        System.setProperty("io.netty.handler.codec.http.defaultStrictLineParsing", "false");
        Vertx vertx = Vertx.vertx();
        // Why instances: a server lives on the event loop of the verticle that made it; Vert.x
        // spreads connections over its loops when one instance per loop listens on the same port.
        DeploymentOptions onEveryLoop = new DeploymentOptions().setInstances(VertxOptions.DEFAULT_EVENT_LOOP_POOL_SIZE);
        try {
            vertx.deployVerticle(() -> new VertxLoop(o), onEveryLoop).toCompletionStage().toCompletableFuture().join();
        } catch (java.util.concurrent.CompletionException e) {
            System.err.println("cannot listen on " + o.host + ":" + o.port + " (" + e.getCause().getMessage()
                    + "): stop the program using that port, or start with --port 0 to take any free port");
            System.exit(2);
        }
        o.ready(VertxLoop.boundPort);
    }
}

/** One event loop's HTTP server: routes by path, and answers with the kit's answers. */
final class VertxLoop extends VerticleBase {
    static volatile int boundPort;
    private static final int CHUNK = 64 * 1024;
    private static final String SERVER = "vertx";
    private final Options o;

    VertxLoop(Options o) {
        this.o = o;
    }

    @Override
    public Future<?> start() {
        // Why a shared random port for --port 0: with port 0 each instance would take a port of its own.
        SocketAddress address = o.port == 0
                ? SocketAddress.sharedRandomPort(1, o.host)
                : SocketAddress.inetSocketAddress(o.port, o.host);
        HttpServerOptions options = new HttpServerOptions()
                // Why: the default 4096 answers 414 to a longer request line; the protocol allows any
                // head up to 8 KiB and answers 431 beyond (refuse() and refusal() below).
                .setMaxInitialLineLength(Workshop.MAX_HEAD)
                // Why: the protocol is HTTP/1.0 and 1.1. With h2c on (the default), a connection is
                // not an HTTP/1 one until its first head is whole, and a reset before that is logged.
                .setHttp2ClearTextEnabled(false);
        // Kept: maxHeaderSize 8192 (Netty counts header lines without their line ends, so it never
        // refuses a head the protocol allows); the accept backlog (-1: Netty asks for the system's
        // somaxconn, 4096 on this Linux, the most the kernel grants anyway); no idle timeout (the
        // course's servers close idle connections after 60 s only in chapters 05 and 06).
        return vertx.createHttpServer(options)
                // Why: with no handler, Vert.x logs each client's reset as an error (SEVERE).
                .exceptionHandler(e -> { })
                .requestHandler(this::handle)
                .invalidRequestHandler(VertxLoop::refuse)
                .listen(address)
                .onSuccess(server -> boundPort = server.actualPort());
    }

    private void handle(HttpServerRequest req) {
        try {
            Workshop.Answer refused = refusal(req);
            if (refused != null) send(req, refused);
            else route(req);
        } catch (RuntimeException e) {
            // Why: Vert.x only logs what a handler throws and leaves the request unanswered.
            send(req, Workshop.failed(e));
        }
    }

    private void route(HttpServerRequest req) {
        String path = req.path();
        String allowed = switch (path) {
            case "/", "/io", "/cpu", "/bytes", "/fail", "/db", "/stats" -> "GET";
            case "/echo" -> "POST";
            default -> null;
        };
        if (allowed == null) {
            send(req, Workshop.notFound(path));
            return;
        }
        if (!req.method().name().equals(allowed)) {
            send(req, Workshop.wrongMethod(path, allowed));
            return;
        }
        switch (path) {
            case "/" -> send(req, Workshop.hello());
            // tag::waits[]
            case "/io" -> {
                long ms = number(req, "ms", Endpoints.MAX_MILLIS);
                if (ms >= 0) after(ms, () -> send(req, Workshop.waited(ms)));
            }
            case "/cpu" -> {
                long ms = number(req, "ms", Endpoints.MAX_MILLIS);
                if (ms >= 0) {
                    vertx.executeBlocking(() -> Workshop.burn(ms), false)
                            .onComplete((answer, error) -> send(req, error == null ? answer : Workshop.failed(error)));
                }
            }
            // end::waits[]
            case "/db" -> {
                long ms = number(req, "ms", Endpoints.MAX_MILLIS);
                if (ms >= 0) {
                    Endpoints.Wait due = Workshop.book(ms, req.getParam("fail"));
                    after(due.millis(), () -> send(req, Workshop.answer(due)));
                }
            }
            case "/stats" -> send(req, Workshop.stats());
            case "/bytes" -> {
                long n = number(req, "n", Endpoints.MAX_BYTES);
                if (n >= 0) bytes(req, n);
            }
            case "/echo" -> {
                String type = req.getHeader(HttpHeaders.CONTENT_TYPE);
                req.body().onSuccess(body -> send(req, new Workshop.Answer(200,
                        type == null ? "application/octet-stream" : type, body.getBytes(), Map.of(), false)));
            }
            case "/fail" -> throw new IllegalStateException("GET /fail: a simulated bug in a handler");
        }
    }

    /** N of a query parameter, or -1 after answering 400 (the connection stays open). */
    private static long number(HttpServerRequest req, String name, long max) {
        long n = Workshop.number(req.getParam(name), max);
        if (n < 0) send(req, Workshop.badNumber(name, max));
        return n;
    }

    /** Runs {@code answer} after ms on this event loop's timer; Vert.x refuses a timer under 1 ms, so 0 runs it now. */
    private void after(long ms, Runnable answer) {
        if (ms == 0) answer.run();
        else vertx.setTimer(ms, id -> answer.run());
    }

    /**
     * What the kit's parser refuses and Netty's codec lets through, or null (an HTTP version other
     * than 1.0 and 1.1 never gets here: Vert.x answers it 501 and closes). Why the head: Netty
     * limits the request line and the header lines apart, without line ends; the protocol limits
     * them together, line ends included (counted here from the parsed parts).
     */
    private static Workshop.Answer refusal(HttpServerRequest req) {
        if (req.headers().contains(HttpHeaders.TRANSFER_ENCODING)) {
            return Workshop.Answer.text(501, "Transfer-Encoding is not supported: send Content-Length\n").closing();
        }
        if (req.version() == HttpVersion.HTTP_1_1 && !req.headers().contains(HttpHeaders.HOST)) {
            return Workshop.Answer.text(400, "HTTP/1.1 needs a Host header\n").closing();
        }
        int head = req.method().name().length() + req.uri().length() + " HTTP/1.1\r\n\r\n".length() + 1;
        for (Map.Entry<String, String> h : req.headers()) head += h.getKey().length() + h.getValue().length() + ": \r\n".length();
        if (head > Workshop.MAX_HEAD) return Workshop.headTooLarge();
        // Netty has refused a Content-Length that is not a number already (400, via refuse).
        long length = Workshop.number(req.getHeader(HttpHeaders.CONTENT_LENGTH), Long.MAX_VALUE);
        if (length > Workshop.MAX_BODY) return Workshop.bodyTooLarge();
        try {
            req.params();
        } catch (IllegalArgumentException e) {
            return Workshop.Answer.text(400, "bad percent-encoding in the query\n").closing();
        }
        return null;
    }

    /**
     * Requests Netty's codec could not parse (Vert.x's invalid-request handler). Why not Vert.x's
     * own: it answers 414 to a long request line and sends no Date, Server or Content-Type.
     */
    private static void refuse(HttpServerRequest req) {
        Throwable cause = req.decoderResult().cause();
        send(req, cause instanceof TooLongHttpLineException || cause instanceof TooLongHttpHeaderException
                ? Workshop.headTooLarge()
                : Workshop.Answer.text(400, "malformed request: " + cause.getMessage() + "\n").closing());
    }

    /** Sends an answer whole; closes after it when the answer says so. */
    private static void send(HttpServerRequest req, Workshop.Answer a) {
        HttpServerResponse resp = req.response().setStatusCode(a.status());
        headers(req, resp, a.contentType(), a.body().length, a.close());
        a.headers().forEach(resp::putHeader);
        resp.end(Buffer.buffer(a.body()));
        // Why: Vert.x closes by itself only when the client asked to. Its close writes out what is
        // queued, then closes; closing now, not once written, answers no pipelined request after this one.
        if (a.close()) req.connection().close();
    }

    /** {@code /bytes?n=N}: Content-Length first, then the body in chunks as the connection takes them. */
    private static void bytes(HttpServerRequest req, long n) {
        HttpServerResponse resp = req.response();
        headers(req, resp, "application/octet-stream", n, false);
        pump(resp, n, 0, new byte[(int) Math.min(CHUNK, n)]);
    }

    /** Writes chunks until the write queue is full, then goes on from the drain handler. */
    private static void pump(HttpServerResponse resp, long n, long sent, byte[] chunk) {
        while (sent < n && !resp.writeQueueFull() && !resp.closed()) {
            int len = Workshop.pattern(n, sent, chunk);
            resp.write(Buffer.buffer(len).appendBytes(chunk, 0, len));   // copied: chunk is reused
            sent += len;
        }
        long at = sent;
        if (at == n) resp.end();
        else if (!resp.closed()) resp.drainHandler(drained -> pump(resp, n, at, chunk));
    }

    /**
     * The headers every response carries. Why Connection: close for HTTP/1.0: Vert.x closes a 1.0
     * connection without keep-alive, but says so only for HTTP/1.1.
     */
    private static void headers(HttpServerRequest req, HttpServerResponse resp, String type, long length, boolean close) {
        resp.putHeader(HttpHeaders.DATE, Response.date()) // Vert.x adds no Date (nor Server) by itself
                .putHeader(HttpHeaders.SERVER, SERVER)
                .putHeader(HttpHeaders.CONTENT_TYPE, type)
                .putHeader(HttpHeaders.CONTENT_LENGTH, Long.toString(length));
        boolean closes10 = req.version() == HttpVersion.HTTP_1_0
                && !"keep-alive".equalsIgnoreCase(req.getHeader(HttpHeaders.CONNECTION));
        if (close || closes10) resp.putHeader(HttpHeaders.CONNECTION, HttpHeaders.CLOSE);
    }
}
