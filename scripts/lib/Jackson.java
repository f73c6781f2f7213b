package lib;

import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;
import java.util.Locale;

/**
 * The course's one Jackson set-up, for every JSON file its tools write or read (results, bench
 * reports, hand-ins, the chapter registry, thread dumps). It writes what the site and the
 * committed files expect: two-space indentation, {@code "key": value}, {@code []} and {@code {}}
 * when empty, a final newline, and null for a number that is not one (JSON has no NaN). Reading
 * ignores fields a record does not name, so a file from a newer tool still loads.
 */
public final class Jackson {
    /**
     * A value chosen from a fixed set (an enum) that the JSON spells by its label: its name in
     * lower case, '_' as '-' ({@code OPEN_LOOP} is "open-loop"). A label this version does not
     * know reads as null.
     */
    public interface Label {
        String name();

        @JsonValue
        default String label() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    public static final ObjectMapper MAPPER = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.READ_UNKNOWN_ENUM_VALUES_AS_NULL)
            .addModule(new SimpleModule("no-NaN").addSerializer(Double.class, new Finite()).addSerializer(double.class, new Finite()))
            .build();

    private static final ObjectWriter WRITER = MAPPER.writer(new DefaultPrettyPrinter()
            .withObjectIndenter(new DefaultIndenter("  ", "\n"))
            .withArrayIndenter(new DefaultIndenter("  ", "\n"))
            .withSeparators(Separators.createDefaultInstance()
                    .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
                    .withObjectEmptySeparator("")
                    .withArrayEmptySeparator("")));

    private Jackson() {}

    /** {@code value} (a record, list, map, string, number...) as indented JSON, with a final newline. */
    public static String write(Object value) {
        try {
            return WRITER.writeValueAsString(value) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot write JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** Reads {@code json} as a {@code type}; IllegalArgumentException when it is not JSON of that shape. */
    public static <T> T read(String json, Class<T> type) {
        try {
            return MAPPER.readValue(json, type);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("bad JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** Reads {@code json} as a tree, to see what kind of file it is before reading it as a record. */
    public static JsonNode tree(String json) {
        return read(json, JsonNode.class);
    }

    /** A tree as a {@code type}; IllegalArgumentException when it is not of that shape. */
    public static <T> T convert(JsonNode tree, Class<T> type) {
        try {
            return MAPPER.treeToValue(tree, type);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not a " + type.getSimpleName() + ": " + e.getOriginalMessage(), e);
        }
    }

    /** Doubles as JSON numbers, and NaN or infinity as null. */
    private static final class Finite extends StdSerializer<Double> {
        Finite() {
            super(Double.class);
        }

        @Override
        public void serialize(Double d, JsonGenerator out, SerializerProvider provider) throws IOException {
            if (d.isNaN() || d.isInfinite()) out.writeNull();
            else out.writeNumber(d);
        }
    }
}
