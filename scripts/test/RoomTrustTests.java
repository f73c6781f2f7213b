package test;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import lib.Jackson;
import room.Cutoffs;
import room.PlainText;
import room.Room;
import room.RoomServer;
import room.Seat;
import room.Summary;

/**
 * What the room does not take on trust (RoomTest runs these): a seat it could not keep leaves
 * the name free, and what a laptop or a seat file claims is held to what the course knows.
 */
final class RoomTrustTests {
    private RoomTrustTests() {}

    /** A seat the room cannot write is answered 500 with a sentence, and leaves the name free (its owner file was written first, and kept). */
    static void seatNotKept() throws Exception {
        Path dir = Files.createTempDirectory("room-unkept");
        Files.createDirectories(dir.resolve("eve.json").resolve("blocked")); // a folder where eve's seat goes: the move fails
        HttpServer server = RoomServer.start(RoomTest.root, new RoomServer.Settings(dir, RoomTest.CODE, RoomTest.VIEW), "127.0.0.1", 0);
        String url = "http://127.0.0.1:" + server.getAddress().getPort();
        try {
            HttpResponse<String> failed = RoomTest.post(url, "eve", RoomTest.handin("eve", Map.of("01", 1)).toString(), RoomTest.CODE, null);
            boolean free = !Files.exists(RoomServer.owner(dir, "eve"));
            Files.delete(dir.resolve("eve.json").resolve("blocked"));
            Files.delete(dir.resolve("eve.json"));
            HttpResponse<String> again = RoomTest.post(url, "eve", RoomTest.handin("eve", Map.of("01", 1)).toString(), RoomTest.CODE, null);
            RoomTest.outcomes.record("a seat the room cannot write is answered 500 with a sentence, and the name stays free for the next try",
                    failed.statusCode() == 500 && failed.body().contains("could not keep this hand-in") && free && again.statusCode() == 200,
                    "first " + failed.statusCode() + " '" + failed.body().strip() + "', owner file " + (free ? "gone" : "kept") + ", then " + again.statusCode());
        } finally {
            server.stop(0);
        }
    }

    /**
     * What a laptop or a file claims is held to what the course knows: a grading that lists one
     * of chapter 01's checks is not done; a seat file with no chapters, or with 999 checks passed,
     * neither breaks the page nor shows more than the chapter has; a seat with no name is skipped, with a note.
     */
    static void untrusted() throws Exception {
        Path dir = Files.createTempDirectory("room-untrusted");
        HttpServer server = RoomServer.start(RoomTest.root, new RoomServer.Settings(dir, RoomTest.CODE, RoomTest.VIEW), "127.0.0.1", 0);
        String url = "http://127.0.0.1:" + server.getAddress().getPort();
        try {
            ObjectNode lone = RoomTest.handin("lone", Map.of("01", 0));
            ArrayNode list = (ArrayNode) lone.withArray("checks").get(0).withArray("checks");
            while (list.size() > 1) list.remove(list.size() - 1);
            int status = RoomTest.post(url, "lone", lone.toString(), RoomTest.CODE).statusCode();
            Seat seat = Jackson.read(Files.readString(dir.resolve("lone.json")), Seat.class);
            Seat.Graded g = seat.chapters().get("01");
            String page = RoomTest.get(url + "/", RoomTest.viewerCookie(dir)).body();
            int total = RoomTest.known.checks().get("01").size();
            RoomTest.outcomes.record("a grading that lists 1 of chapter 01's " + total + " checks, passed, is not done: the page says checks are missing",
                    status == 200 && g != null && !g.done() && !RoomTest.known.done("01", g) && g.missing().size() == total - 1
                            && page.contains("checks missing") && !page.contains("✓ all 1 pass") && page.contains("not proof"),
                    status + " " + Jackson.write(g));
        } finally {
            server.stop(0);
        }
        Path folder = Files.createTempDirectory("room-folder");
        Files.writeString(folder.resolve("eve.json"), "{\"schema\":\"course-room/1\",\"learner\":\"eve\"}");
        String first01 = RoomTest.known.checks().get("01").keySet().iterator().next();
        Files.writeString(folder.resolve("mallory.json"), "{\"schema\":\"course-room/1\",\"learner\":\"mallory\",\"received\":\"yesterday\","
                + "\"chapters\":{\"01\":{\"passed\":999,\"failed\":0,\"failing\":[\"no.such.check\"],\"gradings\":1},"
                + "\"99\":{\"passed\":5,\"failed\":0}},\"races\":{\"01\":{\"hello\":{\"status\":\"measured\",\"figure\":\"rps\",\"ratio\":\"NaN\"}}}}");
        Files.writeString(folder.resolve("nobody.json"), "{\"schema\":\"course-room/1\"}");
        Room.Folder read = Room.read(RoomTest.known, folder);
        Seat mallory = read.seats().stream().filter(x -> x.learner().equals("mallory")).findFirst().orElse(null);
        String html = Summary.page(RoomTest.known, read.seats(), Instant.now(), 0, read.skipped());
        RoomTest.outcomes.record("room.sh FOLDER holds seat files to what the course knows: a bare seat shows, 999 passed becomes at most the chapter's "
                        + RoomTest.known.checks().get("01").size() + ", an unknown chapter and a ratio that is no number go, a seat with no name is skipped with a note",
                read.seats().size() == 2 && mallory != null && mallory.chapters().get("01").passed() <= RoomTest.known.checks().get("01").size()
                        && !mallory.chapters().containsKey("99") && mallory.chapters().get("01").failing().isEmpty() && mallory.received() == null
                        && (mallory.races().get("01") == null || mallory.races().get("01").get("hello").ratio() == null)
                        && read.skipped().size() == 1 && read.skipped().get(0).startsWith("nobody.json") && html.contains("eve") && first01 != null,
                "seats " + Jackson.write(read.seats()) + ", skipped " + read.skipped());
    }

    /**
     * What the room draws is bounded: a ratio no race can measure is dropped, control and
     * right-to-left characters leave names, lanes and messages, the learner's client keeps only
     * plain text of a room's answer, and every answer of the live room carries a policy that runs
     * only the room's own script, with no framing and no sniffing.
     */
    static void drawnBounds() throws Exception {
        String hostile = "\u001b]0;pwned\u0007ok\u202eevil\u200b\r\nline";
        RoomTest.outcomes.record("plain text: no escape, bell, right-to-left override, zero-width space or carriage return; newlines only where lines are kept",
                PlainText.of(hostile, false).equals("]0;pwnedokevilline") && PlainText.of(hostile, true).equals("]0;pwnedokevil\nline"),
                PlainText.of(hostile, false) + " / " + PlainText.of(hostile, true));
        Path folder = Files.createTempDirectory("room-bounds");
        Files.writeString(folder.resolve("max.json"), "{\"schema\":\"course-room/1\",\"learner\":\"max\",\"chapters\":{\"01\":{\"passed\":1,"
                + "\"failed\":0,\"error\":\"boom\\u001b[2J\\u202egone\"}},\"races\":{\"01\":{"
                + "\"hello\":{\"status\":\"measured\",\"figure\":\"rps\",\"ratio\":1.7e308},"
                + "\"io-100\":{\"status\":\"measured\",\"figure\":\"rps\",\"ratio\":1e-5},"
                + "\"cpu\":{\"status\":\"measured\",\"figure\":\"rps\",\"ratio\":2.5}}}}");
        Seat max = Room.read(RoomTest.known, folder).seats().get(0);
        var cells = max.races().get("01");
        RoomTest.outcomes.record("a ratio beyond what a race measures (1.7e308, 1e-5) is dropped, 2.5 kept; a message loses its escapes and overrides",
                cells.get("hello").ratio() == null && cells.get("io-100").ratio() == null && cells.get("cpu").ratio() == 2.5
                        && "boom[2Jgone".equals(max.chapters().get("01").error()), Jackson.write(max));

        // A file speaks only for the learner it is named for.
        Path handins = Files.createTempDirectory("room-impostor");
        Files.writeString(handins.resolve("mallory.json"), RoomTest.handin("ada", Map.of("01", 0)).toString());
        Files.writeString(handins.resolve("bob.json"), "{\"schema\":\"course-room/1\",\"learner\":\"ada\"}");
        Files.writeString(handins.resolve("Cy.json"), RoomTest.handin("cy", Map.of("01", 1)).toString());
        Room.Folder impostors = Room.read(RoomTest.known, handins);
        RoomTest.outcomes.record("room.sh FOLDER takes a hand-in or seat only under its learner's own name: mallory.json saying it is ada's is skipped, with a note",
                impostors.seats().size() == 1 && impostors.seats().get(0).learner().equals("cy") && impostors.skipped().size() == 2
                        && impostors.skipped().stream().allMatch(n -> n.contains("filed under its learner's name")),
                "seats " + impostors.seats().stream().map(Seat::learner).toList() + ", skipped " + impostors.skipped());

        Path dir = Files.createTempDirectory("room-headers");
        HttpServer server = RoomServer.start(RoomTest.root, new RoomServer.Settings(dir, RoomTest.CODE, RoomTest.VIEW), "127.0.0.1", 0);
        try {
            String url = "http://127.0.0.1:" + server.getAddress().getPort();
            List<java.net.http.HttpResponse<String>> answers = List.of(RoomTest.get(url + "/", RoomTest.viewerCookie(dir)),
                    RoomTest.get(url + "/", null), RoomTest.get(url + "/nothing", null));
            boolean all = answers.stream().allMatch(a -> a.headers().firstValue("Content-Security-Policy").orElse("").contains("frame-ancestors 'none'")
                    && a.headers().firstValue("Content-Security-Policy").orElse("").contains("script-src '" + Summary.SCRIPT_HASH + "'")
                    && a.headers().firstValue("X-Content-Type-Options").orElse("").equals("nosniff")
                    && a.headers().firstValue("X-Frame-Options").orElse("").equals("DENY"));
            String page = answers.get(0).body();
            String script = page.substring(page.indexOf("<script>") + "<script>".length(), page.indexOf("</script>"));
            String hash = "sha256-" + java.util.Base64.getEncoder().encodeToString(
                    java.security.MessageDigest.getInstance("SHA-256").digest(script.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
            // A head larger than the room takes (16 KiB, not the JDK's 380): cut off unanswered, and the room serves on.
            String cutOff;
            List<String> told = new java.util.concurrent.CopyOnWriteArrayList<>();
            Cutoffs.install(told::add);
            try (java.net.Socket huge = new java.net.Socket("127.0.0.1", server.getAddress().getPort())) {
                huge.setSoTimeout(10_000);
                huge.getOutputStream().write(("POST /handin?name=huge HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Junk: " + "x".repeat(RoomServer.HEAD_BYTES + 1024)
                        + "\r\nContent-Length: 2\r\n\r\n{}").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                huge.getOutputStream().flush();
                byte[] got = huge.getInputStream().readNBytes(12);
                cutOff = got.length == 0 ? "closed" : new String(got, java.nio.charset.StandardCharsets.US_ASCII);
            } catch (java.io.IOException e) {
                cutOff = "closed (" + e.getMessage() + ")";
            }
            int after = RoomTest.post(url, "after", RoomTest.handin("after", Map.of("01", 0)).toString(), RoomTest.CODE).statusCode();
            RoomTest.outcomes.record("a request whose head passes " + RoomServer.HEAD_BYTES / 1024 + " KiB is cut off unanswered (the JDK's default is 380 KiB), said on the room's terminal, and the room takes the next hand-in",
                    cutOff.startsWith("closed") && after == 200 && told.stream().anyMatch(l -> l.contains("whose head passed " + RoomServer.HEAD_BYTES / 1024 + " KiB")),
                    cutOff + "; the next hand-in " + after + "; the terminal said " + told);
            RoomTest.outcomes.record("every answer of the live room carries its policy (only its own script, by hash; no framing; nosniff), and the hash is its page's script's",
                    all && hash.equals(Summary.SCRIPT_HASH), answers.stream().map(a -> a.statusCode() + " " + a.headers().map()).toList() + "; page script " + hash);
        } finally {
            server.stop(0);
        }
    }
}
