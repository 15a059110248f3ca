package org.pfcswitch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.pfcswitch.cli.bench.OvsDpdkPeer;
import org.pfcswitch.cli.bench.ProcStat;
import org.pfcswitch.dataplane.Hugepages;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * {@code bench fwd --pipeline --devices null --peer ovs} in a child JVM (EAL starts once per
 * process): the live pipeline and Open vSwitch with DPDK forward on the same net_null vdevs, the
 * JSON has the per-(workers, size) keys, and afterwards no OVS daemon is left and the hugepage
 * setting is what it was. Installs openvswitch-switch-dpdk on first use (root).
 */
class BenchFwdOvsTest {

    @Test
    void pipelineAndOvsForwardOnNullDevicesAndOvsIsGoneAfterwards() throws Exception {
        assumeTrue(ProcStat.isRoot(), () -> "BenchFwdOvsTest needs root: OVS-DPDK needs hugepages, which only root can reserve, and "
                + (OvsDpdkPeer.installed() ? "" : "it is not installed (the bench installs it with apt-get as root)"));
        long pagesBefore = Hugepages.reserved();
        List<Long> ovsBefore = OvsDpdkPeer.ovsPids();
        long start = System.nanoTime();
        String out;
        String err;
        int code;
        try (SwitchProcess p = SwitchProcess.start("bench", "fwd", "--pipeline", "--devices", "null", "--peer", "ovs",
                "--workers", "1,2", "--seconds", "1", "--rounds", "1", "--sizes", "64", "--json")) {
            code = p.waitFor(Duration.ofSeconds(150));
            out = p.stdout();
            err = p.stderr();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        assertEquals(0, code, out + "\n" + err);

        List<String> lines = out.lines().filter(l -> l.startsWith("{")).toList();
        assertEquals(2, lines.size(), out);
        JsonNode row = new ObjectMapper().readTree(lines.getFirst());
        JsonNode two = new ObjectMapper().readTree(lines.get(1));
        for (String key : List.of("workers", "frameBytes", "mpps", "mppsPerWorker", "scaling", "ovsMpps", "ratioToOvs",
                "ovsCrossConnectMpps", "testpmdMpps", "ratioToTestpmd", "javaRoundsMpps", "ovsRoundsMpps", "testpmdRoundsMpps",
                "loadAverageBefore", "loadAverageAfter", "stealPercent", "cpuShare", "ovsCpuShare")) {
            assertTrue(row.has(key), key + " missing: " + row);
        }
        assertEquals(1, row.get("workers").asInt());
        assertEquals(64, row.get("frameBytes").asInt());
        assertEquals("null", row.get("devices").asText());
        assertTrue(row.get("supported").asBoolean(), row.toString());
        assertTrue(row.get("mpps").asDouble() > 0.1, "pfcswitch forwarded " + row.get("mpps") + " Mpps\n" + err);
        assertTrue(row.get("ovsMpps").asDouble() > 0.1, "OVS forwarded " + row.get("ovsMpps") + " Mpps\n" + err);
        assertTrue(row.get("testpmdMpps").asDouble() > 0.1, row.toString());
        assertEquals(1.0, row.get("scaling").asDouble(), 1e-9);
        assertRatioOfPrinted(row.get("mpps").asDouble(), row.get("ovsMpps").asDouble(), row.get("ratioToOvs").asDouble());
        // two workers: the switch split over both CPUs, every frame crossing from one worker to the other
        assertEquals(2, two.get("workers").asInt());
        assertTrue(two.get("supported").asBoolean(), two.toString());
        assertTrue(two.get("mpps").asDouble() > 0.1, "two workers forwarded " + two.get("mpps") + " Mpps\n" + err);
        assertEquals(two.get("mpps").asDouble() / 2, two.get("mppsPerWorker").asDouble(), 0.01);
        assertRatioOfPrinted(two.get("mpps").asDouble(), row.get("mpps").asDouble(), two.get("scaling").asDouble());
        assertTrue(two.get("ovsMpps").asDouble() > 0.1, two.toString());
        // OVS decided on the frames pfcswitch sees: (almost) none still needed the ingress MAC write in the window.
        assertTrue(row.get("ovsRewrittenFrames").asLong() < 0.01 * row.get("ovsMpps").asDouble() * 1e6, row.toString());

        List<Long> ovsLeft = new ArrayList<>(OvsDpdkPeer.ovsPids());
        ovsLeft.removeAll(ovsBefore);
        assertTrue(ovsLeft.isEmpty(), "ovs-vswitchd / ovsdb-server left running: " + ovsLeft);
        assertEquals(pagesBefore, Hugepages.reserved(), "nr_hugepages restored");
        assertFalse(err.contains("not returned to the pool"), err);
        assertTrue(seconds < 100, "took " + seconds + " s");
    }

    /**
     * The bench prints a ratio of unrounded rates, and the rates to 3 decimals: the ratio recomputed from the printed
     * rates may differ by the rounding's relative error, large when a rate is small (a loaded CI machine).
     */
    private static void assertRatioOfPrinted(double numerator, double denominator, double printedRatio) {
        double ratio = numerator / denominator;
        double roundingSlack = ratio * (0.0005 / numerator + 0.0005 / denominator) + 0.0005;
        assertEquals(ratio, printedRatio, roundingSlack * 1.01, "ratio of " + numerator + " to " + denominator);
    }

    /** OVS is compared on null devices only; asking for rings says why instead of measuring something else. */
    @Test
    void ovsOnRingDevicesIsRefusedWithTheReason() {
        Cli r = Cli.run("bench", "fwd", "--pipeline", "--peer", "ovs", "--devices", "ring");
        assertEquals(1, r.exitCode(), r.out() + r.err());
        assertTrue(r.err().contains("--peer ovs runs on --devices null only"), r.err());
    }
}
