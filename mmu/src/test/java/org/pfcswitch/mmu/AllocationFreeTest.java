package org.pfcswitch.mmu;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The per-packet path allocates nothing after warm-up (DESIGN.md, "allocates nothing per packet"):
 * thread-allocated bytes across 200,000 admit/release pairs stay at (near) zero for every scheme.
 */
class AllocationFreeTest {
    static java.util.List<String> schemes() {
        return Schemes.NAMES;
    }

    @ParameterizedTest
    @MethodSource("schemes")
    void admitAndReleaseDoNotAllocate(String scheme) {
        MmuConfig cfg = MmuConfig.builder().totalBytes(4L << 20).ports(9, 10_000_000_000L, 1_000)
                .losslessPriorityMask(0b0001_1000).privateBytes(2048).headroomFormula("ieee").scheme(scheme).build();
        Mmu mmu = Mmu.create(cfg, FlowControlListener.NONE);
        int n = 1 << 14;
        int[] in = new int[n];
        int[] prio = new int[n];
        int[] out = new int[n];
        int[] len = new int[n];
        Random rnd = new Random(1);
        for (int i = 0; i < n; i++) {
            in[i] = rnd.nextInt(9);
            prio[i] = rnd.nextInt(8);
            out[i] = rnd.nextInt(9);
            len[i] = 64 + rnd.nextInt(1437);
        }
        boolean[] held = new boolean[n];
        run(mmu, in, prio, out, len, held, 200_000, 0);               // warm up (JIT, lazy class init)
        com.sun.management.ThreadMXBean bean = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long tid = Thread.currentThread().threadId();
        long before = bean.getThreadAllocatedBytes(tid);
        run(mmu, in, prio, out, len, held, 200_000, 1_000_000_000L);
        long allocated = bean.getThreadAllocatedBytes(tid) - before;
        assertTrue(allocated < 4_096, scheme + " allocated " + allocated + " B over 200,000 packets");
    }

    /** A sliding window of packets in flight: admit packet i, release packet i − 4096 if it was admitted. */
    private static void run(Mmu mmu, int[] in, int[] prio, int[] out, int[] len, boolean[] held, int ops, long t0) {
        int mask = in.length - 1;
        for (int op = 0; op < ops; op++) {
            int i = op & mask;
            int old = (op - 4096) & mask;
            long now = t0 + op * 100L;
            if (held[old]) {
                mmu.release(in[old], prio[old], out[old], prio[old], len[old], now);
                held[old] = false;
            }
            if (held[i]) {
                mmu.release(in[i], prio[i], out[i], prio[i], len[i], now);
                held[i] = false;
            }
            held[i] = Verdict.isAdmitted(mmu.admit(in[i], prio[i], out[i], prio[i], len[i], now));
        }
    }
}
