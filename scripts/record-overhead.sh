#!/usr/bin/env bash
# The cost of 'run --record' on the live worker: the same net_null flood (the worker is the
# bottleneck: net_null hands it a full burst on every poll) run for SECONDS with and without
# recording, alternately, ROUNDS times each. Recording goes to /dev/null with no --record-max bound,
# so the worker pays the copy into the ring for every arrival the whole time (a real file adds the
# writer thread's disk writes, on another core). Prints each run's rate (frames the switch core
# received per second) and the median overhead.
#   scripts/record-overhead.sh [SECONDS=5] [ROUNDS=3]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
secs=${1:-5}
rounds=${2:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/flood.yaml" <<'YAML'
eal: {memoryMb: 256, hugepages: off}
ports:
  - {name: loop, device: net_ring0, speed: 1G}
  - {name: sink, device: "net_null0,copy=1", speed: 1G}
classification: {trust: pcp, defaultPriority: 3}
forwarding: {learning: false, staticMacs: [{mac: "00:00:00:00:00:00", port: loop}]}
mmu: {totalBytes: 1MiB, scheme: dt}
YAML

one() {   # one run; prints frames per second received by the core
  local log="$tmp/run.log"
  "$root/pfcswitch" run -c "$tmp/flood.yaml" --no-control "$@" > "$log" 2>&1 &
  local pid=$!
  until grep -q "forwarding; stop with" "$log"; do sleep 0.1; kill -0 $pid 2>/dev/null || { cat "$log" >&2; exit 1; }; done
  sleep "$secs"
  kill -TERM $pid
  wait $pid
  local rx
  rx=$(sed -n 's/.*counters sink: rx \([0-9]*\).*/\1/p' "$log" | tail -1)
  grep -h "recorded " "$log" >&2 || true
  echo $(( rx / secs ))
}

base=(); rec=()
for r in $(seq "$rounds"); do
  b=$(one); base+=("$b"); echo "round $r without --record: $b frames/s"
  c=$(one --record /dev/null --record-max 1000000000000); rec+=("$c"); echo "round $r with    --record: $c frames/s"
done
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
mb=$(median "${base[@]}"); mr=$(median "${rec[@]}")
awk -v b="$mb" -v r="$mr" 'BEGIN { printf "median: %d frames/s without, %d with --record: %.1f %% fewer frames/s, %.1f ns more per frame\n", b, r, 100 * (b - r) / b, 1e9 / r - 1e9 / b }'
