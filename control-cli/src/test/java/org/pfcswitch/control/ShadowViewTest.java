package org.pfcswitch.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.pfcswitch.core.CoreSnapshot;
import org.pfcswitch.testbed.Scenario;
import org.pfcswitch.testbed.ScenarioRunner;
import org.pfcswitch.testbed.Testbed;
import org.pfcswitch.testbed.config.ScenarioLoader;

/**
 * {@code show shadow} and the shadow meters of /metrics, rendered from the snapshot of a switch core
 * with shadow schemes (driven in virtual time by the testbed: no DPDK, the same core and snapshot the
 * live switch's control API reads).
 */
class ShadowViewTest {

    private static final Path DSH = Path.of("..", "testbed-configs", "scenarios", "dsh-collateral.yaml");

    private record Captured(Scenario scenario, CoreSnapshot snapshot, List<String> ports) {}

    private static Captured run(List<String> shadows) {
        Scenario s = ScenarioLoader.load(DSH, List.of("duration=500us", "measure.to=500us")).scenario();
        Testbed tb = ScenarioRunner.build(s, "dt", shadows);
        SplittableRandom seeds = new SplittableRandom(s.seed());
        for (Scenario.TrafficSpec t : s.traffic()) {
            t.create().install(tb, seeds.split());
        }
        tb.runUntil(400_000);
        CoreSnapshot snap = new CoreSnapshot(tb.core(0).ports());
        snap.capture(tb.core(0), tb.now());
        return new Captured(s, snap, ScenarioRunner.portNames(s, 0));
    }

    @Test
    void showShadowPutsTheActiveSchemeBesideItsShadows() throws Exception {
        Captured c = run(List.of("dt", "st", "dsh"));
        StatusViews views = new StatusViews(c.snapshot(), c.ports(), IdleDriver.INSTANCE, c.scenario().mmu());
        JsonNode doc = new ObjectMapper().readTree(views.json("shadow"));
        assertEquals("shadow", doc.get("view").asText());
        assertTrue(doc.get("enabled").asBoolean());
        JsonNode schemes = doc.get("schemes");
        assertEquals(4, schemes.size());
        assertEquals("active", schemes.get(0).get("role").asText());
        assertEquals("dt", schemes.get(0).get("scheme").asText());
        assertEquals(List.of("dt", "st", "dsh"), List.of(schemes.get(1).get("scheme").asText(),
                schemes.get(2).get("scheme").asText(), schemes.get(3).get("scheme").asText()));
        assertTrue(schemes.get(0).get("xoffs").asLong() > 0, "the scenario pauses under dt");
        assertEquals(schemes.get(0).get("xoffs"), schemes.get(1).get("xoffs"), "a dt shadow counts dt's XOFFs exactly");
        assertEquals(schemes.get(0).get("drops"), schemes.get(1).get("drops"));
        assertEquals(schemes.get(0).get("xoffs_by_queue"), schemes.get(1).get("xoffs_by_queue"));

        String text = views.text("shadow");
        assertTrue(text.contains("SCHEME  ROLE"), text);
        assertTrue(text.lines().anyMatch(l -> l.startsWith("dsh     shadow")), text);
        assertTrue(text.contains("XOFFS_DT(active)") && text.contains("XOFFS_DSH"), text);
    }

    @Test
    void metricsLabelEachShadowByScheme() {
        Captured c = run(List.of("dt", "dsh"));
        String scrape = new SwitchMetrics(c.snapshot(), c.ports(), IdleDriver.INSTANCE, false, List.of("dt", "dsh")).scrape();
        String host = c.ports().getFirst();
        double active = value(scrape, "pfcswitch_xoff_total\\{port=\"" + host + "\",priority=\"3\"\\}");
        double dtShadow = value(scrape, "pfcswitch_shadow_xoff_total\\{port=\"" + host + "\",priority=\"3\",scheme=\"dt\"\\}");
        assertEquals(active, dtShadow, scrape);
        value(scrape, "pfcswitch_shadow_xoff_total\\{port=\"" + host + "\",priority=\"3\",scheme=\"dsh\"\\}");
        value(scrape, "pfcswitch_shadow_drops_total\\{reason=\"lossless_violation\",scheme=\"dsh\"\\}");
        value(scrape, "pfcswitch_shadow_buffer_max_used_bytes\\{scheme=\"dsh\"\\}");
        assertTrue(value(scrape, "pfcswitch_shadow_buffer_max_used_bytes\\{scheme=\"dt\"\\}") > 0);

        String without = new SwitchMetrics(run(List.of()).snapshot(), c.ports(), IdleDriver.INSTANCE, false).scrape();
        assertTrue(!without.contains("pfcswitch_shadow_") && !without.contains("pfcswitch_xoff_total"),
                "no shadow meters without shadows");
        assertTrue(new StatusViews(run(List.of()).snapshot(), c.ports(), IdleDriver.INSTANCE, c.scenario().mmu()).text("shadow")
                .startsWith("shadow schemes: none"));
    }

    private static double value(String scrape, String series) {
        Matcher m = Pattern.compile("(?m)^" + series + " (\\S+)$").matcher(scrape);
        assertTrue(m.find(), series + " in\n" + scrape);
        return Double.parseDouble(m.group(1));
    }
}
