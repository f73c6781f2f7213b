import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.Map;

/**
 * Command-line options every workshop server shares ({@code --port}, {@code --host}, and
 * {@code --db-pool}, {@code --db-wait} for {@link Database}) plus any a
 * chapter adds, and the one ready line the grader and the benchmark wait for. It only reads
 * them: {@link Kit#start} is what acts on them.
 */
final class Options {
    final String host;
    final int port;
    private final Map<String, String> values;

    private Options(String host, int port, Map<String, String> values) {
        this.host = host;
        this.port = port;
        this.values = values;
    }

    /**
     * Parses {@code --port P --host H} and the chapter's own options, given with their defaults
     * as {@code "--threads", "8"}. Exits with a plain message on a bad option.
     */
    static Options parse(String server, String[] args, String... extraDefaults) {
        Map<String, String> values = new HashMap<>(Map.of("--port", "8080", "--host", "127.0.0.1", "--db-pool", "10", "--db-wait", "1000"));
        for (int i = 0; i + 1 < extraDefaults.length; i += 2) values.put(extraDefaults[i], extraDefaults[i + 1]);
        for (int i = 0; i < args.length; i++) {
            String name = args[i];
            if (name.equals("-h") || name.equals("--help")) exit(0, usage(server, values));
            if (!values.containsKey(name)) exit(2, "unknown option " + name + "\n" + usage(server, values));
            if (i + 1 == args.length) exit(2, "option " + name + " needs a value\n" + usage(server, values));
            values.put(name, args[++i]);
        }
        Options options = new Options(values.get("--host"), wholeNumber(values, "--port"), values);
        if (options.port > 65535) exit(2, "--port must be from 0 to 65535");
        return options;
    }

    /** The address to bind. */
    InetSocketAddress address() {
        return new InetSocketAddress(host, port);
    }

    /** A whole-number option, such as {@code --threads}. */
    int number(String name) {
        return wholeNumber(values, name);
    }

    /** A URL option, such as {@code --backend}: http or https, with a host. */
    java.net.URI uri(String name) {
        try {
            java.net.URI uri = new java.net.URI(values.get(name));
            if (("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null) return uri;
        } catch (java.net.URISyntaxException e) {
            // fall through to the message
        }
        exit(2, "option " + name + " must be a URL such as http://127.0.0.1:8081, not '" + values.get(name) + "'");
        return null;
    }

    private static int wholeNumber(Map<String, String> values, String name) {
        try {
            int n = Integer.parseInt(values.get(name));
            if (n >= 0) return n;
        } catch (NumberFormatException e) {
            // fall through to the message
        }
        exit(2, "option " + name + " must be a whole number, not '" + values.get(name) + "'");
        return -1;
    }

    /** Prints the one line that says the server accepts connections now. */
    void ready(int boundPort) {
        String shown = host.contains(":") ? "[" + host + "]" : host;
        System.out.println("listening on http://" + shown + ":" + boundPort);
        System.out.flush();
    }

    private static String usage(String server, Map<String, String> values) {
        StringBuilder s = new StringBuilder("usage: jbang " + server + ".java [options]\n");
        values.keySet().stream().sorted().forEach(k -> s.append("  ").append(k).append(" (default ").append(values.get(k)).append(")\n"));
        return s.toString().strip();
    }

    static void exit(int code, String message) {
        (code == 0 ? System.out : System.err).println(message);
        System.exit(code);
    }
}
