package org.pfcswitch.codec;

import java.lang.foreign.MemorySegment;
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

    /** {@link #classifyRaw} result: the priority, 0..7, in the low three bits. */
    public static final int RAW_PRIORITY_MASK = 0x7;
    /** {@link #classifyRaw} result bit: shorter than an Ethernet header ({@link ParseError#RUNT}). */
    public static final int RAW_RUNT = 1 << 3;
    /**
     * {@link #classifyRaw} result bit: EtherType 0x8808 after any tags and BFC shim (PFC, PAUSE or
     * another opcode).
     */
    public static final int RAW_MAC_CONTROL = 1 << 4;
    /**
     * {@link #classifyRaw} result bit: a header it reads (VLAN tags, the IPv4 header) did not
     * parse, or the frame lies outside the segment. Errors in layers it does not read (UDP, BTH,
     * a MAC-control body) do not set it.
     */
    public static final int RAW_MALFORMED = 1 << 5;
    /**
     * {@link #classifyRaw} result bit: EtherType 0x88B6 (a BFC control frame, link-local like MAC
     * control) after any tags and BFC shim. Its body is not read: a full parse checks it.
     */
    public static final int RAW_BFC_CONTROL = 1 << 6;

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

    /**
     * The forwarding fast path's classification, straight from the frame bytes: the same priority
     * as {@code classify(parse(...))}, but it reads only what the priority depends on, the VLAN
     * tags, a BFC shim's version and inner EtherType, and the first word of an IPv4 header
     * (version, IHL, TOS, total length), with the same
     * length checks as {@link FrameParser}. No UDP, RoCE or MAC-control body; the full parse
     * stays for the switch core, decode and MAC-control frames (see {@link #RAW_MAC_CONTROL}).
     * Never throws, never reads past {@code length} or outside {@code s}, allocates nothing.
     *
     * @return the priority ({@link #RAW_PRIORITY_MASK}) or'ed with {@link #RAW_RUNT},
     *         {@link #RAW_MAC_CONTROL}, {@link #RAW_BFC_CONTROL} and {@link #RAW_MALFORMED}
     */
    public int classifyRaw(MemorySegment s, long frame, int length) {
        // The common frame, untagged IPv4 without a shim, in a method small enough for the JIT to
        // inline into the caller's loop (the general one is over the 325-byte hot-method limit).
        if (frame >= 0 && length >= Ethernet.HEADER_BYTES + Ipv4.MIN_HEADER_BYTES && frame + length <= s.byteSize()
                && NetOrder.u16(s, frame + Ethernet.TYPE) == Ethernet.TYPE_IPV4) {
            return classifyIpv4(s, frame, Ethernet.HEADER_BYTES, length, defaultPriority);
        }
        return classifyRawGeneral(s, frame, length);
    }

    /** The IPv4 header at {@code frame + at} (at least 20 bytes of it inside {@code length}), after an L2 header whose priority is {@code l2Priority}. */
    private int classifyIpv4(MemorySegment s, long frame, int at, int length, int l2Priority) {
        int word0 = NetOrder.u32(s, frame + at);             // version, IHL, TOS, total length
        int headerBytes = (word0 >>> 22) & 0x3C;
        if (word0 >>> 28 != 4 || headerBytes < Ipv4.MIN_HEADER_BYTES || at + headerBytes > length) {
            return l2Priority | RAW_MALFORMED;               // FrameParser has no IPv4 layer then either
        }
        int priority = trust == Trust.DSCP ? dscpToPriority[(word0 >>> 18) & 0x3F] : l2Priority;
        int totalLength = word0 & 0xFFFF;
        return totalLength < headerBytes || at + totalLength > length ? priority | RAW_MALFORMED : priority;
    }

    /** {@link #classifyRaw} for every frame: tags, shim, runts, MAC control, anything outside the segment. */
    private int classifyRawGeneral(MemorySegment s, long frame, int length) {
        if (frame < 0 || length < 0 || frame + length > s.byteSize()) {
            return defaultPriority | RAW_MALFORMED;
        }
        if (length < Ethernet.HEADER_BYTES) {
            return defaultPriority | RAW_RUNT;
        }
        int type = NetOrder.u16(s, frame + Ethernet.TYPE);
        int at = Ethernet.HEADER_BYTES;
        int l2Priority = defaultPriority;          // the outer tag's PCP once a tag was read
        for (int tags = 0; type == Ethernet.TYPE_VLAN || type == Ethernet.TYPE_QINQ; tags++) {
            if (tags == 2 || at + Vlan.TAG_BYTES > length) {   // as FrameParser: at most two tags
                return l2Priority | RAW_MALFORMED;
            }
            int tag = NetOrder.u32(s, frame + at);            // TCI, then the next EtherType
            if (tags == 0) {
                l2Priority = tag >>> 29;
            }
            type = tag & 0xFFFF;
            at += Vlan.TAG_BYTES;
        }
        if (type == Bfc.TYPE_SHIM) {                          // as FrameParser: one shim, then the inner type
            if (at + Bfc.SHIM_BYTES > length || NetOrder.u8(s, frame + at) >>> 4 != Bfc.VERSION) {
                return l2Priority | RAW_MALFORMED;
            }
            type = NetOrder.u16(s, frame + at + Bfc.SHIM_INNER_TYPE);
            at += Bfc.SHIM_BYTES;
        }
        if (type == Ethernet.TYPE_MAC_CONTROL) {
            return l2Priority | RAW_MAC_CONTROL;
        }
        if (type != Ethernet.TYPE_IPV4) {                    // the BFC-control test stays off the IPv4 path
            return type == Bfc.TYPE_CONTROL ? l2Priority | RAW_BFC_CONTROL : l2Priority;
        }
        if (at + Ipv4.MIN_HEADER_BYTES > length) {
            return l2Priority | RAW_MALFORMED;
        }
        return classifyIpv4(s, frame, at, length, l2Priority);
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
