package checks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import lib.Inspect;
import lib.Target;
import lib.Unavailable;

/**
 * Chapter 06, Netty and virtual threads, started with --loops 2 --idle-timeout 3000 --header-timeout 1500. The checks that stall a server
 * whose event loops block come last, so they do not stall the others.
 */
@Check.Suite
class Ch06Checks {
    /** The server under test, handed in by the run ({@link RunContext}). */
    private final Target target;

    Ch06Checks(Target target) {
        this.target = target;
    }
    static final int LOOPS = 2;
    static final int IDLE_MS = 2000;
    static final int HEADER_MS = 1500;
    static final long MIB = 1024 * 1024;

    /**
     * The basic check of the chapter: an answer a worker hands back reaches the client by itself.
     * Written and not flushed, it waits in Netty's outbound buffer until something flushes: here
     * the next request's read, which the check sends to tell an unflushed answer from none at all.
     */
    @Check(order = 0, basic = true, title = "sends an answer that work off the loop hands back at once: it is flushed, not left for the next read",
           hint = "ctx.write() only queues an answer in the channel's outbound buffer; a flush sends it. An answer a worker hands back "
            + "arrives in a task of its own, outside any read, so channelReadComplete does not follow it: flush where you write it "
            + "(ctx.flush() at the end of the task, or ctx.writeAndFlush). Every check that waits on /io, /db or /cpu builds on this one.",
           see = "chapters/06-netty-hybrid#answers-in-order")
    void flushes() throws Exception {
        try (Client c = Client.connect(target, 2000)) {
            c.send(Client.request("GET", "/io?ms=50"));
            try {
                c.read().assertStatus(200);
                return;
            } catch (Client.NoAnswer e) {
                // none in 2 s: unflushed, or never written?
            }
            c.socket().setSoTimeout(2000);
            c.send(Client.request("GET", "/"));
            Client.Reply late;
            try {
                late = c.read();
            } catch (Client.NoAnswer e) {
                throw new AssertionError("GET /io?ms=50 got no answer in 2 s, nor did a GET / sent after it on the same connection:"
                        + " the answer was never written, or the connection stopped");
            }
            throw Check.Symptom.hinting("The answer was written and left unsent until the next read flushed it: ctx.write() only queues. "
                    + "A worker's answer is written in a task outside any read, after channelReadComplete has run: flush it there "
                    + "(ctx.flush() after the writes in that task, or ctx.writeAndFlush).",
                    "GET /io?ms=50 got no answer in 2 s; its answer ('" + late.text().strip() + "') came only when the next request"
                    + " was read on the same connection: it was written, and not flushed");
        }
    }

    // tag::in-order[]
    @Check(order = 1, title = "keeps answers in request order when pipelined work finishes out of order",
           hint = "Work on virtual threads ends in any order; a connection's answers must not. Where does an answer wait for the ones before it?",
           see = "chapters/06-netty-hybrid#answers-in-order",
           after = "ch06.flushes")
    void inOrder() throws Exception {
        assertInOrder(target);
    }

    /** Four pipelined requests whose work ends out of order are answered in request order (chapter 09 asks it too). */
    static void assertInOrder(Target target) throws Exception {
        try (Client c = Client.connect(target, 5000)) {
            c.send(Client.request("GET", "/io?ms=600") + Client.request("GET", "/io?ms=10")
                    + Client.request("GET", "/io?ms=300") + Client.request("GET", "/"));
            List<String> bodies = new ArrayList<>();
            for (int i = 0; i < 4; i++) bodies.add(c.read().text().strip());
            assertEquals(List.of("waited 600 ms", "waited 10 ms", "waited 300 ms", "Hello, World!"), bodies,
                    "four pipelined requests (600 ms, 10 ms, 300 ms, /) were answered in this order");
        }
    }
    // end::in-order[]

    // tag::slow-reader[]
    @Check(order = 2, title = "does not hold a whole response in memory for a client that reads slowly",
           hint = "Netty queues whatever you write, however slowly the client reads. Write the next chunk only while the channel is writable.",
           see = "chapters/06-netty-hybrid#backpressure")
    void slowReader() throws Exception {
        Inspect inspect = target.inspect();
        long before = inspect.residentBytes().orElseThrow();
        try (Clients readers = new Clients(target).connect(4, 5000).sendAll(Client.request("GET", "/bytes?n=" + 64 * MIB))) {
            // 256 MiB in all, read by nobody: for 2 s, the server's memory must not grow by the answers
            long grew;
            Elapsed watched = Elapsed.start();
            do {
                Thread.sleep(200);
                grew = inspect.residentBytes().orElseThrow() - before;
            } while (grew < 96 * MIB && watched.ms() < 2000);
            assertTrue(grew < 96 * MIB, "with 4 clients not reading 64 MiB each, the server's memory grew by "
                    + grew / MIB + " MiB: it holds the responses instead of pacing them");
            assertEquals(200, Client.get(target, "/").status(), "the server should go on answering meanwhile");
        }
    }
    // end::slow-reader[]

    @Check(order = 3, title = "stops reading from a client that pipelines requests but does not read the answers",
           hint = "Turn autoRead off while the connection is not writable (channelWritabilityChanged), and on again when it is.",
           see = "chapters/06-netty-hybrid#backpressure",
           after = "ch06.slowReader")
    void stopsReading() throws Exception {
        Ch03Checks.assertStopsReading(target);
    }

    @Check(order = 4, title = "reads again once it has caught up: 24 pipelined requests, then a request after a 4 MiB answer",
           hint = "Turning autoRead off is half of backpressure. When the answers have gone out and the channel is writable again, "
            + "turn it back on: in channelWritabilityChanged, and after each answer is sent. Otherwise the connection hangs for good.",
           see = "chapters/06-netty-hybrid#backpressure",
           after = "ch06.flushes")
    void resumesReading() throws Exception {
        try (Client c = Client.connect(target, 5000)) {
            c.send(Client.request("GET", "/io?ms=20").repeat(24));
            int answered = 0;
            try {
                for (; answered < 24; answered++) c.read().assertStatus(200);
            } catch (Client.NoAnswer e) {
                throw new AssertionError(answered + " of 24 pipelined requests were answered; the other " + (24 - answered)
                        + " never came within 5 s: the server stopped reading and did not start again");
            }
            assertEquals(4 * MIB, c.send(Client.request("GET", "/bytes?n=" + 4 * MIB)).read().body().length);
            try {
                c.send(Client.request("GET", "/")).read().assertStatus(200);
            } catch (Client.NoAnswer e) {
                throw new AssertionError("after a 4 MiB answer, the next request on the same connection got no answer within 5 s");
            }
        }
    }

    @Check(order = 5, title = "closes a keep-alive connection idle for --idle-timeout (2 s), and not long before",
           hint = "An IdleStateHandler, first in the pipeline, fires an IdleStateEvent after --idle-timeout of quiet: in userEventTriggered, "
            + "close when nothing is in flight, or when the client reads none of its answers (the channel is not writable).",
           see = "chapters/06-netty-hybrid#timeouts")
    void idleTimeout() throws Exception {
        Ch05Checks.assertClosesIdle(target, IDLE_MS);
    }

    // tag::cpu[]
    @Check(timed = true, order = 11, timeline = true, title = "runs /cpu off the event loops, and no loop waits for it, so every event loop still answers",
           hint = "An event loop that burns CPU serves none of its other connections meanwhile. Hand the work to a virtual thread, "
            + "or to a small pool of platform threads sized to the cores; either way, not to the loop.",
           see = "chapters/06-netty-hybrid#off-the-event-loop",
           after = "ch06.flushes")
    void cpuOffLoop() throws Exception {
        assertCpuOffLoop(target, false);
    }

    // tag::cpu-threads[]
    /**
     * While 4 requests of /cpu?ms=1500 burn, the threads burning them are not event loops (and,
     * when {@code platformOnly}, not virtual threads either: chapter 09's, carried by a loop), no
     * event loop waits for them, and GET / on a new connection is answered.
     */
    static void assertCpuOffLoop(Target target, boolean platformOnly) throws Exception {
        try (Clients busy = new Clients(target).connect(LOOPS * 2, 30_000).sendAll(Client.request("GET", "/cpu?ms=1500"))) {
            List<List<Inspect.ThreadInfo>> dumps = Watch.dumps(target, 1500, d -> Watch.count(d, Watch::burning) >= LOOPS * 2);
            List<Inspect.ThreadInfo> burning = dumps.getLast().stream().filter(Watch::burning).toList();
            assertFalse(burning.isEmpty(), "no thread was burning CPU for the 4 requests of /cpu?ms=1500");
            for (Inspect.ThreadInfo t : burning) {
                if (platformOnly) assertFalse(t.virtual(), "/cpu ran on " + t.label() + ": a virtual thread, which holds its carrier while it burns");
                assertFalse(isEventLoop(t), "/cpu ran on the event loop thread '" + t.label() + "'");
            }
            for (Inspect.ThreadInfo loop : dumps.getLast()) {
                if (waitsOffSelect(loop)) {
                    throw Check.Symptom.hinting("The burn left the loop, but the loop waits for it: a loop that waits (Future.get, join, a latch) "
                            + "serves none of its connections meanwhile, just as if it burned. Let the pool's thread hand the answer back "
                            + "to the loop (ctx.executor().execute(...)), and return from channelRead at once.",
                            "while /cpu burned on " + burning.getFirst().label() + ", the event loop '" + loop.label() + "' waited for it in "
                            + Watch.frame(loop, f -> !f.startsWith("java.") && !f.startsWith("jdk.") && !f.startsWith("sun.")) + " (" + loop.state() + ")");
                }
            }
            for (int i = 0; i < LOOPS * 2; i++) {
                Client.Reply hello = Client.get(target, "/"); // answered: the dumps above decide where the burn ran
                assertEquals(200, hello.status(), "while /cpu ran, GET / on a new connection got '" + hello.statusLine() + "'");
            }
            for (Client c : busy) c.read(); // the burns hold the carriers until they end: let them end here
        }
    }

    /** An event loop caught waiting on something other than its selector: for another thread's work. */
    static boolean waitsOffSelect(Inspect.ThreadInfo t) {
        if (!isEventLoop(t) || t.state() == null || t.state().equals("RUNNABLE")) return false;
        // The top of its stack: an idle loop is in its selector (RUNNABLE, in native code) or takes its next task.
        return t.stack().stream().limit(6).noneMatch(f -> f.contains(".select") || f.contains("EPoll.wait") || f.contains("epollWait")
                || f.contains("KQueue") || f.contains("kqueue") || f.contains("takeTask") || f.contains("pollTask"));
    }
    // end::cpu-threads[]
    // end::cpu[]

    @Check(timed = true, order = 12, timeline = true, title = "answers GET / during a flood of 500 /io?ms=1000, with no event loop asleep in a wait and the waits in flight together",
           hint = "/io stands for a blocking call, like JDBC. On an event loop it stalls every connection of that loop; on a virtual thread it stalls nobody.",
           see = "chapters/06-netty-hybrid#off-the-event-loop",
           after = "ch06.flushes")
    void ioFlood() throws Exception {
        assertIoFlood(target);
    }

    /** Of a flood of 500 /io?ms=1000, this many must wait at once: a small pool of platform threads has fewer. */
    static final int FLOOD_AT_ONCE = 100;

    /**
     * During a flood of 500 /io?ms=1000 no event loop is asleep in a wait, at least 100 of the waits
     * are in flight together, GET / is answered, and so is the whole flood (chapter 09 asks it too).
     */
    static void assertIoFlood(Target target) throws Exception {
        try (Clients flood = new Clients(target).connect(500, 30_000)) {
            flood.sendAll(Client.request("GET", "/io?ms=1000"));
            List<List<Inspect.ThreadInfo>> dumps = Watch.dumps(target, 2000, d -> Watch.count(d, Watch::inIoWait) >= FLOOD_AT_ONCE);
            for (List<Inspect.ThreadInfo> dump : dumps) {
                List<String> asleep = dump.stream().filter(t -> isEventLoop(t) && Watch.inIoWait(t)).map(Inspect.ThreadInfo::label).toList();
                assertTrue(asleep.isEmpty(), "during the flood, the event loop " + String.join(" and ", asleep)
                        + " was asleep in /io's wait: every connection of that loop waited with it");
            }
            try (Client probe = Client.connect(target, 10_000)) {
                probe.send(Client.request("GET", "/")).read().assertStatus(200);
            } catch (Client.NoAnswer e) {
                throw new AssertionError("during the flood, GET / got no answer within 10 s");
            }
            long atOnce = Watch.most(dumps, Watch::inIoWait);
            assertTrue(atOnce >= FLOOD_AT_ONCE, "of 500 requests of /io?ms=1000 sent at once, at most " + atOnce
                    + " waited together (" + dumps.size() + " thread dumps): the others waited for a thread");
            for (Client c : flood) assertEquals(200, c.read().status());
        }
    }

    @Check(order = 13, title = "keeps its threads as requests come and go: 96 more requests of /cpu and /io leave at most 16 new platform threads",
           hint = "A pool made inside channelRead (Executors.newFixedThreadPool per request) starts threads that nobody shuts down: "
            + "the server's threads grow with its requests until it runs out of memory. Make the pool once, beside the handler "
            + "(a static final field), and share it; a virtual thread per request ends with its request.",
           see = "chapters/06-netty-hybrid#off-the-event-loop",
           after = "ch06.flushes")
    void threadsStay() throws Exception {
        Watch.assertThreadsStay(target);
    }

    /** A Netty I/O event loop thread: its stack runs the loop (4.2's IoEventLoop and IoHandler, 4.1's NioEventLoop), or its default name says so. */
    static boolean isEventLoop(Inspect.ThreadInfo t) {
        return !t.virtual() && (t.name().contains("EventLoopGroup") || t.stack().stream().anyMatch(f -> f.contains("IoEventLoop.run")
                || f.contains("IoHandler.run") || f.contains("NioEventLoop.run") || f.contains("EpollEventLoop.run") || f.contains("KQueueEventLoop.run")));
    }

    @Check(order = 9, title = "touches each connection on its event loop only: no write is handed to Netty from another thread",
           hint = "A write from a virtual thread (or any thread but the connection's loop) races the loop's own writes: Netty accepts it "
            + "and queues it for the loop, and an answer can overtake another. Hand the finished answer back to the loop "
            + "(ctx.executor().execute(...)) and write there. This check sees writes only; keep the queue of answers on the loop too, "
            + "for the same reason (the in-order check and the page's tests find a queue touched from two threads only by chance).",
           see = "chapters/06-netty-hybrid#answers-in-order",
           after = "ch06.flushes")
    void writesOnLoop() throws Exception {
        // Netty makes a WriteTask exactly when ChannelHandlerContext.write() is called off the channel's event loop.
        List<String> settings = List.of("settings=none", "+jdk.MethodTrace#enabled=true",
                "+jdk.MethodTrace#filter=io.netty.channel.AbstractChannelHandlerContext$WriteTask::newInstance");
        List<jdk.jfr.consumer.RecordedEvent> offLoop = target.inspect().record(() -> {
            try (Clients clients = new Clients(target).connect(8, 5000)) {
                clients.sendAll(Client.request("GET", "/io?ms=30") + Client.request("GET", "/cpu?ms=5") + Client.request("GET", "/"));
                for (Client c : clients) for (int i = 0; i < 3; i++) c.read().assertStatus(200);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }, settings, "jdk.MethodTrace");
        List<String> writers = offLoop.stream().map(e -> e.getThread("eventThread"))
                .map(t -> t == null ? "?" : Inspect.ThreadInfo.label(t.getJavaName(), t.isVirtual(), t.getJavaThreadId())).distinct().toList();
        assertTrue(offLoop.isEmpty(), offLoop.size() + " writes were handed to Netty from threads other than the event loop: " + writers);
    }

    @Check(timed = true, order = 6, title = "answers 408 to a request whose head trickles in, a byte every 200 ms, past --header-timeout (1.5 s)",
           hint = "Each byte is a read, so an idle timer never fires for a client that sends a byte now and then: that is slow loris. "
            + "A deadline from the head's first byte does: new NettyHttp.Decoder(headerMillis) sends a 408 then.",
           see = "chapters/06-netty-hybrid#timeouts")
    void slowLoris() throws Exception {
        Ch05Checks.assertRefusesTrickle(target, HEADER_MS);
    }

    // tag::buffers[]
    @Check(order = 10, title = "gives back every request body's buffer: Netty's leak detector, at its strictest, reports none",
           hint = "A request with a body arrives as a NettyHttp.Upload, its body in a buffer from the channel's pool, and your handler "
            + "is its last holder. Read it (upload.request()), then release it (ReferenceCountUtil.release) on every path: in a finally, "
            + "as chapter 05 gives back a permit. The report's 'Created at' lines say where the buffer came from.",
           see = "chapters/06-netty-hybrid#buffers",
           after = "ch06.flushes")
    void releasesBuffers() throws Exception {
        Path log = target.log();
        if (log == null) {
            throw new Unavailable("this check reads the server's output for Netty's leak reports; it runs when the grader starts "
                    + "the server, with -Dio.netty.leakDetection.level=paranoid");
        }
        Inspect inspect = target.inspect();
        for (int round = 0; round < 3; round++) {
            uploads();
            inspect.heapAfterGc(); // a buffer nobody released is found when the collector finds it unreachable
            Thread.sleep(200);
        }
        uploads(); // the detector reports what the collector found when it next hands out a buffer
        List<String> report = List.of();
        for (Elapsed waited = Elapsed.start(); report.isEmpty() && waited.ms() < 2000; Thread.sleep(100)) report = leakReport(log);
        assertTrue(report.isEmpty(), "Netty's leak detector found buffers that were never released:\n    "
                + String.join("\n    ", report));
    }

    /**
     * Request bodies down every path a handler has: answered, behind slow work, behind a request
     * that closes (answered at once, so the bodies come while the connection is closing; and
     * answered later), dropped by the client, after a refusal.
     */
    private void uploads() throws IOException {
        String echo = Client.request("POST", "/echo", "Content-Length: 1024") + "x".repeat(1024);
        try (Client c = Client.connect(target, 5000)) {
            for (int i = 0; i < 20; i++) c.send(echo).read().assertStatus(200);
        }
        try (Client c = Client.connect(target, 5000)) {
            c.send(Client.request("GET", "/", "Connection: close") + echo + echo).read();
        }
        try (Client c = Client.connect(target, 5000)) {
            c.send(Client.request("GET", "/io?ms=100") + echo + Client.request("GET", "/", "Connection: close") + echo + echo);
            for (int i = 0; i < 3; i++) c.read();
        }
        try (Client c = Client.connect(target, 5000)) {
            c.send(Client.request("GET", "/io?ms=200") + echo + echo); // and gone before the answers
        }
        try (Client c = Client.connect(target, 5000)) {
            c.send("NOT-HTTP\r\n\r\n" + echo).read();
        }
    }

    /** The first lines of Netty's first leak report in the server's output, where its buffers were made; empty if none. */
    static List<String> leakReport(Path log) throws IOException {
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        for (int i = 0; i < lines.size(); i++) {
            if (!lines.get(i).contains("LEAK:")) continue;
            List<String> report = new ArrayList<>(List.of(lines.get(i).strip()));
            lines.subList(i + 1, lines.size()).stream().map(String::strip)
                    .filter(l -> l.contains("HybridHandler") || l.contains("NettyHttp") || l.startsWith("Created at"))
                    .limit(4).forEach(report::add);
            return report;
        }
        return List.of();
    }
    // end::buffers[]
}
