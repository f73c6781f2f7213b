package test;

import checks.Check;

/**
 * Two checks that time a server (HarnessTests.busyRunsAgain): one fails only the first time it
 * runs, as a check does that a busy machine slowed once; one fails every time.
 */
@Check.Suite
class TimedChecks {
    /** How often {@link #once} ran, handed in by the test ({@link RunContext}). */
    private final java.util.concurrent.atomic.AtomicInteger runs;

    TimedChecks(java.util.concurrent.atomic.AtomicInteger runs) {
        this.runs = runs;
    }

    @Check(order = 1, timed = true, title = "fails the first time only", hint = "", see = "")
    void once() {
        if (runs.incrementAndGet() == 1) throw new AssertionError("it took too long");
    }

    @Check(order = 2, timed = true, title = "fails every time", hint = "", see = "")
    void always() {
        throw new AssertionError("it took too long");
    }
}
