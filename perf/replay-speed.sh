#!/usr/bin/env bash
# Replay speed (sim --replay) against the same single-switch scenario generated synthetically (sim), in one JVM.
# Usage: perf/replay-speed.sh SCENARIO.yaml SCHEME REPETITIONS [key=value ...]
#   e.g. perf/replay-speed.sh testbed-configs/scenarios/spfc-victim.yaml dt 5
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
java_home=$("$root/scripts/find-jdk.sh")
(cd "$root" && JAVA_HOME="$java_home" mvn -q -B -DskipTests install)
exec "$java_home/bin/java" -XX:+UseParallelGC --enable-native-access=ALL-UNNAMED \
  -cp "$root/perf/target/classes:$root/perf/target/lib/*" org.pfcswitch.perf.ReplaySpeed "$@"
