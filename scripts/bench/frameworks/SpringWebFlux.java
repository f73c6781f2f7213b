///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
// Why: Reactor Netty loads Netty's native epoll transport, and Java 25 warns at each start of a JNI library load.
//JAVA_OPTIONS --enable-native-access=ALL-UNNAMED
//DEPS io.netty:netty-bom:4.2.18.Final@pom
//DEPS org.springframework.boot:spring-boot-starter-webflux:4.1.2
//SOURCES Workshop.java SpringStart.java HeadRefusals.java

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.AttributeKey;
import java.time.Duration;
import java.util.Map;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.BodyExtractors;
import org.springframework.web.reactive.function.BodyInserters;
import org.springframework.web.reactive.function.server.HandlerFunction;
import org.springframework.web.reactive.function.server.RequestPredicates;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.netty.NettyPipeline;

/**
 * The workshop protocol on Spring Boot 4 with Spring WebFlux on Reactor Netty, written as Spring's
 * guide to WebFlux teaches ("Building a Reactive RESTful Web Service"): functional endpoints, a
 * {@code RouterFunction} bean that routes to a handler whose methods return a {@code Mono} of the
 * response. The protocol's refusals of a request's head (limits, version, Host) are made in
 * Netty's pipeline, before Spring sees the request ({@link HeadLimits}, {@link NettyRefusals}).
 *
 * <p>Threads: Reactor Netty's event loops ({@code reactor-http-epoll-N}: the native epoll
 * transport, max(cores, 4) loops, no separate acceptor) read, parse, run the router and the
 * handlers, and write. Nothing waits on them: {@code /io} and {@code /db} answer from
 * {@code Mono.delay}, a timer on Reactor's {@code parallel()} scheduler, and {@code /cpu} burns on
 * that scheduler too, then the loop writes the answer. Its workers, one a core, each have a queue
 * of their own, dealt round-robin: two {@code /cpu} can queue on one worker while another is idle,
 * and a timer due on a worker that burns fires once the burn is done. A pipelined request waits in
 * Reactor Netty's queue until the answer before it is written, so the answers stay in order.
 */
// Why not @SpringBootApplication: this class is in the default package (it shares Workshop.java's),
// and its component scan would read every class of every jar. Boot's docs give this equivalent.
@SpringBootConfiguration(proxyBeanMethods = false)
@EnableAutoConfiguration
class SpringWebFlux {
    public static void main(String[] args) throws Exception {
        Options o = Kit.start("SpringWebFlux", args);
        // Why: Netty 4.2 refuses a line that ends with a bare LF (400); the protocol accepts one.
        System.setProperty("io.netty.handler.codec.http.defaultStrictLineParsing", "false");
        Map<String, Object> p = SpringStart.properties(o);
        // Why: a malformed request is an ordinary answer here (400), and Reactor Netty logs a warning for each.
        p.put("logging.level.reactor.netty.http.server.HttpServerOperations", "error");
        // Why: the default 4096 answers 414 to a longer request line; the protocol allows any head up to 8 KiB.
        p.put("server.netty.max-initial-line-length", Workshop.MAX_HEAD);
        // Kept: maxHeaderSize 8 KiB (Netty counts header lines without their line ends, so it never refuses a
        // head the protocol allows); the backlog (Netty asks for the system's somaxconn); no idle timeout.

        SpringStart.run(SpringWebFlux.class, o, p);
    }

    @Bean
    RouterFunction<ServerResponse> routes() {
        WorkshopHandler h = new WorkshopHandler();
        RouterFunctions.Builder routes = RouterFunctions.route();
        on(routes, HttpMethod.GET, "/", req -> WorkshopHandler.send(Workshop.hello()));
        on(routes, HttpMethod.GET, "/io", h::io);
        on(routes, HttpMethod.GET, "/cpu", h::cpu);
        on(routes, HttpMethod.GET, "/db", h::db);
        on(routes, HttpMethod.GET, "/stats", req -> WorkshopHandler.send(Workshop.stats()));
        on(routes, HttpMethod.GET, "/bytes", h::bytes);
        on(routes, HttpMethod.POST, "/echo", h::echo);
        on(routes, HttpMethod.GET, "/fail", req -> Mono.error(new IllegalStateException("GET /fail: a simulated bug in a handler")));
        return routes.route(RequestPredicates.all(), req -> WorkshopHandler.send(Workshop.notFound(req.path())))
                .onError(Throwable.class, (e, req) -> WorkshopHandler.send(Workshop.failed(e)))
                .build();
    }

    /** Routes the path for its one method, and every other method to 405 (a router function would answer 404). */
    private static void on(RouterFunctions.Builder routes, HttpMethod method, String path, HandlerFunction<ServerResponse> handler) {
        routes.route(RequestPredicates.method(method).and(RequestPredicates.path(path)), handler)
                .route(RequestPredicates.path(path), req -> WorkshopHandler.send(Workshop.wrongMethod(path, method.name())));
    }

    /** Puts {@link HeadLimits} after Netty's HTTP codec and {@link NettyRefusals} after Reactor Netty's HTTP handler, in each connection's pipeline. */
    @Bean
    NettyServerCustomizer refusals() {
        return server -> server.doOnChannelInit((observer, channel, address) -> channel.pipeline()
                .addAfter(NettyPipeline.HttpCodec, "workshop.head-limits", new HeadLimits())
                .addAfter(NettyPipeline.HttpTrafficHandler, "workshop.refusals", new NettyRefusals()));
    }
}

/** The endpoints. Each returns at once on the event loop; what waits is a Mono that completes later. */
final class WorkshopHandler {
    static final String SERVER = "spring-webflux";
    private static final int CHUNK = 64 * 1024;

    // tag::waits[]
    Mono<ServerResponse> io(ServerRequest req) {
        long ms = Workshop.number(req.queryParam("ms").orElse(null), Endpoints.MAX_MILLIS);
        if (ms < 0) return send(Workshop.badNumber("ms", Endpoints.MAX_MILLIS));
        return Mono.delay(Duration.ofMillis(ms)).flatMap(tick -> send(Workshop.waited(ms)));
    }

    Mono<ServerResponse> cpu(ServerRequest req) {
        long ms = Workshop.number(req.queryParam("ms").orElse(null), Endpoints.MAX_MILLIS);
        if (ms < 0) return send(Workshop.badNumber("ms", Endpoints.MAX_MILLIS));
        // Why parallel(): Reactor's docs give it to CPU-bound work (one worker a core); boundedElastic() is for blocking calls.
        return Mono.fromCallable(() -> Workshop.burn(ms)).subscribeOn(Schedulers.parallel()).flatMap(WorkshopHandler::send);
    }
    // end::waits[]

    /** The kit's pool books the query without blocking and says when its answer is due: a timer, as for /io. */
    Mono<ServerResponse> db(ServerRequest req) {
        long ms = Workshop.number(req.queryParam("ms").orElse(null), Endpoints.MAX_MILLIS);
        if (ms < 0) return send(Workshop.badNumber("ms", Endpoints.MAX_MILLIS));
        Endpoints.Wait due = Workshop.book(ms, req.queryParam("fail").orElse(null));
        return Mono.delay(Duration.ofMillis(due.millis())).flatMap(tick -> send(Workshop.answer(due)));
    }

    /** The body as it came, under the request's own Content-Type. Why raw: Spring's codecs parse it, and refuse one that is not a media type. */
    Mono<ServerResponse> echo(ServerRequest req) {
        String type = req.headers().firstHeader(HttpHeaders.CONTENT_TYPE);
        return DataBufferUtils.join(req.body(BodyExtractors.toDataBuffers()))
                .defaultIfEmpty(DefaultDataBufferFactory.sharedInstance.wrap(new byte[0]))
                .flatMap(body -> ServerResponse.ok()
                        .headers(h -> {
                            headers(h, false);
                            h.set(HttpHeaders.CONTENT_TYPE, type == null ? "application/octet-stream" : type);
                        })
                        .contentLength(body.readableByteCount())
                        .body(BodyInserters.fromDataBuffers(Mono.just(body))));
    }

    /** {@code /bytes?n=N}: Content-Length first, then 64 KiB buffers as Reactor Netty asks for them (it stops while the socket is full). */
    Mono<ServerResponse> bytes(ServerRequest req) {
        long n = Workshop.number(req.queryParam("n").orElse(null), Endpoints.MAX_BYTES);
        if (n < 0) return send(Workshop.badNumber("n", Endpoints.MAX_BYTES));
        DataBufferFactory buffers = req.exchange().getResponse().bufferFactory();
        byte[] chunk = new byte[(int) Math.min(n, CHUNK)];
        Flux<DataBuffer> body = Flux.generate(() -> 0L, (sent, sink) -> {
            if (sent == n) {
                sink.complete();
                return sent;
            }
            int length = Workshop.pattern(n, sent, chunk);
            sink.next(buffers.allocateBuffer(length).write(chunk, 0, length));   // copied: chunk is reused
            return sent + length;
        });
        return ServerResponse.ok().contentType(MediaType.APPLICATION_OCTET_STREAM).contentLength(n)
                .headers(h -> headers(h, false)).body(BodyInserters.fromDataBuffers(body));
    }

    /** A kit's answer as a ServerResponse (a byte[] body: Spring sets its Content-Length). */
    static Mono<ServerResponse> send(Workshop.Answer a) {
        return ServerResponse.status(a.status())
                .header(HttpHeaders.CONTENT_TYPE, a.contentType())
                .headers(h -> {
                    headers(h, a.close());
                    a.headers().forEach(h::set);
                })
                .bodyValue(a.body());
    }

    /** Date and Server, which Reactor Netty does not add; Connection: close makes Reactor Netty close after the answer. */
    private static void headers(HttpHeaders h, boolean close) {
        h.set(HttpHeaders.DATE, Response.date());
        h.set(HttpHeaders.SERVER, SERVER);
        if (close) h.set(HttpHeaders.CONNECTION, "close");
    }
}

/**
 * What Netty's codec lets through and the protocol refuses, found in each request's head: an HTTP
 * version other than 1.0 and 1.1 (505), a head over 8 KiB (431: Netty limits the request line and
 * the header lines apart, without their line ends), HTTP/1.1 with no Host (400), a chunked body
 * (501), a body over 1 MiB (413, unread). Each becomes a decoding failure, which Reactor Netty
 * answers in order, then closes; {@link NettyRefusals} writes the answer kept here.
 */
final class HeadLimits extends ChannelInboundHandlerAdapter {
    static final AttributeKey<Workshop.Answer> REFUSED = AttributeKey.valueOf("workshop.refused");

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof HttpRequest req) {
            Workshop.Answer refused = req.decoderResult().isSuccess() ? HeadRefusals.refusal(req) : null;
            if (refused != null) {
                ctx.channel().attr(REFUSED).set(refused);
                req.setDecoderResult(DecoderResult.failure(new IllegalArgumentException(new String(refused.body()).strip())));
            }
            // Why: Netty marks a request it cannot parse HTTP/1.0, and Reactor Netty then closes after the answer
            // before it, never answering it (and answers HTTP/2.0 at once); as HTTP/1.1 it waits its turn.
            if (req.decoderResult().isFailure()) req.setProtocolVersion(HttpVersion.HTTP_1_1);
        }
        ctx.fireChannelRead(msg);
    }
}

/**
 * The answers Reactor Netty and Spring write by themselves (not send(): no Date), as the
 * protocol's: the answer {@link HeadLimits} kept, or 431 for 414 (a request line over 8 KiB) and a
 * line of text for the others (a malformed head or URI: 400), with Date, Server and Connection:
 * close. Why after Reactor Netty's HTTP handler: it runs first on the way out, so the close counts.
 */
final class NettyRefusals extends ChannelOutboundHandlerAdapter {
    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
        // Why: Reactor Netty answers HTTP/1.0 in HTTP/1.0 and closes without saying so (also after
        // keep-alive); in HTTP/1.1 it says Connection: close, or keeps a keep-alive connection open.
        if (msg instanceof HttpResponse r) r.setProtocolVersion(HttpVersion.HTTP_1_1);
        if (msg instanceof FullHttpResponse r && r.status().code() >= 400 && !r.headers().contains(HttpHeaderNames.DATE)) {
            int status = r.status().code();
            Workshop.Answer a = ctx.channel().attr(HeadLimits.REFUSED).getAndSet(null);
            if (a == null) {
                a = status == 414 || status == 431 ? Workshop.headTooLarge()
                        : Workshop.Answer.text(status, "refused: " + r.status().reasonPhrase() + "\n").closing();
            }
            FullHttpResponse answer = r.replace(Unpooled.wrappedBuffer(a.body())).setStatus(HttpResponseStatus.valueOf(a.status()));
            r.release();
            answer.headers().set(HttpHeaderNames.DATE, Response.date()).set(HttpHeaderNames.SERVER, WorkshopHandler.SERVER)
                    .set(HttpHeaderNames.CONTENT_TYPE, a.contentType()).setInt(HttpHeaderNames.CONTENT_LENGTH, a.body().length)
                    .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            msg = answer;
        }
        super.write(ctx, msg, promise);
    }
}
