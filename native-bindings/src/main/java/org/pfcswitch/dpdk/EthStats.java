package org.pfcswitch.dpdk;

/**
 * The port-wide counters of {@code struct rte_eth_stats} (per-queue counters are in
 * {@link EthPort#xstats()}).
 *
 * @param rxPackets packets received
 * @param txPackets packets transmitted
 * @param rxBytes   bytes received
 * @param txBytes   bytes transmitted
 * @param rxMissed  packets the hardware dropped because no rx descriptor was free ({@code imissed})
 * @param rxErrors  erroneous received packets
 * @param txErrors  failed transmissions
 * @param rxNoMbuf  rx allocation failures: the mempool was empty
 */
public record EthStats(long rxPackets, long txPackets, long rxBytes, long txBytes,
                       long rxMissed, long rxErrors, long txErrors, long rxNoMbuf) {}
