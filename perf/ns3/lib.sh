# Shared by run.sh, compare.sh and speed.sh (sourced, not run): where outputs go, how a flow set is
# written for both simulators, how ns-3 is run once, and the `sim` variants that model ns-3.
#
# NS3_WORK holds everything these scripts write (sources, build, runs, comparisons); default
# perf/ns3/work (git-ignored). Nothing is written anywhere else.

NS3_HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
NS3_ROOT=$(cd "$NS3_HERE/../.." && pwd)
NS3_WORK=${NS3_WORK:-$NS3_HERE/work}
export NS3_WORK
# How much nicer than the caller the build and the comparison's simulator runs are (the machine is
# usually shared; speed.sh instead runs both sides at its own niceness).
NS3_NICE=${NS3_NICE:-10}

# The calling script's header comment, as its --help.
ns3_help() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; }
ns3_log() { printf '[ns3 %s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }
# A usage or input error: one line naming what was wrong and what is allowed, exit code 2.
ns3_die() { printf '%s: %s\n' "$(basename "$0")" "$*" >&2; exit 2; }

# ns3_flow_source NAME_OR_FILE: the path of a flow set. A name is perf/ns3/scenarios/NAME.conf.
ns3_flow_source() {
  local src=$1
  if [[ -f "$src" ]]; then
    (cd "$(dirname "$src")" && printf '%s/%s\n' "$(pwd)" "$(basename "$src")")
  elif [[ -f "$NS3_HERE/scenarios/$src.conf" ]]; then
    echo "$NS3_HERE/scenarios/$src.conf"
  else
    ns3_die "no flow set '$src': give a file (a scenario .conf or a flow list) or one of: $(cd "$NS3_HERE/scenarios" && ls -- *.conf | sed 's/\.conf$//' | tr '\n' ' ')"
  fi
}

# ns3_prepare SOURCE DIR [END_S]: write the flow set SOURCE for both simulators into DIR:
# topology.txt, flow-ns3.txt, flows.txt, flows.tsv, sim.yaml (same topology, buffer and end time as
# ns-3's run) and ns3.conf. SOURCE is a scenario .conf (GEN_ARGS, BUFFER_BYTES, START_TIME, END_TIME;
# see scenarios/leafspine-ws-incast.conf) or a pfcswitch flow list ("src dst bytes start_s" per line)
# on gen_leafspine.py's default leaf-spine (2 leaves x 16 hosts, 4 spines, 25G, 2 us, 2.56 MB); a
# flow list's run ends END_S (default: 0.1 s after its last start). Sets START_TIME, END_TIME and
# BUFFER_BYTES for the caller.
ns3_prepare() {
  local source=$1 dir=$2 end=${3:-}
  local -a gen
  mkdir -p "$dir"
  BUFFER_BYTES=2560000
  if [[ $source == *.conf ]]; then
    local GEN_ARGS=()
    # shellcheck source=scenarios/leafspine-ws-incast.conf
    source "$source"
    [[ ${#GEN_ARGS[@]} -gt 0 && -n "${END_TIME:-}" && -n "${START_TIME:-}" ]] \
      || ns3_die "$source: a scenario .conf sets GEN_ARGS, BUFFER_BYTES, START_TIME and END_TIME"
    [[ -z "$end" ]] || END_TIME=$end
    gen=("${GEN_ARGS[@]}")
  else
    gen=(--flows-file "$source")
    START_TIME=$(python3 "$NS3_HERE/gen_leafspine.py" --flows-file "$source" --print-span | cut -d' ' -f1) || exit 2
    if [[ -z "$end" ]]; then
      END_TIME=$(python3 "$NS3_HERE/gen_leafspine.py" --flows-file "$source" --print-span \
                 | awk '{ printf "%.6f\n", $2 + 0.1 }') || exit 2
    else
      END_TIME=$end
    fi
  fi
  (cd "$NS3_ROOT" && python3 "$NS3_HERE/gen_leafspine.py" --out "$dir" "${gen[@]}" \
      --sim-yaml --end "$END_TIME" --buffer-bytes "$BUFFER_BYTES") >&2 || exit 2
  ns3_write_conf "$dir"
}

# The ns-3 config. Every value below except the file names is the artifact's published setting
# (examples/Reverie/config-workload.txt): DCQCN timers and gains, one ACK per data packet
# (L2_ACK_INTERVAL 1), 1000-byte payloads, RED/ECN at 25G from 100 KB to 400 KB with pmax 0.2.
# The example reads one "KEY value" pair at a time and ignores keys it does not know.
ns3_write_conf() {
  local dir=$1
  cat >"$dir/ns3.conf" <<EOF
TOPOLOGY_FILE $dir/topology.txt
FLOW_FILE $dir/flow-ns3.txt
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
}

# ns3_binary: build ns-3 if needed (build.sh) and print the example's path.
ns3_binary() {
  local bin
  bin=$("$NS3_HERE/build.sh" | tail -1) || { ns3_log "ns-3 build failed (see $NS3_WORK/build.log)"; exit 1; }
  echo "$bin"
}

# ns3_run BIN FLOWS_DIR OUT_DIR MODEL RNG_RUN [NICE, default NS3_NICE]: run the Reverie example once on the flow set in
# FLOWS_DIR under buffer model MODEL (sonic or reverie) with ns-3's --RngRun=RNG_RUN (RED's marks
# are random; runs differ only in it). Writes into OUT_DIR:
#   MODEL.fct  one line per completed flow: time_s size fct_ns base_fct_ns slowdown base_rtt_ns pg
#              incast_flag, then (our patch) src dst sport start_ns
#   MODEL.pfc  one line per PFC event: time_s node node_type(0 host, 1 switch) ifindex type, type 0/1 =
#              RESUME/PAUSE received by that device, 2/3 = PAUSE/RESUME sent by it
#   MODEL.tor  the leaves' buffer occupancy every 1.5 x max RTT (total used is column 2)
#   MODEL.out  the example's stdout and stderr; MODEL.cmd the exact command line;
#   MODEL.usage  "wall_s peak_rss_kb" (measure.py)
ns3_run() {
  local bin=$1 flows=$2 out=$3 model=$4 rng=$5 niceness=${6:-$NS3_NICE} alg example_dir
  case $model in
    # The example's buffer algorithm codes: 101 is DT (SONiC's), 111 is Reverie. The buffer model
    # picks the ledger; the algorithm the threshold.
    sonic) alg=101 ;;
    reverie) alg=111 ;;
    *) ns3_die "unknown buffer model '$model' (allowed: sonic, reverie)" ;;
  esac
  example_dir=$(cd "$(dirname "$bin")/../../../examples/Reverie" 2>/dev/null && pwd || true)
  [[ -f "$example_dir/alphas" ]] || example_dir=$NS3_WORK/ns-3.39/examples/Reverie
  mkdir -p "$out"
  # Alphas (1 for every queue), gamma 0.999 and the 0.8 lossy egress share are the artifact's
  # published values.
  local -a args=(
    --conf="$flows/ns3.conf" --flowsFromFile=true --RngRun="$rng"
    --bufferModel="$model" --bufferalgIngress=$alg --bufferalgEgress=$alg
    --buffersize="$BUFFER_BYTES" --alphasFile="$example_dir/alphas" --gamma=0.999 --egressLossyShare=0.8
    --rdmacc=1 --enableEcn=true
    # The example's own generators stay silent: no load, no query traffic (they add no flow then).
    --rdmaload=0 --rdmaqueryRequestRate=0 --tcpload=0 --tcpqueryRequestRate=0
    --cdfFileName="$example_dir/websearch.txt"
    # FLOW_LAUNCH_END_TIME only bounds the buffer sampling (.tor), as a whole number of seconds.
    --START_TIME="$START_TIME" --END_TIME="$END_TIME" --FLOW_LAUNCH_END_TIME=1
    --fctOutFile="$out/$model.fct" --pfcOutFile="$out/$model.pfc" --torOutFile="$out/$model.tor"
  )
  printf '%q ' "$bin" "${args[@]}" >"$out/$model.cmd"; echo >>"$out/$model.cmd"
  ns3_log "ns-3 $model --RngRun=$rng (until ${END_TIME}s) -> $out/$model.*"
  if ! nice -n "$niceness" python3 "$NS3_HERE/measure.py" "$out/$model.usage" "$bin" "${args[@]}" \
      >"$out/$model.out" 2>&1; then
    tail -20 "$out/$model.out" >&2
    ns3_log "ns-3 $model failed: $out/$model.out"; exit 1
  fi
  ns3_log "ns-3 $model done: $(ns3_usage "$out/$model.usage")"
}

# The date and the machine's load, for every table these scripts print.
ns3_machine() { echo "$(date -u '+%Y-%m-%d %H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs"; }

ns3_usage() { awk '{ printf "%.2f s wall, %.0f MB peak RSS\n", $1, $2 / 1024 }' "$1"; }

# The `sim` variants that model ns-3 (docs/ns3-model.md, "sim beside ns-3"), as --set lists in
# NS3_SETS. ns3_variant VARIANT FLOWS_DIR NS3_FCT: NS3_FCT is an ns-3 .fct of the same flows,
# needed by ns3-paths only.
#   today      our defaults
#   q0         + headroom reserved on priority 0 as well and the headroom formula's MTU at ns-3's 1048 B
#   q0-cc      + ns-3's DCQCN values with a CNP at most every 4 us (ns-3's decrease check)
#   ns3        model: ns3-datacenter (every ns-3 choice the profile names) + ns-3's DCQCN values + the
#              headroom MTU at ns-3's payload + 48 = 1048 B
#   ns3-paths  ns3 with every flow on ns-3's path: the UDP source ports ns-3 drew (ns3_ports.py; ns-3
#              draws them per host pair at flow setup, the same under either buffer model)
NS3_VARIANTS="today q0 q0-cc ns3 ns3-paths"
ns3_variant() {
  local variant=$1 flows=$2 fct=${3:-}
  local -a q0=(--set 'mmu.losslessPriorities=[0,3]' --set mmu.mtuBytes=1048)
  local -a cc=(--set cc.alphaInterval=1us --set cc.timer=900us --set cc.byteCounter=0 --set cc.fastRecovery=1
               --set cc.ai=50M --set cc.hai=100M --set cc.minRate=100M)
  local -a profile=(--set model=ns3-datacenter "${cc[@]}" --set mmu.mtuBytes=1048)
  case $variant in
    today) NS3_SETS=() ;;
    q0) NS3_SETS=("${q0[@]}") ;;
    q0-cc) NS3_SETS=("${q0[@]}" "${cc[@]}" --set cc.cnpInterval=4us) ;;
    ns3) NS3_SETS=("${profile[@]}") ;;
    ns3-paths)
      [[ -f "$fct" ]] || ns3_die "variant ns3-paths needs an ns-3 .fct of the same flows (none at '$fct')"
      python3 "$NS3_HERE/ns3_ports.py" "$flows/flows.txt" "$fct" >"$flows/flows-ns3-ports.txt" || exit 1
      NS3_SETS=("${profile[@]}" --set "traffic.flows.file=$flows/flows-ns3-ports.txt") ;;
    *) ns3_die "unknown variant '$variant' (allowed: ${NS3_VARIANTS// /, })" ;;
  esac
}
