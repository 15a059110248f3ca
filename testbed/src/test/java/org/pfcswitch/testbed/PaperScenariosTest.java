package org.pfcswitch.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.pfcswitch.testbed.config.ScenarioLoader;

/**
 * Every scenario of {@code testbed-configs/scenarios/papers/} loads, at its paper's size; DSH's
 * deadlock fabric runs the paper's switch, where the two schemes' buffers differ.
 */
class PaperScenariosTest {

    static final Path PAPERS = Path.of("..", "testbed-configs", "scenarios", "papers");

    @Test
    void everyPaperScenarioLoadsAtItsPapersSize() throws IOException {
        Map<String, Integer> hosts = new TreeMap<>();
        Map<String, Integer> switches = new TreeMap<>();
        try (Stream<Path> files = Files.list(PAPERS)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList()) {
                Scenario s = ScenarioLoader.load(f, List.of()).scenario();
                String name = f.getFileName().toString().replace(".yaml", "");
                assertEquals(name, s.name(), "a file is named after its scenario");
                hosts.put(name, s.hosts().size());
                switches.put(name, s.topology().plan().switches());
            }
        }
        assertEquals(Map.of("bfc-fig11-clos-128", 128, "dsh-fig16-deadlock", 64, "dsh-fig17-leafspine-256", 256,
                "reverie-fig7-leafspine-256", 256, "spfc-fig17-deadlock-pod", 64, "spfc-sec7-clos-8pod", 512), hosts);
        assertEquals(Map.of("bfc-fig11-clos-128", 16, "dsh-fig16-deadlock", 6, "dsh-fig17-leafspine-256", 32,
                "reverie-fig7-leafspine-256", 20, "spfc-fig17-deadlock-pod", 6, "spfc-sec7-clos-8pod", 52), switches);
    }

    /**
     * DSH Fig. 16 on the paper's switch: seven lossless queues per port, for each of which SIH (dt)
     * sets headroom aside while DSH keeps one insurance per port, so DSH's shared pool is about twice
     * SIH's and the same fan-ins (one seed, the same flows) hold the hosts back for far less time.
     * With one lossless priority per port the two pools are equal.
     */
    @Test
    void dshFig16HoldsHostsBackLessUnderDshThanUnderSih() {
        long[] paused = pausedNanos("duration=5ms");
        assertTrue(paused[0] > 0, "the fan-ins pause the hosts under SIH");
        assertTrue(2 * paused[1] < paused[0], "DSH holds the hosts " + paused[1] + " ns against SIH's " + paused[0]);
    }

    /** Time the hosts were held back by PFC under dt (SIH) and dsh, both lossless. */
    private static long[] pausedNanos(String... overrides) {
        Scenario s = ScenarioLoader.load(PAPERS.resolve("dsh-fig16-deadlock.yaml"), List.of(overrides)).scenario();
        long[] paused = new long[2];
        String[] schemes = {"dt", "dsh"};
        for (int i = 0; i < 2; i++) {
            SchemeResult r = ScenarioRunner.run(s, schemes[i]);
            assertEquals(0, r.losslessViolations(), schemes[i] + " is lossless");
            paused[i] = LongStream.of(r.pausedNanosByPort()).sum();
        }
        return paused;
    }
}
