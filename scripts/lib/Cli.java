package lib;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;

/**
 * Runs a course command whose options picocli reads from its annotations, with the course's
 * conventions: {@code -h}/{@code --help} prints the generated usage and exits 0; a command line
 * it cannot take prints "NAME: what is wrong" (with picocli's suggestion for a mistyped option),
 * then the usage, on standard error, and exits 2; a {@link CommandError} thrown from anywhere
 * below prints "NAME: message" (and the usage, for a usage error) and exits with its status; any
 * other exception prints one sentence and exits 2 ({@link #unexpected}).
 * Every entry point's {@code main} is {@code System.exit(Cli.run("name", new Command(), args))};
 * its callers: the grader, the race, the room, hand-ins, the backend, the Netty baseline, the
 * doctor and the self-tests.
 */
public final class Cli {
    private Cli() {}

    /** Parses {@code args} into {@code command}, runs it, and returns the status to exit with. */
    public static int run(String name, Callable<Integer> command, String[] args) {
        CommandLine line = new CommandLine(command);
        line.setUsageHelpWidth(110); // the width of the course's other help texts
        line.setOverwrittenOptionsAllowed(true); // the last of an option given twice wins (a wrapper's --root, then the caller's)
        line.getCommandSpec().usageMessage().synopsisHeading(""); // a custom synopsis starts "usage: "
        line.setParameterExceptionHandler((e, given) -> {
            PrintWriter err = e.getCommandLine().getErr();
            err.println(name + ": " + problem(e));
            CommandLine.UnmatchedArgumentException.printSuggestions(e, err);
            err.println();
            e.getCommandLine().usage(err);
            return 2;
        });
        line.setExecutionExceptionHandler((e, commandLine, parsed) ->
                e instanceof CommandError error ? report(name, error, commandLine)
                        : unexpected(name, e, commandLine.getErr(), "1".equals(System.getenv("COURSE_DEBUG"))));
        return line.execute(args);
    }

    /**
     * Anything else thrown below is the course's bug, not the learner's mistake: one sentence and
     * status 2 ("could not run"; 1 means checks failed or a result was flagged), with the stack
     * trace only when {@code COURSE_DEBUG=1} asks for it ({@code debug}).
     */
    public static int unexpected(String name, Exception e, PrintWriter err, boolean debug) {
        String message = e.getMessage() == null ? "" : e.getMessage().strip().lines().findFirst().orElse("");
        err.println(name + ": stopped on an unexpected " + e.getClass().getSimpleName() + (message.isEmpty() ? "" : " (" + message + ")")
                + "; run it again with COURSE_DEBUG=1 to see where, and report it with that output if it happens again");
        if (debug) e.printStackTrace(err);
        err.flush();
        return 2;
    }

    /** Prints {@code error} as the command's last words and returns its status. */
    static int report(String name, CommandError error, CommandLine commandLine) {
        PrintWriter err = commandLine.getErr();
        err.println(name + ": " + error.getMessage());
        if (error.usage) {
            err.println();
            commandLine.usage(err);
        }
        err.flush();
        return error.exit;
    }

    /** picocli's sentence for a command line it cannot take, in the course's words where they differ. */
    static String problem(CommandLine.ParameterException e) {
        String m = e.getMessage();
        if (m == null) return "a command line it cannot take";
        // "Missing required parameter for option '--out' (DIR)" reads as the course's "option --out needs a value"
        java.util.regex.Matcher missing = java.util.regex.Pattern.compile("Missing required parameter for option '([^']+)'.*").matcher(m);
        if (missing.matches()) return "option " + missing.group(1) + " needs a value";
        return Character.toLowerCase(m.charAt(0)) + m.substring(1);
    }
}
