package test;

import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import room.Claims;
import room.Front;
import room.RoomServer;
import room.RoomTls;

/**
 * The room's door (RoomTest runs these): a room on the network as `room serve --host` starts it,
 * its door ({@link Front}) before its TLS server, here on loopback, with laptops at addresses of
 * 127.0.0.0/8 other than 127.0.0.1. One machine that opens hundreds of idle connections from
 * nineteen addresses holds a few per address, is told of on the terminal, and every learner's
 * hand-in still answers.
 */
final class RoomDoorTests {
    private RoomDoorTests() {}

    /** Idle connections a misbehaving machine tries to open from each of its addresses. */
    static int tries = 40;

    static void door() throws Exception {
        Path dir = Files.createTempDirectory("room-door");
        RoomServer.Settings settings = new RoomServer.Settings(dir, RoomTest.CODE, RoomTest.VIEW).admitting();
        var before = RoomServer.limited;
        RoomServer.limited = a -> !a.getHostAddress().equals("127.0.0.1");
        RoomTls.Kept key = RoomTls.kept(dir);
        HttpServer server = RoomServer.listen(RoomServer.handlers(RoomTest.root, settings), "127.0.0.1", 0, key.context());
        List<String> said = new CopyOnWriteArrayList<>();
        Front front = Front.open("127.0.0.1", 0, server.getAddress(), RoomServer.limited, said::add);
        String url = "https://127.0.0.1:" + front.port() + "/";
        List<Socket> held = new ArrayList<>();
        try {
            HttpResponse<String> first = RoomTest.postFrom(url, "127.0.0.2", key.pin(), "uma", null);
            List<Claims.Waiting> waiting = Claims.waiting(dir);
            RoomTest.outcomes.record("through the room's door, the room sees each learner's own address (the page lists uma from 127.0.0.2)",
                    first.statusCode() == 202 && waiting.size() == 1 && waiting.getFirst().from().equals("127.0.0.2"),
                    first.statusCode() + " " + waiting);

            // One machine, nineteen addresses, tries idle connections each, sending nothing.
            int opened = 0;
            for (int a = 10; a < 29; a++) {
                for (int i = 0; i < tries; i++) {
                    Socket s = new Socket();
                    try {
                        s.bind(new InetSocketAddress("127.0.0." + a, 0));
                        s.connect(new InetSocketAddress("127.0.0.1", front.port()), 2000);
                        opened++;
                        // Twice what the door holds stays open; the rest only knock (this JVM has the room's files to keep too).
                        if (i < 2 * Front.PER_LAPTOP) held.add(s);
                        else s.close();
                    } catch (java.io.IOException e) {
                        s.close();
                    }
                }
            }
            Thread.sleep(500); // the door closes the ones over its limit as it accepts them
            int holding = 0, most = 0;
            for (int a = 10; a < 29; a++) {
                int h = front.holding(InetAddress.getByName("127.0.0." + a));
                holding += h;
                most = Math.max(most, h);
            }
            List<Long> millis = new ArrayList<>();
            List<Integer> statuses = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                long start = System.nanoTime();
                statuses.add(RoomTest.postFrom(url, "127.0.0." + (60 + i), key.pin(), "late-" + i, null).statusCode());
                millis.add((System.nanoTime() - start) / 1_000_000);
            }
            long slowest = millis.stream().mapToLong(Long::longValue).max().orElse(0);
            RoomTest.probes.put("idle", RoomTest.figures("addresses", 19, "tried", 19 * tries, "connected", opened, "held", holding, "perAddress", most,
                    "handinMsMedian", millis.stream().sorted().toList().get(millis.size() / 2), "handinMsMax", slowest, "terminalLines", said.size()));
            boolean told = said.stream().anyMatch(l -> l.contains("opened more than " + Front.PER_LAPTOP + " connections at once"));
            RoomTest.outcomes.record("a machine that opens " + 19 * tries + " idle connections from 19 addresses holds " + Front.PER_LAPTOP
                            + " an address, the terminal says so, and 8 learners' hand-ins each answer within a second",
                    most == Front.PER_LAPTOP && holding == 19 * Front.PER_LAPTOP && told && statuses.stream().allMatch(s -> s == 202) && slowest < 1000,
                    busyNote() + "; " + opened + " connected, " + holding + " held (at most " + most + " an address); hand-ins " + statuses + " in " + millis + " ms; the terminal said " + said.size() + " line(s)" + (said.isEmpty() ? "" : ", such as: " + said.getFirst()));
        } finally {
            for (Socket s : held) s.close();
            front.close();
            server.stop(0);
            RoomServer.limited = before;
        }
    }

    /** What the machine was doing meanwhile, said before the figures. */
    private static String busyNote() {
        return "load average " + String.format("%.1f", java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }
}
