import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.util.function.BooleanSupplier;

/**
 * Chapter 01's answer: its connection loop, for the later chapters that block (02 and 05 include
 * this file). Serves one connection to its end. Open it after you pass chapter 01.
 */
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
        serve(socket, othersWaiting, null);
    }

    /**
     * The same, with timeouts: a connection idle for {@code timeouts.idleMillis()} is let go, and
     * a request whose head takes longer than {@code timeouts.headerMillis()} gets 408.
     */
    static void serve(Socket socket, RequestReader.Timeouts timeouts) {
        serve(socket, NOBODY, timeouts);
    }

    private static void serve(Socket socket, BooleanSupplier othersWaiting, RequestReader.Timeouts timeouts) {
        try (socket) {
            // Why not for NOBODY: each timeout wakes the thread, and 10,000 idle virtual threads must not wake 10 times a second.
            if (othersWaiting != NOBODY) socket.setSoTimeout(IDLE_POLL_MS);
            RequestReader requests = new RequestReader(socket.getInputStream());
            OutputStream out = socket.getOutputStream();
            try {
                Request request;
                while ((request = timeouts == null ? requests.next(othersWaiting) : requests.next(socket, timeouts)) != null) {
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

    /** How long {@link #closeGently} waits for the client to finish sending. */
    static final int LINGER_MS = 1000;

    /**
     * Sends one last answer (a 503, say) and closes the connection gently (see
     * {@link #closeGently}), on the caller's thread only as long as the write takes.
     */
    static void answerAndClose(Socket socket, Response response) {
        try {
            response.closing().writeTo(socket.getOutputStream());
        } catch (IOException e) {
            closeQuietly(socket); // the client is gone already
            return;
        }
        closeGently(socket);
    }

    /**
     * Closes a connection whose answer is written without destroying that answer: shuts down
     * output (the client sees the end of the answer), then reads and drops what the client still
     * sends until it closes or {@value #LINGER_MS} ms pass, then closes. Closing with unread
     * bytes, or bytes still on their way, makes the OS send a reset, and a reset can make the
     * client's OS drop the answer before the client has read it. The wait runs on a virtual
     * thread, so the caller (an acceptor) goes on at once.
     */
    static void closeGently(Socket socket) {
        try {
            socket.shutdownOutput();
        } catch (IOException e) {
            closeQuietly(socket);
            return;
        }
        Thread.ofVirtual().name("linger").start(() -> {
            try (socket) {
                socket.setSoTimeout(LINGER_MS);
                long until = System.nanoTime() + LINGER_MS * 1_000_000L;
                byte[] drop = new byte[4096];
                while (System.nanoTime() < until && socket.getInputStream().read(drop) >= 0) {
                    // drop it: the answer is sent, nothing more will be read
                }
            } catch (IOException e) {
                // timed out or reset: closed either way
            }
        });
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // closed anyway
        }
    }
}
