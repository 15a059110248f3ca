package org.pfcswitch.testbed;

/**
 * DCQCN parameters of the emulated NICs: the reaction point (RP, the sender's rate limiter) and
 * the notification point (NP, the receiver's CNP generator). Times in nanoseconds, rates in bit/s.
 *
 * <p>Defaults are DCQCN "as used by the papers": their simulators are the HPCC ns-3 artifact
 * (alibaba-edu/High-Precision-Congestion-Control; Reverie's and DSH's ns-3 code derive from it),
 * whose {@code simulation/run.py} profile {@code dcqcn_paper} sets the timings of the DCQCN paper
 * on the Mellanox model in {@code rdma-hw.cc}. That model has no byte counter and its template sets
 * one fast-recovery step, so those two come from the DCQCN authors' own simulator
 * (bobzhuyb/ns3-rdma {@code mix/config.txt}):
 *
 * <table>
 *   <tr><th>parameter</th><th>default</th><th>source</th></tr>
 *   <tr><td>g (alpha gain)</td><td>1/256</td><td>HPCC run.py {@code EWMA_GAIN 0.00390625}</td></tr>
 *   <tr><td>alpha update interval</td><td>50 us</td><td>HPCC run.py dcqcn_paper {@code t_alpha=50}</td></tr>
 *   <tr><td>rate-increase timer</td><td>55 us</td><td>HPCC run.py dcqcn_paper {@code t_inc=55}</td></tr>
 *   <tr><td>byte counter</td><td>300,000 B</td><td>ns3-rdma {@code BYTE_COUNTER 300000}</td></tr>
 *   <tr><td>fast-recovery steps F</td><td>5</td><td>ns3-rdma {@code FAST_RECOVERY_TIMES 5}; HPCC rdma-hw.cc default</td></tr>
 *   <tr><td>additive increase</td><td>5 Mb/s per 25 Gb/s of line rate (20 Mb/s at 100G)</td><td>HPCC run.py {@code ai = 5*bw/25}</td></tr>
 *   <tr><td>hyper increase</td><td>50 Mb/s per 25 Gb/s (200 Mb/s at 100G)</td><td>HPCC run.py {@code hai = 50*bw/25}</td></tr>
 *   <tr><td>minimum rate</td><td>1 Gb/s</td><td>HPCC run.py {@code MIN_RATE 1000Mb/s}</td></tr>
 *   <tr><td>initial alpha</td><td>1</td><td>HPCC rdma-hw.cc (alpha = 1 on the first CNP)</td></tr>
 *   <tr><td>CNP interval (NP)</td><td>50 us</td><td>ns3-rdma {@code CNP_INTERVAL 50}; HPCC dcqcn_paper {@code t_dec=50}</td></tr>
 * </table>
 *
 * The switch side of DCQCN (RED/ECN marking: kmin/kmax/pmax) is the MMU's, with the same
 * simulators' defaults (mmu/README.md).
 *
 * @param enabled              false = no congestion control: every QP sends at line rate
 * @param g                    EWMA gain of alpha
 * @param alphaIntervalNanos   alpha decays by (1 - g) after each interval without a CNP
 * @param timerNanos           the rate-increase timer period
 * @param byteCounterBytes     a rate-increase event every this many bytes sent; 0 = timer only
 * @param fastRecoverySteps    F: increase events before additive increase starts
 * @param aiBpsPer25G          additive-increase step per 25 Gb/s of NIC line rate
 * @param haiBpsPer25G         hyper-increase step per 25 Gb/s of NIC line rate
 * @param minRateBps           the rate never drops below this
 * @param initialAlpha         alpha before the first CNP
 * @param cnpIntervalNanos     the NP sends at most one CNP per QP per interval
 */
public record DcqcnConfig(boolean enabled, double g, long alphaIntervalNanos, long timerNanos, long byteCounterBytes,
                          int fastRecoverySteps, long aiBpsPer25G, long haiBpsPer25G, long minRateBps,
                          double initialAlpha, long cnpIntervalNanos) {

    public DcqcnConfig {
        if (enabled) {
            require(g > 0 && g <= 1, "g must be in (0, 1]", g);
            require(alphaIntervalNanos > 0, "alphaInterval must be > 0", alphaIntervalNanos);
            require(timerNanos > 0, "timer must be > 0", timerNanos);
            require(byteCounterBytes >= 0, "byteCounter must be >= 0", byteCounterBytes);
            require(fastRecoverySteps >= 0, "fastRecoverySteps must be >= 0", fastRecoverySteps);
            require(aiBpsPer25G >= 0 && haiBpsPer25G >= 0, "rate steps must be >= 0", aiBpsPer25G);
            require(minRateBps > 0, "minRate must be > 0", minRateBps);
            require(initialAlpha >= 0 && initialAlpha <= 1, "initialAlpha must be in [0, 1]", initialAlpha);
            require(cnpIntervalNanos >= 0, "cnpInterval must be >= 0", cnpIntervalNanos);
        }
    }

    /** The defaults above. */
    public static DcqcnConfig defaults() {
        return new DcqcnConfig(true, 1.0 / 256, 50_000, 55_000, 300_000, 5, 5_000_000, 50_000_000,
                1_000_000_000L, 1.0, 50_000);
    }

    /** No congestion control: line rate, no CNPs. */
    public static DcqcnConfig none() {
        return new DcqcnConfig(false, 1.0 / 256, 50_000, 55_000, 300_000, 5, 5_000_000, 50_000_000,
                1_000_000_000L, 1.0, 50_000);
    }

    private static void require(boolean ok, String rule, Object value) {
        if (!ok) {
            throw new IllegalArgumentException("dcqcn." + rule + ", got " + value);
        }
    }
}
