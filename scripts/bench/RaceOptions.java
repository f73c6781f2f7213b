package bench;

import contract.Plan;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import lib.CommandError;
import lib.Subject;
import lib.Tools;

/**
 * What a race runs, as {@link BenchCommand} read it from scripts/bench.sh's command line: what to
 * race ({@code chapter}, or {@code all}: every chapter of the showdown, or with --chapters those
 * numbered in {@code chapters} only, null for every one), how ({@code mode}, {@code workloads},
 * {@code phase}), against what ({@code subject}, the server under test; {@code baseline}, {@code frameworks}),
 * and the wrapper's own options (where the course, JBang, Bombardier and Vegeta are, {@code out},
 * whether to redraw progress and use colours); {@code timeline}, the workload --timeline records
 * after the race, or null. Bombardier and Vegeta are null until {@link #withTools} has found them.
 */
public record RaceOptions(String chapter, boolean all, java.util.Set<String> chapters, boolean baseline, boolean frameworks, boolean springDemo,
               Subject subject, Plan.Mode mode, List<Plan.Workload> workloads, Phase phase, int serverCpus, Path root, String jbang,
               String bombardier, String vegeta, Path out, boolean tty, boolean color, String timeline) {

    /** The options {@code args} give, as the race reads them; a picocli ParameterException or a {@link CommandError} when it cannot. */
    public static RaceOptions parse(String[] args) {
        BenchCommand command = new BenchCommand(args);
        new picocli.CommandLine(command).setOverwrittenOptionsAllowed(true).parseArgs(args);
        return command.options();
    }

    /**
     * The same options with Bombardier (and, for --open-loop, Vegeta) found where scripts/setup.sh
     * puts them, when the command line named none; a {@link CommandError} saying what to install
     * on this OS when one is nowhere.
     */
    RaceOptions withTools() {
        String b = bombardier != null ? bombardier : tool("bombardier");
        String v = vegeta != null || !(phase instanceof Phase.OpenLoops) ? vegeta : tool("vegeta");
        return new RaceOptions(chapter, all, chapters, baseline, frameworks, springDemo, subject, mode, workloads, phase, serverCpus, root, jbang,
                b, v, out, tty, color, timeline);
    }

    private String tool(String name) {
        return Tools.find(root, name).map(Path::toString).orElseThrow(() -> CommandError.environment(Tools.install(name)));
    }

    /** Whether the server under test runs already ({@code --url}): the race starts no learner's server and calls the backend on 8081. */
    Subject.Running running() {
        return subject instanceof Subject.Running r ? r : null;
    }

    /** The same options, racing {@code list}: the chapter's own workloads when none were named. */
    public RaceOptions racing(List<Plan.Workload> list) {
        return new RaceOptions(chapter, all, chapters, baseline, frameworks, springDemo, subject, mode, list, phase, serverCpus,
                root, jbang, bombardier, vegeta, out, tty, color, timeline);
    }

    /**
     * The workload --timeline records, one of those this race runs under load (after --workloads,
     * or the chapter's own); null without --timeline; a {@link CommandError} (usage) when it names
     * none of them. BenchCommand asks it as soon as the workloads are named, Bench once it has
     * picked them, before any server starts.
     */
    public Plan.Workload timelineWorkload() {
        if (timeline == null) return null;
        List<Plan.Workload> loaded = workloads == null ? List.of() : workloads.stream().filter(w -> !w.idle()).toList();
        return loaded.stream().filter(w -> w.id().equals(timeline)).findFirst().orElseThrow(() -> CommandError.usage(
                "--timeline takes one workload this race runs under load (" + (loaded.isEmpty() ? "it runs none"
                        : String.join(", ", loaded.stream().map(Plan.Workload::id).toList())) + "), not '" + timeline + "'"));
    }

    /** The wrapper's own options, which the learner did not type. */
    private static final java.util.Set<String> WRAPPERS = java.util.Set.of("--root", "--jbang", "--bombardier", "--vegeta", "--out", "--tty", "--color");

    /** The command as the learner typed it: scripts/bench.sh and its options, without the wrapper's own; a file by its name alone. */
    public static String command(String[] args) {
        picocli.CommandLine.ParseResult parsed = new picocli.CommandLine(new BenchCommand(args)).setOverwrittenOptionsAllowed(true).parseArgs(args);
        List<String> shown = new ArrayList<>(List.of("scripts/bench.sh"));
        for (picocli.CommandLine.Model.ArgSpec arg : parsed.matchedArgs()) {
            if (!(arg instanceof picocli.CommandLine.Model.OptionSpec option)) {
                shown.addAll(arg.originalStringValues());
                continue;
            }
            List<String> names = List.of(option.names());
            String name = parsed.originalArgs().stream().filter(names::contains).findFirst().orElse(option.longestName());
            if (WRAPPERS.contains(name)) continue;
            shown.add(name);
            if (option.arity().max() == 0) continue; // a switch: picocli records "true"
            boolean file = option.type() == Path.class;
            for (String value : option.originalStringValues()) {
                if (!value.isEmpty()) shown.add(file ? Path.of(value).getFileName().toString() : value);
            }
        }
        return String.join(" ", shown);
    }
}
