///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
//PREVIEW
//SOURCES kit/Kit.java kit/chapter-01/BlockingHttp.java kit/Trips.java

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;

/**
 * Chapter 08: one request, several calls to a backend. A virtual thread per connection, as in
 * chapter 05; GET /trip makes its legs' calls one after another, each on a new client.
 *
 * Make every leg run at once in a StructuredTaskScope that cancels the rest when one fails or
 * the deadline passes; share one client; bound the calls in flight to --max-outbound; and carry
 * the request's id to every leg. Grade it with scripts/check.sh 08 (it starts a backend, and
 * this server with --backend pointing at it and --max-outbound 8).
 */
class TripServer {
    // tag::setup[]
    /** The request's id, set for the trip; each call sends it. */
    static final ThreadLocal<String> REQUEST_ID = new ThreadLocal<>();
    static URI backend;
    // end::setup[]

    public static void main(String[] args) throws IOException {
        Options options = Kit.start("08-fan-out", args, "--backend", "http://127.0.0.1:8081", "--max-outbound", "64");
        backend = options.uri("--backend");
        // TODO(outbound): nothing bounds the calls in flight to the backend: 1,000 trips of 10
        //  legs make 10,000 at once. Make a Semaphore with --max-outbound permits, here, and
        //  take one around each call in call(), below.
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
    /** GET /trip: the legs one after another. */
    static Response trip(Trips.Trip trip) throws InterruptedException {
        // TODO(request-id): a ThreadLocal is seen by this thread only. Once the legs run on
        //  threads of their own, they send no id. Bind a ScopedValue for the trip instead:
        //  ScopedValue.where(REQUEST_ID, trip.id()).call(...); forks of a scope opened inside see it.
        REQUEST_ID.set(trip.id());
        try {
            return legs(trip);
        } finally {
            REQUEST_ID.remove();
        }
    }

    static Response legs(Trips.Trip trip) throws InterruptedException {
        // TODO(fan-out): K legs of S ms take K x S here. Fork each leg in a StructuredTaskScope,
        //  opened with Joiner.allSuccessfulOrThrow(): join() waits for them all, and the first
        //  that fails cancels the others (their threads are interrupted, their calls stop).
        //  A FailedException from join() is a 502: Trips.failed(trip, e.getCause()).
        // TODO(deadline): the trip's deadline (trip.deadline() ms, 0 for none) is ignored. Give
        //  the scope a timeout (open's second argument, cf -> cf.withTimeout(...)): join() then
        //  throws TimeoutException, a 504 (Trips.late(trip)), and the legs still out are cancelled.
        List<Trips.Leg> legs = new ArrayList<>();
        for (int i = 0; i < trip.legs(); i++) {
            try {
                legs.add(call(trip, i));
            } catch (IOException | Trips.LegFailed e) {
                return Trips.failed(trip, e);
            }
        }
        return Trips.answer(trip, legs);
    }
    // end::trip[]

    // tag::call[]
    /** One leg: a call to the backend, carrying the request's id. */
    static Trips.Leg call(Trips.Trip trip, int leg) throws IOException, InterruptedException, Trips.LegFailed {
        // TODO(client): a new client per call opens a new connection (and starts a thread) for
        //  every leg, and leaves it to the garbage collector. Make one client in main, with
        //  HttpClient.Version.HTTP_1_1, and share it: it keeps its connections open and reuses them.
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        HttpRequest request = Trips.request(backend, trip, leg, REQUEST_ID.get());
        HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
        return Trips.leg(leg, response.statusCode(), response.body());
    }
    // end::call[]
}
