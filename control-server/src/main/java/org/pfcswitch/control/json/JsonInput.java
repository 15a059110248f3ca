package org.pfcswitch.control.json;

import java.nio.charset.StandardCharsets;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * The one JSON reader of the CLI and the control API: strict, so a document means exactly one
 * thing. Refused: anything after the document ({@code {"a":1} garbage}), a key given twice
 * ({@code {"scheme":"dt","scheme":"bfc"}}: which one would apply?), NaN and infinities, comments,
 * single quotes and unquoted names. Jackson's stream limits bound nesting and string sizes.
 */
public final class JsonInput {
    private static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .disable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .disable(JsonReadFeature.ALLOW_JAVA_COMMENTS)
            .disable(JsonReadFeature.ALLOW_SINGLE_QUOTES)
            .disable(JsonReadFeature.ALLOW_UNQUOTED_FIELD_NAMES)
            .build();

    private JsonInput() {}

    /** One JSON document; null when the input is empty. Throws naming the first thing that is not strict JSON. */
    public static JsonNode read(byte[] json) throws JsonProcessingException {
        return read(new String(json, StandardCharsets.UTF_8));
    }

    /** As {@link #read(byte[])} for text. */
    public static JsonNode read(String json) throws JsonProcessingException {
        return MAPPER.readTree(json);
    }
}
