///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
//DEPS com.fasterxml.jackson.core:jackson-databind:2.22.4
//SOURCES RoomLink.java ../lib/Jackson.java ../lib/Root.java ../lib/Usage.java

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * {@code jbang handin NAME} (and scripts/handin.sh): hands in the learner's latest gradings and
 * races, as handin/NAME.json or to a live room, which this copy of the course then joins (even
 * with nothing graded yet): every later grading and race is sent by itself ({@link RoomLink}).
 * Exit 0 handed in, 1 nothing to hand in yet for a file (or the room refused it, or could not be
 * reached), 2 usage.
 */
class Handin {
    static final String USAGE = """
            usage: jbang handin NAME [--out DIR]              (or scripts/handin.sh NAME ...)
                   jbang handin NAME --to URL [--code CODE]
                   jbang handin --leave

              NAME         your name or seat, e.g. ada or table-3 (letters, digits, - and _)
              --out DIR    where to write NAME.json (default: handin/ in the course's folder)
              --to URL     the live room the instructor gave you, e.g. http://10.0.0.5:8400/;
                           from then on, every grading and race you run is sent to it by itself
              --code CODE  the room's code, if the instructor gave one
              --leave      stop sending gradings and races to the room

            Grade or race your own server first (jbang check NN, jbang bench NN); this hands
            in the results.""";

    static final Usage ARGS = new Usage("handin", USAGE);

    public static void main(String[] args) throws Exception {
        String name = null, out = null, to = null, code = null, root = null;
        boolean leave = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "-h", "--help" -> { System.out.println(USAGE); return; }
                case "--out" -> out = ARGS.value(args, ++i);
                case "--to" -> to = ARGS.value(args, ++i);
                case "--code" -> code = ARGS.value(args, ++i);
                case "--root" -> root = ARGS.value(args, ++i);
                case "--leave" -> leave = true;
                default -> {
                    if (args[i].startsWith("-") || name != null) ARGS.fail("unknown option or extra word: " + args[i]);
                    name = args[i];
                }
            }
        }
        Path course = root != null ? Path.of(root).toAbsolutePath().normalize() : Root.find();
        if (leave) {
            if (name != null || to != null || out != null) ARGS.fail("--leave stands alone");
            RoomLink.Joined was = RoomLink.joined(course);
            RoomLink.leave(course);
            System.out.println(was == null ? "handin: this copy of the course had joined no room"
                    : "handin: left the room at " + was.url() + ": gradings and races stay on this machine");
            return;
        }
        if (name == null) ARGS.fail("say who is handing in, e.g. scripts/handin.sh ada");
        if (!RoomLink.plainName(name)) fail(2, RoomLink.NAME_RULE + ", not '" + name + "'");
        if (code != null && to == null) ARGS.fail("--code goes with --to");
        if (out != null && to != null) ARGS.fail("--out writes a file, --to sends to a room: one or the other");
        ObjectNode handin = RoomLink.handin(course, name);
        if (to != null) {
            send(course, name, to, code, handin); // with nothing graded yet, it joins the room all the same
            return;
        }
        if (RoomLink.empty(handin)) {
            fail(1, "nothing to hand in yet: grade your own server first (scripts/check.sh 01), or race it (scripts/bench.sh 01); "
                    + "grading the reference (check.sh --solution) or another file (--file) is not handed in");
        }
        write(name, out != null ? Path.of(out).toAbsolutePath() : course.resolve("handin"), handin);
    }

    static void write(String name, Path dir, ObjectNode handin) throws IOException {
        Files.createDirectories(dir);
        Path file = dir.resolve(name + ".json");
        Files.writeString(file, Jackson.write(handin));
        System.out.println("handin: " + handin.path("checks").size() + " graded chapter(s) and " + handin.path("bench").size()
                + " race(s) in " + file + "\nhandin: give that file to your instructor (a shared folder, a USB stick, or chat)");
    }

    /** Posts the hand-in, and joins the room: its address, code, the name and the name's token are kept. */
    static void send(Path course, String name, String url, String code, ObjectNode handin) throws IOException, InterruptedException {
        RoomLink.Joined before = RoomLink.kept(course);
        // The token proves the name is this machine's: it goes only to the room that gave it, for the name it was given for.
        String token = before != null ? before.tokenFor(url, name) : null;
        RoomLink.Answer answer;
        try {
            answer = RoomLink.post(url, code, name, token, Jackson.write(handin), Duration.ofSeconds(20));
        } catch (IllegalArgumentException e) {
            fail(2, e.getMessage());
            return;
        } catch (IOException e) {
            fail(1, "could not reach the room at " + url + " (" + RoomLink.why(e) + "): check the address, and that this laptop is on the room's"
                    + " network; or hand in a file: scripts/handin.sh " + name + " (jbang handin " + name + " without bash)");
            return;
        }
        if (answer.status() != 200) fail(1, "the room refused the hand-in (" + answer.status() + "): " + answer.text());
        RoomLink.join(course, new RoomLink.Joined(url, code, name, answer.token() != null ? answer.token() : token));
        System.out.println("handin: " + answer.text());
        System.out.println("handin: from now on, every grading and race of your own server reaches the room by itself"
                + " (scripts/handin.sh --leave stops that)");
    }



    static void fail(int code, String message) {
        System.err.println("handin: " + message);
        System.exit(code);
    }
}
