package lib;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * A picture of the server's threads over a few seconds: a lane per platform thread, and in each
 * slice of time how much of a core it used and what it waited for when it did not run; the
 * virtual threads counted (started, alive, pinned) rather than drawn one by one; the GC pauses.
 * Recorded with the JVM's flight recorder while a check or a race's workload runs
 * ({@link #start}), written as {@code .results/timeline/NN-WHAT.json} (schema course-timeline/1)
 * and drawn by the site (js/course/timeline.js). Its size is fixed: at most {@value #MAX_SLICES}
 * slices and {@value #MAX_LANES} lanes, whatever the server does.
 *
 * <p>Where the picture comes from: each thread's CPU load every {@value #PERIOD_MS} ms
 * (jdk.ThreadCPULoad); its waits of 10 ms or more, from the events the JVM writes as each one
 * ends (socket reads and writes, parks, sleeps, monitors); and, for a wait still going on when
 * the recording started or stopped (a selector's, or a read that never ended), the thread dumps
 * taken then. A server that is not a JVM has no recording: {@link Unavailable}.
 */
public final class Timeline {
    public static final String SCHEMA = "course-timeline/1";
    static final int PERIOD_MS = 50;
    public static final int MAX_SLICES = 160;
    public static final int MAX_LANES = 28;
    /** The longest stretch drawn: a longer recording keeps its first seconds. */
    static final Duration LONGEST = Duration.ofSeconds(12);
    private static final String WAIT = "10ms";

    /** The flight recorder's settings: nothing but what the timeline draws. */
    static final List<String> SETTINGS = List.of("settings=none",
            "+jdk.ThreadCPULoad#enabled=true", "+jdk.ThreadCPULoad#period=" + PERIOD_MS + "ms",
            "+jdk.SocketRead#enabled=true", "+jdk.SocketRead#threshold=" + WAIT,
            "+jdk.SocketWrite#enabled=true", "+jdk.SocketWrite#threshold=" + WAIT,
            "+jdk.ThreadPark#enabled=true", "+jdk.ThreadPark#threshold=" + WAIT,
            "+jdk.ThreadSleep#enabled=true", "+jdk.ThreadSleep#threshold=" + WAIT,
            "+jdk.JavaMonitorEnter#enabled=true", "+jdk.JavaMonitorEnter#threshold=" + WAIT,
            "+jdk.JavaMonitorWait#enabled=true", "+jdk.JavaMonitorWait#threshold=" + WAIT,
            "+jdk.VirtualThreadStart#enabled=true", "+jdk.VirtualThreadEnd#enabled=true",
            "+jdk.VirtualThreadPinned#enabled=true", "+jdk.VirtualThreadPinned#threshold=5ms",
            "+jdk.GarbageCollection#enabled=true", "+jdk.CPUInformation#enabled=true");

    /** One lane: a thread (or the JVM's own, or the threads left over, folded into one). {@code cpu}: a digit a slice, tenths of one core. */
    public record Lane(String name, String role, String cpu, String state, long cpuMs, Integer threads) {}

    /** The virtual threads, a number a slice: started in it, alive at its end (of those seen start), and carriers pinned (average). */
    public record Virtual(int startedTotal, int endedTotal, int aliveAtStart, List<Integer> started, List<Integer> alive, List<Double> pinned) {}

    /** Something that happened at {@code atMs} for {@code ms}: "gc" or "pinned". */
    record Event(String kind, long atMs, long ms, String text) {}

    /** What recording cost the server, when the race measured it (bench.sh --timeline): its CPU per 2xx answer while recorded, and in a turn as long just before, unrecorded, in µs. */
    public record Overhead(Double cpuMicrosPerRequestRecorded, Double cpuMicrosPerRequestMeasured) {}

    /** The file's content; {@code overhead} absent when the recording's cost was not measured (a check's). */
    public record Doc(String schema, String chapter, String what, String title, String server, String recorded, int cores,
               int sliceMs, int slices, List<Lane> lanes, Virtual virtual, List<Event> events, Map<Character, String> states,
               List<String> notes, @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL) Overhead overhead) {
        public Doc(String schema, String chapter, String what, String title, String server, String recorded, int cores, int sliceMs, int slices,
            List<Lane> lanes, Virtual virtual, List<Event> events, Map<Character, String> states, List<String> notes) {
            this(schema, chapter, what, title, server, recorded, cores, sliceMs, slices, lanes, virtual, events, states, notes, null);
        }
    }

    /** A recording under way: {@link #stop} ends it and reads it. */
    public static final class Recording {
        private final Inspect inspect;
        private final String name;
        private final List<Inspect.ThreadInfo> before;
        private final Instant from;

        private Recording(Inspect inspect, String name, List<Inspect.ThreadInfo> before, Instant from) {
            this.inspect = inspect;
            this.name = name;
            this.before = before;
            this.from = from;
        }

        /** Stops the recording and draws it: {@code chapter}, {@code what} and the words that say what ran meanwhile. */
        public Doc stop(String chapter, String what, String title, String server) throws IOException {
            Instant to = Instant.now();
            Path file = Files.createTempFile("timeline-", ".jfr");
            try {
                inspect.jfrStop(name, file);
                List<Inspect.ThreadInfo> after = inspect.threads();
                return draw(RecordingFile.readAllEvents(file), before, after, from, to, chapter, what, title, server);
            } finally {
                Files.deleteIfExists(file);
            }
        }

        /** Stops the recording, keeping nothing (the check it served could not finish). */
        public void discard() {
            try {
                inspect.jfrDiscard(name);
            } catch (IOException | RuntimeException e) {
                // the server is gone, or was never recorded: nothing to keep
            }
        }
    }

    private Timeline() {}

    /** Starts recording the server {@code inspect} looks into: a thread dump, then the flight recorder. */
    public static Recording start(Inspect inspect) throws IOException {
        List<Inspect.ThreadInfo> before = inspect.threads();
        String name = "timeline-" + System.nanoTime();
        inspect.jfrStart(name, SETTINGS);
        return new Recording(inspect, name, before, Instant.now());
    }

    /** Where the learner's timelines go, under the course's folder (the site serves them at results/timeline/). */
    public static final String LEARNER = ".results/timeline";

    /** Whether {@code dir} is the learner's own timelines' folder under the course at {@code root}. */
    public static boolean learners(Path root, Path dir) {
        return dir.toAbsolutePath().normalize().equals(root.resolve(LEARNER).toAbsolutePath().normalize());
    }

    /**
     * Writes {@code doc} as {@code NAME.json} in {@code dir}; returns the file. In the learner's
     * folder it is one of their results (listed for the site, sent to a room they joined).
     */
    public static Path write(Path root, Path dir, String name, Doc doc) throws IOException {
        if (learners(root, dir)) {
            return Results.write(root, "timeline", name, Jackson.write(doc));
        }
        Files.createDirectories(dir);
        return Files.writeString(dir.resolve(name + ".json"), Jackson.write(doc));
    }

    /** The slice a time falls in, or -1 outside the window. */
    record Window(Instant from, int sliceMs, int slices) {
        int slice(Instant t) {
            long ms = Duration.between(from, t).toMillis();
            if (ms < 0) return -1;
            int s = (int) (ms / sliceMs);
            return s < slices ? s : -1;
        }

        long ms(Instant t) {
            return Duration.between(from, t).toMillis();
        }

        /** The slices [first, last] a span covers, clipped to the window; null when it misses it. */
        int[] span(Instant start, Instant end) {
            long a = Math.max(0, ms(start));
            long b = Math.min((long) slices * sliceMs - 1, ms(end));
            if (b < a || b < 0) return null;
            return new int[] {(int) (a / sliceMs), (int) (b / sliceMs)};
        }
    }

    /** Turns the events and the two thread dumps into the picture. */
    static Doc draw(List<RecordedEvent> events, List<Inspect.ThreadInfo> before, List<Inspect.ThreadInfo> after,
                    Instant from, Instant to, String chapter, String what, String title, String server) {
        long wallMs = Math.max(PERIOD_MS, Math.min(Duration.between(from, to).toMillis(), LONGEST.toMillis()));
        int sliceMs = PERIOD_MS * (int) Math.ceil(wallMs / (double) (PERIOD_MS * MAX_SLICES));
        int slices = (int) Math.max(1, Math.min(MAX_SLICES, Math.round(wallMs / (double) sliceMs)));
        Window w = new Window(from, sliceMs, slices);
        List<String> notes = new ArrayList<>();
        if (Duration.between(from, to).compareTo(LONGEST) > 0) {
            notes.add("the recording ran " + Duration.between(from, to).toSeconds() + " s; its first " + LONGEST.toSeconds() + " s are drawn");
        }

        Map<Long, TimelineLanes.Track> tracks = new LinkedHashMap<>();
        java.util.function.BiFunction<Long, String, TimelineLanes.Track> track = (tid, name) -> {
            TimelineLanes.Track t = tracks.computeIfAbsent(tid, k -> new TimelineLanes.Track(k, name, slices));
            if ((t.name == null || t.name.isBlank()) && name != null) t.name = name;
            return t;
        };
        for (Inspect.ThreadInfo t : before) {
            if (t.virtual() || t.tid() == null) continue;
            TimelineLanes.Track k = track.apply(Long.parseLong(t.tid()), t.name());
            k.before = ThreadStates.fromDump(t.state(), t.stack());
            k.inBefore = true;
        }
        for (Inspect.ThreadInfo t : after) {
            if (t.virtual() || t.tid() == null) continue;
            TimelineLanes.Track k = track.apply(Long.parseLong(t.tid()), t.name());
            k.after = ThreadStates.fromDump(t.state(), t.stack());
            k.inAfter = true;
        }
        int aliveAtStart = (int) before.stream().filter(Inspect.ThreadInfo::virtual).count();
        // A virtual thread that waits while mounted is pinned: its carrier can run no other until it ends.
        held(before, tracks, true);
        held(after, tracks, false);

        int cores = Runtime.getRuntime().availableProcessors();
        for (RecordedEvent e : events) {
            if (e.getEventType().getName().equals("jdk.CPUInformation") && e.hasField("hwThreads")) cores = Math.max(1, e.getInt("hwThreads"));
        }
        int[] started = new int[slices];
        int[] ended = new int[slices];
        double[] pinnedMs = new double[slices];
        int startedTotal = 0;
        int endedTotal = 0;
        List<Event> marks = new ArrayList<>();
        int pinnedShown = 0;
        for (RecordedEvent e : events) {
            String type = e.getEventType().getName();
            RecordedThread thread = e.hasField("eventThread") ? e.getThread("eventThread") : null;
            switch (type) {
                case "jdk.VirtualThreadStart", "jdk.VirtualThreadEnd" -> {
                    int s = w.slice(e.getStartTime());
                    if (s < 0) continue;
                    if (type.endsWith("Start")) { started[s]++; startedTotal++; } else { ended[s]++; endedTotal++; }
                }
                case "jdk.VirtualThreadPinned" -> {
                    int[] span = w.span(e.getStartTime(), e.getEndTime());
                    if (span == null) continue;
                    for (int s = span[0]; s <= span[1]; s++) {
                        long a = Math.max((long) s * sliceMs, w.ms(e.getStartTime()));
                        long b = Math.min((long) (s + 1) * sliceMs, w.ms(e.getEndTime()));
                        pinnedMs[s] += Math.max(0, b - a);
                    }
                    if (pinnedShown++ < 40) {
                        marks.add(new Event("pinned", Math.max(0, w.ms(e.getStartTime())), e.getDuration().toMillis(),
                                "a virtual thread held its carrier for " + e.getDuration().toMillis() + " ms" + at(e)));
                    }
                }
                case "jdk.GarbageCollection" -> {
                    if (w.slice(e.getStartTime()) < 0) continue;
                    long pause = e.hasField("sumOfPauses") ? e.getDuration("sumOfPauses").toMillis() : e.getDuration().toMillis();
                    marks.add(new Event("gc", w.ms(e.getStartTime()), pause, "garbage collection (" + e.getString("name") + "): the threads stopped for "
                            + pause + " ms in all"));
                }
                case "jdk.ThreadCPULoad" -> {
                    if (thread == null || thread.isVirtual()) continue;
                    int s = w.slice(e.getStartTime().minusMillis(PERIOD_MS / 2));
                    if (s < 0) continue;
                    double load = (e.getFloat("user") + e.getFloat("system")) * cores;
                    TimelineLanes.Track t = track.apply(thread.getJavaThreadId(), thread.getJavaName());
                    t.cpu[s] += load * PERIOD_MS / sliceMs;
                }
                default -> {
                    if (thread == null || thread.isVirtual()) continue;
                    char code = switch (type) {
                        case "jdk.SocketRead" -> ThreadStates.READ;
                        case "jdk.SocketWrite" -> ThreadStates.WRITE;
                        case "jdk.ThreadSleep" -> ThreadStates.SLEEP;
                        case "jdk.JavaMonitorEnter" -> ThreadStates.LOCK;
                        case "jdk.JavaMonitorWait", "jdk.ThreadPark" -> parked(e);
                        default -> ThreadStates.NONE;
                    };
                    if (code == ThreadStates.NONE) continue;
                    track.apply(thread.getJavaThreadId(), thread.getJavaName()).waited(w, e.getStartTime(), e.getEndTime(), code);
                }
            }
        }
        for (TimelineLanes.Track t : tracks.values()) {
            TimelineLanes.fill(t);
            // Carriers held as the recording began or ended (a pin that never ended wrote no event).
            for (int s = 0; s < slices; s++) if (t.state[s] == ThreadStates.HELD) pinnedMs[s] = Math.min(cores * sliceMs, pinnedMs[s] + sliceMs);
        }

        List<Lane> lanes = TimelineLanes.lanes(tracks.values(), sliceMs, notes);
        List<Integer> alive = new ArrayList<>();
        int running = aliveAtStart;
        for (int s = 0; s < slices; s++) {
            running += started[s] - ended[s];
            alive.add(Math.max(0, running));
        }
        List<Double> pinned = new ArrayList<>();
        for (double ms : pinnedMs) pinned.add(Math.round(ms / sliceMs * 100) / 100.0);
        Virtual virtual = new Virtual(startedTotal, endedTotal, aliveAtStart, java.util.Arrays.stream(started).boxed().toList(), alive, pinned);
        if (pinnedShown > 40) notes.add((pinnedShown - 40) + " more pinned virtual threads are counted in the pinned row but not marked one by one");
        marks.sort(Comparator.comparingLong(Event::atMs));
        return new Doc(SCHEMA, chapter, what, title, server, from.toString(), cores, sliceMs, slices, lanes, virtual, marks,
                new java.util.TreeMap<>(ThreadStates.WORDS), notes);
    }

    /** Marks the carriers whose mounted virtual thread waits, in a dump: held, from the start ({@code first}) or until the end. */
    private static void held(List<Inspect.ThreadInfo> dump, Map<Long, TimelineLanes.Track> tracks, boolean first) {
        for (Inspect.ThreadInfo t : dump) {
            if (!t.virtual() || t.carrier() == null || !t.carrier().matches("\\d+")) continue;
            if (!List.of("WAITING", "TIMED_WAITING", "BLOCKED").contains(t.state())) continue;
            TimelineLanes.Track carrier = tracks.get(Long.parseLong(t.carrier()));
            if (carrier == null) continue;
            if (first) carrier.before = ThreadStates.HELD; else carrier.after = ThreadStates.HELD;
        }
    }

    /** Where a pinned virtual thread was: the first frame of the server's own code, else the innermost. */
    private static String at(RecordedEvent e) {
        if (e.getStackTrace() == null) return "";
        List<RecordedFrame> frames = e.getStackTrace().getFrames();
        for (RecordedFrame f : frames) {
            String type = f.getMethod().getType().getName();
            if (!type.startsWith("java.") && !type.startsWith("jdk.") && !type.startsWith("sun.")) {
                return ", in " + type.substring(type.lastIndexOf('.') + 1) + "." + f.getMethod().getName();
            }
        }
        return frames.isEmpty() ? "" : ", in " + frames.get(0).getMethod().getName();
    }

    /** A park's meaning, from where it parked. */
    private static char parked(RecordedEvent e) {
        List<String> stack = new ArrayList<>();
        if (e.getStackTrace() != null) {
            for (RecordedFrame f : e.getStackTrace().getFrames()) stack.add(f.getMethod().getType().getName() + "." + f.getMethod().getName());
        }
        char code = ThreadStates.fromStack(stack);
        return code == ThreadStates.NONE ? ThreadStates.PARKED : code;
    }

}
