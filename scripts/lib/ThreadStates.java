package lib;

import java.util.List;
import java.util.Locale;

/**
 * What a platform thread of the server is, from its name, and what it is doing when it is not
 * on a CPU, from its stack: the words of a {@link Timeline}'s lanes and slices. Read from a
 * thread dump's stack (one frame a line, "java.base/sun.nio.ch.EPoll.wait(Native Method)") or a
 * flight-recorder event's (the same "class.method" text).
 */
public final class ThreadStates {
    private ThreadStates() {}

    /** The lanes' roles, in the order a timeline draws them. */
    public static final List<String> ROLES = List.of("main", "acceptor", "loop", "worker", "carrier", "poller", "other", "jvm");

    /** A state's one-letter code in a lane's {@code state} string. */
    public static final char IDLE = 'i', ACCEPT = 'a', READ = 'r', WRITE = 'w', SLEEP = 's', PARKED = 'p', LOCK = 'l', HELD = 'h', NONE = '.';

    /** What each code means, as the timeline's legend and its words say it. */
    public static final java.util.Map<Character, String> WORDS = java.util.Map.of(
            IDLE, "waiting for work (a selector with nothing ready, a pool worker with no task)",
            ACCEPT, "waiting for a connection (accept)",
            READ, "blocked reading a socket",
            WRITE, "blocked writing a socket",
            SLEEP, "sleeping (Thread.sleep)",
            PARKED, "parked, waiting for something (a future, a condition, a queue)",
            LOCK, "waiting for a lock or a permit (synchronized, a lock, a semaphore)",
            HELD, "held by a pinned virtual thread that waits: this carrier can run no other",
            NONE, "off the CPU, with no wait of 10 ms or more seen");

    /** The JVM's own threads: drawn as one lane, since the server did not make them. */
    private static final List<String> JVM = List.of("Reference Handler", "Finalizer", "Signal Dispatcher", "Service Thread",
            "Monitor Deflation Thread", "Notification Thread", "Common-Cleaner", "Attach Listener", "C1 CompilerThread",
            "C2 CompilerThread", "JFR ", "GC Thread", "G1 ", "VM Thread", "VM Periodic Task Thread", "DestroyJavaVM",
            "process reaper", "Cleaner-", "Sweeper thread", "Java2D Disposer", "surrogate locker", "Timer-JFR");

    /** A thread's role, from the name the server (or its library) gave it. */
    public static String role(String name) {
        if (name == null || name.isBlank()) return "other";
        for (String jvm : JVM) if (name.startsWith(jvm)) return "jvm";
        String n = name.toLowerCase(Locale.ROOT);
        if (n.equals("main")) return "main";
        if (n.contains("accept") || n.contains("boss")) return "acceptor";
        if (n.matches("forkjoinpool-\\d+-worker-\\d+")) return "carrier";
        if (n.contains("poller") || n.equals("virtualthread-unblocker")) return "poller";
        if (n.contains("eventloop") || n.matches("(.*-)?loop-\\d+") || n.startsWith("reactor-") || n.contains("event-loop")) return "loop";
        if (n.contains("worker") || n.matches("pool-\\d+-thread-\\d+") || n.contains("executor") || n.startsWith("burn")
                || n.startsWith("cpu") || n.matches(".*thread-\\d+")) return "worker";
        return "other";
    }

    /**
     * What a thread was doing, from a thread dump: {@code state} as the dump says it (RUNNABLE,
     * BLOCKED, WAITING, TIMED_WAITING) and its stack, innermost frame first. A runnable thread
     * in a native wait (a selector's, accept's, a blocking read's) is waiting all the same.
     * {@link #NONE} for a thread that is runnable in Java code (the CPU load says whether it ran).
     */
    public static char fromDump(String state, List<String> stack) {
        char waiting = fromStack(stack);
        if (waiting != NONE) return waiting;
        if ("BLOCKED".equals(state)) return LOCK;
        if ("WAITING".equals(state) || "TIMED_WAITING".equals(state)) return PARKED;
        return NONE;
    }

    /** The wait a stack shows, or {@link #NONE} when it shows none (the thread runs, or the stack is unknown). */
    static char fromStack(List<String> stack) {
        // The innermost frames decide: a selector's wait inside a loop's run() is the loop being idle.
        List<String> top = stack.subList(0, Math.min(stack.size(), 12));
        if (any(top, "EPoll.wait", "KQueue.poll", "WEPoll.wait", "Native.epollWait", "Native.epollBusyWait", "SelectorImpl.select",
                "Native.kqueueWait", "IoUring")) return IDLE;
        if (any(top, "Net.accept", "ServerSocket.accept", "ServerSocketChannelImpl.accept", "NioSocketImpl.accept")) return ACCEPT;
        if (any(top, "SocketDispatcher.read", "NioSocketImpl.read", "NioSocketImpl.timedRead", "NioSocketImpl.tryRead",
                "SocketInputStream.read", "SocketChannelImpl.read")) return READ;
        if (any(top, "SocketDispatcher.write", "NioSocketImpl.write", "SocketOutputStream.write", "SocketChannelImpl.write")) return WRITE;
        if (any(top, "Thread.sleep")) return SLEEP;
        if (any(top, "ThreadPoolExecutor.getTask", "ForkJoinPool.awaitWork", "LinkedBlockingQueue.take", "LinkedBlockingQueue.poll",
                "DelayedWorkQueue.take", "ArrayBlockingQueue.take", "ArrayBlockingQueue.poll", "LinkedBlockingDeque.take", "SynchronousQueue",
                "LinkedTransferQueue", "DelayScheduler.loop", "PriorityBlockingQueue.take")) return IDLE;
        if (any(top, "Semaphore.acquire", "ReentrantLock.lock", "ReentrantLock$Sync.lock", "AbstractQueuedSynchronizer.acquire",
                "ReentrantReadWriteLock")) return LOCK;
        if (any(top, "Unsafe.park", "LockSupport.park", "Object.wait")) return PARKED;
        return NONE;
    }

    private static boolean any(List<String> frames, String... parts) {
        for (String f : frames) {
            for (String p : parts) if (f.contains(p)) return true;
        }
        return false;
    }
}
