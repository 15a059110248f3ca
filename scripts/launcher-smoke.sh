#!/usr/bin/env bash
# The packaged product as a user runs it: ./pfcswitch on target/pfcswitch-cli.jar and target/lib/*,
# which the tests (on Maven's test class path) never load. A runtime dependency missing from
# target/lib passes every test and fails here. Run after 'mvn package' or 'mvn install'.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

check() {   # check WHAT COMMAND...: runs the launcher, fails with its output if it fails
  local what=$1; shift
  if ! ./pfcswitch "$@" > "$out/stdout" 2> "$out/stderr" < /dev/null; then
    echo "launcher-smoke: '$what' failed: ./pfcswitch $*" >&2
    cat "$out/stderr" >&2
    exit 1
  fi
}

check "version" --version
check "config loading (YAML)" mmu explain -c testbed-configs/mmu/tomahawk-32x100g.yaml --scheme dt
check "a scenario in virtual time" sim -c testbed-configs/scenarios/bfc-two-flows.yaml --scheme dt --json
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d, "empty JSON"' "$out/stdout" || {
  echo "launcher-smoke: sim --json printed no JSON document" >&2; head -c 2000 "$out/stdout" >&2; exit 1; }
check "plots and figures" sim -c testbed-configs/scenarios/bfc-two-flows.yaml --scheme dt --out "$out/figures" --figures png,svg,pdf
for f in png svg pdf; do
  ls "$out/figures"/*."$f" > /dev/null 2>&1 || { echo "launcher-smoke: no .$f figure written" >&2; exit 1; }
done
echo "launcher-smoke: ./pfcswitch runs from target/ (version, YAML, sim, figures)"
