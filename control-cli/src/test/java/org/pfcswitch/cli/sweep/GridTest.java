package org.pfcswitch.cli.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The grid's order, its shards and fingerprint, and the t quantiles of the summary. */
class GridTest {

    private static final byte[] FILE = "name: x\n".getBytes(StandardCharsets.UTF_8);

    private static Grid grid(List<String> sets, String... sweeps) {
        return new Grid(Grid.parseAxes(List.of(sweeps)), List.of("dt", "spfc"), List.of(1L, 2L), FILE, sets);
    }

    @Test
    void runsGoPointSchemeSeedWithTheFirstKeyOutermost() {
        Grid g = grid(List.of(), "a=1,2", "b=x,y,z");
        assertEquals(2 * 3 * 2 * 2, g.runs().size());
        Grid.Run r = g.runs().get(5);
        assertEquals(List.of("1", "y"), r.point());
        assertEquals("dt", r.scheme());
        assertEquals(2L, r.seed());
        assertEquals(List.of("a=1", "b=y"), g.overrides(r.point()));
        for (int i = 0; i < g.runs().size(); i++) {
            assertEquals(i, g.runs().get(i).index());
        }
    }

    @Test
    void shardsPartitionTheRunsByIndexModuloN() {
        Grid g = grid(List.of(), "a=1,2,3");
        List<Integer> seen = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            for (Grid.Run r : g.shard(i, 5)) {
                assertEquals(i, r.index() % 5);
                seen.add(r.index());
            }
        }
        assertEquals(g.runs().size(), seen.size());
        assertEquals(g.runs().size(), seen.stream().distinct().count());
        assertEquals(List.of(), g.shard(11, 12).stream().filter(r -> r.index() >= 12).toList());
    }

    @Test
    void theFingerprintNamesTheGrid() {
        assertEquals(grid(List.of("x=1"), "a=1,2").fingerprint(), grid(List.of("x=1"), "a=1,2").fingerprint());
        assertNotEquals(grid(List.of("x=1"), "a=1,2").fingerprint(), grid(List.of("x=2"), "a=1,2").fingerprint());
        assertNotEquals(grid(List.of(), "a=1,2").fingerprint(), grid(List.of(), "a=1,3").fingerprint());
        assertNotEquals(grid(List.of(), "a=1,2").fingerprint(), new Grid(Grid.parseAxes(List.of("a=1,2")),
                List.of("dt", "spfc"), List.of(1L, 2L), "name: y\n".getBytes(StandardCharsets.UTF_8), List.of()).fingerprint());
    }

    @Test
    void badSweepsSeedsAndShards() {
        assertThrows(IllegalArgumentException.class, () -> Grid.parseAxis("a="));
        assertThrows(IllegalArgumentException.class, () -> Grid.parseAxis("a=1,1"));
        assertEquals("--shard 3/3: index 3 out of range 0..2",
                assertThrows(IllegalArgumentException.class, () -> Grid.parseShard("3/3")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> Grid.parseShard("-1/3"));
        assertThrows(IllegalArgumentException.class, () -> Grid.parseShard("1/0"));
        assertThrows(IllegalArgumentException.class, () -> Grid.parseShard("one/3"));
        assertEquals(List.of(3L, 4L, 5L), Grid.parseSeeds("3..5", null, 1));
        assertEquals(List.of(1L, 2L), Grid.parseSeeds(null, 2, 7));
        assertEquals(List.of(7L), Grid.parseSeeds(null, null, 7));
    }

    @Test
    void studentTQuantiles() {
        assertEquals(12.706, StudentT.quantile975(1), 1e-9);
        assertEquals(2.042, StudentT.quantile975(30), 1e-9);
        assertEquals(2.021, StudentT.quantile975(40), 1e-3);
        assertEquals(2.000, StudentT.quantile975(60), 1e-3);
        assertEquals(1.980, StudentT.quantile975(120), 1e-3);
        assertEquals(Double.NaN, StudentT.halfWidth95(new double[] {1}, 1, 1));
    }
}
