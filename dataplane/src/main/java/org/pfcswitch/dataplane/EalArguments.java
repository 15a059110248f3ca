package org.pfcswitch.dataplane;

import java.util.ArrayList;
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
}
