package org.pfcswitch.testbed;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import java.lang.foreign.MemorySegment;

import org.pfcswitch.codec.Roce;
import org.pfcswitch.codec.RoceFrameBuilder;

/**
 * The sending side of one RDMA WRITE flow (a queue pair): {@code sizeBytes} cut into messages of
 * at most {@link #MAX_MESSAGE_BYTES}, each message cut into packets of the path MTU's payload
 * (WRITE First with the RETH, Middle, Last; Only for a one-packet message). The frame template is
 * set once; per packet only the opcode, PSN and payload length change, so sending allocates no
 * object.
 *
 * <p>Full-size Middle packets, nearly all of a long flow, take a fast path: their headers are
 * copied from a prebuilt frame and the PSN patched in; their payload bytes are not rewritten
 * (RDMA payload content means nothing here, and neither the switch nor the receiver reads it).
 *
 * <p>One object per flow carries both ends' state: the sender's (PSN, pacing, DCQCN reaction
 * point) and the receiver's (expected PSN, last CNP time), so a host finds everything by the QP
 * number a frame carries.
 */
final class Flow {

    /** Largest message: a RETH carries a 32-bit DMA length. */
    static final long MAX_MESSAGE_BYTES = 1L << 30;

    final int id;
    final int src;
    final int dst;
    final int priority;
    final long sizeBytes;
    final int payloadMtu;
    /** The reaction point, or null without congestion control (line rate). */
    final Dcqcn cc;
    /** The UDP source port of its frames, ACKs and CNPs. */
    final int udpSrcPort;
    private final RoceFrameBuilder frame;
    /** Pacing: the rate limiter lets the next packet start no earlier than this. */
    long nextSendAt;
    /** Receiver side: the PSN the next packet must carry (one past the highest received). */
    int expectedPsn;
    /** Receiver side (notification point): when the last CNP for this QP left, or MIN_VALUE. */
    long lastCnpAt = Long.MIN_VALUE;
    /**
     * The copies of this flow that the sender's clone ports replay, one per clone port in the
     * sender's clone order, or null: same size, priority and receiver, each with the clone port's
     * own MAC, IP and QP (see {@link Testbed.Builder#cloneOf}).
     */
    Flow[] shadows;
    private long sentBytes;
    private long messageLeft;
    private int psn;
    private boolean started;
    private int nextOpcode;
    private MemorySegment middleFrame;      // a full-size Middle packet, built on first use
    private int middleHeaderBytes;          // its bytes up to the end of the BTH

    Flow(int id, int src, int dst, int priority, long sizeBytes, int payloadMtu, RoceFrameBuilder template, Dcqcn cc,
         int udpSrcPort) {
        this.id = id;
        this.udpSrcPort = udpSrcPort;
        this.src = src;
        this.dst = dst;
        this.cc = cc;
        this.priority = priority;
        this.sizeBytes = sizeBytes;
        this.payloadMtu = payloadMtu;
        this.frame = template;
    }

    void start() {
        started = true;
    }

    /** Started and not finished sending. */
    boolean hasData() {
        return started && sentBytes < sizeBytes;
    }

    /** Every byte has been put on the wire. */
    boolean sentAll() {
        return sentBytes >= sizeBytes;
    }

    /** The PSN the last packet of the flow carries (what its final ACK acknowledges). */
    int lastPsn() {
        return (int) ((packets() - 1) & 0xFF_FFFF);
    }

    /** Payload of the next packet. */
    int nextPayload() {
        long messageLeftNow = messageLeft > 0 ? messageLeft : Math.min(MAX_MESSAGE_BYTES, sizeBytes - sentBytes);
        return (int) Math.min(payloadMtu, messageLeftNow);
    }

    /** Length of the next frame (to allocate its buffer). */
    int nextFrameLength() {
        prepareNext();
        return frame.frameLength();
    }

    /** Writes the next packet at {@code offset}; returns its payload bytes. Call after {@link #nextFrameLength}. */
    int writeNext(MemorySegment bytes, long offset) {
        int payload = nextPayload();
        if (nextOpcode == Roce.OP_RC_WRITE_MIDDLE && payload == payloadMtu) {
            writeFullMiddle(bytes, offset);
        } else {
            frame.write(bytes, offset);
        }
        if (messageLeft == 0) {
            messageLeft = Math.min(MAX_MESSAGE_BYTES, sizeBytes - sentBytes);
        }
        messageLeft -= payload;
        sentBytes += payload;
        psn = (psn + 1) & 0xFF_FFFF;
        return payload;
    }

    /** {@link #receivedPsn}: the packet is behind the expected PSN (reordered on the way). */
    static final int LATE = -1;

    /**
     * Receiver side: a packet with {@code psn} arrived. Returns how many PSNs it skipped past the
     * expected one (0: in order), or {@link #LATE} when it is behind it (24-bit serial arithmetic:
     * more than half the PSN space ahead is behind). The expected PSN never goes backwards, so a
     * late packet cannot hide a lost one.
     */
    int receivedPsn(int psn) {
        int ahead = (psn - expectedPsn) & 0xFF_FFFF;
        if (ahead >= 1 << 23) {
            return LATE;
        }
        expectedPsn = (psn + 1) & 0xFF_FFFF;
        return ahead;
    }

    /** The PSN of the frame {@link #writeNext} wrote last. */
    int writtenPsn() {
        return (psn - 1) & 0xFF_FFFF;
    }

    private void prepareNext() {
        boolean first = messageLeft == 0;
        long message = first ? Math.min(MAX_MESSAGE_BYTES, sizeBytes - sentBytes) : messageLeft;
        int payload = nextPayload();
        boolean last = payload == message;
        int opcode = first && last ? Roce.OP_RC_WRITE_ONLY
                : first ? Roce.OP_RC_WRITE_FIRST
                : last ? Roce.OP_RC_WRITE_LAST
                : Roce.OP_RC_WRITE_MIDDLE;
        nextOpcode = opcode;
        frame.opcode(opcode).psn(psn).payloadBytes(payload).ackRequest(last);
        if (first) {
            frame.reth(0x1000_0000L * (id + 1), 0x100 + id, (int) message);
        }
    }

    private void writeFullMiddle(MemorySegment bytes, long offset) {
        if (middleFrame == null) {
            middleFrame = HeapSlab.aside(frame.frameLength());
            frame.write(middleFrame, 0);
            middleHeaderBytes = frame.frameLength() - ((payloadMtu + 3) & ~3) - Roce.ICRC_BYTES;
        }
        MemorySegment.copy(middleFrame, 0, bytes, offset, middleHeaderBytes);
        long psnField = offset + middleHeaderBytes - 3;      // the BTH ends with the 24-bit PSN
        bytes.set(JAVA_BYTE, psnField, (byte) (psn >>> 16));
        bytes.set(JAVA_BYTE, psnField + 1, (byte) (psn >>> 8));
        bytes.set(JAVA_BYTE, psnField + 2, (byte) psn);
    }

    /** Packets the whole flow takes. */
    long packets() {
        long full = sizeBytes / MAX_MESSAGE_BYTES;
        long rest = sizeBytes % MAX_MESSAGE_BYTES;
        long perFull = (MAX_MESSAGE_BYTES + payloadMtu - 1) / payloadMtu;
        return full * perFull + (rest + payloadMtu - 1) / payloadMtu;
    }
}
