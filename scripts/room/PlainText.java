package room;

/**
 * Text from another machine, as the room draws it and the learner's client prints it: {@link #of}.
 */
public final class PlainText {
    private PlainText() {}

    /**
     * Text from another machine as the room and the learner's client show it: without control
     * characters (an escape sequence that sets a terminal's title, a carriage return that hides a
     * line), format characters (right-to-left overrides, zero-width joiners), private-use,
     * unassigned or lone surrogate code points, and line or paragraph separators; newlines and
     * tabs kept only when {@code lines}.
     */
    public static String of(String text, boolean lines) {
        if (text == null) return null;
        StringBuilder kept = new StringBuilder(text.length());
        text.codePoints().forEach(c -> {
            int type = Character.getType(c);
            boolean shown = switch (type) {
                case Character.CONTROL -> lines && (c == '\n' || c == '\t');
                case Character.FORMAT, Character.PRIVATE_USE, Character.SURROGATE, Character.UNASSIGNED,
                     Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR -> false;
                default -> true;
            };
            if (shown) kept.appendCodePoint(c);
        });
        return kept.toString();
    }
}
