#!/bin/sh
# Compiles the DPDK shim; run by the Maven build (compile phase), usable by hand:
#   sh src/main/c/build-shim.sh <source.c> <output.so> <resource-dir>
# The library lands in <output.so> (found next to the classes at run time) and a copy goes into
# <resource-dir>, so the module's jar carries it too.
set -eu
src=$1 out=$2 resdir=$3

missing() {
  echo "native-bindings: $1. The shim needs gcc, pkg-config and DPDK's headers:" >&2
  echo "native-bindings: run 'make test' (it installs them), or: apt-get install -y gcc pkg-config dpdk-dev libdpdk-dev" >&2
  exit 1
}
command -v gcc >/dev/null 2>&1 || missing "gcc not found"
command -v pkg-config >/dev/null 2>&1 || missing "pkg-config not found"
pkg-config --exists libdpdk || missing "pkg-config cannot find libdpdk (DPDK development files are not installed)"

mkdir -p "$(dirname "$out")" "$resdir"
# -lrte_net_ring: rte_eth_from_rings lives in the ring PMD, which pkg-config lists only for --static.
# shellcheck disable=SC2046  # word splitting of pkg-config's flags is intended
gcc -O2 -g -fPIC -shared -fvisibility=hidden -Wall -Wextra \
    $(pkg-config --cflags libdpdk) "$src" -o "$out" $(pkg-config --libs libdpdk) -lrte_net_ring
cp "$out" "$resdir/"
