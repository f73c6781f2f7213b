package lib;

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

    /**
     * What {@code carriers} found: a line per virtual thread, "TID<tab>CARRIER<tab>OWNER": the thread its
     * scheduler ran a probe on, and the thread of the event loop of the Netty connection its task works for ("?": none).
     */
    static final String CARRIERS = "course.inspect.carriers";

    /** What {@code holds:VALUE} found: a line per thread that holds VALUE, "TID<tab>virtual|platform<tab>NAME<tab>WHERE". */
    static final String HOLDS = "course.inspect.holds";

    /**
     * With no arguments, the open files. With {@code carriers}, each virtual thread's carrier: the
     * thread its scheduler runs a task on, asked by running one (an Executor runs what it is given;
     * the probe does nothing else). With {@code holds:VALUE}, the threads whose thread-locals,
     * inheritable thread-locals or scoped-value bindings hold the string VALUE. Both read the JDK's
     * own fields, which this agent opens to itself (Instrumentation.redefineModule) and only reads.
     */
    public static void agentmain(String args, java.lang.instrument.Instrumentation inst) {
        if (args != null && args.equals("carriers")) {
            System.setProperty(CARRIERS, safely(() -> carriers(inst)));
            return;
        }
        if (args != null && args.startsWith("holds:")) {
            System.setProperty(HOLDS, safely(() -> holds(inst, args.substring("holds:".length()))));
            return;
        }
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.UnixOperatingSystemMXBean unix) {
            System.setProperty(OPEN_FILES, String.valueOf(unix.getOpenFileDescriptorCount()));
            System.setProperty(MAX_OPEN_FILES, String.valueOf(unix.getMaxFileDescriptorCount()));
        }
    }

    private static String safely(java.util.concurrent.Callable<String> work) {
        try {
            return work.call();
        } catch (Throwable e) {
            return "!" + e;
        }
    }

    /** Every thread of the JVM, virtual ones included: the JDK's tree of thread containers, as its thread dump walks it. */
    private static java.util.List<Thread> allThreads(java.lang.instrument.Instrumentation inst) throws ReflectiveOperationException {
        Module base = Object.class.getModule();
        inst.redefineModule(base, java.util.Set.of(), java.util.Map.of(),
                java.util.Map.of("java.lang", java.util.Set.of(InspectAgent.class.getModule()), "jdk.internal.vm", java.util.Set.of(InspectAgent.class.getModule())),
                java.util.Set.of(), java.util.Map.of());
        Class<?> containers = Class.forName("jdk.internal.vm.ThreadContainers");
        Class<?> container = Class.forName("jdk.internal.vm.ThreadContainer");
        java.lang.reflect.Method root = containers.getDeclaredMethod("root");
        java.lang.reflect.Method threads = container.getDeclaredMethod("threads");
        java.lang.reflect.Method children = container.getDeclaredMethod("children");
        root.setAccessible(true);
        threads.setAccessible(true);
        children.setAccessible(true);
        java.util.Set<Thread> all = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        java.util.ArrayDeque<Object> todo = new java.util.ArrayDeque<>();
        todo.add(root.invoke(null));
        while (!todo.isEmpty()) {
            Object c = todo.poll();
            ((java.util.stream.Stream<?>) threads.invoke(c)).forEach(t -> all.add((Thread) t));
            ((java.util.stream.Stream<?>) children.invoke(c)).forEach(todo::add);
        }
        return new java.util.ArrayList<>(all);
    }

    private static String carriers(java.lang.instrument.Instrumentation inst) throws ReflectiveOperationException {
        java.util.List<Thread> all = allThreads(inst);
        java.lang.reflect.Field scheduler = Class.forName("java.lang.VirtualThread").getDeclaredField("scheduler");
        java.lang.reflect.Field cont = Class.forName("java.lang.VirtualThread").getDeclaredField("cont");
        scheduler.setAccessible(true);
        cont.setAccessible(true);
        java.util.Map<Object, String> ranOn = new java.util.IdentityHashMap<>();
        StringBuilder out = new StringBuilder();
        for (Thread t : all) {
            if (!t.isVirtual()) continue;
            String carrier = ranOn.computeIfAbsent(scheduler.get(t), InspectAgent::probe);
            Object loop = ownersLoop(cont.get(t));
            String owner = loop == null ? "?" : ranOn.computeIfAbsent(loop, InspectAgent::probe);
            out.append(t.threadId()).append('\t').append(clean(carrier)).append('\t').append(clean(owner)).append('\n');
        }
        return out.toString();
    }

    private static String clean(String name) {
        return name.replace('\t', ' ').replace('\n', ' ');
    }

    /**
     * The event loop of the Netty connection a virtual thread's task works for: the nearest
     * ChannelHandlerContext or Channel its task reaches (breadth first, through fields, never through
     * an Executor or a Thread, which reach every connection), asked for its channel's eventLoop(); null if none.
     */
    private static Object ownersLoop(Object task) {
        java.util.ArrayDeque<Object> level = new java.util.ArrayDeque<>();
        java.util.Set<Object> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        level.add(task);
        for (int depth = 0; depth < 8 && !level.isEmpty() && seen.size() < 5000; depth++) {
            java.util.ArrayDeque<Object> next = new java.util.ArrayDeque<>();
            for (Object o : level) {
                if (o == null || !seen.add(o)) continue;
                try {
                    Class<?> context = implementing(o, "io.netty.channel.ChannelHandlerContext");
                    Object channel = context != null ? context.getMethod("channel").invoke(o) : implementing(o, "io.netty.channel.Channel") != null ? o : null;
                    if (channel != null) return implementing(channel, "io.netty.channel.Channel").getMethod("eventLoop").invoke(channel);
                } catch (ReflectiveOperationException | RuntimeException e) {
                    continue;
                }
                if (!(o instanceof java.util.concurrent.Executor)) next.addAll(references(o));
            }
            level = next;
        }
        return null;
    }

    /** The interface named {@code name} that {@code o}'s class implements, directly or not; null if none. */
    private static Class<?> implementing(Object o, String name) {
        java.util.ArrayDeque<Class<?>> todo = new java.util.ArrayDeque<>();
        for (Class<?> c = o.getClass(); c != null; c = c.getSuperclass()) todo.add(c);
        while (!todo.isEmpty()) {
            Class<?> c = todo.poll();
            if (c.isInterface() && c.getName().equals(name)) return c;
            todo.addAll(java.util.List.of(c.getInterfaces()));
        }
        return null;
    }

    /** The name of the thread {@code executor} runs a task that does nothing else on; "?" when it does not within 2 s. */
    private static String probe(Object executor) {
        java.util.concurrent.CompletableFuture<String> name = new java.util.concurrent.CompletableFuture<>();
        try {
            ((java.util.concurrent.Executor) executor).execute(() -> name.complete(Thread.currentThread().getName()));
            return name.get(2, java.util.concurrent.TimeUnit.SECONDS);
        } catch (Exception e) {
            return "?";
        }
    }

    private static String holds(java.lang.instrument.Instrumentation inst, String value) throws ReflectiveOperationException {
        java.util.List<Thread> all = allThreads(inst);
        StringBuilder out = new StringBuilder();
        for (String where : java.util.List.of("threadLocals", "inheritableThreadLocals", "scopedValueBindings")) {
            java.lang.reflect.Field field;
            try {
                field = Thread.class.getDeclaredField(where);
            } catch (NoSuchFieldException e) {
                continue; // another JDK: what it cannot read, it does not report
            }
            field.setAccessible(true);
            for (Thread t : all) {
                if (contains(field.get(t), value, 6, java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>()))) {
                    out.append(t.threadId()).append('\t').append(t.isVirtual() ? "virtual" : "platform").append('\t')
                            .append(clean(t.getName())).append('\t').append(where).append('\n');
                }
            }
        }
        return out.toString();
    }

    /** Whether {@code value} is reachable from {@code o} within {@code depth} references (fields and array elements), reading only. */
    private static boolean contains(Object o, String value, int depth, java.util.Set<Object> seen) {
        if (o == null || depth < 0 || seen.size() > 5000 || !seen.add(o)) return false;
        if (o instanceof String s) return s.equals(value);
        for (Object next : references(o)) if (contains(next, value, depth - 1, seen)) return true;
        return false;
    }

    /**
     * What {@code o} refers to, read only: an array's elements, or the values of its instance fields
     * that are not primitives. None from a string, a thread, a class, a class loader or a module, which
     * reach everything; a field of a package not open to this agent is passed over.
     */
    private static java.util.List<Object> references(Object o) {
        java.util.List<Object> found = new java.util.ArrayList<>();
        if (o instanceof String || o instanceof Thread || o instanceof Class<?> || o instanceof ClassLoader || o instanceof Module) return found;
        if (o.getClass().isArray()) {
            if (!o.getClass().getComponentType().isPrimitive()) for (Object e : (Object[]) o) if (e != null) found.add(e);
            return found;
        }
        for (Class<?> c = o.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
            for (java.lang.reflect.Field f : c.getDeclaredFields()) {
                if (f.getType().isPrimitive() || java.lang.reflect.Modifier.isStatic(f.getModifiers())) continue;
                try {
                    f.setAccessible(true);
                    Object v = f.get(o);
                    if (v != null) found.add(v);
                } catch (RuntimeException | IllegalAccessException e) {
                    // not open to this agent: not where a thread keeps its locals, nor a task its connection
                }
            }
        }
        return found;
    }

    /** The attach API's wait for a JVM to answer (the JDK's default is 10 s). */
    private static final String ATTACH_TIMEOUT = "sun.tools.attach.attachTimeout";

    /**
     * A property this agent publishes in the server's JVM {@code pid}: attaches, loads the agent
     * (it counts, and returns), reads the JVM's system properties and detaches. Null when the
     * JVM cannot be attached to within 3 s, or has no such count (Windows).
     */
    static String property(long pid, String name) {
        return property(pid, name, null);
    }

    /** A property the agent publishes when loaded with {@code args} ({@code carriers}, {@code holds:VALUE}). */
    static String property(long pid, String name, String args) {
        // A JVM out of file descriptors cannot take the attach connection: waiting the
        // default 10 s for it only slows the check the count serves.
        if (System.getProperty(ATTACH_TIMEOUT) == null) System.setProperty(ATTACH_TIMEOUT, "3000");
        try {
            com.sun.tools.attach.VirtualMachine vm = com.sun.tools.attach.VirtualMachine.attach(String.valueOf(pid));
            try {
                vm.loadAgent(agentJar().toString(), args);
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
