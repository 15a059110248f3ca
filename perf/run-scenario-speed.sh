#!/usr/bin/env bash
# Simulated packet-events per second of a scenario, repeated in one JVM (warm-up, then steady state).
# Usage: perf/run-scenario-speed.sh SCENARIO.yaml SCHEMES REPETITIONS [key=value ...]
#   e.g. perf/run-scenario-speed.sh testbed-configs/scenarios/spfc-victim.yaml dt,spfc,dsh 5
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
java_home=$("$root/scripts/find-jdk.sh")
(cd "$root" && JAVA_HOME="$java_home" mvn -q -B -DskipTests install)
exec "$java_home/bin/java" -XX:+UseParallelGC --enable-native-access=ALL-UNNAMED \
  -cp "$root/perf/target/classes:$root/perf/target/lib/*" org.pfcswitch.perf.ScenarioSpeed "$@"
