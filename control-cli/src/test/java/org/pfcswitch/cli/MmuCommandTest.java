package org.pfcswitch.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import static org.junit.jupiter.api.Assertions.*;

class MmuCommandTest {
    /** The shipped Tomahawk model; found from the module directory Maven runs tests in. */
    private static final Path TOMAHAWK = Path.of("..", "testbed-configs", "mmu", "tomahawk-32x100g.yaml");

    @TempDir
    Path dir;

    @Test
    void shippedTomahawkConfigGivesTheDshPaperPools() throws IOException {
        Cli dt = Cli.run("mmu", "explain", "-c", TOMAHAWK.toString(), "--scheme", "dt", "--json");
        assertEquals(0, dt.exitCode(), dt.err());
        assertEquals(2_649_088, number(dt.out(), "sharedPoolBytes"));
        assertEquals(16_777_216, number(dt.out(), "totalBytes"));
        assertEquals(13_440_000, number(dt.out(), "headroomBytes"));
        assertEquals(688_128, number(dt.out(), "privateBytes"));

        Cli dsh = Cli.run("mmu", "explain", "-c", TOMAHAWK.toString(), "--json");
        assertEquals(0, dsh.exitCode(), dsh.err());
        assertEquals(14_169_088, number(dsh.out(), "sharedPoolBytes"));
        assertEquals(1_920_000, number(dsh.out(), "headroomBytes"));
    }

    @Test
    void textShowsTheHeadroomFormulaWithItsInputs() {
        Cli c = Cli.run("mmu", "explain", "-c", TOMAHAWK.toString(), "--scheme", "dt");
        assertEquals(0, c.exitCode(), c.err());
        assertTrue(c.out().contains("scheme dt"), c.out());
        assertTrue(c.out().contains("C = 100 Gb/s, D_prop = 2,000 ns, MTU = 1,500 B"), c.out());
    }

    @Test
    void everySchemeAtOnce() throws IOException {
        Cli c = Cli.run("mmu", "explain", "-c", TOMAHAWK.toString(), "--scheme", "all", "--json");
        assertEquals(0, c.exitCode(), c.err());
        JsonNode all = new ObjectMapper().readTree(c.out());
        String[] schemes = {"st", "dt", "sonic", "dsh", "spfc", "reverie", "capfc", "bfc"};
        assertEquals(schemes.length, all.size());
        for (int i = 0; i < schemes.length; i++) {
            JsonNode e = all.get(i);
            assertEquals(schemes[i], e.get("scheme").asText());
            for (String key : new String[] {"totalBytes", "sharedPoolBytes", "headroomBytes", "privateBytes"}) {
                assertTrue(e.get(key).isIntegralNumber(), schemes[i] + " lacks " + key);
            }
            assertEquals(32, e.get("ports").size(), schemes[i]);
            assertEquals(8, e.get("ports").get(0).get("queues").size(), schemes[i]);
            assertTrue(e.get("ports").get(0).get("queues").get(3).get("lossless").isBoolean(), schemes[i]);
            assertTrue(e.get("parameters").get(0).has("default"), schemes[i]);
        }
        assertTrue(c.out().startsWith("[{\"scheme\":\"st\",\"totalBytes\":16777216,"), c.out().substring(0, 60));
    }

    @Test
    void portListsAndUnits() throws IOException {
        Path f = write("""
                mmu:
                  totalBytes: 2.5MB
                  ports:
                    - {speed: 10G, cableDelay: 1us}
                    - {speed: 10G, cableDelay: 1us}
                    - {speed: 25G, cableDelay: 500ns}
                  losslessPriorities: [3]
                  scheme: spfc
                """);
        Cli c = Cli.run("mmu", "explain", "-c", f.toString(), "--json");
        assertEquals(0, c.exitCode(), c.err());
        assertEquals(2_500_000, number(c.out(), "totalBytes"));
        assertTrue(c.out().contains("\"scheme\":\"spfc\""));
    }

    @Test
    void badConfigsGetOneLineNamingTheKey() throws IOException {
        assertConfigError("mmu:\n  ports: {count: 4, speed: 10G}\n  totlBytes: 1MiB\n", "mmu.totlBytes: unknown key");
        assertConfigError("mmu:\n  ports: {count: 4, speed: fast}\n", "mmu.ports.speed: expected a rate");
        assertConfigError("mmu:\n  ports: {count: 4, speed: 10G}\n  scheme: nope\n", "scheme must be one of");
        assertConfigError("mmu:\n  ports: {count: 4, speed: 10G}\n  schemes: {dt: {alpah: 2}}\n", "alpah");
        assertConfigError("mmu:\n  totalBytes: 1MiB\n", "mmu.ports: required key is missing");
        assertConfigError("other: 1\n", "mmu: required key is missing");
        assertConfigError("mmu: [1, 2\n", "not valid YAML");
        Cli missing = Cli.run("mmu", "explain", "-c", dir.resolve("none.yaml").toString());
        assertEquals(1, missing.exitCode());
        assertTrue(missing.err().contains("no such file"), missing.err());
        Cli badScheme = Cli.run("mmu", "explain", "-c", TOMAHAWK.toString(), "--scheme", "xyz");
        assertEquals(2, badScheme.exitCode());
        assertTrue(badScheme.err().contains("--scheme must be one of"), badScheme.err());
    }

    private void assertConfigError(String yaml, String expected) throws IOException {
        Path f = write(yaml);
        Cli c = Cli.run("mmu", "explain", "-c", f.toString());
        assertEquals(1, c.exitCode(), c.out() + c.err());
        assertTrue(c.err().startsWith("pfcswitch mmu explain: error: " + f), c.err());
        assertTrue(c.err().contains(expected), "expected '" + expected + "' in " + c.err());
        assertEquals(1, c.err().strip().lines().count(), c.err());
    }

    private Path write(String yaml) throws IOException {
        return Files.writeString(Files.createTempFile(dir, "mmu", ".yaml"), yaml);
    }

    /** A top-level number of the document. */
    private static long number(String json, String key) throws IOException {
        JsonNode value = new ObjectMapper().readTree(json).get(key);
        assertTrue(value != null && value.isIntegralNumber(), key + " missing in " + json);
        return value.asLong();
    }
}
