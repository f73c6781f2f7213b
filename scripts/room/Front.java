package room;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The room's door on the network. The JDK's server counts no connections by address, so a
 * machine that opens thousands and sends nothing holds the room at its open-files limit. The
 * door takes each connection first: at most {@link #PER_LAPTOP} at once from one laptop
 * ({@link Claims#laptop}) and {@link #AT_MOST} in all; past that, a connection is closed as
 * soon as it is accepted, and the room's terminal says so, once a minute for each laptop.
 * Each connection it keeps is passed on, byte for byte (TLS and all), to the room's server on
 * this machine, which learns from {@link #peer} whose it is.
 */
public final class Front implements AutoCloseable {
    /** Connections one laptop may hold at once: a learner's copy uses one, a browser six. */
    public static final int PER_LAPTOP = 8;
    /** Connections the door holds at once, in all: each takes three files of the room's (the learner's, and both ends to the server). */
    static final int AT_MOST = 1024;
    /** How often the terminal hears of one laptop's connections closed. */
    static final Duration SAID_EVERY = Duration.ofMinutes(1);

    /** Every door open in this process, by the port of the server it passes connections to. */
    private static final Map<Integer, Front> DOORS = new ConcurrentHashMap<>();

    private final ServerSocket door;
    private final InetSocketAddress server;
    private final Predicate<InetAddress> limited;
    private final Consumer<String> say;
    private final Map<String, AtomicInteger> open = new ConcurrentHashMap<>();
    private final AtomicInteger total = new AtomicInteger();
    /** Whose each connection to the server is: the door's end of it (its address and port) to the learner's address. */
    private final Map<InetSocketAddress, InetAddress> peers = new ConcurrentHashMap<>();
    private final Map<String, Instant> said = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> closed = new ConcurrentHashMap<>();

    private Front(ServerSocket door, InetSocketAddress server, Predicate<InetAddress> limited, Consumer<String> say) {
        this.door = door;
        this.server = server;
        this.limited = limited;
        this.say = say;
    }

    /** Opens the door on {@code host:port} (0: any free port) to the room's {@code server}; laptops {@code limited} are counted. */
    public static Front open(String host, int port, InetSocketAddress server, Predicate<InetAddress> limited, Consumer<String> say) throws IOException {
        ServerSocket door = new ServerSocket();
        door.setReuseAddress(true);
        door.bind(new InetSocketAddress(host, port), 512);
        Front front = new Front(door, server, limited, say);
        DOORS.put(server.getPort(), front);
        Thread.ofPlatform().daemon().name("room-door").start(front::accept);
        return front;
    }

    public int port() {
        return door.getLocalPort();
    }

    /**
     * Whose a request is: the learner's address, when the room's server at {@code local} got it
     * through a door from {@code remote}; else {@code remote}'s own.
     */
    static InetAddress peer(InetSocketAddress local, InetSocketAddress remote) {
        Front front = local == null ? null : DOORS.get(local.getPort());
        InetAddress learner = front == null ? null : front.peers.get(remote);
        return learner != null ? learner : remote.getAddress();
    }

    /** Connections held now from the laptop of {@code address}. */
    public int holding(InetAddress address) {
        AtomicInteger n = open.get(Claims.laptop(address));
        return n == null ? 0 : n.get();
    }

    private void accept() {
        while (!door.isClosed()) {
            Socket learner;
            try {
                learner = door.accept();
            } catch (IOException e) {
                if (door.isClosed()) return;
                try { // out of files for a moment: the next accept may do, once some are closed
                    Thread.sleep(50);
                } catch (InterruptedException stop) {
                    return;
                }
                continue;
            }
            InetAddress from = learner.getInetAddress();
            String laptop = Claims.laptop(from);
            boolean counted = limited.test(from);
            AtomicInteger mine = open.computeIfAbsent(laptop, k -> new AtomicInteger());
            boolean over = total.incrementAndGet() > AT_MOST | (counted ? mine.incrementAndGet() > PER_LAPTOP : false);
            if (over) {
                release(laptop, counted);
                refuse(learner, laptop);
                continue;
            }
            Thread.ofVirtual().name("room-door-" + laptop).start(() -> pass(learner, laptop, counted));
        }
    }

    /** Closes a connection over the limits at once (a reset, so it holds nothing here), and says so once a minute a laptop. */
    private void refuse(Socket learner, String laptop) {
        try {
            learner.setSoLinger(true, 0);
            learner.close();
        } catch (IOException e) {
            // closed either way
        }
        int n = closed.computeIfAbsent(laptop, k -> new AtomicInteger()).incrementAndGet();
        Instant now = Instant.now(), last = said.get(laptop);
        if (last == null || now.isAfter(last.plus(SAID_EVERY))) {
            said.put(laptop, now);
            closed.get(laptop).set(0);
            say.accept(total.get() >= AT_MOST
                    ? "the room holds " + AT_MOST + " connections, its most: it closes new ones (" + n + " from " + laptop + " since the last word)"
                    : laptop + " opened more than " + PER_LAPTOP + " connections at once: the room closes the rest (" + n + " since the last word)");
        }
    }

    private void release(String laptop, boolean counted) {
        total.decrementAndGet();
        if (counted) open.get(laptop).decrementAndGet();
    }

    /** Passes one connection on to the server and back, till either end closes it. */
    private void pass(Socket learner, String laptop, boolean counted) {
        InetSocketAddress mine = null;
        try (learner; Socket room = new Socket()) {
            room.bind(new InetSocketAddress(server.getAddress(), 0));
            room.connect(server, 5000);
            mine = (InetSocketAddress) room.getLocalSocketAddress();
            peers.put(mine, learner.getInetAddress());
            // The server's end closes the whole connection (an idle one, or one it is done with): the learner's too.
            Thread back = Thread.ofVirtual().name("room-door-back").start(() -> copy(room, learner, true));
            copy(learner, room, false);
            back.join();
        } catch (IOException e) {
            // the server is gone, or the learner: nothing to pass on
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (mine != null) peers.remove(mine);
            release(laptop, counted);
        }
    }

    /** Copies {@code from} to {@code to} till {@code from} ends, then ends {@code to}'s output, or closes both when {@code last}; a failure closes both. */
    private static void copy(Socket from, Socket to, boolean last) {
        byte[] buffer = new byte[16 * 1024];
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            for (int n; (n = in.read(buffer)) >= 0; ) {
                out.write(buffer, 0, n);
                out.flush();
            }
            if (!last) {
                to.shutdownOutput();
                return;
            }
        } catch (IOException e) {
            // closed below
        }
        closeQuietly(from);
        closeQuietly(to);
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // closing anyway
        }
    }

    @Override
    public void close() throws IOException {
        DOORS.remove(server.getPort(), this);
        door.close();
    }
}
