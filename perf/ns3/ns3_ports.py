#!/usr/bin/env python3
"""Give each flow of a pfcswitch flow list the UDP source port ns-3 gave the same flow.

    python3 perf/ns3/ns3_ports.py FLOWS.txt NS3_RUN/sonic.fct > FLOWS-ns3-ports.txt

ns-3's example draws each (src, dst) pair's first source port from libc rand() in 10000-11000 and
counts up from there; the port is in the 5-tuple its switches hash to pick an uplink, so it decides
which spine a flow crosses. Our patch appends "src dst sport start_ns" to every .fct line; this
script joins those to the flow list on (src, dst, start) and writes the list again with
"sport=N" on each line (FlowListReader's optional last column). With the scenario's `model:
ns3-datacenter` (ns-3's host addresses, the 5-tuple hash seeded with each switch's node id, and
flow-ns3.txt's destination port 4791, which our frames carry too) every flow then takes the path it
took in ns-3. A flow ns-3 did not complete has no .fct line: the script fails naming it.
"""
import sys
from collections import defaultdict


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    flows_path, fct_path = sys.argv[1], sys.argv[2]
    ports = defaultdict(list)          # (src, dst) -> [(start_ns, sport)]
    with open(fct_path) as f:
        for line in f:
            p = line.split()
            if len(p) < 12 or p[0] == "timestamp":
                continue
            ports[(int(p[8]), int(p[9]))].append((int(p[11]), int(p[10])))
    out = sys.stdout
    for n, line in enumerate(open(flows_path), 1):
        body = line.split("#", 1)[0].split()
        if not body:
            out.write(line)
            continue
        src, dst, start_s = int(body[0]), int(body[1]), body[3]
        whole, _, frac = start_s.partition(".")
        start_ns = int(whole) * 10**9 + int((frac + "000000000")[:9])
        # ns-3 reads the start as a double in seconds: allow its rounding, a few ns either way.
        match = [sport for t, sport in ports.get((src, dst), []) if abs(t - start_ns) <= 2]
        if len(match) != 1:
            sys.exit(f"{flows_path}:{n}: {len(match)} flows of {src} -> {dst} at {start_ns} ns in {fct_path}"
                     " (expected exactly one: did ns-3 complete every flow?)")
        out.write(" ".join(body) + f" sport={match[0]}\n")


if __name__ == "__main__":
    main()
