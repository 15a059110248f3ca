#!/usr/bin/env bash
# Speed-up of a sim grid on a pool of threads: the same 16-run grid (websearch-load, 4 loads x
# dt,spfc x 2 seeds, 12 ms simulated each) with --jobs 1 and --jobs 2, alternating, ROUNDS times
# (default 1), each in a JVM of its own. Prints per round the pool's wall time ("16 runs in X s",
# from the first run's start to the last one's end), the whole command's wall time, its CPU time
# (user + sys: about equal for both when the pool costs nothing; the wall speed-up needs the second
# core free, so the load average of other work is printed) and peak RSS, then the median speed-up; checks that both tables are the same but for heap_alloc_mb and wall_s. Peak RSS mostly
# shows how far the JVM grew its heap, so memory per concurrent run is measured apart, with HEAP=1:
# the least -Xmx (bisected to 8 MB) with which the heaviest point (load 0.9, dt,spfc, 2 seeds)
# completes under --jobs 1 and under --jobs 2; the difference is what one more concurrent run needs.
# Usage: [HEAP=1] perf/sweep-speedup.sh [ROUNDS] [JOBS_B]     (JOBS_B: the second pool size, default 2)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
rounds=${1:-1}
jobs_b=${2:-2}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$root/pfcswitch" --version > /dev/null 2>&1      # build first if stale, outside the timing
grid=(-c "$root/testbed-configs/scenarios/websearch-load.yaml" --scheme dt,spfc
      --set duration=12ms --set measure.from=0us --set measure.to=12ms --set traffic.web.stop=12ms
      --sweep traffic.web.load=0.3,0.5,0.7,0.9 --seeds 2)
echo "grid: 16 runs (4 loads x 2 schemes x 2 seeds, 12 ms of websearch-load each); $(nproc) processors;" \
     "load average $(cut -d' ' -f1-3 /proc/loadavg)"
run() {   # run JOBS ROUND -> prints "pool_s command_s rss_kb cpu_s"
  local j=$1 r=$2
  /usr/bin/time -f '%e %M %U %S' -o "$tmp/time-$j-$r" "$root/pfcswitch" sim "${grid[@]}" --jobs "$j" \
      --table "$tmp/table-$j.csv" > /dev/null 2> "$tmp/err-$j-$r"
  local pool
  pool=$(sed -n 's/.*: 16 runs in \([0-9.]*\) s wall.*/\1/p' "$tmp/err-$j-$r")
  read -r wall rss user sys < "$tmp/time-$j-$r"
  echo "$pool $wall $rss $(awk -v u="$user" -v s="$sys" 'BEGIN {printf "%.1f", u + s}')"
}
speedups=()
for r in $(seq 1 "$rounds"); do
  load=$(cut -d' ' -f1 /proc/loadavg)
  read -r p1 c1 m1 u1 < <(run 1 "$r")
  read -r p2 c2 m2 u2 < <(run "$jobs_b" "$r")
  s=$(awk -v a="$p1" -v b="$p2" 'BEGIN {printf "%.2f", a / b}')
  speedups+=("$s")
  printf 'round %d (load before %s): --jobs 1: pool %5.1f s (command %5.1f s, CPU %5.1f s, peak RSS %4d MB) | --jobs %d: pool %5.1f s (command %5.1f s, CPU %5.1f s, peak RSS %4d MB) | speed-up %sx\n' \
    "$r" "$load" "$p1" "$c1" "$u1" $((m1 / 1024)) "$jobs_b" "$p2" "$c2" "$u2" $((m2 / 1024)) "$s"
done
strip() { sed 's/,[^,]*,[^,]*$//' "$1"; }     # the machine's columns: heap_alloc_mb, wall_s
if diff <(strip "$tmp/table-1.csv") <(strip "$tmp/table-$jobs_b.csv") > /dev/null; then
  echo "tables of --jobs 1 and --jobs $jobs_b: identical but for heap_alloc_mb and wall_s"
else
  echo "tables of --jobs 1 and --jobs $jobs_b DIFFER" >&2
  exit 1
fi
median=$(printf '%s\n' "${speedups[@]}" | sort -n | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}')
echo "median speed-up with --jobs $jobs_b over --jobs 1: ${median}x (goal on 2 cores: 1.8x)"
[ "${HEAP:-0}" = 1 ] || exit 0
heavy=(-c "$root/testbed-configs/scenarios/websearch-load.yaml" --scheme dt,spfc
       --set duration=4ms --set measure.from=0us --set measure.to=4ms --set traffic.web.stop=4ms
       --sweep traffic.web.load=0.9 --seeds 2)
least_heap() {   # JOBS -> the least -Xmx in MB that completes, to 8 MB
  local lo=32 hi=1024 mid
  while [ $((hi - lo)) -gt 8 ]; do
    mid=$(((lo + hi) / 2))
    if PFCSWITCH_JAVA_OPTS="-Xmx${mid}m" "$root/pfcswitch" sim "${heavy[@]}" --jobs "$1" > /dev/null 2>&1; then
      hi=$mid
    else
      lo=$mid
    fi
  done
  echo "$hi"
}
h1=$(least_heap 1)
h2=$(least_heap "$jobs_b")
echo "least heap for the 4-run point at load 0.9: --jobs 1: ${h1} MB, --jobs $jobs_b: ${h2} MB;" \
     "per concurrent run about $(((h2 - h1) / (jobs_b - 1))) MB"
