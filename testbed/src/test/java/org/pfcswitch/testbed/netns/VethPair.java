package org.pfcswitch.testbed.netns;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Two network namespaces joined directly by one veth pair, {@code eth0} in each, both up, with no
 * IP address and IPv6 off: nothing but the test's own frames crosses it, and no kernel answers
 * them. The names are unique to this JVM ({@code pt<pid>-<tag>a}, {@code ...b}); {@link #close}
 * removes both namespaces (and so the pair), also after a failure half-way through creating them.
 * Needs root: without it the constructor fails, it never skips.
 */
public final class VethPair implements AutoCloseable {

    public final String a;
    public final String b;

    public VethPair(String tag) throws IOException, InterruptedException {
        String prefix = "pt" + ProcessHandle.current().pid() % 100_000 + "-" + tag;
        a = prefix + "a";
        b = prefix + "b";
        if (!"0".equals(run("id", "-u").trim())) {
            throw new IllegalStateException("this test creates network namespaces and needs root (CI runs as root)");
        }
        try {
            run("ip", "netns", "add", a);
            run("ip", "netns", "add", b);
            run("ip", "-n", a, "link", "add", "eth0", "type", "veth", "peer", "name", "eth0", "netns", b);
            for (String ns : List.of(a, b)) {
                run("ip", "netns", "exec", ns, "sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1");
                run("ip", "netns", "exec", ns, "sysctl", "-qw", "net.ipv6.conf.eth0.disable_ipv6=1");
                run("ip", "-n", ns, "link", "set", "eth0", "up");
            }
        } catch (IOException | RuntimeException | InterruptedException e) {
            close();
            throw e;
        }
    }

    /** Removes both namespaces (those that exist). */
    @Override
    public void close() throws IOException {
        for (String ns : List.of(a, b)) {
            if (Files.exists(Path.of("/var/run/netns", ns))) {
                try {
                    run("ip", "netns", "del", ns);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while removing namespace " + ns, e);
                }
            }
        }
    }

    /** Runs a command for at most 20 s; a non-zero exit is an IOException with its output. */
    public static String run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(new ArrayList<>(List.of(command))).redirectErrorStream(true).start();
        if (!p.waitFor(20, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("timed out: " + String.join(" ", command));
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " failed: " + out.strip());
        }
        return out;
    }
}
