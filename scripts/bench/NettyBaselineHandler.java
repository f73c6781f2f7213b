import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Answers GET / at once, GET /io?ms=N after N ms on the event loop's timer, GET /cpu?ms=N after
 * burning N ms of CPU on the event loop (as plain Netty code does, with a loop per core; the
 * same calibrated work as every course server, the kit's), and GET /db?ms=N through
 * {@link NettyPool}, never sleeping; 404 otherwise.
 */
class NettyBaselineHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
    @Override
    public void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
        boolean keepAlive = HttpUtil.isKeepAlive(req);
        if (!req.decoderResult().isSuccess()) {
            send(ctx, HttpResponseStatus.BAD_REQUEST, "bad request\n", false);
            return;
        }
        QueryStringDecoder uri = new QueryStringDecoder(req.uri());
        boolean get = req.method().equals(HttpMethod.GET);
        switch (uri.path()) {
            case "/" -> send(ctx, get ? HttpResponseStatus.OK : HttpResponseStatus.METHOD_NOT_ALLOWED,
                    get ? "Hello, World!" : "/ accepts GET only\n", keepAlive);
            case "/io" -> {
                long ms = millis(uri.parameters().get("ms"));
                if (!get || ms < 0) {
                    send(ctx, HttpResponseStatus.BAD_REQUEST, "GET /io?ms=N with N from 0 to 60000\n", keepAlive);
                    return;
                }
                // The wait is a timer on this connection's event loop: no thread sleeps.
                ctx.executor().schedule(() -> send(ctx, HttpResponseStatus.OK, "waited " + ms + " ms\n", keepAlive),
                        ms, TimeUnit.MILLISECONDS);
            }
            case "/cpu" -> {
                long ms = millis(uri.parameters().get("ms"));
                if (!get || ms < 0) {
                    send(ctx, HttpResponseStatus.BAD_REQUEST, "GET /cpu?ms=N with N from 0 to 60000\n", keepAlive);
                    return;
                }
                Endpoints.burnCpu(ms); // on the loop: its other connections wait, as in chapter 04
                send(ctx, HttpResponseStatus.OK, "burned " + ms + " ms of CPU\n", keepAlive);
            }
            case "/db" -> {
                long ms = millis(uri.parameters().get("ms"));
                if (!get || ms < 0) {
                    send(ctx, HttpResponseStatus.BAD_REQUEST, "GET /db?ms=N with N from 0 to 60000\n", keepAlive);
                    return;
                }
                NettyPool.query(ctx, ms, () -> send(ctx, HttpResponseStatus.OK, "queried " + ms + " ms\n", keepAlive),
                        () -> send(ctx, HttpResponseStatus.SERVICE_UNAVAILABLE, "no database connection within " + NettyPool.waitMillis + " ms\n", keepAlive));
            }
            default -> send(ctx, HttpResponseStatus.NOT_FOUND, "no endpoint at " + uri.path() + "\n", keepAlive);
        }
    }

    private static long millis(List<String> values) {
        if (values == null || values.size() != 1 || !values.get(0).matches("\\d{1,5}")) return -1;
        long ms = Long.parseLong(values.get(0));
        return ms <= 60_000 ? ms : -1;
    }

    private static void send(ChannelHandlerContext ctx, HttpResponseStatus status, String body, boolean keepAlive) {
        FullHttpResponse response = new DefaultFullHttpResponse(io.netty.handler.codec.http.HttpVersion.HTTP_1_1, status,
                Unpooled.copiedBuffer(body, StandardCharsets.UTF_8));
        response.headers()
                .set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8")
                .setInt(HttpHeaderNames.CONTENT_LENGTH, response.content().readableBytes());
        if (!keepAlive) {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        } else {
            ctx.writeAndFlush(response);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }
}
