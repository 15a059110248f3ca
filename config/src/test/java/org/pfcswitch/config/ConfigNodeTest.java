package org.pfcswitch.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

class ConfigNodeTest {
    private static final String LAB = """
            name: lab
            bufferBytes: 16MiB
            ports:
              - {name: p0, speed: 100G, cableDelay: 9us}
              - {name: p1, speed: 25000000000, cableDelay: 500}
            lossless: [3, 4]
            ecn: {enabled: true, pmax: 0.01}
            """;

    @Test
    void typedValuesWithUnits() {
        ConfigNode c = ConfigNode.parse("lab.yaml", LAB);
        assertEquals("lab", c.string("name"));
        assertEquals(16L << 20, c.bytes("bufferBytes"));
        List<ConfigNode> ports = c.children("ports");
        assertEquals(2, ports.size());
        assertEquals(100_000_000_000L, ports.get(0).bitsPerSecond("speed"));
        assertEquals(9_000, ports.get(0).nanos("cableDelay"));
        assertEquals(25_000_000_000L, ports.get(1).bitsPerSecond("speed"));
        assertEquals(500, ports.get(1).nanos("cableDelay"));
        assertEquals(List.of(3, 4), c.integers("lossless", 0, 7));
        assertTrue(c.child("ecn").bool("enabled", false));
        assertEquals(0.01, c.child("ecn").number("pmax"));
        assertEquals(7, c.integer("absent", 7));
        assertEquals("ports[1]", ports.get(1).path());
    }

    @Test
    void errorsNameTheFileAndThePath() {
        ConfigNode c = ConfigNode.parse("lab.yaml", LAB);
        assertMessage("lab.yaml: ports[0].speed: expected a whole number, got '100G'", () -> c.children("ports").get(0).integer("speed"));
        assertMessage("lab.yaml: scheme: required key is missing", () -> c.string("scheme"));
        assertMessage("lab.yaml: lossless: values must be between 0 and 3, got 4", () -> c.integers("lossless", 0, 3));
        assertMessage("lab.yaml: name: unknown key (allowed here: ports)", () -> c.allowOnly("ports"));
        assertMessage("lab.yaml: ecn.pmax: expected true or false, got '0.01'", () -> c.child("ecn").bool("pmax", false));
        assertMessage("lab.yaml: name: expected a mapping of keys, got 'lab'", () -> c.child("name"));
        ConfigNode bad = ConfigNode.parse("x.yaml", "size: 12 parsecs\nrate: fast\nt: 3 fortnights\n");
        assertMessage("x.yaml: size: expected a size like 16MiB, 9KB or 1500, got '12 parsecs'", () -> bad.bytes("size"));
        assertMessage("x.yaml: rate: expected a rate like 100G, 25Gbps or 10000000000, got 'fast'", () -> bad.bitsPerSecond("rate"));
        assertMessage("x.yaml: t: expected a time like 9us, 1ms or 500ns, got '3 fortnights'", () -> bad.nanos("t"));
    }

    @Test
    void badFilesGiveOneLine(@TempDir Path dir) {
        assertMessage(dir.resolve("nope.yaml") + ": no such file", () -> ConfigNode.load(dir.resolve("nope.yaml")));
        ConfigException yaml = assertThrows(ConfigException.class, () -> ConfigNode.parse("b.yaml", "a: [1, 2\nb: 3"));
        assertTrue(yaml.getMessage().startsWith("b.yaml: not valid YAML:"), yaml.getMessage());
        assertFalse(yaml.getMessage().contains("\n"));
        assertThrows(ConfigException.class, () -> ConfigNode.parse("d.yaml", "a: 1\na: 2\n"), "duplicate keys are errors");
        assertMessage("l.yaml: expected a mapping of keys at the top level", () -> ConfigNode.parse("l.yaml", "- 1\n- 2\n"));
        assertTrue(ConfigNode.parse("e.yaml", "").keys().isEmpty());
    }

    @Test
    void units() {
        assertEquals(2_500_000, Units.bytes("2.5MB"));
        assertEquals(9 * 1024, Units.bytes("9KiB"));
        assertEquals(1500, Units.bytes("1500"));
        assertEquals(10_000_000_000L, Units.bitsPerSecond("10Gbps"));
        assertEquals(400_000_000_000L, Units.bitsPerSecond("400 G"));
        assertEquals(1_500, Units.nanos("1.5us"));
        assertEquals(12_000_000, Units.nanos("12ms"));
        assertThrows(IllegalArgumentException.class, () -> Units.nanos("0.5ns"));
        assertThrows(IllegalArgumentException.class, () -> Units.bytes("-1"));
    }

    private static void assertMessage(String expected, org.junit.jupiter.api.function.Executable e) {
        assertEquals(expected, assertThrows(ConfigException.class, e).getMessage());
    }
}
