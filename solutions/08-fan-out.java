///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
//PREVIEW
//SOURCES ../exercises/kit/Kit.java ../exercises/kit/chapter-01/BlockingHttp.java ../exercises/kit/Trips.java

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.StructuredTaskScope;
import java.util.concurrent.StructuredTaskScope.Joiner;
import java.util.concurrent.StructuredTaskScope.Subtask;

/**
 * Chapter 08: one request, several calls to a backend. A virtual thread per connection, as in
 * chapter 05; GET /trip forks a leg per call in a StructuredTaskScope, which cancels the rest
 * when one fails or the deadline passes. One shared HTTP client keeps its connections alive, a
 * Semaphore bounds the calls in flight, and a ScopedValue carries the request's id to every leg.
 */
class TripServer {
    // tag::setup[]
    /** The request's id, bound for the trip and seen by every leg forked inside it. */
    static final ScopedValue<String> REQUEST_ID = ScopedValue.newInstance();
    /** One client for every call: it keeps connections to the backend open and reuses them. */
    static HttpClient client;
    /** Calls to the backend in flight, server-wide, at most --max-outbound. */
    static Semaphore outbound;
    static URI backend;
    // end::setup[]

    public static void main(String[] args) throws IOException {
        Options options = Kit.start("08-fan-out", args, "--backend", "http://127.0.0.1:8081", "--max-outbound", "64");
        backend = options.uri("--backend");
        // tag::client[]
        client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
        // end::client[]
        // tag::outbound[]
        outbound = new Semaphore(options.number("--max-outbound"), true); // Why fair: legs get their turn in the order they asked.
        // end::outbound[]
        Endpoints.route("/trip", request -> Trips.serve(request, TripServer::trip));
        try (ServerSocket server = new ServerSocket()) {
            server.setReuseAddress(true);
            server.bind(options.address(), 4096);
            options.ready(server.getLocalPort());
            Thread.Builder connections = Thread.ofVirtual().name("conn-", 0);
            while (true) {
                Socket socket = Kit.accept(server); // Why: out of file descriptors, accept() fails; Kit.accept waits and tries again.
                connections.start(() -> BlockingHttp.serve(socket));
            }
        }
    }

    // tag::trip[]
    /** GET /trip: every leg at once; the first failure, or the deadline, cancels the rest. */
    static Response trip(Trips.Trip trip) throws InterruptedException {
        // tag::request-id[]
        return ScopedValue.where(REQUEST_ID, trip.id()).call(() -> legs(trip)); // Why: forks inside see the binding; it ends with the call.
        // end::request-id[]
    }

    static Response legs(Trips.Trip trip) throws InterruptedException {
        // Why a deadline on the scope: when it passes, join() throws and every leg still running is interrupted.
        try (var scope = StructuredTaskScope.open(Joiner.<Trips.Leg>allSuccessfulOrThrow(),
                cf -> trip.deadline() > 0 ? cf.withTimeout(Duration.ofMillis(trip.deadline())) : cf)) {
            for (int i = 0; i < trip.legs(); i++) {
                int leg = i;
                scope.fork(() -> call(trip, leg));
            }
            List<Trips.Leg> legs = scope.join().map(Subtask::get).toList(); // Why: forked in leg order, joined in it.
            return Trips.answer(trip, legs);
        } catch (StructuredTaskScope.FailedException e) { // Why: the first leg to fail cancelled its siblings.
            return Trips.failed(trip, e.getCause());
        } catch (StructuredTaskScope.TimeoutException e) {
            return Trips.late(trip);
        }
    }
    // end::trip[]

    // tag::call[]
    /** One leg: a call to the backend, carrying the request's id. */
    static Trips.Leg call(Trips.Trip trip, int leg) throws IOException, InterruptedException, Trips.LegFailed {
        outbound.acquire(); // Why: a leg waits here, unmounted, while --max-outbound calls are in flight.
        try {
            HttpRequest request = Trips.request(backend, trip, leg, REQUEST_ID.get());
            // Why interruptible: a cancelled leg's send() stops, and the client closes the connection.
            HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
            return Trips.leg(leg, response.statusCode(), response.body());
        } finally {
            outbound.release();
        }
    }
    // end::call[]
}
