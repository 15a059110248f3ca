package org.pfcswitch.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.pfcswitch.codec.FrameParser;
import org.pfcswitch.codec.MacControl;
import org.pfcswitch.codec.ParsedFrame;
import org.pfcswitch.mmu.FlowControl;

/**
 * The core's own PFC frames: XOFF out of the ingress port the moment the MMU decides it, with the
 * advertised vector and the configured quanta; refreshed at half the pause time; quanta 0 on XON.
 */
class PfcEmissionTest {

    private static final int QUANTA = 0x2000;
    private static final int OUT = 2;

    @Test
    void xoffIsSentAtOnceRefreshedAtHalfThePauseAndEndedWithQuantaZero() {
        CoreConfig config = Configs.core(Configs.mmu(3, "dt").build()).pauseQuanta(QUANTA).build();
        CoreRig rig = new CoreRig(config);
        FlowControl fc = rig.core.mmu().flowControl();
        rig.receivePfc(OUT, 1 << 3, MacControl.MAX_QUANTA, 0);       // stall the egress so the buffer fills

        long frameTime = LineRate.nanos(1074, Configs.GBPS_100);
        long xoffAt = -1;
        for (int i = 0; xoffAt < 0; i++) {                           // port 0 sends at line rate until paused
            long now = 1_000 + i * frameTime;
            rig.receiveRoce(0, Configs.host(OUT), Configs.host(0), 26, 1000, now);
            if (fc.isAdvertisedXoff(0, 3)) {
                xoffAt = now;
            }
            assertTrue(i < 10_000, "the ingress queue never reached XOFF");
        }
        List<CoreRig.Sent> pfcOut = rig.sentOn(0);
        assertEquals(1, pfcOut.size(), "exactly one PFC frame, at the moment of XOFF");
        assertEquals(xoffAt, pfcOut.get(0).start());
        ParsedFrame f = parse(pfcOut.get(0));
        assertTrue(f.isPfc());
        assertEquals(1 << 3, f.classEnable());
        assertEquals(QUANTA, f.quanta(3));
        assertEquals(config.portMac(0), f.srcMac());

        long refresh = MacControl.quantaToNanos(QUANTA, Configs.GBPS_100) / 2;
        rig.runUntil(xoffAt + 2 * refresh + refresh / 2);
        pfcOut = rig.sentOn(0);
        assertEquals(3, pfcOut.size(), "two refreshes while XOFF persists");
        assertEquals(xoffAt + refresh, pfcOut.get(1).start());
        assertEquals(xoffAt + 2 * refresh, pfcOut.get(2).start());
        assertEquals(QUANTA, parse(pfcOut.get(2)).quanta(3));

        long resumeAt = xoffAt + 2 * refresh + refresh / 2;
        rig.receivePfc(OUT, 1 << 3, 0, resumeAt);                     // the egress may send again: drain
        rig.runUntil(resumeAt + 10_000_000);
        pfcOut = rig.sentOn(0);
        ParsedFrame last = parse(pfcOut.get(pfcOut.size() - 1));
        assertEquals(1 << 3, last.classEnable());
        assertEquals(0, last.quanta(3), "XON is a PFC frame with quanta 0");
        assertEquals(0, fc.advertisedVector(0));
        assertTrue(pfcOut.get(pfcOut.size() - 1).start() < resumeAt + 1_000_000, "XON while draining, not later");
        assertEquals(4, pfcOut.size(), "no refresh after XON");
        assertEquals(3, rig.core.counters().pfcXoffTx[3]);
        assertEquals(1, rig.core.counters().pfcXonTx[3]);
        assertEquals(0, rig.core.mmu().losslessViolations());
        assertEquals(0, rig.core.mmu().ledger().totalUsed());
        assertEquals(0, rig.buffersInUse());
    }

    private static ParsedFrame parse(CoreRig.Sent s) {
        ParsedFrame f = new ParsedFrame();
        FrameParser.parse(MemorySegment.ofArray(s.bytes()), f);
        return f;
    }
}
