package test;

import com.sun.net.httpserver.HttpServer;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import room.RoomLink;
import room.RoomServer;
import room.RoomTls;

/**
 * The room on the air (RoomTest runs these): learners reach it over TLS, their copy sends only to
 * the room whose pin it was given, and the room keeps its key, so its pin, and every learner's
 * name, outlast a restart at another address.
 */
final class RoomTlsTests {
    private RoomTlsTests() {}

    static void pinned() throws Exception {
        Path dir = Files.createTempDirectory("room-tls");
        Path learner = Files.createTempDirectory("room-tls-learner");
        RoomServer.Settings settings = new RoomServer.Settings(dir, RoomTest.CODE, RoomTest.VIEW);
        RoomTls.Kept key = RoomTls.kept(dir);
        HttpServer server = RoomServer.listen(RoomServer.handlers(RoomTest.root, settings), "127.0.0.1", 0, key.context());
        String url = "https://127.0.0.1:" + server.getAddress().getPort() + "/";
        String body = RoomTest.handin("tia", Map.of("01", 0)).toString();
        try {
            RoomLink.Answer first = RoomLink.post(url, key.pin(), RoomTest.CODE, "tia", null, body, Duration.ofSeconds(10));
            RoomTest.outcomes.record("a learner whose copy has the room's pin hands in over TLS, and gets the name's token",
                    first.status() == 200 && first.token() != null && key.pin().matches("[0-9A-Z]{4}(-[0-9A-Z]{4}){3}"),
                    first.status() + " " + first.text() + ", pin " + key.pin());
            RoomLink.join(learner, RoomLink.Joined.pinned(url, key.pin(), RoomTest.CODE, "tia", first.token()));

            // Another machine at the room's address: its own key, so another pin. The learner's copy stops at the handshake.
            Path impostorDir = Files.createTempDirectory("room-tls-impostor");
            RoomTls.Kept impostorKey = RoomTls.kept(impostorDir);
            HttpServer impostor = RoomServer.listen(RoomServer.handlers(RoomTest.root, new RoomServer.Settings(impostorDir, RoomTest.CODE, RoomTest.VIEW)),
                    "127.0.0.1", 0, impostorKey.context());
            String said;
            try {
                RoomLink.Answer a = RoomLink.post("https://127.0.0.1:" + impostor.getAddress().getPort() + "/", key.pin(), RoomTest.CODE, "tia",
                        first.token(), body, Duration.ofSeconds(10));
                said = "answered " + a.status();
            } catch (java.io.IOException e) {
                said = RoomLink.why(e);
            } finally {
                impostor.stop(0);
            }
            boolean nothing = !Files.exists(impostorDir.resolve("tia.json")) && !Files.exists(RoomServer.owner(impostorDir, "tia"));
            RoomTest.outcomes.record("a machine at the room's address with another key gets nothing from a learner's copy: not the code, the token or the hand-in",
                    !impostorKey.pin().equals(key.pin()) && said.contains("not the room") && said.contains(impostorKey.pin()) && nothing,
                    said + (nothing ? "" : "; the impostor kept a seat"));

            // What crosses the air is TLS: plain HTTP to the learners' port gets no answer in HTTP.
            String plain;
            try (Socket s = new Socket("127.0.0.1", server.getAddress().getPort())) {
                s.setSoTimeout(5000);
                OutputStream out = s.getOutputStream();
                out.write(("POST /handin?name=tia HTTP/1.1\r\nHost: x\r\n" + RoomLink.CODE_HEADER + ": " + RoomTest.CODE + "\r\nContent-Length: 2\r\n\r\n{}")
                        .getBytes(StandardCharsets.US_ASCII));
                out.flush();
                InputStream in = s.getInputStream();
                plain = new String(in.readNBytes(5), StandardCharsets.ISO_8859_1);
            } catch (java.io.IOException e) {
                plain = "";
            }
            RoomTest.probes.put("sniff", RoomTest.figures("plainHttpAnswered", plain.startsWith("HTTP/"), "impostorGotSeat", !nothing,
                    "pinBits", 80));
            RoomTest.outcomes.record("the room's learners' port speaks TLS only: a request in plain HTTP gets no HTTP answer", !plain.startsWith("HTTP/"),
                    "answered '" + plain + "'");

            // Copies refuse to send in the clear, or without a pin.
            String clear = refusal(() -> RoomLink.post("http://192.0.2.7:8400/", null, RoomTest.CODE, "tia", first.token(), body, Duration.ofSeconds(1)));
            String unpinned = refusal(() -> RoomLink.post(url, null, RoomTest.CODE, "tia", first.token(), body, Duration.ofSeconds(1)));
            RoomTest.outcomes.record("a learner's copy sends the code and a token neither in plain HTTP to another machine nor to an https room without its pin",
                    clear.contains("plain http") && unpinned.contains("--pin"), clear + " | " + unpinned);
        } finally {
            server.stop(0);
        }

        // The laptop's address changes, or the room restarts on another port: the key, the pin and the names stay.
        RoomTls.Kept again = RoomTls.kept(dir);
        HttpServer moved = RoomServer.listen(RoomServer.handlers(RoomTest.root, settings), "127.0.0.1", 0, again.context());
        String movedUrl = "https://127.0.0.1:" + moved.getAddress().getPort() + "/";
        try {
            RoomLink.Joined kept = RoomLink.kept(learner);
            String token = kept.tokenFor(movedUrl, again.pin(), "tia");
            RoomLink.Answer back = RoomLink.post(movedUrl, again.pin(), RoomTest.CODE, "tia", token, body, Duration.ofSeconds(10));
            RoomTest.probes.put("addressChange", RoomTest.figures("pinKept", again.pin().equals(key.pin()), "answer", back.status()));
            RoomTest.outcomes.record("the room restarted at another address keeps its pin, and a learner's name stays theirs (their copy keeps the token by the pin)",
                    again.pin().equals(RoomTls.kept(dir).pin()) && token != null && back.status() == 200,
                    "pin " + again.pin() + ", token " + (token == null ? "not found" : "found") + ", answered " + back.status() + " " + back.text());
        } finally {
            moved.stop(0);
        }
        RoomTest.outcomes.record("a pin is read as typed: lower case, spaces, O for 0 and l for 1",
                "7XQ4-M2KD-9RTA-P130".equals(RoomTls.plainPin("7xq4 m2kd 9rta pl3o")) && RoomTls.plainPin("7XQ4-M2KD") == null,
                RoomTls.plainPin("7xq4 m2kd 9rta pl3o"));
    }

    private interface Post {
        RoomLink.Answer run() throws Exception;
    }

    /** What a post that must not go out says; "sent" when it went. */
    private static String refusal(Post post) {
        try {
            post.run();
            return "sent";
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        } catch (Exception e) {
            return "sent, and failed: " + e;
        }
    }
}
