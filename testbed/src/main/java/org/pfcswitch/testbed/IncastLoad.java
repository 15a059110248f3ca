package org.pfcswitch.testbed;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Incast as a share of the load: open-loop incast events, each {@code fanIn} senders picked
 * uniformly (without repeats) from {@code senders} starting {@code bytes} each at the same instant
 * to one receiver picked uniformly from {@code receivers} (never one of its senders). The events
 * offer {@code load} of the senders' combined line rate on average: event rate = load × (sum of
 * the senders' rates) / (8 × fanIn × bytes), with gaps from {@code gaps}. Beside a background
 * generator at load x, this makes the papers' mixes: BFC §6's 5 % of the load as 100-to-1 incasts
 * of 20 MB in all, DSH §V-B's 16-to-1 fan-ins of 64 KB per flow. All events in [start, stop) are
 * drawn before the run.
 */
public final class IncastLoad implements Traffic {

    private final String name;
    private final int[] senders;
    private final int[] receivers;
    private final int fanIn;
    private final int priority;
    private final long bytes;
    private final double load;
    private final long startNanos;
    private final long stopNanos;
    private final InterArrivals gaps;
    private final List<Integer> ids = new ArrayList<>();

    public IncastLoad(String name, int[] senders, int[] receivers, int fanIn, int priority, long bytes, double load,
                      long startNanos, long stopNanos, InterArrivals gaps) {
        if (receivers.length == 0 || fanIn < 1 || bytes <= 0 || !(load > 0) || stopNanos <= startNanos) {
            throw new IllegalArgumentException("incast load '" + name + "' needs receivers, fanIn >= 1, bytes > 0, load > 0"
                    + " and stop > start");
        }
        for (int r : receivers) {
            if (eligible(senders, r) < fanIn) {
                throw new IllegalArgumentException("incast load '" + name + "': fanIn " + fanIn + " needs as many senders"
                        + " besides receiver " + r + ", there are " + eligible(senders, r));
            }
        }
        this.name = name;
        this.senders = senders.clone();
        this.receivers = receivers.clone();
        this.fanIn = fanIn;
        this.priority = priority;
        this.bytes = bytes;
        this.load = load;
        this.startNanos = startNanos;
        this.stopNanos = stopNanos;
        this.gaps = gaps;
    }

    private static int eligible(int[] senders, int receiver) {
        int n = 0;
        for (int s : senders) {
            n += s == receiver ? 0 : 1;
        }
        return n;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void install(Hosts tb, SplittableRandom random) {
        double senderBps = 0;
        for (int s : senders) {
            senderBps += tb.host(s).rateBps();
        }
        double perNano = load * senderBps / (8.0 * fanIn * bytes) / 1e9;
        int[] pool = new int[senders.length];
        double t = startNanos;
        while (true) {
            t += gaps.gapNanos(random, perNano);
            if (t >= stopNanos) {
                break;
            }
            int dst = receivers[random.nextInt(receivers.length)];
            int n = 0;
            for (int s : senders) {
                if (s != dst) {
                    pool[n++] = s;
                }
            }
            for (int k = 0; k < fanIn; k++) {          // a partial Fisher-Yates shuffle: fanIn distinct senders
                int pick = k + random.nextInt(n - k);
                int src = pool[pick];
                pool[pick] = pool[k];
                pool[k] = src;
                ids.add(tb.addFlow(src, dst, priority, bytes, (long) t));
            }
        }
    }

    @Override
    public List<Integer> flowIds() {
        return ids;
    }
}
