///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
//PREVIEW

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Semaphore;
import java.util.concurrent.StructuredTaskScope;
import java.util.concurrent.StructuredTaskScope.Joiner;

/**
 * Chapter 08's permit hazard: where a leg takes and gives back its permit for an outbound call
 * decides whether cancellation keeps the count right. Three forms of one leg run the same trips
 * in a StructuredTaskScope, against a Semaphore of 2 permits: a leg cancelled by its trip's deadline
 * while it waits in acquire(), then a leg cancelled mid-call by a failing sibling. For each form it
 * prints the permits left afterwards: a form that makes permits up, or loses them, drifts from 2.
 * The "call" is a sleep, so it needs no backend. Run: jbang exercises/demos/LegPermitHazard.java
 */
class LegPermitHazard {
    static final int PERMITS = 2;

    /** One leg's call to the backend: waits {@code ms}, or fails after 50 ms when {@code ms} is negative. */
    static String call(int ms) throws InterruptedException {
        if (ms < 0) {
            Thread.sleep(50);
            throw new IllegalStateException("the backend answered 500");
        }
        Thread.sleep(ms);
        return "waited " + ms + " ms";
    }

    /** A leg: one call, with a permit of {@code permits} around it. */
    interface Leg {
        String run(Semaphore permits, int ms) throws Exception;
    }

    // tag::wrong[]
    static String insideTry(Semaphore permits, int ms) throws Exception {
        try {
            // interrupted while it waits here, it took nothing...
            permits.acquire();
            return call(ms);
        } finally {
            // ...and gives one back anyway: a permit made up
            permits.release();
        }
    }

    static String noFinally(Semaphore permits, int ms) throws Exception {
        permits.acquire();
        // cancelled (or failed) mid-call, this throws...
        String answer = call(ms);
        // ...and this is skipped: a permit lost
        permits.release();
        return answer;
    }
    // end::wrong[]

    // tag::right[]
    static String acquireThenTry(Semaphore permits, int ms) throws Exception {
        // interrupted while it waits here, it took nothing and owes nothing
        permits.acquire();
        try {
            return call(ms);
        } finally {
            // taken, so given back, however call() ends
            permits.release();
        }
    }
    // end::right[]

    /** A trip: every leg forked at once; the first failure, or the deadline (0: none), cancels the rest. */
    static void trip(Leg leg, Semaphore permits, long deadlineMs, int... legMs) throws InterruptedException {
        try (var scope = StructuredTaskScope.open(Joiner.<String>allSuccessfulOrThrow(),
                cf -> deadlineMs > 0 ? cf.withTimeout(Duration.ofMillis(deadlineMs)) : cf)) {
            for (int ms : legMs) scope.fork(() -> leg.run(permits, ms));
            scope.join();
        } catch (StructuredTaskScope.FailedException | StructuredTaskScope.TimeoutException e) {
            // a 502 or a 504: the scope has cancelled the legs still out
        }
    }

    public static void main(String[] args) throws Exception {
        System.out.println(PERMITS + " permits. A trip holds both for 400 ms while another trip's leg");
        System.out.println("passes its 100 ms deadline in line for one (in line); then a trip's");
        System.out.println("leg 1 fails while leg 0 is mid-call, cancelling it (mid-call).");
        System.out.printf("%n%-18s %-14s %s%n", "permits left", "in line", "mid-call");
        for (var form : List.<Object[]>of(new Object[] {"insideTry", (Leg) LegPermitHazard::insideTry},
                new Object[] {"noFinally", (Leg) LegPermitHazard::noFinally},
                new Object[] {"acquireThenTry", (Leg) LegPermitHazard::acquireThenTry})) {
            Leg leg = (Leg) form[1];
            Semaphore permits = new Semaphore(PERMITS, true);
            Thread holder = Thread.ofVirtual().start(() -> {
                try {
                    trip(leg, permits, 0, 400, 400);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            while (permits.availablePermits() > 0) Thread.sleep(5); // until the holder's legs have both permits
            trip(leg, permits, 100, 10); // its leg waits in acquire() until the deadline cancels it
            holder.join();
            int inLine = permits.availablePermits();
            trip(leg, permits, 0, 1000, -1); // leg 1 fails at 50 ms; the scope interrupts leg 0 mid-call
            int midCall = permits.availablePermits();
            System.out.printf(Locale.ROOT, "%-18s %-14s %s%n", form[0], drift(inLine), drift(midCall));
        }
    }

    static String drift(int permits) {
        if (permits > PERMITS) return permits + " (" + (permits - PERMITS) + " made up)";
        if (permits < PERMITS) return permits + " (" + (PERMITS - permits) + " lost)";
        return permits + " (right)";
    }
}
