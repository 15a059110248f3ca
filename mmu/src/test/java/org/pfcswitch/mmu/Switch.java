package org.pfcswitch.mmu;

import java.util.ArrayDeque;

/**
 * A test stand-in for the switch core: per egress (port, queue) FIFOs of admitted packets, so tests
 * can send, dequeue and drain through the real {@link Mmu} exactly as the dataplane will.
 */
final class Switch implements FlowControlListener {
    record Packet(int inPort, int priority, int outPort, int queue, int bytes) {}

    final Mmu mmu;
    final MmuConfig cfg;
    private final ArrayDeque<Packet>[] egress;
    long xoffs;
    long xons;
    FlowControlListener also = FlowControlListener.NONE;

    @SuppressWarnings("unchecked")
    Switch(MmuConfig cfg) {
        this.cfg = cfg;
        this.mmu = Mmu.create(cfg, this);
        this.egress = new ArrayDeque[cfg.portCount() * MmuConfig.PRIORITIES];
        for (int i = 0; i < egress.length; i++) {
            egress[i] = new ArrayDeque<>();
        }
    }

    /** Offers one packet; returns the verdict. */
    int send(int inPort, int priority, int outPort, int queue, int bytes, long now) {
        int v = mmu.admit(inPort, priority, outPort, queue, bytes, now);
        if (Verdict.isAdmitted(v)) {
            egress[BufferLedger.key(outPort, queue)].addLast(new Packet(inPort, priority, outPort, queue, bytes));
        }
        return v;
    }

    /** Transmits the head of egress queue (outPort, queue); false if it is empty. */
    boolean dequeue(int outPort, int queue, long now) {
        Packet p = egress[BufferLedger.key(outPort, queue)].pollFirst();
        if (p == null) {
            return false;
        }
        mmu.release(p.inPort(), p.priority(), p.outPort(), p.queue(), p.bytes(), now);
        return true;
    }

    int queued(int outPort, int queue) {
        return egress[BufferLedger.key(outPort, queue)].size();
    }

    /** Releases every queued packet, round robin over the egress queues. */
    void drain(long now) {
        boolean any = true;
        while (any) {
            any = false;
            for (int k = 0; k < egress.length; k++) {
                if (dequeue(k >>> 3, k & 7, now)) {
                    any = true;
                }
            }
        }
    }

    boolean paused(int port, int priority) {
        return mmu.flowControl().isAdvertisedXoff(port, priority);
    }

    @Override
    public void onXoff(int port, int priority, long nowNanos) {
        xoffs++;
        also.onXoff(port, priority, nowNanos);
    }

    @Override
    public void onXon(int port, int priority, long nowNanos) {
        xons++;
        also.onXon(port, priority, nowNanos);
    }
}
