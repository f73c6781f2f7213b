package contract;

import java.util.ArrayList;
import java.util.List;

/**
 * How a race shares the machine's CPUs between the servers and the load generator, workload by
 * workload. Servers start unpinned, so each JVM sizes itself (GC, carriers, event loops) for every
 * CPU, and each answers a GET /, /io and /cpu before it is first pinned, so that the pools it
 * makes on first use see every CPU too ({@link Server#FIRST_REQUESTS}); before a workload, each
 * is pinned with {@code taskset -a -p}, and Bombardier runs under
 * {@code taskset -c}. By default the servers get every CPU wherever the load costs little (io,
 * cpu, mixed, db, idle, trip: a few thousand requests a second at most) and Bombardier shares
 * them; on hello, where Bombardier needs a core of its own to keep up, the servers get the first
 * half of the CPUs and Bombardier the rest. {@code --server-cpus N} gives the servers CPUs 0 to
 * N-1 on every workload instead, and Bombardier the others (or a share of all, when N is all).
 *
 * @param total      the machine's CPUs
 * @param canPin     whether taskset is there and there are 2 CPUs or more
 * @param serverCpus what --server-cpus asked for, or 0 for the default split
 */
public record Cpus(int total, boolean canPin, int serverCpus) {

    /** Where a workload runs (BenchReport.CpuSplit: taskset lists, null where a side is not pinned). */
    public BenchReport.CpuSplit of(Plan.Workload w) {
        if (!canPin) return new BenchReport.CpuSplit(null, null, "not pinned (" + (total < 2 ? "one CPU" : "no taskset")
                + "): servers and the load share " + cpus(total));
        int servers = serverCpus > 0 ? Math.min(serverCpus, total) : w.loadCostsCpu() ? Math.max(1, total / 2) : total;
        String serverList = range(0, servers);
        if (servers == total) {
            return new BenchReport.CpuSplit(serverList, null, "servers on every CPU (" + serverList + "), " + loadName(w) + " sharing them");
        }
        String loadList = range(servers, total);
        return new BenchReport.CpuSplit(serverList, loadList, "servers on " + cpus(servers) + " (" + serverList + "), "
                + loadName(w) + " on " + cpus(total - servers) + " (" + loadList + ")");
    }

    /** The rule in one line, for the report's machine facts. */
    public String rule() {
        if (!canPin) return of(Plan.WORKLOADS.get(0)).words();
        if (serverCpus > 0) return "--server-cpus " + serverCpus + ": " + of(Plan.WORKLOADS.get(0)).words() + ", on every workload";
        List<String> cheap = new ArrayList<>();
        List<String> dear = new ArrayList<>();
        for (Plan.Workload w : Plan.WORKLOADS) {
            List<String> list = w.loadCostsCpu() ? dear : cheap;
            if (!list.contains(w.group().label())) list.add(w.group().label());
        }
        return "per workload: " + String.join(", ", cheap) + ": " + of(Plan.WORKLOADS.stream().filter(w -> !w.loadCostsCpu()).findFirst().orElseThrow()).words()
                + "; " + String.join(", ", dear) + ": " + of(Plan.WORKLOADS.stream().filter(Plan.Workload::loadCostsCpu).findFirst().orElseThrow()).words()
                + " (set your own with --server-cpus N)";
    }

    /** Every CPU as a taskset list: "0-1" on two. */
    public String every() {
        return range(0, total);
    }

    /** How many CPUs a taskset list names ("0-1,3" is 3), or {@code total} for null (not pinned). */
    public int count(String list) {
        if (list == null) return total;
        int n = 0;
        for (String part : list.split(",")) {
            String[] ends = part.split("-");
            n += ends.length == 1 ? 1 : Integer.parseInt(ends[1]) - Integer.parseInt(ends[0]) + 1;
        }
        return n;
    }

    private static String loadName(Plan.Workload w) {
        return w.idle() ? "the idle connections' client" : w.callsBackend() ? "Bombardier and the backend"
                : w.group() == Plan.Group.OPEN_LOOP ? "Vegeta, then Bombardier," : "Bombardier";
    }

    private static String range(int from, int to) {
        return to - from == 1 ? String.valueOf(from) : from + "-" + (to - 1);
    }

    private static String cpus(int n) {
        return n == 1 ? "1 CPU" : n + " CPUs";
    }
}
