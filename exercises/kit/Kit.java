//SOURCES Options.java Request.java RequestParser.java RequestReader.java HttpError.java Response.java Endpoints.java Database.java

/**
 * The workshop kit: the HTTP plumbing every chapter shares, so each server file shows only its
 * concurrency model. A chapter includes it with one line, {@code //SOURCES kit/Kit.java}.
 *
 * <ul>
 *   <li>{@link Options}: {@code --port}, {@code --host}, chapter options, the ready line.</li>
 *   <li>{@link RequestParser}: incremental parsing from a ByteBuffer, across partial reads.</li>
 *   <li>{@link RequestReader}: the same for a blocking InputStream.</li>
 *   <li>{@link Response}: encoding, for streams and (a chunk at a time) for channels.</li>
 *   <li>{@link Endpoints}: {@code /}, {@code /io}, {@code /cpu}, {@code /bytes}, {@code /echo}, {@code /fail}.</li>
 *   <li>{@link Database}: {@code /db}, a query through a pool of connections, and {@code /stats}.</li>
 * </ul>
 *
 * It holds no chapter's answer. Later chapters include an earlier chapter's answer by name, and
 * only that one: {@code kit/chapter-01/BlockingHttp.java} (chapter 01's connection loop, for 02 and
 * 05), {@code kit/chapter-03/EventLoop.java} (chapter 03's reactor, for 04). {@code kit/NettyHttp.java}
 * adapts the kit to Netty for chapter 06; {@code kit/NativeFrame.java} is for the pinning demo.
 */
final class Kit {
    private Kit() {}
}
