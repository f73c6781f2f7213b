package bench;

import contract.Plan;
import contract.Stats;

/**
 * What one run of the race measures: the workloads, or one stress phase instead of them
 * ({@code --ramp}, {@code --spike}, {@code --soak MIN}, {@code --open-loop}, {@code --connections N}). One value a run;
 * each knows its option, whether it brings its own load, how long it keeps a server busy, the
 * workload whose CPU split it uses and how the race's header describes it.
 */
public sealed interface Phase {
    /** The standard workloads, or those given with --workloads. */
    record Workloads() implements Phase {}

    /** Connections rising step by step until each server breaks ({@link Ramp}). */
    record Ramping() implements Phase {}

    /** A steady load with spikes, and how long each server takes to come back ({@link Spike}). */
    record Spikes() implements Phase {}

    /** A constant load for {@code minutes} a server, sampled for growth ({@link Soak}). */
    record Soaking(double minutes) implements Phase {}

    /** Latency at a fixed rate from an open loop, beside a closed loop at the same rate ({@link OpenLoop}). */
    record OpenLoops() implements Phase {}

    /** {@code connections} keep-alive connections held at once, a small share of them active ({@link ConnectionsRace}). */
    record Connecting(int connections) implements Phase {}

    /** The option that asks for it; none for the workloads. */
    default String option() {
        return switch (this) {
            case Workloads w -> "";
            case Ramping r -> "--ramp";
            case Spikes s -> "--spike";
            case Soaking s -> "--soak";
            case OpenLoops o -> "--open-loop";
            case Connecting c -> "--connections";
        };
    }

    /** Whether it runs a load of its own after the servers start, with no workloads of the plan (all but the ramp and the workloads). */
    default boolean ownLoad() {
        return this instanceof Spikes || this instanceof Soaking || this instanceof OpenLoops || this instanceof Connecting;
    }

    /** The seconds it keeps each server busy beyond the plan's workloads, for the progress line's estimate. */
    default double secondsPerServer(Plan.Mode mode) {
        return switch (this) {
            case Spikes s -> 80;
            case Soaking s -> Soak.windows(s.minutes()) * (Soak.WINDOW_SECONDS + 2.0);
            case OpenLoops o -> OpenLoop.secondsPerServer(mode);
            case Connecting c -> ConnectionsRace.secondsPerServer(c.connections(), mode);
            case Workloads w -> 0;
            case Ramping r -> 0;
        };
    }

    /** The workload whose share of the CPUs its load runs with; null for the ramp and the workloads, which split per workload. */
    default Plan.Workload splitBy() {
        return switch (this) {
            case Spikes s -> Spike.WORKLOAD;
            case Soaking s -> Soak.WORKLOAD;
            case OpenLoops o -> OpenLoop.WORKLOAD;
            case Connecting c -> ConnectionsRace.WORKLOAD;
            case Workloads w -> null;
            case Ramping r -> null;
        };
    }

    /** The race header's line for it; null for the workloads, which describe their runs. */
    default String describe(Plan.Mode mode) {
        return switch (this) {
            case Workloads w -> null;
            case Ramping r -> "the ramp: " + mode.warmups() + " warm-up run(s) of " + mode.warmupSeconds()
                    + " s at its first step, then one run of " + mode.runSeconds() + " s a step, the servers taking turns, each until a step breaks it";
            case Spikes s -> "the spikes: each server in turn, after one warm-up window (see below)";
            case Soaking s -> "the soak: each server in turn, " + Stats.millis(Math.min(s.minutes(), Soak.MAX_MINUTES)) + " min";
            case OpenLoops o -> OpenLoop.describe(mode);
            case Connecting c -> ConnectionsRace.describe(c.connections(), mode);
        };
    }
}
