package org.pfcswitch.testbed;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** One RDMA WRITE flow of a fixed (typically huge) size from {@code src} to {@code dst}, starting at {@code startNanos}. */
public record LongLivedFlow(String name, int src, int dst, int priority, long bytes, long startNanos,
                            List<Integer> ids) implements Traffic {

    public LongLivedFlow(String name, int src, int dst, int priority, long bytes, long startNanos) {
        this(name, src, dst, priority, bytes, startNanos, new ArrayList<>());
    }

    @Override
    public void install(Hosts tb, SplittableRandom random) {
        ids.add(tb.addFlow(src, dst, priority, bytes, startNanos));
    }

    @Override
    public List<Integer> flowIds() {
        return ids;
    }
}
