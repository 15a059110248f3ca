#!/usr/bin/env python3
"""Put `pfcswitch sim` beside ns-3 on the same flows, over several runs a side.

  compare_sim.py FLOWS_DIR --ns3 RUN_DIR [RUN_DIR...] --sim SIM [SIM...] [--models sonic,reverie]
                 [--end S] [--tsv FILE]

FLOWS_DIR is the flow set as lib.sh's ns3_prepare wrote it (flows.tsv, topology.txt). Each ns-3
RUN_DIR holds MODEL.fct and MODEL.pfc of one run (ns3_run); each SIM names one `sim` run:
SIM.json from `pfcswitch sim --json` and the directory SIM/ from its `--out` (flows-MODEL.csv).
compare.sh runs both and calls this.

Every metric is computed per run, then given as mean ± sample standard deviation over the runs of
each side, with sim's mean relative to ns-3's. Both sides' FCT percentiles come from per-flow
records with the same nearest-rank rule. "per flow" is the median over flows of sim's FCT / ns-3's,
each flow's FCT first averaged over its side's runs (flows joined by src, dst, start).
The definitions still differ where the models do (docs/ns3-model.md): ns-3's FCT ends when the
sender gets the last ACK (sim's too under model: ns3-datacenter); ns-3's PAUSEs are episodes (no
refresh), ours are frames (refreshes included), and our episode count covers host ports only.
--tsv writes every run's value: metric, model, side, run, value.
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


def ns3_fcts(run, model):
    """(src, dst, start_ns) -> (size, fct_ns) for every flow ns-3 completed."""
    out = {}
    with open(os.path.join(run, model + ".fct")) as f:
        next(f)
        for line in f:
            c = line.split()
            out[(int(c[8]), int(c[9]), int(c[11]))] = (int(c[1]), int(c[2]))
    return out


def sim_fcts(sim, model, per_leaf):
    out = {}
    with open(os.path.join(sim, f"flows-{model}.csv")) as f:
        for r in csv.DictReader(f):
            if r["fct_ns"] and int(r["fct_ns"]) >= 0:
                key = (host_index(r["src"], per_leaf), host_index(r["dst"], per_leaf), int(r["start_ns"]))
                out[key] = (int(r["size_bytes"]), int(r["fct_ns"]))
    return out


def fct_metrics(fcts, kinds):
    """The FCT rows of one run (us); None where a bin has no completed flow."""
    m = {}
    for name, lo, hi in nt.BINS:
        vals = [fct for size, fct in fcts.values() if lo <= size < hi]
        m[f"FCT {name} p50 (us)"] = us(nt.pct(vals, 50))
        m[f"FCT {name} p99 (us)"] = us(nt.pct(vals, 99))
    inc = [fct for k, (_, fct) in fcts.items() if kinds.get(k) == "incast"]
    m["incast FCT p50 (us)"] = us(nt.pct(inc, 50))
    m["incast FCT p99 (us)"] = us(nt.pct(inc, 99))
    m["completed flows"] = len(fcts)
    return m


def us(ns):
    return None if ns is None else ns / 1000


def ns3_metrics(run, model, topo, kinds, end):
    pfc = nt.read_pfc(os.path.join(run, model + ".pfc"), topo, end)
    fcts = ns3_fcts(run, model)
    m = {
        "all pause frames": pfc["to_hosts"] + pfc["to_switches"],
        "pauses to hosts": pfc["to_hosts"],
        "pauses to switches": pfc["to_switches"],
        "  sent by leaves": pfc["sent_by_leaves"],
        "  sent by spines": pfc["sent_by_spines"],
        "pause episodes on host ports": pfc["episodes_hosts"],
        "host pause time (ms)": pfc["host_paused_s"] * 1e3,
    }
    m.update(fct_metrics(fcts, kinds))
    return m, fcts


def sim_metrics(sim, model, per_leaf, kinds):
    s = json.load(open(sim + ".json"))["schemes"][model]
    fabric = s.get("fabricPausesSentBySwitch", {})
    leaves = sum(n for k, n in fabric.items() if k.startswith("leaf"))
    spines = sum(n for k, n in fabric.items() if k.startswith("spine"))
    to_hosts = sum(s["pfcPausesSentByPort"].values())
    fcts = sim_fcts(sim, model, per_leaf)
    m = {
        "all pause frames": to_hosts + leaves + spines,
        "pauses to hosts": to_hosts,
        "pauses to switches": leaves + spines,
        "  sent by leaves": leaves,
        "  sent by spines": spines,
        "pause episodes on host ports": s.get("pfcXoffEdges"),
        "host pause time (ms)": s["pauseTimeNs"] / 1e6,
    }
    m.update(fct_metrics(fcts, kinds))
    return m, fcts


def mean_sd(vals):
    vals = [v for v in vals if v is not None]
    if not vals:
        return None, None
    return statistics.fmean(vals), (statistics.stdev(vals) if len(vals) > 1 else 0.0)


def fmt(mean, sd, decimals):
    if mean is None:
        return "-"
    return f"{mean:.{decimals}f} ± {sd:.{decimals}f}"


def decimals_for(metric):
    if "(ms)" in metric:
        return 2
    if "(us)" in metric:
        return 1
    return 0


def per_flow_ratio(ns_runs, sim_runs, lo, hi):
    """Median over flows of (sim's mean FCT) / (ns-3's mean FCT), flows every run of both completed."""
    keys = set.intersection(*(set(r) for r in ns_runs + sim_runs))
    ratios = [statistics.fmean(r[k][1] for r in sim_runs) / statistics.fmean(r[k][1] for r in ns_runs)
              for k in keys if lo <= ns_runs[0][k][0] < hi]
    return statistics.median(ratios) if ratios else None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("flows_dir")
    ap.add_argument("--ns3", nargs="+", required=True, metavar="RUN_DIR")
    ap.add_argument("--sim", nargs="+", required=True, metavar="SIM")
    ap.add_argument("--models", default="sonic,reverie")
    ap.add_argument("--end", type=float, required=True, help="simulated end (s), for pause time still open")
    ap.add_argument("--tsv", help="also write every run's value here")
    a = ap.parse_args()

    flows = nt.read_flows(a.flows_dir)
    topo = nt.read_topology(a.flows_dir)
    per_leaf = topo["hosts"] // len(topo["leaves"])
    kinds = {(s, d, st): k for (s, d, _, st), k in flows.items()}
    header = ["metric"]
    table, raw = {}, []
    for model in a.models.split(","):
        ns_runs = [ns3_metrics(r, model, topo, kinds, a.end) for r in a.ns3]
        sim_runs = [sim_metrics(s, model, per_leaf, kinds) for s in a.sim]
        header += [f"ns-3 {model}", f"sim {model}", "sim / ns-3"]
        for metric in ns_runs[0][0]:
            n_mean, n_sd = mean_sd([m[metric] for m, _ in ns_runs])
            s_mean, s_sd = mean_sd([m[metric] for m, _ in sim_runs])
            d = decimals_for(metric)
            rel = "-" if not n_mean or s_mean is None else f"{round((s_mean / n_mean - 1) * 100):+d} %"
            table.setdefault(metric, []).extend([fmt(n_mean, n_sd, d), fmt(s_mean, s_sd, d), rel])
            for side, runs in (("ns-3", ns_runs), ("sim", sim_runs)):
                raw += [(metric.strip(), model, side, i + 1, m[metric]) for i, (m, _) in enumerate(runs)]
        for name, lo, hi in nt.BINS:
            ratio = per_flow_ratio([f for _, f in ns_runs], [f for _, f in sim_runs], lo, hi)
            table.setdefault(f"FCT {name}, per flow (median)", []).extend(
                ["", "", "-" if ratio is None else f"x{ratio:.2f}"])
    total = len(flows)
    print(f"{len(a.ns3)} ns-3 runs and {len(a.sim)} sim runs per model, mean ± sd over the runs; "
          f"{total} flows; 'per flow' = median of sim's FCT / ns-3's, each averaged over its runs")
    print("| " + " | ".join(header) + " |")
    print("|---" * len(header) + "|")
    for metric, cells in table.items():
        print(f"| {metric} | " + " | ".join(cells) + " |")
    if a.tsv:
        with open(a.tsv, "w") as f:
            f.write("metric\tmodel\tside\trun\tvalue\n")
            for metric, model, side, run, value in raw:
                f.write(f"{metric}\t{model}\t{side}\t{run}\t{'' if value is None else round(value, 3)}\n")


if __name__ == "__main__":
    main()
