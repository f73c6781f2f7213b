///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
//SOURCES ../kit/Kit.java

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;

/**
 * Chapter 06's CPU tail, without Netty or sockets. --loops platform threads stand for the event
 * loops; each owns its share of --connections clients, each of which asks again as soon as it is
 * answered. A request is 5 ms of the kit's /cpu burn, run on a new virtual thread (virtual) or on
 * a fixed pool of one platform thread per core (pool); its answer goes back to its loop. Prints
 * one line per mode: answers a second, latency, the start delay (from handing the work over to
 * a thread running it), and how evenly the clients were served. As in the race, the answers
 * still due when the run ends count in the latency, however late; "served" counts the clients
 * answered within the run.
 * Run: jbang exercises/demos/CpuTail.java [virtual] [pool] [--loops 2] [--seconds 6] [--connections 64]
 */
class CpuTail {
    static final long BURN_MS = 5;

    /** One answered request: its client, and when it was handed over, started and done (ns). */
    record Answer(int client, long handed, long started, long done) {}

    public static void main(String[] args) throws Exception {
        List<String> modes = new ArrayList<>();
        int cores = Runtime.getRuntime().availableProcessors(), loops = cores, seconds = 6, connections = 64;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--loops" -> loops = Integer.parseInt(args[++i]);
                case "--seconds" -> seconds = Integer.parseInt(args[++i]);
                case "--connections" -> connections = Integer.parseInt(args[++i]);
                case "virtual", "pool" -> modes.add(args[i]);
                default -> {
                    System.err.println("usage: CpuTail [virtual] [pool] [--loops N] [--seconds S] [--connections C]");
                    System.exit(2);
                }
            }
        }
        if (modes.isEmpty()) modes = List.of("virtual", "pool");
        Endpoints.burnCpu(1); // calibrates the burn before any run
        System.out.printf("cores %d, loops %d, connections %d, %d ms of CPU a request, %d s a mode%n",
                cores, loops, connections, BURN_MS, seconds);
        for (String mode : modes) System.out.println(run(mode, loops, connections, seconds));
    }

    static String run(String mode, int loops, int connections, int seconds) throws InterruptedException {
        int cores = Runtime.getRuntime().availableProcessors();
        ExecutorService pool = mode.equals("pool") ? Executors.newFixedThreadPool(cores) : null;
        List<Answer> answers = new ArrayList<>();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        List<Thread> loopThreads = new ArrayList<>();
        for (int l = 0; l < loops; l++) {
            int loop = l, nLoops = loops;
            loopThreads.add(Thread.ofPlatform().name("loop-" + l).start(() -> {
                // Why: the loop's inbox stands for ctx.executor().execute(...): answers come back to the loop.
                LinkedBlockingQueue<Answer> inbox = new LinkedBlockingQueue<>();
                List<Answer> mine = new ArrayList<>();
                IntConsumer ask = client -> {
                    long handed = System.nanoTime();
                    Runnable work = () -> {
                        long started = System.nanoTime();
                        Endpoints.burnCpu(BURN_MS);
                        inbox.add(new Answer(client, handed, started, System.nanoTime()));
                    };
                    if (pool != null) pool.execute(work); // Why: one queue for every loop, first come first served.
                    else Thread.ofVirtual().start(work);  // Why: what chapter 06's solution did with /cpu.
                };
                int waiting = 0;
                for (int c = loop; c < connections; c += nLoops, waiting++) ask.accept(c);
                try {
                    while (waiting > 0) { // Why: as in the race, answers still due at the end count, however late.
                        Answer a = inbox.take();
                        mine.add(a);
                        waiting--;
                        if (System.nanoTime() < end) { // a client asks again at once, as Bombardier's do
                            ask.accept(a.client());
                            waiting++;
                        }
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                synchronized (answers) {
                    answers.addAll(mine);
                }
            }));
        }
        for (Thread t : loopThreads) t.join();
        if (pool != null) pool.shutdown();
        return line(mode, answers, connections, seconds, end);
    }

    static String line(String mode, List<Answer> answers, int connections, int seconds, long end) {
        long[] latency = answers.stream().mapToLong(a -> a.done() - a.handed()).sorted().toArray();
        long[] startDelay = answers.stream().mapToLong(a -> a.started() - a.handed()).sorted().toArray();
        long[] perClient = new long[connections]; // answers each client had within the run
        answers.stream().filter(a -> a.done() <= end).forEach(a -> perClient[a.client()]++);
        long served = Arrays.stream(perClient).filter(n -> n > 0).count();
        long inTime = Arrays.stream(perClient).sum();
        return String.format(Locale.ROOT,
                "%-7s %5.0f answers/s | latency p50 %d p99 %d max %d ms | start delay p50 %d p99 %d max %d ms"
                        + " | connections served %d/%d, fewest answers %d",
                mode, inTime / (double) seconds, ms(latency, 0.50), ms(latency, 0.99), ms(latency, 1),
                ms(startDelay, 0.50), ms(startDelay, 0.99), ms(startDelay, 1), served, connections,
                Arrays.stream(perClient).min().orElse(0));
    }

    /** The q-quantile of sorted nanoseconds, in whole ms (nearest rank). */
    static long ms(long[] sorted, double q) {
        if (sorted.length == 0) return 0;
        int i = (int) Math.ceil(q * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))] / 1_000_000;
    }
}
