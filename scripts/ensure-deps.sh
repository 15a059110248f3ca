#!/usr/bin/env bash
# Installs the Debian packages the build and the tests need, only those that are missing,
# so running it twice costs nothing. Later capabilities add their packages to PACKAGES.
set -euo pipefail

PACKAGES=(
  maven                       # the build
  gcc pkg-config              # compile the DPDK shim (native-bindings) with DPDK's flags
  dpdk dpdk-dev libdpdk-dev   # DPDK 22.11: EAL, PMDs, dpdk-testpmd, headers
  tshark                      # the real peer that dissects our frames in tests
  iproute2 iputils-ping       # netns testbed: ip netns/veth, ping across the switch
  slurm-wlm munge             # SlurmClusterTest: a one-node Slurm cluster runs sweep.sbatch (daemons only while it runs)
  prometheus                  # promtool checks testbed-configs/prometheus.yml and the dashboard's PromQL. In a
                              # container without systemd the package starts no server; no test relies on one
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
  echo "pfcswitch: missing Debian packages: ${missing[*]}" >&2
  echo "pfcswitch: run as root, or: sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
echo "pfcswitch: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
# tshark asks whether non-root users may capture; answer no without a prompt.
echo "wireshark-common wireshark-common/install-setuid boolean false" | debconf-set-selections
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
