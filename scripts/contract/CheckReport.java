package contract;


import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import lib.Jackson;

/**
 * What scripts/check.sh reports for one chapter: {@code .results/checks/NN.json}, the output of
 * {@code check.sh --json}, and what a hand-in carries (scripts/room). These records are its
 * schema, written and read by Jackson (scripts/lib/Jackson.java); a field that does not apply is
 * absent.
 *
 * @param target    what was graded: exercise, solution, file, url or command
 * @param time      when, ISO-8601
 * @param server    the file, URL or command line graded; absent when it could not run
 * @param passed    absent, like failed and skipped, when it could not run
 * @param total     the chapter's checks, when fewer ran (--only): a partial run, which is never
 *                  kept as progress; absent for a whole grading
 * @param restarts  how often a server that stopped answering was started again; absent when never
 * @param exit      0 all passed (or failed as expected), 1 a check failed, 2 it could not run
 * @param error     why it could not run
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CheckReport(String chapter, String title, String target, String time, String server, Long passed, Long failed,
                   Long skipped, Long total, List<Check> checks, Integer restarts, int exit, String error) {

    /** A report of checks that could not run at all. */
    public static CheckReport couldNotRun(String chapter, String title, String target, String time, String error) {
        return new CheckReport(chapter, title, target, time, null, null, null, null, null, List.of(), null, 2, error);
    }

    public static CheckReport read(String json) {
        return Jackson.read(json, CheckReport.class);
    }

    public String json() {
        return Jackson.write(this);
    }

    /**
     * What a hand-in carries of this grading (RoomLink): which chapter, when, the counts and how
     * it ended, and each check's id and status; no messages, hints, paths or server.
     */
    public CheckReport handedIn() {
        List<Check> kept = checks == null ? List.of()
                : checks.stream().map(c -> new Check(c.id(), null, c.status(), null, null, null, null, null, null)).toList();
        return new CheckReport(chapter, title, null, time, null, passed, failed, skipped, total, kept, null, exit, error);
    }

    /** How many of its checks were skipped because this machine cannot run them ({@link Check#notHere}). */
    public long notHereCount() {
        return checks == null ? 0 : checks.stream().filter(c -> Boolean.TRUE.equals(c.notHere())).count();
    }

    /**
     * One check: {@code status} pass, fail or skip; {@code message} what happened (absent when
     * nothing to say); {@code note} what the check noted beside its result, such as a pass that
     * waits on an earlier TODO; for a failure, {@code todo} (the TODO tag its symptom points at,
     * or the one that covers it), {@code hint} and {@code see} (the page that explains it);
     * {@code notHere} true for a check skipped because this machine cannot run it (absent otherwise).
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Check(String id, String name, Status status, String message, String note, String todo, String hint, String see, Boolean notHere) {
        public boolean failed() {
            return status == Status.FAIL;
        }
    }

    /** A check's outcome, spelled in reports as pass, fail or skip. */
    public enum Status {
        @com.fasterxml.jackson.annotation.JsonProperty("pass") PASS,
        @com.fasterxml.jackson.annotation.JsonProperty("fail") FAIL,
        @com.fasterxml.jackson.annotation.JsonProperty("skip") SKIP
    }
}
