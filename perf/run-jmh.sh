#!/usr/bin/env bash
# Runs the JMH benchmarks and prints each one's ratio to its reference from the same run.
# Usage: perf/run-jmh.sh [JMH regexp] [JMH options...]    e.g. perf/run-jmh.sh CodecBenchmark -f 1
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
java_home=$("$root/scripts/find-jdk.sh")
(cd "$root" && JAVA_HOME="$java_home" mvn -q -B -DskipTests -pl perf -am package)   # package, not install: target/lib gets the reactor jars
exec "$java_home/bin/java" --enable-native-access=ALL-UNNAMED \
  -cp "$root/perf/target/classes:$root/perf/target/lib/*" org.pfcswitch.perf.BenchmarkReport "${@:-.}"
