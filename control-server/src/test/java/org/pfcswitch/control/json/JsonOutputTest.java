package org.pfcswitch.control.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class JsonOutputTest {

    @Test
    void compactKeysInOrderNumbersAsNumbers() {
        String s = new JsonOutput().beginObject().field("a", 1).field("b", "x").field("c", true)
                .field("d", new int[] {1, 2}).beginObject("e").field("f", Long.MIN_VALUE).endObject()
                .beginArray("g").beginObject().nullField("h").endObject().value(7).value("s").endArray()
                .name("i").value((String) null).endObject().toString();
        assertEquals("{\"a\":1,\"b\":\"x\",\"c\":true,\"d\":[1,2],\"e\":{\"f\":-9223372036854775808},"
                + "\"g\":[{\"h\":null},7,\"s\"],\"i\":null}", s);
    }

    @Test
    void decimalsHaveFixedPlacesAndNanOrInfiniteIsNull() throws Exception {
        String s = new JsonOutput().beginObject().field("a", 1.23456, 4).field("b", 2.0, 3).field("c", Double.NaN, 4)
                .field("d", Double.POSITIVE_INFINITY, 3).field("e", Double.NEGATIVE_INFINITY, 3)
                .field("f", new double[] {0.5, Double.NaN, 1e9}, 3).endObject().toString();
        assertEquals("{\"a\":1.2346,\"b\":2.000,\"c\":null,\"d\":null,\"e\":null,\"f\":[0.500,null,1000000000.000]}", s);
        JsonNode tree = new ObjectMapper().readTree(s);
        assertTrue(tree.get("a").isNumber() && tree.get("c").isNull() && tree.get("f").get(2).isNumber(), s);
    }

    @Test
    void stringsAreEscaped() throws Exception {
        String nasty = "q\"b\\n\nt\tc\u0001 ü";
        String s = new JsonOutput().beginObject().field("k\"", nasty).endObject().toString();
        assertEquals("{\"k\\\"\":\"q\\\"b\\\\n\\nt\\tc\\u0001 ü\"}", s);
        assertEquals(nasty, new ObjectMapper().readTree(s).get("k\"").asText());
    }
}
