package test;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import room.Claims;
import room.Front;
import room.RoomLink;
import room.RoomServer;
import room.RoomTls;

/**
 * The room against one machine with many IPv6 addresses (RoomTest runs it). Loopback has one
 * IPv6 address, so the test makes a network namespace of its own with a veth pair: the room
 * listens on this end ({@value #ROOM}), and a "laptop" in the namespace takes {@value #ADDRESSES}
 * addresses of the same /64 and asks for names from each with curl. Traffic goes nowhere but
 * the pair. The namespace and the pair are removed on every way out (a shutdown hook too); where
 * one cannot be made (not root, no ip, no IPv6), it says so in one line and is skipped.
 */
final class RoomNetnsTests {
    static final String ROOM = "fd00:c0de:55::1";
    static final String PREFIX = "fd00:c0de:55::";
    static final int ADDRESSES = 29;
    static final int NAMES_EACH = 4;

    private RoomNetnsTests() {}

    static void manyAddresses() throws Exception {
        long pid = ProcessHandle.current().pid();
        String ns = "course-room-" + pid, here = "cr" + pid % 1_000_000 + "a", there = "cr" + pid % 1_000_000 + "b";
        Thread cleanup = new Thread(() -> remove(ns, here));
        Runtime.getRuntime().addShutdownHook(cleanup);
        String why = make(ns, here, there);
        if (why != null) {
            remove(ns, here);
            Runtime.getRuntime().removeShutdownHook(cleanup);
            System.out.println("skip  room: one machine with " + ADDRESSES + " IPv6 addresses of one /64 (no network namespace here: " + why + ")");
            return;
        }
        Path dir = Files.createTempDirectory("room-netns");
        RoomServer.Settings settings = new RoomServer.Settings(dir, RoomTest.CODE, RoomTest.VIEW).admitting();
        RoomTls.Kept key = RoomTls.kept(dir);
        HttpServer server = RoomServer.listen(RoomServer.handlers(RoomTest.root, settings), "127.0.0.1", 0, key.context());
        Front front = Front.open(ROOM, 0, server.getAddress(), RoomServer.limited, line -> {});
        try {
            Path body = dir.resolve(".probe-body.json");
            List<Integer> statuses = new ArrayList<>();
            long start = System.nanoTime();
            for (int a = 0; a < ADDRESSES; a++) {
                for (int i = 0; i < NAMES_EACH; i++) {
                    String name = "six-" + a + "-" + i;
                    Files.writeString(body, RoomTest.handin(name, Map.of("01", 1)).toString());
                    statuses.add(curl(ns, PREFIX + Integer.toHexString(0x10 + a), "https://[" + ROOM + "]:" + front.port() + "/handin?name=" + name, body));
                }
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            long waited = statuses.stream().filter(s -> s == 202).count(), refused = statuses.stream().filter(s -> s == 429).count();
            List<Claims.Waiting> waiting = Claims.waiting(dir);
            boolean oneLaptop = waiting.stream().allMatch(w -> w.from().equals(waiting.getFirst().from()));
            RoomTest.probes.put("ipv6", RoomTest.figures("addresses", ADDRESSES, "namesEach", NAMES_EACH, "waiting", waited, "refused", refused,
                    "seatsTaken", RoomTest.files(dir), "seconds", Math.round(seconds * 10) / 10.0));
            RoomTest.outcomes.record("one machine with " + ADDRESSES + " IPv6 addresses of one /64 (a network namespace of the test's own) is one laptop: "
                            + Claims.PER_LAPTOP + " names wait, the rest are told 429, no seat is taken",
                    waited == Claims.PER_LAPTOP && refused == (long) ADDRESSES * NAMES_EACH - Claims.PER_LAPTOP && RoomTest.files(dir) == 0 && oneLaptop,
                    waited + " waiting, " + refused + " refused, " + RoomTest.files(dir) + " seat(s); answers " + statuses + "; waiting " + waiting);
        } finally {
            front.close();
            server.stop(0);
            remove(ns, here);
            Runtime.getRuntime().removeShutdownHook(cleanup);
        }
    }

    /** Makes the namespace and the pair with their addresses; null when made, else why not. */
    private static String make(String ns, String here, String there) {
        try {
            if (!"Linux".equals(System.getProperty("os.name"))) return "not Linux";
            if (run("ip", "netns", "add", ns) != 0) return "ip netns add failed (it needs root and iproute2)";
            if (run("ip", "link", "add", here, "type", "veth", "peer", "name", there) != 0) return "no veth pair";
            if (run("ip", "link", "set", there, "netns", ns) != 0) return "could not move the pair's end";
            if (run("ip", "-6", "addr", "add", ROOM + "/64", "dev", here, "nodad") != 0) return "no IPv6 on this machine";
            if (run("ip", "link", "set", here, "up") != 0) return "could not bring the pair up";
            if (run("ip", "netns", "exec", ns, "ip", "link", "set", there, "up") != 0) return "could not bring the pair up";
            for (int a = 0; a < ADDRESSES; a++) {
                if (run("ip", "netns", "exec", ns, "ip", "-6", "addr", "add", PREFIX + Integer.toHexString(0x10 + a) + "/64", "dev", there, "nodad") != 0) {
                    return "could not add IPv6 addresses in the namespace";
                }
            }
            if (run("curl", "--version") != 0) return "no curl";
            Thread.sleep(500); // the link comes up
            return null;
        } catch (IOException e) {
            return e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    /** Removes the namespace (which takes its end of the pair, and so the pair) and this end, whichever exists. */
    private static void remove(String ns, String here) {
        try {
            run("ip", "netns", "del", ns);
            run("ip", "link", "del", here);
        } catch (IOException | InterruptedException e) {
            // nothing more to do
        }
    }

    /** A hand-in posted with curl from {@code from}, inside the namespace; its status (0 when curl got none). */
    private static int curl(String ns, String from, String url, Path body) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("ip", "netns", "exec", ns, "curl", "-sk", "--max-time", "10", "-o", "/dev/null", "-w", "%{http_code}",
                "--interface", from, "-H", RoomLink.CODE_HEADER + ": " + RoomTest.CODE, "--data-binary", "@" + body, url)
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes()).strip();
        if (!p.waitFor(20, TimeUnit.SECONDS)) p.destroyForcibly();
        return out.matches("[0-9]{3}") ? Integer.parseInt(out) : 0;
    }

    private static int run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (!p.waitFor(20, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return -1;
        }
        return p.exitValue();
    }
}
