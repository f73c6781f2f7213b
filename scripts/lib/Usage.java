/**
 * A command's usage, and what it does with a call it cannot take: says what is wrong, then the
 * usage, on standard error, and exits 2. The grader, hand-ins and the room read their options with it.
 */
record Usage(String command, String text) {
    /** The value of the option at {@code args[i - 1]}, or the exit saying it needs one. */
    String value(String[] args, int i) {
        if (i >= args.length) fail("option " + args[i - 1] + " needs a value");
        return args[i];
    }

    /** Exits 2 with "COMMAND: PROBLEM" and the usage; typed so a ternary can call it where it needs a value. */
    <T> T fail(String problem) {
        System.err.println(command + ": " + problem + "\n\n" + text);
        System.exit(2);
        return null;
    }
}
