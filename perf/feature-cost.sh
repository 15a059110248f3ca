#!/usr/bin/env bash
# Per-frame cost of the PFC watchdog, of recording and of one shadow scheme, each against the same
# core without it, measured in alternation in one run (issue 17's speed item).
# Usage: perf/feature-cost.sh [PORTS] [ROUNDS] [SHADOW]    e.g. perf/feature-cost.sh 4 40 dsh
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
java_home=$("$root/scripts/find-jdk.sh")
(cd "$root" && JAVA_HOME="$java_home" mvn -q -B -DskipTests -pl perf -am package)   # package, not install
exec "$java_home/bin/java" --enable-native-access=ALL-UNNAMED -XX:+UseParallelGC \
  -cp "$root/perf/target/classes:$root/perf/target/lib/*" org.pfcswitch.perf.FeatureCost "$@"
