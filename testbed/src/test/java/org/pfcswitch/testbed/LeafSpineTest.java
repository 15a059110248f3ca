package org.pfcswitch.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.pfcswitch.core.SwitchCore;
import org.pfcswitch.mmu.MmuConfig;

/**
 * A 2 × 2 leaf-spine with 4 hosts per leaf (hosts 0-3 on leaf 0, 4-7 on leaf 1; switches 0, 1 are
 * the leaves, 2, 3 the spines; spine port l goes to leaf l): ECMP spreads flows over the spines,
 * keeps each flow on one path, stays lossless under incast, and runs deterministically.
 */
class LeafSpineTest {

    private static final long GBPS_100 = 100_000_000_000L;
    private static final int LEAVES = 2;
    private static final int SPINES = 2;
    private static final int PER_LEAF = 4;

    private static Testbed.Builder fabric(String scheme, long seed) {
        return Testbed.leafSpine(LEAVES, SPINES, PER_LEAF).links(GBPS_100, 1_000).fabricLinks(GBPS_100, 1_000)
                .seed(seed).mmu(MmuConfig.builder().totalBytes(4L << 20).scheme(scheme));
    }

    /** Frames spine {@code s} sent towards leaf {@code leaf}. */
    private static long spineFramesTo(Testbed tb, int s, int leaf) {
        return tb.core(LEAVES + s).counters().txFrames(leaf);
    }

    @Test
    void flowsBetweenLeavesSpreadOverBothSpines() {
        Testbed tb = fabric("dt", 1).build();
        int flows = 0;
        for (int round = 0; round < 16; round++) {               // 64 flows, each its own QP and UDP port
            for (int src = 0; src < PER_LEAF; src++) {
                tb.addFlow(src, PER_LEAF + (src + round) % PER_LEAF, 3, 20_000, round * 5_000L);
                flows++;
            }
        }
        tb.runUntil(2_000_000);
        long s0 = spineFramesTo(tb, 0, 1);
        long s1 = spineFramesTo(tb, 1, 1);
        double share = (double) s0 / (s0 + s1);
        assertTrue(share > 0.3 && share < 0.7, "spine 0 carried " + s0 + " of " + (s0 + s1) + " frames to leaf 1");
        FlowRecords rec = tb.records();
        for (int f = 0; f < flows; f++) {
            assertTrue(rec.completed(f), "flow " + f);
            assertEquals(0, rec.outOfOrder(f), "flow " + f + " was reordered");
        }
        assertEquals(0, tb.core(0).counters().flooded[0], "static forwarding never floods");
    }

    /**
     * Under ns-3's ECMP (the 5-tuple murmur3 hash, each switch seeded with its node id, ns-3's host
     * addresses), a flow with a given UDP source port crosses the spine ns-3's switch node would
     * pick, and its ACKs come back over the spine ns-3 picks for ACKs (ports swapped). The expected
     * spine is computed here as ns-3's {@code SwitchNode::EcmpHash} does, over the 12 key bytes.
     */
    @Test
    void withNs3sAddressesSeedsAndPortsAFlowTakesNs3sPath() {
        int spines = 4;
        int perLeaf = 3;
        int hosts = 2 * perLeaf;
        org.pfcswitch.core.SwitchModel ns3Ecmp = org.pfcswitch.core.SwitchModel.DEFAULT
                .withEcmp(org.pfcswitch.core.EcmpHash.FIVE_TUPLE, 0, true);
        java.util.Set<Integer> spinesSeen = new java.util.HashSet<>();
        for (int sport = 10_000; sport < 10_012; sport++) {
            Testbed tb = Testbed.leafSpine(2, spines, perLeaf).links(GBPS_100, 1_000).fabricLinks(GBPS_100, 1_000)
                    .mmu(MmuConfig.builder().totalBytes(4L << 20).scheme("dt")).switchModel(ns3Ecmp)
                    .hostAddresses(HostAddresses.NS3).build();
            int src = 1;
            int dst = perLeaf + 2;
            int f = tb.addFlow(src, dst, 3, 20_000, 0, sport);
            tb.runUntil(1_000_000);
            assertTrue(tb.records().completed(f));
            int ipSrc = HostAddresses.NS3.of(src);
            int ipDst = HostAddresses.NS3.of(dst);
            int dataSpine = Integer.remainderUnsigned(ns3EcmpHash(ipSrc, ipDst, sport | 4791 << 16, hosts), spines);
            int ackSpine = Integer.remainderUnsigned(ns3EcmpHash(ipDst, ipSrc, 4791 | sport << 16, hosts + 1), spines);
            for (int s = 0; s < spines; s++) {
                long toLeaf1 = tb.core(2 + s).counters().txFrames(1);
                long toLeaf0 = tb.core(2 + s).counters().txFrames(0);
                assertEquals(s == dataSpine, toLeaf1 > 0, "sport " + sport + ": data through spine " + s + ": " + toLeaf1);
                assertEquals(s == ackSpine, toLeaf0 > 0, "sport " + sport + ": ACKs through spine " + s + ": " + toLeaf0);
            }
            spinesSeen.add(dataSpine);
        }
        assertTrue(spinesSeen.size() > 2, "the ports spread the flows: " + spinesSeen);
    }

    /** ns-3's SwitchNode::EcmpHash over {@code u32[3] = {sip, dip, ports}} as little-endian bytes (murmur3, x86, 32 bits). */
    private static int ns3EcmpHash(int sip, int dip, int ports, int seed) {
        byte[] key = java.nio.ByteBuffer.allocate(12).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(sip).putInt(dip)
                .putInt(ports).array();
        int h = seed;
        for (int i = 0; i < 12; i += 4) {
            int k = (key[i] & 0xFF) | (key[i + 1] & 0xFF) << 8 | (key[i + 2] & 0xFF) << 16 | (key[i + 3] & 0xFF) << 24;
            k *= 0xcc9e2d51;
            k = (k << 15) | (k >>> 17);
            k *= 0x1b873593;
            h ^= k;
            h = (h << 13) | (h >>> 19);
            h += (h << 2) + 0xe6546b64;
        }
        h ^= 12;
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        h ^= h >>> 16;
        return h;
    }

    @Test
    void oneFlowStaysOnOnePath() {
        Testbed tb = fabric("dt", 1).build();
        int f = tb.addFlow(1, PER_LEAF + 2, 3, 4_000_000, 0);
        tb.runUntil(2_000_000);
        long s0 = spineFramesTo(tb, 0, 1);
        long s1 = spineFramesTo(tb, 1, 1);
        assertTrue(tb.records().completed(f));
        assertEquals(0, tb.records().outOfOrder(f));
        assertTrue(s0 == 0 ^ s1 == 0, "all data frames through one spine, got " + s0 + " and " + s1);
        assertTrue(s0 + s1 >= 4_000_000 / tb.payloadMtu(), "every data frame crossed a spine");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"dt", "dsh"})
    void incastAcrossTheFabricIsLossless(String scheme) {
        Testbed tb = fabric(scheme, 3).build();
        int receiver = LEAVES * PER_LEAF - 1;                  // the last host of leaf 1
        SplittableRandom r = new SplittableRandom(11);
        long offered = 0;
        for (int src = 0; src < receiver; src++) {            // 4 remote senders through the spines, 3 local ones
            long size = 1_000_000 + r.nextInt(1_000_000);
            tb.addFlow(src, receiver, 3, size, r.nextInt(10_000));
            offered += size;
        }
        FlowRecords rec = tb.records();
        for (long t = 500_000; t <= 20_000_000 && !allDone(rec); t += 500_000) {
            tb.runUntil(t);
        }
        tb.runUntil(tb.now() + 2_000_000);
        long received = 0;
        long pfc = 0;
        for (int f = 0; f < rec.count(); f++) {
            assertTrue(rec.completed(f), scheme + " flow " + f);
            assertEquals(0, rec.outOfOrder(f), scheme + " flow " + f);
            received += rec.receivedPayloadBytes(f);
        }
        for (int sw = 0; sw < tb.switches(); sw++) {
            SwitchCore c = tb.core(sw);
            assertEquals(0, c.mmu().losslessViolations(), scheme + " switch " + sw);
            assertEquals(0, c.counters().totalDrops(), scheme + " switch " + sw);
            assertEquals(0, c.mmu().ledger().totalUsed(), scheme + " switch " + sw + " buffer drained");
            for (int p = 0; p < c.ports(); p++) {
                pfc += c.counters().pfcFramesTx[p];
            }
        }
        assertTrue(pfc > 0, scheme + ": the incast must drive the fabric into PFC");
        assertEquals(offered, received, scheme);
        assertEquals(0, tb.framesInUse(), scheme + ": every buffer came back");
    }

    @Test
    void sameSeedSameRunAnotherSeedAnotherRun() {
        String first = fingerprint(42);
        assertEquals(first, fingerprint(42));
        assertNotEquals(first, fingerprint(43));
    }

    private static String fingerprint(long seed) {
        Testbed tb = fabric("dt", seed).build();
        SplittableRandom r = tb.random();
        for (int i = 0; i < 6; i++) {
            tb.addFlow(i, 7, 3, 64_000 + r.nextInt(500_000), r.nextInt(20_000));
        }
        tb.addFlow(6, 1, 3, 1L << 30, r.nextInt(5_000));
        tb.runUntil(1_000_000);
        StringBuilder s = new StringBuilder("digest=").append(Long.toHexString(tb.loop().traceDigest()))
                .append(" events=").append(tb.loop().eventsDispatched());
        for (int sw = 0; sw < tb.switches(); sw++) {
            for (int p = 0; p < tb.core(sw).ports(); p++) {
                s.append(" s").append(sw).append('p').append(p).append(':').append(tb.core(sw).counters().txFrames(p))
                        .append('/').append(tb.core(sw).counters().pfcFramesTx[p]);
            }
        }
        FlowRecords rec = tb.records();
        for (int f = 0; f < rec.count(); f++) {
            s.append(" f").append(f).append(':').append(rec.receivedPayloadBytes(f)).append('@').append(rec.endNanos(f));
        }
        return s.toString();
    }

    private static boolean allDone(FlowRecords rec) {
        for (int f = 0; f < rec.count(); f++) {
            if (!rec.completed(f)) {
                return false;
            }
        }
        return true;
    }
}
