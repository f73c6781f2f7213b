package lib;

/**
 * What a check needs to look at is not there: no PID was given with --url, the process is not a
 * JVM, or this OS has no /proc. The checks' extension (scripts/checks/Alive.java) reports it as a
 * skipped check, not a failure; the benchmark reports it as a figure it could not measure.
 * {@code here}: this machine cannot run it, whatever the server and however it was given (no
 * ulimit on Windows): such a skip does not keep a chapter from being done.
 */
public final class Unavailable extends RuntimeException {
    public final boolean here;

    public Unavailable(String why) {
        this(why, false);
    }

    private Unavailable(String why, boolean here) {
        super(why, null, false, false);
        this.here = here;
    }

    /** What no server can change: this machine lacks what the check needs. */
    public static Unavailable onThisMachine(String why) {
        return new Unavailable(why, true);
    }
}
