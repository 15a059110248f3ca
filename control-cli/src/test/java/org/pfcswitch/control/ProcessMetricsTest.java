package org.pfcswitch.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.pfcswitch.core.CoreSnapshot;

/** pfcswitch_build_info, the JVM and process meters, and PFC frames counted once per frame. */
class ProcessMetricsTest {

    @Test
    void buildInfoCarriesTheProjectVersionAndFollowsTheScheme() {
        CoreSnapshot snap = new CoreSnapshot(2);
        snap.scheme = "dt";
        SwitchMetrics metrics = new SwitchMetrics(snap, List.of("a", "b"), IdleDriver.INSTANCE);
        assertFalse(metrics.scrape().contains("pfcswitch_build_info"), "only when the control server adds it");
        metrics.addProcessMetrics();
        metrics.addProcessMetrics();                   // once: a second call binds nothing twice
        String dt = metrics.scrape();
        Matcher info = Pattern.compile("(?m)^pfcswitch_build_info\\{java=\"([^\"]+)\",scheme=\"dt\",version=\"([^\"]+)\"} 1$").matcher(dt);
        assertTrue(info.find(), dt);
        assertEquals(Runtime.version().toString(), info.group(1));
        assertTrue(info.group(2).matches("\\d+\\.\\d+\\.\\d+(-SNAPSHOT)?"), "the Maven version, filtered in: " + info.group(2));
        assertEquals(1, count(dt, "pfcswitch_build_info{"));
        assertEquals(1, count(dt, "\nprocess_uptime_seconds "), "bound once");
        for (String family : List.of("jvm_memory_used_bytes{area=\"heap\"", "jvm_threads_live_threads ", "process_cpu_usage ",
                "system_cpu_usage ", "process_files_open_files ", "process_uptime_seconds ")) {
            assertTrue(dt.contains(family), "missing " + family);
        }

        snap.scheme = "dsh";
        String dsh = metrics.scrape();
        assertTrue(dsh.contains(",scheme=\"dsh\",version="), dsh);
        assertFalse(dsh.contains("scheme=\"dt\""), "the old scheme's build_info series is gone");
        assertEquals(1, count(dsh, "pfcswitch_build_info{"));
    }

    /** Every name the binders add keeps Prometheus' rules: the real promtool finds nothing to say. */
    @Test
    void theScrapeWithProcessMetricsPassesPromtool() throws Exception {
        CoreSnapshot snap = new CoreSnapshot(2);
        snap.scheme = "dt";
        SwitchMetrics metrics = new SwitchMetrics(snap, List.of("a", "b"), IdleDriver.INSTANCE, true, List.of("dsh"));
        metrics.addProcessMetrics();
        Process promtool = new ProcessBuilder("promtool", "check", "metrics").redirectErrorStream(true).start();
        promtool.getOutputStream().write(metrics.scrape().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        promtool.getOutputStream().close();
        String out = new String(promtool.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(promtool.waitFor(30, java.util.concurrent.TimeUnit.SECONDS));
        assertEquals(0, promtool.exitValue(), "promtool check metrics:\n" + out);
    }

    /** A port-level pause (dsh's) is one frame for eight priorities: the per-port family counts it once. */
    @Test
    void aFrameThatPausesEightPrioritiesCountsOnce() {
        CoreSnapshot snap = new CoreSnapshot(2);
        snap.scheme = "dsh";
        for (int prio = 0; prio < CoreSnapshot.PRIORITIES; prio++) {
            snap.counters.pfcXoffTx[CoreSnapshot.PRIORITIES + prio] = 1;   // port b, every priority
        }
        snap.counters.pfcFramesTx[1] = 1;
        snap.counters.pfcFramesRx[0] = 3;
        String text = new SwitchMetrics(snap, List.of("a", "b"), IdleDriver.INSTANCE).scrape();
        assertTrue(text.contains("pfcswitch_pfc_frames_sent_total{port=\"b\"} 1.0\n"), text);
        assertTrue(text.contains("pfcswitch_pfc_frames_received_total{port=\"a\"} 3.0\n"), text);
        assertTrue(text.contains("pfcswitch_pfc_pause_sent_total{port=\"b\",priority=\"7\"} 1.0\n"), "and once per priority beside it");
    }

    private static int count(String text, String what) {
        int n = 0;
        for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + 1)) {
            n++;
        }
        return n;
    }
}
