package org.pfcswitch.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.MemorySegment;

import org.junit.jupiter.api.Test;
import org.pfcswitch.codec.MacControl;

/**
 * The emitter's list of ports that owe a PFC frame, when the core drains it only once per rx burst:
 * a port whose frame went out and that comes to owe another before the drain is listed again,
 * more times than there are ports, and the list still names every owing port.
 */
class PfcEmitterTest {

    @Test
    void aPortThatOwesAgainBeforeTheDrainDoesNotOverflowTheList() {
        PfcEmitter emitter = new PfcEmitter(2, 0xFFFF);
        MemorySegment frame = MemorySegment.ofArray(new byte[MacControl.PFC_BYTES + 64]);
        for (int i = 0; i < 5; i++) {                        // XOFF, frame sent, XON, frame sent, ...
            emitter.onXoff(0, 3, i);
            emitter.write(0, 1 << 3, frame, 0, 1);
            emitter.onXon(0, 3, i);
            emitter.write(0, 0, frame, 0, 1);
        }
        emitter.onXoff(1, 3, 9);
        emitter.onXoff(0, 3, 9);
        assertEquals(0, emitter.nextOwingPort(), "the last to owe first");
        assertEquals(1, emitter.nextOwingPort());
        assertEquals(-1, emitter.nextOwingPort(), "each owing port once, no stale repeat");
    }
}
