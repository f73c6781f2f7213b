import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Chapter 08's {@code GET /trip?legs=K&ms=S[&fail=I][&deadline=D]}: reading the request, and the
 * answers. The calls to the backend, and how they run, are the chapter's own.
 *
 * <p>Leg {@code i} calls {@code GET /io?ms=S} on the backend, or {@code GET /fail} when
 * {@code i} is {@code I}. Every call carries the trip's id as {@code X-Request-Id}: the id the
 * client sent in that header, or one made here. The answers: 200 with one line per leg, in leg
 * order; 502 when a leg failed; 504 when {@code D} ms passed first; 400 for a bad query.
 */
final class Trips {
    static final int MAX_LEGS = 100;
    static final String ID_HEADER = "X-Request-Id";

    private Trips() {}

    // tag::trip[]
    /** One trip: {@code failing} is -1 when no leg fails, {@code deadline} 0 when there is none. */
    record Trip(int legs, long millis, int failing, long deadline, String id) {
        /** The backend path that leg {@code leg} calls. */
        String path(int leg) {
            return leg == failing ? "/fail" : "/io?ms=" + millis;
        }
    }

    /** What leg {@code index} brought back: the backend's answer, its first line. */
    record Leg(int index, String answer) {}
    // end::trip[]

    /** A leg whose call went wrong: the backend answered other than 2xx, or could not be reached. */
    static final class LegFailed extends Exception {
        LegFailed(int leg, String why) {
            super("leg " + leg + " failed: " + why, null, false, false);
        }
    }

    /** How a server makes a trip: its calls to the backend, and the answer. */
    interface Fanout {
        Response trip(Trip trip) throws InterruptedException;
    }

    /** Answers {@code GET /trip}: 400 for a bad query, else what {@code fanout} makes of the trip. */
    static Response serve(Request request, Fanout fanout) throws InterruptedException {
        Trip trip;
        try {
            trip = parse(request);
        } catch (HttpError e) {
            return Response.text(e.status, e.getMessage() + "\n");
        }
        return fanout.trip(trip);
    }

    private static final AtomicLong ids = new AtomicLong();

    /** The trip a request asks for; HttpError 400 when its query is not one. */
    static Trip parse(Request r) throws HttpError {
        long legs = number(r, "legs", 1, MAX_LEGS, -1);
        long millis = number(r, "ms", 0, Endpoints.MAX_MILLIS, 0);
        long failing = number(r, "fail", 0, legs - 1, -1);
        long deadline = number(r, "deadline", 1, Endpoints.MAX_MILLIS, 0);
        if (legs < 0) throw new HttpError(400, "query parameter legs is missing: GET /trip?legs=K&ms=S");
        String id = r.header(ID_HEADER);
        if (id == null || id.isBlank()) id = "trip-" + ids.incrementAndGet();
        else if (id.length() > 64 || !id.chars().allMatch(c -> c > 32 && c < 127)) {
            throw new HttpError(400, ID_HEADER + " must be 1 to 64 visible ASCII characters");
        }
        return new Trip((int) legs, millis, (int) failing, deadline, id.strip());
    }

    private static long number(Request r, String name, long min, long max, long absent) throws HttpError {
        if (!r.query().containsKey(name)) return absent;
        Long n = Endpoints.number(r, name, max);
        if (n == null || n < min) {
            throw new HttpError(400, "query parameter " + name + " must be a whole number from " + min + " to " + max);
        }
        return n;
    }

    /** The call leg {@code leg} makes to {@code backend}: with the trip's id, when {@code id} is not null. */
    static java.net.http.HttpRequest request(java.net.URI backend, Trip trip, int leg, String id) {
        var request = java.net.http.HttpRequest.newBuilder(backend.resolve(trip.path(leg)));
        if (id != null) request.header(ID_HEADER, id); // a ThreadLocal gives null on a thread that did not set it
        return request.build();
    }

    /** The leg's result from the backend's answer: LegFailed unless it is 2xx. */
    static Leg leg(int index, int status, String body) throws LegFailed {
        if (status / 100 != 2) throw new LegFailed(index, "the backend answered " + status);
        return new Leg(index, body.lines().findFirst().orElse(""));
    }

    /** 200: one line per leg, in leg order. */
    static Response answer(Trip trip, List<Leg> legs) {
        StringBuilder body = new StringBuilder();
        for (Leg leg : legs) body.append("leg ").append(leg.index()).append(": ").append(leg.answer()).append('\n');
        return Response.text(200, body.toString()).withHeader(ID_HEADER + ": " + trip.id());
    }

    /** 502: a leg failed (the others are cancelled). */
    static Response failed(Trip trip, Throwable why) {
        String reason = why instanceof LegFailed ? why.getMessage() : "a leg failed: " + why;
        return Response.text(502, reason + "\n").withHeader(ID_HEADER + ": " + trip.id());
    }

    /** 504: the deadline passed before every leg came back (the rest are cancelled). */
    static Response late(Trip trip) {
        return Response.text(504, "the trip's deadline of " + trip.deadline() + " ms passed first\n")
                .withHeader(ID_HEADER + ": " + trip.id());
    }
}
