package checks;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import lib.Target;

/** Chapter 01, the blocking server: what a one-connection-at-a-time server must still get right. */
@Check.Suite
public class Ch01Checks {
    /** The server under test, handed in by the run ({@link RunContext}). */
    private final Target target;

    Ch01Checks(Target target) {
        this.target = target;
    }

    @Check(order = 1, title = "serves a second client after the first one closes",
           hint = "After one connection ends, the server must go back to accept() for the next one.",
           see = "chapters/01-blocking#the-accept-loop")
    void secondClient() throws Exception {
        Client.get(target, "/").assertStatus(200); // the first client: one request, then it closes
        assertEquals(200, Client.get(target, "/").status(), "the second client, connecting after the first closed, was not served");
    }

    // tag::burst[]
    @Check(order = 2, title = "accepts a burst of 100 connections while busy (listen backlog)",
           hint = "While the server is busy, the OS queues new connections up to the listen backlog; beyond it, a "
            + "connection attempt is dropped and retried a second later. What backlog does bind(address) use?",
           see = "chapters/01-blocking#the-backlog")
    void burst() throws Exception {
        Target t = target;
        try (Client busy = Client.connect(target)) {
            busy.send(Client.request("GET", "/io?ms=2000")); // keeps the one thread busy for 2 s
            Thread.sleep(200);
            List<Future<Boolean>> attempts = new ArrayList<>();
            List<Socket> sockets = java.util.Collections.synchronizedList(new ArrayList<>());
            try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
                for (int i = 0; i < 100; i++) {
                    attempts.add(pool.submit(() -> {
                        Socket s = new Socket();
                        sockets.add(s);
                        try {
                            s.connect(new InetSocketAddress(t.host, t.port), 700); // a dropped SYN is retried after 1 s
                            return true;
                        } catch (java.io.IOException e) {
                            return false;
                        }
                    }));
                }
            }
            int refused = 0;
            for (Future<Boolean> f : attempts) if (!f.get()) refused++;
            for (Socket s : sockets) s.close();
            assertEquals(0, refused, refused + " of 100 connections were not accepted within 0.7 s while the server was busy");
        }
    }
    // end::burst[]
}
