#!/usr/bin/env bash
# Take one flow set through ns-3 (the Reverie artifact) and `pfcswitch sim`, N runs a side, and print
# the comparison: means and standard deviations of the pause counts, pause time and FCT percentiles.
#
#   perf/ns3/compare.sh --flows FLOWS [--runs N] [--schemes sonic,reverie] [--variants V[,V...]]
#                       [--end SECONDS] [--name NAME]
#
#   --flows     a scenario name (perf/ns3/scenarios/NAME.conf), a scenario .conf (generator arguments,
#               buffer, start and end; copy scenarios/leafspine-ws-incast.conf and change --seed for a
#               new flow set), or a pfcswitch flow list "src dst bytes start_s" (on gen_leafspine.py's
#               default leaf-spine: 2 leaves x 16 hosts, 4 spines, 25G, 2 us, 2.56 MB per switch)
#   --runs      runs per side (default 3): ns-3 with --RngRun=1..N, sim with seed 1..N
#   --schemes   buffer models, both simulators (default sonic,reverie; ns-3 has no other)
#   --variants  which of our models runs beside ns-3 (default ns3-paths; lib.sh lists today, q0,
#               q0-cc, ns3, ns3-paths). ns3-paths takes ns-3's paths from its first run.
#   --end       simulated end (s); default the .conf's END_TIME, or 0.1 s after a flow list's last start
#   --name      output directory name (default the flow file's name)
#
# One command writes the flow set for both (topology, ns-3 flow file and config, and sim.yaml with
# the same topology, buffer and end time), builds ns-3 if needed (build.sh), then runs ns-3 N times
# per scheme and sim N times (both schemes per run), one at a time under nice -n $NS3_NICE (default
# 10), and prints one table per variant (compare_sim.py). Everything goes to $NS3_WORK/compare/NAME/
# (NS3_WORK defaults to perf/ns3/work): flows/ (the flow set), ns3-rK/ (run K of ns-3: per scheme
# .fct .pfc .tor .out .cmd .usage), sim-VARIANT-sK.json, sim-VARIANT-sK/ and .usage (run K of sim),
# and per variant table-VARIANT.md and runs-VARIANT.tsv (every run's value). A rerun starts afresh.
# Exit codes: 0 done, 1 a simulator failed (its output is named), 2 bad arguments.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

need() { [[ $# -ge 2 && -n $2 ]] || ns3_die "$1 needs a value (see --help)"; }
FLOWS="" RUNS=3 SCHEMES=sonic,reverie VARIANTS=ns3-paths END="" NAME=""
while [[ $# -gt 0 ]]; do
  case $1 in
    -h|--help) ns3_help; exit 0 ;;
    --flows) need "$@"; FLOWS=$2; shift 2 ;;
    --runs) need "$@"; RUNS=$2; shift 2 ;;
    --schemes) need "$@"; SCHEMES=$2; shift 2 ;;
    --variants) need "$@"; VARIANTS=$2; shift 2 ;;
    --end) need "$@"; END=$2; shift 2 ;;
    --name) need "$@"; NAME=$2; shift 2 ;;
    *) ns3_die "unknown argument '$1' (allowed: --flows, --runs, --schemes, --variants, --end, --name, --help)" ;;
  esac
done
[[ -n $FLOWS ]] || ns3_die "--flows FLOWS is required (a scenario name, a scenario .conf or a flow list; see --help)"
[[ $RUNS =~ ^[1-9][0-9]?$ ]] || ns3_die "--runs '$RUNS' must be a whole number from 1 to 99"
IFS=, read -r -a SCHEME_LIST <<<"$SCHEMES"
for s in "${SCHEME_LIST[@]}"; do
  [[ $s == sonic || $s == reverie ]] || ns3_die "--schemes: '$s' is not a buffer model ns-3 has (allowed: sonic, reverie)"
done
IFS=, read -r -a VARIANT_LIST <<<"$VARIANTS"
for v in "${VARIANT_LIST[@]}"; do
  [[ " $NS3_VARIANTS " == *" $v "* ]] || ns3_die "--variants: unknown variant '$v' (allowed: ${NS3_VARIANTS// /, })"
done
[[ -z $END || $END =~ ^[0-9]*\.?[0-9]+$ ]] || ns3_die "--end '$END' must be a number of seconds, e.g. 0.201"
[[ -z $NAME || $NAME =~ ^[A-Za-z0-9._-]+$ ]] || ns3_die "--name '$NAME' may hold only letters, digits, '.', '_' and '-'"
SOURCE=$(ns3_flow_source "$FLOWS")
if [[ -z $NAME ]]; then NAME=$(basename "$SOURCE"); NAME=${NAME%.conf}; NAME=${NAME%.txt}; fi

OUT=$NS3_WORK/compare/$NAME
rm -rf "$OUT"; mkdir -p "$OUT"
ns3_prepare "$SOURCE" "$OUT/flows" "$END"
ns3_log "flow set $SOURCE -> $OUT/flows (until ${END_TIME}s); $(ns3_machine)"
BIN=$(ns3_binary)

ns3_dirs=()
for ((k = 1; k <= RUNS; k++)); do
  for s in "${SCHEME_LIST[@]}"; do ns3_run "$BIN" "$OUT/flows" "$OUT/ns3-r$k" "$s" "$k"; done
  ns3_dirs+=("$OUT/ns3-r$k")
done

(cd "$NS3_ROOT" && ./pfcswitch --version >/dev/null)   # build once, before the first timed run
for v in "${VARIANT_LIST[@]}"; do
  ns3_variant "$v" "$OUT/flows" "$OUT/ns3-r1/${SCHEME_LIST[0]}.fct"
  sims=()
  for ((k = 1; k <= RUNS; k++)); do
    run=$OUT/sim-$v-s$k
    printf '%q ' ./pfcswitch sim -c "$OUT/flows/sim.yaml" --scheme "$SCHEMES" --jobs 1 --json --out "$run" \
      --set seed=$k "${NS3_SETS[@]}" >"$run.cmd"
    ns3_log "sim $v seed $k -> $run.*"
    (cd "$NS3_ROOT" && nice -n "$NS3_NICE" python3 "$NS3_HERE/measure.py" "$run.usage" ./pfcswitch sim -c "$OUT/flows/sim.yaml" \
        --scheme "$SCHEMES" --jobs 1 --json --out "$run" --set seed=$k "${NS3_SETS[@]}") >"$run.json" 2>"$run.err" \
      || { tail "$run.err" >&2; ns3_log "sim failed: $run.err"; exit 1; }
    ns3_log "sim $v seed $k done: $(ns3_usage "$run.usage")"
    sims+=("$run")
  done
  {
    echo "## $NAME: ns-3 beside sim ($v), $RUNS runs a side"
    echo
    echo "perf/ns3/compare.sh --flows $FLOWS --runs $RUNS --schemes $SCHEMES --variants $v; finished $(ns3_machine)"
    echo
    python3 "$NS3_HERE/compare_sim.py" "$OUT/flows" --ns3 "${ns3_dirs[@]}" --sim "${sims[@]}" \
      --models "$SCHEMES" --end "$END_TIME" --tsv "$OUT/runs-$v.tsv"
  } >"$OUT/table-$v.md"
  cat "$OUT/table-$v.md"
  echo
done
ns3_log "outputs in $OUT"
