#!/usr/bin/env bash
# The live switch's forwarding rate while it is observed (Prometheus scraping /metrics every
# second and a 'pfcswitch show ports --watch 1') against the same switch unobserved, in one run:
# alternating windows, the same process, the same traffic. Also the worker's heap allocation over
# the whole run (the run's shutdown log line), which is the 60-second allocation benchmark.
#
# The worker is pinned to the last CPU and Prometheus and 'show' to the others, as a lab would run
# them; without pinning, on a 2-core machine, they take CPU time from the worker itself.
#
# Traffic: net_null0 hands the switch 64-byte frames as fast as it can poll; a static entry sends
# them to net_null1 (which frees them). Both ports are 100 Gb/s in the config, so the switch's
# pipeline, not its shaper, sets the rate. Needs root (DPDK) and Debian's prometheus.
#
# Usage: perf/control-overhead.sh [WINDOW_SECONDS=10] [ROUNDS=3]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
window=${1:-10}
rounds=${2:-3}
work=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
prom_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
api="http://127.0.0.1:$port"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# As in a lab: the worker has a core of its own (the last CPU), the observers run on the others.
last_cpu=$(( $(nproc) - 1 ))
others="0-$(( last_cpu > 0 ? last_cpu - 1 : 0 ))"
cat > "$work/switch.yaml" <<YAML
eal: {hugepages: off}
workers: [{cpu: $last_cpu}]
ports:
  - {name: in, device: "net_null0,copy=1", speed: 100G}
  - {name: out, device: net_null1, speed: 100G}
forwarding: {learning: false, staticMacs: [{mac: "00:00:00:00:00:00", port: out}]}
mmu: {totalBytes: 4MiB, scheme: dt}
YAML
sed "s/127.0.0.1:9464/127.0.0.1:$port/" "$root/testbed-configs/prometheus.yml" > "$work/prometheus.yml"

"$root/pfcswitch" run -c "$work/switch.yaml" --control-port "$port" --token-file "$work/token" > "$work/switch.log" 2>&1 &
switch_pid=$!
pids+=("$switch_pid")
for _ in $(seq 60); do grep -q "control API on" "$work/switch.log" && break; sleep 1; done
grep -q "control API on" "$work/switch.log" || { cat "$work/switch.log"; exit 1; }

tx() {   # frames the switch has sent on port 'out'
  curl -sf "$api/api/v1/show/ports" | python3 -c 'import json,sys; print(json.load(sys.stdin)["ports"][1]["tx_frames"])'
}
measure() {   # Mpps over one window
  local a b t0 t1
  a=$(tx); t0=$(date +%s.%N)
  sleep "$window"
  b=$(tx); t1=$(date +%s.%N)
  python3 -c "print(f'{($b-$a)/($t1-$t0)/1e6:.2f}')"
}

echo "warming up 10 s" >&2
sleep 10
quiet=(); observed=()
for r in $(seq "$rounds"); do
  q=$(measure); quiet+=("$q")
  taskset -c "$others" prometheus --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/tsdb" \
    --web.listen-address="127.0.0.1:$prom_port" --log.level=warn > "$work/prom.log" 2>&1 &
  prom=$!
  taskset -c "$others" "$root/pfcswitch" show ports --watch 1 --api "$api" > "$work/show.log" 2>&1 &
  show=$!
  sleep 3                                     # both running before the window opens
  o=$(measure); observed+=("$o")
  kill "$prom" "$show"; wait "$prom" "$show" 2>/dev/null || true
  echo "round $r/$rounds: unobserved $q Mpps, observed $o Mpps" >&2
done
scrapes=$(grep -c '^-- ' "$work/show.log" || true)
kill -TERM "$switch_pid"; wait "$switch_pid" || true
python3 - "${quiet[*]}" "${observed[*]}" <<'PY'
import json, statistics, sys
q = [float(x) for x in sys.argv[1].split()]
o = [float(x) for x in sys.argv[2].split()]
mq, mo = statistics.median(q), statistics.median(o)
print(json.dumps({"unobservedMpps": q, "observedMpps": o, "medianUnobserved": mq, "medianObserved": mo,
                  "differencePercent": round(100 * (mq - mo) / mq, 2)}))
PY
grep "worker heap allocation" "$work/switch.log" || true
