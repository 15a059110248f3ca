#!/usr/bin/env bash
# Prints the home of a JDK whose feature version is at least 22 (the FFM API is final there;
# the build targets release 25, so it prefers the newest one). Looks at JAVA_HOME first, then
# every JDK under /usr/lib/jvm. Exits 1 with a clear message when there is none.
set -u
min=${PFCSWITCH_MIN_JDK:-25}

feature_version() {   # $1 = JDK home; prints e.g. 25, or nothing if not a JDK
  local rel="$1/release" v
  [ -x "$1/bin/javac" ] || return 0
  if [ -f "$rel" ]; then
    v=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$rel")
  else
    v=$("$1/bin/java" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n1)
  fi
  echo "${v:-}"
}

best="" best_v=0
for home in ${JAVA_HOME:-} /usr/lib/jvm/*; do
  [ -d "$home" ] || continue
  v=$(feature_version "$home")
  [ -n "$v" ] || continue
  if [ "$v" -ge "$min" ] && [ "$v" -gt "$best_v" ]; then best=$home best_v=$v; fi
done

if [ -z "$best" ]; then
  echo "pfcswitch: no JDK >= $min found (looked at \$JAVA_HOME and /usr/lib/jvm/*)." >&2
  echo "pfcswitch: install one, e.g. a Temurin 25 JDK under /usr/lib/jvm, and run again." >&2
  exit 1
fi
readlink -f "$best"
