package micronaut;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Error;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Post;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;

/**
 * The workshop's routes as a Micronaut controller, for {@code ../MicronautServer.java}: which
 * path, which method, and on which thread each runs. What each answers is the kit's, through
 * {@link Answers}, which MicronautServer implements. Why a file and a package of its own:
 * Micronaut's annotation processor refuses a bean in the default package ("Micronaut beans cannot
 * be in the default package"), and a class in a package cannot see the kit's classes, which are
 * in the default package.
 *
 * <p>Threads: a route runs on the event loop that read its request unless it says otherwise
 * (Micronaut 4's default thread selection, MANUAL). The routes that block ask for Micronaut's
 * blocking executor, as Micronaut's guide says to; on Java 21 and later it starts a virtual thread
 * for each request. MicronautServer's {@code --loom-carrier} chooses what carries those threads.
 */
// Why */*: a @Controller consumes and produces JSON only by default (415 for POST /echo's text, 406 for an Accept without JSON).
@Controller(produces = MediaType.ALL, consumes = MediaType.ALL)
public class Routes {
    /** What the routes answer: the kit's answers as Micronaut responses. */
    public interface Answers {
        HttpResponse<?> hello();

        HttpResponse<?> io(HttpRequest<?> request) throws InterruptedException;

        HttpResponse<?> cpu(HttpRequest<?> request);

        HttpResponse<?> db(HttpRequest<?> request) throws InterruptedException;

        HttpResponse<?> stats();

        HttpResponse<?> bytes(HttpRequest<?> request);

        HttpResponse<?> echo(HttpRequest<?> request, byte[] body);

        HttpResponse<?> notFound(HttpRequest<?> request);

        HttpResponse<?> wrongMethod(HttpRequest<?> request);

        HttpResponse<?> failed(Throwable e);
    }

    private final Answers answers;

    Routes(Answers answers) {
        this.answers = answers;
    }

    // Why headRoute = false: Micronaut answers HEAD on every GET route by default; the protocol answers it 405.
    @Get(uri = "/", headRoute = false)
    HttpResponse<?> hello() {
        return answers.hello();
    }

    // tag::waits[]
    @Get(uri = "/io", headRoute = false)
    @ExecuteOn(TaskExecutors.BLOCKING)
    HttpResponse<?> io(HttpRequest<?> request) throws InterruptedException {
        return answers.io(request);
    }

    @Get(uri = "/cpu", headRoute = false)
    @ExecuteOn(TaskExecutors.BLOCKING)
    HttpResponse<?> cpu(HttpRequest<?> request) {
        return answers.cpu(request);
    }
    // end::waits[]

    @Get(uri = "/db", headRoute = false)
    @ExecuteOn(TaskExecutors.BLOCKING)
    HttpResponse<?> db(HttpRequest<?> request) throws InterruptedException {
        return answers.db(request);
    }

    @Get(uri = "/stats", headRoute = false)
    HttpResponse<?> stats() {
        return answers.stats();
    }

    @Get(uri = "/bytes", headRoute = false)
    HttpResponse<?> bytes(HttpRequest<?> request) {
        return answers.bytes(request);
    }

    /** Micronaut reads the whole body (at most 1 MiB: Refusals in MicronautServer sees to it) before it calls this. */
    @Post("/echo")
    HttpResponse<?> echo(HttpRequest<?> request, @Body @Nullable byte[] body) {
        return answers.echo(request, body);
    }

    @Get(uri = "/fail", headRoute = false)
    HttpResponse<?> fail() {
        throw new IllegalStateException("GET /fail: a simulated bug in a handler");
    }

    // Why these two: Micronaut's own 404 and 405 are JSON; the protocol's are a line of text, and a 405 names the one method in Allow.
    @Error(status = HttpStatus.NOT_FOUND, global = true)
    HttpResponse<?> notFound(HttpRequest<?> request) {
        return answers.notFound(request);
    }

    @Error(status = HttpStatus.METHOD_NOT_ALLOWED, global = true)
    HttpResponse<?> wrongMethod(HttpRequest<?> request) {
        return answers.wrongMethod(request);
    }

    /** Whatever a route throws: 500, then close. */
    @Error(global = true)
    HttpResponse<?> failed(Throwable e) {
        return answers.failed(e);
    }
}
