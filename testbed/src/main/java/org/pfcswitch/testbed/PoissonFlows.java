package org.pfcswitch.testbed;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Open-loop flow arrivals: each sender starts flows with exponentially distributed gaps (or those
 * of another {@link InterArrivals} of the same mean), sizes drawn from a CDF, each to a receiver
 * picked uniformly from {@code receivers} (never itself), so that each sender offers {@code load}
 * of its line rate on average: arrival rate per sender = load × rate / (8 × mean size). With
 * every host both sender and receiver this is the papers' all-to-all traffic among N hosts. All
 * arrivals in [start, stop) are drawn before the run.
 */
public final class PoissonFlows implements Traffic {

    private final String name;
    private final int[] senders;
    private final int[] receivers;
    private final int priority;
    private final FlowSizeCdf sizes;
    private final double load;
    private final long startNanos;
    private final long stopNanos;
    private final InterArrivals gaps;
    private final List<Integer> ids = new ArrayList<>();

    public PoissonFlows(String name, int[] senders, int[] receivers, int priority, FlowSizeCdf sizes, double load,
                        long startNanos, long stopNanos) {
        this(name, senders, receivers, priority, sizes, load, startNanos, stopNanos, InterArrivals.POISSON);
    }

    public PoissonFlows(String name, int[] senders, int[] receivers, int priority, FlowSizeCdf sizes, double load,
                        long startNanos, long stopNanos, InterArrivals gaps) {
        if (senders.length == 0 || receivers.length == 0 || !(load > 0) || stopNanos <= startNanos) {
            throw new IllegalArgumentException("poisson '" + name + "' needs senders, receivers, load > 0 and stop > start");
        }
        this.name = name;
        this.senders = senders.clone();
        this.receivers = receivers.clone();
        this.priority = priority;
        this.sizes = sizes;
        this.load = load;
        this.startNanos = startNanos;
        this.stopNanos = stopNanos;
        this.gaps = gaps;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void install(Hosts tb, SplittableRandom random) {
        record Arrival(long at, int src, int dst, long bytes) {}
        List<Arrival> arrivals = new ArrayList<>();
        double mean = sizes.meanBytes();
        for (int s : senders) {
            double perNano = load * tb.host(s).rateBps() / (8 * mean) / 1e9;
            double t = startNanos;
            while (true) {
                t += gaps.gapNanos(random, perNano);
                if (t >= stopNanos) {
                    break;
                }
                int dst = pickReceiver(s, random);
                if (dst >= 0) {
                    arrivals.add(new Arrival((long) t, s, dst, sizes.sample(random)));
                }
            }
        }
        // Flow ids follow start times, so records read in id order read in time order.
        arrivals.sort(java.util.Comparator.comparingLong(Arrival::at).thenComparingInt(Arrival::src));
        for (Arrival a : arrivals) {
            ids.add(tb.addFlow(a.src, a.dst, priority, a.bytes, a.at));
        }
    }

    private int pickReceiver(int sender, SplittableRandom random) {
        int n = 0;
        for (int r : receivers) {
            n += r == sender ? 0 : 1;
        }
        if (n == 0) {
            return -1;
        }
        int k = random.nextInt(n);
        for (int r : receivers) {
            if (r != sender && k-- == 0) {
                return r;
            }
        }
        return -1;
    }

    @Override
    public List<Integer> flowIds() {
        return ids;
    }
}
