package org.pfcswitch.mmu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * What one worker's ledger shows of the buffer when three workers share it: its own bytes exact,
 * the other workers' switch-wide and egress bytes as they last published them, each view the same
 * sum of segments that one ledger keeping the whole buffer shows.
 */
class LedgerPeersViewTest {

    private static final int PORTS = 6;
    private static final int LOSSLESS = 3;
    private static final int LOSSY = 0;

    @Test
    void everySwitchWideViewAddsWhatTheOthersPublished() {
        LedgerPeers peers = new LedgerPeers(3, PORTS, 1 << 20, 1600);
        BufferLedger[] workers = {new BufferLedger(PORTS, peers, 0), new BufferLedger(PORTS, peers, 1),
                new BufferLedger(PORTS, peers, 2)};
        BufferLedger whole = new BufferLedger(PORTS);
        // each worker charges its own ports' ingress, towards ports of every worker
        long bytes = 100;
        for (int w = 0; w < 3; w++) {
            for (int segment : new int[] {Verdict.PRIVATE, Verdict.SHARED, Verdict.HEADROOM}) {
                for (int priority : new int[] {LOSSLESS, LOSSY}) {
                    boolean lossless = priority == LOSSLESS;
                    if (segment == Verdict.HEADROOM && !lossless) {
                        continue;
                    }
                    int in = BufferLedger.key(2 * w, priority);
                    int out = BufferLedger.key((2 * w + 3) % PORTS, priority);
                    workers[w].charge(in, out, lossless, segment, bytes);
                    whole.charge(in, out, lossless, segment, bytes);
                    bytes += 37;
                }
            }
        }
        // worker 1 has not published yet: the others see none of its bytes
        workers[0].publish();
        workers[2].publish();
        long unpublished = workers[1].ownTotalUsed();
        assertEquals(whole.totalUsed() - unpublished, workers[0].totalUsed(), "total before worker 1 publishes");
        assertEquals(whole.totalUsed() - unpublished, workers[2].totalUsed(), "total before worker 1 publishes");
        workers[1].publish();
        for (BufferLedger view : workers) {
            assertEquals(whole.totalUsed(), view.totalUsed(), "total");
            assertEquals(whole.sharedUsed(), view.sharedUsed(), "shared");
            assertEquals(whole.sharedUsedLossless(), view.sharedUsedLossless(), "shared lossless");
            assertEquals(whole.sharedUsedLossy(), view.sharedUsedLossy(), "shared lossy");
            assertEquals(whole.privateUsed(), view.privateUsed(), "private");
            assertEquals(whole.headroomUsed(), view.headroomUsed(), "headroom");
            assertEquals(whole.egressUsedLossless(), view.egressUsedLossless(), "egress lossless");
            assertEquals(whole.egressUsedLossy(), view.egressUsedLossy(), "egress lossy");
            for (int k = 0; k < PORTS * MmuConfig.PRIORITIES; k++) {
                assertEquals(whole.egressBytes(k), view.egressBytes(k), "egress key " + k);
            }
            for (int p = 0; p < PORTS; p++) {
                assertEquals(whole.egressPortBytes(p), view.egressPortBytes(p), "egress port " + p);
            }
        }
        // a release is seen by the others once published
        workers[1].release(BufferLedger.key(2, LOSSLESS), BufferLedger.key(5, LOSSLESS), true, 150);
        whole.release(BufferLedger.key(2, LOSSLESS), BufferLedger.key(5, LOSSLESS), true, 150);
        assertEquals(whole.totalUsed() + 150, workers[0].totalUsed(), "total before the release is published");
        workers[1].publish();
        assertEquals(whole.sharedUsed(), workers[0].sharedUsed(), "shared after the release is published");
        assertEquals(whole.totalUsed(), workers[0].totalUsed(), "total after the release is published");
    }
}
