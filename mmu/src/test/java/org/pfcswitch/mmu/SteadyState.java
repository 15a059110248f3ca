package org.pfcswitch.mmu;

/**
 * A fluid-like steady-state driver: every round each flow offers one packet (a lossless flow only
 * while its priority is not advertised paused: an upstream that obeys at once), and every egress
 * queue drains one packet every {@code drainEvery} rounds, so congested queues hover at their
 * thresholds. Averages occupancies over the second half of the run.
 */
final class SteadyState {
    record Flow(int inPort, int priority, int outPort) {}

    private SteadyState() {}

    /**
     * @param stepNs time between events; make it much longer than a filter's time constant to read
     *               a filtered scheme's steady state (filtered = instantaneous)
     * @return per flow, the average bytes it holds: its ingress queue outside headroom for lossless,
     *         its egress queue for lossy
     */
    static double[] averages(Switch sw, Flow[] flows, int rounds, int drainEvery, int len, long stepNs) {
        double[] sum = new double[flows.length];
        int samples = 0;
        long now = 0;
        BufferLedger l = sw.mmu.ledger();
        for (int r = 0; r < rounds; r++) {
            for (Flow f : flows) {
                if (!sw.paused(f.inPort(), f.priority())) {
                    sw.send(f.inPort(), f.priority(), f.outPort(), f.priority(), len, now += stepNs);
                }
            }
            if (r % drainEvery == 0) {
                for (Flow f : flows) {
                    sw.dequeue(f.outPort(), f.priority(), now += stepNs);
                }
            }
            if (r >= rounds / 2) {
                samples++;
                for (int i = 0; i < flows.length; i++) {
                    Flow f = flows[i];
                    if (sw.cfg.isLossless(f.priority())) {
                        int k = BufferLedger.key(f.inPort(), f.priority());
                        sum[i] += l.ingressBytes(k) - l.ingressHeadroom(k);
                    } else {
                        sum[i] += l.egressBytes(BufferLedger.key(f.outPort(), f.priority()));
                    }
                }
            }
        }
        for (int i = 0; i < sum.length; i++) {
            sum[i] /= samples;
        }
        return sum;
    }
}
