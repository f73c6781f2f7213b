package lib;

/**
 * What stops a course command short of its work: a mistake on the command line (exit 2, with the
 * usage), something missing around it (a tool, a file, a free port: exit 2, one sentence), or an
 * outcome with its own status (Handin's "nothing to hand in yet": exit 1). Thrown wherever it is
 * found, however deep; {@link Cli#run} prints it and returns its status to {@code main}, the one
 * place that exits, so error paths are values a test can catch.
 */
public final class CommandError extends RuntimeException {
    /** The status the command exits with. */
    public final int exit;
    /** Whether the command's usage follows the message (a command line it could not take). */
    public final boolean usage;

    private CommandError(int exit, String problem, boolean usage) {
        super(problem, null, false, false); // a message for a person, not a stack trace
        this.exit = exit;
        this.usage = usage;
    }

    /** A command line it cannot take: exit 2, the problem, then the usage. */
    public static CommandError usage(String problem) {
        return new CommandError(2, problem, true);
    }

    /** Something missing around the command (a tool, a file, a server that did not start): exit 2, the problem alone. */
    public static CommandError environment(String problem) {
        return new CommandError(2, problem, false);
    }

    /** An ending with its own status and sentence. */
    public static CommandError of(int exit, String problem) {
        return new CommandError(exit, problem, false);
    }
}
