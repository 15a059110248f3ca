package org.pfcswitch.perf;

import org.pfcswitch.testbed.config.ScenarioLoader;
import org.pfcswitch.testbed.Scenario;
import org.pfcswitch.testbed.ScenarioRunner;
import org.pfcswitch.testbed.SchemeResult;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Simulated packet-events per second of a scenario, run by the same {@link ScenarioRunner} as
 * {@code pfcswitch sim}, repeated in one JVM: the first repetitions include JIT warm-up (which
 * is what a single {@code sim} run mostly measures), the last ones the steady state. Prints
 * events per wall second and per thread-CPU second (less sensitive to a busy machine) and heap
 * bytes allocated per event.
 *
 * <pre>perf/run-scenario-speed.sh testbed-configs/scenarios/spfc-victim.yaml dt,spfc,dsh 5</pre>
 */
public final class ScenarioSpeed {
    private ScenarioSpeed() {}

    public static void main(String[] args) {
        if (args.length < 3) {
            System.err.println("usage: ScenarioSpeed SCENARIO.yaml SCHEME[,SCHEME...] REPETITIONS [key=value ...]");
            System.exit(2);
        }
        List<String> overrides = Arrays.asList(args).subList(3, args.length);
        Scenario scenario = ScenarioLoader.load(Path.of(args[0]), overrides).scenario();
        int repetitions = Integer.parseInt(args[2]);
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long me = Thread.currentThread().threadId();
        for (int rep = 1; rep <= repetitions; rep++) {
            for (String scheme : args[1].split(",")) {
                long alloc0 = threads.getThreadAllocatedBytes(me);
                long cpu0 = threads.getCurrentThreadCpuTime();
                long wall0 = System.nanoTime();
                SchemeResult r = ScenarioRunner.run(scenario, scheme);
                double wall = (System.nanoTime() - wall0) / 1e9;
                double cpu = (threads.getCurrentThreadCpuTime() - cpu0) / 1e9;
                long alloc = threads.getThreadAllocatedBytes(me) - alloc0;
                System.out.printf(Locale.ROOT, "%s %-7s rep %d: %,d events, %.2f s wall = %.2f M events/s "
                                + "(%.2f M per CPU second), %.1f B allocated per event%n",
                        scenario.name(), scheme, rep, r.events(), wall, r.events() / wall / 1e6,
                        r.events() / cpu / 1e6, (double) alloc / r.events());
            }
        }
    }
}
