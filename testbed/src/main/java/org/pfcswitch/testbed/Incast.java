package org.pfcswitch.testbed;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * N senders × {@code bytes} each to one receiver, all starting at {@code startNanos} (an incast
 * burst). With {@code repeatUntilNanos} after the start, each sender starts its next flow of the
 * same size the moment its previous one is out on the wire, until that time: the SPFC paper's
 * §III bursts, which "begin at 1 ms and last for about 11 ms in total" (SPFC spec A17).
 */
public final class Incast implements Traffic, FlowListener {

    private final String name;
    private final int[] senders;
    private final int receiver;
    private final int priority;
    private final long bytes;
    private final long startNanos;
    private final long repeatUntilNanos;
    private final List<Integer> ids = new ArrayList<>();
    private Hosts tb;
    private int firstId = Integer.MAX_VALUE;
    private boolean[] mine = new boolean[0];

    public Incast(String name, int[] senders, int receiver, int priority, long bytes, long startNanos,
                  long repeatUntilNanos) {
        if (senders.length == 0 || bytes <= 0) {
            throw new IllegalArgumentException("incast '" + name + "' needs at least one sender and > 0 bytes");
        }
        this.name = name;
        this.senders = senders.clone();
        this.receiver = receiver;
        this.priority = priority;
        this.bytes = bytes;
        this.startNanos = startNanos;
        this.repeatUntilNanos = repeatUntilNanos;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void install(Hosts testbed, SplittableRandom random) {
        this.tb = testbed;
        for (int s : senders) {
            add(s, startNanos);
        }
        if (repeatUntilNanos > startNanos) {
            testbed.addListener(this);
        }
    }

    @Override
    public void onFlowSent(int flow, long now) {
        if (isMine(flow) && now < repeatUntilNanos) {
            add(tb.records().src(flow), now);
        }
    }

    private void add(int sender, long at) {
        int id = tb.addFlow(sender, receiver, priority, bytes, at);
        ids.add(id);
        firstId = Math.min(firstId, id);
        if (id >= mine.length) {
            mine = java.util.Arrays.copyOf(mine, Math.max(id + 1, mine.length * 2));
        }
        mine[id] = true;
    }

    private boolean isMine(int flow) {
        return flow >= firstId && flow < mine.length && mine[flow];
    }

    @Override
    public List<Integer> flowIds() {
        return ids;
    }
}
