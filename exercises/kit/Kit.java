//SOURCES Options.java Request.java RequestParser.java RequestReader.java HttpError.java Response.java Endpoints.java CpuWork.java Database.java

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
        // Why: the first log line with a date reads the JDK's time-zone file. Out of file descriptors,
        // that read fails and the logging throws: it killed Netty's acceptor as it logged a failed accept.
        java.time.ZoneId.systemDefault().getRules();
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

    /** How long an acceptor waits before it tries again, after accept() failed. */
    static final int ACCEPT_PAUSE_MS = 100;

    /**
     * {@code server.accept()}, which waits for the next connection, except that a failure while
     * the server socket is still open does not end the server. The usual one is that the process
     * has no file descriptor left ("Too many open files"); then this waits
     * {@value #ACCEPT_PAUSE_MS} ms and tries again, while the connections held are served and close.
     */
    static java.net.Socket accept(java.net.ServerSocket server) throws java.io.IOException {
        return accepting(server::accept, () -> !server.isClosed());
    }

    /** The same for a blocking {@code ServerSocketChannel} (chapter 04's acceptor). */
    static java.nio.channels.SocketChannel accept(java.nio.channels.ServerSocketChannel server) throws java.io.IOException {
        return accepting(server::accept, server::isOpen);
    }

    private interface Accept<T> {
        T next() throws java.io.IOException;
    }

    private static <T> T accepting(Accept<T> accept, java.util.function.BooleanSupplier open) throws java.io.IOException {
        for (boolean failed = false; ; failed = true) {
            try {
                T connection = accept.next();
                if (failed) System.err.println("accepting connections again");
                return connection;
            } catch (java.io.IOException e) {
                if (!open.getAsBoolean()) throw e; // the server socket was closed: the server is stopping
                if (!failed) System.err.println("accept() failed: " + e.getMessage() + "; trying again every " + ACCEPT_PAUSE_MS + " ms");
                try {
                    Thread.sleep(ACCEPT_PAUSE_MS); // Why: it fails again at once until a connection closes; trying in a loop burns a core.
                } catch (InterruptedException stop) {
                    Thread.currentThread().interrupt();
                    throw new java.io.InterruptedIOException("interrupted while waiting to accept again");
                }
            }
        }
    }
}
