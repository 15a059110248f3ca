package org.pfcswitch.core;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.pfcswitch.codec.MacAddress;
import org.pfcswitch.codec.MacControl;
import org.pfcswitch.codec.PriorityClassifier;
import org.pfcswitch.mmu.MmuConfig;
import org.pfcswitch.mmu.Schemes;

/**
 * Everything a {@link SwitchCore} needs besides its driver. The MMU configuration also defines
 * the ports: their number, their line rates (the shaper and the pause timers run at them) and
 * their cable delays (headroom). Built with {@link #builder(MmuConfig)}; defaults: trust DSCP
 * with the class-selector map (26 → 3), pause quanta 65535, strict priority on every port,
 * learning on, port MACs 02:00:01:00:pp:pp (pp = port number).
 *
 * @param mmu          buffer, ports and scheme
 * @param classifier   PCP or DSCP trust
 * @param pauseQuanta  quanta each PFC XOFF carries (1..65535); refreshed at half its duration
 * @param portMacs     source MAC of the PFC frames each port sends
 * @param schedulers   one policy per port
 * @param staticMacs   forwarding entries from the configuration
 * @param ecmpGroups   ECMP routes: a frame to the group's MAC leaves through one of its ports, chosen
 *                     by flow hash mod group size (see {@link EcmpRoutes}); they take precedence over
 *                     the forwarding table, and a MAC may not have both a static entry and a group
 * @param learning     learn source MACs
 * @param tableCapacity stations the forwarding table holds
 * @param bfcBitmapPeriodNanos under the bfc scheme: how often a port that pauses some upstream queue
 *                     repeats the whole pause state in a BITMAP frame (0 = never); default 10 us
 * @param shaped       true (the default): each port's shaper paces frames at the port's speed, so a
 *                     port sends one frame per frame time and queues build when it is overloaded.
 *                     false: the shaper is off, a port's line is always free, and a port sends
 *                     every frame its scheduler may send as soon as it can (for ports whose own
 *                     hardware sets the pace, and for measuring the pipeline's own speed). Either
 *                     way the speed still sets the PFC pause time (quanta x 512 bit times), the
 *                     XOFF refresh period and the MMU's headroom.
 * @param senderIgnoresPfc by port: true when what sends into the port does not obey the PFC frames
 *                     the switch sends it (a clone port with {@code pfc: ignore}, a host configured
 *                     to ignore PFC); false (the default) for a neighbour assumed to obey. Only
 *                     counting depends on it: a lossless frame dropped from such a port is a
 *                     violation no scheme can prevent ({@link SwitchCore#losslessViolations(boolean)})
 * @param pfcwd        the PFC watchdog, or null (off, the default)
 * @param deadlock     the switch's own PFC deadlock detection, or null (off, the default here; the
 *                     live switch config turns it on with its defaults)
 * @param shadows      shadow schemes ({@link ShadowMmus}): each keeps its own ledger beside the real
 *                     buffer and counts the XOFFs and drops it would have caused; empty (the default) = off
 * @param portLearning by port: port security ({@link PortLearning}); null = {@link PortLearning#OPEN} everywhere
 */
public record CoreConfig(MmuConfig mmu, PriorityClassifier classifier, int pauseQuanta, long[] portMacs,
                         List<SchedulerPolicy> schedulers, List<StaticMac> staticMacs, List<EcmpGroup> ecmpGroups,
                         boolean learning, int tableCapacity, long bfcBitmapPeriodNanos, boolean shaped,
                         boolean[] senderIgnoresPfc, PfcWatchdogConfig pfcwd,
                         DeadlockConfig deadlock, List<String> shadows, List<PortLearning> portLearning) {

    /** BFC's periodic pause-state refresh (spec IV.2: recovery from a lost PAUSE/RESUME within 10 us + HRTT). */
    public static final long DEFAULT_BFC_BITMAP_PERIOD_NANOS = 10_000;

    /** A static forwarding entry: frames to {@code mac} leave through {@code port}. */
    public record StaticMac(long mac, int port) {}

    /**
     * An ECMP route: frames to {@code mac} leave through one of {@code ports}, the same one for
     * every frame of a flow ({@code ports[flowHash mod ports.length]}).
     */
    public record EcmpGroup(long mac, int[] ports) {
        public EcmpGroup {
            ports = ports.clone();
        }

        @Override
        public int[] ports() {
            return ports.clone();
        }
    }

    public CoreConfig {
        int ports = mmu.portCount();
        portMacs = portMacs.clone();
        senderIgnoresPfc = senderIgnoresPfc == null ? new boolean[ports] : senderIgnoresPfc.clone();
        if (senderIgnoresPfc.length != ports) {
            throw new IllegalArgumentException("core config has " + senderIgnoresPfc.length + " PFC-obedience flags for "
                    + ports + " MMU ports");
        }
        schedulers = List.copyOf(schedulers);
        staticMacs = List.copyOf(staticMacs);
        ecmpGroups = List.copyOf(ecmpGroups);
        shadows = shadows == null ? List.of() : List.copyOf(shadows);
        portLearning = portLearning == null ? java.util.Collections.nCopies(ports, PortLearning.OPEN) : List.copyOf(portLearning);
        if (portLearning.size() != ports) {
            throw new IllegalArgumentException("core config has " + portLearning.size() + " port learning settings for "
                    + ports + " MMU ports");
        }
        ShadowMmus.check(shadows);
        for (String shadow : shadows) {
            Schemes.validate(mmu.withScheme(shadow));          // a bad shadow parameter fails here, not at start
        }
        if (pauseQuanta < 1 || pauseQuanta > MacControl.MAX_QUANTA) {
            throw new IllegalArgumentException("pfc.pauseQuanta must be 1..65535, got " + pauseQuanta);
        }
        if (portMacs.length != ports || schedulers.size() != ports) {
            throw new IllegalArgumentException("core config has " + portMacs.length + " port MACs and "
                    + schedulers.size() + " schedulers for " + ports + " MMU ports");
        }
        for (StaticMac s : staticMacs) {
            if (s.port() < 0 || s.port() >= ports) {
                throw new IllegalArgumentException("static MAC entry names port " + s.port() + ", ports are 0.." + (ports - 1));
            }
        }
        for (EcmpGroup g : ecmpGroups) {
            if (g.ports().length == 0) {
                throw new IllegalArgumentException("ECMP group for " + MacAddress.format(g.mac()) + " has no ports");
            }
            for (int p : g.ports()) {
                if (p < 0 || p >= ports) {
                    throw new IllegalArgumentException("ECMP group for " + MacAddress.format(g.mac()) + " names port "
                            + p + ", ports are 0.." + (ports - 1));
                }
            }
            for (StaticMac s : staticMacs) {
                if (s.mac() == g.mac()) {
                    throw new IllegalArgumentException(MacAddress.format(g.mac())
                            + " has both a static entry and an ECMP group");
                }
            }
        }
        if (tableCapacity < 1) {
            throw new IllegalArgumentException("forwarding tableCapacity must be >= 1, got " + tableCapacity);
        }
        if (bfcBitmapPeriodNanos < 0) {
            throw new IllegalArgumentException("bfc bitmap period must be >= 0 ns (0 = off), got " + bfcBitmapPeriodNanos);
        }
    }

    public int ports() {
        return mmu.portCount();
    }

    @Override
    public long[] portMacs() {
        return portMacs.clone();
    }

    @Override
    public boolean[] senderIgnoresPfc() {
        return senderIgnoresPfc.clone();
    }

    /** Whether the sender behind {@code port} ignores the PFC frames the switch sends it. */
    public boolean senderIgnoresPfc(int port) {
        return senderIgnoresPfc[port];
    }

    public long portMac(int port) {
        return portMacs[port];
    }

    public long speedBps(int port) {
        return mmu.port(port).speedBps();
    }

    /** The same switch over another MMU configuration (same ports): a scheme or parameter change. */
    public CoreConfig withMmu(MmuConfig other) {
        if (other.portCount() != mmu.portCount()) {
            throw new IllegalArgumentException("the new MMU has " + other.portCount() + " ports, the switch " + mmu.portCount());
        }
        return new CoreConfig(other, classifier, pauseQuanta, portMacs, schedulers, staticMacs, ecmpGroups, learning,
                tableCapacity, bfcBitmapPeriodNanos, shaped, senderIgnoresPfc, pfcwd, deadlock, shadows, portLearning);
    }

    /** The same switch with shadow schemes {@code schemes} (empty: none). */
    public CoreConfig withShadows(List<String> schemes) {
        return new CoreConfig(mmu, classifier, pauseQuanta, portMacs, schedulers, staticMacs, ecmpGroups, learning,
                tableCapacity, bfcBitmapPeriodNanos, shaped, senderIgnoresPfc, pfcwd, deadlock, schemes, portLearning);
    }

    /** The same switch under another buffer-admission scheme. */
    public CoreConfig withScheme(String scheme) {
        return withMmu(mmu.withScheme(scheme));
    }

    /** The same switch with port {@code port}'s own MAC (the source of its PFC frames) replaced. */
    public CoreConfig withPortMac(int port, long mac) {
        long[] macs = portMacs.clone();
        macs[port] = mac;
        return new CoreConfig(mmu, classifier, pauseQuanta, macs, schedulers, staticMacs, ecmpGroups, learning,
                tableCapacity, bfcBitmapPeriodNanos, shaped, senderIgnoresPfc, pfcwd, deadlock, shadows, portLearning);
    }

    public static Builder builder(MmuConfig mmu) {
        return new Builder(mmu);
    }

    public static final class Builder {
        private final MmuConfig mmu;
        private PriorityClassifier classifier = PriorityClassifier.trustDscp(0);
        private int pauseQuanta = MacControl.MAX_QUANTA;
        private final long[] portMacs;
        private final SchedulerPolicy[] schedulers;
        private final List<StaticMac> staticMacs = new ArrayList<>();
        private final List<EcmpGroup> ecmpGroups = new ArrayList<>();
        private boolean learning = true;
        private int tableCapacity = 4096;
        private long bfcBitmapPeriodNanos = DEFAULT_BFC_BITMAP_PERIOD_NANOS;
        private boolean shaped = true;
        private final boolean[] senderIgnoresPfc;
        private PfcWatchdogConfig pfcwd;
        private DeadlockConfig deadlock;
        private List<String> shadows = List.of();
        private final PortLearning[] portLearning;

        private Builder(MmuConfig mmu) {
            this.mmu = mmu;
            int ports = mmu.portCount();
            portMacs = new long[ports];
            for (int p = 0; p < ports; p++) {
                portMacs[p] = 0x0200_0100_0000L | p;
            }
            schedulers = new SchedulerPolicy[ports];
            Arrays.fill(schedulers, SchedulerPolicy.strictPriority());
            senderIgnoresPfc = new boolean[ports];
            portLearning = new PortLearning[ports];
            Arrays.fill(portLearning, PortLearning.OPEN);
        }

        public Builder classifier(PriorityClassifier c) { classifier = c; return this; }
        public Builder pauseQuanta(int q) { pauseQuanta = q; return this; }
        public Builder portMac(int port, long mac) { portMacs[port] = mac; return this; }
        public Builder scheduler(int port, SchedulerPolicy policy) { schedulers[port] = policy; return this; }
        public Builder allSchedulers(SchedulerPolicy policy) { Arrays.fill(schedulers, policy); return this; }
        public Builder staticMac(long mac, int port) { staticMacs.add(new StaticMac(mac, port)); return this; }
        /** Frames to {@code mac} leave through one of {@code ports}, chosen per flow by its hash. */
        public Builder ecmpGroup(long mac, int... ports) { ecmpGroups.add(new EcmpGroup(mac, ports)); return this; }
        public Builder learning(boolean on) { learning = on; return this; }
        public Builder tableCapacity(int n) { tableCapacity = n; return this; }
        /** Port security on {@code port}: how many stations it may learn and whether stations may move to it. */
        public Builder portLearning(int port, PortLearning l) { portLearning[port] = l; return this; }
        public Builder bfcBitmapPeriodNanos(long ns) { bfcBitmapPeriodNanos = ns; return this; }
        /** {@code false} turns every port's shaper off (see {@link CoreConfig#shaped}). */
        public Builder shaper(boolean on) { shaped = on; return this; }
        /** The sender behind {@code port} does not obey PFC (see {@link CoreConfig#senderIgnoresPfc}). */
        public Builder senderIgnoresPfc(int port, boolean ignores) { senderIgnoresPfc[port] = ignores; return this; }
        /** The PFC watchdog; null turns it off. */
        public Builder pfcwd(PfcWatchdogConfig config) { pfcwd = config; return this; }
        /** Shadow schemes (see {@link ShadowMmus}); empty turns them off. */
        public Builder shadows(List<String> schemes) { shadows = schemes; return this; }

        public Builder deadlock(DeadlockConfig config) { deadlock = config; return this; }

        public CoreConfig build() {
            return new CoreConfig(mmu, classifier, pauseQuanta, portMacs, Arrays.asList(schedulers), staticMacs,
                    ecmpGroups, learning, tableCapacity, bfcBitmapPeriodNanos, shaped, senderIgnoresPfc, pfcwd, deadlock,
                    shadows, Arrays.asList(portLearning));
        }
    }
}
