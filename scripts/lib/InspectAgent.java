import java.lang.management.ManagementFactory;

/**
 * Loaded into a server's JVM by {@link Inspect}, through the attach API, where the OS cannot be
 * asked how many files the process holds (no /proc, no lsof): publishes the count and its limit
 * as system properties, which Inspect reads back, and returns. It starts no thread and keeps
 * nothing.
 */
public final class InspectAgent {
    static final String OPEN_FILES = "course.inspect.openFiles";
    static final String MAX_OPEN_FILES = "course.inspect.maxOpenFiles";

    private InspectAgent() {}

    public static void agentmain(String args) {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.UnixOperatingSystemMXBean unix) {
            System.setProperty(OPEN_FILES, String.valueOf(unix.getOpenFileDescriptorCount()));
            System.setProperty(MAX_OPEN_FILES, String.valueOf(unix.getMaxFileDescriptorCount()));
        }
    }
}
