package org.pfcswitch.codec;

import java.lang.foreign.MemorySegment;

/**
 * MAC Control frames (EtherType 0x8808) to 01:80:C2:00:00:01: 802.3x PAUSE (opcode 0x0001,
 * one time) and 802.1Qbb PFC (opcode 0x0101, a class-enable vector and eight times).
 *
 * <pre>
 *  offset  bytes  field
 *   0       6     destination 01:80:C2:00:00:01
 *   6       6     source (the port's MAC)
 *  12       2     EtherType 0x8808
 *  14       2     opcode: 0x0001 PAUSE, 0x0101 PFC
 *  16       2     PFC: class-enable vector, bit i = priority i (upper byte reserved, zero)
 *                 PAUSE: pause time
 *  18      16     PFC: time[i] at 18 + 2i
 *  ..             zero padding to 60 bytes
 * </pre>
 * Times are in quanta of 512 bit times; 0 means resume. A pause ends by itself when its time
 * runs out, so a sender still congested must refresh it.
 */
public final class MacControl {
    public static final int OPCODE_PAUSE = 0x0001;
    public static final int OPCODE_PFC = 0x0101;
    public static final int PRIORITIES = 8;
    public static final int MAX_QUANTA = 0xFFFF;
    /** Bits in one pause quantum. */
    public static final int BITS_PER_QUANTUM = 512;

    static final int OPCODE = Ethernet.HEADER_BYTES;           // 14
    static final int PAUSE_TIME = OPCODE + 2;                  // 16
    static final int CLASS_ENABLE = OPCODE + 2;                // 16
    static final int PFC_TIMES = CLASS_ENABLE + 2;             // 18
    /** Bytes a PAUSE frame needs before its padding. */
    public static final int PAUSE_BYTES = PAUSE_TIME + 2;      // 18
    /** Bytes a PFC frame needs before its padding. */
    public static final int PFC_BYTES = PFC_TIMES + 2 * PRIORITIES;  // 34

    private MacControl() {}

    public static int opcode(MemorySegment s, long frame) {
        return NetOrder.u16(s, frame + OPCODE);
    }

    /** The whole 16-bit class-enable field; a well-formed frame has its upper byte zero. */
    public static int classEnableField(MemorySegment s, long frame) {
        return NetOrder.u16(s, frame + CLASS_ENABLE);
    }

    public static int pfcQuanta(MemorySegment s, long frame, int priority) {
        return NetOrder.u16(s, frame + PFC_TIMES + 2L * priority);
    }

    public static int pauseQuanta(MemorySegment s, long frame) {
        return NetOrder.u16(s, frame + PAUSE_TIME);
    }

    /**
     * Writes a PFC frame, padded to 60 bytes, and returns its length. Priorities whose bit is
     * clear in {@code classEnable} get time 0, as the standard requires.
     */
    public static int writePfc(MemorySegment s, long frame, long srcMac, int classEnable, int[] quanta) {
        return writePfc(s, frame, srcMac, classEnable, quanta[0], quanta[1], quanta[2], quanta[3],
                quanta[4], quanta[5], quanta[6], quanta[7]);
    }

    /** Writes a PFC frame pausing (or, with quanta 0, resuming) the given priorities with one time. */
    public static int writePfc(MemorySegment s, long frame, long srcMac, int classEnable, int quanta) {
        return writePfc(s, frame, srcMac, classEnable, quanta, quanta, quanta, quanta, quanta, quanta, quanta, quanta);
    }

    /** Writes an 802.3x PAUSE frame, padded to 60 bytes, and returns its length. */
    public static int writePause(MemorySegment s, long frame, long srcMac, int quanta) {
        checkQuanta(quanta);
        Ethernet.write(s, frame, MacAddress.MAC_CONTROL, srcMac, Ethernet.TYPE_MAC_CONTROL);
        NetOrder.put16(s, frame + OPCODE, OPCODE_PAUSE);
        NetOrder.put16(s, frame + PAUSE_TIME, quanta);
        return Ethernet.padToMinimum(s, frame, PAUSE_BYTES);
    }

    /**
     * The whole 60-byte frame as seven 8-byte stores and one 4-byte store: the frame is small
     * and fixed, so composing words in registers beats sixteen 2-byte stores and a fill.
     */
    private static int writePfc(MemorySegment s, long frame, long srcMac, int classEnable,
                                int t0, int t1, int t2, int t3, int t4, int t5, int t6, int t7) {
        checkClassEnable(classEnable);
        long enableAndTimes0to2 = (long) classEnable << 48 | time(classEnable, 0, t0) << 32
                | time(classEnable, 1, t1) << 16 | time(classEnable, 2, t2);
        long times3to6 = time(classEnable, 3, t3) << 48 | time(classEnable, 4, t4) << 32
                | time(classEnable, 5, t5) << 16 | time(classEnable, 6, t6);
        NetOrder.put64(s, frame, MacAddress.MAC_CONTROL << 16 | srcMac >>> 32);
        NetOrder.put64(s, frame + 8, (srcMac & 0xFFFF_FFFFL) << 32 | (long) Ethernet.TYPE_MAC_CONTROL << 16 | OPCODE_PFC);
        NetOrder.put64(s, frame + CLASS_ENABLE, enableAndTimes0to2);
        NetOrder.put64(s, frame + CLASS_ENABLE + 8, times3to6);
        NetOrder.put64(s, frame + CLASS_ENABLE + 16, time(classEnable, 7, t7) << 48);   // time 7, then padding
        NetOrder.put64(s, frame + 40, 0);
        NetOrder.put64(s, frame + 48, 0);
        NetOrder.put32(s, frame + 56, 0);
        return Ethernet.MIN_FRAME_BYTES;
    }

    /** A priority's time as the frame carries it: checked, and 0 when its class-enable bit is clear. */
    private static long time(int classEnable, int priority, int quanta) {
        return (classEnable & (1 << priority)) != 0 ? checkQuanta(quanta) : 0;
    }

    private static void checkClassEnable(int classEnable) {
        if ((classEnable & ~0xFF) != 0) {
            throw new IllegalArgumentException("class-enable vector is 8 bits, got 0x" + Integer.toHexString(classEnable));
        }
    }

    private static int checkQuanta(int quanta) {
        if ((quanta & ~MAX_QUANTA) != 0) {
            throw new IllegalArgumentException("pause quanta must be 0..65535, got " + quanta);
        }
        return quanta;
    }

    /** How long {@code quanta} pause a link of {@code bitsPerSecond}, in nanoseconds (rounded up). */
    public static long quantaToNanos(int quanta, long bitsPerSecond) {
        long bits = (long) quanta * BITS_PER_QUANTUM;
        return (bits * 1_000_000_000L + bitsPerSecond - 1) / bitsPerSecond;
    }
}
