package bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import lib.CommandError;

/**
 * Runs one Vegeta attack, an open loop: requests leave at a fixed rate, each on its schedule,
 * whether or not the earlier ones were answered (Vegeta starts another worker, and opens another
 * connection, when all are busy). {@code vegeta attack} gets the target on its stdin, its results
 * go through {@code vegeta encode -to=csv}, and every request's line is read here.
 */
public final class Vegeta {
    /**
     * One request, as Vegeta's CSV has it (columns: timestamp in ns, status, latency in ns, bytes
     * out, bytes in, error, then body, attack, seq and more in v12): when it left, its sequence
     * number (-1 when the line has none), the status (0: no answer), its latency and its error
     * ("" when none; Vegeta also names the status of an answer outside 200-399 there).
     */
    public record Hit(long sentNanos, long seq, int code, long latencyNanos, String error) {
        public boolean ok() {
            return code >= 200 && code < 300;
        }

        /** No answer in time: Go's client says "Client.Timeout exceeded" or "deadline exceeded", the OS "i/o timeout". */
        public boolean timedOut() {
            String e = error.toLowerCase();
            return code == 0 && (e.contains("timeout") || e.contains("deadline exceeded"));
        }
    }

    private final String binary;
    private final String cpus; // a taskset CPU list, or null: not pinned
    private final String version;

    private Vegeta(String binary, String cpus, String version) {
        this.binary = binary;
        this.cpus = cpus;
        this.version = version;
    }

    /** Vegeta at {@code binary}, or exit 2 with what to do when it does not run. */
    static Vegeta found(String binary) {
        String version = version(binary);
        if (version == null) {
            throw CommandError.environment("Vegeta does not run (" + binary + "); --open-loop needs it: scripts/setup.sh builds it with Go, "
                    + "or 'brew install vegeta', or 'go install github.com/tsenart/vegeta/v12@v12.12.0'");
        }
        return new Vegeta(binary, null, version);
    }

    /** The same Vegeta on the CPUs of the taskset list {@code list} (where Bombardier runs), or on any when null. */
    Vegeta on(String list) {
        return new Vegeta(binary, list, version);
    }

    /** "vegeta v12.12.0", as {@link #found} read it. */
    String version() {
        return version;
    }

    /**
     * "vegeta v12.12.0": from {@code vegeta -version}, or, when it was built from a module
     * without a version stamped in, from Go's build information in the binary; null when it
     * does not run.
     */
    private static String version(String binary) {
        try {
            Process p = new ProcessBuilder(binary, "-version").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return null;
            }
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("Version: (v[0-9][0-9.]*)").matcher(out);
            if (m.find()) return "vegeta " + m.group(1);
            String v = GoTools.moduleVersion(java.nio.file.Path.of(resolved(binary)), "github.com/tsenart/vegeta/v12");
            return v != null ? "vegeta " + v : "vegeta (version unknown)";
        } catch (IOException | RuntimeException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** The binary's file: itself when it is a path, else the first on PATH. */
    private static String resolved(String binary) {
        if (binary.contains("/")) return binary;
        for (String dir : String.valueOf(System.getenv("PATH")).split(java.io.File.pathSeparator)) {
            if (java.nio.file.Files.isExecutable(java.nio.file.Path.of(dir, binary))) return dir + "/" + binary;
        }
        return binary;
    }

    /**
     * Sends GET {@code url} at {@code rate} a second for {@code seconds}, each request awaited
     * {@code timeoutSeconds} at most, and returns every request. Vegeta stops sending after
     * {@code seconds} and waits for the answers still due, so the run ends within one timeout
     * after; both processes are killed by their handles when it has not ended 5 s past that, and
     * on every path out of here.
     */
    List<Hit> attack(String url, int rate, int seconds, int timeoutSeconds) throws IOException {
        List<String> attack = new ArrayList<>();
        if (cpus != null) attack.addAll(List.of("taskset", "-c", cpus)); // taskset execs vegeta: one process
        attack.addAll(List.of(binary, "attack", "-rate=" + rate + "/1s", "-duration=" + seconds + "s", "-timeout=" + timeoutSeconds + "s",
                "-max-body=0")); // Why: the bodies are read to keep the connection, but not kept or encoded
        List<String> encode = new ArrayList<>();
        if (cpus != null) encode.addAll(List.of("taskset", "-c", cpus));
        encode.addAll(List.of(binary, "encode", "-to=csv"));
        List<Process> pipeline = ProcessBuilder.startPipeline(List.of(new ProcessBuilder(attack),
                new ProcessBuilder(encode).redirectError(ProcessBuilder.Redirect.DISCARD)));
        Process sender = pipeline.get(0), encoder = pipeline.get(1);
        Thread hook = new Thread(() -> pipeline.forEach(Process::destroyForcibly));
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> GoTools.readAll(sender.getErrorStream()), GoTools.READER);
            CompletableFuture<List<Hit>> hits = CompletableFuture.supplyAsync(() -> readHits(encoder.getInputStream()), GoTools.READER);
            try (OutputStream in = sender.getOutputStream()) {
                in.write(("GET " + url + "\n").getBytes(StandardCharsets.UTF_8));
            }
            long limit = seconds + timeoutSeconds + 5L;
            if (!encoder.waitFor(limit, TimeUnit.SECONDS)) {
                throw new IOException("Vegeta had not finished " + limit + " s after it started a " + seconds + " s attack; it was stopped");
            }
            sender.waitFor(5, TimeUnit.SECONDS);
            List<Hit> all = hits.join();
            if (all.isEmpty()) {
                throw new IOException("Vegeta sent nothing (exit " + (sender.isAlive() ? "-" : sender.exitValue()) + "): " + err.join().strip());
            }
            return all;
        } catch (java.util.concurrent.CompletionException e) {
            throw new IOException(e.getCause() == null ? e.getMessage() : e.getCause().getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while Vegeta ran");
        } finally {
            pipeline.forEach(Process::destroyForcibly);
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // the JVM is shutting down: the hook runs anyway
            }
        }
    }

    /** Every line of Vegeta's CSV as a hit; a line it cannot read fails the run (another Vegeta, another format). */
    public static List<Hit> readHits(java.io.InputStream csv) {
        List<Hit> hits = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(csv, StandardCharsets.UTF_8))) {
            String record = null;
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                record = record == null ? line : record + "\n" + line; // a quoted field may hold a line break
                List<String> fields = fields(record);
                if (fields == null) continue;
                hits.add(hit(fields, record));
                record = null;
            }
            if (record != null) throw new IllegalArgumentException("Vegeta's CSV ended inside a quoted field: " + record);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return hits;
    }

    /** One line of Vegeta's CSV (without its line break) as a hit; IllegalArgumentException when it is not one. */
    public static Hit parse(String line) {
        List<String> fields = fields(line);
        if (fields == null) throw new IllegalArgumentException("an unterminated quoted field in Vegeta's CSV: " + line);
        return hit(fields, line);
    }

    private static Hit hit(List<String> f, String line) {
        if (f.size() < 6) throw new IllegalArgumentException("a line of Vegeta's CSV has " + f.size() + " fields, not 6 or more: " + line);
        try {
            return new Hit(Long.parseLong(f.get(0)), f.size() > 8 && !f.get(8).isEmpty() ? Long.parseLong(f.get(8)) : -1,
                    Integer.parseInt(f.get(1)), Long.parseLong(f.get(2)), f.get(5));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a line of Vegeta's CSV (" + e.getMessage() + "): " + line);
        }
    }

    /**
     * The fields of one CSV record as Go's encoding/csv writes them: separated by commas, a
     * field with a comma, a quote or a line break quoted, a quote inside doubled. Null when the
     * record ends inside a quoted field (its next line belongs to it).
     */
    static List<String> fields(String record) {
        List<String> fields = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < record.length(); i++) {
            char c = record.charAt(i);
            if (quoted) {
                if (c != '"') field.append(c);
                else if (i + 1 < record.length() && record.charAt(i + 1) == '"') field.append(record.charAt(++i));
                else quoted = false;
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                fields.add(field.toString());
                field.setLength(0);
            } else {
                field.append(c);
            }
        }
        if (quoted) return null;
        fields.add(field.toString());
        return fields;
    }
}
