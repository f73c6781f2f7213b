package contract;


import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * The connections phase's part of a race's JSON ({@link BenchReport#connections}): what
 * {@link ConnectionsRace} writes and the site reads. Records only: a committed run is read back
 * as it was written, so fields are added, never changed.
 */
public final class ConnectionsReport {
    private ConnectionsReport() {}

    /**
     * The connections phase ({@link ConnectionsRace}): {@code asked} keep-alive connections a
     * server, opened {@code window} at a time from {@code sources} source addresses
     * ({@code perSource} each; the servers listen on 127.0.0.1); then, with all of them open,
     * {@code activePercent}% of them each ask GET {@code path} once a second for
     * {@code activeSeconds}, every request awaited {@code timeoutSeconds} past the window.
     * {@code loadMaxOpenFiles}: this process's open-files limit (ulimit -n), which caps what it
     * can hold; {@code notes}: how the figures were made and what capped them.
     */
    public record Summary(int asked, int window, int sources, int perSource, String path, double activePercent, int activeSeconds,
                              int timeoutSeconds, @JsonInclude(JsonInclude.Include.NON_NULL) Long loadMaxOpenFiles, List<String> notes,
                              List<Server> servers) {}

    /**
     * One server: {@code skipReason} when it sat the phase out; {@code opened}, how opening went;
     * {@code active}, the active share's window (null when nothing was held); {@code costs}, what
     * the connections cost it; {@code acceptsAfter}, whether it answered a new connection once
     * they were closed (null when not asked: it had exited); {@code flags}: a shortfall with its
     * cause, answers lost, a server that stopped accepting or exited; {@code notes}: worth
     * knowing, not the server's fault (this machine's limits, a measurement artefact).
     */
    public record Server(String server, String skipReason, Opened opened, Active active, Cost costs,
                             Boolean acceptsAfter, List<String> flags, List<String> notes) {}

    /**
     * Opening: {@code asked = held + closed + refused + turnedAway + unanswered + notAttempted}
     * ({@code closed}: held, then closed by the server while the rest opened; {@code turnedAway}:
     * answered with an error, or closed before an answer; {@code unanswered}: no answer within
     * the deadline); {@code sources}, the source addresses used; {@code seconds} to open them;
     * {@code stopped}, why it stopped opening more (null when it did not); {@code cause}, the
     * likeliest reason in words ("load generator's open-files limit", "server's open-files limit
     * (EMFILE)", ...), null when all were held.
     */
    public record Opened(int asked, int held, int closed, int refused, int turnedAway, int unanswered, int notAttempted, int sources,
                             Double seconds, Double perSecond, String stopped, String cause) {}

    /**
     * The active share: {@code connections} each asked once a second; of the {@code asked}
     * requests due, {@code answered} 2xx, {@code failed} otherwise, {@code late} not sent (that
     * connection's last request was still unanswered), {@code unanswered} no answer in time;
     * latency from when each was due, in ms; {@code closedByServer}, held connections the server
     * closed during the window.
     */
    public record Active(int connections, int seconds, long asked, long answered, long failed, long late, long unanswered,
                             Double answeredPercent, Double p50Ms, Double p99Ms, Double maxMs, int closedByServer) {}

    /**
     * What the connections held cost the server: heap after a full GC and RSS (once settled)
     * before and with them, and per connection held; the kernel's TCP buffer memory
     * ({@code /proc/net/sockstat}, "TCP: mem", pages of 4 KiB) and its TCP socket structures
     * ({@code /proc/slabinfo}, caches TCP and TCPv6), before and with them, and per connection:
     * both ends of every connection are sockets of this host, so the per-connection figures are
     * halved (one end's share) and count every process's sockets (others' churn is noise).
     * A per-connection figure is null where it cannot be told (a reading missing, or one that
     * fell: a measurement artefact, flagged). Threads (OS) and open files of the server.
     */
    public record Cost(Double heapBeforeBytes, Double heapWithBytes, Double heapPerConnectionBytes, Long rssBeforeBytes,
                           Long rssWithBytes, Double rssPerConnectionBytes, Long tcpMemBeforeBytes, Long tcpMemWithBytes,
                           Double tcpMemPerConnectionBytes, Long tcpSlabBeforeBytes, Long tcpSlabWithBytes, Double tcpSlabPerConnectionBytes,
                           Integer threadsBefore, Integer threadsWith, Integer threadsActive, Integer filesWith, Long serverMaxOpenFiles) {}
}
