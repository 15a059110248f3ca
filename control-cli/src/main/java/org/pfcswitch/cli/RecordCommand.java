package org.pfcswitch.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import org.pfcswitch.codec.MacAddress;
import org.pfcswitch.codec.PcapFormatException;
import org.pfcswitch.codec.PcapReader;
import org.pfcswitch.core.record.ArrivalHeader;
import org.pfcswitch.core.record.ArrivalWriter;
import org.pfcswitch.config.Units;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code pfcswitch record}: arrival-record files (docs/record-replay.md). */
@Command(name = "record", mixinStandardHelpOptions = true,
        description = "Arrival-record files for 'sim --replay' (live ones come from 'run --record').",
        subcommands = RecordCommand.FromPcap.class)
final class RecordCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getOut());
        return 0;
    }

    @Command(name = "from-pcap", mixinStandardHelpOptions = true,
            description = {"Converts Ethernet pcap captures (with timestamps) into an arrival record.",
                "A frame's ingress port is its capture's (--port-pcap PORT=FILE, a capture taken on the link",
                "into that port) or, for the positional captures, the port of its source MAC (--port-of).",
                "Captures are merged in time order; frames from an unmapped source MAC are skipped and counted."},
            footer = {"", "Examples:",
                "  pfcswitch record from-pcap lab.pcap --port-of 02:00:00:00:00:01=1 --port-of 02:00:00:00:00:02=2 \\",
                "      --port-of 02:00:00:00:00:09=0 --speed 100G --out lab.arr",
                "  pfcswitch record from-pcap --port-pcap 1=h1.pcap --port-pcap 2=h2.pcap --ports 4 --out lab.arr",
                "  pfcswitch sim --replay lab.arr --scheme dt,st,spfc"})
    static final class FromPcap implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Parameters(paramLabel = "IN.pcap", arity = "0..*", description = "Captures whose frames map to ports by source MAC.")
        List<Path> inputs = new ArrayList<>();

        @Option(names = "--port-pcap", paramLabel = "PORT=FILE", description = "A capture of what arrived on PORT.")
        Map<Integer, Path> portPcaps = new LinkedHashMap<>();

        @Option(names = "--port-of", paramLabel = "MAC=PORT",
                description = "The port a MAC is behind: frames from it arrive there, frames to it leave there.")
        Map<String, Integer> portOf = new LinkedHashMap<>();

        @Option(names = "--ports", paramLabel = "N", description = "Ports of the switch (default: the highest port named + 1).")
        Integer ports;

        @Option(names = "--speed", paramLabel = "RATE", defaultValue = "100G",
                description = "Line rate of every port, e.g. 25G, 100G (default: ${DEFAULT-VALUE}).")
        String speed;

        @Option(names = "--out", required = true, paramLabel = "FILE", description = "The arrival record to write.")
        Path out;

        @Override
        public Integer call() {
            CommandLine cl = spec.commandLine();
            PrintWriter stdout = cl.getOut();
            if (inputs.isEmpty() && portPcaps.isEmpty()) {
                throw new ParameterException(cl, "give a capture: IN.pcap (with --port-of) or --port-pcap PORT=FILE");
            }
            if (!inputs.isEmpty() && portOf.isEmpty()) {
                throw new ParameterException(cl, "IN.pcap needs --port-of MAC=PORT to map source MACs to ports");
            }
            Map<Long, Integer> macs = new LinkedHashMap<>();
            int highest = -1;
            for (Map.Entry<String, Integer> e : portOf.entrySet()) {
                try {
                    macs.put(MacAddress.parse(e.getKey()), e.getValue());
                } catch (IllegalArgumentException x) {
                    throw new ParameterException(cl, "--port-of " + e.getKey() + ": " + x.getMessage());
                }
                highest = Math.max(highest, e.getValue());
            }
            for (int p : portPcaps.keySet()) {
                highest = Math.max(highest, p);
            }
            int n = ports != null ? ports : highest + 1;
            if (n < 1 || highest >= n) {
                throw new ParameterException(cl, "--ports " + n + " does not cover port " + highest);
            }
            long bps;
            try {
                bps = Units.bitsPerSecond(speed);
            } catch (IllegalArgumentException x) {
                throw new ParameterException(cl, "--speed: " + x.getMessage());
            }
            long[] speeds = new long[n];
            Arrays.fill(speeds, bps);
            List<Source> sources = new ArrayList<>();
            try {
                for (Path in : inputs) {
                    sources.add(new Source(in, -1));
                }
                portPcaps.forEach((port, in) -> {
                    if (port < 0) {
                        throw new ParameterException(cl, "--port-pcap: port " + port + " is negative");
                    }
                    try {
                        sources.add(new Source(in, port));
                    } catch (IOException x) {
                        throw new UncheckedIOException(x);
                    }
                });
                long written = 0;
                long skipped = 0;
                try (ArrivalWriter w = ArrivalWriter.create(out, new ArrivalHeader(speeds, macs))) {
                    while (true) {
                        Source next = null;
                        for (Source s : sources) {
                            if (s.current != null && (next == null || s.current.timestampNanos() < next.current.timestampNanos())) {
                                next = s;
                            }
                        }
                        if (next == null) {
                            break;
                        }
                        PcapReader.Record r = next.current;
                        int port = next.port;
                        if (port < 0) {
                            Integer p = r.capturedLength() >= 12 ? macs.get(mac(r)) : null;
                            port = p == null ? -1 : p;
                        }
                        if (port < 0 || r.originalLength() < 1 || r.originalLength() > 0xFFFF) {
                            skipped++;
                        } else {
                            w.write(r.timestampNanos(), port, r.originalLength(), r.data(), 0);
                            written++;
                        }
                        next.advance();
                    }
                }
                for (Source s : sources) {
                    s.reader.close();
                }
                stdout.printf("%s: %d arrivals on %d ports written, %d frames skipped (source MAC not mapped)%n",
                        out, written, n, skipped);
                return 0;
            } catch (NoSuchFileException e) {
                throw new ParameterException(cl, "no such file " + e.getFile());
            } catch (UncheckedIOException e) {
                throw new ParameterException(cl, e.getCause().getMessage());
            } catch (PcapFormatException e) {
                throw new ParameterException(cl, e.getMessage());
            } catch (IOException e) {
                throw new ParameterException(cl, e.getMessage());
            }
        }

        private static long mac(PcapReader.Record r) {
            long m = 0;
            for (int i = 6; i < 12; i++) {
                m = m << 8 | (r.data().get(java.lang.foreign.ValueLayout.JAVA_BYTE, i) & 0xFF);
            }
            return m;
        }

        /** One capture and its next frame (time order within a capture is required). */
        private static final class Source {
            final Path path;
            final PcapReader reader;
            final int port;
            PcapReader.Record current;
            long last = Long.MIN_VALUE;

            Source(Path path, int port) throws IOException {
                this.path = path;
                this.reader = PcapReader.open(path);
                if (reader.linkType() != 1) {
                    throw new PcapFormatException(path + ": link type " + reader.linkType() + ", only Ethernet (1) is read");
                }
                this.port = port;
                advance();
            }

            void advance() throws IOException {
                current = reader.next();
                if (current != null) {
                    if (current.timestampNanos() < last) {
                        throw new PcapFormatException(path + ": frame " + current.index() + " is earlier than the one before");
                    }
                    last = current.timestampNanos();
                }
            }
        }
    }
}
