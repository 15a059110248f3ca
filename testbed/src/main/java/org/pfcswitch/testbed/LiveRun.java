package org.pfcswitch.testbed;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Runs a {@link Scenario}'s traffic on live hosts in real time: installs the generators as
 * {@link ScenarioRunner} does (each with its own stream split from the seed, in scenario order, so
 * the same flows start at the same offsets), polls for the duration, and reduces the run to a
 * {@link LiveResult}. The scenario's switch settings (mmu, pfc, topology) and link delays do not
 * apply: the real testbed has its own switch and cables. Nor do its clone ports and their
 * {@code replay} traffic: a real switch replays a port itself ({@code kind: clone} ports of its
 * config); the live hosts are the scenario's other hosts, which come first.
 */
public final class LiveRun {

    private LiveRun() {}

    public static LiveResult run(Scenario s, LiveHosts hosts, long durationNanos, ScenarioRunner.Progress progress) {
        SplittableRandom seeds = new SplittableRandom(s.seed() ^ 0x5DEECE66DL);
        List<Traffic> traffic = new ArrayList<>();
        for (Scenario.TrafficSpec spec : s.traffic()) {
            Traffic t = spec.create();
            SplittableRandom random = seeds.split();       // split for every traffic: the same streams as sim
            if (t instanceof Replay) {
                continue;                                  // clone ports are the real switch's (kind: clone ports)
            }
            t.install(hosts, random);
            traffic.add(t);
        }
        hosts.start();
        long step = Math.max(1_000_000, durationNanos / 100);
        for (long t = step; ; t += step) {
            hosts.runUntil(Math.min(t, durationNanos));
            progress.at(hosts.now(), durationNanos);
            if (t >= durationNanos) {
                break;
            }
        }
        long end = hosts.now();
        FlowRecords rec = hosts.records();
        List<LiveResult.Traffic> perTraffic = new ArrayList<>();
        List<SchemeResult.TrafficBins> binsByTraffic = new ArrayList<>();
        for (Traffic t : traffic) {
            int[] ids = t.flowIds().stream().mapToInt(Integer::intValue).filter(id -> rec.startNanos(id) <= end).toArray();
            int completed = 0;
            long bytes = 0;
            for (int id : ids) {
                completed += rec.completed(id) ? 1 : 0;
                bytes += rec.receivedPayloadBytes(id);
            }
            perTraffic.add(new LiveResult.Traffic(t.name(), ids.length, completed, bytes, bytes * 8e9 / Math.max(1, end)));
            binsByTraffic.add(new SchemeResult.TrafficBins(t.name(), ScenarioRunner.bins(rec, ids, s.fctBinEdges(), end)));
        }
        int[] everyFlow = new int[rec.count()];
        for (int f = 0; f < everyFlow.length; f++) {
            everyFlow[f] = f;
        }
        List<LiveResult.Host> perHost = new ArrayList<>();
        for (int i = 0; i < hosts.hosts(); i++) {
            RoceHost h = hosts.host(i);
            perHost.add(new LiveResult.Host(hosts.name(i), h.framesSent(), h.framesReceived(), h.pfcFramesReceived(),
                    h.pauseFramesReceived(), h.pausedNanos(end), h.cnpsSent(), h.cnpsReceived(), h.acksSent(),
                    h.malformedFrames(), h.foreignFrames(), hosts.port(i).kernelDrops(), hosts.framesLost(i)));
        }
        return new LiveResult(end, hosts.slipNanos(), hosts.passes(), perTraffic,
                ScenarioRunner.bins(rec, everyFlow, s.fctBinEdges(), end), binsByTraffic, perHost, rec);
    }
}
