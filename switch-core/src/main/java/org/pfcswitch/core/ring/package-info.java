/**
 * Lock-free hand-off between two threads: {@link org.pfcswitch.core.ring.SpscLongRing}, the one
 * single-producer single-consumer ring of fixed-size {@code long} records that the trace, the
 * arrival recorder, the PFC watchdog's and the deadlock watch's reports are carried in.
 */
package org.pfcswitch.core.ring;
