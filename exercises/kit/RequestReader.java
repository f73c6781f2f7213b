import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.function.BooleanSupplier;

/** Reads requests one after another from a blocking stream (keeps the bytes of pipelined ones). */
final class RequestReader {
    private final InputStream in;
    private final RequestParser parser = new RequestParser();
    private final ByteBuffer buffer = ByteBuffer.allocate(16 * 1024).flip();

    RequestReader(InputStream in) {
        this.in = in;
    }

    /**
     * Blocks until the next request has arrived whole. Returns null when the client closed the
     * connection between requests; throws {@link HttpError} for a request the server must refuse.
     */
    Request next() throws IOException, HttpError {
        return next(() -> false);
    }

    /**
     * The same, on a socket with a read timeout ({@code Socket.setSoTimeout}): each time a read
     * times out before the first byte of the next request, asks {@code letGo}, and returns null
     * (as if the client had closed) when it says yes and no byte has arrived since. A timeout in the middle of a request, or
     * when {@code letGo} says no, just waits on.
     */
    // tag::next[]
    Request next(BooleanSupplier letGo) throws IOException, HttpError {
        while (true) {
            Request request = parser.parse(buffer);
            if (request != null) return request;
            int n;
            while (true) {
                try {
                    n = in.read(buffer.array(), 0, buffer.capacity());
                    break;
                } catch (SocketTimeoutException e) {
                    // available(): bytes that arrived just as the read gave up are a request begun.
                    if (parser.idle() && letGo.getAsBoolean() && in.available() == 0) return null;
                }
            }
            if (n < 0) {
                if (parser.idle()) return null;
                throw new EOFException("the client closed the connection in the middle of a request");
            }
            buffer.clear().limit(n);
        }
    }
    // end::next[]
}
