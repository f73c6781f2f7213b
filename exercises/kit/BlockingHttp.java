import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.util.function.BooleanSupplier;

/** Chapter 01's connection loop, for the later chapters that block: serves one connection to its end. */
final class BlockingHttp {
    private BlockingHttp() {}

    /** How often a worker holding an idle keep-alive connection asks whether others wait. */
    static final int IDLE_POLL_MS = 100;

    /**
     * Answers every request on the connection until either side closes it. A bad request gets
     * its status and ends the connection. A handler that throws gets 500, and the exception is
     * thrown on to the caller after the connection is closed: catch it, or the thread dies.
     */
    static void serve(Socket socket) {
        serve(socket, NOBODY);
    }

    private static final BooleanSupplier NOBODY = () -> false;

    /**
     * The same, for a thread that other connections may be waiting for: whenever
     * {@code othersWaiting} says yes, the connection is let go. A response then says
     * {@code Connection: close} and ends it; between requests, an idle connection is closed
     * (checked every {@value #IDLE_POLL_MS} ms), which HTTP/1.1 allows a server to do.
     */
    static void serve(Socket socket, BooleanSupplier othersWaiting) {
        try (socket) {
            // Why not for NOBODY: each timeout wakes the thread, and 10,000 idle virtual threads must not wake 10 times a second.
            if (othersWaiting != NOBODY) socket.setSoTimeout(IDLE_POLL_MS);
            RequestReader requests = new RequestReader(socket.getInputStream());
            OutputStream out = socket.getOutputStream();
            try {
                Request request;
                while ((request = requests.next(othersWaiting)) != null) {
                    Response response = Endpoints.serve(request);
                    if (othersWaiting.getAsBoolean()) response = response.closing();
                    response.writeTo(out);
                    if (response.closes()) break;
                }
            } catch (HttpError e) {
                e.response().writeTo(out);
            } catch (RuntimeException e) {
                Response.serverError(e).writeTo(out);
                throw e;
            }
        } catch (IOException e) {
            // the client went away; nothing to answer
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
