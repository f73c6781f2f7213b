///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;

/**
 * Chapter 03's hazard: a client that half-closes (it shuts down its output and waits for its
 * answer) leaves its connection readable for ever, since a read at the end of the stream returns
 * -1 at once, every time. A loop that keeps OP_READ on then wakes from select() again and again
 * until the answer is due: a core spins. On a loopback socket pair (127.0.0.1), the client sends a
 * request and shuts down its output; the server owes an answer in 200 ms, as a pending
 * {@code /io?ms=200} would. The demo counts select() wakeups and the loop's CPU time in those
 * 200 ms, first with OP_READ left on, then taken off, and the client gets its answer both times.
 * Run it with {@code jbang exercises/demos/HalfClosedHazard.java}; it stops by itself.
 */
class HalfClosedHazard {
    static final long ANSWER_DUE_MS = 200;
    static final byte[] ANSWER = "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nConnection: close\r\n\r\nok\n"
            .getBytes(StandardCharsets.ISO_8859_1);

    /** One connection's state, as chapter 03 keeps it: the bytes read, and whether the client said all it will. */
    static final class Connection {
        final SelectionKey key;
        final SocketChannel channel;
        final ByteBuffer in = ByteBuffer.allocate(1024);
        boolean closing;

        Connection(SelectionKey key) {
            this.key = key;
            this.channel = (SocketChannel) key.channel();
        }
    }

    interface OnReadable {
        void run(Connection c) throws IOException;
    }

    // tag::wrong[]
    static void onReadableWrong(Connection c) throws IOException {
        if (c.channel.read(c.in) < 0) { // end of stream
            c.closing = true;           // answer first, close after
        }
        // OP_READ stays on: every select() reports the end again
    }
    // end::wrong[]

    // tag::right[]
    static void onReadableRight(Connection c) throws IOException {
        if (c.channel.read(c.in) < 0) { // end of stream
            c.closing = true;           // answer first, close after
            // nothing more to read: stop asking
            c.key.interestOps(c.key.interestOps() & ~SelectionKey.OP_READ);
        }
    }

    /** When the answer is due: write it, then close. */
    static void answerDue(Connection c, ByteBuffer answer) throws IOException {
        c.channel.write(answer); // short, so it fits; a long one waits for OP_WRITE
        if (c.closing && !answer.hasRemaining()) {
            c.key.cancel();      // all sent, and the client has said all it will
            c.channel.close();
        }
    }
    // end::right[]

    public static void main(String[] args) throws IOException {
        System.out.println("A client sends a request, shuts down its output, and waits " + ANSWER_DUE_MS + " ms for its answer.");
        run("OP_READ left on   (wrong)", HalfClosedHazard::onReadableWrong);
        run("OP_READ taken off (right)", HalfClosedHazard::onReadableRight);
    }

    static void run(String label, OnReadable onReadable) throws IOException {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        InetSocketAddress loopback = new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0);
        try (ServerSocketChannel server = ServerSocketChannel.open().bind(loopback);
             SocketChannel client = SocketChannel.open(server.getLocalAddress());
             SocketChannel accepted = server.accept();
             Selector selector = Selector.open()) {
            client.write(ByteBuffer.wrap("GET /io?ms=200 HTTP/1.1\r\nHost: demo\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1)));
            client.shutdownOutput(); // the half-close: "that was my last request, now answer me"

            accepted.configureBlocking(false);
            SelectionKey key = accepted.register(selector, SelectionKey.OP_READ);
            Connection c = new Connection(key);
            long due = System.nanoTime() + ANSWER_DUE_MS * 1_000_000;
            long cpuBefore = threads.getCurrentThreadCpuTime();
            long wakeups = 0;
            while (true) {
                long waitMs = Math.max(1, (due - System.nanoTime() + 999_999) / 1_000_000); // round up, at least 1 ms
                selector.select(waitMs);
                wakeups++;
                for (SelectionKey ready : selector.selectedKeys()) {
                    if (ready.isValid() && ready.isReadable()) onReadable.run(c);
                }
                selector.selectedKeys().clear();
                if (System.nanoTime() - due >= 0) break; // the answer is due
            }
            long cpuMs = (threads.getCurrentThreadCpuTime() - cpuBefore) / 1_000_000;
            answerDue(c, ByteBuffer.wrap(ANSWER));

            ByteBuffer answer = ByteBuffer.allocate(256);
            while (client.read(answer) >= 0) {
                // read until the server closes
            }
            String status = new String(answer.array(), 0, answer.position(), StandardCharsets.ISO_8859_1).lines().findFirst().orElse("nothing");
            System.out.printf("%s: select() returned %,d times in %d ms, %d ms of CPU; the client got \"%s\"%n",
                    label, wakeups, ANSWER_DUE_MS, cpuMs, status);
        }
    }
}
