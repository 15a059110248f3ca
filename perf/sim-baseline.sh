#!/usr/bin/env bash
# Builds the CLI of one commit into a directory that perf/sim-identical.sh and perf/sim-speed.sh
# (BEFORE=) take as a reference build: DIR/pfcswitch-cli.jar and DIR/lib/.
#
#   perf/sim-baseline.sh COMMIT DIR
#
# The commit's tree is exported (git archive) into a temporary directory and built there with the
# offline Maven repository (package only: nothing is installed into ~/.m2), so this checkout, its
# build and other worktrees are left alone. DIR must not exist yet.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
commit=${1:?usage: perf/sim-baseline.sh COMMIT DIR}
dir=${2:?usage: perf/sim-baseline.sh COMMIT DIR}
if [[ -e $dir ]]; then
  echo "sim-baseline: $dir exists; give a new directory" >&2
  exit 2
fi
sha=$(git -C "$root" rev-parse --verify "$commit^{commit}")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git -C "$root" archive "$sha" | tar -x -C "$tmp"
export JAVA_HOME=${JAVA_HOME:-$("$root/scripts/find-jdk.sh")}
(cd "$tmp" && nice -n 10 mvn -B -ntp -o -q package -DskipTests)
mkdir -p "$dir"
cp "$tmp/control-cli/target/pfcswitch-cli.jar" "$dir/"
cp -r "$tmp/control-cli/target/lib" "$dir/"
echo "$sha" > "$dir/COMMIT"
echo "sim-baseline: $dir holds the CLI of $sha"
