///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
//SOURCES kit/Kit.java

import java.io.IOException;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * Chapter 01: a blocking HTTP server that serves one connection at a time, on one thread.
 *
 * It answers one request per connection and dies on the first bad request. Make it keep
 * connections alive, survive bad clients, and take a burst of connections. Grade it with
 * scripts/check.sh 01 (add --watch to grade on every save).
 */
class BlockingServer {
    public static void main(String[] args) throws Exception {
        Options options = Kit.start("01-blocking", args);
        // Configure the server.
        try (ServerSocket server = new ServerSocket()) {
            server.setReuseAddress(true);
            // tag::bind[]
            // TODO(backlog): bind(address) queues at most 50 connections the server has not
            //  accepted yet; a burst beyond that gets dropped. Ask for more.
            server.bind(options.address());
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
    /** Answers requests on one connection. */
    static void serve(Socket socket) throws IOException, HttpError, InterruptedException {
        RequestReader requests = new RequestReader(socket.getInputStream());
        OutputStream out = socket.getOutputStream();
        // TODO(keep-alive): HTTP/1.1 keeps the connection open. Answer requests in a loop
        //  until the client closes (next() returns null) or a response closes() it.
        Request request = requests.next();
        if (request != null) {
            Endpoints.serve(request).writeTo(out);
        }
        // TODO(errors): next() throws HttpError for a malformed request: send the client
        //  e.response(), then close. A handler can throw too (GET /fail does): answer
        //  Response.serverError(e). Let nothing thrown for one connection reach the
        //  accept loop: it would stop the whole server.
        socket.close();
    }
    // end::serve[]
}
