/**
 * What a check needs to look at is not there: no PID was given with --url, the process is not a
 * JVM, or this OS has no /proc. The checks' extension (scripts/checks/Alive.java) reports it as a
 * skipped check, not a failure; the benchmark reports it as a figure it could not measure.
 */
final class Unavailable extends RuntimeException {
    Unavailable(String why) {
        super(why, null, false, false);
    }
}
