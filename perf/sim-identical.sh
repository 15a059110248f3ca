#!/usr/bin/env bash
# Checks that a change to the switch core leaves `sim` byte-identical: runs every shipped
# scenario (with its own schemes, and spfc-victim under every scheme and two shadows) through two
# builds of the CLI and compares their --json output.
#
#   perf/sim-identical.sh BEFORE_DIR [AFTER_DIR]
#
# BEFORE_DIR and AFTER_DIR each hold pfcswitch-cli.jar and lib/ (copies of control-cli/target);
# AFTER_DIR defaults to this tree's control-cli/target. Exits 1 on the first difference.
# A BEFORE_DIR of any commit: perf/sim-baseline.sh COMMIT DIR (builds it in a temporary directory).
#
# DRIFT=1 perf/sim-identical.sh BEFORE_DIR [AFTER_DIR] is for a change that is meant to move the
# results a little (such as the order of events at one nanosecond): for each case that differs it
# prints, per scheme, the relative change of FCT p50/p99, PFC pauses and drops, and fails only
# when drops or lossless violations appear where there were none.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
before=${1:?usage: perf/sim-identical.sh BEFORE_DIR [AFTER_DIR]}
after=${2:-$root/control-cli/target}
java_home=$("$root/scripts/find-jdk.sh")
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

sim() {  # sim DIR NAME ARGS...
  local dir=$1 name=$2; shift 2
  "$java_home/bin/java" --enable-native-access=ALL-UNNAMED \
    -XX:+UseParallelGC -cp "$dir/pfcswitch-cli.jar:$dir/lib/*" org.pfcswitch.cli.PfcSwitch \
    sim --json --jobs 2 "$@" > "$out/$name" 2>/dev/null
}

cases=()
for f in "$root"/testbed-configs/scenarios/*.yaml; do
  cases+=("$(basename "$f" .yaml)|-c $f")     # its schemes: list, or its mmu's scheme
done
cases+=("spfc-victim-all|-c $root/testbed-configs/scenarios/spfc-victim.yaml --scheme st,dt,sonic,dsh,spfc,reverie,capfc,bfc")
cases+=("spfc-victim-shadows|-c $root/testbed-configs/scenarios/spfc-victim.yaml --scheme dt --shadow dsh,spfc")

failed=0
for c in "${cases[@]}"; do
  name=${c%%|*}; args=${c#*|}
  start=$(date +%s)
  # shellcheck disable=SC2086
  sim "$before" "$name.before" $args
  # shellcheck disable=SC2086
  sim "$after" "$name.after" $args
  if cmp -s "$out/$name.before" "$out/$name.after"; then
    echo "identical  $name ($(wc -c < "$out/$name.after") bytes, $(( $(date +%s) - start )) s)"
  elif [[ -n ${DRIFT:-} ]]; then
    python3 "$root/perf/sim_drift.py" "$name" "$out/$name.before" "$out/$name.after" || failed=1
  else
    echo "DIFFERENT  $name"; failed=1
    diff <(tr ',' '\n' < "$out/$name.before") <(tr ',' '\n' < "$out/$name.after") | head -20
  fi
done
exit $failed
