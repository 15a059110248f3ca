package org.pfcswitch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * A careless or hostile user's inputs, one table: command lines, switch configs, MMU and scenario
 * files. Each must end with its exit status, exactly one line on stderr that names what was wrong
 * (the hint after a usage error, where the usage is, is not counted), no stack trace, and no output file.
 * In-process through picocli (fast); the loader paths whose failures bypassed picocli's error
 * handling (a stack overflow, ImageIO printing to System.err) also through a separate JVM.
 * The control API's bodies are in {@link BadApiInputTest}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BadInputTest {

    @TempDir
    static Path dir;

    private static final String PORT = "ports:\n  - {name: a, device: net_ring0}\n";
    private static final String TWO_PORTS = "ports:\n  - {name: a, device: net_ring0}\n  - {name: b, device: net_ring1}\n";
    private static final String SCENARIO = Path.of("..", "testbed-configs", "scenarios", "spfc-victim.yaml").toString();
    private static final String MMU = "mmu:\n  ports: {count: 4, speed: 100G}\n";

    /** One bad input: the command line, its exit status and a piece of the one line that must name the problem. */
    record Case(String name, List<String> args, int exit, String says) {
        @Override
        public String toString() {
            return name + " " + String.join(" ", args);
        }
    }

    private final List<Case> cases = new ArrayList<>();
    private Path trace;

    @BeforeAll
    void writeFixtures() throws IOException {
        trace = dir.resolve("trace.csv");
        Cli sim = Cli.run("sim", "-c", SCENARIO, "--scheme", "dt", "--set", "duration=2ms",
                "--set", "measure.to=2ms", "--trace", trace.toString());
        assertEquals(0, sim.exitCode(), sim.err());
    }

    private static String file(String name, String text) throws IOException {
        Path f = dir.resolve(name);
        Files.writeString(f, text);
        return f.toString();
    }

    private static String bytes(String name, byte[] content) throws IOException {
        Path f = dir.resolve(name);
        Files.write(f, content);
        return f.toString();
    }

    private void add(String name, int exit, String says, String... args) {
        cases.add(new Case(name, List.of(args), exit, says));
    }

    /** A switch config checked by {@code run --check}. */
    private void switchConfig(String name, String yaml, String says) throws IOException {
        add("switch:" + name, 1, says, "run", "-c", file(name + ".yaml", yaml), "--check");
    }

    /** An {@code mmu:} file read by {@code mmu explain}. */
    private void mmuConfig(String name, String yaml, String says) throws IOException {
        add("mmu:" + name, 1, says, "mmu", "explain", "-c", file(name + ".yaml", yaml));
    }

    /** The shipped scenario with one override, read by {@code sim}. */
    private void scenario(String name, String override, String says) {
        add("sim:" + name, 1, says, "sim", "-c", SCENARIO, "--scheme", "dt", "--set", override);
    }

    /** Every {@code run} case has {@code --check}: without the check under test it must not start a switch in this JVM. */
    private void commandLines() throws IOException {
        String good = file("good.yaml", PORT);
        String out = dir.resolve("out.pcap").toString();
        add("stats-every NaN", 2, "'NaN' is not a finite number", "run", "-c", good, "--stats-every", "NaN", "--check");
        add("stats-every Infinity", 2, "'Infinity' is not a finite number", "run", "-c", good, "--stats-every", "Infinity", "--check");
        add("stats-every text", 2, "'soon' is not a number", "run", "-c", good, "--stats-every", "soon", "--check");
        add("stats-every negative", 2, "--stats-every must be >= 0", "run", "-c", good, "--stats-every", "-1", "--check");
        add("record-max 0", 2, "--record-max must be 1..1000000000, got 0", "run", "-c", good, "--record-max", "0", "--check");
        add("record-max past its bound", 2, "--record-max must be 1..1000000000, got 20000000000", "run", "-c", good,
                "--record-max", "20000000000", "--check");
        add("control-port 0", 2, "--control-port must be 1..65535", "run", "-c", good, "--control-port", "0", "--check");
        add("control-port 70000", 2, "--control-port must be 1..65535", "run", "-c", good, "--control-port", "70000", "--check");
        add("run missing file", 1, "no such file", "run", "-c", dir.resolve("nope.yaml").toString(), "--check");
        add("run a folder", 1, "is a directory", "run", "-c", dir.toString(), "--check");
        add("run unknown scheme", 1, "scheme must be one of", "run", "-c", good, "--scheme", "fifo", "--check");
        add("run unknown shadow", 2, "fifo", "run", "-c", good, "--shadow", "fifo", "--check");
        add("show watch NaN", 2, "'NaN' is not a finite number", "show", "ports", "--watch", "NaN");
        add("show watch -Infinity", 2, "not a finite number", "show", "ports", "--watch", "-Infinity");
        // /dev/full: without the bound under test these would write gigabytes; there they fail at once instead
        add("frame count 2e9", 2, "would write more than 1 GiB", "frame", "pfc", "--priorities", "3", "--count", "2000000000",
                "--out", "/dev/full");
        add("frame count jumbo", 2, "would write more than 1 GiB", "frame", "roce", "--payload", "9000", "--count",
                "200000", "--out", "/dev/full");
        add("frame count 0", 2, "--count must be at least 1", "frame", "pfc", "--priorities", "3", "--count", "0", "--out", out);
        add("frame count -5", 2, "--count must be at least 1", "frame", "pause", "--quanta", "1", "--count", "-5", "--out", out);
        add("frame count text", 2, "--count", "frame", "pfc", "--priorities", "3", "--count", "many", "--out", out);
        add("frame gap negative", 2, "--gap-ns must not be negative", "frame", "pfc", "--priorities", "3", "--gap-ns", "-1", "--out", out);
        add("frame gap overflow", 2, "does not fit in a 64-bit timestamp", "frame", "pfc", "--priorities", "3", "--count", "10",
                "--gap-ns", "4000000000000000000", "--out", out);
        add("frame priority 9", 2, "priority must be 0..7", "frame", "pfc", "--priorities", "9", "--out", out);
        add("frame priority twice", 2, "given twice", "frame", "pfc", "--priorities", "3,3", "--out", out);
        add("frame quanta 70000", 2, "65535", "frame", "pause", "--quanta", "70000", "--out", out);
        add("frame bad mac", 2, "--src-mac", "frame", "pause", "--quanta", "1", "--src-mac", "zz:zz", "--out", out);
        add("frame payload 10000", 2, "--payload must be 0..9000", "frame", "roce", "--payload", "10000", "--out", out);
        add("frame dscp 64", 2, "dscp", "frame", "roce", "--dscp", "64", "--out", out);
        add("frame bfc op", 2, "--op", "frame", "bfc", "--op", "explode", "--out", out);
        add("decode missing", 1, "no such file", "decode", dir.resolve("nope.pcap").toString());
        add("decode empty", 1, "the file is empty", "decode", bytes("empty.pcap", new byte[0]));
        add("decode /dev/null", 1, "/dev/null: not a pcap file", "decode", "/dev/null");
        add("decode text", 1, "not a pcap file: magic", "decode", file("text.pcap", "this is no capture, just some words\n"));
        add("decode folder", 1, "is a directory", "decode", dir.toString());
        add("decode pcapng", 1, "pcapng is not supported",
                "decode", bytes("x.pcapng", new byte[] {0x0a, 0x0d, 0x0d, 0x0a, 28, 0, 0, 0, 0x4d, 0x3c, 0x2b, 0x1a,
                        1, 0, 0, 0, -1, -1, -1, -1, -1, -1, -1, -1}));
        add("decode short header", 1, "shorter than the 24-byte file header", "decode",
                bytes("short.pcap", new byte[] {(byte) 0xd4, (byte) 0xc3, (byte) 0xb2, (byte) 0xa1}));
        add("sim seeds 2e9", 2, "--seeds 2000000000: give 1..100000", "sim", "-c", SCENARIO, "--seeds", "2000000000");
        add("sim seeds 0", 2, "--seeds 0", "sim", "-c", SCENARIO, "--seeds", "0");
        add("sim seed range", 2, "the range is empty", "sim", "-c", SCENARIO, "--seed", "5..1");
        add("sim seed huge range", 2, "more than 100000 seeds", "sim", "-c", SCENARIO, "--seed", "1..2000000000");
        add("sim seed text", 2, "--seed wants N or A..B", "sim", "-c", SCENARIO, "--seed", "one");
        add("sim jobs 0", 2, "--jobs", "sim", "-c", SCENARIO, "--jobs", "0");
        add("sim trace every 1ns", 2, "more than 1000000 samples per queue", "sim", "-c", SCENARIO, "--scheme", "dt",
                "--trace", dir.resolve("t.csv").toString(), "--trace-every", "1ns");
        add("sim trace every 0", 2, "--trace-every", "sim", "-c", SCENARIO, "--trace", dir.resolve("t.csv").toString(),
                "--trace-every", "0");
        add("sim trace every text", 2, "--trace-every", "sim", "-c", SCENARIO, "--trace", dir.resolve("t.csv").toString(),
                "--trace-every", "often");
        add("sim set no equals", 1, "--set expects key.path=value", "sim", "-c", SCENARIO, "--set", "duration");
        add("sim set unknown path", 1, "does not exist", "sim", "-c", SCENARIO, "--set", "nothing.here=1");
        add("sim replay buffer", 2, "--buffer must be at least", "sim", "--replay", dir.resolve("r.rec").toString(),
                "--buffer", "10");
        add("sim missing scenario", 1, "no such file", "sim", "-c", dir.resolve("nope.yaml").toString());
        add("set param no equals", 2, "expected KEY=VALUE", "set", "param", "alpha");
        add("set param twice", 2, "alpha is given twice", "set", "param", "alpha=1", "alpha=2");
        add("set scheme missing", 2, "Missing required parameter", "set", "scheme");
        add("plot missing trace", 1, "no such file", "plot", dir.resolve("nope.csv").toString(), "--out",
                dir.resolve("p.png").toString());
        add("plot priority 9", 2, "--priority", "plot", trace.toString(), "--priority", "9", "--out",
                dir.resolve("p.png").toString());
        add("plot to a folder", 1, "it is a folder", "plot", trace.toString(), "--out", folderNamedLikeAFigure());
        add("plot under a file", 1, "trace.csv is a file, not a folder", "plot", trace.toString(), "--out",
                trace.resolve("p.png").toString());
        add("plot x without y", 2, "needs both --x KEY and --y METRIC", "plot", trace.toString(), "--x", "load",
                "--out", dir.resolve("p.png").toString());
        add("unknown command", 2, "Unmatched argument at index 0: 'fly' (did you mean flows?)", "fly");
        add("unknown option", 2, "Unknown option: '--colour'", "decode", "--colour", "x.pcap");
    }

    private void switchConfigs() throws IOException {
        switchConfig("deep-lists", "ports: " + "[".repeat(20_000), "nested more than 64 mappings or lists deep");
        switchConfig("deep-maps", "ports: " + "{a: ".repeat(5_000), "nested more than 64 mappings or lists deep");
        switchConfig("deep-65", PORT + "testbed: " + "[".repeat(65) + "]".repeat(65) + "\n", "nested more than 64");
        switchConfig("huge", PORT + "# " + "x".repeat(5 << 20) + "\n", "is too large for an input file (at most 4194304)");
        StringBuilder laughs = new StringBuilder(PORT + "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
        for (char c = 'b'; c <= 'z'; c++) {
            laughs.append(c).append(": &").append(c).append(" [").append(("*" + (char) (c - 1) + ", ").repeat(8))
                    .append('*').append((char) (c - 1)).append("]\n");
        }
        switchConfig("alias-bomb", laughs.toString(), "not valid YAML");
        switchConfig("latin-1", "ports:\n  - {name: caf\u00e9, device: net_ring0}\n", "name: use 1-32 letters");
        add("switch:not-utf8", 1, "not UTF-8 text: byte 21 (0xe9)", "run", "-c",
                bytes("latin1.yaml", "ports:\n  - {name: caf\u00e9, device: net_ring0}\n".getBytes(StandardCharsets.ISO_8859_1)),
                "--check");
        add("switch:utf-16", 1, "not UTF-8 text: byte 0 (0xff)", "run", "-c",
                bytes("utf16.yaml", ("\ufeff" + PORT).getBytes(StandardCharsets.UTF_16LE)), "--check");
        switchConfig("empty", "", "the file is empty");
        switchConfig("only-comments", "# nothing yet\n", "ports: missing");
        switchConfig("top-level-list", "- a\n- b\n", "expected a mapping of keys at the top level");
        switchConfig("duplicate-key", PORT + "ports: []\n", "duplicate key");
        switchConfig("tab-indent", "ports:\n\t- {name: a}\n", "not valid YAML");
        switchConfig("unclosed-quote", "ports:\n  - {name: \"a, device: net_ring0}\n", "not valid YAML");
        switchConfig("unknown-key", PORT + "colour: blue\n", "colour: unknown key");
        switchConfig("no-ports", "mmu: {scheme: dt}\n", "ports: missing");
        switchConfig("ports-scalar", "ports: 3\n", "ports: expected a list");
        switchConfig("speed-0", "ports:\n  - {name: a, device: net_ring0, speed: 0}\n", "ports[0].speed: a line rate must be above 0");
        switchConfig("speed-0G", "ports:\n  - {name: a, device: net_ring0, speed: 0G}\n", "ports[0].speed: a line rate must be above 0");
        switchConfig("speed-negative", "ports:\n  - {name: a, device: net_ring0, speed: -5}\n", "ports[0].speed: must not be negative");
        switchConfig("speed-text", "ports:\n  - {name: a, device: net_ring0, speed: fast}\n", "ports[0].speed: expected a rate");
        switchConfig("speed-nan", "ports:\n  - {name: a, device: net_ring0, speed: .nan}\n", "ports[0].speed: expected a rate");
        switchConfig("cable-negative", "ports:\n  - {name: a, device: net_ring0, cableDelay: -1}\n",
                "ports[0].cableDelay: must not be negative");
        switchConfig("rx-descriptors", "ports:\n  - {name: a, device: net_ring0, rxDescriptors: 8}\n",
                "ports[0].rxDescriptors: must be between 32 and 16384");
        switchConfig("tx-descriptors", "ports:\n  - {name: a, device: net_ring0, txDescriptors: 100000}\n",
                "ports[0].txDescriptors: must be between 32 and 16384");
        switchConfig("port-name", "ports:\n  - {name: 'a b', device: net_ring0}\n", "ports[0].name: use 1-32 letters");
        switchConfig("port-twice", "ports:\n  - {name: a, device: net_ring0}\n  - {name: a, device: net_ring1}\n",
                "duplicate port 'a'");
        switchConfig("device-twice", "ports:\n  - {name: a, device: net_ring0}\n  - {name: b, device: net_ring0}\n",
                "duplicate device");
        switchConfig("bad-pci", "ports:\n  - {name: a, device: \"0000:3g:00.0\"}\n", "malformed PCI address");
        switchConfig("clone-of-nothing", PORT + "  - {name: c, kind: clone, of: z}\n", "no port called 'z'");
        switchConfig("clone-count", PORT + "  - {name: c, kind: clone, of: a, count: 1000}\n", "count: must be between 1 and 64");
        switchConfig("mbufs-1", PORT + "eal: {mbufs: 1}\n", "eal.mbufs: 1 mbufs cannot fill the ports' rx and tx rings");
        switchConfig("mbufs-rings", PORT + "eal: {mbufs: 2000}\n", "give at least 2880");
        switchConfig("mbufs-negative", PORT + "eal: {mbufs: -1}\n", "eal.mbufs: must be between 0");
        switchConfig("memory", PORT + "eal: {memoryMb: 1}\n", "eal.memoryMb: must be between 64");
        switchConfig("hugepages", PORT + "eal: {hugepages: maybe}\n", "eal.hugepages: expected auto, on or off");
        switchConfig("lcores-open-group", PORT + "eal: {lcores: \"0@(0-\"}\n", "eal.lcores: '0@(0-' is not an EAL lcore map");
        switchConfig("lcores-words", PORT + "eal: {lcores: all}\n", "eal.lcores: 'all' is not an EAL lcore map");
        switchConfig("workers-0", TWO_PORTS + "workers: 0\n", "workers: give a count from 1 to 2");
        switchConfig("workers-5", TWO_PORTS + "workers: 5\n", "workers: give a count from 1 to 2");
        switchConfig("workers-cpu-text", TWO_PORTS + "workers: [{cpu: many, ports: [a]}, {cpu: 1, ports: [b]}]\n",
                "workers[0].cpu: not a CPU list");
        switchConfig("workers-cpu-2000", TWO_PORTS + "workers: [{cpu: 2000, ports: [a]}, {cpu: 1, ports: [b]}]\n",
                "workers[0].cpu: not a CPU list");
        switchConfig("workers-port-twice", TWO_PORTS + "workers: [{ports: [a]}, {ports: [a]}]\n", "owned by another worker");
        switchConfig("pmax-0", PORT + "mmu: {ecn: {pmax: 0}}\n", "mmu.ecn.pmax must be a probability in (0, 1]");
        switchConfig("pmax-1.5", PORT + "mmu: {ecn: {pmax: 1.5}}\n", "mmu.ecn.pmax must be a probability in (0, 1]");
        switchConfig("pmax-nan", PORT + "mmu: {ecn: {pmax: .nan}}\n", "mmu.ecn.pmax: expected a finite number, got 'NaN'");
        switchConfig("pmax-inf", PORT + "mmu: {ecn: {pmax: .inf}}\n", "mmu.ecn.pmax: expected a finite number");
        switchConfig("pmax-text", PORT + "mmu: {ecn: {pmax: high}}\n", "mmu.ecn.pmax: expected a finite number, got 'high'");
        switchConfig("kmax-below-kmin", PORT + "mmu: {ecn: {kminBytes: 400KiB, kmaxBytes: 100KiB}}\n", "ecn.kmaxBytes must be >= kminBytes");
        switchConfig("spfc-kSpfc-abc", PORT + "mmu: {schemes: {spfc: {kSpfc: abc}}}\n", "mmu.schemes.spfc.kSpfc must be a number");
        switchConfig("reverie-alpha", PORT + "mmu: {schemes: {reverie: {alpha: -5}}}\n",
                "mmu.schemes.reverie.alpha is not a parameter of reverie");
        switchConfig("bfc-nonsense", PORT + "mmu: {schemes: {bfc: {nonsense: 1}}}\n", "mmu.schemes.bfc.nonsense is not a parameter of bfc");
        switchConfig("dsh-alpha-0", PORT + "mmu: {schemes: {dsh: {alpha: 0}}}\n", "mmu.schemes.dsh.alpha must be");
        switchConfig("capfc-typo", PORT + "mmu: {schemes: {capfc: {alhpa: 1}}}\n", "mmu.schemes.capfc.alhpa is not a parameter");
        switchConfig("sonic-nan", PORT + "mmu: {schemes: {sonic: {alphaIngress: .nan}}}\n", "mmu.schemes.sonic.alphaIngress must be");
        switchConfig("st-negative", PORT + "mmu: {schemes: {st: {thresholdBytes: -1}}}\n", "mmu.schemes.st.thresholdBytes must be");
        switchConfig("dt-infinity", PORT + "mmu: {schemes: {dt: {alpha: Infinity}}}\n", "mmu.schemes.dt.alpha must be");
        switchConfig("scheme-unknown", PORT + "mmu: {schemes: {fifo: {x: 1}}}\n", "schemes.fifo: unknown key");
        switchConfig("scheme-name", PORT + "mmu: {scheme: fifo}\n", "scheme must be one of");
        switchConfig("total-0", PORT + "mmu: {totalBytes: 0}\n", "mmu.totalBytes must be > 0");
        switchConfig("total-unit", PORT + "mmu: {totalBytes: 16 furlongs}\n", "mmu.totalBytes: expected a size");
        switchConfig("private-too-big", PORT + "mmu: {privateBytes: 1GiB}\n", "privateBytes leaves no buffer");
        switchConfig("headroom-formula", PORT + "mmu: {headroomFormula: guess}\n", "headroomFormula");
        switchConfig("cell-bytes", PORT + "mmu: {cellBytes: 100000}\n", "cellBytes must be 0 (bytes) or 1..65536");
        switchConfig("lossless-9", PORT + "mmu: {losslessPriorities: [9]}\n", "losslessPriorities: values must be between 0 and 7");
        switchConfig("mmu-ports", PORT + "mmu: {ports: {count: 2, speed: 10G}}\n", "mmu.ports: this file's ports are its");
        switchConfig("trust", PORT + "classification: {trust: vibes}\n", "classification.trust: expected dscp or pcp");
        switchConfig("default-priority", PORT + "classification: {defaultPriority: 9}\n", "defaultPriority: must be between 0 and 7");
        switchConfig("table-size", PORT + "forwarding: {tableSize: 1}\n", "forwarding.tableSize: must be between 16");
        switchConfig("static-mac", PORT + "forwarding: {staticMacs: [{mac: nope, port: a}]}\n", "staticMacs[0].mac");
        switchConfig("static-port", PORT + "forwarding: {staticMacs: [{mac: \"02:00:00:00:00:01\", port: z}]}\n",
                "no port is called 'z'");
        switchConfig("pause-quanta", PORT + "pfc: {pauseQuanta: 0}\n", "pfc.pauseQuanta: must be between 1 and 65535");
        switchConfig("deadlock-check", PORT + "deadlock: {check: 1ns}\n", "deadlock.check: must be between 100us and 10s");
        switchConfig("idle-sleep", PORT + "poll: {idleSleep: 1s}\n", "poll.idleSleep: must be between 0");
        switchConfig("learning", PORT + "forwarding: {learning: sometimes}\n", "forwarding.learning: expected true or false");
    }

    private void mmuAndScenarioFiles() throws IOException {
        mmuConfig("mmu-speed-0", "mmu:\n  ports: {count: 4, speed: 0}\n", "mmu.ports.speed: a line rate must be above 0");
        mmuConfig("mmu-list-speed-0", "mmu:\n  ports: [{speed: 100G}, {speed: 0}]\n", "mmu.ports[1].speed: a line rate must be above 0");
        mmuConfig("mmu-count-0", "mmu:\n  ports: {count: 0, speed: 100G}\n", "mmu.ports.count");
        mmuConfig("mmu-no-ports", "mmu:\n  scheme: dt\n", "mmu.ports: required key is missing");
        mmuConfig("mmu-pmax-0", MMU + "  ecn: {pmax: 0}\n", "mmu.ecn.pmax must be a probability in (0, 1]");
        mmuConfig("mmu-inactive-spfc", MMU + "  scheme: dt\n  schemes: {spfc: {kSpfc: abc}}\n", "mmu.schemes.spfc.kSpfc");
        mmuConfig("mmu-inactive-reverie", MMU + "  schemes: {reverie: {gamma: 5}}\n", "mmu.schemes.reverie.gamma must be");
        mmuConfig("mmu-deep", "mmu: " + "[".repeat(20_000), "nested more than 64");
        mmuConfig("mmu-empty", "", "the file is empty");
        add("mmu:not-utf8", 1, "not UTF-8 text", "mmu", "explain", "-c", bytes("mmu-latin1.yaml",
                (MMU + "  scheme: d\u00e9\n").getBytes(StandardCharsets.ISO_8859_1)));
        byte[] latin1Flows = "2\n0 1 3 100 1000 2.0\n1 0 3 100 1000 2.5 caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1);
        add("flows from-ns3 not-utf8", 1, "ns3-latin1.txt: not UTF-8 text", "flows", "from-ns3",
                bytes("ns3-latin1.txt", latin1Flows), "--out", dir.resolve("flows-out.txt").toString());
        add("flows fct-from-ns3 not-utf8", 1, "fct-latin1.txt: not UTF-8 text", "flows", "fct-from-ns3",
                bytes("fct-latin1.txt", latin1Flows), "--out", dir.resolve("fct-out.csv").toString());
        scenario("duration-0", "duration=0", "duration: must be above 0");
        scenario("sample-1ns", "sample=1ns", "sample: a sample every 1 ns");
        scenario("pmax-0", "mmu.ecn.pmax=0", "mmu.ecn.pmax must be a probability in (0, 1]");
        scenario("pmax-nan", "mmu.ecn.pmax=.nan", "mmu.ecn.pmax: expected a finite number");
        scenario("inactive-bfc", "mmu.schemes.bfc={nonsense: 1}", "mmu.schemes.bfc.nonsense is not a parameter of bfc");
        scenario("host-speed-0", "hosts=[{name: H, count: 2, speed: 0}]", "hosts[0].speed: a line rate must be above 0");
        scenario("set-deep", "mmu.ecn=" + "[".repeat(100), "not a YAML value");
    }

    @Test
    void everyBadInputGetsItsStatusAndOneLineWithoutATrace() throws IOException {
        commandLines();
        switchConfigs();
        mmuAndScenarioFiles();
        assertTrue(cases.size() >= 100, "at least 100 bad inputs, got " + cases.size());
        List<String> failures = new ArrayList<>();
        for (Case c : cases) {
            Cli r = Cli.run(c.args().toArray(String[]::new));
            String problem = judge(c, r.exitCode(), r.err());
            if (problem != null) {
                failures.add(problem);
            }
        }
        assertTrue(failures.isEmpty(), failures.size() + " of " + cases.size() + " bad inputs:\n" + String.join("\n", failures));
        assertFalse(Files.exists(dir.resolve("out.pcap")), "no refused frame command wrote its file");
    }

    /** The name of an Error (StackOverflowError, OutOfMemoryError) in a trace or a message. */
    private static final java.util.regex.Pattern THROWABLE_ERROR = java.util.regex.Pattern.compile("[a-z]Error\\b");

    /** Null when the run ended as the case says; else what went wrong. */
    static String judge(Case c, int exit, String err) {
        List<String> lines = errorLines(err);
        if (exit != c.exit()) {
            return c + ": exit " + exit + " (want " + c.exit() + "): " + err;
        }
        if (err.contains("Exception") || err.contains("\tat ") || THROWABLE_ERROR.matcher(err).find()) {
            return c + ": a stack trace or exception name on stderr: " + err;
        }
        if (lines.size() != 1) {
            return c + ": " + lines.size() + " error lines, want 1: " + lines;
        }
        if (!lines.getFirst().contains(c.says())) {
            return c + ": the line does not say '" + c.says() + "': " + lines.getFirst();
        }
        return null;
    }

    /** A folder whose name has a figure's extension, so that only its being a folder is wrong. */
    private String folderNamedLikeAFigure() throws java.io.IOException {
        return java.nio.file.Files.createDirectories(dir.resolve("figure.png")).toString();
    }

    /**
     * stderr's lines without blank ones, and without the hint that follows a usage error (where
     * the command's usage is), which says nothing about what was wrong; a usage block would count.
     */
    static List<String> errorLines(String err) {
        List<String> lines = new ArrayList<>();
        for (String line : err.split("\n")) {
            if (!line.isBlank() && !(line.startsWith(PfcSwitch.USAGE_HINT_START) && line.endsWith("--help' for its usage."))) {
                lines.add(line);
            }
        }
        return lines;
    }

    /**
     * Through a JVM of its own, as {@code ./pfcswitch} runs it: a file of 20,000 nested lists once
     * overflowed the composer's stack (a 1,024-line StackOverflowError), ImageIO printed its own
     * stack trace to System.err before the one-line error, and an offline CPU was only found after
     * DPDK had started.
     */
    @Test
    void theLoaderPathsGiveOneLineInASeparateJvm() throws Exception {
        String deep = file("jvm-deep.yaml", "mmu: " + "[".repeat(20_000));
        String cpu99 = file("cpu99.yaml", TWO_PORTS + "eal: {hugepages: off}\nworkers: [{cpu: 99, ports: [a]}, {cpu: 0, ports: [b]}]\n");
        String lcores99 = file("lcores99.yaml", TWO_PORTS + "eal: {hugepages: off, lcores: \"0@(0,99)\"}\n");
        List<Case> jvm = List.of(
                new Case("run deep", List.of("run", "-c", deep, "--check"), 1, "nested more than 64"),
                new Case("sim deep", List.of("sim", "-c", deep), 1, "nested more than 64"),
                new Case("mmu explain deep", List.of("mmu", "explain", "-c", deep), 1, "nested more than 64"),
                new Case("plot to a folder", List.of("plot", trace.toString(), "--out", folderNamedLikeAFigure()), 1, "it is a folder"),
                new Case("plot into /proc", List.of("plot", trace.toString(), "--out", "/proc/pfcswitch-plot.png"), 1,
                        "cannot write /proc/pfcswitch-plot.png: the file cannot be created there"),
                new Case("cpu 99 before DPDK", List.of("run", "-c", cpu99, "--no-control"), 1,
                        "workers[0].cpu: CPU 99 is not online on this machine"),
                new Case("lcores on cpu 99 before DPDK", List.of("run", "-c", lcores99, "--no-control"), 1,
                        "eal.lcores: CPU 99 is not online on this machine"));
        List<String> failures = new ArrayList<>();
        for (Case c : jvm) {
            List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "--enable-native-access=ALL-UNNAMED", "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                    PfcSwitch.class.getName()));
            command.addAll(c.args());
            Path out = dir.resolve("jvm.out");
            Path errFile = dir.resolve("jvm.err");
            Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(errFile.toFile()).start();
            boolean ended = p.waitFor(60, TimeUnit.SECONDS);
            if (!ended) {
                p.destroyForcibly().waitFor();
            }
            String err = Files.readString(errFile);
            String stdout = Files.readString(out);
            String problem = !ended ? c + ": did not end within 60 s; stdout: " + stdout : judge(c, p.exitValue(), err);
            if (problem != null) {
                failures.add(problem);
            }
            if (stdout.contains("packet pool") || stdout.contains("EAL")) {
                failures.add(c + ": DPDK started before the refusal: " + stdout);
            }
        }
        assertTrue(failures.isEmpty(), String.join("\n", failures));
    }
}
