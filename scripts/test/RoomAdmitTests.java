package test;

import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import room.Claims;
import room.RoomLink;
import room.RoomServer;

/**
 * A room on the network lets a new name in only when the instructor says so (RoomTest runs
 * these). Learners' laptops are addresses of 127.0.0.0/8 other than 127.0.0.1 here, each its own
 * source address, and the instructor's screen is 127.0.0.1: a flood from nineteen addresses of
 * one machine takes no seat, locks no one out, and what it asked for outlasts a restart.
 */
final class RoomAdmitTests {
    private RoomAdmitTests() {}

    static void admitted() throws Exception {
        Path dir = Files.createTempDirectory("room-admit");
        RoomServer.Settings settings = new RoomServer.Settings(dir, RoomTest.CODE, RoomTest.VIEW).admitting();
        var before = RoomServer.limited;
        RoomServer.limited = a -> !a.getHostAddress().equals("127.0.0.1"); // 127.0.0.1 is the instructor's; the rest are laptops on the Wi-Fi
        HttpServer server = RoomServer.start(RoomTest.root, settings, "127.0.0.1", 0);
        String url = "http://127.0.0.1:" + server.getAddress().getPort();
        String cookie = RoomTest.viewerCookie(dir);
        try {
            HttpResponse<String> asked = RoomTest.postFrom(url, "127.0.0.2", null, "ada", null);
            String token = asked.headers().firstValue(RoomLink.TOKEN_HEADER).orElse(null);
            String page = RoomTest.get(url + "/", cookie).body();
            HttpResponse<String> other = RoomTest.postFrom(url, "127.0.0.3", null, "ada", null);
            HttpResponse<String> again = RoomTest.postFrom(url, "127.0.0.2", null, "ada", token);
            RoomTest.outcomes.record("a new name from the network waits for the instructor (202), keeps nothing meanwhile, and is the first laptop's to wait for",
                    asked.statusCode() == 202 && token != null && !Files.exists(dir.resolve("ada.json")) && page.contains("Waiting to join (1)")
                            && page.contains("127.0.0.2") && other.statusCode() == 409 && again.statusCode() == 202 && !Files.exists(dir.resolve("ada.json")),
                    asked.statusCode() + " " + asked.body().strip() + "; other laptop " + other.statusCode() + "; again " + again.statusCode());

            int anyone = admit(url, null, null, "let=ada");
            int elsewhere = admit(url, cookie, "http://elsewhere.example", "let=ada");
            int viewer = admit(url, cookie, url, "let=ada");
            HttpResponse<String> in = RoomTest.postFrom(url, "127.0.0.2", null, "ada", token);
            RoomTest.outcomes.record("the instructor lets a name in with one click on the page (not another site's page, not a screen without the viewer code), and its laptop's next hand-in is kept",
                    anyone == 401 && elsewhere == 403 && viewer == 303 && in.statusCode() == 200 && Files.exists(dir.resolve("ada.json")),
                    "no cookie " + anyone + ", another origin " + elsewhere + ", the page " + viewer + "; then " + in.statusCode() + " " + in.body().strip());

            // Nineteen addresses of one machine, four names each.
            List<Integer> flood = new ArrayList<>();
            for (int a = 10; a < 29; a++) {
                for (int i = 0; i < 4; i++) flood.add(RoomTest.postFrom(url, "127.0.0." + a, null, "flood-" + a + "-" + i, null).statusCode());
            }
            long waited = flood.stream().filter(s -> s == 202).count(), refused = flood.stream().filter(s -> s == 429).count();
            HttpResponse<String> late = RoomTest.postFrom(url, "127.0.0.50", null, "bo", null);
            Map<String, Object> floodFigures = RoomTest.figures("addresses", 19, "namesEach", 4, "waiting", waited, "refused", refused,
                    "seatsTaken", RoomTest.files(dir) - 1, "nextLearner", late.statusCode());
            RoomTest.probes.put("flood", floodFigures);
            String bo = late.headers().firstValue(RoomLink.TOKEN_HEADER).orElse(null);
            RoomTest.outcomes.record("a flood of names from 19 addresses of one machine waits (3 an address, the 4th told 429), takes no seat, and a learner who comes after still asks",
                    waited == 19 * 3 && refused == 19 && RoomTest.files(dir) == 1 && late.statusCode() == 202,
                    waited + " waiting, " + refused + " refused, " + RoomTest.files(dir) + " seat(s); the learner after: " + late.statusCode());
            server.stop(0);

            server = RoomServer.start(RoomTest.root, settings, "127.0.0.1", 0);
            url = "http://127.0.0.1:" + server.getAddress().getPort();
            int more = RoomTest.postFrom(url, "127.0.0.10", null, "flood-10-9", null).statusCode();
            floodFigures.put("afterRestart", more);
            String restarted = RoomTest.get(url + "/", cookie).body();
            int away = admit(url, cookie, url, "away=*");
            boolean gone = Claims.waiting(dir).isEmpty();
            int boAgain = RoomTest.postFrom(url, "127.0.0.50", null, "bo", bo).statusCode();
            HttpResponse<String> boAsk = RoomTest.postFrom(url, "127.0.0.50", null, "bo-2", null);
            String boToken = boAsk.headers().firstValue(RoomLink.TOKEN_HEADER).orElse(null);
            admit(url, cookie, url, "let=*");
            int boIn = RoomTest.postFrom(url, "127.0.0.50", null, "bo-2", boToken).statusCode();
            RoomTest.outcomes.record("after a restart an address's names still count (the 4th is 429) and still wait; the instructor turns them all away in one click, and lets the rest in in one",
                    more == 429 && restarted.contains("Waiting to join (" + (19 * 3 + 1) + ")") && restarted.contains("And ") && away == 303 && gone
                            && boAgain == 202 && boIn == 200,
                    "4th name after restart " + more + "; turn all away " + away + (gone ? "" : " (some still wait)") + "; bo asks again " + boAgain + ", bo-2 let in " + boIn);
        } finally {
            server.stop(0);
            RoomServer.limited = before;
        }
        InetAddress one = InetAddress.getByName("2001:db8::1"), same = InetAddress.getByName("2001:db8::abcd:1"), next = InetAddress.getByName("2001:db8:0:1::1");
        RoomTest.outcomes.record("an IPv6 laptop is its /64, however many addresses it takes in it",
                Claims.laptop(one).equals(Claims.laptop(same)) && !Claims.laptop(one).equals(Claims.laptop(next)) && Claims.laptop(InetAddress.getByName("10.0.0.7")).equals("10.0.0.7"),
                Claims.laptop(one) + " " + Claims.laptop(same) + " " + Claims.laptop(next));
    }

    /** The page's form, posted from the instructor's screen (127.0.0.1); its status. */
    private static int admit(String url, String cookie, String origin, String form) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url + "/admit")).timeout(Duration.ofSeconds(20))
                .header("Content-Type", "application/x-www-form-urlencoded").POST(HttpRequest.BodyPublishers.ofString(form));
        if (cookie != null) b.header("Cookie", cookie);
        if (origin != null) b.header("Origin", origin);
        return RoomTest.client.send(b.build(), HttpResponse.BodyHandlers.ofString()).statusCode();
    }
}
