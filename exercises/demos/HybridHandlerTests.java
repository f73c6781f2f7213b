///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
//DEPS io.netty:netty-codec-http:4.2.20.Final
//DEPS org.junit.jupiter:junit-jupiter:5.14.2
//DEPS org.junit.platform:junit-platform-launcher:1.14.2
//SOURCES ../06-netty-hybrid.java
//MAIN HybridHandlerTests

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.flow.FlowControlHandler;
import io.netty.handler.stream.ChunkedWriteHandler;
import io.netty.handler.timeout.IdleStateHandler;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * Chapter 06's HybridHandler tested without a socket or a server, in a second: JUnit 5 tests of
 * the handler that exercises/06-netty-hybrid.java holds, each on Netty's EmbeddedChannel.
 *
 * <p>An EmbeddedChannel has no socket and no thread of its own: its event loop is the test's
 * thread, and runs only when the test asks (writeInbound, runPendingTasks,
 * runScheduledPendingTasks). Its queue of tasks has no lock, so each test lets one piece of work
 * run off the loop at a time, and touches the channel only to wait for that work's task.
 *
 * <p>Run: jbang exercises/demos/HybridHandlerTests.java [TEST ...]. Exit 0 when every test
 * passes, 1 otherwise. scripts/check.sh 06 grades the real server over real sockets.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class HybridHandlerTests {
    static final int IDLE_MILLIS = 3000;

    /** One answer: its status and its body. */
    record Answer(int status, String body) {
        @Override
        public String toString() {
            return status + " '" + body.replace("\n", "\\n") + "'";
        }
    }

    /** A connection to the handler with no socket: the chapter's pipeline on an EmbeddedChannel. */
    static final class Connection {
        final EmbeddedChannel channel;
        /** The threads that wrote toward the socket, one per write. */
        final List<Thread> writers = new CopyOnWriteArrayList<>();
        private final ByteArrayOutputStream received = new ByteArrayOutputStream();

        // tag::channel[]
        Connection() {
            channel = new EmbeddedChannel(
                    new ChannelOutboundHandlerAdapter() { // where the socket would be: notes who writes
                        @Override
                        public void write(ChannelHandlerContext ctx, Object message, ChannelPromise promise) {
                            writers.add(Thread.currentThread());
                            ctx.write(message, promise);
                        }
                    },
                    new IdleStateHandler(true, 0, 0, IDLE_MILLIS, TimeUnit.MILLISECONDS), // the timeouts step puts it in yours
                    new NettyHttp.Decoder(),
                    new FlowControlHandler(),
                    new ChunkedWriteHandler(),
                    new HybridHandler());           // yours, from exercises/06-netty-hybrid.java
        }

        /** The client sends these bytes; the loop reads them (and runs its queued tasks) now, on this thread. */
        void send(String requests) {
            channel.writeInbound(Unpooled.copiedBuffer(requests, ISO_8859_1));
        }

        /**
         * Waits up to {@code millis} for {@code n} answers in all. The work off the loop hands its
         * answer back as a task for the loop; the loop is this thread, so run it once it is there.
         */
        List<Answer> await(int n, long millis) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
            List<Answer> answers = answers();
            while (answers.size() < n && System.nanoTime() < deadline) {
                Thread.sleep(5);
                if (channel.hasPendingTasks()) channel.runPendingTasks(); // the loop's turn
                answers = answers();
            }
            return answers;
        }
        // end::channel[]

        /** Every whole answer written so far, parsed from what left the channel. */
        List<Answer> answers() {
            for (Object out; (out = channel.readOutbound()) != null; ) {
                ByteBuf bytes = (ByteBuf) out;
                byte[] copy = new byte[bytes.readableBytes()];
                bytes.readBytes(copy);
                bytes.release();
                received.writeBytes(copy);
            }
            String text = received.toString(ISO_8859_1);
            List<Answer> answers = new ArrayList<>();
            int at = 0;
            while (true) {
                int headEnd = text.indexOf("\r\n\r\n", at);
                if (headEnd < 0) break;
                String head = text.substring(at, headEnd);
                int length = head.lines().filter(l -> l.regionMatches(true, 0, "Content-Length:", 0, 15))
                        .mapToInt(l -> Integer.parseInt(l.substring(15).strip())).findFirst().orElse(0);
                if (text.length() < headEnd + 4 + length) break;
                int status = Integer.parseInt(head.substring(9, 12));
                answers.add(new Answer(status, text.substring(headEnd + 4, headEnd + 4 + length)));
                at = headEnd + 4 + length;
            }
            return answers;
        }

        /** Every thread that wrote, other than this one (in an EmbeddedChannel, the event loop is this thread). */
        List<String> writersOffTheLoop() {
            return writers.stream().filter(t -> t != Thread.currentThread()).map(Thread::toString).distinct().toList();
        }
    }

    static String get(String target) {
        return "GET " + target + " HTTP/1.1\r\nHost: test\r\n\r\n";
    }

    @Test
    @Order(1)
    @DisplayName("answers GET / at once, from the event loop")
    void answersReadyWorkAtOnce() {
        Connection c = new Connection();
        c.send(get("/"));
        List<Answer> answers = c.answers();
        assertEquals(List.of(new Answer(200, "Hello, World!")), answers,
                "right after channelRead of GET /: an answer that needs no work is written and flushed on the loop");
        assertEquals(List.of(), c.writersOffTheLoop(), "threads other than the event loop wrote");
    }

    @Test
    @Order(2)
    @DisplayName("answers /io?ms=50 once its work hands the answer back to the event loop")
    void answersWaitFromTheLoop() throws InterruptedException {
        Connection c = new Connection();
        c.send(get("/io?ms=50"));
        List<Answer> answers = c.await(1, 1000);
        assertEquals(List.of(new Answer(200, "waited 50 ms\n")), answers, "the answers within 1 s");
        assertEquals(List.of(), c.writersOffTheLoop(), "threads other than the event loop wrote the answer: "
                + "hand the response back with ctx.executor().execute(...), and write it there");
    }

    // tag::in-order[]
    @Test
    @Order(3)
    @DisplayName("answers pipelined /io?ms=200 then / in request order, though / is ready first")
    void keepsPipelinedAnswersInOrder() throws InterruptedException {
        Connection c = new Connection();
        c.send(get("/io?ms=200") + get("/"));        // two requests in one read
        List<Answer> answers = c.await(2, 1000);
        assertEquals(List.of(new Answer(200, "waited 200 ms\n"), new Answer(200, "Hello, World!")), answers,
                "the answers, in the order they left: each must wait for the answers to the requests before it");
    }
    // end::in-order[]

    @Test
    @Order(4)
    @DisplayName("returns from channelRead at once for /io?ms=500 and for /cpu?ms=300: the loop never waits for the work")
    void neverBlocksTheLoop() {
        for (String target : List.of("/io?ms=500", "/cpu?ms=300")) {
            Connection c = new Connection();
            long start = System.nanoTime();
            c.send(get(target));
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(millis < 100, "channelRead of GET " + target + " returned after " + millis
                    + " ms: the event loop did the work, and every other connection of the loop waited");
        }
    }

    // tag::writability[]
    @Test
    @Order(5)
    @DisplayName("stops reading while the channel is not writable, and reads again once it is")
    void stopsReadingWhileNotWritable() {
        Connection c = new Connection();
        c.channel.config().setWriteBufferWaterMark(new WriteBufferWaterMark(8 * 1024, 32 * 1024));
        ChannelHandlerContext socketSide = c.channel.pipeline().firstContext();
        socketSide.write(Unpooled.wrappedBuffer(new byte[64 * 1024])); // 64 KiB queued, not flushed: a client that does not read
        assertFalse(c.channel.isWritable(), "64 KiB queued over a high-water mark of 32 KiB");
        assertFalse(c.channel.config().isAutoRead(),
                "autoRead is still on while the channel is not writable: a client that reads nothing is still read");
        socketSide.flush();                                              // the client reads it all
        c.channel.runPendingTasks();
        assertTrue(c.channel.isWritable(), "the queue flushed");
        assertTrue(c.channel.config().isAutoRead(), "autoRead is still off once the channel is writable again: "
                + "the connection never reads its next request");
        c.channel.finishAndReleaseAll();
    }
    // end::writability[]

    // tag::idle[]
    @Test
    @Order(6)
    @DisplayName("closes a connection idle for the idle timeout, but not one whose work is in flight")
    void closesIdleConnections() throws InterruptedException {
        Connection quiet = new Connection();
        quiet.channel.advanceTimeBy(IDLE_MILLIS, TimeUnit.MILLISECONDS); // the channel's clock: 3 s pass at once
        quiet.channel.runScheduledPendingTasks();                           // IdleStateHandler sees it: an IdleStateEvent
        assertFalse(quiet.channel.isOpen(), "a connection that waits for nothing is still open after its IdleStateEvent");

        Connection waiting = new Connection();
        waiting.send(get("/io?ms=100"));
        waiting.channel.advanceTimeBy(IDLE_MILLIS, TimeUnit.MILLISECONDS);
        waiting.channel.runScheduledPendingTasks();
        assertTrue(waiting.channel.isOpen(), "a connection whose /io is in flight was closed on its IdleStateEvent");
        assertEquals(1, waiting.await(1, 1000).size(), "answers to the /io once its work is done");
    }
    // end::idle[]

    // tag::release[]
    @Test
    @Order(7)
    @DisplayName("gives back a POST's buffer on every path: answered, and behind an answer that closes the connection")
    void releasesUploads() {
        List<NettyHttp.Upload> uploads = new ArrayList<>();
        EmbeddedChannel channel = new EmbeddedChannel(
                new NettyHttp.Decoder(),
                new ChannelInboundHandlerAdapter() { // notes each Upload on its way to your handler
                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object message) {
                        if (message instanceof NettyHttp.Upload upload) uploads.add(upload);
                        ctx.fireChannelRead(message);
                    }
                },
                new ChunkedWriteHandler(),
                new HybridHandler());
        String post = "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello";
        channel.writeInbound(Unpooled.copiedBuffer(post, ISO_8859_1));
        assertEquals(1, uploads.size(), "the decoder made one Upload");
        assertEquals(0, uploads.get(0).refCnt(), "the Upload still holds its buffer once channelRead has returned: nothing released it");
        // In one read: a request answered at once with a close, then a body that arrives while the connection is closing.
        channel.writeInbound(Unpooled.copiedBuffer("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n" + post, ISO_8859_1));
        assertEquals(2, uploads.size(), "the decoder made a second Upload, behind GET / with Connection: close");
        assertEquals(0, uploads.get(1).refCnt(), "a body read behind an answer that closes the connection still holds its buffer:"
                + " an early return (the connection is closing) skipped the release; release on every path, in a finally");
        channel.finishAndReleaseAll(); // and what was written toward the socket
    }
    // end::release[]

    /** Runs the tests (all, or those named), prints a line per test and a summary; exit 0 when all pass. */
    public static void main(String[] args) {
        List<DiscoverySelector> selectors = args.length == 0 ? List.of(selectClass(HybridHandlerTests.class))
                : Arrays.stream(args).map(name -> (DiscoverySelector) selectMethod(HybridHandlerTests.class, name)).toList();
        for (String name : args) {
            if (Arrays.stream(HybridHandlerTests.class.getDeclaredMethods()).noneMatch(m -> m.getName().equals(name)
                    && m.isAnnotationPresent(Test.class))) {
                System.err.println("no test named " + name);
                System.exit(2);
            }
        }
        System.out.println("Chapter 06's HybridHandler on an EmbeddedChannel: no socket, no server");
        int[] counts = new int[2];
        long[] started = new long[1];
        LauncherFactory.create().execute(LauncherDiscoveryRequestBuilder.request().selectors(selectors).build(),
                new TestExecutionListener() {
                    @Override
                    public void executionStarted(TestIdentifier id) {
                        started[0] = System.nanoTime();
                    }

                    @Override
                    public void executionFinished(TestIdentifier id, TestExecutionResult result) {
                        if (!id.isTest()) return;
                        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started[0]);
                        boolean ok = result.getStatus() == TestExecutionResult.Status.SUCCESSFUL;
                        counts[ok ? 0 : 1]++;
                        System.out.println("  " + (ok ? "PASS" : "FAIL") + "  " + id.getDisplayName() + " (" + ms + " ms)");
                        if (ok) return;
                        String why = result.getThrowable().map(t -> String.valueOf(t.getMessage())).orElse("failed")
                                .replaceAll(" ==> expected: <(true|false)> but was: <(true|false)>$", "").strip();
                        System.out.println("        " + why.replace("\n", "\n        "));
                        String method = id.getLegacyReportingName().replace("()", "");
                        System.out.println("        alone: jbang exercises/demos/HybridHandlerTests.java " + method);
                    }
                });
        System.out.println("  " + counts[0] + " passed, " + counts[1] + " failed");
        System.exit(counts[1] == 0 && counts[0] > 0 ? 0 : 1);
    }
}
