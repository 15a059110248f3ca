package org.pfcswitch.testbed;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Synchronised open-loop arrivals: one Poisson process shared by a group of senders. Each arrival
 * starts one flow from every sender of the group at the same instant, all of the same size (drawn
 * once per arrival from the CDF) and to the same receiver (drawn once per arrival, uniformly from
 * {@code receivers}): the SPFC paper's §VII-C burst hosts, whose "workload generators ... are set
 * to be synchronous to simulate concurrent bursts" (a synchronous generator draws the same times,
 * sizes and destinations on every host).
 *
 * <p>{@code load} is what the whole group offers to the receivers' links: payload bits per second
 * as a fraction of the combined line rate of the {@code receivers}' links. With one receiver that
 * is the fraction of that receiver's link (the bottleneck every flow of an arrival shares); with
 * several of equal speed, each gets {@code load} of its link on average. So the arrival rate is
 * load × (sum of receiver rates) / (8 × mean size × group size). All arrivals in [start, stop)
 * are drawn before the run.
 */
public final class SynchronizedPoissonFlows implements Traffic {

    /** One arrival of the shared process: every sender starts a flow of {@code bytes} to {@code dst} at {@code at}. */
    record Arrival(long at, int dst, long bytes) {}

    private final String name;
    private final int[] senders;
    private final int[] receivers;
    private final int priority;
    private final FlowSizeCdf sizes;
    private final double load;
    private final long startNanos;
    private final long stopNanos;
    private final List<Integer> ids = new ArrayList<>();

    public SynchronizedPoissonFlows(String name, int[] senders, int[] receivers, int priority, FlowSizeCdf sizes,
                                    double load, long startNanos, long stopNanos) {
        if (senders.length == 0 || receivers.length == 0 || !(load > 0) || stopNanos <= startNanos) {
            throw new IllegalArgumentException("synchronized poisson '" + name
                    + "' needs senders, receivers, load > 0 and stop > start");
        }
        for (int r : receivers) {
            for (int s : senders) {
                if (r == s) {
                    throw new IllegalArgumentException("synchronized poisson '" + name
                            + "': host " + r + " is both a sender and a receiver");
                }
            }
        }
        this.name = name;
        this.senders = senders.clone();
        this.receivers = receivers.clone();
        this.priority = priority;
        this.sizes = sizes;
        this.load = load;
        this.startNanos = startNanos;
        this.stopNanos = stopNanos;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void install(Hosts tb, SplittableRandom random) {
        double capacityBps = 0;
        for (int r : receivers) {
            capacityBps += tb.host(r).rateBps();
        }
        for (Arrival a : arrivals(random, capacityBps)) {
            for (int s : senders) {       // flow ids follow start times, then sender order
                ids.add(tb.addFlow(s, a.dst, priority, a.bytes, a.at));
            }
        }
    }

    /** Arrivals of the shared process per nanosecond, given the receivers' combined line rate. */
    double arrivalsPerNano(double receiverCapacityBps) {
        return load * receiverCapacityBps / (8 * sizes.meanBytes() * senders.length) / 1e9;
    }

    /** The group's arrivals in [start, stop), in time order, drawn from {@code random}. */
    List<Arrival> arrivals(SplittableRandom random, double receiverCapacityBps) {
        double perNano = arrivalsPerNano(receiverCapacityBps);
        List<Arrival> out = new ArrayList<>();
        double t = startNanos;
        while (true) {
            t += InterArrivals.POISSON.gapNanos(random, perNano);
            if (t >= stopNanos) {
                return out;
            }
            int dst = receivers[random.nextInt(receivers.length)];
            out.add(new Arrival((long) t, dst, sizes.sample(random)));
        }
    }

    @Override
    public List<Integer> flowIds() {
        return ids;
    }
}
