///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
//SOURCES ../exercises/kit/Kit.java

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.PriorityQueue;

/** Chapter 03: one thread, one Selector, every connection: a single-threaded reactor. */
class ReactorServer {
    public static void main(String[] args) throws IOException {
        Options options = Kit.start("03-reactor", args);
        // Configure the server.
        try (Selector selector = Selector.open(); ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(options.address(), 1024);
            server.configureBlocking(false);
            server.register(selector, SelectionKey.OP_ACCEPT);
            options.ready(server.socket().getLocalPort());
            // Start the loop; it never returns.
            new Loop(selector).run();
        }
    }
}

/** The event loop: waits for ready channels or the next timer, and handles both, on one thread. */
final class Loop {
    /** A task to run at a deadline (System.nanoTime()). */
    record Timer(long deadline, Runnable task) {}

    private final Selector selector;
    private final PriorityQueue<Timer> timers = new PriorityQueue<>((a, b) -> Long.compare(a.deadline(), b.deadline()));

    Loop(Selector selector) {
        this.selector = selector;
    }

    // tag::loop[]
    void run() throws IOException {
        while (true) {
            // Why: sleep in select() until a channel is ready or the next timer is due; never spin.
            Timer next = timers.peek();
            long waitMs = next == null ? 0 : Math.max(1, (next.deadline() - System.nanoTime() + 999_999) / 1_000_000);
            selector.select(waitMs);
            for (SelectionKey key : selector.selectedKeys()) {
                try {
                    if (!key.isValid()) continue;
                    if (key.isAcceptable()) accept(key);
                    if (key.isValid() && key.isReadable()) ((Connection) key.attachment()).onReadable();
                    if (key.isValid() && key.isWritable()) ((Connection) key.attachment()).onWritable();
                } catch (IOException e) {
                    if (key.attachment() instanceof Connection c) c.close(); // Why: a broken client costs its connection only.
                }
            }
            selector.selectedKeys().clear();
            runDueTimers();
        }
    }
    // end::loop[]

    private void accept(SelectionKey key) throws IOException {
        SocketChannel channel;
        while ((channel = acceptOrPause(key)) != null) {
            channel.configureBlocking(false);
            channel.setOption(java.net.StandardSocketOptions.TCP_NODELAY, true);
            SelectionKey connectionKey = channel.register(selector, SelectionKey.OP_READ);
            connectionKey.attach(new Connection(this, connectionKey));
        }
    }

    /** The next connection, or null: none waits, or accept() failed and the loop stops accepting for a while. */
    private SocketChannel acceptOrPause(SelectionKey key) {
        try {
            return ((ServerSocketChannel) key.channel()).accept();
        } catch (IOException e) {
            // Why: out of file descriptors, accept() fails while the socket stays ready, so select()
            // would return at once, for ever: a core spins. Stop asking, and ask again a moment later.
            key.interestOps(0);
            schedule(Kit.ACCEPT_PAUSE_MS, () -> {
                if (key.isValid()) key.interestOps(SelectionKey.OP_ACCEPT);
            });
            return null;
        }
    }

    /** Read buffers that no connection holds: lent for a read, given back once parsed (a few kept). */
    private final ArrayDeque<ByteBuffer> buffers = new ArrayDeque<>();

    /** An empty 16 KiB read buffer: one given back earlier, or a new one. */
    ByteBuffer lend() {
        ByteBuffer b = buffers.poll();
        return b != null ? b : ByteBuffer.allocate(16 * 1024);
    }

    /** Takes a read buffer back; keeps up to 16 for the next reads, as Netty's allocator (adaptive in 4.2, pooled in 4.1) keeps its buffers. */
    void takeBack(ByteBuffer b) {
        b.clear();
        if (buffers.size() < 16) buffers.push(b);
    }

    // tag::timers[]
    /** Runs {@code task} on this loop after {@code millis} ms, without blocking anyone meanwhile. */
    void schedule(long millis, Runnable task) {
        timers.add(new Timer(System.nanoTime() + millis * 1_000_000, task));
    }

    private void runDueTimers() {
        long now = System.nanoTime();
        while (!timers.isEmpty() && timers.peek().deadline() <= now) {
            timers.poll().task().run();
        }
    }
    // end::timers[]
}

/** One connection's state machine: bytes in, requests parsed, responses out in request order. */
final class Connection {
    /** Requests answered but not yet sent, at most; beyond it, stop reading (backpressure). */
    static final int MAX_PENDING = 16;

    /** A response in its request's place: filled now, or when its timer fires. */
    static final class Slot {
        Response.Outgoing out;
    }

    private final Loop loop;
    private final SelectionKey key;
    private final SocketChannel channel;
    private final RequestParser parser = new RequestParser();
    private ByteBuffer in;     // bytes read, not parsed yet: a buffer the loop lends while they wait, else null
    private final ArrayDeque<Slot> pending = new ArrayDeque<>();
    private boolean closing;   // a response said close: read no more, close once it is sent
    private boolean closed;
    private boolean parsing;   // inside parseBuffered: the buffer is flipped for reading

    Connection(Loop loop, SelectionKey key) {
        this.loop = loop;
        this.key = key;
        this.channel = (SocketChannel) key.channel();
    }

    // tag::read[]
    void onReadable() throws IOException {
        if (in == null) in = loop.lend(); // Why: an idle connection holds no buffer; the loop lends one to read into.
        int n = channel.read(in);
        if (n < 0) {             // the client closed its side
            if (pending.isEmpty()) {
                close();
            } else {
                closing = true;   // Why: answer what it asked before closing.
                updateInterest(); // Why: readiness is level-triggered; with OP_READ still on, end of stream wakes every select().
            }
            giveBackIfEmpty();
            return;
        }
        parseBuffered();
    }

    /** Parses every complete request in the buffer, while there is room to answer them. */
    private void parseBuffered() throws IOException {
        in.flip();
        parsing = true;
        try {
            Request request;
            while (!closing && pending.size() < MAX_PENDING && (request = parser.parse(in)) != null) {
                handle(request);
            }
        } catch (HttpError e) {
            answer(new Slot(), e.response());
        } finally {
            in.compact(); // Why: bytes of a request not parsed yet stay for the next round.
            parsing = false;
        }
        giveBackIfEmpty();
        updateInterest();
    }

    /** Gives the buffer back to the loop once no byte waits in it (or the connection is closed). */
    private void giveBackIfEmpty() {
        if (in != null && !parsing && (in.position() == 0 || closed)) {
            loop.takeBack(in);
            in = null;
        }
    }
    // end::read[]

    // tag::handle[]
    private void handle(Request request) throws IOException {
        Slot slot = new Slot();
        pending.add(slot);       // Why: its place in line, so responses go out in request order.
        Endpoints.Work work;
        try {
            work = Endpoints.plan(request);
        } catch (RuntimeException e) {
            answer(slot, Response.serverError(e));
            return;
        }
        switch (work) {
            case Endpoints.Ready r -> answer(slot, r.response());
            case Endpoints.Wait w -> loop.schedule(w.millis(), () -> answerLater(slot, w.response()));
            case Endpoints.Burn b -> {
                Endpoints.burnCpu(b.millis()); // Why not: this blocks the loop for everyone; 04 confines it to one loop, 06 moves it off.
                answer(slot, b.response());
            }
        }
    }
    // end::handle[]

    private void answerLater(Slot slot, Response response) {
        try {
            answer(slot, response);
        } catch (IOException e) {
            close();
        }
    }

    private void answer(Slot slot, Response response) throws IOException {
        if (closed) return;
        if (!pending.contains(slot)) pending.add(slot);
        slot.out = response.outgoing();
        if (response.closes()) closing = true;
        flush();
    }

    void onWritable() throws IOException {
        flush();
    }

    // tag::write[]
    /** Sends finished responses from the head of the line, as far as the socket takes them. */
    private void flush() throws IOException {
        while (!pending.isEmpty() && pending.peek().out != null) {
            if (!pending.peek().out.writeTo(channel)) {
                updateInterest();  // Why: the socket is full; OP_WRITE says when it has room again.
                return;
            }
            boolean last = pending.poll().out.response().closes();
            if (last) {
                close();
                return;
            }
        }
        if (closing && pending.isEmpty()) {
            close();
            return;
        }
        if (!parsing && in != null && pending.size() < MAX_PENDING && !closing) {
            parseBuffered();       // Why: requests that waited in the buffer while we were full.
            return;
        }
        updateInterest();
    }
    // end::write[]

    /** Read while there is room for answers; write only while a ready response waits. */
    private void updateInterest() {
        if (closed) return;
        boolean writing = !pending.isEmpty() && pending.peek().out != null;
        boolean reading = !closing && pending.size() < MAX_PENDING;
        key.interestOps((reading ? SelectionKey.OP_READ : 0) | (writing ? SelectionKey.OP_WRITE : 0));
    }

    // tag::close[]
    void close() {
        if (closed) return;
        closed = true;
        giveBackIfEmpty();
        key.cancel();
        try {
            channel.close(); // Why: a cancelled key alone leaks the socket's file descriptor.
        } catch (IOException e) {
            // closing anyway
        }
    }
    // end::close[]
}
