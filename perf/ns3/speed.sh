#!/usr/bin/env bash
# Wall time of ns-3 and of `pfcswitch sim` on the same flows, interleaved in one run (issue 16 item 5).
# Each round runs, per buffer model: ns-3 (the exact command perf/ns3/run.sh saved, not niced), then
# sim in a fresh JVM under our default model, then sim under model: ns3-datacenter with ns-3's DCQCN
# values (twice the events: an ACK per packet). Needs perf/ns3/run.sh SCENARIO first.
#
#   perf/ns3/speed.sh [ROUNDS]        (default 2; the scenario is leafspine-ws-incast)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
SCENARIO=${SCENARIO:-leafspine-ws-incast}   # or leafspine-ws-incast-s2 (a second flow set, seed 2)
RUN=${NS3_OUT:-$HERE/work/runs/$SCENARIO}
YAML=$HERE/scenarios/$SCENARIO/sim.yaml
ROUNDS=${1:-2}
NS3_MODEL=(--set model=ns3-datacenter --set cc.alphaInterval=1us --set cc.timer=900us --set cc.byteCounter=0
           --set cc.fastRecovery=1 --set cc.ai=50M --set cc.hai=100M --set cc.minRate=100M)
[[ -f "$RUN/sonic.cmd" && -f "$RUN/reverie.cmd" ]] || { echo "run perf/ns3/run.sh $SCENARIO first" >&2; exit 2; }
(cd "$ROOT" && ./pfcswitch --version >/dev/null)          # build once, outside the timings

seconds() { local t0 t1; t0=$(date +%s.%N); "$@" >/dev/null 2>&1; t1=$(date +%s.%N); python3 -c "print(f'{$t1 - $t0:.2f}')"; }

echo "round model    ns-3 s   sim s (ratio)   sim ns3-datacenter s (ratio)"
for ((r = 1; r <= ROUNDS; r++)); do
  for model in sonic reverie; do
    ns3=$(seconds bash "$RUN/$model.cmd")
    ours=$(cd "$ROOT" && seconds ./pfcswitch sim -c "$YAML" --scheme "$model")
    ours3=$(cd "$ROOT" && seconds ./pfcswitch sim -c "$YAML" --scheme "$model" "${NS3_MODEL[@]}")
    python3 -c "print(f'{$r:5d} {\"$model\":8s} {$ns3:7.2f} {$ours:7.2f} ({$ns3 / $ours:.1f}x)   {$ours3:7.2f} ({$ns3 / $ours3:.1f}x)')"
  done
done
