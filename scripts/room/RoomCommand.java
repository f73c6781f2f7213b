///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
//DEPS com.fasterxml.jackson.core:jackson-databind:2.22.4
//DEPS info.picocli:picocli:4.7.7
//SOURCES Room.java ../lib/Root.java ../lib/Cli.java ../lib/CommandError.java

package room;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import lib.Cli;
import lib.CommandError;
import lib.Root;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jbang room} (and scripts/room.sh), for the instructor: the room summary from a folder
 * of hand-ins, the live room, or a name freed for another laptop. Reads the command line with
 * picocli through {@link Cli}; {@link Room} and {@link RoomServer} do the rest. Exit 0 written
 * (or served until stopped, or freed), 1 no hand-ins found, 2 usage.
 */
@Command(name = "room", sortOptions = false,
        customSynopsis = {"usage: jbang room FOLDER [--out FILE] [--day AGENDA]   (or scripts/room.sh FOLDER ...)",
                "       jbang room serve [--host H] [--port P] [--dir D] [--code CODE] [--view-code V]",
                "                        [--max-learners N] [--refresh S] [--day AGENDA]",
                "       jbang room free NAME [--dir D]",
                "       jbang room remove NAME [--dir D]", ""},
        // The folder or verb is a plain word, not a picocli subcommand, so that an option given with the wrong
        // verb keeps its own sentence ("--host goes with serve") and --root goes anywhere, as the wrapper puts it first.
        description = {"  FOLDER       the hand-ins (NAME.json from jbang handin / scripts/handin.sh)",
                "  serve        the live room: learners run scripts/handin.sh NAME --to URL",
                "  free NAME    lets another laptop take NAME (a learner who changed laptops); their results stay",
                "  remove NAME  takes NAME and its results off the room (a seat nobody in the room holds)", ""})
class RoomCommand implements Callable<Integer> {
    /** What the room command does: the summary (no verb), {@code serve}, {@code free} or {@code remove}. */
    enum Verb {
        SUMMARY, SERVE, FREE, REMOVE;

        /** The verb {@code words} start with; the summary when they start with none. */
        static Verb of(List<String> words) {
            for (Verb v : values()) if (v != SUMMARY && !words.isEmpty() && words.get(0).equals(v.word())) return v;
            return SUMMARY;
        }

        String word() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    @Parameters(arity = "0..*", paramLabel = "FOLDER", hidden = true, description = "FOLDER, or serve, free NAME, remove NAME")
    List<String> words = new ArrayList<>();

    @Option(names = "--out", paramLabel = "FILE", description = "the summary page to write (default: FOLDER/room.html)")
    String out;

    @Option(names = "--day", paramLabel = "AGENDA", description = {"the day's agenda (half-day, full-day): its chapters only, each done once the",
            "checks of the day's core TODOs pass (default: every chapter, done when all",
            "pass); a summary or serve"})
    String day;

    // serve's options are kept as given (no default here), so that one given without serve can be named.
    @Option(names = "--host", paramLabel = "H", description = {"serve: the address to listen on (default 127.0.0.1, this machine only;",
            "0.0.0.0 for the room: learners then reach it over TLS, with the pin it prints,",
            "and your page is plain HTTP on this machine at the next port)"})
    String host;

    @Option(names = "--port", paramLabel = "P", description = "serve: the port (default 8400; 0 takes any free one)")
    String port;

    @Option(names = "--dir", paramLabel = "D", description = {"serve, free, remove: where hand-ins are kept (default handin/ in the course's",
            "folder)"})
    String dir;

    @Option(names = "--code", paramLabel = "CODE", description = {"serve: only hand-ins that carry this code count (give it to the room with the",
            "URL); a room beyond this machine (--host 0.0.0.0) always has one, of 8 or more characters: the",
            "folder's, else a new one; an address that gives 10 wrong codes in a minute is refused for a minute"})
    String code;

    @Option(names = "--view-code", paramLabel = "V", description = {"serve: the code that opens the room's page, 8 or more characters (default:",
            "the one this folder kept, else a new one; printed for your screen only)"})
    String viewCode;

    @Option(names = "--max-learners", paramLabel = "N", description = "serve: the most names the room takes (default " + RoomServer.MAX_LEARNERS + ")")
    String maxLearners;

    @Option(names = "--refresh", paramLabel = "S", description = {"serve: how often the room's page updates itself, in seconds (default "
            + RoomServer.REFRESH_SECONDS + ")"})
    String refresh;

    @Option(names = "--root", hidden = true, description = "the course's folder (the shell wrapper's)")
    Path root;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "this help")
    boolean help;

    public static void main(String[] args) {
        System.exit(Cli.run("room", new RoomCommand(), args));
    }

    @Override
    public Integer call() throws Exception {
        Verb verb = Verb.of(words);
        boolean serve = verb == Verb.SERVE;
        boolean free = verb == Verb.FREE || verb == Verb.REMOVE;
        List<String> rest = verb == Verb.SUMMARY ? words : words.subList(1, words.size());
        // serve takes no word; a summary its folder, free and remove their name: one word at most.
        if (!rest.isEmpty() && (serve || rest.size() > 1)) throw CommandError.usage("unknown option or extra word: " + rest.get(serve ? 0 : 1));
        String word = rest.isEmpty() ? null : rest.get(0);
        if (out != null && verb != Verb.SUMMARY) throw CommandError.usage("--out is for a summary, not " + verb.word());
        if (!serve) {
            if (host != null) throw CommandError.usage("--host goes with serve");
            if (port != null) throw CommandError.usage("--port goes with serve");
            if (dir != null && !free) throw CommandError.usage("--dir goes with serve or free");
            if (code != null) throw CommandError.usage("--code goes with serve");
            if (viewCode != null) throw CommandError.usage("--view-code goes with serve");
            if (maxLearners != null) throw CommandError.usage("--max-learners goes with serve");
            if (refresh != null) throw CommandError.usage("--refresh goes with serve");
        }
        if (day != null && free) throw CommandError.usage("--day goes with serve or a summary");

        Path course = root != null ? root.toAbsolutePath().normalize() : Root.find();
        if (day != null) {
            try {
                Known.of(course).forDay(day);
            } catch (IllegalArgumentException e) {
                throw CommandError.usage(e.getMessage());
            }
        }
        Path kept = dir != null ? Path.of(dir).toAbsolutePath() : course.resolve("handin");
        if (serve) {
            serve(course, kept);
            return 0;
        }
        if (free) {
            if (word == null) throw CommandError.usage("say which name to " + verb.word() + ", e.g. scripts/room.sh " + verb.word() + " ada");
            if (verb == Verb.REMOVE) Room.remove(kept, word);
            else Room.free(kept, word);
            return 0;
        }
        if (word == null) throw CommandError.usage("give the folder of hand-ins, or serve");
        Path folder = Path.of(word).toAbsolutePath();
        Room.summary(course, folder, out != null ? Path.of(out).toAbsolutePath() : folder.resolve("room.html"), day);
        return 0;
    }

    /** The live room, from serve's options; returns only when the process is stopped (Ctrl-C), as the room serves till then. */
    void serve(Path course, Path kept) throws Exception {
        String port = this.port != null ? this.port : "8400";
        String host = this.host != null ? this.host : "127.0.0.1";
        String maxLearners = this.maxLearners != null ? this.maxLearners : String.valueOf(RoomServer.MAX_LEARNERS);
        String refresh = this.refresh != null ? this.refresh : String.valueOf(RoomServer.REFRESH_SECONDS);
        if (!port.matches("[0-9]{1,5}") || Integer.parseInt(port) > 65535) throw CommandError.usage("--port must be a number from 0 to 65535, not '" + port + "'");
        if (!maxLearners.matches("[0-9]{1,4}") || Integer.parseInt(maxLearners) < 1) throw CommandError.usage("--max-learners must be a number from 1 to 9999");
        if (!refresh.matches("[0-9]{1,4}") || Integer.parseInt(refresh) < 1) throw CommandError.usage("--refresh must be a number of seconds, 1 or more");
        if (viewCode != null && !viewCode.matches(RoomServer.CODE_PATTERN)) throw CommandError.usage("--view-code is 8 to 64 letters, digits, - or _");
        boolean beyond = !RoomServer.loopback(host);
        String weak = RoomServer.weakCode(code, beyond);
        if (weak != null) throw CommandError.usage(weak);
        RoomServer.serve(course, new RoomServer.Settings(kept, RoomServer.learnerCode(kept, code, beyond), RoomServer.Viewer.kept(kept, viewCode).code(),
                Integer.parseInt(maxLearners), Integer.parseInt(refresh), day, beyond), host, Integer.parseInt(port));
        // The JDK's server answers on threads of its own, and main exits once call() returns: the room holds it here till stopped.
        Thread.currentThread().join();
    }
}
