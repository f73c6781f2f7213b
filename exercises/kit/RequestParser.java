import java.net.URLDecoder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * An incremental HTTP/1.x request parser: feed it whatever bytes have arrived, in any pieces.
 *
 * <p>{@link #parse} consumes bytes from the buffer up to the end of one request and returns it,
 * or returns null after consuming everything when the request is not complete yet. Bytes of a
 * next (pipelined) request stay in the buffer. One parser per connection; it keeps the partial
 * request between calls, so a reactor can use it across many partial reads.
 */
final class RequestParser {
    static final int MAX_HEADER_BYTES = 8 * 1024;
    static final int MAX_BODY_BYTES = 1024 * 1024;

    /** Where a head collects: 256 bytes, grown as a head needs up to 8 KiB, and small again after a large one. */
    static final int SMALL_HEAD = 256;
    private byte[] head = new byte[0]; // Why empty: a connection that never sends holds no buffer.
    private int headLength;
    private Request headOnly;      // the head is parsed and the body is still arriving
    private byte[] body;
    private int bodyLength;

    /** The bytes its head buffer holds now, in use or not: what a waiting connection costs (for the kit's tests). */
    int holds() {
        return head.length;
    }

    /** True while a request's head has begun to arrive and is not whole yet. */
    boolean inHead() {
        return headLength > 0 && headOnly == null;
    }

    /** True when no byte of a next request has arrived: closing now loses nothing. */
    boolean idle() {
        return headLength == 0 && headOnly == null;
    }

    /** Consumes bytes of one request; returns it when complete, else null. */
    Request parse(ByteBuffer in) throws HttpError {
        if (headOnly == null) {
            while (headOnly == null && in.hasRemaining()) {
                byte b = in.get();
                if (headLength == 0 && (b == '\r' || b == '\n')) continue; // stray line ends between requests
                if (headLength == MAX_HEADER_BYTES) {
                    throw new HttpError(431, "the header section is larger than 8 KiB");
                }
                if (headLength == head.length) head = java.util.Arrays.copyOf(head, Math.min(MAX_HEADER_BYTES, Math.max(SMALL_HEAD, 2 * head.length)));
                head[headLength++] = b;
                if (b == '\n' && headEnded()) {
                    headOnly = parseHead(new String(head, 0, headLength - 1, StandardCharsets.ISO_8859_1));
                }
            }
            if (headOnly == null) return null;
        }
        int n = Math.min(in.remaining(), body.length - bodyLength);
        in.get(body, bodyLength, n);
        bodyLength += n;
        if (bodyLength < body.length) return null;
        Request done = headOnly.withBody(body);
        headLength = 0;
        if (head.length > SMALL_HEAD) head = new byte[SMALL_HEAD]; // Why: one large head must not cost an idle connection 8 KiB.
        headOnly = null;
        body = null;
        bodyLength = 0;
        return done;
    }

    private boolean headEnded() {
        return headLength >= 2 && head[headLength - 2] == '\n'
                || headLength >= 3 && head[headLength - 2] == '\r' && head[headLength - 3] == '\n';
    }

    private Request parseHead(String text) throws HttpError {
        String[] lines = text.split("\n", -1);
        String[] parts = stripCr(lines[0]).split(" ", -1);
        if (parts.length != 3) {
            throw new HttpError(400, "the request line must be METHOD SP TARGET SP HTTP/1.1");
        }
        String method = parts[0];
        String target = parts[1];
        String version = parts[2];
        if (method.isEmpty() || !isToken(method)) throw new HttpError(400, "the method is not a valid token");
        if (!target.startsWith("/") || !isVisible(target)) {
            throw new HttpError(400, "the target must be a path starting with /");
        }
        if (!version.equals("HTTP/1.1") && !version.equals("HTTP/1.0")) {
            if (version.matches("HTTP/\\d\\.\\d")) throw new HttpError(505, version + " is not supported");
            throw new HttpError(400, "the request line has no valid HTTP version");
        }
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length - 1; i++) {
            String line = stripCr(lines[i]);
            int colon = line.indexOf(':');
            if (line.startsWith(" ") || line.startsWith("\t")) throw new HttpError(400, "folded header lines are not allowed");
            if (colon <= 0 || !isToken(line.substring(0, colon))) throw new HttpError(400, "malformed header line");
            String name = line.substring(0, colon).toLowerCase(Locale.ROOT);
            String value = line.substring(colon + 1).strip();
            if (!isFieldValue(value)) throw new HttpError(400, "control character in header " + name);
            String previous = headers.get(name);
            if (previous != null && name.equals("content-length") && !previous.equals(value)) {
                throw new HttpError(400, "conflicting Content-Length headers");
            }
            headers.put(name, previous == null || previous.equals(value) ? value : previous + ", " + value);
        }
        if (version.equals("HTTP/1.1") && !headers.containsKey("host")) throw new HttpError(400, "missing Host header");
        if (headers.containsKey("transfer-encoding")) {
            throw new HttpError(501, "Transfer-Encoding in requests is not supported; send Content-Length");
        }
        body = new byte[contentLength(headers.get("content-length"))];
        int q = target.indexOf('?');
        String path = q < 0 ? target : target.substring(0, q);
        Map<String, String> query = q < 0 ? Map.of() : parseQuery(target.substring(q + 1));
        return new Request(method, target, path, query, version, headers, body);
    }

    private static int contentLength(String value) throws HttpError {
        if (value == null) return 0;
        if (value.isEmpty() || !value.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new HttpError(400, "Content-Length is not a number");
        }
        if (value.length() > 9 || Integer.parseInt(value) > MAX_BODY_BYTES) {
            throw new HttpError(413, "the body is larger than 1 MiB");
        }
        return Integer.parseInt(value);
    }

    private static Map<String, String> parseQuery(String query) throws HttpError {
        Map<String, String> params = new LinkedHashMap<>();
        try {
            for (String pair : query.split("&")) {
                if (pair.isEmpty()) continue;
                int eq = pair.indexOf('=');
                String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
                String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
                params.putIfAbsent(key, value);
            }
        } catch (IllegalArgumentException e) {
            throw new HttpError(400, "malformed percent-encoding in the query");
        }
        return Map.copyOf(params);
    }

    private static String stripCr(String line) {
        return line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
    }

    private static boolean isToken(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean ok = c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
                    || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
            if (!ok) return false;
        }
        return true;
    }

    private static boolean isVisible(String s) {
        return s.chars().allMatch(c -> c > 0x20 && c < 0x7f);
    }

    private static boolean isFieldValue(String s) {
        return s.chars().allMatch(c -> c == '\t' || c >= 0x20 && c != 0x7f);
    }
}
