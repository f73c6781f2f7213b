package test;

import checks.Check;
import lib.Unavailable;

/** A check that fails, and checks that build on it or on one that passes (HarnessTests.afterAFailure). */
@Check.Suite
class BuildingChecks {
    @Check(order = 1, title = "fails", hint = "", see = "")
    void fails() {
        throw new AssertionError("it does");
    }

    @Check(order = 2, title = "passes", hint = "", see = "")
    void passes() {
    }

    @Check(order = 3, title = "builds on the one that fails", hint = "", see = "", after = "building.fails")
    void slow() throws InterruptedException {
        Thread.sleep(10_000);
    }

    @Check(order = 4, title = "builds on the one that passes", hint = "", see = "", after = "building.passes")
    void quick() {
    }

    @Check(order = 5, title = "is skipped: this server cannot be looked into", hint = "", see = "")
    void skipped() {
        throw new Unavailable("this check reads a JVM thread dump; this process is not a Java process");
    }

    @Check(order = 6, title = "builds on the one that is skipped", hint = "", see = "", after = "building.skipped")
    void afterSkipped() {
    }

    @Check(order = 0, basic = true, title = "a basic check, run before all others", hint = "", see = "")
    void basis() {
    }
}
