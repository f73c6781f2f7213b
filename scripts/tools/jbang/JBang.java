import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * JBang's launcher, in Java, for a machine with no shell to run JBang's own (a bash script on
 * Linux and macOS; jbang.cmd or jbang.ps1 on Windows). It does what they do: runs JBang's jar,
 * which prints the command that runs the script and exits 255, then runs that command and exits
 * with its status, stopping it if this launcher is stopped. It needs nothing but a Java 11+:
 *
 * <pre>java scripts/tools/jbang/JBang.java check 01      (the same as: jbang check 01)</pre>
 *
 * JBang's jar comes from the course's .tools/jbang/lib (scripts/setup.sh), JBang's own install
 * (~/.jbang/bin/jbang.jar), or beside a jbang launcher on PATH.
 */
class JBang {
    static final boolean WINDOWS = System.getProperty("os.name").toLowerCase(Locale.ROOT).startsWith("windows");
    static final int RUN_THE_COMMAND = 255; // JBang: "run what I printed"

    public static void main(String[] args) throws Exception {
        String classpath = classpath();
        if (classpath == null) {
            System.err.println("jbang: JBang is not installed: " + (WINDOWS ? "'scoop install jbang'"
                    : System.getProperty("os.name").startsWith("Mac") ? "'brew install jbangdev/tap/jbang'"
                    : "'sdk install jbang', or scripts/setup.sh installs it into .tools/") + ".");
            System.exit(2);
        }
        List<String> command = new ArrayList<>(List.of(java(), "-classpath", classpath, "dev.jbang.Main"));
        command.addAll(List.of(args));
        ProcessBuilder jbang = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.INHERIT)
                .redirectError(ProcessBuilder.Redirect.INHERIT);
        // The quoting JBang uses for the command it prints (and this launcher reads back).
        jbang.environment().put("JBANG_RUNTIME_SHELL", WINDOWS ? "powershell" : "bash");
        if (System.console() == null) jbang.environment().put("JBANG_STDIN_NOTTY", "true");
        Process p = jbang.start();
        String printed = read(p.getInputStream());
        int status = p.waitFor();
        if (status != RUN_THE_COMMAND) {
            if (!printed.isBlank()) System.out.println(printed.stripTrailing());
            System.exit(status);
        }
        Process run = new ProcessBuilder(words(printed.strip(), WINDOWS)).inheritIO().start();
        // Stopped (Ctrl-C, or by whatever started this launcher): stop what it runs too.
        Thread stop = new Thread(() -> {
            run.descendants().forEach(ProcessHandle::destroy);
            run.destroy();
        });
        Runtime.getRuntime().addShutdownHook(stop);
        int exit = run.waitFor();
        Runtime.getRuntime().removeShutdownHook(stop);
        System.exit(exit);
    }

    /** This JVM's java: JBang runs on it, and picks the script's own Java itself (//JAVA 25). */
    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", WINDOWS ? "java.exe" : "java").toString();
    }

    /** JBang's jar (or jars), or null when there is none. */
    static String classpath() throws IOException {
        List<Path> places = new ArrayList<>();
        String tools = System.getenv("COURSE_TOOLS_DIR");
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve(Path.of("site", "data", "course.json")))) {
                places.add((tools != null && !tools.isBlank() ? Path.of(tools) : dir.resolve(".tools")).resolve(Path.of("jbang", "lib")));
                break;
            }
        }
        places.add(Path.of(System.getProperty("user.home"), ".jbang", "bin"));
        String path = System.getenv("PATH");
        for (String dir : path == null ? new String[0] : path.split(File.pathSeparator)) {
            for (String name : WINDOWS ? List.of("jbang.cmd", "jbang.ps1") : List.of("jbang")) {
                Path launcher = Path.of(dir, name);
                if (Files.isRegularFile(launcher)) places.add(launcher.toRealPath().getParent());
            }
        }
        for (Path place : places) {
            if (Files.isRegularFile(place.resolve("jbang.jar"))) return place.resolve("jbang.jar").toString();
            if (Files.isDirectory(place)) {
                try (Stream<Path> files = Files.list(place)) {
                    List<String> jars = files.map(Path::toString).filter(f -> f.endsWith(".jar")).sorted().toList();
                    if (jars.stream().anyMatch(j -> Path.of(j).getFileName().toString().startsWith("jbang-cli-"))) {
                        return String.join(File.pathSeparator, jars);
                    }
                }
            }
        }
        return null;
    }

    static String read(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        in.transferTo(out);
        return out.toString(StandardCharsets.UTF_8);
    }

    /**
     * The words of a command line JBang printed, unquoted as the shell it printed for would:
     * bash's single quotes (a quote inside is '\'') or PowerShell's (a quote inside is '').
     */
    static List<String> words(String line, boolean powershell) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean inWord = false, quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c != '\'') word.append(c);
                else if (powershell && i + 1 < line.length() && line.charAt(i + 1) == '\'') word.append(line.charAt(++i));
                else quoted = false;
            } else if (c == '\'') {
                quoted = inWord = true;
            } else if (c == '\\' && !powershell && i + 1 < line.length()) {
                word.append(line.charAt(++i));
                inWord = true;
            } else if (Character.isWhitespace(c)) {
                if (inWord) words.add(word.toString());
                word.setLength(0);
                inWord = false;
            } else {
                word.append(c);
                inWord = true;
            }
        }
        if (inWord) words.add(word.toString());
        return words;
    }
}
