package org.pfcswitch.testbed.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.pfcswitch.testbed.FlowList;

/** The flow-list format: columns, host names and indices, sizes and times with units, and errors that name the line. */
class FlowListReaderTest {

    private static final List<String> HOSTS = List.of("H0", "H1", "H2", "R1");

    private static FlowList read(String text) throws IOException {
        return FlowListReader.read("f.txt", new StringReader(text), FlowListReader.byName(HOSTS, null, null), 3);
    }

    private static String error(String text) {
        return assertThrows(IllegalArgumentException.class, () -> read(text)).getMessage();
    }

    @Test
    void readsNamesIndicesUnitsCommentsAndPriorities() throws IOException {
        FlowList l = read("""
                # a comment line, then a blank one

                H0 R1 1000 0.5
                1\t3 64KiB 1.5ms 5     # tab, a size and a time with units, a priority
                2,0,1.5MB,20us
                R1 H2 7 0.000000001234567
                """);
        assertEquals(4, l.size());
        // sorted by start: 1.234567 ns rounds to 1 ns, then 20 us, 1.5 ms, 0.5 s
        assertEquals(1, l.startNanos(0));
        assertEquals(3, l.src(0));
        assertEquals(2, l.dst(0));
        assertEquals(7, l.bytes(0));
        assertEquals(20_000, l.startNanos(1));
        assertEquals(1_500_000, l.bytes(1));
        assertEquals(1_500_000, l.startNanos(2));
        assertEquals(65_536, l.bytes(2));
        assertEquals(5, l.priority(2));
        assertEquals(3, l.priority(1), "no 5th column: the traffic's priority");
        assertEquals(500_000_000, l.startNanos(3));
        assertEquals(0, l.src(3));
        assertEquals(3, l.dst(3));
    }

    @Test
    void secondsAreExactToTheNanosecond() {
        assertEquals(2_000_000_001L, FlowListReader.startNanos("2.000000001"));
        assertEquals(2_000_000_000L, FlowListReader.startNanos("2"));
        assertEquals(100_000, FlowListReader.startNanos("1e-4"));
        assertEquals(300, FlowListReader.startNanos("300ns"));
        assertEquals(1_500_000, FlowListReader.startNanos("1.5ms"));
        assertEquals(1_500_000, FlowListReader.startNanos("0.0015s"));
        assertEquals(20_001, FlowListReader.startNanos("20.0005us"), "rounded to the nanosecond");
        assertEquals(20_000, FlowListReader.startNanos("20µs"));
        assertEquals(20_000, FlowListReader.startNanos("20US"));
        assertEquals(2_000_000_002L, FlowListReader.startNanos("2.0000000015"), "half a nanosecond rounds up");
    }

    /** sport=N, last on a line, sets the flow's UDP source port (with or without a priority); it survives a write and a read. */
    @Test
    void anOptionalSourcePortRidesWithTheFlowThroughAWriteAndARead() throws IOException {
        FlowList l = read("H0 H1 10 1us sport=10141\nH1 H0 20 2us 5 sport=65535\nH0 R1 30 3us\n");
        assertEquals(10141, l.udpSrcPort(0));
        assertEquals(3, l.priority(0));
        assertEquals(65535, l.udpSrcPort(1));
        assertEquals(5, l.priority(1));
        assertEquals(FlowList.DEFAULT_PORT, l.udpSrcPort(2));
        java.io.StringWriter out = new java.io.StringWriter();
        FlowListWriter.write(l, out, null, List.of(), true);
        assertTrue(out.toString().contains("0 1 10 0.000001 3 sport=10141\n"), out.toString());
        FlowList back = FlowListReader.read("w", new java.io.StringReader(out.toString()), FlowListReader.byIndex(4), 3);
        for (int i = 0; i < 3; i++) {
            assertEquals(l.udpSrcPort(i), back.udpSrcPort(i));
        }
    }

    @Test
    void equalStartsKeepTheFileOrder() throws IOException {
        FlowList l = read("H0 H1 10 5us\nH2 H1 20 1us\nH1 H0 30 5us\nR1 H0 40 5us\n");
        assertEquals(List.of(20L, 10L, 30L, 40L),
                List.of(l.bytes(0), l.bytes(1), l.bytes(2), l.bytes(3)));
    }

    @Test
    void badLinesNameTheFileTheLineAndTheProblem() {
        assertEquals("f.txt:3: unknown host 'H9' (hosts: H0 .. R1, or an index 0..3)",
                error("H0 H1 10 1us\n# ok\nH9 H1 10 1us\n"));
        assertEquals("f.txt:1: unknown host '4' (hosts: H0 .. R1, or an index 0..3)", error("4 H1 10 1us"));
        assertEquals("f.txt:1: negative bytes: '-10'", error("H0 H1 -10 1us"));
        assertEquals("f.txt:1: a flow needs > 0 bytes, got '0'", error("H0 H1 0 1us"));
        assertTrue(error("H0 H1 10KQ 1us").startsWith("f.txt:1: expected a size like"), error("H0 H1 10KQ 1us"));
        assertEquals("f.txt:2: bad start time 'soon': expected seconds (0.0015) or a time with a unit (1.5ms, 20us, 300ns)",
                error("H0 H1 10 1us\nH0 H1 10 soon"));
        assertEquals("f.txt:1: negative start time: '-1us'", error("H0 H1 10 -1us"));
        assertEquals("f.txt:1: expected 4 or 5 columns (src dst bytes start [priority]) and optionally sport=N, got 3",
                error("H0 H1 10"));
        assertEquals("f.txt:1: expected 4 or 5 columns (src dst bytes start [priority]) and optionally sport=N, got more than 5",
                error("H0 H1 10 1us 3 9"));
        assertEquals("f.txt:1: sport= expects a UDP port 1..65535, got '0'", error("H0 H1 10 1us sport=0"));
        assertEquals("f.txt:1: sport= expects a UDP port 1..65535, got '65536'", error("H0 H1 10 1us 3 sport=65536"));
        assertEquals("f.txt:1: sport= expects a UDP port 1..65535, got 'x'", error("H0 H1 10 1us sport=x"));
        assertEquals("f.txt:1: priority must be 0..7, got '8'", error("H0 H1 10 1us 8"));
        assertEquals("f.txt:1: source and destination are the same host (H1)", error("H1 H1 10 1us"));
        assertTrue(error("3\n0 1 3 100 1000 0.1\n").contains("ns-3 flow.txt"), "an unconverted ns-3 file is recognised");
    }

    @Test
    void indicesOnlyWithoutAScenario() throws IOException {
        FlowListReader.HostResolver r = FlowListReader.byIndex(4);
        assertEquals(2, r.resolve("2"));
        assertEquals("host index 4 is out of range (0..3)",
                assertThrows(IllegalArgumentException.class, () -> r.resolve("4")).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> r.resolve("H0")).getMessage()
                .contains("host names need the scenario"));
    }
}
