///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
//DEPS io.netty:netty-codec-http:4.2.20.Final

import static java.nio.charset.StandardCharsets.US_ASCII;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandler;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import java.util.List;
import java.util.function.Supplier;

/**
 * Chapter 06's buffer hazard: a handler that is the last holder of a pooled buffer and releases
 * it after its happy path only, beside one that releases it in a finally. Each handler reads
 * three request bodies on Netty's EmbeddedChannel (no socket): one it answers, an empty one it
 * returns early for, and one on which its work throws, as a handler with a bug does. For each,
 * it prints the buffer's reference count once channelRead has returned: 0 means the memory went
 * back to the pool, 1 that it is lent out for good (a leak). Run it with
 * {@code jbang exercises/demos/BufferHazard.java}.
 */
class BufferHazard {
    public static void main(String[] args) {
        for (Supplier<ChannelInboundHandler> handler : List.<Supplier<ChannelInboundHandler>>of(ReleasesOnHappyPath::new, ReleasesOnEveryPath::new)) {
            System.out.println(handler.get().getClass().getSimpleName() + ":");
            for (String body : List.of("hello", "", "fail")) {
                EmbeddedChannel channel = new EmbeddedChannel(handler.get());
                ByteBuf buffer = PooledByteBufAllocator.DEFAULT.buffer().writeBytes(body.getBytes(US_ASCII));
                String outcome;
                try {
                    channel.writeInbound(buffer);
                    channel.checkException();
                    outcome = body.isEmpty() ? "returned early" : "answered";
                } catch (IllegalStateException e) {
                    outcome = "threw: " + e.getMessage();
                }
                int left = buffer.refCnt();
                System.out.printf("  %-8s %-34s refCnt %d%s%n", "'" + body + "'", outcome, left,
                        left == 0 ? "" : "  <- leaked: the pool lent it out for good");
                if (left > 0) buffer.release(left); // tidy up, so the demo itself leaks nothing
                channel.finishAndReleaseAll();
            }
        }
    }

    /** Answers a body (as the exercise's accept does); throws on "fail", as a handler with a bug would. */
    static void accept(ChannelHandlerContext ctx, String body) {
        if (body.equals("fail")) throw new IllegalStateException("a bug in the handler");
        ctx.writeAndFlush(Unpooled.copiedBuffer("echo: " + body, US_ASCII));
    }

    /** Don't: the release is the last line, so an early return or a throw skips it. */
    static final class ReleasesOnHappyPath extends ChannelInboundHandlerAdapter {
        // tag::wrong[]
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object message) {
            String body = ((ByteBuf) message).toString(US_ASCII);
            if (body.isEmpty()) return;          // leaks: skips the release
            accept(ctx, body);                   // a throw here leaks too
            ReferenceCountUtil.release(message); // the happy path only
        }
        // end::wrong[]
    }

    /** Do: read the body first, then release in a finally, whichever way the work ends. */
    static final class ReleasesOnEveryPath extends ChannelInboundHandlerAdapter {
        // tag::right[]
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object message) {
            try {
                String body = ((ByteBuf) message).toString(US_ASCII);
                if (body.isEmpty()) return;
                accept(ctx, body);
            } finally {
                ReferenceCountUtil.release(message); // on every path
            }
        }
        // end::right[]
    }
}
