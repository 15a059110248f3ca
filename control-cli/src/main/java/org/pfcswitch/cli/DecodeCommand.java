package org.pfcswitch.cli;

import org.pfcswitch.codec.FrameParser;
import org.pfcswitch.codec.ParseError;
import org.pfcswitch.codec.ParsedFrame;
import org.pfcswitch.codec.PcapFormatException;
import org.pfcswitch.codec.PcapReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;

@Command(name = "decode",
        mixinStandardHelpOptions = true,
        description = {
            "Prints each frame of a pcap file as pfcswitch's parser sees it.",
            "",
            "One line (or JSON object) per frame: PFC (class-enable vector, quanta per",
            "priority), PAUSE, BFC control frames (op, seq, queue or paused bitmap), VLAN PCP,",
            "the BFC shim's upstream queue, IPv4 DSCP/ECN and checksum, UDP ports, RoCEv2 BTH",
            "(opcode, destination QP, PSN) and AETH.",
            "",
            "A malformed frame is printed as type 'malformed' with the reason and the fields",
            "parsed before it; decoding goes on with the next frame. A summary of frame types",
            "and malformed reasons goes to stderr; the reasons are the ones the switch counts",
            "(its shutdown log, 'show ports', /metrics pfcswitch_malformed_frames_total).",
            "Decode also checks IPv4 header checksums, which the switch does not (it forwards",
            "such frames): a mismatch is remarked on the frame and in the summary, not counted",
            "as malformed.",
            "",
            "Exit codes: 0 all records read (malformed frames included), 1 the file is not a",
            "readable pcap or ends inside a record (frames before that are printed), 2 bad usage."
        },
        footer = {"", "Examples:",
            "  pfcswitch decode pfc.pcap",
            "  pfcswitch decode --json capture.pcap | jq 'select(.type==\"pfc\")'"})
final class DecodeCommand implements Callable<Integer> {
    @Parameters(paramLabel = "FILE.pcap", description = "A classic pcap file (microsecond or nanosecond, either byte order).")
    Path file;

    @Option(names = "--json", description = "One JSON object per line instead of text.")
    boolean json;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (!Files.exists(file)) {
            throw new NoSuchFileException(file + ": no such file");
        }
        if (Files.isDirectory(file)) {
            throw new IOException(file + ": is a directory, not a pcap file");
        }
        Map<String, Integer> byType = new TreeMap<>();
        Map<ParseError, Integer> malformedReasons = new EnumMap<>(ParseError.class);
        int[] checksumMismatches = {0};
        ParsedFrame frame = new ParsedFrame();
        try (PcapReader reader = open(file)) {
            if (reader.linkType() != 1) {
                throw new IOException("link type " + reader.linkType() + " is not Ethernet (1); nothing to decode");
            }
            PcapReader.Record r;
            try {
                while ((r = reader.next()) != null) {
                    FrameParser.parse(r.data(), frame);
                    out.println(json ? FrameDescription.json(r.index(), frame) : FrameDescription.text(r.index(), frame));
                    byType.merge(FrameDescription.type(frame), 1, Integer::sum);
                    if (frame.isMalformed()) {
                        malformedReasons.merge(frame.error(), 1, Integer::sum);
                    } else if (FrameDescription.ipv4ChecksumMismatch(frame)) {
                        checksumMismatches[0]++;
                    }
                }
            } finally {
                out.flush();
                err.println(summary(byType, malformedReasons, checksumMismatches[0]));
            }
        }
        return 0;
    }

    /** The reader past the file header; a file too short or of another format is named with what it is. */
    private static PcapReader open(Path file) throws IOException {
        if (Files.isRegularFile(file) && Files.size(file) == 0) {
            throw new IOException(file + ": the file is empty (a pcap starts with a 24-byte header)");
        }
        try {
            return PcapReader.open(file);
        } catch (PcapFormatException e) {
            throw new IOException(file + ": " + e.getMessage(), e);
        }
    }

    /** "6 frames, 3 malformed, 1 pfc, 2 roce", then a line per malformed reason, as the switch names them, and the checksum remark. */
    private static String summary(Map<String, Integer> byType, Map<ParseError, Integer> malformed, int checksumMismatches) {
        int total = byType.values().stream().mapToInt(Integer::intValue).sum();
        StringBuilder sb = new StringBuilder().append(total).append(total == 1 ? " frame" : " frames");
        byType.forEach((type, n) -> sb.append(", ").append(n).append(' ').append(type));
        malformed.forEach((reason, n) -> sb.append("\n  malformed: ").append(n).append(" x ").append(reason.label())
                .append(" (").append(reason.reason()).append(')'));
        if (checksumMismatches > 0) {
            sb.append("\n  ").append(checksumMismatches).append(" with an ").append(FrameDescription.IPV4_CHECKSUM_MISMATCH)
                    .append(" (not malformed: the switch does not check it and forwards them)");
        }
        return sb.toString();
    }
}
