#!/usr/bin/env bash
# The per-frame price of shadow schemes: the core with and without them, measured in alternation.
# Usage: perf/run-shadow-cost.sh [SHADOWS joined by +] [PORTS] [ROUNDS]    e.g. perf/run-shadow-cost.sh dsh+spfc 4 40
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
java_home=$("$root/scripts/find-jdk.sh")
(cd "$root" && JAVA_HOME="$java_home" mvn -q -B -DskipTests -pl perf -am package)   # package, not install
exec "$java_home/bin/java" --enable-native-access=ALL-UNNAMED -XX:+UseParallelGC \
  -cp "$root/perf/target/classes:$root/perf/target/lib/*" org.pfcswitch.perf.ShadowCost "$@"
