package org.pfcswitch.cli.switchconfig;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.pfcswitch.config.ConfigException;
import org.pfcswitch.config.ConfigNode;
import org.pfcswitch.config.MmuConfigLoader;
import org.pfcswitch.codec.MacControl;
import org.pfcswitch.codec.MacAddress;
import org.pfcswitch.codec.PriorityClassifier;
import org.pfcswitch.dataplane.Device;
import org.pfcswitch.dataplane.DpdkSwitch;
import org.pfcswitch.dataplane.RxRing;
import org.pfcswitch.core.ClonePfc;
import org.pfcswitch.core.CoreConfig;
import org.pfcswitch.core.DeadlockConfig;
import org.pfcswitch.dataplane.EalArguments;
import org.pfcswitch.dataplane.SwitchConfig;
import org.pfcswitch.core.PortLearning;
import org.pfcswitch.dataplane.ThreadAffinity;
import org.pfcswitch.mmu.MmuConfig;

/**
 * Reads the switch part of a YAML configuration into a {@link SwitchConfig}. Every mistake is a
 * {@link ConfigException} naming the file and key; unknown keys are mistakes too.
 *
 * <pre>
 * eal:                       # optional; these are the defaults
 *   lcores: null             #   EAL --lcores; default 0@(every CPU this process may use)
 *   memoryMb: 256            #   EAL -m
 *   hugepages: auto          #   auto (use them when reserved) | on (require) | off (--no-huge)
 *   mbufs: 0                 #   packet pool size; 0 = sized from the ports
 *   logLevel: "*:warning"
 *   extraArgs: []            #   appended to the EAL command line as given
 * workers: 1                 # poll-mode threads; N deals the ports with a device out in turn. Or a list,
 *   # - {cpu: 1, ports: [h0, h2]}   one entry per worker: its CPUs and the ports it owns (each port
 *   # - {cpu: 2, ports: [h1]}       with a device in exactly one; a clone port goes with its source)
 * ports:                     # switch port i is the i-th entry
 *   - name: h0
 *     device: "net_af_packet0,iface=pfcsw-h0"   # or a PCI address 0000:3b:00.0, net_af_xdp0,iface=..., net_ring0, ...
 *     mac: 02:fc:00:00:00:01                    # optional: the port's own MAC (else the device's)
 *     speed: 10G                                # line rate the shaper holds the port to (default 10G)
 *     cableDelay: 1us                           # one-way delay to the neighbour: enters the headroom (default 0)
 *     rxDescriptors: 1024
 *     txDescriptors: 1024
 *     learning: {maxMacs: 1, moves: deny}      # port security (optional): learn at most maxMacs stations
 *                                             # here; moves: deny keeps a station learned on another port
 *                                             # there when its MAC shows up here (default: no limit, allow)
 *   - {name: c, kind: clone, of: h1, count: 5, pfc: ignore}   # clone ports c0..c4: h1's ingress copied
 *                                             # onto each (see Device.Clone); pfc: ignore | skip
 * forwarding:
 *   learning: true
 *   tableSize: 4096
 *   staticMacs: [{mac: 02:00:00:00:00:01, port: h0}]
 * classification:
 *   trust: dscp              # dscp | pcp
 *   dscpMap: "26:3"          # overrides of the class-selector map (DSCP / 8)
 *   defaultPriority: 0
 * mmu: {...}                 # the mmu: section of MmuConfigLoader (as in a scenario), without ports:
 *                            # its ports are the ports: above; absent = all defaults (16 MiB, dt, priority 3 lossless)
 * pfc: {pauseQuanta: 65535}  # quanta of each XOFF the switch sends
 *   # hardwareBackstop: {highWater: 96KiB, lowWater: 64KiB}   # each NIC also sends PFC for the lossless
 *   #   priorities from its own rx buffer (ixgbe; refused at start by a NIC that cannot)
 * pfcwd: {detection: 200ms, restoration: 400ms, action: drop}   # PFC watchdog; off when absent
 * deadlock: {check: 10ms, persist: 100ms, grace: 50ms}   # PFC deadlock detection (these defaults
 *                                           # when absent); enabled: false turns it off
 * poll: {idleSleep: 0}       # 0: the worker polls without pause; 20us: sleeps up to 20 us after an idle pass
 *                            # rxStall: 20ms grows each port's rx ring (af_packet framecnt, else rxDescriptors)
 *                            # to hold that long a worker stall at the port's speed
 * testbed: ...               # read by TestbedConfigReader; ignored here
 * </pre>
 */
public final class SwitchConfigReader {

    private SwitchConfigReader() {}

    /** A port's line rate when the file gives none: what the shaper holds it to and what PFC times are counted in. */
    public static final long DEFAULT_SPEED_BPS = 10_000_000_000L;

    public static SwitchConfig read(ConfigNode root) {
        return read(root, null);
    }

    /** As {@link #read(ConfigNode)}, with the MMU's scheme replaced by {@code schemeOverride} when not null. */
    public static SwitchConfig read(ConfigNode root, String schemeOverride) {
        root.allowOnly("eal", "workers", "ports", "forwarding", "classification", "mmu", "pfc", "pfcwd", "deadlock", "poll", "testbed");
        SwitchConfig.Eal eal = eal(root);
        List<SwitchConfig.Port> ports = ports(root);
        List<SwitchConfig.Worker> workers = workers(root, ports);
        List<MmuConfigLoader.PortLink> links = new ArrayList<>();
        for (SwitchConfig.Port p : ports) {
            links.add(new MmuConfigLoader.PortLink(p.speedBps(), p.cableDelayNanos()));
        }
        MmuConfig mmu = MmuConfigLoader.load(root, schemeOverride, links, "ports: entries");
        CoreConfig.Builder core = CoreConfig.builder(mmu).classifier(classifier(root));
        ConfigNode fwd = root.optionalChild("forwarding").orElse(ConfigNode.parse(root.file(), "{}"));
        fwd.allowOnly("learning", "tableSize", "staticMacs");
        core.learning(fwd.bool("learning", true)).tableCapacity(fwd.integer("tableSize", 4096, 16, 1 << 24));
        for (ConfigNode s : fwd.children("staticMacs")) {
            s.allowOnly("mac", "port");
            String port = s.string("port");
            int index = indexOf(ports, port);
            if (index < 0) {
                throw s.error("port", "no port is called '" + port + "' (ports: " + names(ports) + ")");
            }
            core.staticMac(mac(s, "mac"), index);
        }
        portLearning(root, ports, core);
        for (int i = 0; i < ports.size(); i++) {
            // a clone with pfc: ignore has no sender a PAUSE could stop; a device port's neighbour is assumed to obey
            core.senderIgnoresPfc(i, ports.get(i).device() instanceof Device.Clone c && c.pfc() == ClonePfc.IGNORE);
            if (ports.get(i).mac() != -1) {
                core.portMac(i, ports.get(i).mac());     // device ports without one get the device's at start
            }
        }
        int pauseQuanta = root.optionalChild("pfc").map(pfc -> pfc.allowOnly("pauseQuanta", "hardwareBackstop")
                .integer("pauseQuanta", MacControl.MAX_QUANTA, 1, MacControl.MAX_QUANTA)).orElse(MacControl.MAX_QUANTA);
        core.pauseQuanta(pauseQuanta);
        core.pfcwd(org.pfcswitch.config.PfcWatchdogLoader.read(root));
        core.deadlock(deadlock(root));
        long idleSleep = root.optionalChild("poll").map(poll -> poll.allowOnly("idleSleep", "rxStall").nanos("idleSleep", 0)).orElse(0L);
        if (idleSleep < 0 || idleSleep > 10_000_000) {
            throw root.child("poll").error("idleSleep", "must be between 0 (poll without pause) and 10ms, got " + idleSleep + " ns");
        }
        SwitchConfig config = new SwitchConfig(eal, ringsForStall(root, eal, ports), workers, core.build(), idleSleep,
                hardwarePfc(root, mmu, pauseQuanta));
        checkMbufs(root, config);
        return config;
    }

    /**
     * {@code pfc.hardwareBackstop: {highWater: 96KiB, lowWater: 64KiB}}: each NIC also sends PFC for
     * the lossless priorities from its own receive buffer (null when absent).
     */
    private static SwitchConfig.HardwarePfc hardwarePfc(ConfigNode root, MmuConfig mmu, int pauseQuanta) {
        if (!root.has("pfc") || !root.child("pfc").has("hardwareBackstop")) {
            return null;
        }
        ConfigNode b = root.child("pfc").child("hardwareBackstop").allowOnly("highWater", "lowWater");
        long high = b.bytes("highWater");
        long low = b.bytes("lowWater");
        if (high < 1024 || high > (1L << 30)) {
            throw b.error("highWater", "must be from 1KiB to 1GiB of the NIC's receive buffer, got " + high + " B");
        }
        if (low < 0 || low >= high) {
            throw b.error("lowWater", "must be below highWater (" + high + " B), got " + low + " B");
        }
        int priorities = 0;
        for (int p = 0; p < MmuConfig.PRIORITIES; p++) {
            priorities |= mmu.isLossless(p) ? 1 << p : 0;
        }
        return new SwitchConfig.HardwarePfc(priorities, (int) (high / 1024), (int) (low / 1024), pauseQuanta);
    }

    /**
     * {@code poll.rxStall}: the worker stall every port's rx ring must ride out at its speed
     * ({@link RxRing#sizedFor}); the rings it grows must fit a packet pool that {@code eal.mbufs} fixes.
     */
    private static List<SwitchConfig.Port> ringsForStall(ConfigNode root, SwitchConfig.Eal eal, List<SwitchConfig.Port> ports) {
        if (!root.has("poll") || !root.child("poll").has("rxStall")) {
            return ports;
        }
        ConfigNode poll = root.child("poll");
        long stall = poll.nanos("rxStall");
        if (stall <= 0 || stall > 1_000_000_000L) {
            throw poll.error("rxStall", "must be more than 0 and at most 1s, got " + stall + " ns");
        }
        List<SwitchConfig.Port> sized;
        try {
            sized = RxRing.sizedFor(ports, stall);
        } catch (IllegalArgumentException e) {
            throw poll.error("rxStall", e.getMessage());
        }
        long descriptors = 0;
        for (SwitchConfig.Port p : sized) {
            descriptors += p.isClone() ? 0 : p.rxDescriptors() + p.txDescriptors();
        }
        if (eal.mbufs() > 0 && descriptors >= eal.mbufs()) {
            throw poll.error("rxStall", "the rings it sizes hold " + descriptors + " mbufs, as many as eal.mbufs ("
                    + eal.mbufs() + ") or more: raise eal.mbufs or drop it (the pool is then sized from the rings)");
        }
        return sized;
    }

    /** An explicit {@code eal.mbufs} must at least fill the rings it feeds, or the switch would start and receive nothing. */
    private static void checkMbufs(ConfigNode root, SwitchConfig config) {
        int need = DpdkSwitch.mbufsForRings(config);
        if (config.eal().mbufs() > 0 && config.eal().mbufs() < need) {
            throw root.child("eal").error("mbufs", config.eal().mbufs() + " mbufs cannot fill the ports' rx and tx rings"
                    + " (rxDescriptors + txDescriptors of every port, two bursts each, the pool caches): give at least "
                    + need + ", or 0 to size the pool from the ports and the buffer");
        }
    }

    /**
     * Fails when a worker's {@code cpu} or {@code eal.lcores} names a CPU this machine does not have
     * online, naming the key: checked before EAL starts, not by the file's reader, since a lab's file is
     * rightly checked ({@code run --check}) on a machine with fewer CPUs than the lab server.
     */
    public static void requireOnlineCpus(ConfigNode root, SwitchConfig config) {
        String online = onlineCpuList();
        if (online == null) {
            return;
        }
        BitSet have = ThreadAffinity.parseCpuList(online);
        if (config.eal().lcores() != null) {
            BitSet missing = EalArguments.lcoreCpus(config.eal().lcores());
            missing.andNot(have);
            if (!missing.isEmpty()) {
                throw root.child("eal").error("lcores", "CPU " + missing.stream().mapToObj(Integer::toString)
                        .collect(java.util.stream.Collectors.joining(", ")) + " is not online on this machine (online: "
                        + online + ")");
            }
        }
        for (int i = 0; i < config.workers().size(); i++) {
            String cpus = config.workers().get(i).cpus();
            if (cpus == null) {
                continue;
            }
            BitSet missing = ThreadAffinity.parseCpuList(cpus);
            missing.andNot(have);
            if (!missing.isEmpty()) {
                throw root.error("workers[" + i + "].cpu", "CPU " + missing.stream().mapToObj(Integer::toString)
                        .collect(java.util.stream.Collectors.joining(", ")) + " is not online on this machine (online: "
                        + online + ")");
            }
        }
    }

    /** {@code /sys/devices/system/cpu/online} (e.g. {@code 0-7}), or null when it cannot be read. */
    private static String onlineCpuList() {
        try {
            String list = Files.readString(ONLINE_CPUS).strip();
            ThreadAffinity.parseCpuList(list);
            return list;
        } catch (IOException | IllegalArgumentException e) {
            return null;
        }
    }

    private static final Path ONLINE_CPUS = Path.of("/sys/devices/system/cpu/online");

    /**
     * The {@code deadlock:} section: on with {@link DeadlockConfig#DEFAULTS} when absent, off with
     * {@code enabled: false}. {@code grace}: how long checks may miss a cycle that then comes back and
     * still count it as the same deadlock (a worker stall lets a frozen loop move for a moment). A check more often than every 100 us would cost the worker more than it
     * tells (a deadlock lasts); one rarer than 10 s, or a persist over an hour, reports too late to help.
     */
    private static DeadlockConfig deadlock(ConfigNode root) {
        if (!root.has("deadlock")) {
            return DeadlockConfig.DEFAULTS;
        }
        ConfigNode d = root.child("deadlock").allowOnly("enabled", "check", "persist", "grace");
        if (!d.bool("enabled", true)) {
            return null;
        }
        long check = d.nanos("check", DeadlockConfig.DEFAULTS.checkNanos());
        if (check < 100_000 || check > 10_000_000_000L) {
            throw d.error("check", "must be between 100us and 10s, got " + check + " ns");
        }
        long persist = d.nanos("persist", DeadlockConfig.DEFAULTS.persistNanos());
        if (persist < 0 || persist > 3_600_000_000_000L) {
            throw d.error("persist", "must be between 0 and 3600s, got " + persist + " ns");
        }
        long grace = d.nanos("grace", DeadlockConfig.DEFAULTS.graceNanos());
        if (grace < 0 || grace > 10_000_000_000L) {
            throw d.error("grace", "must be between 0 and 10s, got " + grace + " ns");
        }
        return new DeadlockConfig(check, persist, grace);
    }

    private static SwitchConfig.Eal eal(ConfigNode root) {
        SwitchConfig.Eal d = SwitchConfig.Eal.defaults();
        var node = root.optionalChild("eal");
        if (node.isEmpty()) {
            return d;
        }
        ConfigNode e = node.get();
        e.allowOnly("lcores", "memoryMb", "hugepages", "mbufs", "logLevel", "extraArgs");
        String mode = e.string("hugepages", "auto").toLowerCase(Locale.ROOT);
        SwitchConfig.Hugepages hugepages = switch (mode) {
            case "auto" -> SwitchConfig.Hugepages.AUTO;
            case "on", "true", "yes" -> SwitchConfig.Hugepages.ON;
            case "off", "false", "no" -> SwitchConfig.Hugepages.OFF;
            default -> throw e.error("hugepages", "expected auto, on or off, got '" + mode + "'");
        };
        String lcores = e.has("lcores") ? e.string("lcores") : null;
        if (lcores != null) {
            try {
                EalArguments.lcoreCpus(lcores);
            } catch (IllegalArgumentException bad) {
                throw e.error("lcores", bad.getMessage());
            }
        }
        return new SwitchConfig.Eal(lcores, e.integer("memoryMb", d.memoryMb(), 64, 1 << 20), hugepages,
                e.integer("mbufs", 0, 0, 1 << 22), e.string("logLevel", d.logLevel()), e.strings("extraArgs"));
    }

    private static List<SwitchConfig.Port> ports(ConfigNode root) {
        List<ConfigNode> nodes = root.children("ports");
        if (nodes.isEmpty()) {
            throw root.error("ports", "missing: a switch needs at least one port");
        }
        List<SwitchConfig.Port> ports = new ArrayList<>();
        Map<String, String> byName = new HashMap<>();
        Map<String, String> byDevice = new HashMap<>();
        Map<String, String> byIface = new HashMap<>();
        for (ConfigNode p : nodes) {
            if (p.has("kind")) {
                String kind = p.string("kind");
                if (!kind.equals("clone")) {
                    throw p.error("kind", "expected clone (or no kind: a port with a device), got '" + kind + "'");
                }
                for (SwitchConfig.Port clone : clonePorts(p, ports)) {
                    String previous = byName.putIfAbsent(clone.name(), p.path());
                    if (previous != null) {
                        throw p.error("name", "duplicate port '" + clone.name() + "' (also " + previous + ")");
                    }
                    ports.add(clone);
                }
                continue;
            }
            p.allowOnly("name", "device", "mac", "speed", "cableDelay", "rxDescriptors", "txDescriptors", "learning");
            String name = portName(p);
            String previous = byName.putIfAbsent(name, p.path());
            if (previous != null) {
                throw p.error("name", "duplicate port '" + name + "' (also " + previous + ")");
            }
            Device device;
            try {
                device = Device.parse(p.string("device"));
            } catch (IllegalArgumentException e) {
                throw p.error("device", e.getMessage());
            }
            previous = byDevice.putIfAbsent(device.ethdevName(), name);
            if (previous != null) {
                throw p.error("device", "duplicate device " + device.ethdevName() + " (also port " + previous + ")");
            }
            if (device instanceof Device.Vdev v && v.option("iface") != null) {
                previous = byIface.putIfAbsent(v.option("iface"), name);
                if (previous != null) {
                    throw p.error("device", "interface " + v.option("iface") + " is already port " + previous + "'s");
                }
            }
            long mac = p.has("mac") ? mac(p, "mac") : -1;
            ports.add(new SwitchConfig.Port(name, device, mac, p.lineRate("speed", DEFAULT_SPEED_BPS),
                    p.nanos("cableDelay", 0), p.integer("rxDescriptors", 1024, 32, 16384),
                    p.integer("txDescriptors", 1024, 32, 16384)));
        }
        return ports;
    }

    /** Each device port's {@code learning: {maxMacs, moves}} (port security); a port without it learns freely. */
    private static void portLearning(ConfigNode root, List<SwitchConfig.Port> ports, CoreConfig.Builder core) {
        for (ConfigNode p : root.children("ports")) {
            if (!p.has("learning")) {
                continue;
            }
            ConfigNode l = p.child("learning").allowOnly("maxMacs", "moves");
            int maxMacs = l.has("maxMacs") ? l.integer("maxMacs", PortLearning.UNLIMITED, 1, 1 << 24) : PortLearning.UNLIMITED;
            String moves = l.string("moves", "allow");
            if (!moves.equals("allow") && !moves.equals("deny")) {
                throw l.error("moves", "expected allow (a station seen here moves here) or deny (it stays on the port it"
                        + " was learned on), got '" + moves + "'");
            }
            core.portLearning(indexOf(ports, p.string("name")), new PortLearning(maxMacs,
                    moves.equals("deny") ? PortLearning.Moves.DENY : PortLearning.Moves.ALLOW));
        }
    }

    private static String portName(ConfigNode p) {
        String name = p.string("name");
        if (!name.matches("[A-Za-z0-9_.-]{1,32}")) {
            throw p.error("name", "use 1-32 letters, digits, '_', '.' or '-', got '" + name + "'");
        }
        return name;
    }

    /**
     * {@code {name: c, kind: clone, of: h1, count: 5, pfc: ignore, mac: 02:c1:00:00:00:00}}: clone
     * ports c0..c4 (just c without count) of the real port h1, defined above them, with its speed
     * and cable delay. The i-th clone's station MAC (the source MAC of its copies and of the PFC
     * frames it gets) is {@code mac + i}, by default 02:c1:00:00:pp:ii (pp = the source's index).
     */
    private static List<SwitchConfig.Port> clonePorts(ConfigNode p, List<SwitchConfig.Port> defined) {
        p.allowOnly("name", "kind", "of", "count", "pfc", "mac");
        String name = portName(p);
        String of = p.string("of");
        SwitchConfig.Port source = defined.stream().filter(d -> d.name().equals(of)).findFirst().orElseThrow(
                () -> p.error("of", "no port called '" + of + "' is defined above this one (ports so far: " + names(defined) + ")"));
        if (source.device() instanceof Device.Clone) {
            throw p.error("of", "'" + of + "' is itself a clone port; a clone copies a port with a device");
        }
        ClonePfc pfc = switch (p.string("pfc", "ignore").toLowerCase(Locale.ROOT)) {
            case "ignore" -> ClonePfc.IGNORE;
            case "skip" -> ClonePfc.SKIP;
            default -> throw p.error("pfc", "expected ignore or skip, got '" + p.string("pfc") + "'");
        };
        int count = p.has("count") ? p.integer("count", 1, 1, 64) : 0;
        long base = p.has("mac") ? mac(p, "mac") : 0x02_C1_00_00_00_00L | (long) defined.indexOf(source) << 8;
        List<SwitchConfig.Port> clones = new ArrayList<>();
        for (int i = 0; i < Math.max(1, count); i++) {
            clones.add(new SwitchConfig.Port(count == 0 ? name : name + i, new Device.Clone(of, pfc), base + i,
                    source.speedBps(), source.cableDelayNanos(), 0, 0));
        }
        return clones;
    }

    /**
     * {@code workers: N} (N threads, not pinned, the ports with a device dealt out in turn: the
     * first to worker 0, the second to worker 1, ...) or a list, one entry per worker:
     * {@code [{cpu: 2, ports: [h0, h2]}, {cpu: 3, ports: [h1]}]}, where each port with a device is
     * named by exactly one worker ({@code ports} may be left out with one worker: it owns them all).
     * Clone ports follow their source port's worker.
     */
    private static List<SwitchConfig.Worker> workers(ConfigNode root, List<SwitchConfig.Port> ports) {
        List<Integer> devices = new ArrayList<>();
        for (int p = 0; p < ports.size(); p++) {
            if (!ports.get(p).isClone()) {
                devices.add(p);
            }
        }
        if (!root.has("workers")) {
            return SwitchConfig.oneWorker(ports);
        }
        List<ConfigNode> list;
        try {
            int n = root.integer("workers", 1, 1, Math.max(1, devices.size()));
            List<SwitchConfig.Worker> workers = new ArrayList<>();
            for (int w = 0; w < n; w++) {
                List<Integer> owned = new ArrayList<>();
                for (int i = w; i < devices.size(); i += n) {
                    owned.add(devices.get(i));
                }
                workers.add(new SwitchConfig.Worker(null, owned));
            }
            return workers;
        } catch (ConfigException notACount) {
            try {
                list = root.children("workers");
            } catch (ConfigException notAList) {
                throw root.error("workers", "give a count from 1 to " + devices.size() + " (the ports with a device)"
                        + " or one entry per worker like [{cpu: 2, ports: [" + names(devicePorts(ports)) + "]}]");
            }
        }
        if (list.isEmpty() || list.size() > devices.size()) {
            throw root.error("workers", "give 1 to " + devices.size() + " workers (each owns at least one port with a"
                    + " device), not " + list.size());
        }
        List<SwitchConfig.Worker> workers = new ArrayList<>();
        List<String> taken = new ArrayList<>();
        for (ConfigNode w : list) {
            w.allowOnly("cpu", "ports");
            String cpus = w.has("cpu") ? w.string("cpu") : null;
            if (cpus != null) {
                try {
                    ThreadAffinity.parseCpuList(cpus);
                } catch (IllegalArgumentException e) {
                    throw w.error("cpu", e.getMessage());
                }
            }
            if (!w.has("ports")) {
                if (list.size() > 1) {
                    throw w.error("ports", "with several workers each names the ports it owns");
                }
                workers.add(new SwitchConfig.Worker(cpus, devices));
                continue;
            }
            List<Integer> owned = new ArrayList<>();
            for (String name : w.strings("ports")) {
                int index = indexOf(ports, name);
                if (index < 0 || ports.get(index).isClone()) {
                    throw w.error("ports", "no port with a device is called '" + name + "' (ports: "
                            + names(devicePorts(ports)) + "; a clone port goes with its source)");
                }
                if (taken.contains(name)) {
                    throw w.error("ports", "port " + name + " is owned by another worker already");
                }
                taken.add(name);
                owned.add(index);
            }
            if (owned.isEmpty()) {
                throw w.error("ports", "a worker owns at least one port");
            }
            workers.add(new SwitchConfig.Worker(cpus, owned));
        }
        for (int p : devices) {
            if (!taken.contains(ports.get(p).name()) && list.size() > 1) {
                throw root.error("workers", "port " + ports.get(p).name() + " is owned by no worker");
            }
        }
        return workers;
    }

    private static List<SwitchConfig.Port> devicePorts(List<SwitchConfig.Port> ports) {
        return ports.stream().filter(p -> !p.isClone()).toList();
    }

    private static int indexOf(List<SwitchConfig.Port> ports, String name) {
        for (int i = 0; i < ports.size(); i++) {
            if (ports.get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    private static PriorityClassifier classifier(ConfigNode root) {
        var node = root.optionalChild("classification");
        if (node.isEmpty()) {
            return PriorityClassifier.trustDscp(0);
        }
        ConfigNode c = node.get();
        c.allowOnly("trust", "dscpMap", "defaultPriority");
        int defaultPriority = c.integer("defaultPriority", 0, 0, 7);
        String trust = c.string("trust", "dscp").toLowerCase(Locale.ROOT);
        try {
            return switch (trust) {
                case "dscp" -> PriorityClassifier.trustDscp(PriorityClassifier.dscpMap(c.string("dscpMap", "")), defaultPriority);
                case "pcp" -> {
                    if (c.has("dscpMap")) {
                        throw c.error("dscpMap", "only used with trust: dscp");
                    }
                    yield PriorityClassifier.trustPcp(defaultPriority);
                }
                default -> throw c.error("trust", "expected dscp or pcp, got '" + trust + "'");
            };
        } catch (IllegalArgumentException e) {
            throw c.error("dscpMap", e.getMessage());
        }
    }

    static long mac(ConfigNode node, String key) {
        try {
            return MacAddress.parse(node.string(key));
        } catch (IllegalArgumentException e) {
            throw node.error(key, e.getMessage());
        }
    }

    private static String names(List<SwitchConfig.Port> ports) {
        return String.join(", ", ports.stream().map(SwitchConfig.Port::name).toList());
    }
}
