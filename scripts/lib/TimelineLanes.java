package lib;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link Timeline}'s threads while it is drawn ({@link Track}: a thread's CPU and waits, slice
 * by slice), and how they become lanes: the waits the thread dumps show filled in where no event
 * says, the server's threads in order of role and name, the JVM's own folded into one lane, and
 * past the cap the quietest folded too.
 */
final class TimelineLanes {
    private TimelineLanes() {}

    /** One thread's slices while they are read. */
    static final class Track {
        final long tid;
        String name;
        final double[] cpu;
        final char[] state;
        final int[] stateMs;
        char before = ThreadStates.NONE; // the wait the first dump showed
        char after = ThreadStates.NONE; // and the last
        boolean inBefore;
        boolean inAfter;

        Track(long tid, String name, int slices) {
            this.tid = tid;
            this.name = name;
            this.cpu = new double[slices];
            this.state = new char[slices];
            this.stateMs = new int[slices];
            java.util.Arrays.fill(state, ThreadStates.NONE);
        }

        /** Marks {@code code} over [start, end], in each slice where it covers more than what is there. */
        void waited(Timeline.Window w, Instant start, Instant end, char code) {
            int[] span = w.span(start, end);
            if (span == null) return;
            for (int s = span[0]; s <= span[1]; s++) {
                long sliceStart = (long) s * w.sliceMs();
                long covered = Math.min(sliceStart + w.sliceMs(), w.ms(end)) - Math.max(sliceStart, w.ms(start));
                if (covered > stateMs[s]) {
                    stateMs[s] = (int) covered;
                    state[s] = code;
                }
            }
        }
    }

    /**
     * Slices no event explains, off the CPU: from the start, the wait the first dump showed, until
     * the thread first ran or an event began; back from the end, the wait the last dump showed.
     * A wait still going on when the recording stopped wrote no event, and one that began before
     * and went on throughout wrote none either; between events, nothing is made up.
     */
    static void fill(Track t) {
        int n = t.state.length;
        int first = 0;
        while (first < n && quiet(t, first)) first++;
        int last = n - 1;
        while (last >= 0 && quiet(t, last)) last--;
        char before = t.inBefore ? t.before : ThreadStates.NONE;
        char after = t.inAfter ? t.after : ThreadStates.NONE;
        if (first == n) { // it neither ran nor wrote an event: one wait throughout, if the dumps agree
            char throughout = before == after || after == ThreadStates.NONE ? before : before == ThreadStates.NONE ? after : ThreadStates.NONE;
            java.util.Arrays.fill(t.state, throughout);
            return;
        }
        for (int s = 0; s < first; s++) t.state[s] = before;
        for (int s = last + 1; s < n; s++) t.state[s] = after;
    }

    /** A slice in which the thread neither ran (a fifth of a core or more) nor wrote an event. */
    private static boolean quiet(Track t, int s) {
        return t.state[s] == ThreadStates.NONE && t.cpu[s] < 0.2;
    }

    /** The tracks as lanes: the server's threads by role and name, the JVM's folded into one, and past the cap the quietest folded too. */
    static List<Timeline.Lane> lanes(java.util.Collection<Track> tracks, int sliceMs, List<String> notes) {
        List<Track> own = new ArrayList<>();
        List<Track> jvm = new ArrayList<>();
        for (Track t : tracks) {
            if (ThreadStates.role(t.name).equals("jvm")) jvm.add(t); else if (active(t)) own.add(t);
        }
        own.sort(Comparator.comparingInt((Track t) -> ThreadStates.ROLES.indexOf(ThreadStates.role(t.name))).thenComparing(t -> t.name, TimelineLanes::natural));
        List<Track> kept = own;
        List<Track> rest = List.of();
        if (own.size() > Timeline.MAX_LANES - 2) {
            // The threads that shape a server (its main, acceptor, loops, carriers, pollers) stay;
            // of the many alike (workers, others), the busiest.
            List<Track> busiest = new ArrayList<>(own);
            busiest.sort(Comparator.comparing((Track t) -> many(t)).thenComparing(Comparator.comparingDouble(TimelineLanes::activity).reversed()));
            java.util.Set<Track> keep = new java.util.HashSet<>(busiest.subList(0, Timeline.MAX_LANES - 2));
            kept = own.stream().filter(keep::contains).toList();
            rest = own.stream().filter(t -> !keep.contains(t)).toList();
            notes.add(rest.size() + " quieter threads are folded into one lane, which shows their CPU summed and the wait most of them shared");
        }
        List<Timeline.Lane> lanes = new ArrayList<>();
        for (Track t : kept) lanes.add(lane(t.name, ThreadStates.role(t.name), List.of(t), sliceMs));
        if (!rest.isEmpty()) lanes.add(lane(rest.size() + " more threads", "other", rest, sliceMs));
        if (!jvm.isEmpty()) lanes.add(lane("the JVM's own threads (compiler, GC, flight recorder, attach)", "jvm", jvm, sliceMs));
        return lanes;
    }

    /** Whether a thread is one of many alike (a worker, or a thread of no known role), which fold first. */
    private static boolean many(Track t) {
        String role = ThreadStates.role(t.name);
        return role.equals("worker") || role.equals("other");
    }

    /** A thread that lived in the window: it ran, waited, or was in both dumps. */
    private static boolean active(Track t) {
        for (int s = 0; s < t.cpu.length; s++) if (t.cpu[s] > 0.005 || t.state[s] != ThreadStates.NONE) return true;
        return t.inBefore || t.inAfter;
    }

    private static double activity(Track t) {
        double sum = 0;
        for (int s = 0; s < t.cpu.length; s++) sum += t.cpu[s] + (t.state[s] == ThreadStates.NONE || t.state[s] == ThreadStates.IDLE ? 0 : 0.1);
        return sum;
    }

    /** One lane from one or more tracks: CPU summed (a digit is tenths of one core, 9 for 90% and over), the commonest wait. */
    private static Timeline.Lane lane(String name, String role, List<Track> group, int sliceMs) {
        int n = group.get(0).cpu.length;
        StringBuilder cpu = new StringBuilder(n);
        StringBuilder state = new StringBuilder(n);
        double totalMs = 0;
        for (int s = 0; s < n; s++) {
            double load = 0;
            Map<Character, Integer> waits = new HashMap<>();
            for (Track t : group) {
                load += t.cpu[s];
                if (t.state[s] != ThreadStates.NONE) waits.merge(t.state[s], 1, Integer::sum);
            }
            totalMs += load * sliceMs;
            cpu.append((char) ('0' + Math.max(0, Math.min(9, (int) Math.floor(load * 10 + 0.25)))));
            char wait = ThreadStates.NONE;
            int most = 0;
            for (var e : waits.entrySet()) {
                if (e.getValue() > most || (e.getValue() == most && e.getKey() < wait)) {
                    most = e.getValue();
                    wait = e.getKey();
                }
            }
            state.append(group.size() > 1 && most * 2 < group.size() ? ThreadStates.NONE : wait);
        }
        return new Timeline.Lane(name, role, cpu.toString(), state.toString(), Math.round(totalMs), group.size() > 1 ? group.size() : null);
    }

    /** "loop-2" before "loop-10". */
    static int natural(String a, String b) {
        var pa = java.util.regex.Pattern.compile("\\d+|\\D+").matcher(a == null ? "" : a);
        var pb = java.util.regex.Pattern.compile("\\d+|\\D+").matcher(b == null ? "" : b);
        while (pa.find() && pb.find()) {
            String x = pa.group();
            String y = pb.group();
            int c = Character.isDigit(x.charAt(0)) && Character.isDigit(y.charAt(0))
                    ? Long.compare(Long.parseLong(x.length() > 18 ? x.substring(0, 18) : x), Long.parseLong(y.length() > 18 ? y.substring(0, 18) : y))
                    : x.compareTo(y);
            if (c != 0) return c;
        }
        return Integer.compare(a == null ? 0 : a.length(), b == null ? 0 : b.length());
    }
}
