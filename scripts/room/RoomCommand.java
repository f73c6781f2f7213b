///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
//DEPS com.fasterxml.jackson.core:jackson-databind:2.22.4
//SOURCES Room.java ../lib/Root.java ../lib/Usage.java

import java.nio.file.Path;

/**
 * {@code jbang room} (and scripts/room.sh), for the instructor: the room summary from a folder
 * of hand-ins, the live room, or a name freed for another laptop. Reads the command line;
 * {@link Room} and {@link RoomServer} do the rest. Exit 0 written (or served until stopped, or
 * freed), 1 no hand-ins found, 2 usage.
 */
class RoomCommand {
    static final String USAGE = """
            usage: jbang room FOLDER [--out FILE] [--day AGENDA]   (or scripts/room.sh FOLDER ...)
                   jbang room serve [--host H] [--port P] [--dir D] [--code CODE] [--view-code V] [--max-learners N] [--day AGENDA]
                   jbang room free NAME [--dir D]
                   jbang room remove NAME [--dir D]

              FOLDER       the hand-ins (NAME.json from jbang handin / scripts/handin.sh)
              --out FILE   the summary page to write (default: FOLDER/room.html)
              --day AGENDA the day's agenda (half-day, full-day): its chapters only, each done once the
                           checks of the day's core TODOs pass (default: every chapter, done when all pass)

              serve        the live room: learners run scripts/handin.sh NAME --to URL
              --host H     the address to listen on (default 127.0.0.1, this machine only; 0.0.0.0 for the room)
              --port P     the port (default 8400; 0 takes any free one)
              --dir D      where hand-ins are kept (default handin/ in the course's folder)
              --code CODE  only hand-ins that carry this code count (give it to the room with the URL); a room
                           beyond this machine (--host 0.0.0.0) always has one: the folder's, else a new one
              --view-code V  the code that opens the room's page, 8 or more characters (default: the one this folder kept, else a new one; printed for your screen only)
              --max-learners N  the most names the room takes (default 60)
              --refresh S  how often the room's page updates itself, in seconds (default 10)

              free NAME    lets another laptop take NAME (a learner who changed laptops); their results stay
              remove NAME  takes NAME and its results off the room (a seat nobody in the room holds)""";

    static final Usage ARGS = new Usage("room", USAGE);

    /** What the room command does: the summary (no verb), {@code serve}, {@code free} or {@code remove}. */
    enum Verb {
        SUMMARY, SERVE, FREE, REMOVE;

        /** The verb {@code args} start with; the summary when they start with none. */
        static Verb of(String[] args) {
            for (Verb v : values()) if (v != SUMMARY && args.length > 0 && args[0].equals(v.name().toLowerCase(java.util.Locale.ROOT))) return v;
            return SUMMARY;
        }
    }

    public static void main(String[] args) throws Exception {
        String word = null, out = null, host = "127.0.0.1", port = "8400", dir = null, code = null, root = null, viewCode = null;
        String maxLearners = String.valueOf(RoomServer.MAX_LEARNERS), refresh = String.valueOf(RoomServer.REFRESH_SECONDS), day = null;
        java.util.List<String> rest = new java.util.ArrayList<>(java.util.List.of(args));
        int at = rest.indexOf("--root"); // the shell wrapper's, before the learner's words
        if (at >= 0) {
            root = ARGS.value(args, at + 1);
            rest.subList(at, at + 2).clear();
        }
        args = rest.toArray(String[]::new);
        Verb verb = Verb.of(args);
        boolean serve = verb == Verb.SERVE;
        boolean free = verb == Verb.FREE || verb == Verb.REMOVE;
        for (int i = verb == Verb.SUMMARY ? 0 : 1; i < args.length; i++) {
            switch (args[i]) {
                case "-h", "--help" -> { System.out.println(USAGE); return; }
                case "--out" -> out = serve ? ARGS.fail("--out is for a summary, not serve") : ARGS.value(args, ++i);
                case "--host" -> host = serve ? ARGS.value(args, ++i) : ARGS.fail("--host goes with serve");
                case "--port" -> port = serve ? ARGS.value(args, ++i) : ARGS.fail("--port goes with serve");
                case "--dir" -> dir = serve || free ? ARGS.value(args, ++i) : ARGS.fail("--dir goes with serve or free");
                case "--code" -> code = serve ? ARGS.value(args, ++i) : ARGS.fail("--code goes with serve");
                case "--view-code" -> viewCode = serve ? ARGS.value(args, ++i) : ARGS.fail("--view-code goes with serve");
                case "--max-learners" -> maxLearners = serve ? ARGS.value(args, ++i) : ARGS.fail("--max-learners goes with serve");
                case "--refresh" -> refresh = serve ? ARGS.value(args, ++i) : ARGS.fail("--refresh goes with serve");
                case "--day" -> day = free ? ARGS.fail("--day goes with serve or a summary") : ARGS.value(args, ++i);
                default -> {
                    if (args[i].startsWith("-") || word != null || serve) ARGS.fail("unknown option or extra word: " + args[i]);
                    word = args[i];
                }
            }
        }
        Path course = root != null ? Path.of(root).toAbsolutePath().normalize() : Root.find();
        if (day != null) {
            try {
                Known.of(course).forDay(day);
            } catch (IllegalArgumentException e) {
                ARGS.fail(e.getMessage());
            }
        }
        Path kept = dir != null ? Path.of(dir).toAbsolutePath() : course.resolve("handin");
        if (serve) {
            if (!port.matches("[0-9]{1,5}") || Integer.parseInt(port) > 65535) ARGS.fail("--port must be a number from 0 to 65535, not '" + port + "'");
            if (!maxLearners.matches("[0-9]{1,4}") || Integer.parseInt(maxLearners) < 1) ARGS.fail("--max-learners must be a number from 1 to 9999");
            if (!refresh.matches("[0-9]{1,4}") || Integer.parseInt(refresh) < 1) ARGS.fail("--refresh must be a number of seconds, 1 or more");
            if (viewCode != null && !viewCode.matches(RoomServer.CODE_PATTERN)) ARGS.fail("--view-code is 8 to 64 letters, digits, - or _");
            boolean beyond = !RoomServer.loopback(host);
            RoomServer.serve(course, new RoomServer.Settings(kept, RoomServer.learnerCode(kept, code, beyond), RoomServer.Viewer.kept(kept, viewCode).code(),
                    Integer.parseInt(maxLearners), Integer.parseInt(refresh), day), host, Integer.parseInt(port));
            return;
        }
        if (free) {
            String what = verb.name().toLowerCase(java.util.Locale.ROOT);
            if (out != null) ARGS.fail("--out is for a summary, not " + what);
            if (word == null) ARGS.fail("say which name to " + what + ", e.g. scripts/room.sh " + what + " ada");
            if (verb == Verb.REMOVE) Room.remove(kept, word);
            else Room.free(kept, word);
            return;
        }
        if (word == null) ARGS.fail("give the folder of hand-ins, or serve");
        Path folder = Path.of(word).toAbsolutePath();
        Room.summary(course, folder, out != null ? Path.of(out).toAbsolutePath() : folder.resolve("room.html"), day);
    }


}
