package org.pfcswitch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code pfcswitch flows}: ns-3 flow files to flow lists and back, ns-3 FCT files to our CSV, and {@code check}. */
class FlowsCommandTest {

    @TempDir
    Path dir;

    /** Five flows in ns-3's layout (HPCC, PowerTCP, Reverie examples): count, then src dst pg dport size start. */
    private static final String NS3 = """
            5
            0 5 3 10000 1000000 2.000001
            1 5 3 10001 1000000 2.000001
            6 2 3 10002 64000 2.00002
            3 7 1 10003 2000 2.5
            4 0 3 10004 123456789 2.000000999
            """;

    @Test
    void fromNs3ThenToNs3GivesTheSameFlows() throws IOException {
        Path ns3 = Files.writeString(dir.resolve("flow.txt"), NS3);
        Path list = dir.resolve("flows.txt");
        Cli from = Cli.run("flows", "from-ns3", ns3.toString(), "--hosts", "8", "--out", list.toString());
        assertEquals(0, from.exitCode(), from.err());
        assertEquals(list + ": 5 flows, starts 2.000000999 s .. 2.5 s\n", from.out());
        List<String> data = Files.readAllLines(list).stream().filter(l -> !l.startsWith("#")).toList();
        assertEquals(List.of("4 0 123456789 2.000000999 3", "0 5 1000000 2.000001 3", "1 5 1000000 2.000001 3",
                "6 2 64000 2.00002 3", "3 7 2000 2.5 1"), data, "sorted by start, ties in file order, pg as priority");

        Path back = dir.resolve("flow2.txt");
        Cli to = Cli.run("flows", "to-ns3", list.toString(), "--out", back.toString());
        assertEquals(0, to.exitCode(), to.err());
        assertEquals("""
                5
                4 0 3 10000 123456789 2.000000999
                0 5 3 10001 1000000 2.000001
                1 5 3 10002 1000000 2.000001
                6 2 3 10003 64000 2.00002
                3 7 1 10004 2000 2.5
                """, Files.readString(back));

        Path again = dir.resolve("flows2.txt");
        assertEquals(0, Cli.run("flows", "from-ns3", back.toString(), "--out", again.toString()).exitCode());
        assertEquals(data, Files.readAllLines(again).stream().filter(l -> !l.startsWith("#")).toList(), "a fixed point");
    }

    @Test
    void rebaseAndNoPriority() throws IOException {
        Path ns3 = Files.writeString(dir.resolve("flow.txt"), NS3);
        Path list = dir.resolve("flows.txt");
        Cli c = Cli.run("flows", "from-ns3", ns3.toString(), "--rebase", "--no-priority", "--out", list.toString());
        assertEquals(0, c.exitCode(), c.err());
        List<String> data = Files.readAllLines(list).stream().filter(l -> !l.startsWith("#")).toList();
        assertEquals("4 0 123456789 0", data.get(0));
        assertEquals("0 5 1000000 0.000000001", data.get(1));
        assertEquals("3 7 2000 0.499999001", data.get(4));
    }

    @Test
    void namesNeedTheScenario() throws IOException {
        Path list = Files.writeString(dir.resolve("flows.txt"), "L0H0 L1H3 1000 1us 3\n# c\n2 L0H1 64KiB 0.5ms\n");
        String scenario = Path.of("..", "testbed-configs", "scenarios", "leafspine-flows.yaml").toString();
        Path out = dir.resolve("flow.txt");
        Cli c = Cli.run("flows", "to-ns3", list.toString(), "-c", scenario, "--priority", "2", "--out", out.toString());
        assertEquals(0, c.exitCode(), c.err());
        assertEquals("2\n0 7 3 10000 1000 0.000001\n2 1 2 10001 65536 0.0005\n", Files.readString(out));
        Cli same = Cli.run("flows", "to-ns3", list.toString(), "-c", scenario, "--dport", "4791", "--dport-step", "0",
                "--out", out.toString());
        assertEquals(0, same.exitCode(), same.err());
        assertEquals("2\n0 7 3 4791 1000 0.000001\n2 1 3 4791 65536 0.0005\n", Files.readString(out), "every flow RoCEv2's port");
        Cli bad = Cli.run("flows", "to-ns3", list.toString(), "-c", scenario, "--dport-step", "-1", "--out", out.toString());
        assertEquals(2, bad.exitCode());
        assertTrue(bad.err().contains("--dport-step must be >= 0, got -1"), bad.err());
        Cli noNames = Cli.run("flows", "to-ns3", list.toString(), "--out", out.toString());
        assertEquals(1, noNames.exitCode());
        assertTrue(noNames.err().contains(list + ":1: expected a host index, got 'L0H0' (host names need the scenario"),
                noNames.err());
    }

    @Test
    void theScenariosLeafSpineAsAnNs3Topology() throws IOException {
        Path list = Files.writeString(dir.resolve("flows.txt"), "L0H0 L1H3 1000 1us\n");
        String scenario = Path.of("..", "testbed-configs", "scenarios", "leafspine-flows.yaml").toString();
        Path topo = dir.resolve("topology.txt");
        Cli c = Cli.run("flows", "to-ns3", list.toString(), "-c", scenario, "--out", dir.resolve("flow.txt").toString(),
                "--topology", topo.toString());
        assertEquals(0, c.exitCode(), c.err());
        // 8 hosts (0..7), leaves 8 and 9, spines 10 and 11; 8 host links + 4 fabric links, 100G and 1 us each
        assertEquals("""
                12 4 2 12 100000000000 100000000000
                8 9 10 11
                0 8 100000000000 1000ns 0
                1 8 100000000000 1000ns 0
                2 8 100000000000 1000ns 0
                3 8 100000000000 1000ns 0
                4 9 100000000000 1000ns 0
                5 9 100000000000 1000ns 0
                6 9 100000000000 1000ns 0
                7 9 100000000000 1000ns 0
                8 10 100000000000 1000ns 0
                8 11 100000000000 1000ns 0
                9 10 100000000000 1000ns 0
                9 11 100000000000 1000ns 0
                """, Files.readString(topo));
        c = Cli.run("flows", "to-ns3", list.toString(), "-c", scenario, "--out", dir.resolve("flow.txt").toString(),
                "--topology", topo.toString(), "--topology-format", "hpcc");
        assertEquals(0, c.exitCode(), c.err());
        assertTrue(Files.readString(topo).startsWith("12 4 2 12\n8 9 10 11\n0 8 "), Files.readString(topo));
    }

    @Test
    void badNs3LinesNameTheLine() throws IOException {
        Path ns3 = Files.writeString(dir.resolve("flow.txt"), "2\n0 5 3 10000 1000 2.0\n0 300 3 10001 1000 2.0\n");
        Cli c = Cli.run("flows", "from-ns3", ns3.toString(), "--hosts", "256", "--out", dir.resolve("o").toString());
        assertEquals(1, c.exitCode());
        assertTrue(c.err().contains(ns3 + ":3: node 300 is not a host (--hosts 256: hosts are nodes 0..255)"), c.err());
        assertTrue(c.err().startsWith("pfcswitch flows from-ns3: error: "), "one line, no usage: " + c.err());
        Files.writeString(ns3, "3\n0 5 3 10000 1000 2.0\n");
        c = Cli.run("flows", "from-ns3", ns3.toString(), "--out", dir.resolve("o").toString());
        assertTrue(c.err().contains(ns3 + ": the first line says 3 flows, the file has only 1"), c.err());
        Files.writeString(ns3, "1\n0 5 3 10000 1000 2.0\n1 5 3 10000 1000 2.0\n\n2 5 3 10000 1000 2.0\n");
        c = Cli.run("flows", "from-ns3", ns3.toString(), "--out", dir.resolve("o").toString());
        assertEquals(0, c.exitCode(), c.err());
        assertTrue(c.out().endsWith(": 1 flows, starts 2 s .. 2 s; 2 lines after the declared flow count ignored, as ns-3 does\n"),
                "ns-3 reads only the declared flows: " + c.out());
        Files.writeString(ns3, "1\n0 5 3 10000 1000\n");
        c = Cli.run("flows", "from-ns3", ns3.toString(), "--out", dir.resolve("o").toString());
        assertTrue(c.err().contains(ns3 + ":2: expected 6 columns (src dst pg dport size start), got 5"), c.err());
    }

    @Test
    void hpccFctToOurCsv() throws IOException {
        // node 0 = 0b000001, node 5 = 0b000501, node 300 = 0b012c01 (11.1.44.1)
        Path fct = Files.writeString(dir.resolve("out.fct"), """
                0b000001 0b000501 10000 100 1000000 2000001000 95000 90000
                0b012c01 0b000001 10001 101 2000 2500000000 4100 4000
                """);
        Path csv = dir.resolve("ns3.csv");
        Cli c = Cli.run("flows", "fct-from-ns3", fct.toString(), "--out", csv.toString());
        assertEquals(0, c.exitCode(), c.err());
        assertEquals("""
                flow,src,dst,size_bytes,start_ns,end_ns,fct_ns,ideal_ns,slowdown
                0,0,5,1000000,2000001000,2000096000,95000,90000,1.0556
                1,300,0,2000,2500000000,2500004100,4100,4000,1.0250
                """, Files.readString(csv));
    }

    @Test
    void fctWithTheScenariosHostNamesHasTheHeaderOfSimOut() throws IOException {
        Path fct = Files.writeString(dir.resolve("out.fct"), "0b000001 0b000701 10000 100 1000 1000 5000 4000\n");
        String scenario = Path.of("..", "testbed-configs", "scenarios", "leafspine-flows.yaml").toString();
        Path csv = dir.resolve("ns3.csv");
        Cli c = Cli.run("flows", "fct-from-ns3", fct.toString(), "-c", scenario, "--out", csv.toString());
        assertEquals(0, c.exitCode(), c.err());
        assertEquals(ns3Header() + "0,L0H0,L1H3,1000,1000,6000,5000,4000,1.2500\n", Files.readString(csv));
        Path res = dir.resolve("res");
        Cli sim = Cli.run("sim", "-c", scenario, "--scheme", "dt", "--set", "duration=50us", "--out", res.toString());
        assertEquals(0, sim.exitCode(), sim.err());
        assertEquals(ns3Header().strip(), Files.readAllLines(res.resolve("flows-dt.csv")).getFirst(),
                "the same columns as sim --out's per-flow records");
        Files.writeString(fct, "0b000001 0b000801 10000 100 1000 1000 5000 4000\n");
        c = Cli.run("flows", "fct-from-ns3", fct.toString(), "-c", scenario, "--out", csv.toString());
        assertTrue(c.err().contains(fct + ":1: node 8 is not a host of the scenario (hosts 0..7)"), c.err());
    }

    @Test
    void reverieFctHasNoEndpoints() throws IOException {
        Path fct = Files.writeString(dir.resolve("r.fct"), """
                timestamp flowsize fctus basefctus slowdown baserttus priority incastflow
                0.0011 20000 100000 8000 12.5 4000 3 0
                """);
        Path csv = dir.resolve("r.csv");
        Cli c = Cli.run("flows", "fct-from-ns3", fct.toString(), "--out", csv.toString());
        assertEquals(0, c.exitCode(), c.err());
        assertEquals(ns3Header() + "0,,,20000,1000000,1100000,100000,8000,12.5000\n", Files.readString(csv));
        Files.writeString(fct, "0b000001 0b000501 10000 100 1000000 2000001000 95000\n");
        c = Cli.run("flows", "fct-from-ns3", fct.toString(), "--out", csv.toString());
        assertTrue(c.err().contains(fct + ":1: expected 8 columns (sip dip sport dport size start fct standalone_fct), got 7"),
                c.err());
    }

    private static String ns3Header() {
        return "flow,src,dst,size_bytes,start_ns,end_ns,fct_ns,ideal_ns,slowdown\n";
    }

    @Test
    void aGridOverAnotherFlowListIsAnotherGrid() throws IOException {
        Path list = Files.writeString(dir.resolve("f.txt"), "H0 H1 1000 1us\nH2 H1 2000 2us\n");
        Path yaml = Files.writeString(dir.resolve("s.yaml"), """
                name: tiny
                duration: 20us
                cc: {mode: none}
                hosts: [{name: H, count: 3, speed: 100G, delay: 1us}]
                mmu: {totalBytes: 1MiB, losslessPriorities: [3]}
                traffic:
                  x: {kind: flows, file: f.txt}
                """);
        Path a = dir.resolve("a");
        Path b = dir.resolve("b");
        Cli first = Cli.run("sim", "-c", yaml.toString(), "--scheme", "dt", "--shard", "0/1", "--out", a.toString());
        assertEquals(0, first.exitCode(), first.err());
        Files.writeString(list, "H0 H1 1000 1us\nH2 H1 3000 2us\n");
        Cli second = Cli.run("sim", "-c", yaml.toString(), "--scheme", "dt", "--shard", "0/1", "--out", b.toString());
        assertEquals(0, second.exitCode(), second.err());
        String gridA = first.out().replaceAll("(?s).*of grid (\\w+).*", "$1");
        String gridB = second.out().replaceAll("(?s).*of grid (\\w+).*", "$1");
        assertTrue(!gridA.isEmpty() && !gridA.equals(first.out()), first.out());
        assertTrue(!gridA.equals(gridB), "the list's content is in the grid's fingerprint: " + gridA + " " + gridB);
    }

    @Test
    void checkReadsTheExampleList() {
        Cli c = Cli.run("flows", "check", Path.of("..", "testbed-configs", "workloads", "leafspine-flows.txt").toString(),
                "-c", Path.of("..", "testbed-configs", "scenarios", "leafspine-flows.yaml").toString());
        assertEquals(0, c.exitCode(), c.err());
        assertTrue(c.out().matches("(?s).*leafspine-flows.txt: 48 flows, \\d+ bytes, starts 0.000006 s .. 0.000\\d+ s; read in \\d+ ms\n"),
                c.out());
        Cli help = Cli.run("flows", "--help");
        assertTrue(help.out().contains("from-ns3") && help.out().contains("fct-from-ns3") && help.out().contains("to-ns3"),
                help.out());
    }
}
