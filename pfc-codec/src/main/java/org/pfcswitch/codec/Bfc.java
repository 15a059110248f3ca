package org.pfcswitch.codec;

import java.lang.foreign.MemorySegment;

/**
 * BFC (Backpressure Flow Control, NSDI'22) on the wire: the data-packet shim that carries the
 * sending hop's queue id, and the hop-by-hop PAUSE / RESUME / BITMAP control frame. The paper
 * leaves the encoding open; this is ours (scheme spec IV.2). Both EtherTypes are IEEE 802's
 * "local experimental" ones, so no registered protocol is shadowed.
 *
 * <p>Data-packet shim, right after the Ethernet header and any VLAN tags; the frame's original
 * EtherType moves into the shim:
 * <pre>
 *  EtherType 0x88B5, then (offsets from the shim, see {@link ParsedFrame#bfcShimOffset()})
 *   +0  u8   version (high 4 bits) = 1 | flags (low 4 bits); flags bit 0 = sender is BFC-capable
 *   +1  u8   reserved, written 0, ignored on receipt
 *   +2  u16  upstreamQ: the queue id at the sending hop, 0xFFFF = none
 *   +4  u16  inner EtherType (0x0800 for RoCEv2)
 *   6 bytes
 * </pre>
 * Every switch rewrites upstreamQ in place with its own egress queue ({@link #setUpstreamQueue}).
 *
 * <p>Control frame, sent hop by hop and never forwarded, to the peer's MAC or to
 * {@link #NEAREST_BRIDGE}:
 * <pre>
 *  offset  bytes  field (untagged frame)
 *   0       6     destination
 *   6       6     source (the port's MAC)
 *  12       2     EtherType 0x88B6
 *  14       1     version = 1
 *  15       1     op: 1 PAUSE, 2 RESUME, 3 BITMAP
 *  16       2     seq, per port, wraps at 16 bits
 *  18       2     qid: PAUSE/RESUME the queue at the receiver's egress port (0 in a BITMAP)
 *  20       2     nbits: BITMAP the number of queues covered, at most 128 (0 otherwise)
 *  22       n     BITMAP: ceil(nbits / 8) bytes; queue i is bit (i % 8), counted from the
 *                 least significant bit, of byte i / 8; 1 = paused
 *  ..             zero padding to 60 bytes (no FCS, as {@link MacControl})
 * </pre>
 */
public final class Bfc {
    /** EtherType of the data-packet shim (IEEE 802 local experimental 1). */
    public static final int TYPE_SHIM = 0x88B5;
    /** EtherType of the control frame (IEEE 802 local experimental 2). */
    public static final int TYPE_CONTROL = 0x88B6;
    public static final int SHIM_BYTES = 6;
    public static final int VERSION = 1;
    /** Shim flags bit: the sender is BFC-capable (obeys pause/resume for upstreamQ). */
    public static final int FLAG_SENDER_IS_BFC = 1;
    /** upstreamQ of a sender that is not BFC-capable: the switch must not pause it. */
    public static final int NO_UPSTREAM_QUEUE = 0xFFFF;
    public static final int OP_PAUSE = 1;
    public static final int OP_RESUME = 2;
    public static final int OP_BITMAP = 3;
    public static final int MAX_BITMAP_QUEUES = 128;
    /** 01-80-C2-00-00-0E, the 802.1 nearest-bridge group address: never forwarded by a bridge. */
    public static final long NEAREST_BRIDGE = 0x0180C200000EL;
    /** Control-frame bytes after the EtherType, before the bitmap: version, op, seq, qid, nbits. */
    public static final int CONTROL_HEADER_BYTES = 8;
    public static final int MAX_BITMAP_BYTES = MAX_BITMAP_QUEUES / 8;

    // Shim fields, from the shim's first byte.
    static final int SHIM_VERSION_FLAGS = 0;
    static final int SHIM_UPSTREAM_QUEUE = 2;
    static final int SHIM_INNER_TYPE = 4;

    // Control fields, from the start of an untagged frame.
    static final int CTRL_VERSION = Ethernet.HEADER_BYTES;     // 14
    static final int CTRL_OP = CTRL_VERSION + 1;               // 15
    static final int CTRL_SEQ = CTRL_VERSION + 2;              // 16
    static final int CTRL_QID = CTRL_VERSION + 4;              // 18
    static final int CTRL_NBITS = CTRL_VERSION + 6;            // 20
    static final int CTRL_BITMAP = CTRL_VERSION + 8;           // 22

    private Bfc() {}

    // ------------------------------------------------------------------ shim

    /**
     * Writes the 6 shim bytes at {@code shim} (the caller has written EtherType 0x88B5 just
     * before it) and returns the offset after them, where the inner header goes.
     */
    public static long writeShim(MemorySegment s, long shim, boolean senderIsBfc, int queue, int innerEtherType) {
        checkQueue(queue);
        if ((innerEtherType & ~0xFFFF) != 0) {
            throw new IllegalArgumentException("EtherType is 16 bits, got 0x" + Integer.toHexString(innerEtherType));
        }
        int head = (VERSION << 4 | (senderIsBfc ? FLAG_SENDER_IS_BFC : 0)) << 8;   // reserved byte 0
        NetOrder.put16(s, shim + SHIM_VERSION_FLAGS, head);
        NetOrder.put32(s, shim + SHIM_UPSTREAM_QUEUE, queue << 16 | innerEtherType);
        return shim + SHIM_BYTES;
    }

    /** Rewrites upstreamQ of the shim at {@code shimOffset} in place, as every hop does. */
    public static void setUpstreamQueue(MemorySegment s, long shimOffset, int queue) {
        checkQueue(queue);
        NetOrder.put16(s, shimOffset + SHIM_UPSTREAM_QUEUE, queue);
    }

    public static int upstreamQueue(MemorySegment s, long shimOffset) {
        return NetOrder.u16(s, shimOffset + SHIM_UPSTREAM_QUEUE);
    }

    public static int shimVersion(MemorySegment s, long shimOffset) {
        return NetOrder.u8(s, shimOffset + SHIM_VERSION_FLAGS) >>> 4;
    }

    public static int shimFlags(MemorySegment s, long shimOffset) {
        return NetOrder.u8(s, shimOffset + SHIM_VERSION_FLAGS) & 0xF;
    }

    public static int innerEtherType(MemorySegment s, long shimOffset) {
        return NetOrder.u16(s, shimOffset + SHIM_INNER_TYPE);
    }

    // ------------------------------------------------------------------ control frames

    /** Writes a PAUSE of {@code queue} (at the receiver's egress port), 60 bytes; returns the length. */
    public static int writePause(MemorySegment s, long offset, long dstMac, long srcMac, int seq, int queue) {
        checkQueue(queue);
        return writeControl(s, offset, dstMac, srcMac, OP_PAUSE, seq, queue, 0, 0, 0);
    }

    /** Writes a RESUME of {@code queue}, 60 bytes; returns the length. */
    public static int writeResume(MemorySegment s, long offset, long dstMac, long srcMac, int seq, int queue) {
        checkQueue(queue);
        return writeControl(s, offset, dstMac, srcMac, OP_RESUME, seq, queue, 0, 0, 0);
    }

    /**
     * Writes a BITMAP covering queues 0..nbits-1, 60 bytes; returns the length. Queue i is paused
     * when bit i of {@code bitsLow} (queues 0..63) or bit i-64 of {@code bitsHigh} (64..127) is
     * set. Bits at or above {@code nbits} must be clear.
     */
    public static int writeBitmap(MemorySegment s, long offset, long dstMac, long srcMac, int seq, int nbits,
                                  long bitsLow, long bitsHigh) {
        if (nbits < 0 || nbits > MAX_BITMAP_QUEUES) {
            throw new IllegalArgumentException("a BFC bitmap covers 0.." + MAX_BITMAP_QUEUES + " queues, got " + nbits);
        }
        if ((bitsLow & ~lowMask(nbits)) != 0 || (bitsHigh & ~highMask(nbits)) != 0) {
            throw new IllegalArgumentException("BFC bitmap has bits set at or above nbits " + nbits);
        }
        return writeControl(s, offset, dstMac, srcMac, OP_BITMAP, seq, 0, nbits, bitsLow, bitsHigh);
    }

    /**
     * The whole 60-byte frame in word stores, as {@link MacControl}'s PFC writer does. The bitmap
     * is little-endian bit order within bytes, so it is the two longs byte-reversed; the bytes
     * past ceil(nbits / 8) are zero because the bits there are.
     */
    private static int writeControl(MemorySegment s, long frame, long dstMac, long srcMac, int op, int seq,
                                    int queue, int nbits, long bitsLow, long bitsHigh) {
        long dst = dstMac & 0xFFFF_FFFF_FFFFL;
        long src = srcMac & 0xFFFF_FFFF_FFFFL;
        NetOrder.put64(s, frame, dst << 16 | src >>> 32);
        NetOrder.put64(s, frame + 8, (src & 0xFFFF_FFFFL) << 32 | (long) TYPE_CONTROL << 16 | VERSION << 8 | op);
        NetOrder.put64(s, frame + CTRL_SEQ, (long) (seq & 0xFFFF) << 48 | (long) queue << 32 | (long) nbits << 16);
        NetOrder.put64(s, frame + CTRL_BITMAP, Long.reverseBytes(bitsLow));        // bytes 22..29
        NetOrder.put64(s, frame + CTRL_BITMAP + 8, Long.reverseBytes(bitsHigh));   // bytes 30..37
        NetOrder.put64(s, frame + 38, 0);
        NetOrder.put64(s, frame + 46, 0);
        NetOrder.put64(s, frame + 52, 0);                                          // 52..59, overlaps
        return Ethernet.MIN_FRAME_BYTES;
    }

    /** "pause", "resume", "bitmap", or "op N" for an op this codec does not know. */
    public static String opName(int op) {
        return switch (op) {
            case OP_PAUSE -> "pause";
            case OP_RESUME -> "resume";
            case OP_BITMAP -> "bitmap";
            default -> "op " + op;
        };
    }

    /**
     * Whether a control frame with sequence number {@code seq} is older than the last one applied,
     * {@code lastApplied} (-1 before the first): 16-bit serial-number arithmetic, so the numbers
     * may wrap. Receivers apply a frame only if it is not stale, so a reordered PAUSE or RESUME
     * cannot undo newer state.
     */
    public static boolean isStale(int seq, int lastApplied) {
        return lastApplied >= 0 && seq != lastApplied && ((seq - lastApplied) & 0xFFFF) >= 0x8000;
    }

    /** The paused queues 0..queues-1 (at most 64) of the bitmap in {@code frame}, as a bit mask. */
    public static long pausedInBitmap(ParsedFrame frame, int queues) {
        return frame.bfcBitmapLow() & lowMask(queues);
    }

    /** The bits of queues 0..63 that a bitmap of {@code nbits} queues covers. */
    static long lowMask(int nbits) {
        return nbits >= 64 ? -1L : (1L << nbits) - 1;
    }

    /** The bits of queues 64..127 that a bitmap of {@code nbits} queues covers. */
    static long highMask(int nbits) {
        return nbits <= 64 ? 0 : nbits >= 128 ? -1L : (1L << (nbits - 64)) - 1;
    }

    private static void checkQueue(int queue) {
        if ((queue & ~0xFFFF) != 0) {
            throw new IllegalArgumentException("BFC queue id must be 0..65535, got " + queue);
        }
    }
}
