import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.stream.ChunkedInput;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * The kit's HTTP codec as Netty handlers, for chapter 06: the same parser and the same responses
 * as every other chapter, so the checks and the benchmark compare concurrency models only.
 * A chapter includes it with {@code //SOURCES kit/NettyHttp.java} next to {@code kit/Kit.java}.
 */
final class NettyHttp {
    private NettyHttp() {}

    /**
     * Turns bytes into kit {@link Request}s, one channelRead each. A request the server must
     * refuse arrives as an {@link HttpError}, and nothing is decoded after it.
     */
    static final class Decoder extends ByteToMessageDecoder {
        private final RequestParser parser = new RequestParser();
        private boolean failed;

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
                if (request != null) out.add(request);
            } catch (HttpError e) {
                failed = true;
                in.skipBytes(in.readableBytes());
                out.add(e);
            }
        }
    }

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
