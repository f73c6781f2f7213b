///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
//DEPS io.micronaut.platform:micronaut-platform:4.10.8@pom
//DEPS io.micronaut:micronaut-http-server-netty
//DEPS io.micronaut:micronaut-jackson-databind
//DEPS io.micronaut:micronaut-inject-java
//DEPS org.slf4j:slf4j-simple:2.0.17
// Why: javac 23 and later run no annotation processor found on the class path unless told to;
// Micronaut's (micronaut-inject-java) writes the controller's bean definition and routes at compile time.
//JAVAC_OPTIONS -proc:full
// Why: the loom carrier mode reaches the JDK's private virtual-thread fields (Micronaut's PrivateLoomSupport).
//JAVA_OPTIONS --add-opens java.base/java.lang=ALL-UNNAMED
//SOURCES Workshop.java HeadRefusals.java micronaut/Routes.java

import io.micronaut.context.ApplicationContext;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.netty.channel.ChannelPipelineCustomizer;
import io.micronaut.http.server.netty.NettyEmbeddedServer;
import io.micronaut.http.server.netty.NettyServerCustomizer;
import io.micronaut.http.server.types.files.StreamedFile;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpStatusClass;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.util.ReferenceCountUtil;
import java.io.InputStream;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import micronaut.Routes;

/**
 * The workshop protocol on Micronaut 4.10's HTTP server (micronaut-http-server-netty), for the
 * benchmark to race beside the course's servers, as Micronaut's guide teaches: a controller for
 * the routes ({@code micronaut/Routes.java}), {@code @ExecuteOn(TaskExecutors.BLOCKING)} on those
 * that block. What each route answers is the kit's ({@link KitAnswers}); the protocol's refusals
 * of a request's head are made in Netty's pipeline, before Micronaut sees the request
 * ({@link Refusals}).
 *
 * <p>Threads: a parent event loop accepts connections; the worker event loops (Micronaut's
 * "default" group) read and parse each connection's requests, run the routes that do not block
 * ({@code /}, {@code /stats}, {@code /echo}, the errors, and {@code /bytes}, whose body Micronaut
 * then reads on its blocking executor) and write every answer. {@code /io}, {@code /db} and
 * {@code /cpu} run on Micronaut's blocking executor, a new virtual thread a request (Java 21+),
 * which sleeps, waits for the pool or burns. The option chooses what carries those virtual threads:
 * <ul>
 *   <li>{@code --loom-carrier false} (the default, Micronaut's): the JDK's scheduler, a ForkJoinPool
 *       of carrier threads, one a core. The answer goes back to the connection's loop to be written.</li>
 *   <li>{@code --loom-carrier true}: Micronaut's experimental loom carrier mode
 *       ({@code micronaut.netty.event-loops.default.loom-carrier}). Each worker loop runs as a virtual
 *       thread on a carrier thread of its own, and the virtual threads started from a loop are carried
 *       by that loop's carrier, between its turns (by a less busy loop's when it has many; and a loop's
 *       first few run on the JDK's scheduler, to start the JDK's I/O pollers there). It reaches the
 *       JDK's private virtual-thread API ({@code --add-opens java.base/java.lang=ALL-UNNAMED}, this
 *       file's //JAVA_OPTIONS); without it Micronaut cannot build the loops, and its message names that flag.</li>
 * </ul>
 */
class MicronautServer {
    static final String SERVER = "micronaut";

    public static void main(String[] args) throws Exception {
        Options o = Kit.start("MicronautServer", args, "--loom-carrier", "false");
        Boolean loomCarrier = flag(args, "--loom-carrier");
        if (loomCarrier == null) Options.exit(2, "option --loom-carrier must be true or false");
        // Why: Netty 4.2 refuses a line that ends with a bare LF (400); the protocol accepts one.
        System.setProperty("io.netty.handler.codec.http.defaultStrictLineParsing", "false");
        // Why: Micronaut and Netty log through SLF4J, here slf4j-simple, which reads this when it makes its first logger; warnings only.
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        // Why: on a busy port Micronaut throws a startup exception with a long trace; binding once
        // first lets the kit turn the BindException into its one sentence.
        if (o.port != 0) {
            try (ServerSocket probe = new ServerSocket()) {
                probe.bind(o.address());
            }
        }

        Map<String, Object> p = new HashMap<>();
        p.put("micronaut.server.host", o.host);
        p.put("micronaut.server.port", o.port);                          // 0: any free port
        p.put("micronaut.server.server-header", SERVER);                 // Micronaut sends none by default
        // Why: the default 4096 refuses a longer request line; the protocol allows any head up to 8 KiB (Refusals counts it).
        p.put("micronaut.server.netty.max-initial-line-length", Workshop.MAX_HEAD);
        // Why: /db's 503 keeps the connection open; this (Micronaut's default) keeps a 5xx from closing it.
        p.put("micronaut.server.netty.keep-alive-on-server-error", true);
        // The mode. Set in both modes, so that both build the worker loops from the same configuration.
        p.put("micronaut.netty.event-loops.default.loom-carrier", loomCarrier);
        // Kept: max-header-size 8 KiB (Netty counts header lines without their line ends, so it never
        // refuses a head the protocol allows); thread-selection MANUAL (routes on the loop unless they
        // say otherwise); the loops' count; the idle timeout (5 min); the accept backlog (Netty asks for
        // the system's somaxconn).

        // Why not Micronaut.run(args): it would read the kit's options as its own (command-line properties)
        // and print a banner; this registers Refusals before the server starts, and says once it listens.
        ApplicationContext context = ApplicationContext.builder()
                .properties(p)
                .singletons(new KitAnswers())                            // what Routes answers with
                .deduceEnvironment(false)                                // no probing for a cloud at start
                .banner(false)
                .start();
        NettyEmbeddedServer server = context.getBean(NettyEmbeddedServer.class);
        server.register(new Refusals.Customizer(null));
        server.start();
        o.ready(server.getPort());
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

/** The kit's answers as Micronaut responses, for {@link Routes}. Each runs on the thread its route runs on. */
final class KitAnswers implements Routes.Answers {
    @Override
    public HttpResponse<?> hello() {
        return send(Workshop.hello());
    }

    // tag::waits[]
    @Override
    public HttpResponse<?> io(HttpRequest<?> request) throws InterruptedException {
        long ms = Workshop.number(param(request, "ms"), Endpoints.MAX_MILLIS);
        if (ms < 0) return send(Workshop.badNumber("ms", Endpoints.MAX_MILLIS));
        Thread.sleep(ms);
        return send(Workshop.waited(ms));
    }

    @Override
    public HttpResponse<?> cpu(HttpRequest<?> request) {
        long ms = Workshop.number(param(request, "ms"), Endpoints.MAX_MILLIS);
        return send(ms < 0 ? Workshop.badNumber("ms", Endpoints.MAX_MILLIS) : Workshop.burn(ms));
    }
    // end::waits[]

    @Override
    public HttpResponse<?> db(HttpRequest<?> request) throws InterruptedException {
        long ms = Workshop.number(param(request, "ms"), Endpoints.MAX_MILLIS);
        return send(ms < 0 ? Workshop.badNumber("ms", Endpoints.MAX_MILLIS) : Workshop.query(ms, param(request, "fail")));
    }

    @Override
    public HttpResponse<?> stats() {
        return send(Workshop.stats());
    }

    /** {@code /bytes?n=N} as a StreamedFile of known length: Micronaut sends Content-Length, then reads the stream as the connection takes it. */
    @Override
    public HttpResponse<?> bytes(HttpRequest<?> request) {
        long n = Workshop.number(param(request, "n"), Endpoints.MAX_BYTES);
        if (n < 0) return send(Workshop.badNumber("n", Endpoints.MAX_BYTES));
        InputStream pattern = new PatternStream(n);
        return HttpResponse.ok(new StreamedFile(pattern, MediaType.APPLICATION_OCTET_STREAM_TYPE, System.currentTimeMillis(), n));
    }

    /** The body as it came, under the request's own Content-Type. */
    @Override
    public HttpResponse<?> echo(HttpRequest<?> request, byte[] body) {
        String type = request.getHeaders().get(HttpHeaders.CONTENT_TYPE);
        return send(Workshop.Answer.of(Response.bytes(type == null ? "application/octet-stream" : type, body == null ? new byte[0] : body)));
    }

    @Override
    public HttpResponse<?> notFound(HttpRequest<?> request) {
        return send(Workshop.notFound(request.getPath()));
    }

    @Override
    public HttpResponse<?> wrongMethod(HttpRequest<?> request) {
        String path = request.getPath();
        return send(Workshop.wrongMethod(path, path.equals("/echo") ? "POST" : "GET"));
    }

    @Override
    public HttpResponse<?> failed(Throwable e) {
        return send(Workshop.failed(e));
    }

    /** The first value of a query parameter, percent-decoded, or null. */
    private static String param(HttpRequest<?> request, String name) {
        return request.getParameters().getFirst(name).orElse(null);
    }

    /** A kit's answer with a byte[] body (Micronaut sets its Content-Length, and adds Date and the Server header). */
    private static MutableHttpResponse<byte[]> send(Workshop.Answer a) {
        MutableHttpResponse<byte[]> r = HttpResponse.status(HttpStatus.valueOf(a.status())).body(a.body());
        r.header(HttpHeaders.CONTENT_TYPE, a.contentType());
        a.headers().forEach(r::header);
        // Why: Micronaut closes after an answer that says Connection: close.
        if (a.close()) r.header(HttpHeaders.CONNECTION, "close");
        return r;
    }

    /** The n bytes of {@code /bytes?n=N}, made as they are read, never whole in memory. */
    private static final class PatternStream extends InputStream {
        private final Response pattern;
        private long sent;

        PatternStream(long n) {
            this.pattern = Response.pattern(n);
        }

        @Override
        public int read(byte[] b, int off, int len) {
            int k = pattern.fillBody(sent, ByteBuffer.wrap(b, off, len));
            if (k == 0 && len > 0) return -1;
            sent += k;
            return k;
        }

        @Override
        public int read() {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }
    }
}

/**
 * What the protocol refuses in a request's head, found right after Netty's HTTP codec in each
 * connection's pipeline, before Micronaut sees the request: a head Netty could not parse (400, or
 * 431 for a request line or header section over its limits), an HTTP version other than 1.0 and
 * 1.1 (505), a head over 8 KiB (431: Netty limits the request line and the header lines apart,
 * without their line ends; the protocol counts them together, line ends included), HTTP/1.1 with
 * no Host (400), a chunked body (501), a body over 1 MiB (413, unread), a bad percent-encoding in
 * the query (400). Micronaut answers a connection's requests in order; the refusal goes out once
 * the answers to the requests before it have, then the connection closes, and nothing after the
 * refused request is read.
 */
final class Refusals extends ChannelDuplexHandler {
    /** Requests handed on to Micronaut whose answers are not written whole yet. */
    private int unanswered;
    /** The refusal, once a request is refused; everything read after it is dropped. */
    private Workshop.Answer refused;

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (refused == null && msg instanceof io.netty.handler.codec.http.HttpRequest req) {
            refused = refusal(req);
            if (refused == null) unanswered++;
            else if (unanswered == 0) answer(ctx);
        }
        if (refused == null) ctx.fireChannelRead(msg);
        else ReferenceCountUtil.release(msg); // the refused request, its body, and what came after
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        // An answer ends with its last content; an interim answer (100 Continue) ends nothing.
        boolean ends = msg instanceof LastHttpContent
                && !(msg instanceof io.netty.handler.codec.http.HttpResponse r && r.status().codeClass() == HttpStatusClass.INFORMATIONAL);
        ctx.write(msg, promise);
        if (ends && --unanswered == 0 && refused != null) answer(ctx);
    }

    /** Writes the refusal, with the headers every answer carries, then closes. */
    private void answer(ChannelHandlerContext ctx) {
        FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(refused.status()),
                Unpooled.wrappedBuffer(refused.body()));
        r.headers().set(HttpHeaderNames.DATE, Response.date())
                .set(HttpHeaderNames.SERVER, MicronautServer.SERVER)
                .set(HttpHeaderNames.CONTENT_TYPE, refused.contentType())
                .setInt(HttpHeaderNames.CONTENT_LENGTH, refused.body().length)
                .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        ctx.writeAndFlush(r).addListener(ChannelFutureListener.CLOSE);
    }

    /** The answer that refuses this request (each then closes), or null when Micronaut may have it. */
    private static Workshop.Answer refusal(io.netty.handler.codec.http.HttpRequest req) {
        Throwable malformed = req.decoderResult().cause();
        if (malformed != null) {
            return malformed instanceof TooLongHttpLineException || malformed instanceof TooLongHttpHeaderException
                    ? Workshop.headTooLarge()
                    : Workshop.Answer.text(400, "malformed request: " + malformed.getMessage() + "\n").closing();
        }
        Workshop.Answer refused = HeadRefusals.refusal(req);
        if (refused != null) return refused;
        try {
            new QueryStringDecoder(req.uri()).parameters();
        } catch (IllegalArgumentException e) {
            return Workshop.Answer.text(400, "bad percent-encoding in the query\n").closing();
        }
        return null;
    }

    /**
     * Puts a Refusals right after Netty's HTTP codec in each connection's pipeline. Micronaut hands
     * a registered customizer each channel it opens; this one acts on connections only.
     */
    record Customizer(Channel connection) implements NettyServerCustomizer {
        @Override
        public NettyServerCustomizer specializeForChannel(Channel channel, NettyServerCustomizer.ChannelRole role) {
            return role == NettyServerCustomizer.ChannelRole.CONNECTION ? new Customizer(channel) : this;
        }

        @Override
        public void onStreamPipelineBuilt() {
            if (connection != null) {
                connection.pipeline().addAfter(ChannelPipelineCustomizer.HANDLER_HTTP_SERVER_CODEC, "workshop-refusals", new Refusals());
            }
        }
    }
}
