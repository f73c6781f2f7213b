//SOURCES Options.java Request.java RequestParser.java RequestReader.java HttpError.java Response.java Endpoints.java
//SOURCES BlockingHttp.java EventLoop.java NativeFrame.java

/**
 * The workshop kit: the HTTP plumbing every chapter shares, so each server file shows only its
 * concurrency model. A chapter includes it with one line, {@code //SOURCES kit/Kit.java}.
 *
 * <ul>
 *   <li>{@link Options}: {@code --port}, {@code --host}, chapter options, the ready line.</li>
 *   <li>{@link RequestParser}: incremental parsing from a ByteBuffer, across partial reads.</li>
 *   <li>{@link RequestReader}: the same for a blocking InputStream.</li>
 *   <li>{@link Response}: encoding, for streams and (a chunk at a time) for channels.</li>
 *   <li>{@link Endpoints}: {@code /}, {@code /io}, {@code /cpu}, {@code /bytes}, {@code /echo}.</li>
 *   <li>{@link BlockingHttp}: chapter 01's connection loop, for the later blocking chapters.</li>
 *   <li>{@link EventLoop}: chapter 03's reactor loop and connection state, for the later chapters.</li>
 *   <li>{@link NativeFrame}: runs code below a native frame, to show what still pins a virtual thread.</li>
 * </ul>
 */
final class Kit {
    private Kit() {}
}
