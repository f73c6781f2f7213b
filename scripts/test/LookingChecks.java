package test;

import checks.Check;
import lib.Jcmd;

/**
 * Two checks whose look inside the server fails (HarnessTests.lookFailedRunsAgain), as jcmd's
 * does on a machine too busy to answer it: one only the first time, one every time. Neither is
 * timed: a failed look is the tool's, whatever the check measures.
 */
@Check.Suite
class LookingChecks {
    /** How often {@link #once} ran, handed in by the test (the run context of checks.Runner). */
    private final java.util.concurrent.atomic.AtomicInteger runs;

    LookingChecks(java.util.concurrent.atomic.AtomicInteger runs) {
        this.runs = runs;
    }

    @Check(order = 1, title = "cannot look inside the first time only", hint = "", see = "")
    void once() throws Exception {
        if (runs.incrementAndGet() == 1) throw new Jcmd.Failed("the JVM's thread dump did not read whole, twice");
    }

    @Check(order = 2, title = "cannot look inside every time", hint = "", see = "")
    void always() throws Exception {
        throw new java.io.UncheckedIOException(new Jcmd.Failed("jcmd took over 30 s"));
    }
}
