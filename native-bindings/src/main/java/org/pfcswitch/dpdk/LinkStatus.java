package org.pfcswitch.dpdk;

/**
 * A port's link as {@code rte_eth_link_get_nowait} last saw it.
 *
 * @param up         link is up
 * @param speedMbps  speed in Mbit/s; 0 when none, -1 when the PMD does not know
 * @param fullDuplex full duplex
 */
public record LinkStatus(boolean up, int speedMbps, boolean fullDuplex) {}
