package lib;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The operating system's context switches of a process, thread by thread, as Linux shows them in
 * {@code /proc/PID/task/TID/status}: {@code voluntary_ctxt_switches} (the thread gave up its core:
 * it blocked, parked or slept) plus {@code nonvoluntary_ctxt_switches} (the scheduler took the
 * core away). {@link Inspect#contextSwitches} reads them; {@link #since} says how many a process
 * made between two readings, and {@link #perRequest} divides them by the answers.
 *
 * <p>Linux keeps the counts per thread: the process's own {@code /proc/PID/status} shows only
 * its first thread's, so a process's switches are the sum over its threads. A thread that ends
 * takes its counts with it (the kernel adds them to the process's own rusage, which /proc does
 * not show to another process), so the sum over two readings counts what the threads alive at the second
 * reading made since the first; {@link #since} says how a thread that came or went is counted.
 */
public final class ContextSwitches {
    private ContextSwitches() {}

    /**
     * Voluntary plus nonvoluntary switches in the text of a {@code status} file; empty when it
     * shows neither (a kernel without them, or not Linux's format).
     */
    public static OptionalLong parse(String status) {
        long sum = 0;
        boolean found = false;
        for (String line : status.split("\n")) {
            if (!line.startsWith("voluntary_ctxt_switches:") && !line.startsWith("nonvoluntary_ctxt_switches:")) continue;
            String value = line.substring(line.indexOf(':') + 1).strip();
            if (!value.matches("\\d+")) return OptionalLong.empty();
            sum += Long.parseLong(value);
            found = true;
        }
        return found ? OptionalLong.of(sum) : OptionalLong.empty();
    }

    /**
     * Each thread's switches so far, by thread id, from a {@code /proc/PID/task} folder; empty
     * when the folder cannot be read (the process is gone). A thread that ends while it is read
     * is left out, as one that ended before.
     */
    public static Map<Long, Long> read(Path tasks) {
        Map<Long, Long> all = new HashMap<>();
        List<Path> threads;
        try (var list = Files.list(tasks)) {
            threads = list.toList();
        } catch (IOException | RuntimeException e) {
            return all;
        }
        for (Path task : threads) {
            String tid = task.getFileName().toString();
            if (!tid.matches("\\d+")) continue;
            try {
                parse(Files.readString(task.resolve("status"))).ifPresent(n -> all.put(Long.parseLong(tid), n));
            } catch (IOException | RuntimeException e) {
                // the thread ended meanwhile
            }
        }
        return all;
    }

    /**
     * The switches the process made from reading {@code before} to reading {@code after}: each
     * thread of {@code after} by what it gained since {@code before}. A thread that started
     * between them counts all its switches (all made since); one whose count went down is a new
     * thread with an old thread's id, and counts all of its own too. A thread that ended between
     * them is not in {@code after}: what it made since {@code before} is lost with it, so where
     * threads end during a run the figure is a floor.
     */
    public static long since(Map<Long, Long> before, Map<Long, Long> after) {
        long sum = 0;
        for (var e : after.entrySet()) {
            long was = before.getOrDefault(e.getKey(), 0L);
            sum += e.getValue() >= was ? e.getValue() - was : e.getValue();
        }
        return sum;
    }

    /** {@code switches} per answer: NaN when either is unknown (negative) or there was no answer. */
    public static double perRequest(long switches, long answers) {
        return switches < 0 || answers <= 0 ? Double.NaN : (double) switches / answers;
    }
}
