package org.pfcswitch.perf;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import org.pfcswitch.core.CoreConfig;
import org.pfcswitch.core.record.Replay;
import org.pfcswitch.core.record.ReplayResult;
import org.pfcswitch.testbed.Scenario;
import org.pfcswitch.testbed.ScenarioRunner;
import org.pfcswitch.testbed.SchemeResult;
import org.pfcswitch.testbed.config.ScenarioLoader;

/**
 * Replay speed against the same traffic generated synthetically, in one JVM: a single-switch
 * scenario runs closed-loop under {@code scheme} (hosts, DCQCN, flows: what {@code sim} does) while
 * its switch's arrivals are recorded, then that recording runs open-loop through the same scheme
 * ({@code sim --replay}), alternately, {@code repetitions} times each. Prints events per wall
 * second of both and their ratio per repetition; the first repetitions include JIT warm-up.
 *
 * <pre>perf/replay-speed.sh testbed-configs/scenarios/spfc-victim.yaml dt 5</pre>
 */
public final class ReplaySpeed {
    private ReplaySpeed() {}

    public static void main(String[] args) throws IOException {
        if (args.length < 3) {
            System.err.println("usage: ReplaySpeed SCENARIO.yaml SCHEME REPETITIONS [key=value ...]");
            System.exit(2);
        }
        List<String> overrides = Arrays.asList(args).subList(3, args.length);
        Scenario scenario = ScenarioLoader.load(Path.of(args[0]), overrides).scenario();
        String scheme = args[1];
        int repetitions = Integer.parseInt(args[2]);
        Path rec = Files.createTempFile("replay-speed-", ".arr");
        try {
            ScenarioRunner.runRecorded(scenario, scheme, ScenarioRunner.Progress.NONE, rec);
            CoreConfig config = Replay.config(rec, scheme, scenario.mmu().totalBytes());
            System.out.printf(Locale.ROOT, "%s %s: recorded %,d bytes of arrivals%n", scenario.name(), scheme, Files.size(rec));
            for (int rep = 1; rep <= repetitions; rep++) {
                long t0 = System.nanoTime();
                SchemeResult s = ScenarioRunner.run(scenario, scheme);
                double synthetic = (System.nanoTime() - t0) / 1e9;
                t0 = System.nanoTime();
                ReplayResult r = Replay.run(rec, config, 1);
                double replay = (System.nanoTime() - t0) / 1e9;
                double sRate = s.events() / synthetic / 1e6;
                double rRate = r.events() / replay / 1e6;
                System.out.printf(Locale.ROOT, "rep %d: synthetic %,d events in %.2f s = %.2f M events/s; replay %,d events"
                        + " in %.2f s = %.2f M events/s; replay/synthetic %.2f%n", rep, s.events(), synthetic, sRate,
                        r.events(), replay, rRate, rRate / sRate);
            }
        } finally {
            Files.deleteIfExists(rec);
        }
    }
}
