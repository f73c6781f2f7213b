import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;
import java.util.Map;

/**
 * The protocol's refusals of a request head that Netty's decoder parsed, for the framework
 * servers whose Netty pipeline a handler can join (Spring WebFlux on Reactor Netty, Micronaut):
 * an HTTP version other than 1.0 and 1.1 (505), a head over {@link Workshop#MAX_HEAD} (431), an
 * HTTP/1.1 request without Host (400), Transfer-Encoding (501), a body over
 * {@link Workshop#MAX_BODY} (413). Each refusal closes the connection after its answer. Included
 * with //SOURCES by those servers only: the others have no Netty on their class path.
 */
final class HeadRefusals {
    private HeadRefusals() {}

    /** The answer that refuses this head, or null when the framework may have the request. */
    static Workshop.Answer refusal(HttpRequest req) {
        HttpVersion version = req.protocolVersion();
        if (!version.equals(HttpVersion.HTTP_1_0) && !version.equals(HttpVersion.HTTP_1_1)) {
            return Workshop.Answer.text(505, version.text() + " is not supported: HTTP/1.0 and HTTP/1.1 are\n").closing();
        }
        long head = req.method().name().length() + 1 + req.uri().length() + " HTTP/1.1\r\n".length() + 2;
        for (Map.Entry<String, String> h : req.headers()) head += h.getKey().length() + 2 + h.getValue().length() + 2;
        if (head > Workshop.MAX_HEAD) return Workshop.headTooLarge();
        if (version.equals(HttpVersion.HTTP_1_1) && !req.headers().contains(HttpHeaderNames.HOST)) {
            return Workshop.Answer.text(400, "HTTP/1.1 needs a Host header\n").closing();
        }
        if (req.headers().contains(HttpHeaderNames.TRANSFER_ENCODING)) {
            return Workshop.Answer.text(501, "Transfer-Encoding is not supported: send Content-Length\n").closing();
        }
        // Netty has refused a Content-Length that is not a number already (a malformed head).
        long length = Workshop.number(req.headers().get(HttpHeaderNames.CONTENT_LENGTH), Long.MAX_VALUE);
        return length > Workshop.MAX_BODY ? Workshop.bodyTooLarge() : null;
    }
}
