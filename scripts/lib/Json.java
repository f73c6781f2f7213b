import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small JSON reader and writer for the course's own tools (thread dumps, Bombardier output,
 * results files). Objects read as LinkedHashMap, arrays as ArrayList, numbers as Double.
 */
final class Json {
    private final String s;
    private int i;

    private Json(String s) {
        this.s = s;
    }

    static Object parse(String text) {
        Json p = new Json(text);
        Object value = p.value();
        p.space();
        if (p.i != text.length()) throw p.error("unexpected text after the value");
        return value;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> object(Object o) {
        return (Map<String, Object>) o;
    }

    @SuppressWarnings("unchecked")
    static List<Object> array(Object o) {
        return o == null ? List.of() : (List<Object>) o;
    }

    private Object value() {
        space();
        if (i >= s.length()) throw error("unexpected end");
        char c = s.charAt(i);
        switch (c) {
            case '{': {
                i++;
                Map<String, Object> map = new LinkedHashMap<>();
                space();
                if (peek('}')) return map;
                do {
                    space();
                    String key = string();
                    space();
                    expect(':');
                    map.put(key, value());
                    space();
                } while (peek(','));
                expect('}');
                return map;
            }
            case '[': {
                i++;
                List<Object> list = new ArrayList<>();
                space();
                if (peek(']')) return list;
                do {
                    list.add(value());
                    space();
                } while (peek(','));
                expect(']');
                return list;
            }
            case '"':
                return string();
            default:
                if (s.startsWith("true", i)) { i += 4; return Boolean.TRUE; }
                if (s.startsWith("false", i)) { i += 5; return Boolean.FALSE; }
                if (s.startsWith("null", i)) { i += 4; return null; }
                int start = i;
                while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) i++;
                if (start == i) throw error("unexpected character '" + c + "'");
                return Double.parseDouble(s.substring(start, i));
        }
    }

    private String string() {
        expect('"');
        StringBuilder b = new StringBuilder();
        while (true) {
            if (i >= s.length()) throw error("unterminated string");
            char c = s.charAt(i++);
            if (c == '"') return b.toString();
            if (c != '\\') {
                b.append(c);
                continue;
            }
            char e = s.charAt(i++);
            switch (e) {
                case 'n' -> b.append('\n');
                case 't' -> b.append('\t');
                case 'r' -> b.append('\r');
                case 'b' -> b.append('\b');
                case 'f' -> b.append('\f');
                case 'u' -> {
                    b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                    i += 4;
                }
                default -> b.append(e);
            }
        }
    }

    private void space() {
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) i++;
    }

    private boolean peek(char c) {
        if (i < s.length() && s.charAt(i) == c) {
            i++;
            return true;
        }
        return false;
    }

    private void expect(char c) {
        if (!peek(c)) throw error("expected '" + c + "'");
    }

    private IllegalArgumentException error(String what) {
        return new IllegalArgumentException("bad JSON at offset " + i + ": " + what);
    }

    /** Writes maps, lists, strings, numbers, booleans and null as indented JSON. */
    static String write(Object value) {
        StringBuilder b = new StringBuilder();
        write(b, value, "");
        return b.append('\n').toString();
    }

    private static void write(StringBuilder b, Object v, String indent) {
        String inner = indent + "  ";
        if (v instanceof Map<?, ?> map) {
            if (map.isEmpty()) { b.append("{}"); return; }
            b.append("{\n");
            int n = 0;
            for (Map.Entry<?, ?> e : map.entrySet()) {
                b.append(inner);
                quote(b, String.valueOf(e.getKey()));
                b.append(": ");
                write(b, e.getValue(), inner);
                b.append(++n < map.size() ? ",\n" : "\n");
            }
            b.append(indent).append('}');
        } else if (v instanceof List<?> list) {
            if (list.isEmpty()) { b.append("[]"); return; }
            b.append("[\n");
            for (int k = 0; k < list.size(); k++) {
                b.append(inner);
                write(b, list.get(k), inner);
                b.append(k + 1 < list.size() ? ",\n" : "\n");
            }
            b.append(indent).append(']');
        } else if (v instanceof String str) {
            quote(b, str);
        } else if (v instanceof Double d && (d.isNaN() || d.isInfinite())) {
            b.append("null");
        } else {
            b.append(v);
        }
    }

    private static void quote(StringBuilder b, String str) {
        b.append('"');
        for (char c : str.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
                    else b.append(c);
                }
            }
        }
        b.append('"');
    }
}
