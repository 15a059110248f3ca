package org.pfcswitch.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.pfcswitch.config.ConfigException;
import org.pfcswitch.cli.switchconfig.TestbedConfig;
import org.pfcswitch.mmu.UpstreamPausing;
import org.pfcswitch.testbed.DropAttribution;
import org.pfcswitch.testbed.HostSendLog;
import org.pfcswitch.testbed.LiveHosts;
import org.pfcswitch.testbed.Scenario;
import org.pfcswitch.testbed.netns.PacketSocket;

/**
 * A scenario's hosts, live, on a network-namespace testbed: scenario host H runs in testbed host H
 * (namespace PREFIX + H) on a packet socket bound to that namespace's eth0. Clone ports of the
 * scenario (kind: replay) are the real switch's clone ports and are skipped; they must come after
 * every other host. Closing closes the sockets.
 */
final class LiveTestbedHosts implements AutoCloseable {

    private final LiveHosts hosts;
    private final List<PacketSocket> sockets;
    private final List<TestbedConfig.Host> placed;

    private LiveTestbedHosts(LiveHosts hosts, List<PacketSocket> sockets, List<TestbedConfig.Host> placed) {
        this.hosts = hosts;
        this.sockets = sockets;
        this.placed = placed;
    }

    /**
     * @param scenarioFile and {@code testbedFile} name the files in error messages
     * @throws ConfigException a scenario host is not in the testbed, or comes after a clone port
     */
    static LiveTestbedHosts open(Scenario s, TestbedConfig tb, Path scenarioFile, Path testbedFile) {
        List<TestbedConfig.Host> placed = place(s, tb, scenarioFile, testbedFile);
        List<PacketSocket> sockets = new ArrayList<>();
        try {
            // As in sim: the hosts speak BFC to a switch whose scheme pauses per queue.
            LiveHosts.Builder b = LiveHosts.builder().dcqcn(s.dcqcn()).payloadMtu(s.payloadMtu())
                    .bfcNics(s.mmu().upstreamPausing() == UpstreamPausing.PER_QUEUE);
            for (int i = 0; i < placed.size(); i++) {
                TestbedConfig.Host h = placed.get(i);
                PacketSocket socket = PacketSocket.open(h.namespace(), "eth0");
                sockets.add(socket);
                b.host(h.name(), socket, socket.macAddress(), ipv4(h.ipCidr()), s.hosts().get(i).rateBps());
            }
            return new LiveTestbedHosts(b.build(), sockets, placed);
        } catch (RuntimeException e) {
            sockets.forEach(PacketSocket::close);
            throw e;
        }
    }

    LiveHosts hosts() {
        return hosts;
    }

    /** The index of the host cabled to switch port {@code switchPort} here, or -1 (a clone port, no host). */
    int hostOnPort(String switchPort) {
        for (int i = 0; i < placed.size(); i++) {
            if (placed.get(i).switchPort().equals(switchPort)) {
                return i;
            }
        }
        return -1;
    }

    /** Judges drops against these hosts' {@code sends}, their frames at most {@code payloadMtu} plus headers. */
    DropAttribution dropAttribution(HostSendLog sends, int payloadMtu) {
        long[] rate = new long[hosts.hosts()];
        for (int i = 0; i < rate.length; i++) {
            rate[i] = hosts.host(i).rateBps();
        }
        return new DropAttribution(sends, rate, payloadMtu + LiveHosts.HEADER_ALLOWANCE_BYTES);
    }

    /** How many of the scenario's hosts run here (its clone ports do not). */
    int count() {
        return sockets.size();
    }

    @Override
    public void close() {
        sockets.forEach(PacketSocket::close);
    }

    /** The testbed host of each scenario host that runs here, by name, in scenario order. */
    private static List<TestbedConfig.Host> place(Scenario s, TestbedConfig tb, Path scenarioFile, Path testbedFile) {
        List<TestbedConfig.Host> placed = new ArrayList<>();
        List<String> names = tb.hosts().stream().map(TestbedConfig.Host::name).toList();
        boolean clonesBegan = false;
        for (Scenario.Host h : s.hosts()) {
            if (h.cloneOf() >= 0) {
                clonesBegan = true;            // the real switch's clone ports replay it (kind: clone in its config)
                continue;
            }
            if (clonesBegan) {
                throw new ConfigException(scenarioFile + ": host " + h.name() + " comes after a clone port; list clone ports"
                        + " (kind: replay) after every host that runs here, as the switch's clone ports are not hosts");
            }
            TestbedConfig.Host match = tb.hosts().stream().filter(t -> t.name().equals(h.name())).findFirst().orElse(null);
            if (match == null) {
                throw new ConfigException(scenarioFile + ": scenario host '" + h.name() + "' is not in the testbed of "
                        + testbedFile + " (hosts: " + String.join(", ", names) + "); each scenario host runs in the testbed"
                        + " host of the same name");
            }
            placed.add(match);
        }
        return placed;
    }

    private static int ipv4(String cidr) {
        String[] parts = cidr.substring(0, cidr.indexOf('/')).split("\\.");
        int ip = 0;
        for (String p : parts) {
            ip = ip << 8 | Integer.parseInt(p);
        }
        return ip;
    }
}
