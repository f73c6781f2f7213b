/** ANSI colours for the grader's and the race's output, only when {@code on} (a terminal, and no NO_COLOR). */
record Painter(boolean on) {
    String paint(String code, String s) {
        return on ? "\u001b[" + code + "m" + s + "\u001b[0m" : s;
    }

    String bold(String s) { return paint("1", s); }
    String dim(String s) { return paint("2", s); }
    String red(String s) { return paint("31", s); }
    String green(String s) { return paint("32", s); }
}
