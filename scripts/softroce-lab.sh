#!/usr/bin/env bash
# Soft-RoCE through the switch: real ib_write_bw (perftest over the kernel's rdma_rxe) between two
# hosts of the netns testbed, its RoCEv2 frames crossing the DPDK pfcswitch. See --help.
set -euo pipefail

ME=softroce-lab
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

usage() {
  cat <<EOF
Usage: scripts/softroce-lab.sh [options]

Runs a real RDMA WRITE bandwidth test (perftest's ib_write_bw over Soft-RoCE, the kernel's
rdma_rxe) between two hosts of the netns testbed, through the DPDK switch:

  1. adds one rxe device per host, over the host's veth end (eth0) inside its namespace:
       ip netns exec pfcsw-h2 rdma link add rxe_pfcsw_h2 type rxe netdev eth0
  2. starts 'ib_write_bw' as the server in the server host's namespace and as the client in the
     client host's namespace, aimed at the server's testbed address (traffic class 106 = DSCP 26
     with ECT(0), which the switch classifies as lossless priority 3);
  3. on exit, also on error or Ctrl-C, deletes the rxe devices again (and with --start stops the
     switch and removes the testbed).

A full run needs the netns testbed and a running switch: either start them first
  sudo ./pfcswitch testbed up -c testbed-configs/netns-3hosts.yaml
  sudo ./pfcswitch run -c testbed-configs/netns-3hosts.yaml &
or pass --start and the script does both and undoes both. It needs root and a kernel with
rdma_rxe (CONFIG_RDMA_RXE); without rxe it refuses with one line and exit code 2. Missing Debian
packages (rdma-core ibverbs-utils perftest) are installed when running as root. rxe inside a
network namespace needs a kernel whose rxe is namespace-aware (it must listen on UDP 4791 in the
namespace; the script checks and says so).

Options:
  -c, --config FILE  testbed config (default testbed-configs/netns-3hosts.yaml): its
                     testbed.namespacePrefix names the namespaces; --start uses it
  --server HOST      testbed host that runs the ib_write_bw server (default h2)
  --client HOST      testbed host that runs the client (default h0)
  --duration S       seconds of traffic (default 5)
  --size BYTES       message size (default 65536)
  --qps N            queue pairs (default 1)
  --tclass N         IP traffic class / ToS (default 106)
  --rdma-cm          connect through RDMA-CM (ib_write_bw -R --tos N) instead of by GID
                     (-x <RoCE v2 GID index of the host's address> --tclass N)
  --start            bring the testbed up and start the switch first; stop and remove both on exit
  -h, --help         this text

Exit codes: 0 the test ran, 1 it failed, 2 bad usage or no rxe in this kernel.
EOF
}

die() { echo "$ME: $*" >&2; exit 1; }
usage_error() { echo "$ME: $* (see --help)" >&2; exit 2; }

CONFIG=testbed-configs/netns-3hosts.yaml
SERVER=h2
CLIENT=h0
DURATION=5
SIZE=65536
QPS=1
TCLASS=106
RDMA_CM=0
START=0
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    -c|--config) [ $# -ge 2 ] || usage_error "$1 needs a file"; CONFIG=$2; shift 2 ;;
    --server) [ $# -ge 2 ] || usage_error "$1 needs a host"; SERVER=$2; shift 2 ;;
    --client) [ $# -ge 2 ] || usage_error "$1 needs a host"; CLIENT=$2; shift 2 ;;
    --duration) [ $# -ge 2 ] || usage_error "$1 needs seconds"; DURATION=$2; shift 2 ;;
    --size) [ $# -ge 2 ] || usage_error "$1 needs bytes"; SIZE=$2; shift 2 ;;
    --qps) [ $# -ge 2 ] || usage_error "$1 needs a number"; QPS=$2; shift 2 ;;
    --tclass) [ $# -ge 2 ] || usage_error "$1 needs a number"; TCLASS=$2; shift 2 ;;
    --rdma-cm) RDMA_CM=1; shift ;;
    --start) START=1; shift ;;
    *) usage_error "unknown option '$1'" ;;
  esac
done
for n in "$DURATION" "$SIZE" "$QPS" "$TCLASS"; do
  [[ "$n" =~ ^[0-9]+$ ]] || usage_error "expected a whole number, got '$n'"
done
[ "$TCLASS" -le 255 ] || usage_error "--tclass must be 0-255, got $TCLASS"
[ "$SERVER" != "$CLIENT" ] || usage_error "--server and --client must be different hosts"

# Soft-RoCE first: without it nothing below can work, and CI's kernel has none.
if [ ! -d /sys/module/rdma_rxe ] && ! modprobe rdma_rxe >/dev/null 2>&1; then
  echo "$ME: this kernel has no Soft-RoCE: 'modprobe rdma_rxe' failed and /sys/module/rdma_rxe is absent (needs CONFIG_RDMA_RXE)" >&2
  exit 2
fi

[ "$(id -u)" -eq 0 ] || die "needs root (network namespaces, rdma links); run with sudo"
cd "$REPO"
[ -f "$CONFIG" ] || usage_error "no such config: $CONFIG"

PACKAGES=(rdma-core ibverbs-utils perftest)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "$ME: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
for tool in rdma ip ss ib_write_bw; do
  command -v "$tool" >/dev/null || die "'$tool' is not installed"
done

# Pipelines below end in awk, never in 'grep -q' or 'head': under pipefail an early reader can
# turn a writer's SIGPIPE into a failure.
PREFIX=$(awk '$1 == "namespacePrefix:" { gsub(/["\047]/, "", $2); print $2; exit }' "$CONFIG")
PREFIX=${PREFIX:-pfcsw-}
NS_S=$PREFIX$SERVER
NS_C=$PREFIX$CLIENT
DEV_S=rxe_${NS_S//[^A-Za-z0-9_]/_}
DEV_C=rxe_${NS_C//[^A-Za-z0-9_]/_}

WORK=$(mktemp -d)
SWITCH_PID=""
SERVER_PID=""
TESTBED_UP=0
LINKS=()
cleanup() {
  local rc=$?
  set +e
  [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null
  for entry in "${LINKS[@]}"; do
    ip netns exec "${entry%%/*}" rdma link delete "${entry#*/}" 2>/dev/null \
      || echo "$ME: could not delete rdma link ${entry#*/} in ${entry%%/*}" >&2
  done
  if [ -n "$SWITCH_PID" ]; then
    kill -TERM "$SWITCH_PID" 2>/dev/null
    wait "$SWITCH_PID" 2>/dev/null
  fi
  [ "$TESTBED_UP" -eq 1 ] && ./pfcswitch testbed down -c "$CONFIG" >/dev/null
  rm -rf "$WORK"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if [ "$START" -eq 1 ]; then
  ./pfcswitch testbed up -c "$CONFIG"
  TESTBED_UP=1
  ./pfcswitch run -c "$CONFIG" >"$WORK/switch.log" 2>&1 &
  SWITCH_PID=$!
  for _ in $(seq 120); do
    grep -q "forwarding; stop with" "$WORK/switch.log" && break
    kill -0 "$SWITCH_PID" 2>/dev/null || { cat "$WORK/switch.log" >&2; die "the switch did not start"; }
    sleep 0.5
  done
  grep -q "forwarding; stop with" "$WORK/switch.log" || die "the switch did not start within 60 s"
  echo "$ME: switch running (pid $SWITCH_PID)"
fi

NAMESPACES=$(ip netns list | awk '{ print $1 }')
for ns in "$NS_S" "$NS_C"; do
  if ! printf '%s\n' "$NAMESPACES" | awk -v want="$ns" '$0 == want { found = 1 } END { exit !found }'; then
    die "no namespace $ns: bring the testbed up first (sudo ./pfcswitch testbed up -c $CONFIG) or pass --start"
  fi
done
ipv4() { ip -n "$1" -4 -o addr show dev eth0 | awk '{ split($4, a, "/"); print a[1]; exit }'; }
IP_S=$(ipv4 "$NS_S")
IP_C=$(ipv4 "$NS_C")
if [ -z "$IP_S" ] || [ -z "$IP_C" ]; then
  die "eth0 has no IPv4 address in $NS_S or $NS_C"
fi

# One rxe device per host, over its eth0, created inside the host's namespace.
for pair in "$NS_S/$DEV_S" "$NS_C/$DEV_C"; do
  ns=${pair%%/*}; dev=${pair#*/}
  ip netns exec "$ns" rdma link delete "$dev" >/dev/null 2>&1 || true   # a leftover of an earlier run
  ip netns exec "$ns" rdma link add "$dev" type rxe netdev eth0 || die "could not add rdma link $dev (type rxe) over eth0 in $ns"
  LINKS+=("$pair")
  if [ -z "$(ip netns exec "$ns" ss -Hlun 'sport = :4791')" ]; then
    die "rxe in $ns does not listen on UDP 4791 there: this kernel's rxe keeps its socket in the root namespace (rxe learned network namespaces in later kernels)"
  fi
done
echo "$ME: $DEV_C in $NS_C ($IP_C) -> $DEV_S in $NS_S ($IP_S), through the switch"

# The RoCE v2 GID of the host's IPv4 address (::ffff:a.b.c.d), which the kernel fills in shortly after the link appears.
gid_index() {
  local ns=$1 dev=$2 ip=$3 want i g t
  IFS=. read -r a b c d <<<"$ip"
  want=$(printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x' "$a" "$b" "$c" "$d")
  local port=/sys/class/infiniband/$dev/ports/1
  for _ in $(seq 50); do
    for i in $(ip netns exec "$ns" ls "$port/gids" 2>/dev/null); do
      g=$(ip netns exec "$ns" cat "$port/gids/$i" 2>/dev/null || true)
      t=$(ip netns exec "$ns" cat "$port/gid_attrs/types/$i" 2>/dev/null || true)
      if [ "$g" = "$want" ] && [ "$t" = "RoCE v2" ]; then
        echo "$i"
        return 0
      fi
    done
    sleep 0.1
  done
  return 1
}
if [ "$RDMA_CM" -eq 1 ]; then
  CONN_S=(-R --tos "$TCLASS")
  CONN_C=(-R --tos "$TCLASS")
else
  GID_S=$(gid_index "$NS_S" "$DEV_S" "$IP_S") || die "$DEV_S has no RoCE v2 GID for $IP_S"
  GID_C=$(gid_index "$NS_C" "$DEV_C" "$IP_C") || die "$DEV_C has no RoCE v2 GID for $IP_C"
  CONN_S=(-x "$GID_S" --tclass "$TCLASS")
  CONN_C=(-x "$GID_C" --tclass "$TCLASS")
fi
COMMON=(-D "$DURATION" -s "$SIZE" -q "$QPS" --report_gbits -F)

ip netns exec "$NS_S" ib_write_bw -d "$DEV_S" "${CONN_S[@]}" "${COMMON[@]}" >"$WORK/server.log" 2>&1 &
SERVER_PID=$!
sleep 1
set +e
timeout $((DURATION + 60)) ip netns exec "$NS_C" ib_write_bw -d "$DEV_C" "${CONN_C[@]}" "${COMMON[@]}" "$IP_S"
client_rc=$?
wait "$SERVER_PID"
server_rc=$?
set -e
SERVER_PID=""
echo "--- server ($NS_S) ---"
cat "$WORK/server.log"
[ "$client_rc" -eq 0 ] || die "the ib_write_bw client exited $client_rc"
[ "$server_rc" -eq 0 ] || die "the ib_write_bw server exited $server_rc"
if [ -n "$SWITCH_PID" ]; then
  echo "--- switch ---"
  grep -E "status|counters|pfc" "$WORK/switch.log" | tail -n 20 || true
fi
echo "$ME: ib_write_bw ran from $NS_C to $NS_S through the switch"
