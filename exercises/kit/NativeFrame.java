import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Runs Java code below a native frame, the way a JNI or FFM library that calls back into Java
 * does: C's {@code qsort} sorts two numbers and calls a Java comparator, which runs the task.
 * A virtual thread that blocks in there cannot unmount: it is pinned to its carrier, even on
 * Java 25. Chapter 05 uses it to show pinning; no server should.
 */
final class NativeFrame {
    private static final Linker LINKER = Linker.nativeLinker();
    private static final MethodHandle QSORT = LINKER.downcallHandle(
            LINKER.defaultLookup().find("qsort").orElseThrow(() -> new IllegalStateException("no qsort in the C library")),
            FunctionDescriptor.ofVoid(ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS));
    private static final MethodHandle COMPARE;

    static {
        try {
            COMPARE = MethodHandles.lookup().findStatic(NativeFrame.class, "compare",
                    MethodType.methodType(int.class, Runnable[].class, Throwable[].class, MemorySegment.class, MemorySegment.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private NativeFrame() {}

    // tag::run[]
    /** Runs {@code task} once, called back from native code; rethrows what it throws. */
    static void run(Runnable task) {
        Runnable[] once = {task};
        Throwable[] thrown = {null};
        try (Arena arena = Arena.ofConfined()) {
            MethodHandle comparator = MethodHandles.insertArguments(COMPARE, 0, once, thrown);
            MemorySegment upcall = LINKER.upcallStub(comparator, FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS), arena);
            MemorySegment two = arena.allocate(JAVA_INT, 2);
            QSORT.invokeExact(two, 2L, JAVA_INT.byteSize(), upcall);
        } catch (Throwable e) {
            throw new IllegalStateException("the native call failed", e);
        }
        if (thrown[0] instanceof RuntimeException e) throw e;
        if (thrown[0] instanceof Error e) throw e;
        if (once[0] != null) throw new IllegalStateException("qsort never called back");
    }
    // end::run[]

    /** The comparator C calls. An exception must not cross the native frame: it is kept for run(). */
    private static int compare(Runnable[] once, Throwable[] thrown, MemorySegment a, MemorySegment b) {
        Runnable task = once[0];
        once[0] = null;
        if (task != null) {
            try {
                task.run();
            } catch (Throwable e) {
                thrown[0] = e;
            }
        }
        return 0;
    }
}
