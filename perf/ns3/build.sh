#!/usr/bin/env bash
# Build the peer simulator: the Reverie artifact's ns-3.39 (github:inet-tub/ns3-datacenter).
#
# A developer tool, not CI. It fetches the artifact at a pinned commit, configures
# ns-3 with cmake (release, only the modules the Reverie example links, examples on, tests and Python
# off) and builds the one example we run with ninja. Idempotent: a second call finds the binary and
# prints its path without touching anything.
#
#   perf/ns3/build.sh                      # clone from GitHub (needs the internet)
#   NS3_SRC=/path/to/ns-3.39 perf/ns3/build.sh          # an unpacked ns-3.39 directory
#   NS3_SRC=/path/to/ns3-datacenter[.git] perf/ns3/build.sh   # a clone or bare mirror of the artifact
#   NS3_WORK=/work/ns3-work NS3_SRC=/work/.mirror/inet-tub+ns3-datacenter/repo perf/ns3/build.sh
#
# Environment:
#   NS3_SRC    where to get the sources (see above); default: NS3_REPO
#   NS3_REPO   a URL to clone (once, into NS3_WORK/clone) or a local git directory (a clone or bare
#              mirror, read in place); default https://github.com/inet-tub/ns3-datacenter
#   NS3_PIN    the artifact's commit (default below; the sources we read for docs/ns3-model.md)
#   NS3_WORK   where sources, build and every output of run.sh, compare.sh and speed.sh live
#              (default perf/ns3/work, git-ignored); set it to share one build between checkouts
#   NS3_JOBS   ninja -j (default 2: the machine is shared)
#   NS3_NICE   cmake and ninja run this much nicer than the caller (default 10)
#
# The last line printed is the binary's path, so `BIN=$(perf/ns3/build.sh | tail -1)` works.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
source "$HERE/lib.sh"            # NS3_WORK's default
NS3_REPO=${NS3_REPO:-https://github.com/inet-tub/ns3-datacenter}
NS3_PIN=${NS3_PIN:-6ddb4a40f4db1c22f53bcf7d341f9da621d27816}
NS3_JOBS=${NS3_JOBS:-2}
SRC=$NS3_WORK/ns-3.39
BUILD=$NS3_WORK/build
EXAMPLE=reverie-evaluation-sigcomm2023
# The example links point-to-point, traffic-control, internet and applications; ns-3 adds their
# dependencies (core, network, bridge, ...) itself. Everything else (wifi, lte, ...) stays out,
# which is most of a full build's time.
MODULES="point-to-point;traffic-control;internet;applications"

log() { printf '[ns3-build %s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }

find_binary() {
  # ns-3 names example binaries ns3.39-<name>[-<profile>]; release builds have no profile suffix.
  find "$BUILD" "$SRC/build" -maxdepth 4 -type f -perm -u+x -name "ns3.39-$EXAMPLE*" 2>/dev/null | head -1
}

# The stamp names the pinned commit and our patch, so changing either rebuilds (ninja then only
# recompiles what changed).
STAMP=$BUILD/.built-$NS3_PIN-$(sha1sum "$HERE/flows-from-file.patch" | cut -c1-12)
BIN=$(find_binary || true)
if [[ -n "$BIN" && -f "$STAMP" ]]; then
  log "already built (delete $BUILD to rebuild)"
  echo "$BIN"
  exit 0
fi

T0=$(date +%s)
mkdir -p "$NS3_WORK"

# 1. Sources: the artifact's simulator/ns-3.39 directory at the pinned commit, unpacked once.
if [[ ! -f "$SRC/CMakeLists.txt" ]]; then
  extract_from_git() { # $1: a git directory (bare or not) holding NS3_PIN
    log "extracting simulator/ns-3.39 at ${NS3_PIN:0:12} from $1"
    git -C "$1" cat-file -e "$NS3_PIN^{commit}" 2>/dev/null \
      || { log "$1 does not hold the pinned commit $NS3_PIN (set NS3_PIN, or fetch it)"; exit 2; }
    # A snapshot mirror may lack a few large blobs (three LTE fading traces); git archive stops at
    # the first one, so leave out every path whose blob is absent. None is in a module we build.
    local -a skip=() absent=()
    while read -r sha path; do skip+=(":(exclude)$path"); absent+=("$path")
    done < <(git -C "$1" ls-tree -r "$NS3_PIN" simulator/ns-3.39 | awk -F'\t' '{ split($1, m, " ") } m[2] == "blob" { print m[3], $2 }' \
             | awk 'NR == FNR { if ($2 == "missing") absent[$1] = 1; next } $1 in absent' \
                 <(git -C "$1" ls-tree -r "$NS3_PIN" simulator/ns-3.39 | awk '$2 == "blob" { print $3 }' \
                   | git -C "$1" cat-file --batch-check) -)
    local p
    for p in "${absent[@]}"; do
      if [[ $p == */src/lte/* ]]; then log "absent in the mirror, left out (LTE, not built): ${p##*/}"
      else log "absent in the mirror, left out: $p (if the build needs it, use a full clone)"; fi
    done
    rm -rf "$SRC.tmp"; mkdir -p "$SRC.tmp"
    # git archive still reports "invalid object" for each excluded absent blob (it reads the tree
    # before applying the exclusions) although the archive is complete: drop exactly those lines and
    # pass every other message through.
    local err=$NS3_WORK/extract.err
    git -C "$1" archive "$NS3_PIN" -- simulator/ns-3.39 "${skip[@]}" 2>"$err" | tar -x -C "$SRC.tmp" --strip-components=2
    for p in "${absent[@]}"; do grep -v -F "for '$p'" "$err" >"$err.tmp" || true; mv "$err.tmp" "$err"; done
    if [[ -s "$err" ]]; then cat "$err" >&2; fi
    rm -f "$err"
    mv "$SRC.tmp" "$SRC"
  }
  if [[ -n "${NS3_SRC:-}" ]]; then
    if [[ -f "$NS3_SRC/src/point-to-point/model/switch-mmu.cc" ]]; then
      log "copying the ns-3.39 tree at $NS3_SRC (its commit is not checked)"
      cp -a "$NS3_SRC" "$SRC"
    elif git -C "$NS3_SRC" rev-parse --git-dir >/dev/null 2>&1; then
      extract_from_git "$NS3_SRC"
    else
      log "NS3_SRC=$NS3_SRC is neither an ns-3.39 tree nor a git repository"; exit 2
    fi
  elif git -C "$NS3_REPO" rev-parse --git-dir >/dev/null 2>&1; then
    extract_from_git "$NS3_REPO"     # a local clone or mirror: read it in place
  else
    if [[ ! -d "$NS3_WORK/clone" ]]; then
      log "cloning $NS3_REPO (about 1 GB of history with the traces; only needed once)"
      git clone --no-checkout "$NS3_REPO" "$NS3_WORK/clone"
    fi
    extract_from_git "$NS3_WORK/clone"
  fi
fi
[[ -f "$SRC/src/point-to-point/model/switch-mmu.cc" ]] || { log "no switch-mmu.cc in $SRC: not the artifact"; exit 2; }

# 2. Our one change to the artifact (flows-from-file.patch, in the Reverie example only): with
#    --flowsFromFile=true the example starts the flows of the config's FLOW_FILE (it reads that file
#    but never schedules it) and appends "src dst sport start_ns" to each .fct line. Without the flag
#    it behaves as published. Applied once; a tree that already has it is left alone.
PATCH=$HERE/flows-from-file.patch
if patch -p1 -R --dry-run -s -f -d "$SRC" <"$PATCH" >/dev/null 2>&1; then
  : # already applied
else
  log "applying $(basename "$PATCH")"
  patch -p1 -s -N -d "$SRC" <"$PATCH"
fi

# 3. Configure. Release is ns-3's "optimized" profile without -march=native (the binary may be
#    copied between machines); warnings are not errors because g++ 12+ warns where ns-3.39's authors'
#    compilers did not.
if [[ ! -f "$BUILD/build.ninja" ]]; then
  log "configuring (cmake -G Ninja, release, modules: $MODULES)"
  nice -n "$NS3_NICE" cmake -S "$SRC" -B "$BUILD" -G Ninja \
    -DCMAKE_BUILD_TYPE=release \
    -DNS3_ENABLED_MODULES="$MODULES" \
    -DNS3_EXAMPLES=ON -DNS3_TESTS=OFF \
    -DNS3_PYTHON_BINDINGS=OFF -DNS3_WARNINGS_AS_ERRORS=OFF \
    -DNS3_NATIVE_OPTIMIZATIONS=OFF >"$NS3_WORK/configure.log" 2>&1 \
    || { tail -30 "$NS3_WORK/configure.log" >&2; log "configure failed: $NS3_WORK/configure.log"; exit 1; }
fi
T1=$(date +%s)

# 4. Build only the example (ninja pulls in the libraries it links), not every example in the tree.
TARGET=$(ninja -C "$BUILD" -t targets all 2>/dev/null | sed -n "s/^\(\S*$EXAMPLE\S*\): .*/\1/p" \
         | grep -v -e '\.o$' -e 'cmake' | head -1)
[[ -n "$TARGET" ]] || { log "no ninja target for $EXAMPLE; see $NS3_WORK/configure.log"; exit 1; }
log "building $TARGET with ninja -j$NS3_JOBS under nice (progress: [done/total] lines below)"
# ninja prints one [n/m] line per step; keep every 25th so the progress is visible but short.
nice -n "$NS3_NICE" ninja -C "$BUILD" -j"$NS3_JOBS" "$TARGET" 2>&1 | tee "$NS3_WORK/build.log" \
  | awk '/^\[[0-9]+\/[0-9]+\]/ { split(substr($1,2),a,"/"); if (a[1] % 25 == 0 || a[1] == a[2]) { print $1; fflush() } next } / error: |^FAILED:/ { print; fflush() }' >&2
[[ ${PIPESTATUS[0]} -eq 0 ]] || { log "build failed: $NS3_WORK/build.log"; exit 1; }
T2=$(date +%s)

BIN=$(find_binary)
[[ -n "$BIN" ]] || { log "build finished but no binary named ns3.39-$EXAMPLE-*"; exit 1; }
touch "$STAMP"
log "configure $((T1 - T0)) s, build $((T2 - T1)) s, total $((T2 - T0)) s"
log "binary: $BIN"
echo "$BIN"
