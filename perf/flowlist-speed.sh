#!/usr/bin/env bash
# Load time of a big flow list (kind: flows): writes N flows, loads the scenario that reads them
# REPS times in one JVM, then runs RUN of virtual time. Builds perf with 'mvn package' (no install).
# Usage: perf/flowlist-speed.sh [N=300000] [REPS=5] [RUN=20us]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
java_home=$("$root/scripts/find-jdk.sh")
(cd "$root" && JAVA_HOME="$java_home" mvn -q -B -o -DskipTests -pl perf -am package)
exec "$java_home/bin/java" -XX:+UseParallelGC --enable-native-access=ALL-UNNAMED \
  -cp "$root/perf/target/classes:$root/perf/target/lib/*" org.pfcswitch.perf.FlowListSpeed "$@"
