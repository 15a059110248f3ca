package org.pfcswitch.cli;

import org.pfcswitch.codec.Bfc;
import org.pfcswitch.codec.Ipv4;
import org.pfcswitch.codec.MacControl;
import org.pfcswitch.codec.PcapWriter;
import org.pfcswitch.codec.Roce;
import org.pfcswitch.codec.RoceFrameBuilder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "frame",
        mixinStandardHelpOptions = true,
        description = {
            "Writes PFC, PAUSE, BFC control or RoCEv2 frames to a pcap file.",
            "",
            "For Wireshark, tcpreplay, a NIC test or 'pfcswitch decode'. Frames are written",
            "without FCS, padded to the 60-byte minimum; timestamps start at 0."
        },
        subcommands = {FrameCommand.Pfc.class, FrameCommand.Pause.class, FrameCommand.BfcFrame.class, FrameCommand.RoceFrame.class})
final class FrameCommand {

    /**
     * Options every frame sub-command shares, as a picocli mixin: where to write, how many, and the
     * source MAC; it also writes the frame.
     */
    static final class Output {
        /** The frame sub-command this mixin is part of. */
        @Spec(Spec.Target.MIXEE)
        CommandSpec command;

        @Option(names = "--out", required = true, paramLabel = "FILE.pcap", description = "The pcap file to write (replaced if it exists).")
        Path out;

        /** Largest pcap one command writes: a test fixture, not a traffic generator (replay it in a loop). */
        static final long MAX_FILE_BYTES = 1L << 30;
        private static final int PCAP_RECORD_HEADER_BYTES = 16;

        @Option(names = "--count", defaultValue = "1", paramLabel = "N",
                description = "How many copies to write, up to 1 GiB of pcap (default: ${DEFAULT-VALUE}).")
        int count;

        @Option(names = "--gap-ns", defaultValue = "1000", paramLabel = "NS",
                description = "Timestamp step between frames; the first is at 0 so output is reproducible (default: ${DEFAULT-VALUE}).")
        long gapNanos;

        @Option(names = "--nanos", description = "Write a nanosecond-precision pcap (default: microsecond).")
        boolean nanos;

        @Option(names = "--src-mac", defaultValue = "02:00:00:00:00:01", paramLabel = "MAC", converter = MacConverter.class,
                description = "Source MAC (default: ${DEFAULT-VALUE}).")
        long srcMac;

        /** Builds one frame into {@code frame}, returning its length. */
        interface Builder {
            int build(MemorySegment frame);
        }

        /** Writes {@code count} copies of the frame {@code builder} makes in a buffer of {@code capacity} bytes. */
        void write(int capacity, Builder builder) throws IOException {
            if (count < 1) {
                throw new ParameterException(command.commandLine(), "--count must be at least 1, got " + count);
            }
            if (gapNanos < 0) {
                throw new ParameterException(command.commandLine(), "--gap-ns must not be negative, got " + gapNanos);
            }
            if (gapNanos > Long.MAX_VALUE / count) {
                throw new ParameterException(command.commandLine(), "--gap-ns " + gapNanos + " x --count " + count
                        + " does not fit in a 64-bit timestamp: at most " + Long.MAX_VALUE / count);
            }
            int length;
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment frame = arena.allocate(capacity);
                length = builder.build(frame);
                long maxCount = MAX_FILE_BYTES / (PCAP_RECORD_HEADER_BYTES + length);
                if (count > maxCount) {
                    throw new ParameterException(command.commandLine(), "--count " + count + " of " + length
                            + "-byte frames would write more than " + (MAX_FILE_BYTES >> 30) + " GiB: at most " + maxCount
                            + " (replay the file in a loop for more)");
                }
                try (PcapWriter w = PcapWriter.create(out, nanos ? PcapWriter.Precision.NANOS : PcapWriter.Precision.MICROS)) {
                    for (int i = 0; i < count; i++) {
                        w.write(i * gapNanos, frame, 0, length);
                    }
                }
            }
            command.commandLine().getOut().printf("wrote %d %s frame%s of %d bytes to %s%n",
                    count, command.name(), count == 1 ? "" : "s", length, out);
        }
    }

    @Command(name = "pfc",
            mixinStandardHelpOptions = true,
            description = {
                "Writes 802.1Qbb priority flow control (PFC) frames.",
                "",
                "A PFC frame pauses each priority in its class-enable vector for QUANTA x 512",
                "bit times (65535 quanta = 3.36 ms at 10 Gb/s, 336 us at 100 Gb/s); quanta 0",
                "resumes it (XON)."
            },
            footer = {"", "Examples:",
                "  pfcswitch frame pfc --priorities 3,4 --quanta 65535 --out xoff.pcap",
                "  pfcswitch frame pfc --priorities 3 --quanta 0 --out xon.pcap",
                "  pfcswitch frame pfc --priorities 3,4 --quanta 100,200 --count 10 --out two-times.pcap"})
    static final class Pfc implements Callable<Integer> {
        @Option(names = "--priorities", required = true, split = ",", paramLabel = "P",
                description = "Priorities 0..7 to set in the class-enable vector.")
        List<Integer> priorities;

        @Option(names = "--quanta", defaultValue = "65535", split = ",", paramLabel = "Q",
                description = "Pause time in quanta 0..65535: one value for all priorities, or one per priority in --priorities order (default: ${DEFAULT-VALUE}).")
        List<Integer> quanta;

        @Mixin
        Output output;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws IOException {
            if (quanta.size() != 1 && quanta.size() != priorities.size()) {
                throw new ParameterException(spec.commandLine(),
                        "--quanta takes one value or one per priority: " + priorities.size() + " priorities, " + quanta.size() + " quanta");
            }
            int classEnable = 0;
            int[] times = new int[MacControl.PRIORITIES];
            for (int i = 0; i < priorities.size(); i++) {
                int p = priorities.get(i);
                if (p < 0 || p > 7) {
                    throw new ParameterException(spec.commandLine(), "--priorities: priority must be 0..7, got " + p);
                }
                if ((classEnable & (1 << p)) != 0) {
                    throw new ParameterException(spec.commandLine(), "--priorities: priority " + p + " given twice");
                }
                int q = quanta.get(quanta.size() == 1 ? 0 : i);
                checkQuanta(spec, q);
                classEnable |= 1 << p;
                times[p] = q;
            }
            int vector = classEnable;
            output.write(64, frame -> MacControl.writePfc(frame, 0, output.srcMac, vector, times));
            return 0;
        }
    }

    @Command(name = "pause",
            mixinStandardHelpOptions = true,
            description = {"Writes 802.3x link-level PAUSE frames.", "",
                "A PAUSE frame stops all traffic on the link for QUANTA x 512 bit times."},
            footer = {"", "Example:", "  pfcswitch frame pause --quanta 1000 --out pause.pcap"})
    static final class Pause implements Callable<Integer> {
        @Option(names = "--quanta", required = true, paramLabel = "Q", description = "Pause time in quanta 0..65535 (0 resumes).")
        int quanta;

        @Mixin
        Output output;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws IOException {
            checkQuanta(spec, quanta);
            output.write(64, frame -> MacControl.writePause(frame, 0, output.srcMac, quanta));
            return 0;
        }
    }

    @Command(name = "bfc",
            mixinStandardHelpOptions = true,
            description = {
                "Writes BFC (Backpressure Flow Control) control frames: PAUSE, RESUME or BITMAP.",
                "",
                "EtherType 0x88B6 (IEEE local experimental), sent hop by hop to the peer or to the",
                "nearest-bridge address. PAUSE and RESUME name one queue at the receiver's egress",
                "port; a BITMAP gives the paused state of queues 0..N-1 (N <= 128) at once."
            },
            footer = {"", "Examples:",
                "  pfcswitch frame bfc --op pause --queue 5 --seq 1 --out pause.pcap",
                "  pfcswitch frame bfc --op resume --queue 5 --seq 2 --out resume.pcap",
                "  pfcswitch frame bfc --op bitmap --queues 32 --paused 1,5,9 --out bitmap.pcap"})
    static final class BfcFrame implements Callable<Integer> {
        @Option(names = "--op", required = true, paramLabel = "OP", description = "pause, resume or bitmap.")
        String op;

        @Option(names = "--queue", paramLabel = "Q", description = "PAUSE/RESUME: the queue id 0..65535 (required for them).")
        Integer queue;

        @Option(names = "--seq", defaultValue = "0", paramLabel = "N", description = "Sequence number 0..65535 (default: ${DEFAULT-VALUE}).")
        int seq;

        @Option(names = "--queues", defaultValue = "32", paramLabel = "N",
                description = "BITMAP: how many queues it covers, 0..128 (default: ${DEFAULT-VALUE}).")
        int queues;

        @Option(names = "--paused", split = ",", paramLabel = "Q",
                description = "BITMAP: the paused queues, each below --queues (default: none, i.e. all resumed).")
        List<Integer> paused;

        @Option(names = "--dst-mac", defaultValue = "01:80:c2:00:00:0e", paramLabel = "MAC", converter = MacConverter.class,
                description = "Destination MAC: the peer, or the nearest-bridge address (default: ${DEFAULT-VALUE}).")
        long dstMac;

        @Mixin
        Output output;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws IOException {
            if (seq < 0 || seq > 0xFFFF) {
                throw new ParameterException(spec.commandLine(), "--seq must be 0..65535, got " + seq);
            }
            output.write(64, frame -> {
                int length;
                switch (op.toLowerCase(java.util.Locale.ROOT)) {
                    case "pause", "resume" -> {
                        if (queue == null) {
                            throw new ParameterException(spec.commandLine(), "--op " + op + " needs --queue");
                        }
                        if (queue < 0 || queue > 0xFFFF) {
                            throw new ParameterException(spec.commandLine(), "--queue must be 0..65535, got " + queue);
                        }
                        if (paused != null) {
                            throw new ParameterException(spec.commandLine(), "--paused is for --op bitmap");
                        }
                        length = op.equalsIgnoreCase("pause")
                                ? Bfc.writePause(frame, 0, dstMac, output.srcMac, seq, queue)
                                : Bfc.writeResume(frame, 0, dstMac, output.srcMac, seq, queue);
                    }
                    case "bitmap" -> {
                        if (queue != null) {
                            throw new ParameterException(spec.commandLine(), "--queue is for --op pause and resume; a bitmap takes --paused");
                        }
                        if (queues < 0 || queues > Bfc.MAX_BITMAP_QUEUES) {
                            throw new ParameterException(spec.commandLine(), "--queues must be 0..128, got " + queues);
                        }
                        long low = 0;
                        long high = 0;
                        for (int q : paused == null ? List.<Integer>of() : paused) {
                            if (q < 0 || q >= queues) {
                                throw new ParameterException(spec.commandLine(),
                                        "--paused: queue must be 0.." + (queues - 1) + " (below --queues " + queues + "), got " + q);
                            }
                            long bit = 1L << (q & 63);
                            if (((q < 64 ? low : high) & bit) != 0) {
                                throw new ParameterException(spec.commandLine(), "--paused: queue " + q + " given twice");
                            }
                            if (q < 64) {
                                low |= bit;
                            } else {
                                high |= bit;
                            }
                        }
                        length = Bfc.writeBitmap(frame, 0, dstMac, output.srcMac, seq, queues, low, high);
                    }
                    default -> throw new ParameterException(spec.commandLine(),
                            "--op must be pause, resume or bitmap, got '" + op + "'");
                }
                return length;
            });
            return 0;
        }
    }

    @Command(name = "roce",
            mixinStandardHelpOptions = true,
            description = {
                "Writes RoCEv2 packets as an RDMA NIC sends them.",
                "",
                "Ethernet, optional 802.1Q tag, optional BFC shim (--bfc-upstream-queue), IPv4,",
                "UDP/4791, BTH, then RETH, immediate data or AETH as the opcode requires, payload;",
                "the ICRC is written as zero."
            },
            footer = {"", "Examples:",
                "  pfcswitch frame roce --dscp 26 --ecn 2 --qp 17 --psn 100 --payload 1024 --out write.pcap",
                "  pfcswitch frame roce --pcp 3 --vlan 100 --opcode 0x81 --qp 17 --out cnp.pcap",
                "  pfcswitch frame roce --bfc-upstream-queue 7 --qp 17 --payload 1024 --out bfc-data.pcap"})
    static final class RoceFrame implements Callable<Integer> {
        @Option(names = "--dst-mac", defaultValue = "02:00:00:00:00:02", paramLabel = "MAC", converter = MacConverter.class,
                description = "Destination MAC (default: ${DEFAULT-VALUE}).")
        long dstMac;

        @Option(names = "--src-ip", defaultValue = "10.0.0.1", paramLabel = "A.B.C.D", description = "Default: ${DEFAULT-VALUE}.")
        String srcIp;

        @Option(names = "--dst-ip", defaultValue = "10.0.0.2", paramLabel = "A.B.C.D", description = "Default: ${DEFAULT-VALUE}.")
        String dstIp;

        @Option(names = "--dscp", defaultValue = "26", description = "DSCP 0..63 (default: ${DEFAULT-VALUE}, priority 3 in most RoCE labs).")
        int dscp;

        @Option(names = "--ecn", defaultValue = "2", description = "ECN 0..3: 0 Not-ECT, 1 ECT(1), 2 ECT(0), 3 CE (default: ${DEFAULT-VALUE}).")
        int ecn;

        @Option(names = "--pcp", description = "Add an 802.1Q tag with this PCP 0..7.")
        Integer pcp;

        @Option(names = "--vlan", defaultValue = "0", description = "VLAN ID 0..4095 of the tag (with --pcp; default: ${DEFAULT-VALUE}).")
        int vid;

        @Option(names = "--opcode", defaultValue = "0x0a", paramLabel = "OP",
                description = "BTH opcode, e.g. 0x0a RDMA WRITE Only, 0x11 ACK, 0x81 CNP (default: ${DEFAULT-VALUE}).")
        String opcode;

        @Option(names = "--qp", defaultValue = "1", description = "Destination QP, 24 bits (default: ${DEFAULT-VALUE}).")
        int destQp;

        @Option(names = "--psn", defaultValue = "0", description = "Packet sequence number, 24 bits (default: ${DEFAULT-VALUE}).")
        int psn;

        @Option(names = "--ack-req", description = "Set the BTH AckReq bit.")
        boolean ackReq;

        @Option(names = "--payload", defaultValue = "0", paramLabel = "BYTES", description = "Payload bytes (default: ${DEFAULT-VALUE}).")
        int payload;

        @Option(names = "--bfc-upstream-queue", paramLabel = "Q",
                description = "Add a BFC shim (EtherType 0x88B5) with this upstream queue id 0..65535; 65535 = none (a sender that is not BFC-capable).")
        Integer bfcUpstreamQueue;

        @Mixin
        Output output;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws IOException {
            RoceFrameBuilder b = new RoceFrameBuilder();
            try {
                int op = Integer.decode(opcode);
                if (op < 0 || op > 0xFF || !Roce.isKnownOpcode(op)) {
                    throw new IllegalArgumentException("--opcode: not a RoCEv2 BTH opcode: " + opcode);
                }
                if (payload < 0 || payload > 9000) {
                    throw new IllegalArgumentException("--payload must be 0..9000 bytes, got " + payload);
                }
                b.macs(dstMac, output.srcMac).ips(Ipv4.parse(srcIp), Ipv4.parse(dstIp)).dscp(dscp).ecn(ecn)
                        .opcode(op).destQp(destQp).psn(psn).ackRequest(ackReq).payloadBytes(payload);
                if (pcp != null) {
                    b.vlan(pcp, vid);
                }
                if (bfcUpstreamQueue != null) {
                    if (bfcUpstreamQueue < 0 || bfcUpstreamQueue > 0xFFFF) {
                        throw new IllegalArgumentException("--bfc-upstream-queue must be 0..65535, got " + bfcUpstreamQueue);
                    }
                    b.bfcUpstreamQueue(bfcUpstreamQueue);
                }
                output.write(b.frameLength(), frame -> b.write(frame, 0));
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage());
            }
            return 0;
        }
    }

    private static void checkQuanta(CommandSpec spec, int q) {
        if (q < 0 || q > MacControl.MAX_QUANTA) {
            throw new ParameterException(spec.commandLine(), "--quanta must be 0..65535, got " + q);
        }
    }

}
