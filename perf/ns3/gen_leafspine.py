#!/usr/bin/env python3
"""Write one leaf-spine scenario for both simulators: the same flows, two file formats.

Outputs (in --out):
  topology.txt   ns-3 topology (the Reverie example's format, see below)
  flow-ns3.txt   ns-3 flow list: first line the count, then "src dst pg dport bytes start_s" (dport 4791)
  flows.txt      pfcswitch flow list (`traffic: {x: {kind: flows, file: ...}}`): "src dst bytes start"
                 with host indices and start in seconds
  flows.tsv      one row per flow with its kind (bg / incast) and start in integer ns: what
                 ns3_table.py joins .fct lines to (the .fct format does not say which flow is which)
  sim.yaml       (with --sim-yaml) a pfcswitch `sim` scenario of the same topology that reads flows.txt
                 (one `kind: flows` traffic)

Hosts are numbered leaf by leaf (leaf l's host h is l*hostsPerLeaf + h: pfcswitch's L<l>H<h> and the
ns-3 node of the same number); switches follow (leaves, then spines), as the Reverie example expects.

Traffic (seeded, so the files are reproducible):
  background: every host starts flows as a Poisson process to a random host on another leaf, sizes
    from an HPCC-style CDF file ("bytes cumulative-percent" rows, linear interpolation). --load is
    the load on the leaf-spine uplinks, as in the Reverie example: each host offers
    load * spines * fabric_rate / hostsPerLeaf, so all hosts together fill `load` of the spines.
  incasts: every --incast-every seconds one random host receives --incast-bytes from each of
    --incast-fanin hosts of the other leaves (all senders start at the same instant).
Or, with --flows-file FILE, the flows are read from a pfcswitch flow list ("src dst bytes start_s"
per line, host indices as above, `#` comments; a trailing sport=N column is dropped: ns-3 draws its
own ports) instead of drawn: the files above are written for that list on the given topology, and a
flow is of kind "incast" when at least one other flow has the same destination and start instant.
--print-span prints the list's first and last start (s) and writes nothing.
Only the Python standard library is used.
"""
import argparse
import bisect
import os
import random


def load_cdf(path):
    """Rows (bytes, cumulative fraction); first row at fraction 0, last at 1."""
    rows = []
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 2 and not line.lstrip().startswith("#"):
                rows.append((float(parts[0]), float(parts[1]) / 100.0))
    if not rows or abs(rows[-1][1] - 1.0) > 1e-9:
        raise SystemExit(f"{path}: the last row must be at 100 %")
    return rows


def cdf_mean(rows):
    # Linear interpolation inside each row pair: the mean of a segment is its midpoint.
    return sum((p1 - p0) * (b0 + b1) / 2 for (b0, p0), (b1, p1) in zip(rows, rows[1:]))


def cdf_sample(rows, rng):
    u = rng.random()
    probs = [p for _, p in rows]
    i = max(1, bisect.bisect_left(probs, u))
    (b0, p0), (b1, p1) = rows[i - 1], rows[i]
    size = b0 if p1 == p0 else b0 + (b1 - b0) * (u - p0) / (p1 - p0)
    return max(1, int(round(size)))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", help="directory for the files (required unless --print-span)")
    ap.add_argument("--flows-file", help="read the flows from this pfcswitch flow list instead of drawing them")
    ap.add_argument("--print-span", action="store_true", help="with --flows-file: print 'first_start_s last_start_s'")
    ap.add_argument("--leaves", type=int, default=2)
    ap.add_argument("--hosts-per-leaf", type=int, default=16)
    ap.add_argument("--spines", type=int, default=4)
    ap.add_argument("--rate-gbps", type=float, default=25, help="every link (hosts and fabric)")
    ap.add_argument("--delay", default="2us", help="every link's propagation delay (ns-3 syntax)")
    ap.add_argument("--load", type=float, default=0.4)
    ap.add_argument("--cdf", help="flow size CDF (required unless --flows-file)")
    ap.add_argument("--start", type=float, default=0.001, help="first instant flows may start (s)")
    ap.add_argument("--duration", type=float, default=0.1, help="flows start within [start, start+duration) (s)")
    ap.add_argument("--incast-every", type=float, default=0.005)
    ap.add_argument("--incast-fanin", type=int, default=16)
    ap.add_argument("--incast-bytes", type=int, default=125000, help="per sender")
    ap.add_argument("--pg", type=int, default=3, help="ns-3 priority group (3: the example's lossless queue)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--sim-yaml", action="store_true", help="also write sim.yaml (see above)")
    ap.add_argument("--buffer-bytes", type=int, default=2560000, help="per switch, for sim.yaml")
    ap.add_argument("--end", type=float, default=None, help="simulated end (s) for sim.yaml; default start+2*duration")
    a = ap.parse_args()
    hosts = a.leaves * a.hosts_per_leaf
    if a.print_span:
        if not a.flows_file:
            ap.error("--print-span needs --flows-file")
        starts = [f[0] for f in read_flow_list(a.flows_file, hosts)]
        print(f"{min(starts) / 1e9:.9f} {max(starts) / 1e9:.9f}")
        return
    if not a.out:
        ap.error("--out is required")
    if a.flows_file:
        flows = read_flow_list(a.flows_file, hosts)
        starts = [f[0] for f in flows]
        # The measured window and sim.yaml's default end follow the list: from its first start to
        # just after its last.
        a.start = min(starts) / 1e9
        a.duration = (max(starts) + 1) / 1e9 - a.start
    else:
        if not a.cdf:
            ap.error("--cdf is required unless --flows-file is given")
        flows = draw_flows(a, hosts)
    write_files(a, hosts, flows)


def read_flow_list(path, hosts):
    """(start_ns, src, dst, bytes, kind) per line of a pfcswitch flow list, sorted by start."""
    def bad(n, what):
        raise SystemExit(f"{path}:{n}: {what} (a line is 'src dst bytes start_s', hosts 0..{hosts - 1})")
    rows = []
    try:
        lines = open(path).read().splitlines()
    except OSError as e:
        raise SystemExit(f"{path}: {e.strerror}")
    for n, line in enumerate(lines, 1):
        body = line.split("#", 1)[0].split()
        if not body:
            continue
        if body[-1].startswith("sport="):
            body = body[:-1]
        if len(body) != 4:
            bad(n, f"{len(body)} columns, expected 4")
        try:
            src, dst, size, start = int(body[0]), int(body[1]), int(body[2]), float(body[3])
        except ValueError:
            bad(n, f"'{line.strip()}' is not four numbers")
        if not (0 <= src < hosts and 0 <= dst < hosts) or src == dst:
            bad(n, f"src {src} / dst {dst} are not two different hosts of the topology")
        if size <= 0 or start < 0:
            bad(n, f"size {size} must be > 0 and start {body[3]} >= 0")
        whole, _, frac = body[3].partition(".")
        start_ns = int(whole or 0) * 10**9 + int((frac + "000000000")[:9]) if "e" not in body[3].lower() \
            else int(round(start * 1e9))
        rows.append([start_ns, src, dst, size])
    if not rows:
        raise SystemExit(f"{path}: no flows")
    fan_in = {}
    for start_ns, _, dst, _ in rows:
        fan_in[(dst, start_ns)] = fan_in.get((dst, start_ns), 0) + 1
    flows = [(s, src, dst, size, "incast" if fan_in[(dst, s)] > 1 else "bg") for s, src, dst, size in rows]
    flows.sort()
    return flows


def draw_flows(a, hosts):
    rng = random.Random(a.seed)
    leaf_of = lambda h: h // a.hosts_per_leaf
    others = lambda h: [d for d in range(hosts) if leaf_of(d) != leaf_of(h)]
    rows = load_cdf(a.cdf)
    mean = cdf_mean(rows)
    rate_bps = a.rate_gbps * 1e9
    per_host_bps = a.load * a.spines * rate_bps / a.hosts_per_leaf
    lam = per_host_bps / 8 / mean  # flows per second per host
    end = a.start + a.duration
    to_ns = lambda s: int(round(s * 1e9))

    flows = []  # (start_ns, src, dst, bytes, kind)
    for src in range(hosts):
        t = a.start + rng.expovariate(lam)
        while t < end:
            flows.append((to_ns(t), src, rng.choice(others(src)), cdf_sample(rows, rng), "bg"))
            t += rng.expovariate(lam)
    t = a.start + a.incast_every
    while t < end:
        dst = rng.randrange(hosts)
        senders = others(dst)
        for src in rng.sample(senders, min(a.incast_fanin, len(senders))):
            flows.append((to_ns(t), src, dst, a.incast_bytes, "incast"))
        t += a.incast_every
    # ns-3's reader needs start order; ties keep a fixed order so the files are reproducible.
    flows.sort()
    print(f"background: {lam:.1f} flows/s per host, mean size {mean / 1e6:.2f} MB")
    return flows


def write_files(a, hosts, flows):
    leaf_of = lambda h: h // a.hosts_per_leaf
    rate_bps = a.rate_gbps * 1e9
    os.makedirs(a.out, exist_ok=True)
    switches = a.leaves + a.spines
    with open(os.path.join(a.out, "topology.txt"), "w") as f:
        # "nodes switches leaves links host_rate fabric_rate", the switch ids (leaves first), then
        # "a b rate delay error_rate" per link; the example infers hosts per leaf and links per pair.
        links = hosts + a.leaves * a.spines
        rate = str(int(rate_bps))
        f.write(f"{hosts + switches} {switches} {a.leaves} {links} {rate} {rate}\n")
        f.write(" ".join(str(hosts + i) for i in range(switches)) + "\n")
        for h in range(hosts):
            f.write(f"{h} {hosts + leaf_of(h)} {rate} {a.delay} 0\n")
        for l in range(a.leaves):
            for s in range(a.spines):
                f.write(f"{hosts + l} {hosts + a.leaves + s} {rate} {a.delay} 0\n")
    with open(os.path.join(a.out, "flow-ns3.txt"), "w") as f:
        # Destination port 4791 (RoCEv2's, which our frames carry) for every flow: ns-3's switches
        # hash it with the source port to pick an uplink, and ns-3 keys no QP by it, so with the same
        # port on both sides and ns-3's source ports (ns3_ports.py) `sim` can replay ns-3's paths.
        f.write(f"{len(flows)}\n")
        for ns, src, dst, size, _ in flows:
            f.write(f"{src} {dst} {a.pg} 4791 {size} {ns / 1e9:.9f}\n")
    with open(os.path.join(a.out, "flows.txt"), "w") as f:
        # No header line: the loader's format is exactly these four columns.
        for ns, src, dst, size, _ in flows:
            f.write(f"{src} {dst} {size} {ns / 1e9:.9f}\n")
    with open(os.path.join(a.out, "flows.tsv"), "w") as f:
        f.write("src\tdst\tbytes\tstart_ns\tkind\n")
        for ns, src, dst, size, kind in flows:
            f.write(f"{src}\t{dst}\t{size}\t{ns}\t{kind}\n")
    if a.sim_yaml:
        write_sim_yaml(os.path.join(a.out, "sim.yaml"), a, flows)
    nbg = sum(1 for x in flows if x[4] == "bg")
    print(f"{len(flows)} flows, {nbg} background and {len(flows) - nbg} incast, in {a.out}")


def write_sim_yaml(path, a, flows):
    """Our simulator's side: the same switches, links and buffer, our defaults for everything else
    (DCQCN, PFC quanta, scheme parameters), so a run shows today's model beside ns-3's."""
    end = a.end if a.end is not None else a.start + 2 * a.duration
    name = lambda h: f"L{h // a.hosts_per_leaf}H{h % a.hosts_per_leaf}"
    rate = f"{a.rate_gbps:g}G"
    lines = [
        f"# Written by perf/ns3/gen_leafspine.py: the flows of flow-ns3.txt, read from flows.txt (kind: flows).",
        f"# Run: ./pfcswitch sim -c {path} --scheme sonic,reverie",
        f"name: {os.path.basename(os.path.dirname(os.path.abspath(path)))}",
        f"duration: {round(end * 1e9)}ns",
        "seed: 1",
        "schemes: [sonic, reverie]",
        "sample: 1ms",
        f"measure: {{from: {round(a.start * 1e9)}ns, to: {round((a.start + a.duration) * 1e9)}ns}}",
        "payloadMtu: 1000",
        "cc: {mode: dcqcn}",
        "pfc: {pauseQuanta: 65535}",
        "topology:",
        "  kind: leafSpine",
        f"  leaves: {a.leaves}",
        f"  spines: {a.spines}",
        f"  hostsPerLeaf: {a.hosts_per_leaf}",
        f"  hostSpeed: {rate}",
        f"  hostDelay: {a.delay}",
        f"  fabricSpeed: {rate}",
        f"  fabricDelay: {a.delay}",
        "mmu:",
        f"  totalBytes: {a.buffer_bytes}",
        "  mtuBytes: 1500",
        f"  losslessPriorities: [{a.pg}]",
        "  privateBytes: 0",
        "  headroomFormula: sonic",
        "  scheme: sonic",
        "traffic:",
    ]
    lines.append(f"  flows: {{kind: flows, file: flows.txt, priority: {a.pg}}}")
    lines += ["report:", "  fctBins: [100KB, 1MB]"]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
