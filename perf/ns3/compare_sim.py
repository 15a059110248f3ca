#!/usr/bin/env python3
"""Put `pfcswitch sim` beside ns-3 on the same flows (issue 16 item 4's table, first cut).

  compare_sim.py NS3_RUN_DIR SIM_JSON SIM_OUT_DIR [--models sonic,reverie]

NS3_RUN_DIR is what perf/ns3/run.sh wrote; SIM_JSON and SIM_OUT_DIR come from
  ./pfcswitch sim -c NS3_RUN_DIR/../sim.yaml --scheme sonic,reverie --json --out SIM_OUT_DIR > SIM_JSON
(sim.yaml from gen_leafspine.py --sim-yaml: the same flows as explicit kind: flow entries).

Both sides' FCT percentiles are computed here from per-flow records with the same nearest-rank rule,
and flows are joined by (src, dst, start) so the per-flow ratio sim/ns-3 can be given per size bin.
The definitions still differ where the models do (docs/ns3-model.md): ns-3's FCT ends when the sender
gets the last ACK, ours when the last byte reaches the receiver; ns-3's PAUSEs are episodes (no
refresh), ours are frames (refreshes included), and our episode count covers host ports only.
"""
import argparse
import csv
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ns3_table as nt  # noqa: E402  (same folder)


def host_index(name, per_leaf):
    leaf, host = name[1:].split("H")
    return int(leaf) * per_leaf + int(host)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("ns3_run")
    ap.add_argument("sim_json")
    ap.add_argument("sim_out")
    ap.add_argument("--models", default="sonic,reverie")
    ap.add_argument("--end", type=float, default=0.201)
    a = ap.parse_args()

    flows = nt.read_flows(a.ns3_run)
    topo = nt.read_topology(a.ns3_run)
    per_leaf = topo["hosts"] // len(topo["leaves"])
    kinds = {(s, d, st): k for (s, d, _, st), k in flows.items()}
    sim = json.load(open(a.sim_json))["schemes"]
    cols, rows = {}, None
    for m in a.models.split(","):
        # ns-3: (src, dst, start) -> (size, fct)
        ns = {}
        with open(os.path.join(a.ns3_run, m + ".fct")) as f:
            next(f)
            for line in f:
                c = line.split()
                ns[(int(c[8]), int(c[9]), int(c[11]))] = (int(c[1]), int(c[2]))
        ours = {}
        with open(os.path.join(a.sim_out, f"flows-{m}.csv")) as f:
            for r in csv.DictReader(f):
                if r["fct_ns"] and int(r["fct_ns"]) >= 0:
                    key = (host_index(r["src"], per_leaf), host_index(r["dst"], per_leaf), int(r["start_ns"]))
                    ours[key] = (int(r["size_bytes"]), int(r["fct_ns"]))
        pfc = nt.read_pfc(os.path.join(a.ns3_run, m + ".pfc"), topo, a.end)
        s = sim[m]
        fabric = s.get("fabricPausesSentBySwitch", {})
        v3, vs = {}, {}
        v3["pauses to hosts"] = pfc["to_hosts"]
        vs["pauses to hosts"] = sum(s["pfcPausesSentByPort"].values())
        v3["pauses to switches (sent by leaves / spines)"] = \
            f'{pfc["to_switches"]} ({pfc["sent_by_leaves"]} / {pfc["sent_by_spines"]})'
        leaves = sum(n for k, n in fabric.items() if k.startswith("leaf"))
        spines = sum(n for k, n in fabric.items() if k.startswith("spine"))
        vs["pauses to switches (sent by leaves / spines)"] = f"{leaves + spines} ({leaves} / {spines})"
        v3["pause episodes on host ports"] = pfc["episodes_hosts"]
        vs["pause episodes on host ports"] = s.get("pfcXoffEdges", "-")
        v3["host pause time (ms)"] = f'{pfc["host_paused_s"] * 1e3:.2f}'
        vs["host pause time (ms)"] = f'{s["pauseTimeNs"] / 1e6:.2f}'
        for name, lo, hi in nt.BINS:
            a3 = [fct for size, fct in ns.values() if lo <= size < hi]
            as_ = [fct for size, fct in ours.values() if lo <= size < hi]
            ratios = [ours[k][1] / ns[k][1] for k in ns if k in ours and lo <= ns[k][0] < hi]
            label = f"FCT {name} p50 / p99 (us)"
            v3[label] = f"{nt.fmt_us(nt.pct(a3, 50))} / {nt.fmt_us(nt.pct(a3, 99))}"
            vs[label] = f"{nt.fmt_us(nt.pct(as_, 50))} / {nt.fmt_us(nt.pct(as_, 99))}" + \
                (f" (x{statistics.median(ratios):.2f} per flow)" if ratios else "")
        inc3 = [fct for k, (size, fct) in ns.items() if kinds.get(k) == "incast"]
        incs = [fct for k, (size, fct) in ours.items() if kinds.get(k) == "incast"]
        v3["incast FCT p50 / p99 (us)"] = f"{nt.fmt_us(nt.pct(inc3, 50))} / {nt.fmt_us(nt.pct(inc3, 99))}"
        vs["incast FCT p50 / p99 (us)"] = f"{nt.fmt_us(nt.pct(incs, 50))} / {nt.fmt_us(nt.pct(incs, 99))}"
        v3["completed flows"] = f"{len(ns)}/{len(flows)}"
        vs["completed flows"] = f"{len(ours)}/{len(flows)}"
        cols[f"ns-3 {m}"], cols[f"sim {m}"] = v3, vs
        rows = rows or list(v3)
    names = list(cols)
    print("| | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    for r in rows:
        print(f"| {r} | " + " | ".join(str(cols[n][r]) for n in names) + " |")


if __name__ == "__main__":
    main()
