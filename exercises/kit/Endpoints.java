/**
 * The workshop's endpoints, the same in every chapter; only the concurrency model around them changes.
 *
 * <p>{@code GET /fail} throws, like a handler with a bug: a server must answer 500 and go on.
 *
 * <p>{@link #plan} says what to answer and what must happen first: nothing, a wait (like a
 * database call: time passes, no CPU is used), or CPU work. A non-blocking server schedules the
 * wait with a timer instead of sleeping. {@link #serve} does it all in place, for blocking servers.
 */
final class Endpoints {
    static final long MAX_MILLIS = 60_000;
    static final long MAX_BYTES = 64L * 1024 * 1024;

    // tag::work[]
    // tag::plan[]
    /** What a request needs before its response can be sent. */
    sealed interface Work permits Ready, Wait, Burn {
        Response response();
    }

    /** Answer now. */
    record Ready(Response response) implements Work {}

    /** Answer after {@code millis} ms have passed; nothing runs meanwhile. */
    record Wait(long millis, Response response) implements Work {}

    /** Burn {@code millis} ms of CPU on some thread, then answer. */
    record Burn(long millis, Response response) implements Work {}

    private Endpoints() {}

    /** Routes a request. The response is already marked closing when the client asked to close. */
    static Work plan(Request request) {
        Work work = route(request);
        if (request.keepAlive()) return work;
        Response closing = work.response().closing();
        return switch (work) {
            case Ready r -> new Ready(closing);
            case Wait w -> new Wait(w.millis(), closing);
            case Burn b -> new Burn(b.millis(), closing);
        };
    }
    // end::plan[]

    /**
     * Does the work in place (sleeping, or burning CPU on this thread) and returns the response.
     * A server with its own database pool runs {@code /db} through it (see {@link Database}),
     * and one with its own limit on CPU work, {@code /cpu} (see {@link #limitCpu}).
     */
    static Response serve(Request request) throws InterruptedException {
        Handler route = ROUTES.get(request.path());
        if (route != null) {
            Response response = request.method().equals("GET") ? route.handle(request)
                    : Response.text(405, request.path() + " accepts GET only\n").withHeader("Allow: GET");
            return request.keepAlive() ? response : response.closing();
        }
        Database.Pool own = Database.ownPool();
        if (own != null && request.path().equals("/db") && request.method().equals("GET")
                && number(request, "ms", MAX_MILLIS) instanceof Long ms) {
            Response response = own.query(new Database.Query(ms, fails(request)));
            return request.keepAlive() ? response : response.closing();
        }
        Work work = plan(request);
        if (work instanceof Burn burn && cpuLimit != null) return cpuLimit.burn(burn);
        return perform(work);
    }

    /** A chapter's own endpoint, answered in place by a blocking server. */
    interface Handler {
        Response handle(Request request) throws InterruptedException;
    }

    private static final java.util.Map<String, Handler> ROUTES = new java.util.concurrent.ConcurrentHashMap<>();

    /** From now on, {@link #serve} answers {@code GET path} with {@code handler} (chapter 08's {@code /trip}). */
    static void route(String path, Handler handler) {
        ROUTES.put(path, handler);
    }

    /** A blocking server's own limit on CPU work: {@link #serve} runs each {@code /cpu} through it. */
    interface CpuLimit {
        Response burn(Burn work) throws InterruptedException;
    }

    private static CpuLimit cpuLimit;

    /** From now on, {@link #serve} runs {@code /cpu} through {@code limit} (chapter 05). */
    static void limitCpu(CpuLimit limit) {
        cpuLimit = limit;
    }

    // tag::perform[]
    /** Does planned work in place, on the calling thread, and returns its response. */
    static Response perform(Work work) throws InterruptedException {
        switch (work) {
            case Wait w -> Thread.sleep(w.millis());
            case Burn b -> burnCpu(b.millis());
            case Ready r -> { }
        }
        return work.response();
    }
    // end::perform[]
    // end::work[]

    private static Work route(Request r) {
        String allowed = switch (r.path()) {
            case "/", "/io", "/cpu", "/bytes", "/fail", "/db", "/stats" -> "GET";
            case "/echo" -> "POST";
            default -> null;
        };
        if (allowed == null) return new Ready(Response.text(404, "no endpoint at " + r.path() + "\n"));
        if (!allowed.equals(r.method())) {
            return new Ready(Response.text(405, r.path() + " accepts " + allowed + " only\n").withHeader("Allow: " + allowed));
        }
        return switch (r.path()) {
            case "/fail" -> throw new IllegalStateException("GET /fail: a simulated bug in a handler");
            case "/" -> new Ready(Response.text(200, "Hello, World!"));
            case "/echo" -> new Ready(Response.bytes(contentType(r), r.body()));
            case "/io" -> number(r, "ms", MAX_MILLIS) instanceof Long ms
                    ? new Wait(ms, Response.text(200, "waited " + ms + " ms\n")) : badNumber("ms", MAX_MILLIS);
            case "/cpu" -> number(r, "ms", MAX_MILLIS) instanceof Long ms
                    ? new Burn(ms, Response.text(200, "burned " + ms + " ms of CPU\n")) : badNumber("ms", MAX_MILLIS);
            case "/db" -> number(r, "ms", MAX_MILLIS) instanceof Long ms
                    ? Database.book(new Database.Query(ms, fails(r))) : badNumber("ms", MAX_MILLIS);
            case "/stats" -> new Ready(Database.stats());
            default -> number(r, "n", MAX_BYTES) instanceof Long n
                    ? new Ready(Response.pattern(n)) : badNumber("n", MAX_BYTES);
        };
    }

    private static String contentType(Request r) {
        String type = r.header("content-type");
        return type == null ? "application/octet-stream" : type;
    }

    /** {@code /db?fail=1}: the query fails. */
    private static boolean fails(Request r) {
        return "1".equals(r.query().get("fail"));
    }

    /** The query parameter as a number in [0, max], or null. */
    static Long number(Request r, String name, long max) {
        return number(r.query().get(name), max);
    }

    /** A query parameter's value as a number in [0, max], or null (a framework server that parses its own query uses it too). */
    static Long number(String value, long max) {
        if (value == null || value.isEmpty() || value.length() > 18 || !value.chars().allMatch(Character::isDigit)) {
            return null;
        }
        long n = Long.parseLong(value);
        return n <= max ? n : null;
    }

    /** 400 for a bad number: the connection stays open. */
    static Ready badNumber(String name, long max) {
        return new Ready(Response.text(400, "query parameter " + name + " must be a whole number from 0 to " + max + "\n"));
    }

    /** Burns about {@code millis} ms of CPU time on the calling thread (see {@link CpuWork}). */
    static void burnCpu(long millis) {
        CpuWork.burn(millis);
    }
}
