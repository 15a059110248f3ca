package org.pfcswitch.core.record;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The header of an arrival-record file: the switch's ports with their line rates, and where each
 * known MAC address is (the replay's forwarding table; MACs seen as sources are learned too).
 *
 * @param speedsBps line rate per port, bit/s
 * @param macPorts  MAC (low 48 bits) to port, in file order
 */
public record ArrivalHeader(long[] speedsBps, Map<Long, Integer> macPorts) {

    public ArrivalHeader {
        if (speedsBps.length < 1 || speedsBps.length > ArrivalFormat.MAX_PORTS) {
            throw new IllegalArgumentException("ports must be 1.." + ArrivalFormat.MAX_PORTS + ", got " + speedsBps.length);
        }
        speedsBps = speedsBps.clone();
        for (int p = 0; p < speedsBps.length; p++) {
            if (speedsBps[p] <= 0) {
                throw new IllegalArgumentException("port " + p + " speed must be > 0 bit/s, got " + speedsBps[p]);
            }
        }
        macPorts = Collections.unmodifiableMap(new LinkedHashMap<>(macPorts));
        for (Map.Entry<Long, Integer> e : macPorts.entrySet()) {
            if (e.getValue() < 0 || e.getValue() >= speedsBps.length) {
                throw new IllegalArgumentException("MAC " + Long.toHexString(e.getKey()) + " on port " + e.getValue()
                        + ", outside 0.." + (speedsBps.length - 1));
            }
        }
    }

    public int ports() {
        return speedsBps.length;
    }

    @Override
    public long[] speedsBps() {
        return speedsBps.clone();
    }

    public long speedBps(int port) {
        return speedsBps[port];
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ArrivalHeader h && Arrays.equals(speedsBps, h.speedsBps) && macPorts.equals(h.macPorts);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(speedsBps) * 31 + macPorts.hashCode();
    }
}
