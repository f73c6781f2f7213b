package lib;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The server under test: where it listens and, when known, its process. Either started here
 * from a server file (and always stopped again), or already running ({@code --url}, {@code --pid}).
 */
public final class Target {
    private static final Pattern READY = Pattern.compile("listening on http://(\\[[^]]+]|[^:/]+):(\\d+)");

    public final String host;
    public final int port;
    private volatile Long pid;
    private volatile Launch launch;       // null when the server was not started here
    private volatile int restarts;

    /**
     * How this harness started the server: the command, what it adds to the environment, where its
     * output goes, its process, and the command that starts it again ({@link #again}).
     */
    private record Launch(List<String> command, Map<String, String> env, Path log, Process process, List<String> again) {}

    /**
     * The servers this JVM started and has not stopped yet. One shutdown hook stops them all: a
     * hook per server would pile up, never removed (the self-test starts hundreds).
     */
    private static final java.util.Set<Process> LIVE = java.util.concurrent.ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> List.copyOf(LIVE).forEach(Target::kill), "stop-servers"));
    }

    private Target(String host, int port, Long pid, Launch launch) {
        this.host = host;
        this.port = port;
        this.pid = pid;
        this.launch = launch;
    }

    /** A server that runs already, somewhere on loopback or on this machine. */
    static Target running(String url, Long pid) {
        Matcher m = Pattern.compile("http://(\\[[^]]+]|[^:/]+):(\\d+)/?").matcher(url);
        if (!m.matches()) throw new IllegalArgumentException("--url must look like http://127.0.0.1:8080, not " + url);
        return new Target(m.group(1).replace("[", "").replace("]", ""), Integer.parseInt(m.group(2)), pid, null);
    }

    /**
     * The server already running at {@code url} (with {@code pid}, its process), for the grader
     * and the race alike: IOException, in one sentence, when nothing accepts connections there, or
     * no process has that pid.
     */
    public static Target attach(String url, Long pid) throws IOException {
        Target target = running(url, pid);
        if (!target.accepting()) throw new IOException("nothing accepts connections at " + url + ": start your server first");
        if (pid != null && ProcessHandle.of(pid).isEmpty()) throw new IOException("no process " + pid + " (--pid)");
        return target;
    }

    /** Starts a server with {@code command} (which must accept --port 0), waits for its ready line. */
    public static Target start(List<String> command, Path log, Duration timeout) throws IOException {
        return start(command, Map.of(), log, timeout);
    }

    /** The same, with {@code env} added to its environment (JDK_JAVA_OPTIONS, say). */
    public static Target start(List<String> command, Map<String, String> env, Path log, Duration timeout) throws IOException {
        Files.createDirectories(log.getParent());
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .redirectInput(ProcessBuilder.Redirect.PIPE);
        builder.environment().putAll(env);
        Process p;
        try {
            p = builder.start();
        } catch (IOException e) {
            throw new IOException("cannot run '" + command.get(0) + "': there is no such program on PATH, or it is not executable"
                    + " (the command's first word is run as a program, without a shell)", e);
        }
        LIVE.add(p);
        CompletableFuture<Matcher> ready = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("server-stdout").start(() -> {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = out.readLine()) != null) {
                    Matcher m = READY.matcher(line);
                    if (!ready.isDone() && m.find()) ready.complete(m);
                    else Files.writeString(log, line + "\n", StandardCharsets.UTF_8,
                            java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
                }
            } catch (IOException e) {
                // the server went away; the waiting side reports it
            }
            ready.completeExceptionally(new IOException("the server exited without printing its ready line"));
        });
        try {
            Matcher m = ready.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            String host = m.group(1).replace("[", "").replace("]", "");
            long pid = serverPid(p);
            return new Target(host, Integer.parseInt(m.group(2)), pid, new Launch(command, env, log, p, again(command, pid)));
        } catch (Exception e) {
            kill(p);
            String why = e instanceof java.util.concurrent.TimeoutException
                    ? "no line 'listening on http://HOST:PORT' within " + timeout.toSeconds() + " s"
                    : "it exited before it was ready";
            throw new IOException("the server did not start: " + why + ". Its output:\n" + tail(log, 25));
        }
    }

    /**
     * The server's PID: the java process a launcher (JBang) started below it; else, when the
     * command started one process below another (go run, a script without exec), the last of
     * that line, where it ends or branches (a server that starts workers is the one above them).
     */
    private static Long serverPid(Process p) {
        java.util.Optional<Long> java = p.toHandle().descendants()
                .filter(h -> h.info().command().map(c -> c.endsWith("java") || c.endsWith("java.exe")).orElse(false))
                .map(ProcessHandle::pid)
                .max(Comparator.naturalOrder());
        if (java.isPresent()) return java.get();
        ProcessHandle last = p.toHandle();
        while (true) {
            List<ProcessHandle> children = last.children().toList();
            if (children.size() != 1) return last.pid();
            last = children.get(0);
        }
    }

    /**
     * The command that starts the server again (a restart, or a copy with few files): the JVM's own
     * command line when a launcher started it (JBang builds, then runs {@code java -classpath JAR
     * Main ARGS}; run so, a start takes about 0.4 s instead of 1.8), read from its process; else
     * {@code command}. The JVM's line is used only when it can be read whole and carries the
     * server's {@code --port}, and names no argument file ({@code @file}), which a launcher may delete.
     */
    public static List<String> again(List<String> command, long pid) {
        ProcessHandle.Info info = ProcessHandle.of(pid).map(ProcessHandle::info).orElse(null);
        if (info == null || info.command().isEmpty() || info.arguments().isEmpty()) return command;
        String java = info.command().get();
        List<String> args = List.of(info.arguments().get());
        if (!isJava(java) || isJava(command.get(0))) return command; // not a JVM, or started as one already
        if (!args.contains("--port") || args.stream().anyMatch(a -> a.startsWith("@"))) return command;
        List<String> line = new ArrayList<>(args.size() + 1);
        line.add(java);
        line.addAll(args);
        return List.copyOf(line);
    }

    private static boolean isJava(String program) {
        String name = Path.of(program).getFileName().toString();
        return name.equals("java") || name.equals("java.exe");
    }

    public Long pid() {
        return pid;
    }

    public String url() {
        return "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }

    /** How the server can be inspected, when its PID is known. */
    public Inspect inspect() {
        if (pid == null) throw new Unavailable("this check reads the server's threads or files: pass --pid PID with --url");
        return new Inspect(pid);
    }

    /** Whether the server's process (its PID known) has exited. */
    public boolean exited() {
        return pid != null && ProcessHandle.of(pid).map(h -> !h.isAlive()).orElse(true);
    }

    /** Restarts a server this harness started, if it has exited; returns true if it did. */
    public synchronized boolean reviveIfDead() throws IOException {
        if (launch == null) return false;
        ProcessHandle server = ProcessHandle.of(pid).orElse(null);
        // Alive, and listening where that can be seen without connecting (a connection would be
        // served: one fewer for a server that serves a few); one that closed its socket is on its way out.
        if (server != null && server.isAlive() && listening().orElse(true)) return false;
        try {
            if (server != null) server.onExit().get(3, TimeUnit.SECONDS); // it may be on its way out
        } catch (Exception e) {
            return false; // alive but not accepting: the check itself will say so
        }
        restart();
        return true;
    }

    /**
     * Whether a socket listens on this port, read from Linux's /proc/net/tcp and tcp6 (state 0A),
     * without connecting to it; empty where that cannot be read.
     */
    java.util.Optional<Boolean> listening() {
        String hexPort = String.format(":%04X ", port);
        boolean read = false;
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            try {
                for (String line : Files.readAllLines(Path.of(table))) {
                    String[] f = line.trim().split("\\s+");
                    if (f.length > 3 && (f[1] + " ").endsWith(hexPort) && f[3].equals("0A")) return java.util.Optional.of(true);
                }
                read = true;
            } catch (IOException | RuntimeException e) {
                // not Linux, or not readable
            }
        }
        return read ? java.util.Optional.of(false) : java.util.Optional.empty();
    }

    /** Whether this harness started the server (and so can restart it). */
    public boolean startedHere() {
        return launch != null;
    }

    /** Stops the server this harness started and starts it again on the same port. */
    public synchronized void restart() throws IOException {
        if (launch == null) throw new IllegalStateException("the server was not started here");
        kill(launch.process());
        // Same port, so the checks' view of the target stays valid.
        List<String> again = new ArrayList<>(launch.again());
        int portAt = again.lastIndexOf("--port");
        again.set(portAt + 1, String.valueOf(port));
        Target t = start(again, launch.env(), launch.log(), Duration.ofSeconds(60));
        launch = t.launch;
        pid = t.pid;
        restarts++;
    }

    /**
     * Another copy of the server this harness started, on any free port, in a process that may
     * hold at most {@code openFiles} open files: its command run by {@code /bin/sh -c 'ulimit -n N; exec ...'},
     * which sets both the soft and the hard limit (so the JVM cannot raise it). Stop it when done.
     * Unavailable for a server given with --url, and on Windows, which has no such limit.
     */
    public Target startWithOpenFiles(int openFiles) throws IOException {
        Launch l = launch;
        if (l == null) {
            throw new Unavailable("this check starts a copy of the server with few file descriptors; it runs when the grader starts the server");
        }
        if (System.getProperty("os.name", "").startsWith("Windows")) {
            throw Unavailable.onThisMachine("this check limits the server's open files with ulimit, which Windows does not have");
        }
        // Why /bin/sh and not sh from PATH: the grader runs with no shell on PATH too (jbang check on a bare machine).
        if (!Files.isExecutable(Path.of("/bin/sh"))) {
            throw Unavailable.onThisMachine("this check limits the server's open files with /bin/sh's ulimit, and this machine has no /bin/sh");
        }
        List<String> command = new ArrayList<>(List.of("/bin/sh", "-c", "ulimit -n " + openFiles + " 2>/dev/null || ulimit -Sn " + openFiles + "; exec \"$@\"", "sh"));
        command.addAll(l.again());
        int port = command.lastIndexOf("--port");
        if (port < 0) command.addAll(List.of("--port", "0")); else command.set(port + 1, "0");
        String name = l.log().getFileName().toString().replaceFirst("\\.log$", "");
        Path log = l.log().resolveSibling(name + "-" + openFiles + "-files.log");
        Files.deleteIfExists(log);
        return start(command, l.env(), log, Duration.ofSeconds(60));
    }

    /** The server's log file, when this harness started it. */
    public Path log() {
        Launch l = launch;
        return l == null ? null : l.log();
    }

    /**
     * Whether the server answers a GET / on a new connection within {@code timeoutMs}: the
     * HTTP of the protocol page, written here so that lib/ needs nothing from the checks.
     */
    public boolean answers(int timeoutMs) {
        return answers("/", timeoutMs);
    }

    /** The same for a GET of {@code path} (with its query), waiting {@code timeoutMs} for the answer to begin. */
    public boolean answers(String path, int timeoutMs) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, port), timeoutMs);
            s.setSoTimeout(timeoutMs);
            s.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: probe\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            byte[] head = s.getInputStream().readNBytes(12);
            return new String(head, StandardCharsets.ISO_8859_1).startsWith("HTTP/1.");
        } catch (IOException e) {
            return false;
        }
    }

    public int restarts() {
        return restarts;
    }

    /** Whether something accepts connections at the target now. */
    public boolean accepting() {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, port), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Stops the server if this harness started it: politely, then forcibly. */
    public void stop() {
        Launch l = launch;
        if (l != null) kill(l.process());
    }

    private static void kill(Process p) {
        List<ProcessHandle> all = new ArrayList<>(p.descendants().toList());
        all.add(p.toHandle());
        all.forEach(ProcessHandle::destroy);
        for (ProcessHandle h : all) {
            try {
                h.onExit().get(5, TimeUnit.SECONDS);
            } catch (Exception e) {
                h.destroyForcibly();
            }
        }
        LIVE.remove(p);
    }

    public static String tail(Path log, int lines) {
        try {
            List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(no output)";
        }
    }
}
