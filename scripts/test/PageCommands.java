package test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The course's own commands as its pages print them: each command of a {@code [source,shell]}
 * listing under site/content/ that starts with {@code scripts/} or {@code jbang } (a line split
 * at {@code ;}, {@code &&} and {@code |}, its comment and a trailing {@code &} cut), with the
 * page it is on and its words as a shell would split them. A line with a placeholder
 * ({@code [--port P]}, {@code {attribute}}, {@code <pid>}) is a syntax, not a command: left out.
 * CourseFilesTests checks that each names what exists and that the grader reads its options;
 * BenchTests that the race does.
 */
final class PageCommands {
    record Command(String page, String line, List<String> words) {
        String program() {
            return words.get(0);
        }

        /** The words after the program. */
        List<String> args() {
            return words.subList(1, words.size());
        }
    }

    static List<Command> read(Path root) throws IOException {
        List<Command> commands = new ArrayList<>();
        List<Path> pages;
        try (Stream<Path> files = Files.walk(root.resolve("site/content"))) {
            pages = files.filter(p -> p.toString().endsWith(".adoc")).sorted().toList();
        }
        for (Path page : pages) {
            boolean shell = false, inside = false;
            for (String line : Files.readAllLines(page)) {
                if (line.startsWith("[source,shell")) {
                    shell = true;
                } else if (line.equals("----") && (shell || inside)) {
                    inside = !inside;
                    if (!inside) shell = false;
                } else if (inside) {
                    for (String part : line.split(";|&&|\\|")) {
                        String command = part.replaceAll("\\s#.*$", "").strip().replaceAll("\\s*&$", "");
                        if (!command.startsWith("scripts/") && !command.startsWith("jbang ")) continue;
                        if (command.matches(".*(\\[-|\\{|<).*")) continue;
                        commands.add(new Command(root.relativize(page).toString(), command, words(command)));
                    }
                } else if (!line.isBlank() && !line.startsWith("[") && !line.startsWith(".")) {
                    shell = false;
                }
            }
        }
        return commands;
    }

    /** A command's words: split at spaces, with single or double quotes grouping and dropped. */
    static List<String> words(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        char quote = 0;
        boolean any = false;
        for (char c : line.toCharArray()) {
            if (quote != 0) {
                if (c == quote) quote = 0;
                else word.append(c);
            } else if (c == '"' || c == '\'') {
                quote = c;
                any = true;
            } else if (Character.isWhitespace(c)) {
                if (any || !word.isEmpty()) words.add(word.toString());
                word.setLength(0);
                any = false;
            } else {
                word.append(c);
            }
        }
        if (any || !word.isEmpty()) words.add(word.toString());
        return words;
    }
}
