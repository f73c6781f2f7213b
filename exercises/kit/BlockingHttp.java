import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;

/** Chapter 01's connection loop, for the later chapters that block: serves one connection to its end. */
final class BlockingHttp {
    private BlockingHttp() {}

    /**
     * Answers every request on the connection until either side closes it. A bad request gets
     * its status and ends the connection. A handler that throws gets 500, and the exception is
     * thrown on to the caller after the connection is closed: catch it, or the thread dies.
     */
    static void serve(Socket socket) {
        try (socket) {
            RequestReader requests = new RequestReader(socket.getInputStream());
            OutputStream out = socket.getOutputStream();
            try {
                Request request;
                while ((request = requests.next()) != null) {
                    Response response = Endpoints.serve(request);
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
