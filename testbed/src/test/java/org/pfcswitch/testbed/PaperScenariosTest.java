package org.pfcswitch.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.pfcswitch.testbed.config.ScenarioLoader;

/** Every scenario of {@code testbed-configs/scenarios/papers/} loads, at its paper's size. */
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
}
