package org.pfcswitch.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

import org.pfcswitch.config.ConfigNode;
import org.pfcswitch.cli.switchconfig.SwitchConfigReader;
import org.pfcswitch.cli.switchconfig.TestbedConfig;
import org.pfcswitch.codec.MacAddress;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "testbed",
        mixinStandardHelpOptions = true,
        description = {
            "Creates or removes a network-namespace testbed of emulated hosts.",
            "",
            "One namespace per host, joined to the switch by a veth pair, as described in",
            "the config's 'testbed:' section.",
            "",
            "Host h0 with namespacePrefix 'pfcsw-' becomes namespace pfcsw-h0 with eth0 inside",
            "(its ip and mac from the config, IPv6 off); the other end of the veth is interface",
            "pfcsw-h0 in the root namespace, up, with no address. The switch attaches to it with",
            "an af_packet or af_xdp port (device: \"net_af_packet0,iface=pfcsw-h0\"). Needs root.",
            "",
            "Then, in another shell, './pfcswitch run -c FILE', and plain ping crosses the switch."
        },
        subcommands = {TestbedCommand.Up.class, TestbedCommand.Down.class},
        footer = {"", "Examples:",
            "  ./pfcswitch testbed up -c testbed-configs/netns-3hosts.yaml",
            "  ./pfcswitch run -c testbed-configs/netns-3hosts.yaml &",
            "  ip netns exec pfcsw-h0 ping -c 3 10.99.0.2",
            "  ./pfcswitch testbed down -c testbed-configs/netns-3hosts.yaml"})
final class TestbedCommand {

    /** {@code -c TESTBED} of the commands that read a testbed: section (testbed up and down, hosts): a picocli mixin. */
    static final class ConfigOption {
        @Option(names = {"-c", "--config"}, required = true, paramLabel = "TESTBED",
                description = "A configuration with a testbed: section (namespaces, IPs, MACs), e.g. "
                        + "testbed-configs/netns-3hosts.yaml.")
        Path file;

        TestbedConfig read() {
            return TestbedCommand.read(file);
        }
    }

    @Command(name = "up", mixinStandardHelpOptions = true,
            description = {"Creates the namespaces and veth pairs.", "",
                "Fails if a namespace already exists (run 'testbed down' first). On failure,",
                "whatever was created is removed again."})
    static final class Up implements Callable<Integer> {
        @Mixin
        ConfigOption config;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            create(config.read(), spec.commandLine().getOut());
            spec.commandLine().getOut().println("testbed up: now: ./pfcswitch run -c " + config.file);
            return 0;
        }
    }

    /**
     * Creates every host's namespace and veth pair, printing a line each; on failure removes what
     * it made and rethrows.
     *
     * @throws IllegalStateException if a namespace exists already
     */
    static void create(TestbedConfig tb, PrintWriter out) throws IOException, InterruptedException {
        List<String> existing = namespaces();
        for (TestbedConfig.Host h : tb.hosts()) {
            if (existing.contains(h.namespace())) {
                throw new IllegalStateException("namespace " + h.namespace() + " already exists; run 'pfcswitch testbed down'"
                        + " with this configuration first");
            }
        }
        try {
            for (TestbedConfig.Host h : tb.hosts()) {
                create(h);
                out.println("host " + h.name() + ": namespace " + h.namespace() + ", eth0 " + h.ipCidr()
                        + (h.mac() >= 0 ? " " + MacAddress.format(h.mac()) : "") + " <-> " + h.switchInterface()
                        + " (switch port " + h.switchPort() + ")");
            }
        } catch (RuntimeException | IOException e) {
            remove(tb);
            throw e;
        }
        out.println("testbed up: " + tb.hosts().size() + " hosts");
        out.flush();
    }

    private static void create(TestbedConfig.Host h) throws IOException, InterruptedException {
        String ns = h.namespace();
        ip("netns", "add", ns);
        ip("link", "add", h.switchInterface(), "type", "veth", "peer", "name", "eth0", "netns", ns);
        sh(List.of("sysctl", "-qw", "net.ipv6.conf." + h.switchInterface() + ".disable_ipv6=1"));
        ip("link", "set", h.switchInterface(), "up");
        ip("-n", ns, "link", "set", "lo", "up");
        if (h.mac() >= 0) {
            ip("-n", ns, "link", "set", "eth0", "address", MacAddress.format(h.mac()));
        }
        ip("-n", ns, "addr", "add", h.ipCidr(), "dev", "eth0");
        sh(List.of("ip", "netns", "exec", ns, "sysctl", "-qw", "net.ipv6.conf.eth0.disable_ipv6=1"));
        ip("-n", ns, "link", "set", "eth0", "up");
    }

    @Command(name = "down", mixinStandardHelpOptions = true,
            description = "Removes the testbed's namespaces and veths (those that exist; missing ones are fine).")
    static final class Down implements Callable<Integer> {
        @Mixin
        ConfigOption config;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            TestbedConfig tb = config.read();
            int removed = remove(tb);
            spec.commandLine().getOut().println("testbed down: removed " + removed + " of " + tb.hosts().size() + " namespaces");
            return 0;
        }
    }

    static TestbedConfig read(Path config) {
        ConfigNode root = ConfigNode.load(config);
        return TestbedConfig.read(root, SwitchConfigReader.read(root));
    }

    /** Removes every namespace and switch-side veth of the testbed that exists; returns how many namespaces went. */
    static int remove(TestbedConfig tb) throws IOException, InterruptedException {
        int removed = 0;
        List<String> existing = namespaces();
        for (TestbedConfig.Host h : tb.hosts()) {
            if (existing.contains(h.namespace())) {
                ip("netns", "del", h.namespace());     // takes the veth pair with it
                removed++;
            }
            if (Files.exists(Path.of("/sys/class/net", h.switchInterface()))) {
                deleteLinkIfStillThere(h.switchInterface());
            }
        }
        return removed;
    }

    /**
     * The kernel removes a veth pair when its namespace goes, but asynchronously: the switch-side
     * end can still be listed and then vanish before 'ip link del' reaches it. That is success.
     */
    private static void deleteLinkIfStillThere(String link) throws IOException, InterruptedException {
        try {
            ip("link", "del", link);
        } catch (IOException e) {
            if (!e.getMessage().contains("Cannot find device")) {
                throw e;
            }
        }
    }

    private static List<String> namespaces() throws IOException, InterruptedException {
        List<String> names = new ArrayList<>();
        for (String line : sh(List.of("ip", "netns", "list")).split("\n")) {
            if (!line.isBlank()) {
                names.add(line.trim().split("\\s+")[0]);
            }
        }
        return names;
    }

    private static void ip(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("ip"));
        command.addAll(List.of(args));
        sh(command);
    }

    /** Runs a command; a non-zero exit becomes one error line naming the command and what it said. */
    private static String sh(List<String> command) throws IOException, InterruptedException {
        Process p;
        try {
            p = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new IOException("cannot run '" + command.get(0) + "' (install iproute2): " + e.getMessage());
        }
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("'" + String.join(" ", command) + "' did not finish in 30 s");
        }
        if (p.exitValue() != 0) {
            String hint = output.contains("Operation not permitted") || output.contains("Permission denied")
                    ? " (network namespaces need root)" : "";
            throw new IOException("'" + String.join(" ", command) + "' failed: " + output.strip().replace('\n', ' ') + hint);
        }
        return output;
    }
}
