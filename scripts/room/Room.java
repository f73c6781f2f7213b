///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
//DEPS com.fasterxml.jackson.core:jackson-databind:2.22.4
//SOURCES ../lib/Jackson.java ../lib/Chapters.java ../checks/CheckReport.java ../bench/BenchReport.java Summary.java RoomServer.java

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Hand-ins and the room summary behind scripts/handin.sh and scripts/room.sh.
 *
 * <p>{@code handin ROOT NAME OUT}: one file, {@code OUT/NAME.json}, with the learner's latest
 * grading ({@code .results/checks/NN.json}) and races ({@code .results/bench/*.json}).
 * {@code send ROOT NAME URL [CODE]}: the same hand-in, posted to a live room.
 * {@code summary ROOT FOLDER OUT}: one self-contained HTML page from a folder of hand-ins (or of
 * raw {@code check.sh --json} and {@code bench.sh} files, named after the learner): {@link Summary}.
 * {@code serve ROOT DIR HOST PORT [CODE]}: the live room, {@link RoomServer}.
 */
class Room {
    static final String SCHEMA = "course-handin/1";
    static String who = "room";

    /** A hand-in: {@code schema} is {@link #SCHEMA}; the learner's latest check reports and races. */
    record Handin(String schema, String learner, String time, List<CheckReport> checks, List<BenchReport> bench) {}

    public static void main(String[] args) throws Exception {
        if (args.length == 4 && args[0].equals("handin")) {
            who = "handin";
            handin(Path.of(args[1]), args[2], Path.of(args[3]));
        } else if ((args.length == 4 || args.length == 5) && args[0].equals("send")) {
            who = "handin";
            send(Path.of(args[1]), args[2], args[3], args.length == 5 ? args[4] : null);
        } else if (args.length == 4 && args[0].equals("summary")) {
            summary(Path.of(args[1]), Path.of(args[2]), Path.of(args[3]));
        } else if ((args.length == 5 || args.length == 6) && args[0].equals("serve")) {
            RoomServer.serve(Path.of(args[1]), Path.of(args[2]), args[3], Integer.parseInt(args[4]), args.length == 6 ? args[5] : null);
        } else {
            System.err.println("usage: Room handin ROOT NAME OUT_DIR | Room send ROOT NAME URL [CODE] | Room summary ROOT FOLDER OUT_FILE"
                    + " | Room serve ROOT DIR HOST PORT [CODE]");
            System.exit(2);
        }
    }

    // ---- The learner's side ----

    /** A learner's name as the room takes it: 1 to 40 letters, digits, dots, dashes or underscores, not only dots. */
    static boolean plainName(String name) {
        return name != null && name.matches("[A-Za-z0-9._-]{1,40}") && !name.matches("\\.+");
    }

    static void handin(Path root, String name, Path outDir) throws IOException {
        Handin handin = collect(root, name);
        Files.createDirectories(outDir);
        Path out = outDir.resolve(name + ".json");
        Files.writeString(out, Jackson.write(handin));
        System.out.println("handin: " + handin.checks().size() + " graded chapter(s) and " + handin.bench().size() + " race(s) in " + out
                + "\nhandin: give that file to your instructor (a shared folder, a USB stick, or chat)");
    }

    /** The learner's latest gradings and races, or an exit with what to do first. */
    static Handin collect(Path root, String name) throws IOException {
        if (!plainName(name)) fail(2, "a name is 1 to 40 letters, digits, dots, dashes or underscores, not '" + name + "'");
        List<CheckReport> checks = readAll(root.resolve(".results/checks"), CheckReport.class);
        List<BenchReport> bench = readAll(root.resolve(".results/bench"), BenchReport.class);
        if (checks.isEmpty() && bench.isEmpty()) {
            fail(1, "nothing to hand in yet: grade your own server first (jbang check 01, or scripts/check.sh 01), or race it (jbang bench 01); "
                    + "grading the reference (check.sh --solution) or another file (--file) is not handed in");
        }
        return new Handin(SCHEMA, name, Instant.now().toString(), checks, bench);
    }

    static <T> List<T> readAll(Path dir, Class<T> type) throws IOException {
        List<T> all = new ArrayList<>();
        if (!Files.isDirectory(dir)) return all;
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
                try {
                    all.add(Jackson.read(Files.readString(f), type));
                } catch (RuntimeException e) {
                    System.err.println("handin: skipping " + f + ": not JSON (" + e.getMessage() + ")");
                }
            }
        }
        return all;
    }

    /** Sends the hand-in to a live room ({@code scripts/room.sh serve}) instead of writing a file. */
    static void send(Path root, String name, String url, String code) throws IOException, InterruptedException {
        Handin handin = collect(root, name);
        String base = url.endsWith("/") ? url : url + "/";
        java.net.URI to;
        try {
            to = java.net.URI.create(base + "handin?name=" + name);
        } catch (IllegalArgumentException e) {
            fail(2, "'" + url + "' is no address: give the one the instructor's room.sh printed, such as http://10.0.0.5:8400/");
            return;
        }
        var request = java.net.http.HttpRequest.newBuilder(to).timeout(java.time.Duration.ofSeconds(20))
                .header("Content-Type", "application/json").header("X-Room-Code", code == null ? "" : code)
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(Jackson.write(handin))).build();
        java.net.http.HttpResponse<String> answer;
        try (var client = java.net.http.HttpClient.newBuilder().connectTimeout(java.time.Duration.ofSeconds(5)).build()) {
            answer = client.send(request, java.net.http.HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            fail(1, "could not reach the room at " + url + " (" + e.getMessage() + "): check the address, and that this laptop is on the room's network; "
                    + "or hand in a file: jbang handin " + name + " (or scripts/handin.sh " + name + ")");
            return;
        }
        if (answer.statusCode() != 200) fail(1, "the room refused the hand-in (" + answer.statusCode() + "): " + answer.body().strip());
        System.out.println("handin: " + answer.body().strip());
    }

    // ---- The instructor's side ----

    /** The page for a folder of hand-ins, written to {@code out}. */
    static void summary(Path root, Path folder, Path out) throws IOException {
        if (!Files.isDirectory(folder)) fail(2, "no folder " + folder + ": give the folder that holds the hand-ins");
        Summary.Handins room = Summary.read(folder);
        if (room.learners().isEmpty()) fail(1, "no hand-ins in " + folder + " (files from scripts/handin.sh, check.sh --json or bench.sh)");
        Files.writeString(out, Summary.html(Chapters.graded(root), room, Instant.now(), 0), StandardCharsets.UTF_8);
        System.out.println("room: " + room.learners().size() + " learner(s) -> " + out
                + (room.skipped().isEmpty() ? "" : "; skipped " + room.skipped()));
    }

    static void fail(int code, String message) {
        System.err.println(who + ": " + message);
        System.exit(code);
    }
}
