#!/usr/bin/env bash
# Memory and wall time of one sim run on a large fabric: runs SCENARIO (default the 1,024-host
# 32 x 16 leaf-spine, testbed-configs/benchmarks/fabric-memory-1024.yaml) for DURATION of simulated
# time (default 1ms; web-search arrivals stop then too) as a one-run grid in a JVM of its own, with
# the launcher's default heap, and prints the peak RSS of the whole process, the wall time, the run's
# own memory columns (frames_mb: the frames held at once, outside the heap; heap_alloc_mb: the Java
# heap it allocated), events, the JVM's default max heap and the machine's load.
# Usage: perf/sim-memory.sh [SCENARIO] [DURATION]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
scenario=${1:-$root/testbed-configs/benchmarks/fabric-memory-1024.yaml}
duration=${2:-1ms}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$root/pfcswitch" --version > /dev/null 2>&1      # build first if stale, outside the timing
java_home=$("$root/scripts/find-jdk.sh")
max_heap=$("$java_home/bin/java" -XX:+UseParallelGC -XX:+PrintFlagsFinal -version 2>/dev/null \
    | awk '$2 == "MaxHeapSize" {printf "%.2f GiB", $4 / 2^30}')
echo "$(basename "$scenario") for $duration simulated; $(nproc) processors, $(free -g | awk '/^Mem:/ {print $2}') GiB RAM," \
     "default max heap $max_heap; load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
/usr/bin/time -f '%e %M' -o "$tmp/time" "$root/pfcswitch" sim -c "$scenario" --seed 1..1 \
    --set "duration=$duration" --set measure.from=0us --set "measure.to=$duration" --set "traffic.web.stop=$duration" \
    --table "$tmp/run.csv" > /dev/null 2> "$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
read -r wall rss_kb < "$tmp/time"
python3 - "$tmp/run.csv" "$wall" "$rss_kb" <<'PY'
import csv, sys
row = next(csv.DictReader(open(sys.argv[1])))
wall, rss_mb = float(sys.argv[2]), int(sys.argv[3]) / 1024
print(f"peak RSS {rss_mb:.0f} MB, wall {wall:.1f} s (the run alone: {float(row['wall_s']):.1f} s, "
      f"{int(row['events']) / float(row['wall_s']) / 1e6:.2f} M events/s, {int(row['events']):,} events); "
      f"frames_mb {row['frames_mb']}, heap_alloc_mb {row['heap_alloc_mb']}, "
      f"flows done {row['flows_done']}/{row['flows_started']}")
PY
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
