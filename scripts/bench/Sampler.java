package bench;

import contract.Plan;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/** Samples a server's peak RSS and OS thread count in the background while it is under load; -1 when unknown. */
final class Sampler {
    final AtomicLong peakRss = new AtomicLong(-1);
    final AtomicInteger peakThreads = new AtomicInteger(-1);
    private final Server server;
    private Thread thread;

    Sampler(Server server) {
        this.server = server;
    }

    /** Samples every {@link Plan#SAMPLE_MILLIS} ms until {@link #stop}; nothing to do when the process is unknown. */
    void start() {
        if (server.inspect == null) return;
        thread = Thread.ofPlatform().daemon().name("sampler").start(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                sample();
                try {
                    Thread.sleep(Plan.SAMPLE_MILLIS);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
    }

    private void sample() {
        OptionalLong rss = server.residentBytes();
        if (rss.isPresent()) peakRss.accumulateAndGet(rss.getAsLong(), Math::max);
        OptionalInt threads = server.osThreads();
        if (threads.isPresent()) peakThreads.accumulateAndGet(threads.getAsInt(), Math::max);
    }

    /** Stops sampling, with one last sample. */
    void stop() {
        if (thread == null) return;
        thread.interrupt();
        try {
            thread.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        sample();
    }
}
