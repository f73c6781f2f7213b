import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.DefaultByteBufHolder;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.stream.ChunkedInput;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The kit's HTTP codec as Netty handlers, for chapter 06: the same parser and the same responses
 * as every other chapter, so the checks and the benchmark compare concurrency models only.
 * A chapter includes it with {@code //SOURCES kit/NettyHttp.java} next to {@code kit/Kit.java}.
 */
final class NettyHttp {
    private NettyHttp() {}

    /**
     * Turns bytes into kit {@link Request}s, one channelRead each. A request with a body arrives
     * as an {@link Upload}, whose buffer the handler must release; a request the server must
     * refuse arrives as an {@link HttpError}, and nothing is decoded after it.
     */
    // tag::decoder[]
    static final class Decoder extends ByteToMessageDecoder {
        private final RequestParser parser = new RequestParser();
        private final int headerMillis;
        private ScheduledFuture<?> headDeadline;  // set from a head's first byte until the head is whole
        private boolean failed;

        /** No deadline for a request's head. */
        Decoder() {
            this(0);
        }

        /**
         * A request's head must be whole within {@code headerMillis} of its first byte (0: no
         * limit); otherwise it arrives as an {@link HttpError} 408.
         */
        Decoder(int headerMillis) {
            this.headerMillis = headerMillis;
        }

        @Override
        protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
            if (failed) {
                in.skipBytes(in.readableBytes());
                return;
            }
            ByteBuffer view = in.nioBuffer();
            int start = view.position();
            try {
                Request request = parser.parse(view);
                in.skipBytes(view.position() - start);
                if (request != null) out.add(request.body().length == 0 ? request : Upload.of(ctx.alloc(), request));
            } catch (HttpError e) {
                failed = true;
                in.skipBytes(in.readableBytes());
                out.add(e);
            }
            if (headerMillis > 0) watchHead(ctx);
        }

        /** Starts the head's clock at its first byte, and stops it when the head is whole. */
        private void watchHead(ChannelHandlerContext ctx) {
            if (parser.inHead() && !failed && headDeadline == null) {
                startClock(ctx);
            } else if ((!parser.inHead() || failed) && headDeadline != null) {
                headDeadline.cancel(false);
                headDeadline = null;
            }
        }

        private void headTooSlow(ChannelHandlerContext ctx) {
            headDeadline = null;
            if (failed || !parser.inHead()) return;
            if (!ctx.channel().config().isAutoRead()) {
                // Why: reading is off (backpressure), so the rest may wait in the socket unread: not the client's fault.
                startClock(ctx);
                return;
            }
            failed = true;
            ctx.fireChannelRead(new HttpError(408, "the request's head did not arrive within " + headerMillis + " ms"));
        }

        private void startClock(ChannelHandlerContext ctx) {
            headDeadline = ctx.executor().schedule(() -> headTooSlow(ctx), headerMillis, TimeUnit.MILLISECONDS);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) throws Exception {
            if (headDeadline != null) headDeadline.cancel(false);
            super.channelInactive(ctx);
        }
    }
    // end::decoder[]

    // tag::upload[]
    /**
     * A request with a body, as Netty's own HTTP codec hands one over (a {@code FullHttpRequest}):
     * the body in a buffer from the channel's allocator, counted by reference. Whoever holds the
     * message last releases it, once, on every path; {@link #request()} reads the body out first.
     */
    static final class Upload extends DefaultByteBufHolder {
        private final Request head; // the request without its body

        private Upload(Request head, ByteBuf body) {
            super(body);
            this.head = head;
        }

        static Upload of(ByteBufAllocator allocator, Request parsed) {
            ByteBuf body = allocator.buffer(parsed.body().length).writeBytes(parsed.body());
            return new Upload(parsed.withBody(new byte[0]), body);
        }

        /** The whole request, its body copied out of the buffer: call it before the buffer is released. */
        Request request() {
            return head.withBody(ByteBufUtil.getBytes(content()));
        }
    }
    // end::upload[]

    /**
     * A response as a {@link ChunkedInput}: head and body, 64 KiB at a time, each chunk made only
     * when a {@code ChunkedWriteHandler} asks for it, which it does while the channel is writable.
     */
    static final class Body implements ChunkedInput<ByteBuf> {
        private static final int CHUNK = 64 * 1024;
        private final Response response;
        private boolean headSent;
        private long bodySent;

        Body(Response response) {
            this.response = response;
        }

        Response response() {
            return response;
        }

        @Override
        public boolean isEndOfInput() {
            return headSent && bodySent == response.contentLength();
        }

        @Override
        public ByteBuf readChunk(ByteBufAllocator allocator) {
            if (isEndOfInput()) return null;
            byte[] head = headSent ? new byte[0] : response.head();
            headSent = true;
            int n = (int) Math.min(CHUNK, response.contentLength() - bodySent);
            ByteBuffer chunk = ByteBuffer.allocate(head.length + n).put(head);
            bodySent += response.fillBody(bodySent, chunk);
            return Unpooled.wrappedBuffer(chunk.array());
        }

        @Override
        @Deprecated
        public ByteBuf readChunk(ChannelHandlerContext ctx) {
            return readChunk(ctx.alloc());
        }

        @Override
        public long length() {
            return -1;
        }

        @Override
        public long progress() {
            return bodySent;
        }

        @Override
        public void close() {
            // nothing to release: chunks are made on demand
        }
    }
}
