package org.pfcswitch.dataplane;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;

/**
 * Whether the CPUs a worker is pinned to are kept free of other work, as the kernel reports it in
 * sysfs: {@code isolated} (the {@code isolcpus=} boot option: the scheduler puts no other thread
 * there) and {@code nohz_full} (no scheduler tick while one thread runs). A poll-mode worker on a
 * CPU that is neither shares it with whatever the OS schedules, and every time it is preempted its
 * ports go unpolled: frames wait in the rx rings and PFC refreshes go out late ({@code run} counts
 * those stalls). {@code run} and {@code run --check} print one line per worker from this.
 */
public final class CpuIsolation {

    private final BitSet isolated;
    private final BitSet nohzFull;

    private CpuIsolation(BitSet isolated, BitSet nohzFull) {
        this.isolated = isolated;
        this.nohzFull = nohzFull;
    }

    /** This machine's, from /sys/devices/system/cpu. */
    public static CpuIsolation ofThisMachine() {
        return of(Path.of("/sys/devices/system/cpu"));
    }

    /** Read from a sysfs cpu directory (its {@code isolated} and {@code nohz_full} files; missing = none). */
    static CpuIsolation of(Path cpuDir) {
        return new CpuIsolation(cpuList(cpuDir.resolve("isolated")), cpuList(cpuDir.resolve("nohz_full")));
    }

    private static BitSet cpuList(Path file) {
        try {
            String s = Files.readString(file).strip();
            return s.isEmpty() || s.equals("(null)") ? new BitSet() : ThreadAffinity.parseCpuList(s);
        } catch (IOException | IllegalArgumentException e) {
            return new BitSet();
        }
    }

    /**
     * What a worker pinned to {@code cpus} (null: not pinned) can expect of its CPUs, in one phrase
     * for the log: isolated and tickless, or what is missing and the boot options that would fix it.
     */
    public String describe(String cpus) {
        if (cpus == null) {
            return "not pinned: the OS moves it among CPUs and runs other threads beside it (pin it with"
                    + " workers: [{cpu: N, ports: [...]}] on a CPU booted with isolcpus=N nohz_full=N rcu_nocbs=N)";
        }
        BitSet want = ThreadAffinity.parseCpuList(cpus);
        BitSet notIsolated = (BitSet) want.clone();
        notIsolated.andNot(isolated);
        BitSet ticking = (BitSet) want.clone();
        ticking.andNot(nohzFull);
        if (notIsolated.isEmpty() && ticking.isEmpty()) {
            return "CPUs " + cpus + " isolated (isolcpus) and tickless (nohz_full)";
        }
        StringBuilder s = new StringBuilder("CPUs " + cpus + ":");
        if (!notIsolated.isEmpty()) {
            s.append(" not isolated (").append(list(notIsolated)).append(": the scheduler may run other threads there)");
        }
        if (!ticking.isEmpty()) {
            s.append(notIsolated.isEmpty() ? "" : ",").append(" scheduler tick on (").append(list(ticking)).append(")");
        }
        return s.append("; boot with isolcpus=").append(cpus).append(" nohz_full=").append(cpus).append(" rcu_nocbs=")
                .append(cpus).append(" to give the worker its CPUs alone").toString();
    }

    private static String list(BitSet cpus) {
        return cpus.stream().mapToObj(Integer::toString).reduce((a, b) -> a + "," + b).orElse("");
    }
}
