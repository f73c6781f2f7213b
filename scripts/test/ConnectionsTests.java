package test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import bench.ConnectionOutcome;
import bench.Connections;
import bench.ConnectionsRace;
import bench.Opening;
import bench.Phase;
import bench.RaceOptions;
import com.sun.net.httpserver.HttpServer;
import contract.ConnectionsReport;
import contract.Plan;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Unit tests of the connections phase: source addresses, answers, when opening stops, the open-files budget, costs per connection, artefacts, causes; one real run. */
@Tag("unit")
class ConnectionsTests {
    @Test
    @DisplayName("connections: spread over source addresses 127.0.0.2, .3, ..., 70% of the ephemeral ports each (at most 20,000)")
    void sources() {
        assertEquals(19_762, Connections.perSource(28_232), "Linux's default range, 32768 to 60999");
        assertEquals(20_000, Connections.perSource(64_000));
        assertEquals(1000, Connections.perSource(500), "never fewer than 1000");
        assertEquals("127.0.0.2", Connections.source(0, 20_000).getHostAddress());
        assertEquals("127.0.0.2", Connections.source(19_999, 20_000).getHostAddress());
        assertEquals("127.0.0.3", Connections.source(20_000, 20_000).getHostAddress());
        assertEquals("127.0.0.6", Connections.source(99_999, 20_000).getHostAddress());
        assertEquals("127.0.1.0", Connections.source(254 * 1000, 1000).getHostAddress(), "past 127.0.0.255, on into 127.0.1.x");
        assertEquals(5, Connections.sources(100_000, 20_000));
        assertEquals(6, Connections.sources(100_001, 20_000));
        assertEquals(0, Connections.sources(0, 20_000));
    }

    private static ByteBuffer bytes(String s) {
        ByteBuffer b = ByteBuffer.allocate(4096);
        b.put(s.getBytes(StandardCharsets.ISO_8859_1));
        return b;
    }

    @Test
    @DisplayName("connections: an answer holds a connection when it is whole, 2xx and keeps it open; an error or a close turns it away")
    void idleAnswers() {
        assertEquals(ConnectionOutcome.HELD, ConnectionOutcome.ofAnswer(bytes("HTTP/1.1 200 OK\r\nContent-Length: 13\r\n\r\nHello, World!")));
        assertEquals(ConnectionOutcome.STILL_GOING, ConnectionOutcome.ofAnswer(bytes("HTTP/1.1 200 OK\r\nContent-Length: 13\r\n\r\nHello")));
        assertEquals(ConnectionOutcome.STILL_GOING, ConnectionOutcome.ofAnswer(bytes("HTTP/1.1 200 OK\r\nContent-Le")));
        assertEquals(ConnectionOutcome.TURNED_AWAY, ConnectionOutcome.ofAnswer(bytes("HTTP/1.1 503 Service Unavailable\r\nContent-Length: 5\r\n\r\nbusy\n")));
        assertEquals(ConnectionOutcome.TURNED_AWAY, ConnectionOutcome.ofAnswer(bytes("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok")));
    }

    @Test
    @DisplayName("connections: opening stops after so many refused or turned away in a row, and one held starts the count again")
    void turnedAwayInARow() {
        Opening o = new Opening("127.0.0.1", 1, 10, 10, 5000, 5000, 0, 3, 0, 0);
        for (int i = 0; i < 4; i++) o.started();
        for (ConnectionOutcome c : List.of(ConnectionOutcome.REFUSED, ConnectionOutcome.TURNED_AWAY, ConnectionOutcome.HELD, ConnectionOutcome.TURNED_AWAY)) {
            o.settled(c);
        }
        o.stopIfStuck(System.nanoTime());
        assertTrue(o.mayStartAnother(), "one held started the count again");
        for (int i = 0; i < 2; i++) {
            o.started();
            o.settled(ConnectionOutcome.REFUSED);
        }
        o.stopIfStuck(System.nanoTime());
        assertFalse(o.mayStartAnother());
        assertTrue(o.finished());
        Connections.Opened opened = o.opened(1, 0);
        assertEquals("the server refused or turned away the last 3 connections in a row", opened.stopped());
        assertEquals(List.of(1, 3, 2, 0, 4, 1), List.of(opened.held(), opened.refused(), opened.turnedAway(), opened.unanswered(), opened.notAttempted(),
                opened.sources()), opened.toString());
        assertFalse(opened.clientLimit());
    }

    @Test
    @DisplayName("connections: 1% active, at least one while any is held")
    void activeShare() {
        assertEquals(200, Connections.activeCount(20_000, 1));
        assertEquals(1000, Connections.activeCount(100_000, 1));
        assertEquals(1, Connections.activeCount(50, 1));
        assertEquals(0, Connections.activeCount(0, 1));
        assertEquals(3, Connections.activeCount(3, 200), "never more than are held");
    }

    @Test
    @DisplayName("connections: this process's open-files limit caps what it asks, and says what to set")
    void budget() {
        ConnectionsRace.Budget fits = ConnectionsRace.budget(10_000, 20_000, 100);
        assertEquals(10_000, fits.connections());
        assertNull(fits.note());
        ConnectionsRace.Budget capped = ConnectionsRace.budget(100_000, 20_000, 100);
        assertEquals(20_000 - 100 - ConnectionsRace.OWN_FILES, capped.connections());
        assertTrue(capped.note().contains("ulimit -Hn 101000") && capped.note().contains("limits.conf") && capped.note().contains("launchctl"),
                capped.note());
        assertEquals(101_000, ConnectionsRace.room(100_000));
    }

    @Test
    @DisplayName("connections: a cost per connection is the difference over those held, halved where both ends are this host's; none when it fell")
    void perConnection() {
        assertEquals(2.0, ConnectionsRace.perConnection(100, 2100, 1000, false));
        assertEquals(1.0, ConnectionsRace.perConnection(100, 2100, 1000, true), "both ends on this host: one end's share");
        assertNull(ConnectionsRace.perConnection(2100, 100, 1000, false), "a fall is an artefact, never a negative cost");
        assertNull(ConnectionsRace.perConnection(100, 2100, 0, false));
        assertNull(ConnectionsRace.perConnection(Double.NaN, 2100, 1000, false));
    }

    @Test
    @DisplayName("connections: the active share's lost answers are flagged past 1% and past two requests, not for one late request of a small share")
    void lostAnswers() {
        assertNull(ConnectionsRace.lost(active(45, 44)), "one of 45 unanswered: the machine's doing");
        assertNull(ConnectionsRace.lost(active(45, 43)), "two of 45");
        assertTrue(ConnectionsRace.lost(active(45, 42)).contains("42 answers of 45"), "three of 45");
        assertNull(ConnectionsRace.lost(active(6000, 5940)), "60 of 6000 is 1%");
        assertTrue(ConnectionsRace.lost(active(6000, 5900)) != null, "100 of 6000");
    }

    private static ConnectionsReport.Active active(long asked, long answered) {
        return new ConnectionsReport.Active(15, 3, asked, answered, 0, asked - answered, 0, 100.0 * answered / asked, 200.0, 210.0, 1500.0, 0);
    }

    @Test
    @DisplayName("connections: a reading that fell is noted as a measurement artefact with its cause")
    void artefacts() {
        ConnectionsReport.Cost fell = new ConnectionsReport.Cost(50e6, 40e6, null, 300L << 20, 200L << 20, null, 400_000L, 300_000L, null,
                10_000_000L, 50_000_000L, 1000.0, 20, 20, 20, 20_011, 20_000L);
        List<String> flags = ConnectionsRace.artefacts(fell, 20_000);
        assertEquals(3, flags.size(), flags.toString());
        assertTrue(flags.get(0).startsWith("heap after GC fell") && flags.get(0).contains("artefact"), flags.get(0));
        assertTrue(flags.get(1).startsWith("RSS fell from 300 to 200 MiB") && flags.get(1).contains("gave memory back"), flags.get(1));
        assertTrue(flags.get(2).contains("others closed"), flags.get(2));
        ConnectionsReport.Cost grew = new ConnectionsReport.Cost(40e6, 50e6, 500.0, 200L << 20, 300L << 20, 5000.0, 0L, 0L, 0.0,
                10_000_000L, 50_000_000L, 1000.0, 20, 20, 20, 20_011, 20_000L);
        assertTrue(ConnectionsRace.artefacts(grew, 20_000).isEmpty());
    }

    @Test
    @DisplayName("connections: why fewer were held: the server's files (EMFILE), the load generator's, refusals, timeouts, an exit")
    void causes() {
        Connections.Opened all = new Connections.Opened(1000, 1000, 0, 0, 0, 0, 0, 1, 1, null, false);
        assertNull(ConnectionsRace.cause(all, true, 1011, 20_000L));
        Connections.Opened emfile = new Connections.Opened(100_000, 19_989, 0, 0, 0, 11, 80_000, 2, 8, "the server answered nothing for 5 s", false);
        assertTrue(ConnectionsRace.cause(emfile, true, 20_000, 20_000L).startsWith("the server's open-files limit (EMFILE): 20,000 of its 20,000"),
                ConnectionsRace.cause(emfile, true, 20_000, 20_000L));
        assertTrue(ConnectionsRace.cause(emfile, true, 20_000, 20_000L).contains("11 unanswered"));
        Connections.Opened client = new Connections.Opened(100_000, 19_700, 0, 0, 0, 0, 80_300, 1, 8, "this process (the load generator) cannot open more sockets", true);
        String why = ConnectionsRace.cause(client, true, 19_711, 20_000L);
        assertTrue(why.startsWith("the load generator's own limit") && !why.contains("EMFILE"), why);
        assertTrue(ConnectionsRace.cause(client, false, null, null).startsWith("the server exited"));
        Connections.Opened turned = new Connections.Opened(30_000, 20_000, 0, 0, 1000, 0, 9000, 2, 9, "the server refused or turned away the last 1000", false);
        assertTrue(ConnectionsRace.cause(turned, true, 20_011, 1_048_576L).contains("1,000 turned away"));
        assertTrue(ConnectionsRace.shortfall(turned).startsWith("held 20,000 of 30,000"), ConnectionsRace.shortfall(turned));
    }

    @Test
    @DisplayName("connections: the kernel's TCP buffer pages from /proc/net/sockstat, its TCP sockets from /proc/slabinfo")
    void kernel() {
        String sockstat = "sockets: used 40\nTCP: inuse 2 orphan 0 tw 7780 alloc 3 mem 380\nUDP: inuse 0 mem 0\n";
        assertEquals(380, ConnectionsRace.tcpMemPages(sockstat));
        assertEquals(-1, ConnectionsRace.tcpMemPages("sockets: used 40\n"));
        String slab = "slabinfo - version: 2.1\n# name <active_objs> <num_objs> <objsize> ...\n"
                + "TCPv6                105    156   2496   13    8 : tunables    0    0    0 : slabdata     12     12      0\n"
                + "TCP                   79    143   2368   13    8 : tunables    0    0    0 : slabdata     11     11      0\n"
                + "filp                 658    693    192   21    1 : tunables    0    0    0 : slabdata     33     33      0\n";
        assertEquals(105L * 2496 + 79L * 2368, ConnectionsRace.tcpSlabBytes(slab));
        assertEquals(-1, ConnectionsRace.tcpSlabBytes("filp 658 693 192\n"));
    }

    @Test
    @DisplayName("connections: --connections takes the mode's default (2000 smoke, 20,000 quick, 100,000 thorough) or N, and no workloads")
    void option() {
        assertEquals(new Phase.Connecting(20_000), RaceOptions.parse(new String[] {"03", "--connections"}).phase());
        assertEquals(new Phase.Connecting(100_000), RaceOptions.parse(new String[] {"03", "--connections", "--thorough"}).phase());
        assertEquals(new Phase.Connecting(2000), RaceOptions.parse(new String[] {"--all", "--smoke", "--connections"}).phase());
        RaceOptions n = RaceOptions.parse(new String[] {"--all", "--connections", "100_000", "--quick"});
        assertEquals(new Phase.Connecting(100_000), n.phase());
        assertTrue(n.workloads().isEmpty(), "it brings its own load");
        assertTrue(n.phase().ownLoad());
        assertEquals("--connections", n.phase().option());
        assertEquals(ConnectionsRace.WORKLOAD, n.phase().splitBy());
        assertTrue(n.phase().describe(n.mode()).contains("100,000 keep-alive connections"), n.phase().describe(n.mode()));
        assertEquals(100_000 / 2500.0 + 30 + ConnectionsRace.TIMEOUT_SECONDS + 12, new Phase.Connecting(100_000).secondsPerServer(Plan.Pace.THOROUGH.mode()));
    }

    @Test
    @Timeout(30)
    @DisplayName("connections: 150 real connections from three source addresses to a tiny server, held, 10% talking, all closed")
    void real() throws Exception {
        Set<String> from = ConcurrentHashMap.newKeySet();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 1024);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", exchange -> {
            from.add(exchange.getRemoteAddress().getAddress().getHostAddress());
            if (exchange.getRequestURI().getPath().equals("/io")) {
                try {
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            byte[] body = "hello\n".getBytes(StandardCharsets.US_ASCII);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        int port = server.getAddress().getPort();
        try (Connections c = new Connections()) {
            Connections.Opened o = c.open("127.0.0.1", port, 150, 50, 5000, 3000, 50, 100);
            assertEquals(150, o.held(), o.toString());
            assertNull(o.stopped(), o.toString());
            assertEquals(3, o.sources());
            assertEquals(Set.of("127.0.0.2", "127.0.0.3", "127.0.0.4"), from, "50 connections from each source address");
            Connections.Active a = c.talk("127.0.0.1", port, "/io?ms=200", 10, 2, 2000);
            assertEquals(15, a.connections());
            assertEquals(30, a.asked(), a.toString());
            assertEquals(30, a.answered(), a.toString());
            assertTrue(a.p99Ms() >= 200 && a.p99Ms() < 2000, a.toString());
            assertEquals(150, c.held());
            assertEquals(0, c.closedByServer());
        } finally {
            server.stop(0);
        }
    }
}
