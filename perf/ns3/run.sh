#!/usr/bin/env bash
# Run one flow set through the Reverie artifact's ns-3 under its buffer models and print ns-3's table.
#
#   perf/ns3/run.sh FLOWS [MODELS]      e.g. perf/ns3/run.sh leafspine-ws-incast sonic,reverie
#
# FLOWS is a scenario name (perf/ns3/scenarios/NAME.conf), a scenario .conf file, or a pfcswitch flow
# list (see lib.sh, ns3_prepare). The script builds ns-3 if needed (build.sh), writes the flow set
# for both simulators (topology, ns-3 flow file, flows.txt, flows.tsv, sim.yaml with the same end time,
# ns3.conf), runs the Reverie example once per model (one after the other, under nice -n $NS3_NICE;
# --RngRun=1)
# and prints the table (ns3_table.py). Outputs go to NS3_OUT, default $NS3_WORK/runs/NAME; the
# per-model files (MODEL.fct, .pfc, .tor, .out, .cmd, .usage) are described in lib.sh, ns3_run.
# To compare with `sim` over several runs a side, use compare.sh, which does all of this too.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

usage="usage: run.sh FLOWS [MODELS]   (FLOWS: a scenario name, a scenario .conf or a flow list; MODELS: sonic,reverie)"
case ${1:-} in
  -h|--help) ns3_help; exit 0 ;;
  ''|-*) ns3_die "$usage" ;;
esac
[[ $# -le 2 ]] || ns3_die "$usage"
SOURCE=$(ns3_flow_source "$1")
MODELS=${2:-sonic,reverie}
IFS=, read -r -a MODEL_LIST <<<"$MODELS"
for m in "${MODEL_LIST[@]}"; do [[ $m == sonic || $m == reverie ]] || ns3_die "unknown buffer model '$m' (allowed: sonic, reverie)"; done
NAME=$(basename "$SOURCE"); NAME=${NAME%.conf}; NAME=${NAME%.txt}
OUT=${NS3_OUT:-$NS3_WORK/runs/$NAME}
mkdir -p "$OUT"; OUT=$(cd "$OUT" && pwd)

ns3_prepare "$SOURCE" "$OUT"
BIN=$(ns3_binary)
for model in "${MODEL_LIST[@]}"; do
  ns3_run "$BIN" "$OUT" "$OUT" "$model" 1
done
python3 "$NS3_HERE/ns3_table.py" "$OUT" --models "$MODELS" --end "$END_TIME" --tsv "$OUT/table.tsv"
