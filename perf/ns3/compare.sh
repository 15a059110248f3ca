#!/usr/bin/env bash
# Run `pfcswitch sim` on the flows perf/ns3/run.sh gave ns-3 and print both side by side, once per
# variant of our model (docs/ns3-model.md, "sim beside ns-3"). Needs the ns-3 run first.
#
#   [SCENARIO=leafspine-ws-incast-s2] perf/ns3/compare.sh [VARIANT...]        default: today q0 q0-cc ns3 ns3-paths
#
# Variants (each a set of --set overrides on sim.yaml):
#   today   our defaults (what the issue compared)
#   q0      + headroom reserved on priority 0 as well (losslessPriorities [0, 3]; nothing is sent on 0,
#           so this only moves 18 KB per port out of the shared pool, as ns-3's example does) and the
#           headroom formula's MTU at ns-3's 1048 B
#   q0-cc   + ns-3's DCQCN values (alpha every 1 us, 900 us increase timer, no byte counter, F = 1,
#           AI 50 Mb/s, HAI 100 Mb/s, min 100 Mb/s) with a CNP at most every 4 us (ns-3's decrease check)
#   ns3     model: ns3-datacenter (every ns-3 choice: PAUSE until RESUME, ECN after removal, round robin,
#           5-tuple ECMP, queue-0 headroom, CNP per marked packet, 4 us rate-decrease check, ACK per
#           packet on the data's queue as the ACK's flag, FCT at the sender's last ACK, the artifact's
#           scheme code: Reverie's filter on departures, no pool guard, ns-3's packet sizes in the buffer
#           and on the line) + ns-3's DCQCN values + the headroom formula's MTU at
#           ns-3's payload + 48 = 1048 B (the example's formula; with 1500 the leaves' pool is 36 KB short)
#   ns3-paths  ns3 with every flow on ns-3's path: the flows with the UDP source ports ns-3 drew for them
#           (ns3_ports.py, from ns-3's sonic.fct), so that the profile's 5-tuple hash, ns-3's host addresses
#           and node-id seeds pick the uplink ns-3 picked for each flow and its ACKs
# Outputs: perf/ns3/work/sim/VARIANT.json and VARIANT/ (flow records); runs under nice, one at a time.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
SCENARIO=${SCENARIO:-leafspine-ws-incast}   # or leafspine-ws-incast-s2 (a second flow set, seed 2)
RUN=${NS3_OUT:-$HERE/work/runs/$SCENARIO}
YAML=$HERE/scenarios/$SCENARIO/sim.yaml
OUT=$HERE/work/sim${SCENARIO#leafspine-ws-incast}   # work/sim for the first flow set, work/sim-s2 for the second
[[ $SCENARIO == leafspine-ws-incast* ]] || OUT=$HERE/work/sim-$SCENARIO           # another scenario: work/sim-NAME
[[ -f "$RUN/sonic.fct" && -f "$RUN/reverie.fct" ]] || { echo "run perf/ns3/run.sh $SCENARIO first" >&2; exit 2; }
mkdir -p "$OUT"

Q0=(--set 'mmu.losslessPriorities=[0,3]' --set mmu.mtuBytes=1048)
NS3_CC=(--set cc.alphaInterval=1us --set cc.timer=900us --set cc.byteCounter=0 --set cc.fastRecovery=1
    --set cc.ai=50M --set cc.hai=100M --set cc.minRate=100M)
CC=("${NS3_CC[@]}" --set cc.cnpInterval=4us)

variants=("$@")
[[ ${#variants[@]} -gt 0 ]] || variants=(today q0 q0-cc ns3 ns3-paths)
for v in "${variants[@]}"; do
  case $v in
    today) sets=() ;;
    q0) sets=("${Q0[@]}") ;;
    q0-cc) sets=("${Q0[@]}" "${CC[@]}") ;;
    ns3) sets=(--set model=ns3-datacenter "${NS3_CC[@]}" --set mmu.mtuBytes=1048) ;;
    ns3-paths)
      python3 "$HERE/ns3_ports.py" "$(dirname "$YAML")/flows.txt" "$RUN/sonic.fct" >"$OUT/flows-ns3-ports.txt"
      sets=(--set model=ns3-datacenter "${NS3_CC[@]}" --set mmu.mtuBytes=1048
          --set "traffic.flows.file=$OUT/flows-ns3-ports.txt") ;;
    *) echo "unknown variant $v (today, q0, q0-cc, ns3, ns3-paths)" >&2; exit 2 ;;
  esac
  echo "== $v: ./pfcswitch sim -c ${YAML#"$ROOT"/} --scheme sonic,reverie ${sets[*]}" >&2
  (cd "$ROOT" && nice -n 19 ./pfcswitch sim -c "$YAML" --scheme sonic,reverie --jobs 1 --json \
      --out "$OUT/$v" "${sets[@]}") >"$OUT/$v.json" 2>"$OUT/$v.err" \
    || { tail "$OUT/$v.err" >&2; exit 1; }
  grep -h "wall" "$OUT/$v.err" >&2 || true
  python3 "$HERE/compare_sim.py" "$RUN" "$OUT/$v.json" "$OUT/$v"
done
