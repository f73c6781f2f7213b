package lib;

import java.util.ArrayList;
import java.util.List;

/**
 * A command line given as one string ({@code --command "python3 server.py"}), split into the
 * words a program is started with, as a shell would split it: quotes group, a backslash takes
 * the next character as it is (outside single quotes); nothing is expanded. The grader's and
 * the race's {@code --command} read it.
 */
public final class ShellWords {
    private ShellWords() {
    }

    /** {@code a 'b c' "d e"} as [a, b c, d e]; an unclosed quote is an IllegalArgumentException. */
    public static List<String> split(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder word = null;
        char quote = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quote != 0) {
                if (c == quote) quote = 0;
                else if (c == '\\' && quote == '"' && i + 1 < line.length()) word.append(line.charAt(++i));
                else word.append(c);
            } else if (Character.isWhitespace(c)) {
                if (word != null) words.add(word.toString());
                word = null;
            } else {
                if (word == null) word = new StringBuilder();
                if (c == '\'' || c == '"') quote = c;
                else if (c == '\\' && i + 1 < line.length()) word.append(line.charAt(++i));
                else word.append(c);
            }
        }
        if (quote != 0) throw new IllegalArgumentException("--command has an unclosed " + quote + ": " + line);
        if (word != null) words.add(word.toString());
        if (words.isEmpty()) throw new IllegalArgumentException("--command needs a command line, such as --command \"python3 server.py\"");
        return words;
    }

    /** {@code line} quoted for a POSIX shell: what to type to give it again. */
    static String quoted(String line) {
        return "'" + line.replace("'", "'\\''") + "'";
    }
}
