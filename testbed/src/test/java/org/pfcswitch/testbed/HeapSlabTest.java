package org.pfcswitch.testbed;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.pfcswitch.core.FrameAllocator;
import org.pfcswitch.testbed.config.ScenarioLoader;

class HeapSlabTest {

    /** The slot size of a 1000 B payload MTU, as the testbeds cut their slabs. */
    private static final int SLOT = 1096;

    @Test
    void aSlabForAWholeFabricTakesMemoryOnlyForTheFramesWritten() throws IOException {
        long before = residentBytes();
        // 4 Mi slots: what 32 switches of 16 MiB reserve, 4.6 GB, more than the tests' 2 GB heap
        try (HeapSlab slab = new HeapSlab(1 << 22, SLOT)) {
            List<Long> held = new ArrayList<>();
            for (int i = 0; i < 10_000; i++) {
                long h = slab.allocate(SLOT);
                slab.bytes().asSlice(slab.offset(h), SLOT).fill((byte) i);
                held.add(h);
            }
            long grew = residentBytes() - before;
            assertTrue(grew < 128L << 20, "10,000 frames of " + SLOT + " B (11 MB) took " + grew / 1e6 + " MB");
            assertEquals(10_000, slab.peakSlots());
            assertEquals(ReservedMemory.wholePages(10_000L * SLOT), slab.peakFrameBytes());
            assertEquals((byte) 9_999, slab.bytes().get(JAVA_BYTE, slab.offset(held.getLast())));
        }
    }

    @Test
    void freedSlotsAreReusedSoTheSlotsTouchedAreTheMostHeldAtOnce() {
        try (HeapSlab slab = new HeapSlab(100_000, SLOT)) {
            Random random = new Random(7);
            List<Long> held = new ArrayList<>();
            int most = 0;
            for (int round = 0; round < 2_000; round++) {
                int target = 1 + random.nextInt(3_000);       // bursts of up to 3,000 frames, then drains
                while (held.size() < target) {
                    long h = slab.allocate(64 + random.nextInt(SLOT - 64));
                    assertTrue(h != FrameAllocator.NO_HANDLE);
                    held.add(h);
                }
                most = Math.max(most, held.size());
                Collections.shuffle(held, random);
                while (held.size() > target / 2) {
                    slab.free(held.removeLast());
                }
                assertEquals(held.size(), slab.inUse());
            }
            assertEquals(most, slab.peakSlots(), "every slot ever handed out was needed at one time");
            for (long h : held) {
                assertTrue(h < most, "slot " + h + " beyond the " + most + " ever held at once");
            }
        }
    }

    @Test
    void aFullSlabSaysSo() {
        try (HeapSlab slab = new HeapSlab(3, SLOT)) {
            for (int i = 0; i < 3; i++) {
                assertEquals(i, slab.allocate(100));
            }
            assertEquals(FrameAllocator.NO_HANDLE, slab.allocate(100));
            slab.free(1);
            assertEquals(1, slab.allocate(100));
        }
    }

    @Test
    void aLongRunHoldsNoMoreFramesThanItsBuffersAndWiresCanHold() {
        // repeated incasts fill leaf 1's buffer again and again for 4 ms
        Path scenario = Path.of("..", "testbed-configs", "scenarios", "leafspine-incast.yaml");
        Scenario s = ScenarioLoader.load(scenario, List.of("duration=4ms", "traffic.fanin.repeatUntil=3900us",
                "measure.to=3900us")).scenario();
        SchemeResult r = ScenarioRunner.run(s, "dt");
        int switches = ScenarioRunner.switchNames(s).size();
        long bufferFrames = switches * s.mmu().totalBytes() / s.payloadMtu();
        // a host's NIC and both ends of its link hold a few frames each; be generous
        long wireFrames = 64L * s.hosts().size() + 64L * switches;
        long bound = ReservedMemory.wholePages((bufferFrames + wireFrames) * SLOT);
        assertTrue(r.frameMemoryBytes() > 0, "frames were held");
        assertTrue(r.frameMemoryBytes() <= bound, r.frameMemoryBytes() + " B of frames over 4 ms, more than "
                + switches + " buffers of " + s.mmu().totalBytes() + " B and the wires hold (" + bound + " B)");
    }

    /** This process's resident memory (Linux). */
    private static long residentBytes() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
            }
        }
        throw new IllegalStateException("no VmRSS in /proc/self/status");
    }
}
