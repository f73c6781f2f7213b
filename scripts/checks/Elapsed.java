package checks;

/** Time since a start, for the checks where time is the behaviour: {@code Elapsed t = Elapsed.start(); ... t.ms()}. */
record Elapsed(long startNanos) {
    static Elapsed start() {
        return new Elapsed(System.nanoTime());
    }

    /** Milliseconds since the start. */
    long ms() {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }
}
