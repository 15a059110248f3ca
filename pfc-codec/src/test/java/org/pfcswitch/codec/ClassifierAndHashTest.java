package org.pfcswitch.codec;

import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.*;

class ClassifierAndHashTest {
    private static ParsedFrame roce(Integer pcp, int dscp, int qp) {
        RoceFrameBuilder b = new RoceFrameBuilder().ips(1, 2).dscp(dscp).destQp(qp);
        if (pcp != null) {
            b.vlan(pcp, 7);
        }
        MemorySegment s = Frames.heap(b.frameLength());
        return Frames.parse(s, b.write(s, 0));
    }

    @Test
    void trustPcpUsesTheTagAndTheDefaultOtherwise() {
        PriorityClassifier c = PriorityClassifier.trustPcp(1);
        assertEquals(5, c.classify(roce(5, 26, 1)));
        assertEquals(1, c.classify(roce(null, 26, 1)));
    }

    @Test
    void trustDscpUsesTheMapThenPcpThenDefault() {
        PriorityClassifier c = PriorityClassifier.trustDscp(PriorityClassifier.dscpMap("26:4, 48:6"), 0);
        assertEquals(4, c.classify(roce(1, 26, 1)), "DSCP wins over PCP when trusting DSCP");
        assertEquals(6, c.classify(roce(null, 48, 1)));
        assertEquals(2, c.classify(roce(null, 16, 1)), "class selector: 16 / 8 = 2");
        MemorySegment pfc = Frames.heap(60);
        MacControl.writePfc(pfc, 0, 1, 1, 1);
        assertEquals(0, c.classify(Frames.parse(pfc, 60)));
        assertEquals(3, PriorityClassifier.trustDscp(0).classify(roce(null, 26, 1)), "default map sends 26 to 3");
    }

    @Test
    void dscpMapErrorsNameTheEntry() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PriorityClassifier.dscpMap("26:9"));
        assertTrue(e.getMessage().contains("26:9"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> PriorityClassifier.dscpMap("64:1"));
        assertThrows(IllegalArgumentException.class, () -> PriorityClassifier.dscpMap("x"));
        assertThrows(IllegalArgumentException.class, () -> PriorityClassifier.trustPcp(8));
    }

    @Test
    void flowHashSeparatesQpsAndMatchesTheKey() {
        Set<Long> hashes = new HashSet<>();
        for (int qp = 0; qp < 10_000; qp++) {
            ParsedFrame f = roce(null, 26, qp);
            assertEquals(FlowKey.of(f).hash(), f.flowHash());
            hashes.add(f.flowHash());
        }
        assertEquals(10_000, hashes.size());
    }

    @Test
    void flowHashSpreadsOverBuckets() {
        int buckets = 8;
        int[] counts = new int[buckets];
        int n = 80_000;
        for (int i = 0; i < n; i++) {
            counts[(int) Long.remainderUnsigned(FlowHash.hash(0x0A000000 + (i & 0xFF), 0x0A000100 + (i >>> 8), 17, 49152 + i % 7, 4791, i), buckets)]++;
        }
        for (int c : counts) {
            assertEquals(n / buckets, c, n / buckets * 0.05, "bucket counts " + java.util.Arrays.toString(counts));
        }
    }

    @Test
    void macText() {
        assertEquals(0x0180C2000001L, MacAddress.parse("01:80:c2:00:00:01"));
        assertEquals("01:80:c2:00:00:01", MacAddress.format(MacAddress.MAC_CONTROL));
        assertEquals(0xAABBCCDDEEFFL, MacAddress.parse("AA-BB-CC-DD-EE-FF"));
        assertTrue(MacAddress.isMulticast(MacAddress.MAC_CONTROL));
        assertFalse(MacAddress.isMulticast(0x0200_0000_0001L));
        assertThrows(IllegalArgumentException.class, () -> MacAddress.parse("01:80:c2:00:00"));
        assertThrows(IllegalArgumentException.class, () -> MacAddress.parse("01:80:c2:00:00:zz"));
    }
}
