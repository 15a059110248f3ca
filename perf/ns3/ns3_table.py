#!/usr/bin/env python3
"""Turn the Reverie example's outputs into our comparison table (issue 16, item 4's columns).

  ns3_table.py RUN_DIR [--models sonic,reverie] [--tsv FILE]

RUN_DIR is what perf/ns3/run.sh wrote: flows.tsv (every flow with its kind), topology.txt, and per
model MODEL.fct, MODEL.pfc, MODEL.tor, MODEL.usage. What the files hold (read from the example and
src/point-to-point/model/qbb-net-device.cc):

  .fct  a header line, then one line per completed flow: finish time (s), size (bytes), FCT (ns;
        the header calls it "fctus" but the value is in nanoseconds), ideal FCT, slowdown, base RTT,
        priority, incast flag; with our patch also src, dst, sport and start (ns), which we join to
        flows.tsv to know which flow finished (the incast flag only marks the example's own incasts).
  .pfc  a header line, then one line per PFC event at one device: time (s), node id, node type
        (0 host, 1 switch), interface, type. Type 1 = a PAUSE arrived, 0 = a RESUME arrived, 2 = the
        device sent a PAUSE, 3 = it sent a RESUME. ns-3 never refreshes a pause (a PAUSE holds the
        queue until the RESUME), so PAUSE frames and pause episodes are the same count; we still
        count episodes as not-paused -> paused transitions, as our simulator does.
  .tor  the leaves' buffer use, sampled every 1.5 max RTT: switch, total used, ... , time.

Size bins are decimal: < 100 KB, 100 KB - 1 MB, >= 1 MB. Percentiles are nearest-rank.
"""
import argparse
import math
import os
import sys

BINS = [("<100KB", 0, 100_000), ("100KB-1MB", 100_000, 1_000_000), (">=1MB", 1_000_000, float("inf"))]


def pct(values, q):
    if not values:
        return None
    s = sorted(values)
    return s[max(0, math.ceil(q / 100 * len(s)) - 1)]


def read_flows(run):
    flows = {}
    with open(os.path.join(run, "flows.tsv")) as f:
        next(f)
        for line in f:
            src, dst, size, start, kind = line.split()
            flows[(int(src), int(dst), int(size), int(start))] = kind
    return flows


def read_topology(run):
    """Hosts, leaves, spines, and the node at the other end of each (node, interface): the example
    creates one device per link in file order, so a node's n-th link is its interface n (0 is the
    loopback)."""
    peer, seen = {}, {}
    with open(os.path.join(run, "topology.txt")) as f:
        nodes, switches, leaves, links = (int(x) for x in f.readline().split()[:4])
        ids = [int(x) for x in f.readline().split()]
        for _ in range(links):
            a, b = (int(x) for x in f.readline().split()[:2])
            for here, there in ((a, b), (b, a)):
                seen[here] = seen.get(here, 0) + 1
                peer[(here, seen[here])] = there
    return {"hosts": nodes - switches, "leaves": set(ids[:leaves]), "spines": set(ids[leaves:]), "peer": peer}


def read_fct(path, flows):
    """(size, fct_ns, kind) per completed flow; kind from flows.tsv (None when no flow matches)."""
    out, unmatched = [], 0
    by_pair = {}
    for (src, dst, size, start), kind in flows.items():
        by_pair.setdefault((src, dst, size), []).append((start, kind))
    with open(path) as f:
        next(f)
        for line in f:
            c = line.split()
            size, fct = int(c[1]), int(float(c[2]))
            kind = None
            if len(c) >= 12:
                src, dst, start = int(c[8]), int(c[9]), int(c[11])
                # ns-3 turns the start in seconds into its own time step: allow a nanosecond or two.
                cands = [k for s, k in by_pair.get((src, dst, size), []) if abs(s - start) <= 2]
                kind = cands[0] if cands else None
            unmatched += kind is None
            out.append((size, fct, kind))
    return out, unmatched


def read_pfc(path, topo, end_s):
    r = {"to_hosts": 0, "to_switches": 0, "sent_by_leaves": 0, "sent_by_spines": 0,
         "episodes_hosts": 0, "episodes_switches": 0, "host_paused_s": 0.0, "resumes": 0}
    paused_since = {}
    with open(path) as f:
        next(f)
        for line in f:
            t, node, ntype, ifi, typ = line.split()
            t, node, typ = float(t), int(node), int(typ)
            host = ntype == "0"
            key = (node, ifi)
            if typ == 1:
                r["to_hosts" if host else "to_switches"] += 1
                if key not in paused_since:
                    r["episodes_hosts" if host else "episodes_switches"] += 1
                    paused_since[key] = t
            elif typ == 0:
                r["resumes"] += 1
                if key in paused_since:
                    since = paused_since.pop(key)
                    if host:
                        r["host_paused_s"] += t - since
            elif typ == 2 and topo["peer"].get((node, int(ifi)), 0) >= topo["hosts"]:
                # a PAUSE a switch sent to another switch: which tier sent it
                if node in topo["leaves"]:
                    r["sent_by_leaves"] += 1
                elif node in topo["spines"]:
                    r["sent_by_spines"] += 1
    for (node, _), since in paused_since.items():  # still paused at the end
        if node < topo["hosts"]:
            r["host_paused_s"] += end_s - since
    return r


def read_tor(path):
    best = 0
    if not os.path.exists(path):
        return None
    with open(path) as f:
        next(f)
        for line in f:
            c = line.split()
            if len(c) >= 2:
                best = max(best, int(c[1]))
    return best


def fmt_us(ns):
    return "-" if ns is None else f"{ns / 1000:.1f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("run")
    ap.add_argument("--models", default="sonic,reverie")
    ap.add_argument("--end", type=float, default=None, help="simulated end (s), for pause time still open")
    ap.add_argument("--tsv", default=None, help="also write the table as TSV here")
    a = ap.parse_args()

    flows = read_flows(a.run)
    topo = read_topology(a.run)
    total = len(flows)
    n_incast = sum(1 for k in flows.values() if k == "incast")
    end = a.end
    if end is None:
        end = max(s for (_, _, _, s) in flows) / 1e9
    rows = []  # (label, value per model)
    cols = {}
    for m in a.models.split(","):
        fct_path = os.path.join(a.run, m + ".fct")
        if not os.path.exists(fct_path):
            print(f"{m}: no {fct_path}", file=sys.stderr)
            continue
        done, unmatched = read_fct(fct_path, flows)
        pfc = read_pfc(os.path.join(a.run, m + ".pfc"), topo, end)
        usage_path = os.path.join(a.run, m + ".usage")
        wall, rss = open(usage_path).read().split() if os.path.exists(usage_path) else ("-", "-")
        v = {}
        v["PFC pause frames to hosts"] = pfc["to_hosts"]
        v["PFC pause frames to switches"] = pfc["to_switches"]
        v["  of which sent by leaves / by spines"] = f'{pfc["sent_by_leaves"]} / {pfc["sent_by_spines"]}'
        v["pause episodes (hosts + switches)"] = f'{pfc["episodes_hosts"] + pfc["episodes_switches"]} ' \
                                                 f'({pfc["episodes_hosts"]} + {pfc["episodes_switches"]})'
        v["host pause time (ms, summed over hosts)"] = f'{pfc["host_paused_s"] * 1e3:.2f}'
        for name, lo, hi in BINS:
            fcts = [f for s, f, _ in done if lo <= s < hi]
            n_all = sum(1 for (_, _, s, _) in flows if lo <= s < hi)
            v[f"FCT {name} p50 / p99 (us), done/all"] = \
                f"{fmt_us(pct(fcts, 50))} / {fmt_us(pct(fcts, 99))}, {len(fcts)}/{n_all}"
        inc = [f for _, f, k in done if k == "incast"]
        v["incast FCT p50 / p99 (us), done/all"] = f"{fmt_us(pct(inc, 50))} / {fmt_us(pct(inc, 99))}, {len(inc)}/{n_incast}"
        mb = read_tor(os.path.join(a.run, m + ".tor"))
        v["max buffer, leaves (KB, sampled)"] = "-" if mb is None else f"{mb / 1000:.0f}"
        v["completed flows"] = f"{len(done)}/{total}" + (f" ({unmatched} not joined)" if unmatched else "")
        v["wall time (s)"] = wall
        v["peak RSS (MB)"] = rss if rss == "-" else f"{int(rss) / 1024:.0f}"
        cols[m] = v
        if not rows:
            rows = list(v.keys())
    models = list(cols)
    if not models:
        sys.exit("no model output found")
    w = max(len(r) for r in rows)
    print(f"| {'':{w}} | " + " | ".join(f"ns-3 {m}" for m in models) + " |")
    print(f"|{'-' * (w + 2)}|" + "|".join("-" * (len(m) + 7) for m in models) + "|")
    for r in rows:
        print(f"| {r:{w}} | " + " | ".join(str(cols[m][r]) for m in models) + " |")
    if a.tsv:
        with open(a.tsv, "w") as f:
            f.write("metric\t" + "\t".join(models) + "\n")
            for r in rows:
                f.write(r.strip() + "\t" + "\t".join(str(cols[m][r]) for m in models) + "\n")


if __name__ == "__main__":
    main()
