package bench;

import contract.ConnectionsReport;
import contract.Plan;
import contract.Stats;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicReference;
import lib.Painter;

/**
 * The connections phase ({@code --connections N}): for each server in turn, heap (after a full
 * GC), RSS and the kernel's TCP memory before; open N keep-alive connections ({@link Connections},
 * from 127.0.0.2, 127.0.0.3, ...); the same figures with them open; then 1% of them ask
 * GET {@link #PATH} once a second for a bounded window, like a chat server's users who are
 * typing; then close them all and ask whether the server still accepts a connection. Where a
 * server stopped accepting, says at how many and why (its open-files limit, a limit of its own,
 * refusals, timeouts, or it exited), and where the load generator itself could hold no more,
 * says that, and what to set.
 */
public final class ConnectionsRace {
    private ConnectionsRace() {}

    /** The most --connections takes. */
    static final int MAX = 1_000_000;
    /** The requests of the active share: 200 ms of waiting, as a chat message fanned out. */
    static final String PATH = "/io?ms=200";
    /** The share of the connections that is active, each asking once a second. */
    static final double ACTIVE_PERCENT = 1;
    /** Connections being opened at once; one not answered within ANSWER_MILLIS is closed and counted unanswered. */
    static final int WINDOW = 500;
    static final long ANSWER_MILLIS = 5_000, STALL_MILLIS = 5_000;
    /** Refused or turned away this many in a row: the server takes no more, and opening stops. */
    static final int TURNED_AWAY_IN_A_ROW = 1000;
    /** How long a request of the active share still has once its window ends. */
    public static final int TIMEOUT_SECONDS = 2;
    /** Files this process keeps free for itself (jcmd, Bombardier, its jars) below its limit. */
    public static final int OWN_FILES = 256;
    /** A kernel page, the unit of /proc/net/sockstat's "mem". */
    static final long PAGE = 4096;

    /** The phase as a workload, for the CPU split: the servers on every CPU, the client sharing them. */
    public static final Plan.Workload WORKLOAD = new Plan.Workload("connections", Plan.Group.CONNECTIONS,
            "keep-alive connections held at once, 1% of them asking GET " + PATH + " once a second", PATH, 20_000, 200);

    /** The connections asked for when --connections gives no number: 100,000 thorough, 20,000 quick, 2000 smoke. */
    static int defaultConnections(Plan.Mode mode) {
        return switch (mode.pace()) {
            case SMOKE -> 2_000;
            case THOROUGH -> 100_000;
            case QUICK -> 20_000;
        };
    }

    /** Seconds the active share talks: 30 thorough, 10 quick, 3 smoke. */
    static int activeSeconds(Plan.Mode mode) {
        return switch (mode.pace()) {
            case SMOKE -> 3;
            case THOROUGH -> 30;
            case QUICK -> 10;
        };
    }

    /** About how long a server takes, for the progress bar: opening at about 2500 a second, the window, three GCs and the closing. */
    static double secondsPerServer(int connections, Plan.Mode mode) {
        return connections / 2500.0 + activeSeconds(mode) + TIMEOUT_SECONDS + 12;
    }

    static String describe(int connections, Plan.Mode mode) {
        Budget budget = budget(connections);
        return String.format(Locale.ROOT, "the connections: each server in turn, %,d keep-alive connections%s opened %d at a time from 127.0.0.2,"
                        + " 127.0.0.3, ... (%,d each), then %s%% of them ask GET %s once a second for %d s while all stay open; then all close",
                connections, budget.note() == null ? "" : String.format(Locale.ROOT, " (this process may hold only %,d: see the notes)", budget.connections()),
                WINDOW, Connections.perSource(Connections.ephemeralPorts()), share(ACTIVE_PERCENT), PATH, activeSeconds(mode));
    }

    /** How many connections this process can hold, and why fewer than asked (null when not). */
    public record Budget(int connections, String note) {}

    /** What this process can hold of {@code asked}: its open-files limit (the JVM raised its soft limit to the hard one) less what it keeps. */
    public static Budget budget(int asked) {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.UnixOperatingSystemMXBean os) {
            return budget(asked, os.getMaxFileDescriptorCount(), os.getOpenFileDescriptorCount());
        }
        return new Budget(asked, null);
    }

    public static Budget budget(int asked, long maxFiles, long openFiles) {
        long free = maxFiles - openFiles - OWN_FILES;
        if (free >= asked) return new Budget(asked, null);
        int capped = (int) Math.max(0, free);
        return new Budget(capped, String.format(Locale.ROOT, "this process (the load generator) may open only %,d files (ulimit -n; the JVM"
                + " raised its soft limit to the hard one): it opens %,d connections instead of %,d. To hold more, raise the hard limit"
                + " for this shell and the servers it starts: as root 'ulimit -Hn %d; ulimit -n %d' before scripts/bench.sh; or"
                + " '* hard nofile %d' in /etc/security/limits.conf (a new login), LimitNOFILE= in a systemd unit, docker run"
                + " --ulimit nofile=%d:%d; on macOS 'sudo launchctl limit maxfiles %d %d' (and sysctl kern.maxfilesperproc)",
                maxFiles, capped, asked, room(asked), room(asked), room(asked), room(asked), room(asked), room(asked), room(asked)));
    }

    /** An open-files limit that holds {@code connections} with room to spare, rounded up to a thousand. */
    public static long room(int connections) {
        return ((connections + 1000L + 999) / 1000) * 1000;
    }

    /** Each server in turn; every server's flags are in its result. */
    static ConnectionsReport.Summary run(List<Server> servers, int asked, Plan.Mode mode, Progress progress) {
        Budget budget = budget(asked);
        int perSource = Connections.perSource(Connections.ephemeralPorts());
        int seconds = activeSeconds(mode);
        List<ConnectionsReport.Server> results = new ArrayList<>();
        for (Server s : servers) {
            results.add(one(s, budget, perSource, seconds, progress));
            Bench.pause(1000); // the closed connections' sockets go, the server settles
        }
        Long loadMax = ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.UnixOperatingSystemMXBean os
                ? os.getMaxFileDescriptorCount() : null;
        List<String> notes = new ArrayList<>();
        if (budget.note() != null) notes.add(budget.note());
        notes.add("heap: used after a full GC (jcmd GC.run), before and with the connections open; RSS: resident memory, before once it stopped"
                + " falling after that GC; per connection: the difference / the connections held");
        notes.add("kernel: /proc/net/sockstat 'TCP: mem' (pages of socket buffers) and /proc/slabinfo caches TCP and TCPv6 (the sockets"
                + " themselves), machine-wide: both ends of each connection are on this host, so the difference is halved for one end's share,"
                + " and other processes' sockets coming and going are noise in it");
        notes.add("active share: each connection asks once a second, the requests spread over the second; latency from when a request was due;"
                + " a request due while that connection still waits for its last answer is 'late' (not sent) and counts as not answered");
        return new ConnectionsReport.Summary(asked, WINDOW, Connections.sources(budget.connections(), perSource), perSource, PATH,
                ACTIVE_PERCENT, seconds, TIMEOUT_SECONDS, loadMax, notes, results);
    }

    /**
     * One server's turn: readings before, the connections opened, readings with them open, the
     * active share, what a connection cost, whether it still accepts; each step adds to
     * {@code flags} what it found wrong, to {@code notes} what was no fault of the server's.
     */
    private static ConnectionsReport.Server one(Server s, Budget budget, int perSource, int seconds, Progress progress) {
        if (s.gone() != null) {
            progress.skip(secondsPerServer(budget.connections(), Plan.Pace.QUICK.mode()));
            return new ConnectionsReport.Server(s.id, s.gone(), null, null, null, null, List.of(), List.of());
        }
        List<String> flags = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        progress.step("connections: " + s.id + " before (a full GC)", 3);
        Reading before = Reading.before(s);
        ConnectionsReport.Opened opened = null;
        ConnectionsReport.Active active = null;
        ConnectionsReport.Cost costs = null;
        try (Connections c = new Connections()) {
            int asked = budget.connections();
            progress.step(String.format(Locale.ROOT, "connections: %s opens %,d", s.id, asked), asked / 2500.0 + 2);
            Connections.Opened o = c.open(s.target.host, s.target.port, asked, WINDOW, ANSWER_MILLIS, STALL_MILLIS, perSource, TURNED_AWAY_IN_A_ROW);
            Bench.pause(500);
            progress.step("connections: " + s.id + " with " + c.held() + " open (a full GC)", 3);
            Reading with = Reading.with(s);
            int held = c.held();
            boolean alive = s.alive();
            opened = opened(o, alive, with, flags, notes);
            AtomicReference<OptionalInt> threadsActive = new AtomicReference<>(OptionalInt.empty());
            if (held > 0 && alive) active = talk(s, c, held, seconds, threadsActive, progress, flags);
            if (c.closedByServer() > 0) {
                flags.add(String.format(Locale.ROOT, "the server closed %,d held connections while they were open (an idle timeout shorter than the phase, or a failure)",
                        c.closedByServer()));
            }
            costs = costs(before, with, threadsActive.get(), held);
            notes.addAll(artefacts(costs, held)); // other processes' sockets, the JVM's own housekeeping: never the server's fault
        } catch (IOException e) {
            flags.add("the connections could not be opened: " + e.getMessage());
        }
        Bench.pause(500);
        Boolean acceptsAfter = acceptsAfter(s, flags);
        return new ConnectionsReport.Server(s.id, null, opened, active, costs, acceptsAfter, flags, notes);
    }

    /**
     * What the server's process looked like: heap after a full GC, RSS, OS threads, open files
     * and their limit, and the kernel's TCP memory; each empty (or NaN) where it cannot be read.
     */
    private record Reading(double heap, OptionalLong rss, OptionalInt threads, OptionalInt files, OptionalLong maxFiles, Kernel kernel) {
        /** Before the connections (read in this order, the GC first): RSS once it stopped falling after the GC; its files are not needed yet. */
        static Reading before(Server s) {
            return new Reading(s.heapAfterGc(), IdleRace.settledRss(s), s.osThreads(), OptionalInt.empty(), OptionalLong.empty(), Kernel.read());
        }

        /** With the connections open (read in this order, the GC first); its open files tell whether it reached its limit. */
        static Reading with(Server s) {
            return new Reading(s.heapAfterGc(), s.residentBytes(), s.osThreads(), s.openFiles(), s.maxOpenFiles(), Kernel.read());
        }
    }

    /** How opening went, for the report; fewer held than asked is a flag, or a note where the limit was this process's own. */
    private static ConnectionsReport.Opened opened(Connections.Opened o, boolean alive, Reading with, List<String> flags, List<String> notes) {
        String cause = cause(o, alive, boxed(with.files()), boxed(with.maxFiles()));
        if (cause != null) {
            String what = shortfall(o) + ": " + cause;
            if (o.clientLimit() && !cause.contains("server")) notes.add(what); // this machine's limit, not the server's doing
            else flags.add(what);
        }
        return new ConnectionsReport.Opened(o.asked(), o.held(), o.closed(), o.refused(), o.turnedAway(), o.unanswered(), o.notAttempted(),
                o.sources(), Stats.figure(o.seconds()), Stats.figure(o.seconds() > 0 ? o.held() / o.seconds() : Double.NaN), o.stopped(), cause);
    }

    /**
     * The active share's window over the {@code held} connections, the server's threads read
     * halfway through it into {@code threadsActive} (a thread per connection shows there); lost
     * answers are a flag.
     */
    private static ConnectionsReport.Active talk(Server s, Connections c, int held, int seconds, AtomicReference<OptionalInt> threadsActive,
                                                      Progress progress, List<String> flags) throws IOException {
        progress.step(String.format(Locale.ROOT, "connections: %s, %s%% of %,d ask GET %s once a second", s.id, share(ACTIVE_PERCENT), held, PATH),
                seconds + 1);
        Thread sampler = Thread.ofPlatform().daemon().start(() -> {
            try {
                Thread.sleep(seconds * 500L);
                threadsActive.set(s.osThreads());
            } catch (InterruptedException e) {
                // the window ended first
            }
        });
        Connections.Active a = c.talk(s.target.host, s.target.port, PATH, ACTIVE_PERCENT, seconds, TIMEOUT_SECONDS * 1000L);
        sampler.interrupt();
        ConnectionsReport.Active active = new ConnectionsReport.Active(a.connections(), seconds, a.asked(), a.answered(), a.failed(),
                a.late(), a.unanswered(), Stats.figure(a.asked() == 0 ? Double.NaN : 100.0 * a.answered() / a.asked()), Stats.figure(a.p50Ms()),
                Stats.figure(a.p99Ms()), Stats.figure(a.maxMs()), a.closedByServer());
        String lost = lost(active);
        if (lost != null) flags.add(lost);
        return active;
    }

    /** What the connections cost, from the readings before and with them open: the figures, and each per connection held where it can be told. */
    private static ConnectionsReport.Cost costs(Reading before, Reading with, OptionalInt threadsActive, int held) {
        Kernel kb = before.kernel(), kw = with.kernel();
        Double heapPer = perConnection(before.heap(), with.heap(), held, false);
        Double rssPer = before.rss().isPresent() && with.rss().isPresent()
                ? perConnection(before.rss().getAsLong(), with.rss().getAsLong(), held, false) : null;
        Double memPer = kb.known() && kw.known() ? perConnection(kb.tcpMemBytes(), kw.tcpMemBytes(), held, true) : null;
        Double slabPer = kb.slabKnown() && kw.slabKnown() ? perConnection(kb.tcpSlabBytes(), kw.tcpSlabBytes(), held, true) : null;
        return new ConnectionsReport.Cost(Stats.figure(before.heap()), Stats.figure(with.heap()), heapPer, boxed(before.rss()),
                boxed(with.rss()), rssPer, kb.known() ? kb.tcpMemBytes() : null, kw.known() ? kw.tcpMemBytes() : null, memPer,
                kb.slabKnown() ? kb.tcpSlabBytes() : null, kw.slabKnown() ? kw.tcpSlabBytes() : null, slabPer,
                boxed(before.threads()), boxed(with.threads()), boxed(threadsActive), boxed(with.files()), boxed(with.maxFiles()));
    }

    /**
     * Whether the server accepts a new connection once they all closed (null when it exited).
     * Exiting, or no longer accepting, ends its race: the phases after skip it.
     */
    private static Boolean acceptsAfter(Server s, List<String> flags) {
        if (!s.alive()) {
            s.stoppedAnswering("the server exited during the connections phase (its log: .results/logs/bench-" + s.id + ".log)");
            flags.add(s.gone());
            return null;
        }
        boolean accepts = s.target.answers("/", 3000);
        if (!accepts) {
            flags.add("once the connections closed, the server answered no new connection within 3 s: it stopped accepting for good"
                    + " (an accept loop that an error such as EMFILE ended?)");
            s.stoppedAnswering("it stopped accepting connections in the connections phase");
        }
        return accepts;
    }

    /** "held 19,989 of 100,000 (...)", the counts that were not held. */
    public static String shortfall(Connections.Opened o) {
        return String.format(Locale.ROOT, "held %,d of %,d (%,d closed by the server, %,d refused, %,d turned away, %,d unanswered, %,d not tried%s)",
                o.held(), o.asked(), o.closed(), o.refused(), o.turnedAway(), o.unanswered(), o.notAttempted(),
                o.stopped() == null ? "" : "; stopped: " + o.stopped());
    }

    /**
     * Why fewer were held than asked, in words, or null when all were: the server exited, the
     * server reached its open-files limit (EMFILE: its open files at most 16 below the limit), this
     * process reached its own, refusals, answers with an error, timeouts; several where several
     * held.
     */
    public static String cause(Connections.Opened o, boolean alive, Integer serverFiles, Long serverMaxFiles) {
        if (o.held() >= o.asked()) return null;
        List<String> causes = new ArrayList<>();
        if (!alive) causes.add("the server exited (out of memory, or an error it did not survive: see its log)");
        if (serverFiles != null && serverMaxFiles != null && serverFiles >= serverMaxFiles - 16) {
            causes.add(String.format(Locale.ROOT, "the server's open-files limit (EMFILE): %,d of its %,d files open; raise its ulimit -n", serverFiles, serverMaxFiles));
        }
        if (o.clientLimit()) causes.add("the load generator's own limit: " + o.stopped());
        if (o.closed() > 0) causes.add(String.format(Locale.ROOT, "the server closed %,d held connections", o.closed()));
        if (o.refused() > 0) causes.add(String.format(Locale.ROOT, "%,d refused (connect failed: nothing listening, or its backlog full)", o.refused()));
        if (o.turnedAway() > 0) {
            causes.add(String.format(Locale.ROOT, "%,d turned away (answered with an error or closed: a limit of its own, such as --max-concurrent)", o.turnedAway()));
        }
        if (o.unanswered() > 0) {
            causes.add(String.format(Locale.ROOT, "%,d unanswered within %d s (timeouts: connected, but not served: accept failing, or too slow)",
                    o.unanswered(), ANSWER_MILLIS / 1000));
        }
        if (causes.isEmpty()) causes.add(o.stopped() == null ? "unknown" : o.stopped());
        return String.join("; ", causes);
    }

    /** Requests of the active share that may go unanswered without a flag: one or two late on a busy machine are the machine's doing. */
    static final int LOST_ALLOWED = 2;

    /**
     * Answers the active share lost (more than 1% of those due not answered 2xx, and more than
     * {@value #LOST_ALLOWED}: a smoke run's share asks only about 45), or null.
     */
    public static String lost(ConnectionsReport.Active a) {
        long notAnswered = a.asked() - a.answered();
        if (a.asked() == 0 || notAnswered * 100 <= a.asked() || notAnswered <= LOST_ALLOWED) return null;
        return String.format(Locale.ROOT, "the active share got %,d answers of %,d requests due (%s%%): %,d failed, %,d not sent (late), %,d unanswered",
                a.answered(), a.asked(), Stats.millis(100.0 * a.answered() / a.asked()), a.failed(), a.late(), a.unanswered());
    }

    /**
     * (with - before) / held, halved when both ends of each connection are counted; null where
     * it cannot be told: a reading missing, no connection held, or a reading that fell (a
     * measurement artefact, never a cost below nothing: {@link #artefacts}).
     */
    public static Double perConnection(double before, double with, int held, boolean bothEnds) {
        if (Double.isNaN(before) || Double.isNaN(with) || held <= 0 || with < before) return null;
        return Stats.figure((with - before) / held / (bothEnds ? 2 : 1));
    }

    /** A note for each figure that fell while the connections were open, with its likely cause: shown instead of a negative cost. */
    public static List<String> artefacts(ConnectionsReport.Cost c, int held) {
        List<String> flags = new ArrayList<>();
        if (c == null || held <= 0) return flags;
        if (c.heapBeforeBytes() != null && c.heapWithBytes() != null && c.heapWithBytes() < c.heapBeforeBytes()) {
            flags.add(String.format(Locale.ROOT, "heap after GC fell from %s to %s with the connections open: what the server had allocated before"
                            + " (caches, the JIT's, the earlier phase's garbage promoted late) was freed meanwhile; this run cannot tell heap per connection"
                            + " (a measurement artefact, not a cost)", Stats.bytes(c.heapBeforeBytes()), Stats.bytes(c.heapWithBytes())));
        }
        if (c.rssBeforeBytes() != null && c.rssWithBytes() != null && c.rssWithBytes() < c.rssBeforeBytes()) {
            flags.add(String.format(Locale.ROOT, "RSS fell from %d to %d MiB with the connections open: the JVM gave memory back to the system meanwhile,"
                    + " so this run cannot tell RSS per connection (a measurement artefact, not a cost)", c.rssBeforeBytes() >> 20, c.rssWithBytes() >> 20));
        }
        if (c.tcpMemBeforeBytes() != null && c.tcpMemWithBytes() != null && c.tcpMemWithBytes() < c.tcpMemBeforeBytes()) {
            flags.add(String.format(Locale.ROOT, "the kernel's TCP buffer memory fell from %s to %s: it counts every process's sockets, and others closed"
                            + " theirs meanwhile; this run cannot tell it per connection (a measurement artefact)",
                    Stats.bytes(c.tcpMemBeforeBytes()), Stats.bytes(c.tcpMemWithBytes())));
        }
        if (c.tcpSlabBeforeBytes() != null && c.tcpSlabWithBytes() != null && c.tcpSlabWithBytes() < c.tcpSlabBeforeBytes()) {
            flags.add(String.format(Locale.ROOT, "the kernel's TCP sockets fell from %s to %s: it counts every process's sockets, and others closed theirs"
                    + " meanwhile; this run cannot tell it per connection (a measurement artefact)", Stats.bytes(c.tcpSlabBeforeBytes()), Stats.bytes(c.tcpSlabWithBytes())));
        }
        return flags;
    }

    /**
     * The kernel's TCP memory now, machine-wide (Linux; -1 where unknown): socket buffers from
     * /proc/net/sockstat, and the sockets themselves from /proc/slabinfo (root only).
     */
    record Kernel(long tcpMemBytes, long tcpSlabBytes) {
        boolean known() {
            return tcpMemBytes >= 0;
        }

        boolean slabKnown() {
            return tcpSlabBytes >= 0;
        }

        static Kernel read() {
            return new Kernel(readOr(Path.of("/proc/net/sockstat"), ConnectionsRace::tcpMemPages, PAGE),
                    readOr(Path.of("/proc/slabinfo"), ConnectionsRace::tcpSlabBytes, 1));
        }

        private static long readOr(Path file, java.util.function.ToLongFunction<String> parse, long unit) {
            try {
                long v = parse.applyAsLong(Files.readString(file));
                return v < 0 ? -1 : v * unit;
            } catch (IOException | RuntimeException e) {
                return -1;
            }
        }
    }

    /** The "mem" of sockstat's "TCP:" line, in pages; -1 when there is none. */
    public static long tcpMemPages(String sockstat) {
        for (String line : sockstat.split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length == 0 || !f[0].equals("TCP:")) continue;
            for (int i = 1; i + 1 < f.length; i++) if (f[i].equals("mem")) return Long.parseLong(f[i + 1]);
        }
        return -1;
    }

    /** Bytes of the TCP and TCPv6 slab caches (active objects x object size); -1 when neither is listed. */
    public static long tcpSlabBytes(String slabinfo) {
        long sum = -1;
        for (String line : slabinfo.split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length < 4 || !(f[0].equals("TCP") || f[0].equals("TCPv6"))) continue;
            sum = Math.max(sum, 0) + Long.parseLong(f[1]) * Long.parseLong(f[3]);
        }
        return sum;
    }

    /** The table: per server, what it held and how fast, the active share, and what a connection cost. */
    static void print(PrintStream out, ConnectionsReport.Summary c, Painter p) {
        out.println();
        out.println(p.bold("The connections") + String.format(Locale.ROOT, "  %,d keep-alive connections a server, from %d source address(es);"
                        + " while all are open, %s%% of them ask GET %s once a second for %d s", c.asked(), c.sources(), share(c.activePercent()),
                c.path(), c.activeSeconds()));
        out.println(p.dim(String.format(Locale.ROOT, "  %-10s %8s %7s %8s %9s %8s %10s %10s %10s %10s %6s", "server", "held", "open s", "answered",
                "p99 ms", "heap/conn", "RSS/conn", "kbuf/conn", "ksock/conn", "threads", "accepts")));
        for (ConnectionsReport.Server s : c.servers()) {
            if (s.skipReason() != null) {
                out.println(String.format(Locale.ROOT, "  %-10s ", s.server()) + p.dim("sat out: " + s.skipReason()));
                continue;
            }
            ConnectionsReport.Opened o = s.opened();
            ConnectionsReport.Active a = s.active();
            ConnectionsReport.Cost k = s.costs();
            String threads = k == null ? "-" : num(k.threadsWith()) + (k.threadsActive() != null && !k.threadsActive().equals(k.threadsWith())
                    ? "/" + k.threadsActive() : "");
            out.println(" " + (s.flags().isEmpty() ? " " : p.red("!")) + String.format(Locale.ROOT, "%-10s %8s %7s %8s %9s %8s %10s %10s %10s %10s %6s",
                    s.server(), o == null ? "-" : String.format(Locale.ROOT, "%,d", o.held()), o == null ? "-" : Stats.millis(Stats.known(o.seconds())),
                    a == null ? "-" : Stats.millis(Stats.known(a.answeredPercent())) + "%", a == null ? "-" : Stats.millis(Stats.known(a.p99Ms())),
                    k == null ? "-" : bytes(k.heapPerConnectionBytes()), k == null ? "-" : bytes(k.rssPerConnectionBytes()),
                    k == null ? "-" : bytes(k.tcpMemPerConnectionBytes()), k == null ? "-" : bytes(k.tcpSlabPerConnectionBytes()), threads,
                    s.acceptsAfter() == null ? "-" : s.acceptsAfter() ? "yes" : "NO"));
        }
        for (ConnectionsReport.Server s : c.servers()) {
            for (String f : s.flags()) out.println(p.red("  ! ") + s.server() + ": " + f);
            for (String n : s.notes()) out.println(p.dim("  " + s.server() + " (note): " + n));
        }
        out.println(p.dim("  held: open when opening ended; answered: 2xx answers of the requests due, p99 from when each was due;"));
        out.println(p.dim("  heap/conn after a full GC, RSS/conn; kbuf: kernel TCP buffers, ksock: kernel TCP sockets, one end's share (halved);"));
        out.println(p.dim("  threads: the server's OS threads with the connections open (/during the active window); accepts: a new connection, after"));
        for (String n : c.notes()) out.println(p.dim("  " + n));
    }

    /** A percentage as typed: 1, 0.5. */
    static String share(double percent) {
        return new java.math.BigDecimal(percent).round(new java.math.MathContext(3)).stripTrailingZeros().toPlainString();
    }

    private static String bytes(Double b) {
        return b == null ? "-" : Stats.bytes(b);
    }

    private static String num(Integer n) {
        return n == null ? "-" : String.valueOf(n);
    }

    private static Long boxed(OptionalLong v) {
        return v.isPresent() ? v.getAsLong() : null;
    }

    private static Integer boxed(OptionalInt v) {
        return v.isPresent() ? v.getAsInt() : null;
    }
}
