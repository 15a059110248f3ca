package org.pfcswitch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.pfcswitch.cli.SimGridTest.GRID;
import static org.pfcswitch.cli.SimGridTest.SHORT;
import static org.pfcswitch.cli.SimGridTest.assertUsage;
import static org.pfcswitch.cli.SimGridTest.concat;
import static org.pfcswitch.cli.SimGridTest.sim;
import static org.pfcswitch.cli.SimGridTest.withoutWall;
import static org.pfcswitch.cli.SimGridTest.withoutWallJson;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A grid in shards, as a cluster runs it: each --shard I/N writes its own file; merge joins them
 * into the local run's table, byte for byte but for wall_s; a rerun of a complete shard does
 * nothing; a missing shard is named; shards of two grids are refused.
 */
class SimShardTest {

    @Test
    void mergedShardsEqualALocalRunByteForByteButForWallTimes(@TempDir Path dir) throws IOException {
        Path shards = dir.resolve("shards");
        for (int i = 0; i < 3; i++) {
            Cli s = sim(concat(GRID, "--jobs", "1", "--shard", i + "/3", "--out", shards.toString()));
            assertEquals(0, s.exitCode(), s.err());
            assertTrue(s.out().contains("shard " + i + "/3 of grid ") && s.out().contains(" runs -> "), s.out());
        }
        assertEquals(3, Files.list(shards).count(), "three files, no temporary left");

        Cli local = sim(concat(GRID, "--table", dir.resolve("local.csv").toString(), "--table",
                dir.resolve("local.json").toString(), "--summary", dir.resolve("local-summary.csv").toString()));
        assertEquals(0, local.exitCode(), local.err());
        Cli merged = Cli.run("sim", "merge", shards.toString(), "--table", dir.resolve("merged.csv").toString(), "--table",
                dir.resolve("merged.json").toString(), "--summary", dir.resolve("merged-summary.csv").toString());
        assertEquals(0, merged.exitCode(), merged.err());
        assertEquals(withoutWall(Files.readString(dir.resolve("local.csv"))),
                withoutWall(Files.readString(dir.resolve("merged.csv"))));
        assertEquals(withoutWallJson(Files.readString(dir.resolve("local.json"))),
                withoutWallJson(Files.readString(dir.resolve("merged.json"))));
        assertEquals(Files.readString(dir.resolve("local-summary.csv")), Files.readString(dir.resolve("merged-summary.csv")),
                "the summary holds no wall time: identical");
        assertEquals(local.out(), merged.out());
        assertEquals(9, Files.readAllLines(dir.resolve("merged.csv")).size());
    }

    @Test
    void aCompleteShardIsNotRunAgainAndAMissingOneIsNamed(@TempDir Path dir) throws IOException {
        Path out = dir.resolve("out");
        for (int i = 0; i < 3; i++) {
            assertEquals(0, sim(concat(GRID, "--shard", i + "/3", "--out", out.toString())).exitCode());
        }
        Path file = out.resolve("shard-1-of-3.json");
        String before = Files.readString(file);
        Files.setLastModifiedTime(file, FileTime.fromMillis(1_000_000));
        Cli again = sim(concat(GRID, "--shard", "1/3", "--out", out.toString()));
        assertEquals(0, again.exitCode(), again.err());
        assertTrue(again.out().contains("already complete"), again.out());
        assertEquals(before, Files.readString(file));
        assertEquals(1_000_000, Files.getLastModifiedTime(file).toMillis(), "the file was not rewritten");

        Files.delete(out.resolve("shard-2-of-3.json"));
        Path table = dir.resolve("t.csv");
        Cli missing = Cli.run("sim", "merge", out.toString(), "--table", table.toString());
        assertEquals(1, missing.exitCode(), missing.err());
        assertEquals("pfcswitch sim merge: error: missing shard 2/3 of grid " + fingerprint(before)
                + " (2 of 3 found); rerun it with --shard 2/3", missing.err().strip());
        assertEquals("", missing.out());
        assertFalse(Files.exists(table), "no partial table");

        // a shard cut short (a killed task that wrote in place would leave one) is run again
        Files.writeString(out.resolve("shard-2-of-3.json"), before.substring(0, before.length() / 2));
        Cli cut = Cli.run("sim", "merge", out.toString());
        assertEquals(1, cut.exitCode());
        assertTrue(cut.err().contains("shard-2-of-3.json: not a complete shard file"), cut.err());
        Cli rerun = sim(concat(GRID, "--shard", "2/3", "--out", out.toString()));
        assertEquals(0, rerun.exitCode(), rerun.err());
        assertTrue(rerun.err().contains("is incomplete; running the shard again"), rerun.err());
        assertEquals(0, Cli.run("sim", "merge", out.toString()).exitCode());
    }

    @Test
    void shardsOfTwoGridsAreRefusedInOneLine(@TempDir Path dir) throws IOException {
        Path a = dir.resolve("a");
        Path b = dir.resolve("b");
        assertEquals(0, sim(concat(GRID, "--shard", "0/2", "--out", a.toString())).exitCode());
        String[] other = concat(SHORT, "--scheme", "dt,spfc", "--sweep", "traffic.web.load=0.3,0.7", "--seeds", "2");
        assertEquals(0, sim(concat(other, "--shard", "1/2", "--out", b.toString())).exitCode());
        Cli mixed = Cli.run("sim", "merge", a.toString(), b.toString());
        assertEquals(1, mixed.exitCode());
        assertEquals(1, mixed.err().strip().lines().count(), mixed.err());
        assertTrue(mixed.err().contains("are shards of different grids"), mixed.err());

        Cli clash = sim(concat(other, "--shard", "0/2", "--out", a.toString()));
        assertEquals(1, clash.exitCode());
        assertTrue(clash.err().contains("holds shard 0/2 of another grid"), clash.err());
    }

    @Test
    void badShardsGetOneLineErrors(@TempDir Path dir) {
        String out = dir.toString();
        assertUsage(sim(concat(GRID, "--shard", "3/3", "--out", out)), "--shard 3/3: index 3 out of range 0..2");
        assertUsage(sim(concat(GRID, "--shard", "1of3", "--out", out)), "--shard wants I/N");
        assertUsage(sim(concat(GRID, "--shard", "0/3")), "--shard needs --out DIR");
        assertUsage(sim(concat(GRID, "--shard", "0/3", "--out", out, "--table", "t.csv")), "a shard writes only its file");
        assertUsage(sim(concat(GRID, "--out", out)), "--out in a grid is where --shard writes its file");
        Cli none = Cli.run("sim", "merge", out);
        assertEquals(1, none.exitCode());
        assertTrue(none.err().contains("no shard files"), none.err());
        assertUsage(Cli.run("sim", "--seeds", "2"), "Missing required option: '--config=SCENARIO'");
    }

    private static String fingerprint(String shardJson) {
        int at = shardJson.indexOf("\"grid\":\"") + 8;
        return shardJson.substring(at, shardJson.indexOf('"', at));
    }
}
