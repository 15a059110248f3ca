#!/usr/bin/env bash
# Wall-clock speed of `pfcswitch sim` on a paper-scale fabric: the 256-host 16 x 16 leaf-spine at
# 100 Gb/s and load 0.9 (testbed-configs/benchmarks/fabric-256-websearch.yaml), one fresh JVM per run.
# Prints per run the events, events/s, the simulation's wall seconds, the JVM's wall and CPU seconds
# (start to exit, all threads), simulated ms, peak RSS, and the 1-minute load average before the run.
#
#   perf/sim-speed.sh [SIM_MS] [RUNS] [-- extra sim options, e.g. --threads 2]
#     SCENARIO=path   another scenario (default the 256-host fabric)
#     BEFORE=dir      a reference build (a copy of control-cli/target: pfcswitch-cli.jar and lib/), run
#                     alternately with this tree's in every round, so both see the same machine load
#     JFR=file.jfr    a flight recording of this tree's last run, for `jfr print` / JDK Mission Control
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
sim_ms=${1:-10}
runs=${2:-1}
shift $(( $# > 2 ? 2 : $# ))
[[ ${1:-} == -- ]] && shift
scenario=${SCENARIO:-$root/testbed-configs/benchmarks/fabric-256-websearch.yaml}
java_home=$("$root/scripts/find-jdk.sh")
(cd "$root" && ./pfcswitch --version >/dev/null)          # build once, outside the timings
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

run() {  # run LABEL ROUND BUILD_DIR JAVA_OPTS SIM_ARGS...
  local label=$1 round=$2 dir=$3 opts=$4 load t0 t1; shift 4
  load=$(cut -d' ' -f1 /proc/loadavg)
  t0=$(date +%s.%N)
  # shellcheck disable=SC2086
  /usr/bin/time -f '%M %U %S' -o "$out/time" "$java_home/bin/java" --enable-native-access=ALL-UNNAMED \
    -XX:+UseParallelGC $opts -cp "$dir/pfcswitch-cli.jar:$dir/lib/*" org.pfcswitch.cli.PfcSwitch \
    sim -c "$scenario" --set "duration=${sim_ms}ms" "$@" > "$out/stdout" 2> "$out/stderr"
  t1=$(date +%s.%N)
  # The CLI prints its speed on stderr: "NAME SCHEME: X ms simulated, N events in S s wall = R M events/s"
  local line
  line=$(grep -E ' events in .* s wall' "$out/stderr" | tail -1)
  python3 - "$label" "$round" "$line" "$t0" "$t1" "$sim_ms" "$(cat "$out/time")" "$load" <<'PY'
import re, sys
label, rnd, line, t0, t1, ms, timing, load = sys.argv[1:]
m = re.search(r"([0-9,]+) events in ([0-9.]+) s wall", line)
events, simwall = int(m.group(1).replace(",", "")), float(m.group(2))
rss_kb, user, system = timing.split()
print(f"{label:<7} {rnd:<5} {events:12,d} {events / simwall / 1e6:7.2f} {simwall:7.2f} {float(t1) - float(t0):7.2f} "
      f"{float(user) + float(system):7.2f} {float(ms):6.1f} {int(rss_kb) / 1024:7.0f} {load:>6}")
PY
}

printf '%-7s %-5s %12s %7s %7s %7s %7s %6s %7s %6s\n' build round events "M ev/s" "sim s" "wall s" "cpu s" \
  "sim ms" "RSS MB" load
for ((r = 1; r <= runs; r++)); do
  if [[ -n ${BEFORE:-} ]]; then
    run before "$r" "$BEFORE" "${PFCSWITCH_JAVA_OPTS:-}" "$@"
  fi
  opts=${PFCSWITCH_JAVA_OPTS:-}
  if [[ -n ${JFR:-} && $r == "$runs" ]]; then
    opts="$opts -XX:StartFlightRecording=filename=$JFR,settings=profile"
  fi
  run this "$r" "$root/control-cli/target" "$opts" "$@"
done
