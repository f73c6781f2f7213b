///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
//DEPS com.fasterxml.jackson.core:jackson-databind:2.22.4
//DEPS info.picocli:picocli:4.7.7
//SOURCES RoomLink.java RoomTls.java ../lib/Jackson.java ../lib/Root.java ../lib/Cli.java ../lib/CommandError.java

package room;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import lib.Cli;
import lib.CommandError;
import lib.Jackson;
import lib.Root;
import picocli.CommandLine;

/**
 * {@code jbang handin NAME} (and scripts/handin.sh): hands in the learner's latest gradings and
 * races, as handin/NAME.json or to a live room, which this copy of the course then joins (even
 * with nothing graded yet): every later grading and race is sent by itself ({@link RoomLink}).
 * Exit 0 handed in, 1 nothing to hand in yet for a file (or the room refused it, or could not be
 * reached), 2 usage.
 */
@CommandLine.Command(name = "handin", sortOptions = false,
        customSynopsis = {"usage: jbang handin NAME [--out DIR]              (or scripts/handin.sh NAME ...)",
                "       jbang handin NAME --to URL [--code CODE] [--pin PIN]",
                "       jbang handin --leave"},
        footer = {"", "Grade or race your own server first (jbang check NN, jbang bench NN); this hands",
                "in the results."})
class Handin implements Callable<Integer> {
    @CommandLine.Parameters(arity = "0..1", paramLabel = "NAME", description = "your name or seat, e.g. ada or table-3 (letters, digits, - and _)")
    String name;
    @CommandLine.Option(names = "--out", paramLabel = "DIR", description = "where to write NAME.json (default: handin/ in the course's folder)")
    String out;
    @CommandLine.Option(names = "--to", paramLabel = "URL", description = {"the live room the instructor gave you, e.g. https://10.0.0.5:8400/;",
            "from then on, every grading and race you run is sent to it by itself"})
    String to;
    @CommandLine.Option(names = "--code", paramLabel = "CODE", description = "the room's code, if the instructor gave one")
    String code;
    @CommandLine.Option(names = "--pin", paramLabel = "PIN", description = {"the room's pin, from the same line (such as 7XQ4-M2KD-9RTA-PL3E): your",
            "copy sends only to the room that shows it, over TLS"})
    String pin;
    @CommandLine.Option(names = "--leave", description = "stop sending gradings and races to the room")
    boolean leave;
    @CommandLine.Option(names = "--root", hidden = true, description = "the course's folder (the shell wrapper's)")
    Path root;
    @CommandLine.Option(names = {"-h", "--help"}, usageHelp = true, description = "this help")
    boolean help;

    public static void main(String[] args) {
        System.exit(Cli.run("handin", new Handin(), args));
    }

    @Override
    public Integer call() throws Exception {
        Path course = root != null ? root.toAbsolutePath().normalize() : Root.find();
        if (leave) {
            if (name != null || to != null || out != null) throw CommandError.usage("--leave stands alone");
            RoomLink.Joined was = RoomLink.joined(course);
            RoomLink.leave(course);
            System.out.println(was == null ? "handin: this copy of the course had joined no room"
                    : "handin: left the room at " + was.url() + ": gradings and races stay on this machine");
            return 0;
        }
        if (name == null) throw CommandError.usage("say who is handing in, e.g. scripts/handin.sh ada");
        if (!RoomLink.plainName(name)) throw CommandError.of(2, RoomLink.NAME_RULE + ", not '" + name + "'");
        if (code != null && to == null) throw CommandError.usage("--code goes with --to");
        if (pin != null && to == null) throw CommandError.usage("--pin goes with --to");
        String pinned = pin == null ? null : RoomTls.plainPin(pin);
        if (pin != null && pinned == null) throw CommandError.usage("a pin is 16 letters and digits in four groups, such as 7XQ4-M2KD-9RTA-PL3E, not '" + pin + "': copy it from the room's Join line");
        if (out != null && to != null) throw CommandError.usage("--out writes a file, --to sends to a room: one or the other");
        ObjectNode handin = RoomLink.handin(course, name);
        if (to != null) {
            send(course, name, to, pinned, code, handin); // with nothing graded yet, it joins the room all the same
            return 0;
        }
        if (RoomLink.empty(handin)) {
            throw CommandError.of(1, "nothing to hand in yet: grade your own server first (scripts/check.sh 01), or race it (scripts/bench.sh 01); "
                    + "grading the reference (check.sh --solution) or another file (--file) is not handed in");
        }
        write(name, out != null ? Path.of(out).toAbsolutePath() : course.resolve("handin"), handin);
        return 0;
    }

    static void write(String name, Path dir, ObjectNode handin) throws IOException {
        Files.createDirectories(dir);
        Path file = dir.resolve(name + ".json");
        Files.writeString(file, Jackson.write(handin));
        System.out.println("handin: " + handin.path("checks").size() + " graded chapter(s), " + handin.path("bench").size()
                + " race(s) and " + handin.path("timelines").size() + " timeline(s) in " + file + "\nhandin: give that file to your instructor (a shared folder, a USB stick, or chat)");
    }

    /** Posts the hand-in, and joins the room: its address, pin, code, the name and the name's token are kept. */
    static void send(Path course, String name, String url, String pin, String code, ObjectNode handin) throws IOException, InterruptedException {
        RoomLink.Joined before = RoomLink.kept(course);
        // The token proves the name is this machine's: it goes only to the room that gave it (known by its pin, at any address), for the name it was given for.
        String token = before != null ? before.tokenFor(url, pin, name) : null;
        RoomLink.Answer answer;
        try {
            answer = RoomLink.post(url, pin, code, name, token, Jackson.write(handin), Duration.ofSeconds(20));
        } catch (IllegalArgumentException e) {
            throw CommandError.of(2, e.getMessage());
        } catch (IOException e) {
            RoomTls.OtherRoom other = RoomTls.otherRoom(e);
            if (other != null) {
                throw CommandError.of(1, "the machine at " + url + " is not the room whose pin you gave: it showed " + other.shown + ", not " + pin
                        + "; nothing was sent. Check the address and the pin on the instructor's screen, and tell the instructor if they are what you typed");
            }
            throw CommandError.of(1, "could not reach the room at " + url + " (" + RoomLink.why(e) + "): check the address, and that this laptop is on the room's"
                    + " network; or hand in a file: scripts/handin.sh " + name + " (jbang handin " + name + " without bash)");
        }
        if (answer.status() != 200 && answer.status() != 202) throw CommandError.of(1, "the room refused the hand-in (" + answer.status() + "): " + answer.text());
        RoomLink.join(course, RoomLink.Joined.pinned(url, pin, code, name, answer.token() != null ? answer.token() : token));
        System.out.println("handin: " + answer.text());
        System.out.println(answer.status() == 202 ? "handin: from now on, every grading and race of your own server goes to the room by itself,"
                + " and counts there once the instructor lets you in (scripts/handin.sh --leave stops that)"
                : "handin: from now on, every grading and race of your own server reaches the room by itself (scripts/handin.sh --leave stops that)");
    }
}
