package org.pfcswitch.codec;

import java.util.Arrays;

/**
 * Maps a parsed frame to one of the eight priorities, the way a switch port configured to
 * trust PCP or to trust DSCP does.
 *
 * <ul>
 *   <li>{@link Trust#PCP}: a tagged frame's outer PCP; untagged frames get the default.</li>
 *   <li>{@link Trust#DSCP}: an IPv4 frame's DSCP through the map; a tagged non-IP frame its
 *   PCP; anything else the default. RoCE labs usually trust DSCP (DSCP 26 to priority 3).</li>
 * </ul>
 * The default DSCP map is the class-selector one, DSCP / 8, which sends 26 to 3 and 48 to 6.
 */
public final class PriorityClassifier {
    public enum Trust { PCP, DSCP }

    private final Trust trust;
    private final byte[] dscpToPriority;
    private final int defaultPriority;

    private PriorityClassifier(Trust trust, byte[] dscpToPriority, int defaultPriority) {
        checkPriority(defaultPriority, "default priority");
        this.trust = trust;
        this.dscpToPriority = dscpToPriority;
        this.defaultPriority = defaultPriority;
    }

    public static PriorityClassifier trustPcp(int defaultPriority) {
        return new PriorityClassifier(Trust.PCP, toPriorityBytes(dscpMap(null)), defaultPriority);
    }

    /** {@code dscpToPriority} has 64 entries, each 0..7. */
    public static PriorityClassifier trustDscp(int[] dscpToPriority, int defaultPriority) {
        return new PriorityClassifier(Trust.DSCP, toPriorityBytes(dscpToPriority), defaultPriority);
    }

    /** Trust DSCP with the class-selector map. */
    public static PriorityClassifier trustDscp(int defaultPriority) {
        return trustDscp(dscpMap(null), defaultPriority);
    }

    /**
     * The class-selector map with overrides such as {@code "26:3,48:6"}. Throws
     * IllegalArgumentException naming the bad entry.
     */
    public static int[] dscpMap(String overrides) {
        int[] map = new int[64];
        for (int d = 0; d < 64; d++) {
            map[d] = d >>> 3;
        }
        if (overrides == null || overrides.isBlank()) {
            return map;
        }
        for (String entry : overrides.split(",")) {
            String[] kv = entry.trim().split(":");
            if (kv.length != 2) {
                throw new IllegalArgumentException("DSCP map entry must be DSCP:PRIORITY, got '" + entry + "'");
            }
            int dscp;
            int prio;
            try {
                dscp = Integer.parseInt(kv[0].trim());
                prio = Integer.parseInt(kv[1].trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("DSCP map entry must be two numbers, got '" + entry + "'");
            }
            if (dscp < 0 || dscp > 63) {
                throw new IllegalArgumentException("DSCP must be 0..63 in '" + entry + "'");
            }
            checkPriority(prio, "priority in '" + entry + "'");
            map[dscp] = prio;
        }
        return map;
    }

    /** The priority of a parsed frame (also of a malformed one, from what was parsed). */
    public int classify(ParsedFrame f) {
        if (trust == Trust.DSCP && f.hasIpv4()) {
            return dscpToPriority[f.dscp()];
        }
        return f.isTagged() ? f.pcp() : defaultPriority;
    }

    public Trust trust() {
        return trust;
    }

    public int defaultPriority() {
        return defaultPriority;
    }

    public int priorityOfDscp(int dscp) {
        return dscpToPriority[dscp];
    }

    @Override
    public String toString() {
        return "trust " + trust + ", default priority " + defaultPriority
                + (trust == Trust.DSCP ? ", dscp map " + Arrays.toString(dscpToPriority) : "");
    }

    private static byte[] toPriorityBytes(int[] dscpToPriority) {
        if (dscpToPriority.length != 64) {
            throw new IllegalArgumentException("a DSCP map has 64 entries, got " + dscpToPriority.length);
        }
        byte[] map = new byte[64];
        for (int d = 0; d < 64; d++) {
            checkPriority(dscpToPriority[d], "priority for DSCP " + d);
            map[d] = (byte) dscpToPriority[d];
        }
        return map;
    }

    private static void checkPriority(int p, String what) {
        if (p < 0 || p > 7) {
            throw new IllegalArgumentException(what + " must be 0..7, got " + p);
        }
    }
}
