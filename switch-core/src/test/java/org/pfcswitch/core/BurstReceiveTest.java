package org.pfcswitch.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.pfcswitch.codec.Ipv4;
import org.pfcswitch.codec.MacControl;

/**
 * {@link SwitchCore#onFrames} (a burst parsed first, then forwarded frame by frame, owed control
 * frames sent after the burst) puts on every wire exactly what {@link SwitchCore#onFrame} of each
 * frame in turn does: two cores get the same random bursts
 * (an incast of lossless and lossy RoCE frames that fills the buffer, PFC frames in the middle of
 * bursts, runts, frames for unknown stations that flood, sources to learn, bursts longer than the
 * parse batch), one frame by frame and one burst by burst, and must send the same frames at the
 * same times on each port and count the same (only the order of calls for different ports at one
 * instant may differ).
 */
class BurstReceiveTest {

    private static final int PORTS = 4;
    private static final long UNKNOWN = 0x0200_0000_0BFFL;

    @Test
    void aBurstIsForwardedAsItsFramesOneByOne() throws IllegalAccessException {
        CoreConfig config = Configs.core(Configs.mmu(PORTS, "dt").totalBytes(600_000).ecnKminBytes(20_000)
                .ecnKmaxBytes(200_000).build()).pauseQuanta(300).learning(true).build();
        CoreRig oneByOne = new CoreRig(config);
        CoreRig burst = new CoreRig(config);
        Random random = new Random(23);
        long[] a = new long[80];
        long[] b = new long[80];
        long now = 0;
        for (int round = 0; round < 3_000; round++) {
            int port = random.nextInt(PORTS);
            int n = 1 + random.nextInt(round % 10 == 0 ? 80 : 32);
            for (int i = 0; i < n; i++) {
                long seed = random.nextLong();
                a[i] = frame(oneByOne, port, new Random(seed));
                b[i] = frame(burst, port, new Random(seed));
            }
            for (int i = 0; i < n; i++) {
                oneByOne.core.onFrame(port, a[i], now);
            }
            burst.core.onFrames(port, b, 0, n, now);
            now += 100 + random.nextInt(600);
            oneByOne.runUntil(now);
            burst.runUntil(now);
        }
        oneByOne.runUntil(now + 1_000_000_000L);
        burst.runUntil(now + 1_000_000_000L);

        SwitchCounters c = oneByOne.core.counters();
        assertTrue(c.flooded[0] + c.flooded[1] + c.flooded[2] + c.flooded[3] > 0, "frames were flooded");
        assertTrue(c.pfcFramesTx[0] + c.pfcFramesTx[1] + c.pfcFramesTx[2] > 0, "the incast made the switch send PFC");
        assertTrue(c.pfcXoffRx[3] > 0 && c.malformed(0) + c.malformed(1) + c.malformed(2) + c.malformed(3) > 0,
                "pauses and runts were received");
        assertTrue(java.util.Arrays.stream(c.drops).sum() > 0, "the MMU dropped frames");
        assertEquals(oneByOne.sent.size(), burst.sent.size(), "frames sent");
        for (int port = 0; port < PORTS; port++) {
            List<CoreRig.Sent> x = onWire(oneByOne, port);
            List<CoreRig.Sent> y = onWire(burst, port);
            assertEquals(x.size(), y.size(), "frames sent on port " + port);
            for (int i = 0; i < x.size(); i++) {
                assertEquals(x.get(i).start(), y.get(i).start(), "start of frame " + i + " on port " + port);
                assertArrayEquals(x.get(i).bytes(), y.get(i).bytes(), "bytes of frame " + i + " on port " + port);
            }
        }
        assertSameCounters(c, burst.core.counters());
        assertEquals(0, oneByOne.buffersInUse());
        assertEquals(0, burst.buffersInUse());
    }

    /**
     * The XOFF that a frame in the middle of a burst makes owed is on the wire when
     * {@link SwitchCore#onFrames} returns (before the driver polls the next burst), at the burst's
     * instant: the owed frames are sent once per burst, not later.
     */
    @Test
    void anXoffOwedInABurstIsSentBeforeTheNextBurst() {
        CoreRig rig = new CoreRig(Configs.core(Configs.mmu(3, "dt").build()).build());
        rig.receivePfc(2, 1 << 3, MacControl.MAX_QUANTA, 0);           // port 2 paused: the buffer fills
        long now = 1_000;
        int bursts = 0;
        while (rig.sentOn(0).isEmpty()) {
            assertTrue(++bursts < 1_000, "the ingress queue never reached XOFF");
            long[] burst = new long[32];
            for (int i = 0; i < burst.length; i++) {
                burst[i] = rig.roceFrame(Configs.host(2), Configs.host(0), 26, Ipv4.ECN_NOT_ECT, 1000, i);
            }
            boolean xoffBefore = rig.core.mmu().flowControl().isAdvertisedXoff(0, 3);
            rig.core.onFrames(0, burst, 0, burst.length, now);
            if (!xoffBefore && rig.core.mmu().flowControl().isAdvertisedXoff(0, 3)) {
                break;                                                  // this burst crossed XOFF
            }
            now += 100_000;
        }
        List<CoreRig.Sent> pfc = rig.sentOn(0);
        assertEquals(1, pfc.size(), "the XOFF went out with the burst that crossed the threshold");
        assertEquals(now, pfc.get(0).start());
        org.pfcswitch.codec.ParsedFrame f = new org.pfcswitch.codec.ParsedFrame();
        org.pfcswitch.codec.FrameParser.parse(java.lang.foreign.MemorySegment.ofArray(pfc.get(0).bytes()), f);
        assertTrue(f.isPfc() && f.quanta(3) > 0, "an XOFF for priority 3");
    }

    /** What {@code rig}'s core sent on {@code port}'s wire, in order. */
    private static List<CoreRig.Sent> onWire(CoreRig rig, int port) {
        return rig.sent.stream().filter(s -> s.port() == port).toList();
    }

    /** A random frame arriving on {@code port}, written into {@code rig}'s memory. */
    private static long frame(CoreRig rig, int port, Random r) {
        int kind = r.nextInt(100);
        if (kind < 8) {                                            // PFC on priority 3 (and others), or a resume
            long h = rig.allocate(60);
            int quanta = r.nextInt(3) == 0 ? 0 : 1 + r.nextInt(400);
            MacControl.writePfc(rig.slab, rig.offset(h), 0x0200_0000_00EEL, 1 << 3 | r.nextInt(256), quanta);
            return h;
        }
        if (kind < 11) {                                           // a runt
            long h = rig.allocate(8);
            rig.slab.asSlice(rig.offset(h), 8).fill((byte) 0);
            return h;
        }
        long dst = kind < 16 ? UNKNOWN : Configs.host(r.nextInt(10) < 8 ? 3 : r.nextInt(PORTS));
        long src = kind < 30 ? 0x0200_0000_0C00L + r.nextInt(64) : Configs.host(port);
        int dscp = r.nextInt(4) == 0 ? 0 : 26;
        int ecn = r.nextBoolean() ? Ipv4.ECN_ECT0 : Ipv4.ECN_NOT_ECT;
        return rig.roceFrame(dst, src, dscp, ecn, 64 + r.nextInt(1000), r.nextInt(1 << 20));
    }

    /** Every public counter of {@link SwitchCounters}, array or scalar. */
    private static void assertSameCounters(SwitchCounters x, SwitchCounters y) throws IllegalAccessException {
        int compared = 0;
        for (Field f : SwitchCounters.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers())) {
                continue;
            }
            if (f.getType() == long[].class) {
                assertArrayEquals((long[]) f.get(x), (long[]) f.get(y), f.getName());
                compared++;
            } else if (f.getType() == long.class || f.getType() == int.class) {
                assertEquals(f.get(x), f.get(y), f.getName());
                compared++;
            }
        }
        assertTrue(compared > 30, "compared " + compared + " counters");
    }
}
