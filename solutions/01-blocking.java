///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
//SOURCES ../exercises/kit/Kit.java

import java.io.IOException;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;

/** Chapter 01: a blocking HTTP server that serves one connection at a time, on one thread. */
class BlockingServer {
    // tag::backlog[]
    /** Connections the OS may hold, accepted but not yet taken by accept(), during a burst. */
    static final int BACKLOG = 1024;
    // end::backlog[]

    public static void main(String[] args) throws IOException {
        Options options = Kit.start("01-blocking", args);
        // Configure the server.
        try (ServerSocket server = new ServerSocket()) {
            server.setReuseAddress(true);
            // tag::bind[]
            server.bind(options.address(), BACKLOG); // Why: the default of 50 drops SYNs in a burst.
            // end::bind[]
            options.ready(server.getLocalPort());
            // Serve connections one after another, forever.
            // tag::accept-loop[]
            while (true) {
                Socket socket = Kit.accept(server); // Why: out of file descriptors, accept() fails; Kit.accept waits and tries again.
                serve(socket);
            }
            // end::accept-loop[]
        }
    }

    // tag::serve[]
    /** Answers every request on one connection until the client or a response closes it. */
    static void serve(Socket socket) {
        try (socket) {
            RequestReader requests = new RequestReader(socket.getInputStream());
            OutputStream out = socket.getOutputStream();
            try {
                // Why: keep-alive means many requests per connection, until one side closes.
                Request request;
                while ((request = requests.next()) != null) {
                    Response response = Endpoints.serve(request);
                    response.writeTo(out);
                    if (response.closes()) break; // Why: the client sent "Connection: close".
                }
            } catch (HttpError e) {
                e.response().writeTo(out); // Why: a bad request gets its status, then we close.
            } catch (RuntimeException e) {
                Response.serverError(e).writeTo(out); // Why: a bug in a handler costs one connection, not the server.
            }
        } catch (IOException e) {
            // Why: one broken connection must never stop the server; the next accept() goes on.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // Why: someone asked this thread to stop; keep the flag so its owner sees it.
        }
    }
    // end::serve[]
}
