package org.pfcswitch.config;

import java.util.List;
import java.util.function.Consumer;

import org.pfcswitch.mmu.MmuConfig;
import org.pfcswitch.mmu.Schemes;

/**
 * Reads the {@code mmu:} section of a switch or scenario file into an {@link MmuConfig}.
 *
 * <pre>
 * mmu:
 *   totalBytes: 16MiB
 *   cellBytes: 0                      # 0 = count bytes
 *   mtuBytes: 1500
 *   ports: {count: 32, speed: 100G, cableDelay: 2us}     # or a list: [{speed: .., cableDelay: ..}, ...]
 *   losslessPriorities: [3, 4]
 *   privateBytes: 3KiB
 *   headroomFormula: ieee             # ieee | hpcc | sonic | fixed (then headroomBytes)
 *   scheme: dt                        # st | dt | sonic | dsh | spfc | reverie | capfc | bfc
 *   ecn: {kminBytes: 0, kmaxBytes: 0, pmax: 0.2}
 *   schemes: {dt: {alpha: 1/16}, dsh: {...}}
 * </pre>
 * Every mistake becomes one {@link ConfigException} line naming the file and the key.
 */
public final class MmuConfigLoader {
    private static final String[] KEYS = {"totalBytes", "cellBytes", "mtuBytes", "ports", "losslessPriorities",
            "privateBytes", "headroomFormula", "headroomBytes", "scheme", "ecn", "schemes"};

    private MmuConfigLoader() {}

    /** The {@code mmu:} mapping of {@code root}, built and validated. */
    public static MmuConfig load(ConfigNode root) {
        return load(root, null);
    }

    /** As {@link #load(ConfigNode)} with the scheme replaced by {@code schemeOverride} when not null. */
    public static MmuConfig load(ConfigNode root, String schemeOverride) {
        ConfigNode mmu = root.child("mmu").allowOnly(KEYS);
        return build(root, mmu, schemeOverride, b -> readPorts(mmu, b));
    }

    /** A port the file defines outside its {@code mmu:} section: its line rate and cable delay. */
    public record PortLink(long speedBps, long cableDelayNanos) {}

    /**
     * For a file whose ports are defined elsewhere (a switch's {@code ports:}): the optional
     * {@code mmu:} section (all defaults when absent) over {@code ports}, in order. {@code mmu.ports}
     * is then a mistake, named with {@code portsAreIn}.
     */
    public static MmuConfig load(ConfigNode root, String schemeOverride, List<PortLink> ports, String portsAreIn) {
        ConfigNode mmu = root.optionalChild("mmu").orElse(ConfigNode.parse(root.file(), "{}")).allowOnly(KEYS);
        if (mmu.has("ports")) {
            throw mmu.error("ports", "this file's ports are its " + portsAreIn + "; give each port's speed and cableDelay there");
        }
        return build(root, mmu, schemeOverride, b -> ports.forEach(p -> b.port(p.speedBps(), p.cableDelayNanos())));
    }

    private static MmuConfig build(ConfigNode root, ConfigNode mmu, String schemeOverride, Consumer<MmuConfig.Builder> ports) {
        MmuConfig.Builder b = MmuConfig.builder();
        if (mmu.has("totalBytes")) {
            b.totalBytes(mmu.bytes("totalBytes"));
        }
        b.cellBytes((int) mmu.bytes("cellBytes", 0));
        b.mtuBytes((int) mmu.bytes("mtuBytes", 1500));
        ports.accept(b);
        if (mmu.has("losslessPriorities")) {
            b.losslessPriorities(mmu.integers("losslessPriorities", 0, 7));
        }
        if (mmu.has("privateBytes")) {
            b.privateBytes(mmu.bytes("privateBytes"));
        }
        if (mmu.has("headroomFormula")) {
            wrap(mmu, "headroomFormula", () -> b.headroomFormula(mmu.string("headroomFormula")));
        }
        if (mmu.has("headroomBytes")) {
            b.headroomBytes(mmu.bytes("headroomBytes"));
        }
        b.scheme(schemeOverride != null ? schemeOverride : mmu.string("scheme", "dt"));
        mmu.optionalChild("ecn").ifPresent(ecn -> {
            ecn.allowOnly("kminBytes", "kmaxBytes", "pmax");
            b.ecnKminBytes(ecn.bytes("kminBytes", 0));
            b.ecnKmaxBytes(ecn.bytes("kmaxBytes", 0));
            b.ecnPmax(ecn.number("pmax", 0.2));
        });
        mmu.optionalChild("schemes").ifPresent(schemes -> {
            schemes.allowOnly(Schemes.NAMES.toArray(String[]::new));
            for (String scheme : schemes.keys()) {
                ConfigNode params = schemes.child(scheme);
                for (String key : params.keys()) {
                    b.schemeParameter(scheme, key, params.string(key));
                }
            }
        });
        try {
            MmuConfig config = b.build();
            Schemes.validate(config);
            return config;
        } catch (IllegalArgumentException e) {
            throw new ConfigException(root.file() + ": " + e.getMessage());
        }
    }

    /** Either one block of identical ports or a list with one entry per port. */
    private static void readPorts(ConfigNode mmu, MmuConfig.Builder b) {
        if (!mmu.has("ports")) {
            throw mmu.error("ports", "required key is missing (e.g. ports: {count: 9, speed: 10G, cableDelay: 1us})");
        }
        if (mmu.isList("ports")) {
            for (ConfigNode port : mmu.children("ports")) {
                port.allowOnly("speed", "cableDelay");
                b.port(port.lineRate("speed"), port.nanos("cableDelay", 0));
            }
            return;
        }
        ConfigNode block = mmu.child("ports").allowOnly("count", "speed", "cableDelay");
        long count = block.integer("count");
        wrap(block, "count", () -> b.ports((int) Math.min(count, Integer.MAX_VALUE), block.lineRate("speed"),
                block.nanos("cableDelay", 0)));
    }

    private static void wrap(ConfigNode node, String key, Runnable r) {
        try {
            r.run();
        } catch (IllegalArgumentException e) {
            throw node.error(key, e.getMessage());
        }
    }
}
