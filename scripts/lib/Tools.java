package lib;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Finds the programs the course runs (JBang, Bombardier, Vegeta, taskset) the way
 * scripts/setup.sh does, without a shell: the course's own .tools/bin first, then PATH, then Go's
 * install folder; and, for one that is missing, says in one sentence what to install on this OS.
 */
public final class Tools {
    private Tools() {}

    public static final boolean WINDOWS = System.getProperty("os.name").toLowerCase(Locale.ROOT).startsWith("windows");
    public static final boolean MAC = System.getProperty("os.name").toLowerCase(Locale.ROOT).startsWith("mac");

    /** Where scripts/setup.sh installs tools: COURSE_TOOLS_DIR, else ROOT/.tools. */
    public static Path toolsDir(Path root) {
        String dir = System.getenv("COURSE_TOOLS_DIR");
        return dir != null && !dir.isBlank() ? Path.of(dir) : root.resolve(".tools");
    }

    /** The names a command may have as a file here: bombardier.exe or .cmd on Windows. */
    static List<String> fileNames(String command) {
        if (!WINDOWS) return List.of(command);
        return List.of(command + ".exe", command + ".cmd", command + ".bat", command);
    }

    /** The first executable {@code command} in {@code dirs}. */
    public static Optional<Path> in(List<Path> dirs, String command) {
        for (Path dir : dirs) {
            for (String name : fileNames(command)) {
                Path file = dir.resolve(name);
                if (Files.isRegularFile(file) && Files.isExecutable(file)) return Optional.of(file.toAbsolutePath());
            }
        }
        return Optional.empty();
    }

    /** The folders of PATH. */
    static List<Path> path() {
        List<Path> dirs = new ArrayList<>();
        String path = System.getenv("PATH");
        if (path == null) return dirs;
        for (String dir : path.split(File.pathSeparator)) {
            if (dir.isBlank()) continue;
            try {
                dirs.add(Path.of(dir));
            } catch (RuntimeException e) {
                // a PATH entry that is no path on this OS
            }
        }
        return dirs;
    }

    /** {@code command} on PATH. */
    public static Optional<Path> onPath(String command) {
        return in(path(), command);
    }

    /** Where {@code go install} puts programs: GOBIN, else GOPATH/bin, else ~/go/bin. */
    static Path goBin() {
        String gobin = System.getenv("GOBIN");
        if (gobin != null && !gobin.isBlank()) return Path.of(gobin);
        String gopath = System.getenv("GOPATH");
        if (gopath != null && !gopath.isBlank()) return Path.of(gopath.split(File.pathSeparator)[0], "bin");
        return Path.of(System.getProperty("user.home"), "go", "bin");
    }

    /** A tool as setup.sh finds it: ROOT/.tools/bin, PATH, then Go's install folder. */
    public static Optional<Path> find(Path root, String command) {
        return in(List.of(toolsDir(root).resolve("bin")), command)
                .or(() -> onPath(command))
                .or(() -> in(List.of(goBin()), command));
    }

    /** One sentence: what to install for {@code tool} on this OS (the README's table). */
    public static String install(String tool) {
        return switch (tool) {
            case "bombardier" -> "Bombardier is not installed (the races need it): "
                    + (MAC ? "'brew install bombardier'"
                    : WINDOWS ? "'go install github.com/codesenberg/bombardier@v1.2.6' (Go from 'scoop install go')"
                    : "'go install github.com/codesenberg/bombardier@v1.2.6' (Go from 'apt install golang-go'), or scripts/setup.sh builds it into .tools/bin")
                    + ", then run this again.";
            case "vegeta" -> "Vegeta is not installed (only --open-loop needs it): "
                    + (MAC ? "'brew install vegeta'"
                    : WINDOWS ? "'go install github.com/tsenart/vegeta/v12@v12.12.0' (Go from 'scoop install go')"
                    : "'go install github.com/tsenart/vegeta/v12@v12.12.0' (Go from 'apt install golang-go'), or scripts/setup.sh builds it into .tools/bin")
                    + ", then run this again.";
            case "jbang" -> "JBang is not installed: "
                    + (MAC ? "'brew install jbangdev/tap/jbang'"
                    : WINDOWS ? "'scoop install jbang'"
                    : "'sdk install jbang', or scripts/setup.sh installs it into .tools/")
                    + ".";
            case "taskset" -> WINDOWS || MAC
                    ? "taskset is Linux's: on this OS the race does not pin servers and load to CPUs, and says so."
                    : "taskset is not installed, so the race does not pin servers and load to CPUs: 'apt install util-linux'.";
            default -> tool + " is not installed.";
        };
    }

    /**
     * The command that runs {@code jbang ARGS} from Java: {@code configured} when the caller named
     * one (a wrapper's --jbang, COURSE_JBANG); else JBang's launcher where it can run (jbang.cmd on
     * Windows; the jbang script where there is a bash for it); else, with no shell, the course's
     * launcher in Java (scripts/tools/jbang/JBang.java) on this JVM, which finds JBang's jar (or
     * says what to install).
     */
    public static List<String> jbang(Path root, String configured) {
        if (configured != null && !configured.isBlank() && !configured.equals("jbang")) return List.of(configured);
        String env = System.getenv("COURSE_JBANG");
        if (env != null && !env.isBlank()) return List.of(env);
        Optional<Path> launcher = WINDOWS ? onPath("jbang") : find(root, "jbang").filter(j -> onPath("bash").isPresent());
        if (launcher.isPresent()) return List.of(launcher.get().toString());
        Path java = Path.of(System.getProperty("java.home"), "bin", WINDOWS ? "java.exe" : "java");
        return List.of(java.toString(), root.resolve(Path.of("scripts", "tools", "jbang", "JBang.java")).toString());
    }
}
