///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
//DEPS com.fasterxml.jackson.core:jackson-databind:2.22.4
//SOURCES Room.java ../lib/Root.java

import java.nio.file.Path;

/**
 * {@code jbang handin NAME} (and scripts/handin.sh): hands in the learner's latest grading and
 * races, as handin/NAME.json or straight to a live room. Reads the command line; {@link Room}
 * does the rest. Exit 0 handed in, 1 nothing to hand in yet (or the room refused it), 2 usage.
 */
class Handin {
    static final String USAGE = """
            usage: jbang handin NAME [--out DIR]              (or scripts/handin.sh NAME ...)
                   jbang handin NAME --to URL [--code CODE]

              NAME         your name or seat, e.g. ada or table-3 (letters, digits, . _ -)
              --out DIR    where to write NAME.json (default: handin/ in the course's folder)
              --to URL     the live room the instructor gave you, e.g. http://10.0.0.5:8400/
              --code CODE  the room's code, if the instructor gave one

            Grade or race your own server first (jbang check NN, jbang bench NN); this hands
            in the results.""";

    public static void main(String[] args) throws Exception {
        Room.who = "handin";
        String name = null, out = null, to = null, code = null, root = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "-h", "--help" -> { System.out.println(USAGE); return; }
                case "--out" -> out = value(args, ++i);
                case "--to" -> to = value(args, ++i);
                case "--code" -> code = value(args, ++i);
                case "--root" -> root = value(args, ++i);
                default -> {
                    if (args[i].startsWith("-") || name != null) usage("unknown option or extra word: " + args[i]);
                    name = args[i];
                }
            }
        }
        if (name == null) usage("say who is handing in, e.g. jbang handin ada");
        if (code != null && to == null) usage("--code goes with --to");
        if (out != null && to != null) usage("--out writes a file, --to sends to a room: one or the other");
        Path course = root != null ? Path.of(root).toAbsolutePath().normalize() : Root.find();
        if (to != null) Room.send(course, name, to, code);
        else Room.handin(course, name, out != null ? Path.of(out).toAbsolutePath() : course.resolve("handin"));
    }

    static String value(String[] args, int i) {
        if (i >= args.length) usage("option " + args[i - 1] + " needs a value");
        return args[i];
    }

    static void usage(String problem) {
        System.err.println("handin: " + problem + "\n\n" + USAGE);
        System.exit(2);
    }
}
