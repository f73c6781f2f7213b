package test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Processes that spin a core each, as a laptop's other programs do: started apart from this JVM
 * (a shell that exits at once leaves them to init), since the grader counts its own children as
 * its own work, and killed by their PIDs when closed, or when the JVM exits first.
 */
public final class Spinners implements AutoCloseable {
    private final List<ProcessHandle> spinning = new ArrayList<>();
    private final Thread killer = new Thread(this::kill);

    private Spinners() {
        Runtime.getRuntime().addShutdownHook(killer);
    }

    /**
     * One core kept busy by a thread of this JVM until closed: this run's own work, where
     * {@link #start} spins processes apart from it (a busy machine's others).
     */
    public static AutoCloseable ownCore() {
        java.util.concurrent.atomic.AtomicBoolean spinning = new java.util.concurrent.atomic.AtomicBoolean(true);
        Thread busy = Thread.ofPlatform().daemon().name("busy-core").start(() -> {
            long x = 0;
            while (spinning.get()) x += System.nanoTime() & 7;
            if (x == 42) System.out.print("");
        });
        return () -> {
            spinning.set(false);
            busy.join();
        };
    }

    /** {@code n} spinning processes. */
    public static Spinners start(int n) throws IOException, InterruptedException {
        Spinners spinners = new Spinners();
        try {
            for (int i = 0; i < n; i++) {
                Process starter = new ProcessBuilder("sh", "-c", "sh -c 'while :; do :; done' </dev/null >/dev/null 2>&1 & echo $!").start();
                String pid = new String(starter.getInputStream().readAllBytes()).strip();
                starter.waitFor();
                ProcessHandle.of(Long.parseLong(pid)).ifPresent(spinners.spinning::add);
            }
        } catch (IOException | InterruptedException | RuntimeException e) {
            spinners.close();
            throw e;
        }
        return spinners;
    }

    private void kill() {
        spinning.forEach(ProcessHandle::destroyForcibly);
    }

    @Override
    public void close() {
        kill();
        for (ProcessHandle p : spinning) p.onExit().join();
        try {
            Runtime.getRuntime().removeShutdownHook(killer);
        } catch (IllegalStateException e) {
            // the JVM is exiting: the hook runs anyway
        }
    }
}
