package org.pfcswitch.codec;

import java.lang.foreign.MemorySegment;

/**
 * RoCEv2 transport headers carried in UDP/4791: the 12-byte Base Transport Header (BTH),
 * the 4-byte ACK Extended Transport Header (AETH) that ACK and NAK packets carry after it,
 * and the Congestion Notification Packet (CNP, opcode 0x81, 16 reserved bytes).
 * Every RoCEv2 packet ends with a 4-byte invariant CRC (ICRC).
 */
public final class Roce {
    public static final int BTH_BYTES = 12;
    public static final int AETH_BYTES = 4;
    /** RDMA Extended Transport Header: virtual address (8), R_Key (4), DMA length (4). */
    public static final int RETH_BYTES = 16;
    public static final int IMMEDIATE_BYTES = 4;
    public static final int ICRC_BYTES = 4;
    public static final int CNP_PAYLOAD_BYTES = 16;
    public static final int DEFAULT_PKEY = 0xFFFF;

    // Reliable Connection opcodes used by RDMA WRITE traffic and its acknowledgements.
    public static final int OP_RC_SEND_ONLY = 0x04;
    public static final int OP_RC_WRITE_FIRST = 0x06;
    public static final int OP_RC_WRITE_MIDDLE = 0x07;
    public static final int OP_RC_WRITE_LAST = 0x08;
    public static final int OP_RC_WRITE_ONLY = 0x0A;
    public static final int OP_RC_ACK = 0x11;
    public static final int OP_CNP = 0x81;

    /** AETH syndrome: top bits 00 = ACK, 01 = RNR NAK, 11 = NAK; low 5 bits a credit or NAK code. */
    public static final int AETH_ACK = 0x00;
    public static final int AETH_NAK_PSN_SEQUENCE_ERROR = 0x60;

    static final int OPCODE = 0;
    static final int FLAGS = 1;          // SE, M, PadCnt(2), TVer(4)
    static final int PKEY = 2;
    static final int RESV8A = 4;         // RoCEv2 keeps FECN/BECN here
    static final int DEST_QP = 5;
    static final int ACK_REQ = 8;        // top bit; 7 reserved bits
    static final int PSN = 9;

    private static final boolean[] KNOWN_OPCODES = knownOpcodes();

    private Roce() {}

    public static int opcode(MemorySegment s, long bth) {
        return NetOrder.u8(s, bth + OPCODE);
    }

    public static int pkey(MemorySegment s, long bth) {
        return NetOrder.u16(s, bth + PKEY);
    }

    public static int destQp(MemorySegment s, long bth) {
        return NetOrder.u24(s, bth + DEST_QP);
    }

    /** BECN, bit 6 of the BTH's fifth byte: a congestion notification carried back on a packet to the sender. */
    static final int BECN_BIT = 0x40;

    /** Whether the BTH at {@code bth} has its BECN bit set. */
    public static boolean becn(MemorySegment s, long bth) {
        return (NetOrder.u8(s, bth + RESV8A) & BECN_BIT) != 0;
    }

    /** Sets the BECN bit of the BTH at {@code bth} (the ICRC is not recomputed). */
    public static void setBecn(MemorySegment s, long bth) {
        NetOrder.put8(s, bth + RESV8A, NetOrder.u8(s, bth + RESV8A) | BECN_BIT);
    }

    /** Rewrites the destination QP of the BTH at {@code bth} (24 bits; the ICRC is not recomputed). */
    public static void setDestQp(MemorySegment s, long bth, int destQp) {
        NetOrder.put24(s, bth + DEST_QP, destQp & 0xFF_FFFF);
    }

    public static boolean ackRequested(MemorySegment s, long bth) {
        return (NetOrder.u8(s, bth + ACK_REQ) & 0x80) != 0;
    }

    public static int psn(MemorySegment s, long bth) {
        return NetOrder.u24(s, bth + PSN);
    }

    public static int aethSyndrome(MemorySegment s, long aeth) {
        return NetOrder.u8(s, aeth);
    }

    public static int aethMsn(MemorySegment s, long aeth) {
        return NetOrder.u24(s, aeth + 1);
    }

    /** True for the opcodes the IBTA defines for RC, UC, RD, UD, XRC, and for CNP. */
    public static boolean isKnownOpcode(int opcode) {
        return KNOWN_OPCODES[opcode & 0xFF];
    }

    /** Opcodes after whose BTH an AETH follows (ACK, RDMA READ response first/last/only, atomic ACK). */
    public static boolean carriesAeth(int opcode) {
        return switch (opcode) {
            case 0x0D, 0x0F, 0x10, 0x11, 0x12 -> true;
            default -> false;
        };
    }

    /** Opcodes that start an RDMA operation and so carry a RETH after the BTH (WRITE First/Only, READ Request). */
    public static boolean carriesReth(int opcode) {
        return switch (opcode) {
            case 0x06, 0x0A, 0x0B, 0x0C, 0x26, 0x2A, 0x2B -> true;
            default -> false;
        };
    }

    /** Opcodes "with Immediate", which carry 4 bytes of immediate data before the payload. */
    public static boolean carriesImmediate(int opcode) {
        return switch (opcode) {
            case 0x03, 0x05, 0x09, 0x0B, 0x23, 0x25, 0x29, 0x2B, 0x65 -> true;
            default -> false;
        };
    }

    /** Writes a RETH; returns the offset after it. */
    public static long writeReth(MemorySegment s, long reth, long virtualAddress, int rkey, int dmaLength) {
        NetOrder.put32(s, reth, (int) (virtualAddress >>> 32));
        NetOrder.put32(s, reth + 4, (int) virtualAddress);
        NetOrder.put32(s, reth + 8, rkey);
        NetOrder.put32(s, reth + 12, dmaLength);
        return reth + RETH_BYTES;
    }

    /** Writes a BTH; returns the offset after it. {@code padCount} is the payload's pad to 4 bytes. */
    public static long writeBth(MemorySegment s, long bth, int opcode, int padCount, int pkey,
                                int destQp, boolean ackRequest, int psn) {
        if ((destQp & ~0xFF_FFFF) != 0 || (psn & ~0xFF_FFFF) != 0) {
            throw new IllegalArgumentException("destQp and psn are 24-bit: destQp=" + destQp + " psn=" + psn);
        }
        NetOrder.put8(s, bth + OPCODE, opcode);
        NetOrder.put8(s, bth + FLAGS, (padCount & 0x3) << 4);   // SE=0, M=0, TVer=0
        NetOrder.put16(s, bth + PKEY, pkey);
        NetOrder.put8(s, bth + RESV8A, 0);
        NetOrder.put24(s, bth + DEST_QP, destQp);
        NetOrder.put8(s, bth + ACK_REQ, ackRequest ? 0x80 : 0);
        NetOrder.put24(s, bth + PSN, psn);
        return bth + BTH_BYTES;
    }

    public static long writeAeth(MemorySegment s, long aeth, int syndrome, int msn) {
        NetOrder.put8(s, aeth, syndrome);
        NetOrder.put24(s, aeth + 1, msn & 0xFF_FFFF);
        return aeth + AETH_BYTES;
    }

    public static String opcodeName(int opcode) {
        return switch (opcode) {
            case 0x00 -> "RC SEND First";
            case 0x01 -> "RC SEND Middle";
            case 0x02 -> "RC SEND Last";
            case 0x03 -> "RC SEND Last Immediate";
            case 0x04 -> "RC SEND Only";
            case 0x05 -> "RC SEND Only Immediate";
            case 0x06 -> "RC RDMA WRITE First";
            case 0x07 -> "RC RDMA WRITE Middle";
            case 0x08 -> "RC RDMA WRITE Last";
            case 0x09 -> "RC RDMA WRITE Last Immediate";
            case 0x0A -> "RC RDMA WRITE Only";
            case 0x0B -> "RC RDMA WRITE Only Immediate";
            case 0x0C -> "RC RDMA READ Request";
            case 0x0D -> "RC RDMA READ Response First";
            case 0x0E -> "RC RDMA READ Response Middle";
            case 0x0F -> "RC RDMA READ Response Last";
            case 0x10 -> "RC RDMA READ Response Only";
            case 0x11 -> "RC Acknowledge";
            case 0x12 -> "RC ATOMIC Acknowledge";
            case 0x81 -> "CNP";
            default -> isKnownOpcode(opcode) ? String.format("opcode 0x%02x", opcode) : String.format("unknown opcode 0x%02x", opcode);
        };
    }

    private static boolean[] knownOpcodes() {
        boolean[] known = new boolean[256];
        for (int op = 0x00; op <= 0x17; op++) {           // RC
            known[op] = op != 0x15;
        }
        for (int op = 0x20; op <= 0x2B; op++) {           // UC: SEND and RDMA WRITE only
            known[op] = true;
        }
        for (int op = 0x40; op <= 0x55; op++) {           // RD
            known[op] = op != 0x53;
        }
        known[0x64] = true;                               // UD SEND Only
        known[0x65] = true;                               // UD SEND Only Immediate
        known[OP_CNP] = true;
        for (int op = 0xA0; op <= 0xB7; op++) {           // XRC
            known[op] = op != 0xB5;
        }
        return known;
    }
}
