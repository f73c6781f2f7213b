package test;

import checks.Check;
import lib.Unavailable;

/**
 * Two checks that cannot run: one for want of what this machine has, one for want of what the
 * server gives (HarnessTests.notHereStillDone runs them).
 */
@Check.Suite
class SkippingChecks {
    @Check(order = 1, title = "needs what this machine lacks", hint = "", see = "")
    void machine() {
        throw Unavailable.onThisMachine("no ulimit here");
    }

    @Check(order = 2, title = "needs what the server does not give", hint = "", see = "")
    void server() {
        throw new Unavailable("not a Java process");
    }
}
