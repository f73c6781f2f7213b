import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;

/** One parsed HTTP/1.x request: what the endpoints need to answer it. */
record Request(String method, String target, String path, Map<String, String> query,
               String version, Map<String, String> headers, byte[] body) {

    /** The same request with {@code body} as its body. */
    Request withBody(byte[] body) {
        return new Request(method, target, path, query, version, headers, body);
    }

    /** A header value by case-insensitive name, or null. */
    String header(String name) {
        return headers.get(name.toLowerCase(Locale.ROOT));
    }

    /** Whether the connection stays open after the response (HTTP/1.1 default, HTTP/1.0 opt-in). */
    boolean keepAlive() {
        String connection = header("connection");
        boolean http10 = version.equals("HTTP/1.0");
        if (connection == null) return !http10;
        String c = connection.toLowerCase(Locale.ROOT);
        if (c.contains("close")) return false;
        return !http10 || c.contains("keep-alive");
    }

    @Override
    public String toString() {
        return method + " " + target + " " + version + " (" + body.length + " body bytes)";
    }

    String bodyText() {
        return new String(body, StandardCharsets.UTF_8);
    }
}
