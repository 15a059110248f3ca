package org.pfcswitch.cli.client;

import org.pfcswitch.control.TextTable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.pfcswitch.control.json.JsonOutput;
import org.pfcswitch.codec.MacAddress;
import org.pfcswitch.core.deadlock.BufferDependencyGraph;
import org.pfcswitch.core.deadlock.WaitForGraph;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * {@code show deadlock --switch ...}: several switches' {@code show deadlock} answers joined into one
 * wait-for graph and searched with the switches' own code ({@link BufferDependencyGraph}).
 *
 * <p>Nodes are (switch, ingress port, priority) in the order the switches were given; a node waits
 * when its switch advertises XOFF on it ({@code xoff}). Each switch lists its local edges (a paused
 * ingress waiting on a paused, non-empty egress) and, per port, the MAC of the last PFC sender
 * there; the edge continues to the switch and port that own that MAC (every switch lists its
 * ports' MACs), if that node waits too. So a cycle through several switches, which no one of them
 * can see, is found here. The answers are fetched one after another, not at one instant: a
 * deadlock is frozen, so its edges are in every answer, while a passing cycle may be missed or,
 * rarely, joined from two instants (each switch's own persistence check is in its row).
 */
public final class FabricDeadlock implements WaitForGraph {

    private static final int PRIORITIES = 8;

    private final List<String> names;
    private final List<JsonNode> views;
    private final int[] base;
    private final String[][] portNames;
    private final long[][] senderMac;
    private final boolean[] xoff;
    private final boolean[][] edge;           // by node, by egress port
    private final Map<Long, int[]> macOwner = new HashMap<>();
    private final int nodes;
    private final BufferDependencyGraph search;
    private final boolean found;

    /**
     * @param names a name per switch
     * @param views each switch's {@code /api/v1/show/deadlock} JSON
     * @throws IllegalArgumentException an answer is not a deadlock view, or two ports share a MAC
     */
    public FabricDeadlock(List<String> names, List<JsonNode> views) {
        if (names.size() != views.size() || names.isEmpty()) {
            throw new IllegalArgumentException("one name per switch view, and at least one");
        }
        this.names = List.copyOf(names);
        this.views = List.copyOf(views);
        int n = names.size();
        base = new int[n];
        portNames = new String[n][];
        senderMac = new long[n][];
        int total = 0;
        for (int s = 0; s < n; s++) {
            JsonNode v = views.get(s);
            if (!"deadlock".equals(v.path("view").asText()) || !v.has("ports") || !v.has("edges") || !v.has("xoff")) {
                throw new IllegalArgumentException(names.get(s) + ": not a show deadlock answer (an older switch?)");
            }
            JsonNode ports = v.get("ports");
            portNames[s] = new String[ports.size()];
            senderMac[s] = new long[ports.size()];
            for (int p = 0; p < ports.size(); p++) {
                JsonNode port = ports.get(p);
                portNames[s][p] = port.get("port").asText();
                senderMac[s][p] = mac(port.get("pfc_sender_mac"));
                long own = mac(port.get("mac"));
                int[] before = macOwner.putIfAbsent(own, new int[] {s, p});
                if (own != 0 && before != null) {
                    throw new IllegalArgumentException(names.get(s) + " port " + portNames[s][p] + " has MAC "
                            + MacAddress.format(own) + ", as " + names.get(before[0]) + " port " + portNames[before[0]][before[1]]
                            + ": a PFC sender could not be told apart (the same switch given twice?)");
                }
            }
            base[s] = total;
            total += ports.size() * PRIORITIES;
        }
        nodes = total;
        xoff = new boolean[total];
        edge = new boolean[total][];
        for (int s = 0; s < n; s++) {
            for (int node = base[s]; node < base[s] + portNames[s].length * PRIORITIES; node++) {
                edge[node] = new boolean[portNames[s].length];
            }
            for (JsonNode x : views.get(s).get("xoff")) {
                xoff[base[s] + port(s, x.get("port").asText()) * PRIORITIES + x.get("priority").asInt()] = true;
            }
            for (JsonNode e : views.get(s).get("edges")) {
                int node = base[s] + port(s, e.get("ingress").asText()) * PRIORITIES + e.get("priority").asInt();
                edge[node][port(s, e.get("egress").asText())] = true;
            }
        }
        search = new BufferDependencyGraph(Math.max(1, total));
        found = search.findCycle(this);
    }

    private static long mac(JsonNode text) {
        return text == null || text.isNull() ? 0 : MacAddress.parse(text.asText());
    }

    private int port(int s, String name) {
        for (int p = 0; p < portNames[s].length; p++) {
            if (portNames[s][p].equals(name)) {
                return p;
            }
        }
        throw new IllegalArgumentException(names.get(s) + ": an edge names port '" + name + "', which its port list does not have");
    }

    private int switchOf(int node) {
        int s = base.length - 1;
        while (base[s] > node) {
            s--;
        }
        return s;
    }

    // ------------------------------------------------------------------ the graph

    @Override
    public int nodes() {
        return nodes;
    }

    @Override
    public boolean waits(int node) {
        return xoff[node];
    }

    @Override
    public int slots(int node) {
        return edge[node].length;
    }

    @Override
    public int successor(int node, int egress) {
        if (!edge[node][egress]) {
            return -1;
        }
        int target = target(switchOf(node), egress, node % PRIORITIES);
        return target >= 0 && xoff[target] ? target : -1;
    }

    /** The node that pauses egress {@code e} of switch {@code s} on priority {@code q} (by its PFC sender MAC), or -1: not one of these switches. */
    private int target(int s, int e, int q) {
        int[] owner = macOwner.get(senderMac[s][e]);
        return senderMac[s][e] == 0 || owner == null ? -1 : base[owner[0]] + owner[1] * PRIORITIES + q;
    }

    private String nodeName(int node) {
        int s = switchOf(node);
        int local = node - base[s];
        return names.get(s) + ":" + portNames[s][local / PRIORITIES] + "/" + local % PRIORITIES;
    }

    // ------------------------------------------------------------------ answers

    /** Whether the joined graph has a cycle. */
    public boolean hasCycle() {
        return found;
    }

    /** {@code sw0:p2/3 -> sw1:p2/3 -> sw0:p2/3}, as {@code sim} names a cycle; null when there is none. */
    public String cycle() {
        if (!found) {
            return null;
        }
        StringBuilder b = new StringBuilder();
        for (int i = 0; i <= search.cycleLength(); i++) {
            b.append(i == 0 ? "" : " -> ").append(nodeName(search.cycleNode(i % search.cycleLength())));
        }
        return b.toString();
    }

    private record Edge(int from, int egress, String pausedBy, int to) {}

    /** Every listed edge, with where its PFC sender leads (-1: outside these switches, or not waiting). */
    private List<Edge> edges() {
        List<Edge> out = new ArrayList<>();
        for (int node = 0; node < nodes; node++) {
            int s = switchOf(node);
            for (int e = 0; e < edge[node].length; e++) {
                if (edge[node][e]) {
                    out.add(new Edge(node, e, senderMac[s][e] == 0 ? null : MacAddress.format(senderMac[s][e]), successor(node, e)));
                }
            }
        }
        return out;
    }

    public String json() {
        JsonOutput j = new JsonOutput().beginObject().field("view", "deadlock").field("fabric", true);
        j.beginArray("switches");
        for (int s = 0; s < names.size(); s++) {
            JsonNode v = views.get(s);
            j.beginObject().field("switch", names.get(s)).field("deadlocks", v.path("deadlocks").asLong())
                    .field("present", v.path("present").asBoolean()).endObject();
        }
        j.endArray();
        if (!found) {
            j.nullField("cycle");
        } else {
            j.beginObject("cycle").field("description", cycle()).beginArray("hops");
            for (int i = 0; i < search.cycleLength(); i++) {
                int node = search.cycleNode(i);
                int s = switchOf(node);
                int local = node - base[s];
                j.beginObject().field("switch", names.get(s)).field("ingress", portNames[s][local / PRIORITIES])
                        .field("priority", local % PRIORITIES).field("egress", portNames[s][search.cycleSlot(i)]).endObject();
            }
            j.endArray().endObject();
        }
        j.beginArray("edges");
        for (Edge e : edges()) {
            int s = switchOf(e.from);
            j.beginObject().field("from", nodeName(e.from)).field("egress", names.get(s) + ":" + portNames[s][e.egress])
                    .field("paused_by", e.pausedBy).field("to", e.to < 0 ? null : nodeName(e.to)).endObject();
        }
        return j.endArray().endObject().toString();
    }

    public String text() {
        StringBuilder out = new StringBuilder();
        TextTable switches = new TextTable("SWITCH", "DEADLOCKS", "PRESENT");
        for (int s = 0; s < names.size(); s++) {
            switches.row(names.get(s), views.get(s).path("deadlocks").asLong(), views.get(s).path("present").asBoolean() ? "yes" : "no");
        }
        out.append("each switch's own detection:\n").append(switches).append('\n');
        List<Edge> edges = edges();
        if (edges.isEmpty()) {
            out.append("wait-for edges now: none\n");
        } else {
            TextTable t = new TextTable("FROM", "EGRESS", "PAUSED_BY", "TO");
            for (Edge e : edges) {
                int s = switchOf(e.from);
                t.row(nodeName(e.from), names.get(s) + ":" + portNames[s][e.egress], e.pausedBy == null ? "-" : e.pausedBy,
                        e.to < 0 ? "outside (a host, an unlisted switch, or not paused)" : nodeName(e.to));
            }
            out.append("wait-for edges now:\n").append(t).append('\n');
        }
        out.append("fabric cycle: ").append(found ? cycle() + " (DEADLOCK if it stays)" : "none");
        return out.toString();
    }
}
