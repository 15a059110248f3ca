package org.pfcswitch.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs the real tshark on a pcap file and returns the requested fields, one row per frame. */
final class Tshark {
    private Tshark() {}

    static void requireInstalled() {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
            if (Files.isExecutable(Path.of(dir, "tshark"))) {
                return;
            }
        }
        throw new AssertionError("tshark is not installed; 'make test' installs it (apt-get install tshark)");
    }

    /** Each row holds the fields in the order asked for; an absent field is the empty string. */
    static List<String[]> fields(Path pcap, String... fields) throws IOException, InterruptedException {
        requireInstalled();
        List<String> cmd = new ArrayList<>(List.of("tshark", "-n", "-r", pcap.toString(),
                "-o", "ip.check_checksum:TRUE", "-T", "fields", "-E", "separator=/t", "-E", "occurrence=f"));
        for (String f : fields) {
            cmd.add("-e");
            cmd.add(f);
        }
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("tshark did not finish within 60 s on " + pcap);
        }
        if (p.exitValue() != 0) {
            throw new AssertionError("tshark exited " + p.exitValue() + " on " + pcap);
        }
        List<String[]> rows = new ArrayList<>();
        for (String line : new String(out, StandardCharsets.UTF_8).split("\n")) {
            if (!line.isEmpty()) {
                rows.add(line.split("\t", -1));
            }
        }
        return rows;
    }

    /** tshark prints numbers in decimal or 0x-hex depending on the field. */
    static long number(String s) {
        return Long.decode(s.trim());
    }
}
