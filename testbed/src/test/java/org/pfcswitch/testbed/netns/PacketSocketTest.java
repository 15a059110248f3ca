package org.pfcswitch.testbed.netns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;

import org.junit.jupiter.api.Test;
import org.pfcswitch.testbed.FramePort;

/** The packet socket's error paths name what is wrong; and what one side sends, the other receives. */
class PacketSocketTest {

    @Test
    void aMissingNamespaceIsNamed() {
        String ns = "pt" + ProcessHandle.current().pid() % 100_000 + "-nosuch";
        PacketSocketException e = assertThrows(PacketSocketException.class, () -> PacketSocket.open(ns, "eth0"));
        assertTrue(e.getMessage().startsWith("network namespace '" + ns + "' does not exist"), e.getMessage());
    }

    @Test
    void aMissingInterfaceIsNamedWithItsNamespace() throws Exception {
        PacketSocketException own = assertThrows(PacketSocketException.class, () -> PacketSocket.open(null, "nosuch0"));
        assertTrue(own.getMessage().startsWith("no interface 'nosuch0' in this network namespace"), own.getMessage());
        try (VethPair pair = new VethPair("s")) {
            PacketSocketException e = assertThrows(PacketSocketException.class, () -> PacketSocket.open(pair.a, "eth9"));
            assertTrue(e.getMessage().startsWith("no interface 'eth9' in network namespace '" + pair.a + "'"), e.getMessage());
        }
    }

    @Test
    void namesThatCannotBeAnInterfaceOrANamespaceAreRefusedBeforeAnySystemCall() {
        assertThrows(PacketSocketException.class, () -> PacketSocket.open(null, "a/b"));
        assertThrows(PacketSocketException.class, () -> PacketSocket.open(null, "sixteen-chars-xx"));
        assertThrows(PacketSocketException.class, () -> PacketSocket.open(null, ""));
        PacketSocketException e = assertThrows(PacketSocketException.class, () -> PacketSocket.open("../etc", "eth0"));
        assertTrue(e.getMessage().contains("'../etc' is not a network namespace name"), e.getMessage());
    }

    @Test
    void aFrameSentOnOneSideArrivesWholeOnTheOtherAndNotBackAtTheSender() throws Exception {
        try (VethPair pair = new VethPair("t");
             PacketSocket a = PacketSocket.open(pair.a, "eth0");
             PacketSocket b = PacketSocket.open(pair.b, "eth0")) {
            assertTrue(a.macAddress() != 0 && a.macAddress() != b.macAddress(), "each end reports its own MAC");
            MemorySegment out = MemorySegment.ofArray(new byte[100]);
            long dst = b.macAddress();
            for (int i = 0; i < 6; i++) {
                out.set(java.lang.foreign.ValueLayout.JAVA_BYTE, i, (byte) (dst >>> (40 - 8 * i)));
            }
            out.set(java.lang.foreign.ValueLayout.JAVA_BYTE, 12, (byte) 0x88);    // a local experimental EtherType
            out.set(java.lang.foreign.ValueLayout.JAVA_BYTE, 13, (byte) 0xB5);
            out.set(java.lang.foreign.ValueLayout.JAVA_BYTE, 99, (byte) 0x5A);
            assertTrue(a.send(out, 0, 100));
            MemorySegment in = MemorySegment.ofArray(new byte[200]);
            int n = FramePort.NONE;
            for (long end = System.nanoTime() + 2_000_000_000L; n == FramePort.NONE && System.nanoTime() < end; ) {
                n = b.receive(in, 0, 200);
            }
            assertEquals(100, n);
            assertEquals(-1, in.asSlice(0, 100).mismatch(out));
            assertEquals(FramePort.NONE, a.receive(in, 0, 200), "the sender does not read its own frame back");
            assertTrue(a.send(out, 0, 100));
            for (long end = System.nanoTime() + 2_000_000_000L; b.oversized() == 0 && System.nanoTime() < end; ) {
                assertEquals(FramePort.NONE, b.receive(in, 0, 50), "a frame longer than the buffer is skipped, not cut");
            }
            assertEquals(1, b.oversized());
        }
    }
}
