#!/usr/bin/env bash
# Wall time and peak memory of ns-3 and of `pfcswitch sim` on the same flows, interleaved in one run.
#
#   perf/ns3/speed.sh [--rounds N] [--flows FLOWS] [--schemes sonic,reverie]
#   perf/ns3/speed.sh N                  (the same as --rounds N)
#
#   --rounds   rounds (default 2)
#   --flows    the flow set, as compare.sh takes it (default leafspine-ws-incast, or $SCENARIO)
#   --schemes  buffer models (default sonic,reverie)
#
# Each round runs, per buffer model, one after the other: ns-3 (the Reverie example, --RngRun=1),
# then `sim` in a fresh JVM under our default model, then `sim` under the ns-3 profile: variant
# ns3-paths of compare.sh (model: ns3-datacenter, ns-3's DCQCN values, the headroom MTU at 1048 B
# and every flow on the path ns-3 gave it, from the ports of this round's ns-3 run; about twice the
# events of our default: an ACK per packet). Every run is wrapped in measure.py: wall time and peak
# RSS (for sim, the JVM's). ns-3 and sim run at the niceness this script was started with (start it
# under `nice -n 10` on a shared machine; both sides then compete alike). ns-3 is built first if
# needed (build.sh) and `pfcswitch` before the first timing.
#
# Output (stdout, also $NS3_WORK/speed/NAME/speed.txt): the command, date and load average, then per
# round and model one line: wall seconds and peak RSS of each, and ns-3's wall time / sim's. Per-run
# files: $NS3_WORK/speed/NAME/rK/ (ns-3's outputs and MODEL*.usage, "wall_s peak_rss_kb").
# Exit codes: 0 done, 1 a simulator failed, 2 bad arguments.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

need() { [[ $# -ge 2 && -n $2 ]] || ns3_die "$1 needs a value (see --help)"; }
ROUNDS=2 FLOWS=${SCENARIO:-leafspine-ws-incast} SCHEMES=sonic,reverie
ARGS="$*"
while [[ $# -gt 0 ]]; do
  case $1 in
    -h|--help) ns3_help; exit 0 ;;
    --rounds) need "$@"; ROUNDS=$2; shift 2 ;;
    --flows) need "$@"; FLOWS=$2; shift 2 ;;
    --schemes) need "$@"; SCHEMES=$2; shift 2 ;;
    [0-9]*) ROUNDS=$1; shift ;;
    *) ns3_die "unknown argument '$1' (allowed: --rounds N, --flows FLOWS, --schemes LIST, --help)" ;;
  esac
done
[[ $ROUNDS =~ ^[1-9][0-9]?$ ]] || ns3_die "rounds '$ROUNDS' must be a whole number from 1 to 99"
IFS=, read -r -a SCHEME_LIST <<<"$SCHEMES"
for s in "${SCHEME_LIST[@]}"; do
  [[ $s == sonic || $s == reverie ]] || ns3_die "--schemes: '$s' is not a buffer model ns-3 has (allowed: sonic, reverie)"
done
SOURCE=$(ns3_flow_source "$FLOWS")
NAME=$(basename "$SOURCE"); NAME=${NAME%.conf}; NAME=${NAME%.txt}
OUT=$NS3_WORK/speed/$NAME
rm -rf "$OUT"; mkdir -p "$OUT"
ns3_prepare "$SOURCE" "$OUT/flows"
BIN=$(ns3_binary)
(cd "$NS3_ROOT" && ./pfcswitch --version >/dev/null)          # build once, outside the timings

# sim_run USAGE_FILE [--set ...]: one `sim` run of one scheme in a fresh JVM, measured.
sim_run() {
  local usage=$1; shift
  (cd "$NS3_ROOT" && python3 "$NS3_HERE/measure.py" "$usage" ./pfcswitch sim -c "$OUT/flows/sim.yaml" \
      --scheme "$scheme" "$@") >/dev/null 2>"$usage.err" \
    || { tail "$usage.err" >&2; ns3_log "sim failed: $usage.err"; exit 1; }
}

{
  echo "perf/ns3/speed.sh $ARGS  (flows: $SOURCE, until ${END_TIME}s; started $(ns3_machine))"
  echo "round model    ns-3 s (MB)      sim s (MB) ns-3/sim   sim ns3-paths s (MB) ns-3/sim"
} | tee "$OUT/speed.txt"
for ((r = 1; r <= ROUNDS; r++)); do
  for scheme in "${SCHEME_LIST[@]}"; do
    dir=$OUT/r$r
    ns3_run "$BIN" "$OUT/flows" "$dir" "$scheme" 1 0
    sim_run "$dir/$scheme-sim.usage"
    ns3_variant ns3-paths "$OUT/flows" "$dir/$scheme.fct"
    sim_run "$dir/$scheme-sim-ns3-paths.usage" "${NS3_SETS[@]}"
    read -r n3 n3kb <"$dir/$scheme.usage"
    read -r s1 s1kb <"$dir/$scheme-sim.usage"
    read -r s2 s2kb <"$dir/$scheme-sim-ns3-paths.usage"
    python3 -c "print(f'{$r:5d} {\"$scheme\":8s} {$n3:7.2f} ({$n3kb / 1024:4.0f}) {$s1:7.2f} ({$s1kb / 1024:4.0f}) {$n3 / $s1:6.1f}x   {$s2:12.2f} ({$s2kb / 1024:4.0f}) {$n3 / $s2:6.1f}x')"
  done
done | tee -a "$OUT/speed.txt"
echo "finished $(ns3_machine)" | tee -a "$OUT/speed.txt"
