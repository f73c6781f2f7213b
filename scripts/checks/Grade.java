///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
//DEPS org.junit.jupiter:junit-jupiter:5.14.2
//DEPS org.junit.platform:junit-platform-launcher:1.14.2
//SOURCES ../lib/Json.java ../lib/Results.java ../lib/Target.java ../lib/Inspect.java ../lib/Unavailable.java
//SOURCES Client.java Hint.java Alive.java Runner.java
//SOURCES ProtocolChecks.java Ch01Checks.java Ch02Checks.java Ch03Checks.java Ch04Checks.java Ch05Checks.java Ch06Checks.java

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The grader behind scripts/check.sh: starts a chapter's server (the learner's exercise, the
 * reference solution, any file, or none with --url), runs that chapter's hidden checks against
 * it over real sockets, prints one line per check with a hint on failure, and stops the server.
 */
class Grade {
    /** A chapter: its number, title, page on the course site, and its checks (protocol first). */
    record Chapter(String number, String title, String page, List<String> args, List<Class<?>> checks) {}

    static final Map<String, Chapter> CHAPTERS = new LinkedHashMap<>();

    static {
        CHAPTERS.put("01", new Chapter("01", "The blocking server", "chapters/01-blocking",
                List.of(), List.of(ProtocolChecks.class, Ch01Checks.class)));
        CHAPTERS.put("02", new Chapter("02", "Thread pools", "chapters/02-thread-pool",
                List.of("--threads", "4", "--queue", "4"), List.of(ProtocolChecks.class, Ch02Checks.class)));
        CHAPTERS.put("03", new Chapter("03", "The selector reactor", "chapters/03-reactor",
                List.of(), List.of(ProtocolChecks.class, Ch03Checks.class)));
        CHAPTERS.put("04", new Chapter("04", "Many reactors", "chapters/04-multi-reactor",
                List.of("--loops", "2"), List.of(ProtocolChecks.class, Ch04Checks.class)));
        CHAPTERS.put("05", new Chapter("05", "Virtual threads", "chapters/05-virtual-threads",
                List.of("--max-concurrent", "2500"), List.of(ProtocolChecks.class, Ch05Checks.class)));
        CHAPTERS.put("06", new Chapter("06", "Netty and virtual threads", "chapters/06-netty-hybrid",
                List.of("--loops", "2"), List.of(ProtocolChecks.class, Ch06Checks.class)));
    }

    static final String SITE = "http://127.0.0.1:1313/";
    static final boolean COLOR = System.console() != null && System.getenv("NO_COLOR") == null;

    // Options
    static Path root = Path.of(".").toAbsolutePath().normalize();
    static String jbang = System.getenv().getOrDefault("COURSE_JBANG", "jbang");
    static String which = "exercise"; // exercise, solution, file, url
    static Path file;
    static String url;
    static Long pid;
    static boolean json;
    static boolean watch;
    static Set<String> expectFailures;

    public static void main(String[] args) throws Exception {
        List<String> chapters = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "-h", "--help" -> { System.out.println(USAGE); System.exit(0); }
                case "--all" -> chapters.addAll(CHAPTERS.keySet());
                case "--solution" -> which = "solution";
                case "--file" -> { which = "file"; file = Path.of(value(args, ++i)).toAbsolutePath(); }
                case "--url" -> { which = "url"; url = value(args, ++i); }
                case "--pid" -> pid = Long.parseLong(value(args, ++i));
                case "--json" -> json = true;
                case "--watch" -> watch = true;
                case "--root" -> root = Path.of(value(args, ++i)).toAbsolutePath().normalize();
                case "--jbang" -> jbang = value(args, ++i);
                case "--expect-failures" -> expectFailures = new TreeSet<>(List.of(value(args, ++i).split(",")));
                default -> {
                    String n = args[i].length() == 1 ? "0" + args[i] : args[i];
                    if (!CHAPTERS.containsKey(n)) usage("no chapter '" + args[i] + "'; chapters with checks: " + CHAPTERS.keySet());
                    chapters.add(n);
                }
            }
        }
        if (chapters.isEmpty()) usage("say which chapter to grade, e.g. 01, or --all");
        if (chapters.size() > 1 && (which.equals("url") || which.equals("file"))) usage("--url and --file grade one chapter at a time");
        if (watch && chapters.size() > 1) usage("--watch grades one chapter at a time");

        if (watch) watch(CHAPTERS.get(chapters.get(0)));
        int worst = 0;
        List<Object> all = new ArrayList<>();
        for (String n : chapters) {
            Map<String, Object> report = grade(CHAPTERS.get(n));
            all.add(report);
            worst = Math.max(worst, ((Number) report.get("exit")).intValue());
        }
        if (json) System.out.print(Json.write(all.size() == 1 ? all.get(0) : all));
        if (chapters.size() > 1 && !json) table(all);
        System.exit(worst);
    }

    /** Grades one chapter and returns the report (also saved under .results/checks/). */
    static Map<String, Object> grade(Chapter chapter) throws IOException {
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("chapter", chapter.number());
        report.put("title", chapter.title());
        report.put("target", which);
        report.put("time", Instant.now().toString());
        Target target;
        String label;
        try {
            if (which.equals("url")) {
                target = Target.running(url, pid);
                label = url + (pid == null ? "" : " (pid " + pid + ")");
                if (!target.accepting()) throw new IOException("nothing accepts connections at " + url);
            } else {
                Path server = serverFile(chapter);
                label = root.relativize(server).toString();
                say("\n" + bold(chapter.number() + " " + chapter.title()) + ": grading " + label);
                say(dim("  starting it with: jbang " + label + " --port 0" + String.join("", prefix(" ", chapter.args()))));
                Path log = root.resolve(".results/logs/" + chapter.number() + "-" + which + ".log");
                Files.createDirectories(log.getParent());
                Files.deleteIfExists(log);
                List<String> command = new ArrayList<>(List.of(jbang, server.toString(), "--port", "0"));
                command.addAll(chapter.args());
                target = Target.start(command, log, Duration.ofSeconds(180));
            }
        } catch (IOException | IllegalArgumentException e) {
            say(red("  could not run the checks: ") + e.getMessage());
            report.put("exit", 2);
            report.put("error", e.getMessage());
            report.put("checks", List.of());
            save(chapter, report);
            return report;
        }
        report.put("server", label);
        if (which.equals("url")) {
            say("\n" + bold(chapter.number() + " " + chapter.title()) + ": grading " + label);
            if (!chapter.args().isEmpty()) say(dim("  the checks expect the server to run with " + String.join(" ", chapter.args())));
        }
        Target.use(target);
        List<Runner.Result> results;
        try {
            results = Runner.run(chapter.checks(), r -> say(line(r)));
        } finally {
            target.stop();
        }
        long failed = results.stream().filter(Runner.Result::failed).count();
        long passed = results.stream().filter(r -> r.status().equals("pass")).count();
        long skipped = results.size() - failed - passed;
        List<Object> checks = new ArrayList<>();
        for (Runner.Result r : results) {
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("id", r.id());
            c.put("name", r.name());
            c.put("status", r.status());
            if (!r.message().isEmpty()) c.put("message", r.message());
            if (r.failed()) {
                c.put("hint", r.hint());
                c.put("see", SITE + link(r.see()));
            }
            checks.add(c);
        }
        report.put("passed", passed);
        report.put("failed", failed);
        report.put("skipped", skipped);
        report.put("checks", checks);
        if (target.restarts() > 0) report.put("restarts", target.restarts());
        int exit = failed > 0 ? 1 : 0;
        if (expectFailures != null) {
            Set<String> actual = new TreeSet<>();
            results.stream().filter(Runner.Result::failed).forEach(r -> actual.add(r.id()));
            boolean as = actual.equals(expectFailures);
            say((as ? green("  as expected") : red("  NOT as expected")) + ": failing checks " + actual
                    + (as ? "" : ", expected " + expectFailures));
            exit = as ? 0 : 1;
        }
        report.put("exit", exit);
        String summary = passed + " passed, " + failed + " failed" + (skipped > 0 ? ", " + skipped + " skipped" : "");
        say("  " + (failed == 0 ? green(summary) : red(summary))
                + (failed == 0 && skipped == 0 ? "  - chapter " + chapter.number() + " done!" : ""));
        save(chapter, report);
        return report;
    }

    static List<String> prefix(String p, List<String> items) {
        return items.stream().map(i -> p + i).toList();
    }

    /** The server file to grade: exercises/NN-*.java, solutions/NN-*.java, or --file. */
    static Path serverFile(Chapter chapter) throws IOException {
        if (which.equals("file")) {
            if (!Files.isRegularFile(file)) throw new IOException("no file " + file);
            return file;
        }
        Path dir = root.resolve(which.equals("solution") ? "solutions" : "exercises");
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().matches(chapter.number() + "-.*\\.java"))
                    .findFirst().orElseThrow(() -> new IOException("no " + dir.getFileName() + "/" + chapter.number() + "-*.java"));
        }
    }

    /** Grades again each time the chapter's file (or the kit) is saved; Ctrl-C ends. */
    static void watch(Chapter chapter) throws Exception {
        Path server = serverFile(chapter);
        try (WatchService ws = FileSystems.getDefault().newWatchService()) {
            server.getParent().register(ws, StandardWatchEventKinds.ENTRY_MODIFY, StandardWatchEventKinds.ENTRY_CREATE);
            while (true) {
                grade(chapter);
                say(dim("\n  watching " + root.relativize(server) + ": save it to grade again, Ctrl-C to stop"));
                while (true) {
                    WatchKey key = ws.take();
                    boolean ours = key.pollEvents().stream().anyMatch(e -> server.getFileName().equals(e.context()));
                    key.reset();
                    if (ours) break;
                }
                Thread.sleep(300); // editors save in several steps
                while (true) {
                    WatchKey more = ws.poll();
                    if (more == null) break;
                    more.pollEvents();
                    more.reset();
                }
            }
        }
    }

    static void save(Chapter chapter, Map<String, Object> report) throws IOException {
        if (!which.equals("exercise")) return; // progress is about the learner's own file
        Results.write(root, "checks", chapter.number(), Json.write(report));
    }

    static void table(List<Object> reports) {
        System.out.println("\n" + bold("Progress"));
        for (Object o : reports) {
            Map<String, Object> r = Json.object(o);
            long passed = ((Number) r.getOrDefault("passed", 0L)).longValue();
            long failed = ((Number) r.getOrDefault("failed", 0L)).longValue();
            String state = r.containsKey("error") ? red("could not run")
                    : failed == 0 ? green("done") : red(failed + " to fix");
            System.out.printf("  %s  %-28s %3d/%-3d  %s%n", r.get("chapter"), r.get("title"), passed, passed + failed, state);
        }
    }

    static String line(Runner.Result r) {
        return switch (r.status()) {
            case "pass" -> "  " + green("PASS") + "  " + r.name();
            case "skip" -> "  " + dim("SKIP") + "  " + r.name() + dim(" (" + r.message() + ")");
            default -> "  " + red("FAIL") + "  " + r.name()
                    + "\n        what happened: " + r.message().replace("\n", "\n          ")
                    + (r.hint().isEmpty() ? "" : "\n        hint: " + r.hint())
                    + (r.see().isEmpty() ? "" : "\n        read: " + SITE + link(r.see()));
        };
    }

    /** {@code page#anchor} to a site path: {@code page/#anchor}. */
    static String link(String see) {
        int hash = see.indexOf('#');
        return hash < 0 ? see + "/" : see.substring(0, hash) + "/" + see.substring(hash);
    }

    /** Where the report goes: standard output, or standard error with --json; the self-test sends it to a log. */
    static java.io.PrintStream out = null;

    static void say(String s) {
        if (out != null) out.println(s);
        else if (!json) System.out.println(s);
        else System.err.println(s);
    }

    static String value(String[] args, int i) {
        if (i >= args.length) usage("option " + args[i - 1] + " needs a value");
        return args[i];
    }

    static void usage(String problem) {
        System.err.println("check: " + problem + "\n\n" + USAGE);
        System.exit(2);
    }

    static String color(String code, String s) {
        return COLOR ? "\u001b[" + code + "m" + s + "\u001b[0m" : s;
    }

    static String green(String s) { return color("32", s); }
    static String red(String s) { return color("31", s); }
    static String bold(String s) { return color("1", s); }
    static String dim(String s) { return color("2", s); }

    static final String USAGE = """
            usage: scripts/check.sh NN [options]     grade exercises/NN-*.java
                   scripts/check.sh --all [options]  grade every chapter, with a progress table

              --solution        grade the reference solution instead
              --url URL         grade a server that is already running (any language or framework)
              --pid PID         with --url: its process, for the checks that read threads and files
              --watch           grade again each time you save the exercise file
              --json            print the results as JSON (progress is always saved in .results/checks/)
              --file FILE       grade another server file for chapter NN

            Exit status: 0 every check passed, 1 some failed, 2 the checks could not run.""";
}
