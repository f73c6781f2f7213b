package lib;

import java.util.ArrayList;
import java.util.List;

/**
 * The score of a self-test: one line per test as it ends ("ok    NAME", or "FAIL  NAME" and why
 * on the next line), then the failures again and "N passed, N failed" at the end.
 */
public final class Outcomes {
    private final String prefix;
    private int passed;
    private int failed;
    private final List<String> failures = new ArrayList<>();

    /** {@code prefix} starts every test's name ("bench: "), or is empty. */
    public Outcomes(String prefix) {
        this.prefix = prefix;
    }

    /** Records a test's end; {@code detail} says why it failed (null or empty when its name says it all). */
    public synchronized void record(String name, boolean ok, String detail) {
        if (ok) {
            passed++;
            System.out.println("ok    " + prefix + name);
        } else if (detail == null || detail.isBlank()) {
            failed++;
            failures.add(prefix + name);
            System.out.println("FAIL  " + prefix + name);
        } else {
            failed++;
            failures.add(prefix + name + " (" + detail + ")");
            System.out.println("FAIL  " + prefix + name + "\n      " + detail);
        }
    }

    /**
     * Prints the failures and the count, and returns the status to exit with: 0 when something
     * ran and nothing failed, else 1. For a self-test whose main exits through {@code Cli.run}.
     */
    public int end() {
        System.out.println();
        if (!failures.isEmpty()) {
            System.out.println("Failed:");
            failures.forEach(f -> System.out.println("  - " + f));
        }
        System.out.println(passed + " passed, " + failed + " failed");
        System.out.flush();
        return failed == 0 && passed > 0 ? 0 : 1;
    }
}
