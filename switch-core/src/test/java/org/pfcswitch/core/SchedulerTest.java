package org.pfcswitch.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.pfcswitch.codec.FrameParser;
import org.pfcswitch.codec.MacControl;
import org.pfcswitch.codec.ParsedFrame;

/** Which queue an egress port serves next: strict priority, DWRR, and ETS (both). */
class SchedulerTest {

    private static final int OUT = 1;

    @Test
    void strictPriorityServesTheHighestBackloggedPriorityFirst() {
        List<Integer> order = drainBacklog(SchedulerPolicy.strictPriority(), new int[] {1, 3, 5}, 4, 12);
        assertEquals(List.of(5, 5, 5, 5, 3, 3, 3, 3, 1, 1, 1, 1), order);
    }

    @Test
    void dwrrSharesTheLineByWeight() {
        int[] weights = {1, 1, 1, 3, 1, 1, 1, 1};
        List<Integer> order = drainBacklog(SchedulerPolicy.dwrr(weights), new int[] {1, 3}, 60, 40);
        long threes = order.stream().filter(p -> p == 3).count();
        // 3 KiB of credit a round against 1 KiB: 30 of 40 frames, within one round's quantum
        assertTrue(threes >= 28 && threes <= 32, "priority 3 got " + threes + " of 40: " + order);
    }

    @Test
    void etsServesStrictQueuesBeforeTheWeightedOnes() {
        int[] weights = {1, 1, 1, 1, 1, 1, 1, 1};
        List<Integer> order = drainBacklog(SchedulerPolicy.ets(1 << 1, weights), new int[] {1, 3, 5}, 3, 9);
        assertEquals(List.of(1, 1, 1), order.subList(0, 3));
        assertEquals(3, order.subList(3, 9).stream().filter(p -> p == 5).count(), "DWRR alternates 3 and 5: " + order);
    }

    /** Queues {@code perPriority} frames of each priority behind a pause, resumes, and returns the first {@code take}. */
    private static List<Integer> drainBacklog(SchedulerPolicy policy, int[] priorities, int perPriority, int take) {
        CoreConfig config = Configs.core(Configs.mmu(2, "dt").build()).scheduler(OUT, policy).build();
        CoreRig rig = new CoreRig(config);
        rig.receivePfc(OUT, 0xFF, MacControl.MAX_QUANTA, 0);
        for (int i = 0; i < perPriority; i++) {
            for (int p : priorities) {
                rig.receiveRoce(0, Configs.host(OUT), Configs.host(0), p * 8, 1000, 10 + i);
            }
        }
        rig.receivePfc(OUT, 0xFF, 0, 1_000);
        rig.runUntil(10_000_000);
        return rig.sentOn(OUT).stream().limit(take).map(SchedulerTest::priorityOf).toList();
    }

    private static int priorityOf(CoreRig.Sent s) {
        ParsedFrame f = new ParsedFrame();
        FrameParser.parse(MemorySegment.ofArray(s.bytes()), f);
        return f.dscp() / 8;
    }
}
