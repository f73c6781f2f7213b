import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;

/** Reads requests one after another from a blocking stream (keeps the bytes of pipelined ones). */
final class RequestReader {
    private final InputStream in;
    private final RequestParser parser = new RequestParser();
    private final ByteBuffer buffer = ByteBuffer.allocate(16 * 1024).flip();

    RequestReader(InputStream in) {
        this.in = in;
    }

    // tag::next[]
    /**
     * Blocks until the next request has arrived whole. Returns null when the client closed the
     * connection between requests; throws {@link HttpError} for a request the server must refuse.
     */
    Request next() throws IOException, HttpError {
        while (true) {
            Request request = parser.parse(buffer);
            if (request != null) return request;
            buffer.clear();
            int n = in.read(buffer.array(), 0, buffer.capacity());
            if (n < 0) {
                if (parser.idle()) return null;
                throw new EOFException("the client closed the connection in the middle of a request");
            }
            buffer.limit(n);
        }
    }
    // end::next[]
}
