package org.pfcswitch.dataplane;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

import org.pfcswitch.dpdk.Eal;

/**
 * The EAL command line for a switch configuration.
 *
 * <ul>
 *   <li>{@code --lcores=0@(<all CPUs this process may use>)} unless configured: EAL then pins no
 *       thread, so the JVM's threads are not narrowed by accident (workers pin themselves).</li>
 *   <li>Hugepages when they are reserved ({@code auto}) or required ({@code on}):
 *       {@code --in-memory -m N}; otherwise {@code --no-huge -m N --no-shconf}. Never both.</li>
 *   <li>PCI ports go on the allow list ({@code -a}); without any, {@code --no-pci}. Virtual
 *       devices are not on the line: {@link DpdkPorts} hot-plugs them, so an error names its port.</li>
 * </ul>
 *
 * @param args      the arguments for {@link Eal#init}
 * @param hugepages whether they use hugepages
 */
public record EalArguments(List<String> args, boolean hugepages) {

    /**
     * @throws IllegalArgumentException when hugepages are required ({@code on}) but too few are free
     */
    public static EalArguments of(SwitchConfig.Eal eal, List<Device.Pci> pciDevices, long freeHugepageMb) {
        boolean huge = switch (eal.hugepages()) {
            case OFF -> false;
            case AUTO -> freeHugepageMb >= eal.memoryMb();
            case ON -> {
                if (freeHugepageMb < eal.memoryMb()) {
                    long pages = (eal.memoryMb() * 1024L + Hugepages.pageKb() - 1) / Hugepages.pageKb();
                    throw new IllegalArgumentException("eal.hugepages is on but only " + freeHugepageMb + " MiB of hugepages are free and "
                            + eal.memoryMb() + " MiB are needed; reserve them (as root): echo " + pages
                            + " > /proc/sys/vm/nr_hugepages, or set eal.hugepages: auto");
                }
                yield true;
            }
        };
        List<String> args = new ArrayList<>();
        args.add(eal.lcores() == null ? Eal.lcoresOnAllowedCpus() : "--lcores=" + eal.lcores());
        if (huge) {
            args.addAll(List.of("--in-memory", "-m", Integer.toString(eal.memoryMb())));
        } else {
            args.addAll(List.of("--no-huge", "-m", Integer.toString(eal.memoryMb()), "--no-shconf"));
        }
        if (pciDevices.isEmpty()) {
            args.add("--no-pci");
        } else {
            for (Device.Pci pci : pciDevices) {
                args.add("-a");
                args.add(pci.ealAllow());
            }
        }
        args.add("--no-telemetry");
        args.add("--log-level=" + eal.logLevel());
        args.addAll(eal.extraArgs());
        return new EalArguments(List.copyOf(args), huge);
    }

    /**
     * The CPUs an EAL {@code --lcores} value names: a comma list of {@code LCORES[@CPUS]}, each side a
     * number, a range {@code a-b} or a group {@code (a,b-c)}; without {@code @CPUS} an lcore runs on
     * the CPU of its own number (DPDK's EAL parameters).
     *
     * @throws IllegalArgumentException one line naming what is wrong, with an example of the form
     */
    public static BitSet lcoreCpus(String lcores) {
        BitSet cpus = new BitSet();
        int i = 0;
        String v = lcores.strip();
        if (v.isEmpty()) {
            throw lcoresError(lcores, "it is empty");
        }
        while (i < v.length()) {
            int[] end = new int[1];
            BitSet lcoreSet = lcoreSet(lcores, v, i, end);
            i = end[0];
            if (i < v.length() && v.charAt(i) == '@') {
                cpus.or(lcoreSet(lcores, v, i + 1, end));
                i = end[0];
            } else {
                cpus.or(lcoreSet);
            }
            if (i < v.length()) {
                if (v.charAt(i) != ',' || i == v.length() - 1) {
                    throw lcoresError(lcores, "unexpected '" + v.charAt(i) + "' at character " + (i + 1));
                }
                i++;
            }
        }
        return cpus;
    }

    /** One set from {@code from}: a number, a range or a parenthesized CPU list; its end goes into {@code end[0]}. */
    private static BitSet lcoreSet(String lcores, String v, int from, int[] end) {
        if (from < v.length() && v.charAt(from) == '(') {
            int close = v.indexOf(')', from);
            if (close < 0) {
                throw lcoresError(lcores, "a '(' without its ')'");
            }
            end[0] = close + 1;
            try {
                return ThreadAffinity.parseCpuList(v.substring(from + 1, close));
            } catch (IllegalArgumentException e) {
                throw lcoresError(lcores, "'" + v.substring(from, close + 1) + "' is not a list of CPUs");
            }
        }
        int stop = from;
        while (stop < v.length() && (Character.isDigit(v.charAt(stop)) || v.charAt(stop) == '-')) {
            stop++;
        }
        if (stop == from) {
            throw lcoresError(lcores, "expected a number, a range or a (group) at character " + (from + 1));
        }
        end[0] = stop;
        try {
            return ThreadAffinity.parseCpuList(v.substring(from, stop));
        } catch (IllegalArgumentException e) {
            throw lcoresError(lcores, "'" + v.substring(from, stop) + "' is not a number or a range");
        }
    }

    private static IllegalArgumentException lcoresError(String lcores, String what) {
        return new IllegalArgumentException("'" + lcores + "' is not an EAL lcore map (" + what
                + "); the form is LCORES[@CPUS],... e.g. 0@(0-3) or 0-1,2@5 or (0,1)@(2-3)");
    }
}
