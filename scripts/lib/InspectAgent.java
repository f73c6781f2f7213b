import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Loaded into a server's JVM by {@link Inspect}, through the attach API, where the OS cannot be
 * asked how many files the process holds (no /proc, no lsof): publishes the count and its limit
 * as system properties, which Inspect reads back ({@link #property}), and returns. It starts no
 * thread and keeps nothing.
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

    /** The attach API's wait for a JVM to answer (the JDK's default is 10 s). */
    private static final String ATTACH_TIMEOUT = "sun.tools.attach.attachTimeout";

    /**
     * A property this agent publishes in the server's JVM {@code pid}: attaches, loads the agent
     * (it counts, and returns), reads the JVM's system properties and detaches. Null when the
     * JVM cannot be attached to within 3 s, or has no such count (Windows).
     */
    static String property(long pid, String name) {
        // A JVM out of file descriptors cannot take the attach connection: waiting the
        // default 10 s for it only slows the check the count serves.
        if (System.getProperty(ATTACH_TIMEOUT) == null) System.setProperty(ATTACH_TIMEOUT, "3000");
        try {
            com.sun.tools.attach.VirtualMachine vm = com.sun.tools.attach.VirtualMachine.attach(String.valueOf(pid));
            try {
                vm.loadAgent(agentJar().toString());
                return vm.getSystemProperties().getProperty(name);
            } finally {
                vm.detach();
            }
        } catch (Exception e) {
            return null;
        }
    }

    /**
     * A jar of {@link InspectAgent} alone, made from this program's own class the first time an
     * inspection needs it (the holder's class is loaded then, once), and deleted on exit.
     */
    private static Path agentJar() throws IOException {
        if (AgentJar.JAR == null) throw new IOException("cannot make the inspection agent's jar: " + AgentJar.PROBLEM);
        return AgentJar.JAR;
    }

    private static final class AgentJar {
        static final String PROBLEM;
        static final Path JAR;

        static {
            Path jar = null;
            String problem = null;
            try {
                jar = make();
            } catch (IOException | RuntimeException e) {
                problem = e.getMessage();
            }
            JAR = jar;
            PROBLEM = problem;
        }

        private static Path make() throws IOException {
            Path jar = Files.createTempFile("inspect-agent-", ".jar");
            jar.toFile().deleteOnExit();
            java.util.jar.Manifest manifest = new java.util.jar.Manifest();
            manifest.getMainAttributes().put(java.util.jar.Attributes.Name.MANIFEST_VERSION, "1.0");
            manifest.getMainAttributes().putValue("Agent-Class", InspectAgent.class.getName());
            try (var out = new java.util.jar.JarOutputStream(Files.newOutputStream(jar), manifest);
                 var in = InspectAgent.class.getResourceAsStream(InspectAgent.class.getSimpleName() + ".class")) {
                if (in == null) throw new IOException("cannot find InspectAgent.class beside the grader");
                out.putNextEntry(new java.util.jar.JarEntry(InspectAgent.class.getName().replace('.', '/') + ".class"));
                in.transferTo(out);
                out.closeEntry();
            }
            return jar;
        }
    }

}
