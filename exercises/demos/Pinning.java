///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
//JAVA_OPTIONS --enable-native-access=ALL-UNNAMED
//SOURCES ../kit/NativeFrame.java

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * Chapter 05's pinning demo: 10 virtual threads each sleep 500 ms, first in plain Java, then
 * below a native frame, under a JFR recording of jdk.VirtualThreadPinned. Run it with
 * {@code jbang exercises/demos/Pinning.java}.
 */
class Pinning {
    public static void main(String[] args) throws Exception {
        System.out.println("carriers: " + Runtime.getRuntime().availableProcessors() + " (one per core)");
        try (Recording recording = new Recording()) {
            recording.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ofMillis(20)).withStackTrace();
            recording.start();
            // tag::demo[]
            Runnable sleep = () -> {
                try {
                    Thread.sleep(500);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            };
            time("10 sleeps of 500 ms in plain Java       ", sleep);
            time("10 sleeps of 500 ms below a native frame", () -> NativeFrame.run(sleep));
            // end::demo[]
            recording.stop();
            Path file = Files.createTempFile("pinning-", ".jfr");
            recording.dump(file);
            List<RecordedEvent> pinned = RecordingFile.readAllEvents(file);
            Files.delete(file);
            System.out.println("jdk.VirtualThreadPinned events: " + pinned.size());
            pinned.stream().max((a, b) -> a.getDuration().compareTo(b.getDuration())).ifPresent(longest -> {
                System.out.println("the longest, " + longest.getDuration().toMillis() + " ms, pinned here (top first):");
                longest.getStackTrace().getFrames().stream()
                        .map(f -> f.getMethod().getType().getName() + "." + f.getMethod().getName())
                        .filter(f -> !f.startsWith("java.lang.VirtualThread") && !f.startsWith("java.lang.invoke"))
                        .limit(6).forEach(f -> System.out.println("    " + f));
            });
        }
    }

    /** Runs {@code task} on 10 virtual threads at once and prints how long they took together. */
    static void time(String what, Runnable task) throws InterruptedException {
        long start = System.nanoTime();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 10; i++) threads.add(Thread.ofVirtual().start(task));
        for (Thread t : threads) t.join();
        System.out.printf("%s: %d ms%n", what, (System.nanoTime() - start) / 1_000_000);
    }
}
