//SOURCES Options.java Request.java RequestParser.java RequestReader.java HttpError.java Response.java Endpoints.java Database.java

/**
 * The workshop kit: the HTTP plumbing every chapter shares, so each server file shows only its
 * concurrency model. A chapter includes it with one line, {@code //SOURCES kit/Kit.java}.
 *
 * <ul>
 *   <li>{@link #start}: a server's first line, which reads its options and sets the process up.</li>
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

    /**
     * Reads {@code args} ({@link Options#parse}, with the chapter's own options and their
     * defaults), then sets up what the whole process shares: the {@code /db} pool from
     * {@code --db-pool} and {@code --db-wait}, and a busy port reported as one sentence rather
     * than a stack trace.
     */
    static Options start(String server, String[] args, String... extraDefaults) {
        Options options = Options.parse(server, args, extraDefaults);
        Database.configure(options.number("--db-pool"), options.number("--db-wait"));
        Thread.setDefaultUncaughtExceptionHandler((thread, e) -> {
            if (e instanceof java.net.BindException) {
                Options.exit(2, "cannot listen on " + options.host + ":" + options.port + " (" + e.getMessage()
                        + "): stop the program using that port, or start with --port 0 to take any free port");
            }
            System.err.println("Exception in thread \"" + thread.getName() + "\" ");
            e.printStackTrace();
        });
        return options;
    }
}
