#!/usr/bin/env bash
# Run one scenario through the Reverie artifact's ns-3 under its buffer models and print our table.
#
#   perf/ns3/run.sh SCENARIO [MODELS]        e.g. perf/ns3/run.sh leafspine-ws-incast sonic,reverie
#
# SCENARIO names perf/ns3/scenarios/SCENARIO.conf (the flows' generator arguments, buffer size,
# times). The script builds ns-3 if needed (build.sh), writes the topology and the flows
# (gen_leafspine.py: the ns-3 flow file and the same flows as a pfcswitch `kind: flows` file), an
# ns-3 config, runs the Reverie example once per model under nice and converts the .fct/.pfc/.tor
# outputs (ns3_table.py). Outputs go to NS3_OUT (default perf/ns3/work/runs/SCENARIO):
#   MODEL.fct  one line per completed flow: time_s size fct_ns base_fct_ns slowdown base_rtt_ns pg
#              incast_flag, then (our patch) src dst sport start_ns
#   MODEL.pfc  one line per PFC event: time_s node node_type(0 host, 1 switch) ifindex type, type 0/1 =
#              RESUME/PAUSE received by that device, 2/3 = PAUSE/RESUME sent by it
#   MODEL.tor  the leaves' buffer occupancy every 1.5 x max RTT (total used is column 2)
#   MODEL.out  the example's stdout and stderr; MODEL.wall its wall time in seconds; MODEL.cmd the
#              exact command line
# The models run one after the other (never in parallel: the machine is shared), in the order given.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
SCENARIO=${1:?usage: run.sh SCENARIO [MODELS] (scenarios: $(ls "$HERE/scenarios" | sed 's/\.conf$//' | tr '\n' ' '))}
MODELS=${2:-sonic,reverie}
CONF=$HERE/scenarios/$SCENARIO.conf
[[ -f "$CONF" ]] || { echo "no scenario $CONF" >&2; exit 2; }
# shellcheck source=scenarios/leafspine-ws-incast.conf
source "$CONF"
OUT=${NS3_OUT:-$HERE/work/runs/$SCENARIO}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

log() { printf '[ns3-run %s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }

BIN=$("$HERE/build.sh" | tail -1)
EXAMPLE_DIR=$(cd "$(dirname "$BIN")/../../../examples/Reverie" 2>/dev/null && pwd || true)
[[ -f "$EXAMPLE_DIR/alphas" ]] || EXAMPLE_DIR=${NS3_WORK:-$HERE/work}/ns-3.39/examples/Reverie

(cd "$ROOT" && python3 "$HERE/gen_leafspine.py" --out "$OUT" "${GEN_ARGS[@]}") >&2

# The ns-3 config. Every value below except the file names is the artifact's published setting
# (examples/Reverie/config-workload.txt): DCQCN timers and gains, one ACK per data packet
# (L2_ACK_INTERVAL 1), 1000-byte payloads, RED/ECN at 25G from 100 KB to 400 KB with pmax 0.2.
# The example reads one "KEY value" pair at a time and ignores keys it does not know.
cat >"$OUT/ns3.conf" <<EOF
TOPOLOGY_FILE $OUT/topology.txt
FLOW_FILE $OUT/flow-ns3.txt
PACKET_PAYLOAD_SIZE 1000
ALPHA_RESUME_INTERVAL 1
RATE_DECREASE_INTERVAL 4
CLAMP_TARGET_RATE 0
RP_TIMER 900
EWMA_GAIN 0.00390625
FAST_RECOVERY_TIMES 1
RATE_AI 50Mb/s
RATE_HAI 100Mb/s
MIN_RATE 100Mb/s
DCTCP_RATE_AI 1000Mb/s
ERROR_RATE_PER_LINK 0.0000
L2_CHUNK_SIZE 4000
L2_ACK_INTERVAL 1
L2_BACK_TO_ZERO 0
GLOBAL_T 1
FAST_REACT 1
U_TARGET 0.95
MI_THRESH 5
INT_MULTI 1
MULTI_RATE 0
SAMPLE_FEEDBACK 0
RATE_BOUND 1
ACK_HIGH_PRIO 0
KMAX_MAP 3 25000000000 400 40000000000 640 100000000000 1600
KMIN_MAP 3 25000000000 100 40000000000 160 100000000000 400
PMAX_MAP 3 25000000000 0.2 40000000000 0.2 100000000000 0.2
EOF

IFS=, read -r -a MODEL_LIST <<<"$MODELS"
for model in "${MODEL_LIST[@]}"; do
  # The example's buffer algorithm codes: 101 is DT (SONiC's), 111 is Reverie. The buffer model
  # ("sonic" or "reverie") picks the ledger; the algorithm the threshold. Alphas (1 for every
  # queue), gamma 0.999 and the 0.8 lossy egress share are the artifact's published values.
  case $model in
    sonic) alg=101 ;;
    reverie) alg=111 ;;
    *) echo "unknown model $model (sonic, reverie)" >&2; exit 2 ;;
  esac
  args=(
    --conf="$OUT/ns3.conf" --flowsFromFile=true
    --bufferModel="$model" --bufferalgIngress=$alg --bufferalgEgress=$alg
    --buffersize="$BUFFER_BYTES" --alphasFile="$EXAMPLE_DIR/alphas" --gamma=0.999 --egressLossyShare=0.8
    --rdmacc=1 --enableEcn=true
    # The example's own generators stay silent: no load, no query traffic (they add no flow then).
    --rdmaload=0 --rdmaqueryRequestRate=0 --tcpload=0 --tcpqueryRequestRate=0
    --cdfFileName="$EXAMPLE_DIR/websearch.txt"
    # FLOW_LAUNCH_END_TIME only bounds the buffer sampling (.tor), as a whole number of seconds.
    --START_TIME="$START_TIME" --END_TIME="$END_TIME" --FLOW_LAUNCH_END_TIME=1
    --fctOutFile="$OUT/$model.fct" --pfcOutFile="$OUT/$model.pfc" --torOutFile="$OUT/$model.tor"
  )
  # The exact command, so one run can be repeated by hand.
  printf '%q ' "$BIN" "${args[@]}" >"$OUT/$model.cmd"; echo >>"$OUT/$model.cmd"
  log "running $model (simulated until ${END_TIME}s) -> $OUT/$model.*"
  t0=$(date +%s.%N)
  if ! nice -n 19 "$BIN" "${args[@]}" >"$OUT/$model.out" 2>&1; then
    tail -20 "$OUT/$model.out" >&2
    log "$model failed: $OUT/$model.out"; exit 1
  fi
  t1=$(date +%s.%N)
  python3 -c "print(f'{$t1 - $t0:.2f}')" >"$OUT/$model.wall"
  log "$model done in $(cat "$OUT/$model.wall") s wall"
done

python3 "$HERE/ns3_table.py" "$OUT" --models "$MODELS" --end "$END_TIME" --tsv "$OUT/table.tsv"
