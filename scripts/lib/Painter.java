package lib;

/** ANSI colours for the grader's and the race's output, only when {@code on} (a terminal, and no NO_COLOR). */
public record Painter(boolean on) {
    public String paint(String code, String s) {
        return on ? "\u001b[" + code + "m" + s + "\u001b[0m" : s;
    }

    public String bold(String s) { return paint("1", s); }
    public String dim(String s) { return paint("2", s); }
    public String red(String s) { return paint("31", s); }
    public String green(String s) { return paint("32", s); }
}
