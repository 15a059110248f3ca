package org.pfcswitch.core.deadlock;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The PFC state of every port of a switch whose ports are split among workers, as each worker last
 * published its own ports: what one worker's deadlock search reads of the whole switch.
 *
 * <p>Each worker writes only its own ports' records ({@link #publish}, at each of its deadlock
 * checks, every {@code deadlock.check}), with opaque stores; the searching worker reads them with
 * opaque loads. A value is never torn; values of different ports may be from different instants.
 * <b>Staleness:</b> a port's record is at most one check interval plus one poll-loop pass old
 * (longer only while its worker is stalled). A cycle is reported only after the search has found it
 * at every check for {@code deadlock.persist}, so a stale view delays a report by at most one
 * interval, and a cycle that only records of different instants show is not reported unless it
 * keeps showing for that long. Whether an egress queue is paused is published as it was at the
 * publication, not as a pause timer: a pause that ended since looks paused until the next one.
 */
public final class PublishedPfcPorts implements PfcPortState {

    private static final int PRIORITIES = LocalWaitFor.PRIORITIES;
    private static final int XOFF = 0;
    private static final int PAUSED = 1;
    private static final int SENDER_MAC = 2;
    private static final int PORT_MAC = 3;
    private static final int QUEUED = 4;
    private static final int STRIDE = QUEUED + PRIORITIES;
    private static final VarHandle CELL = MethodHandles.arrayElementVarHandle(long[].class);

    private final int ports;
    private final int[] workerOf;
    private final long[] cells;

    /** @param workerOf by port, the worker that owns (and publishes) it */
    public PublishedPfcPorts(int[] workerOf) {
        this.ports = workerOf.length;
        this.workerOf = workerOf.clone();
        this.cells = new long[ports * STRIDE];
    }

    /** Publishes the ports worker {@code worker} owns, as {@code core} sees them at {@code now}; on that worker's thread. */
    public void publish(PfcPortState core, int worker, long now) {
        for (int p = 0; p < ports; p++) {
            if (workerOf[p] != worker) {
                continue;
            }
            long xoff = 0;
            long paused = 0;
            int base = p * STRIDE;
            for (int q = 0; q < PRIORITIES; q++) {
                xoff |= core.isAdvertisingXoff(p, q) ? 1L << q : 0;
                paused |= core.isPaused(p, q, now) ? 1L << q : 0;
                CELL.setOpaque(cells, base + QUEUED + q, core.queuedBytes(p, q));
            }
            CELL.setOpaque(cells, base + XOFF, xoff);
            CELL.setOpaque(cells, base + PAUSED, paused);
            CELL.setOpaque(cells, base + SENDER_MAC, core.pfcSenderMac(p));
            CELL.setOpaque(cells, base + PORT_MAC, core.portMac(p));
        }
    }

    private long cell(int port, int field) {
        return (long) CELL.getOpaque(cells, port * STRIDE + field);
    }

    @Override
    public int ports() {
        return ports;
    }

    @Override
    public boolean isAdvertisingXoff(int port, int priority) {
        return (cell(port, XOFF) >>> priority & 1) != 0;
    }

    @Override
    public long queuedBytes(int port, int queue) {
        return cell(port, QUEUED + queue);
    }

    /** Paused as it was when the port's worker last published it ({@code now} is not used). */
    @Override
    public boolean isPaused(int port, int queue, long now) {
        return (cell(port, PAUSED) >>> queue & 1) != 0;
    }

    @Override
    public long pfcSenderMac(int port) {
        return cell(port, SENDER_MAC);
    }

    @Override
    public long portMac(int port) {
        return cell(port, PORT_MAC);
    }
}
