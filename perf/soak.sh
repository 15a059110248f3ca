#!/usr/bin/env bash
# The live switch for MINUTES (default 30) under lossless load on a netns testbed of three emulated
# RoCE hosts, with what an operator runs beside it: a real Prometheus scraping /metrics every 5 s,
# 'show ports --watch' every 2 s, a 'set' every minute (scheme dt <-> spfc, dt.alpha 1/8 <-> 1/4) and a
# PFC storm from h1 for 20 s every 10 minutes (the PFC watchdog drops what waits for h1 meanwhile).
# Every 10 s it samples the switch: RSS, GC (jstat), mbufs in use, lossless drops, rx ring drops,
# worker stalls, and the API's latency (/metrics and /api/v1/show/ports, timed by curl), into
# OUT/soak.csv; at the end OUT/summary.txt. Not in CI: it needs root, Prometheus and the time.
#
#   sudo perf/soak.sh [MINUTES] [OUT]          # OUT default: /tmp/pfcswitch-soak-DATE
#   SOAK_FIRST_STORM_MIN=1 perf/soak.sh 2       # a short trial with a storm in it
#
# SOAK_PIN_CPU=N pins the worker to CPU N (workers: [{cpu: N}]): the switch keeps its other threads
# off that CPU, and so does the 'hosts' process (it reads the same file). Do that on a CPU kept for the
# worker (isolcpus); on a shared machine leave it unpinned (docs/performance.md). Everything it starts
# it stops.
set -uo pipefail

MINUTES=${1:-30}
OUT=${2:-/tmp/pfcswitch-soak-$(date -u +%Y%m%dT%H%M%SZ)}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PF="$ROOT/pfcswitch"
export JAVA_HOME=${JAVA_HOME:-$("$ROOT/scripts/find-jdk.sh")}
JSTAT="$JAVA_HOME/bin/jstat"
[ "$(id -u)" = 0 ] || { echo "soak: needs root (network namespaces)" >&2; exit 1; }
command -v prometheus >/dev/null || { echo "soak: no prometheus (scripts/ensure-deps.sh installs it)" >&2; exit 1; }
[[ "$MINUTES" =~ ^[0-9]+$ ]] && [ "$MINUTES" -ge 1 ] || { echo "soak: MINUTES must be a whole number >= 1, got '$MINUTES'" >&2; exit 1; }
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
TAG="sk$$"
CTL=$(free_port)
PROM=$(free_port)
if [ -n "${SOAK_PIN_CPU:-}" ]; then
  WORKERS="[{cpu: $SOAK_PIN_CPU, ports: [h0, h1, h2]}]"
else
  WORKERS=1
fi
API="http://127.0.0.1:$CTL"
TOKEN="$OUT/control.token"
SECONDS_TOTAL=$(( MINUTES * 60 ))

cat > "$OUT/soak.yaml" <<EOF
eal: {memoryMb: 256, hugepages: off}
workers: $WORKERS
ports:
  - {name: h0, device: "net_af_packet0,iface=$TAG-h0,qdisc_bypass=1", speed: 200M, cableDelay: 20us}
  - {name: h1, device: "net_af_packet1,iface=$TAG-h1,qdisc_bypass=1", speed: 200M, cableDelay: 20us}
  - {name: h2, device: "net_af_packet2,iface=$TAG-h2,qdisc_bypass=1", speed: 200M, cableDelay: 20us}
mmu: {totalBytes: 2MiB, losslessPriorities: [3], headroomFormula: fixed, headroomBytes: 512KiB, scheme: dt,
      schemes: {dt: {alpha: 1/8}}}
forwarding: {learning: true, staticMacs: [{mac: "02:00:00:00:00:01", port: h0}, {mac: "02:00:00:00:00:02", port: h1},
  {mac: "02:00:00:00:00:03", port: h2}]}
classification: {trust: dscp, dscpMap: "26:3"}
pfcwd: {detection: 200ms, restoration: 400ms, action: drop}
poll: {idleSleep: 50us}
testbed:
  namespacePrefix: $TAG-
  hosts:
    - {name: h0, ip: 10.98.0.1/24, mac: "02:00:00:00:00:01", switchPort: h0}
    - {name: h1, ip: 10.98.0.2/24, mac: "02:00:00:00:00:02", switchPort: h1}
    - {name: h2, ip: 10.98.0.3/24, mac: "02:00:00:00:00:03", switchPort: h2}
EOF

{
  cat <<EOF
name: soak
duration: ${SECONDS_TOTAL}s
seed: 1
payloadMtu: 1024
cc: {mode: none}
hosts:
  - {name: h0, speed: 200M, delay: 1us}
  - {name: h1, speed: 200M, delay: 1us}
  - {name: h2, speed: 200M, delay: 1us}
mmu: {totalBytes: 2MiB}
traffic:
  incast: {kind: incast, from: [h0, h1], to: h2, bytes: 512KiB, start: 0us, repeatUntil: ${SECONDS_TOTAL}s}
  web: {kind: poisson, from: all, to: all, cdf: $ROOT/testbed-configs/workloads/websearch.cdf, load: 0.3, start: 0us}
EOF
  for ((m = ${SOAK_FIRST_STORM_MIN:-5}; m < MINUTES; m += 10)); do
    echo "  storm$m: {kind: pfcStorm, from: h1, priority: 3, quanta: 65535, every: 100us, start: $((m * 60))s, stop: $((m * 60 + 20))s}"
  done
} > "$OUT/scenario.yaml"

cat > "$OUT/prometheus.yml" <<EOF
global: {scrape_interval: 5s}
scrape_configs:
  - job_name: pfcswitch
    static_configs: [{targets: ["127.0.0.1:$CTL"]}]
EOF

PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
  [ -n "${SWITCH:-}" ] && kill -TERM "$SWITCH" 2>/dev/null && wait "$SWITCH" 2>/dev/null
  "$PF" testbed down -c "$OUT/soak.yaml" >/dev/null 2>&1
}
trap cleanup EXIT
trap 'exit 130' INT TERM

"$PF" testbed up -c "$OUT/soak.yaml" > "$OUT/testbed.log" 2>&1 || { cat "$OUT/testbed.log" >&2; exit 1; }
"$PF" run -c "$OUT/soak.yaml" --control-port "$CTL" --token-file "$TOKEN" --stats-every 10 > "$OUT/run.log" 2>&1 &
SWITCH=$!
for _ in $(seq 120); do grep -q "forwarding; stop with" "$OUT/run.log" && break; sleep 0.5; done
grep -q "forwarding; stop with" "$OUT/run.log" || { echo "soak: the switch did not start:" >&2; cat "$OUT/run.log" >&2; exit 1; }

prometheus --config.file="$OUT/prometheus.yml" --storage.tsdb.path="$OUT/prometheus-data" \
  --web.listen-address="127.0.0.1:$PROM" > "$OUT/prometheus.log" 2>&1 &
PIDS+=($!)
"$PF" show ports --watch 2 --api "$API" > "$OUT/show-watch.log" 2>&1 &
PIDS+=($!)
"$PF" hosts -c "$OUT/soak.yaml" --scenario "$OUT/scenario.yaml" > "$OUT/hosts.log" 2> "$OUT/hosts.err" &
HOSTS=$!
PIDS+=($HOSTS)

# one 'set' a minute, alternating what it changes
(
  i=0
  while sleep 60; do
    case $((i % 4)) in
      0) args=(scheme spfc) ;;
      1) args=(scheme dt) ;;
      2) args=(param dt.alpha=1/4) ;;
      3) args=(param dt.alpha=1/8) ;;
    esac
    start=$(date +%s.%N)
    "$PF" set "${args[@]}" --api "$API" --token-file "$TOKEN" > /dev/null 2>> "$OUT/set.err"
    rc=$?
    echo "$(date -u +%FT%TZ),${args[*]},$rc,$(echo "$(date +%s.%N) - $start" | bc)" >> "$OUT/set.csv"
    i=$((i + 1))
  done
) &
PIDS+=($!)

# the samples: one row every 10 s
echo "elapsed_s,rss_mib,gc_count,gc_s,mbufs_in_use,lossless_drops_obeying,rx_missed,stalls_ge_10ms,longest_stall_ms,metrics_ms,show_ms" > "$OUT/soak.csv"
t0=$(date +%s)
metric() { awk -v m="$1" 'index($1, m) == 1 {s += $NF} END {printf "%.0f", s}' "$OUT/last-metrics.txt"; }
while kill -0 "$HOSTS" 2>/dev/null && kill -0 "$SWITCH" 2>/dev/null; do
  sleep 10
  now=$(( $(date +%s) - t0 ))
  rss=$(awk '/^VmRSS:/ {printf "%.1f", $2 / 1024}' "/proc/$SWITCH/status" 2>/dev/null)
  gc=$("$JSTAT" -gc "$SWITCH" 2>/dev/null | awk 'NR == 1 {for (i = 1; i <= NF; i++) c[$i] = i} NR == 2 {print $c["YGC"] + $c["FGC"] "," $c["GCT"]}')
  metrics_ms=$(curl -s -o "$OUT/last-metrics.txt" -w '%{time_total}' "$API/metrics" | awk '{printf "%.1f", $1 * 1000}')
  show_ms=$(curl -s -o /dev/null -w '%{time_total}' "$API/api/v1/show/ports" | awk '{printf "%.1f", $1 * 1000}')
  status=$(grep "status buffer" "$OUT/run.log" | tail -1)
  mbufs=$(sed -n 's/.*mbufs in use \([0-9]*\) of.*/\1/p' <<< "$status")
  stalls=$(metric 'pfcswitch_worker_stalls_total{over="10ms"')
  longest=$(sed -n 's/.*longest \([0-9]*\) us.*/\1/p' <<< "$status")
  echo "$now,$rss,${gc:-,},$mbufs,$(metric 'pfcswitch_lossless_violations_by_sender_total{sender="obeys_pfc"'),$(metric pfcswitch_rx_missed_frames_total),$stalls,$(awk -v u="${longest:-0}" 'BEGIN {printf "%.1f", u / 1000}'),$metrics_ms,$show_ms" >> "$OUT/soak.csv"
  # the hosts' clock slips when the machine is busy: the soak is MINUTES of wall time, and a minute more for them
  [ "$now" -ge $((SECONDS_TOTAL + 60)) ] && break
done
hosts_note=""
if kill -0 "$HOSTS" 2>/dev/null; then
  hosts_note=" (stopped at the end of the wall time: $(grep -o '[0-9.]*/[0-9.]* s on the hosts. clock' "$OUT/hosts.err" | tail -1))"
  kill -TERM "$HOSTS"
fi
wait "$HOSTS" 2>/dev/null
hosts_rc=$?
prom_samples=$(curl -s "http://127.0.0.1:$PROM/api/v1/query" --data-urlencode \
  "query=count_over_time(pfcswitch_lossless_violations_total[$((MINUTES + 5))m])" | python3 -c 'import json,sys; r = json.load(sys.stdin)["data"]["result"]; print(r[0]["value"][1] if r else 0)' 2>/dev/null)
kill -TERM "$SWITCH"; wait "$SWITCH"; switch_rc=$?; SWITCH=
python3 - "$OUT" "$MINUTES" "$hosts_rc$hosts_note" "$switch_rc" "${prom_samples:-0}" <<'EOF' | tee "$OUT/summary.txt"
import csv, statistics, sys
out, minutes, hosts_rc, switch_rc, prom = sys.argv[1:]
rows = [r for r in csv.DictReader(open(out + "/soak.csv")) if r["rss_mib"]]
def col(k): return [float(r[k]) for r in rows if r[k] not in ("", None)]
def pct(v, p): v = sorted(v); return v[min(len(v) - 1, int(p * len(v)))] if v else float("nan")
rss, m, s = col("rss_mib"), col("metrics_ms"), col("show_ms")
sets = [l.strip().split(",") for l in open(out + "/set.csv")] if __import__("os").path.exists(out + "/set.csv") else []
print(f"soak: {minutes} min planned, {len(rows)} samples over {rows[-1]['elapsed_s'] if rows else 0} s; hosts exit {hosts_rc}, switch exit {switch_rc}")
print(f"RSS MiB: first {rss[0]:.1f}, min {min(rss):.1f}, max {max(rss):.1f}, last {rss[-1]:.1f}; "
      f"last 10 min grew {rss[-1] - rss[max(0, len(rss) - 60)]:+.1f}" if rss else "RSS: no samples")
print(f"GC: {rows[-1]['gc_count']} collections, {float(rows[-1]['gc_s']):.3f} s in all" if rows and rows[-1]['gc_s'] else "GC: no samples")
mb = col("mbufs_in_use")
print(f"mbufs in use: min {min(mb):.0f}, max {max(mb):.0f}, last {mb[-1]:.0f}" if mb else "mbufs in use: no samples")
print(f"lossless drops of senders that obey PFC (MMU, since start): {rows[-1]['lossless_drops_obeying']}; rx ring drops: {rows[-1]['rx_missed']}; "
      f"worker stalls >= 10 ms: {rows[-1]['stalls_ge_10ms']}, longest {max(col('longest_stall_ms') or [0]):.1f} ms" if rows else "")
print(f"API /metrics ms: p50 {pct(m, .5):.1f}, p99 {pct(m, .99):.1f}, max {max(m or [0]):.1f}; "
      f"/api/v1/show/ports ms: p50 {pct(s, .5):.1f}, p99 {pct(s, .99):.1f}, max {max(s or [0]):.1f}")
ok = [x for x in sets if len(x) == 4 and x[2] == "0"]
print(f"set: {len(ok)} of {len(sets)} succeeded; CLI wall time (JVM start included) max "
      f"{max([float(x[3]) for x in ok] or [0]):.2f} s")
print(f"Prometheus: {prom} samples of pfcswitch_lossless_violations_total stored")
EOF
grep -E "after shutdown|[0-9] buffer: most|storm|restored|counters h1:" "$OUT/run.log" | cut -c1-400 | tee -a "$OUT/summary.txt"
grep -E "packets lost between the hosts" "$OUT/hosts.log" | tee -a "$OUT/summary.txt"
echo "soak: files in $OUT"
