///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
//DEPS com.fasterxml.jackson.core:jackson-databind:2.22.4
//SOURCES Room.java ../lib/Root.java

import java.nio.file.Path;

/**
 * {@code jbang room} (and scripts/room.sh), for the instructor: the room summary from a folder
 * of hand-ins, or the live room. Reads the command line; {@link Room} and {@link RoomServer} do
 * the rest. Exit 0 written (or served until stopped), 1 no hand-ins found, 2 usage.
 */
class RoomCommand {
    static final String USAGE = """
            usage: jbang room FOLDER [--out FILE]             (or scripts/room.sh FOLDER ...)
                   jbang room serve [--host H] [--port P] [--dir D] [--code CODE]

              FOLDER       the hand-ins (NAME.json from jbang handin / scripts/handin.sh)
              --out FILE   the summary page to write (default: FOLDER/room.html)

              serve        the live room: learners run jbang handin NAME --to URL
              --host H     the address to listen on (default 127.0.0.1, this machine only; 0.0.0.0 for the room)
              --port P     the port (default 8400; 0 takes any free one)
              --dir D      where hand-ins are kept (default handin/ in the course's folder)
              --code CODE  only hand-ins that carry this code count (give it to the room with the URL)""";

    public static void main(String[] args) throws Exception {
        String word = null, out = null, host = "127.0.0.1", port = "8400", dir = null, code = null, root = null;
        java.util.List<String> rest = new java.util.ArrayList<>(java.util.List.of(args));
        int at = rest.indexOf("--root"); // the shell wrapper's, before the learner's words
        if (at >= 0) {
            root = value(args, at + 1);
            rest.subList(at, at + 2).clear();
        }
        args = rest.toArray(String[]::new);
        boolean serve = args.length > 0 && args[0].equals("serve");
        for (int i = serve ? 1 : 0; i < args.length; i++) {
            switch (args[i]) {
                case "-h", "--help" -> { System.out.println(USAGE); return; }
                case "--out" -> out = serve ? usage("--out is for a summary, not serve") : value(args, ++i);
                case "--host" -> host = serve ? value(args, ++i) : usage("--host goes with serve");
                case "--port" -> port = serve ? value(args, ++i) : usage("--port goes with serve");
                case "--dir" -> dir = serve ? value(args, ++i) : usage("--dir goes with serve");
                case "--code" -> code = serve ? value(args, ++i) : usage("--code goes with serve");
                default -> {
                    if (args[i].startsWith("-") || word != null || serve) usage("unknown option or extra word: " + args[i]);
                    word = args[i];
                }
            }
        }
        Path course = root != null ? Path.of(root).toAbsolutePath().normalize() : Root.find();
        if (serve) {
            if (!port.matches("[0-9]{1,5}") || Integer.parseInt(port) > 65535) usage("--port must be a number from 0 to 65535, not '" + port + "'");
            RoomServer.serve(course, dir != null ? Path.of(dir).toAbsolutePath() : course.resolve("handin"), host, Integer.parseInt(port), code);
            return;
        }
        if (word == null) usage("give the folder of hand-ins, or serve");
        Path folder = Path.of(word).toAbsolutePath();
        Room.summary(course, folder, out != null ? Path.of(out).toAbsolutePath() : folder.resolve("room.html"));
    }

    static String value(String[] args, int i) {
        if (i >= args.length) usage("option " + args[i - 1] + " needs a value");
        return args[i];
    }

    static String usage(String problem) {
        System.err.println("room: " + problem + "\n\n" + USAGE);
        System.exit(2);
        return null;
    }
}
