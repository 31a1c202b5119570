#!/bin/sh
# Records which commit dist/ was compiled from, in dist/build-info.json (or build-info.json in the
# directory given, where scripts/release.ts compiles), at build time (npm run build, and npm ci's
# prepare step when it compiles): the server and ./occ read it there
# (src/product.ts, keystreamCommit) and never ask git at run time, as a release tarball has no
# repository. Outside a git checkout of this project (a source archive, git missing, a repository
# git refuses to read) the commit is "unknown". Uncommitted changes to tracked files add "-dirty",
# as `git describe --dirty` does: such a build is not that commit.
OUT=${1:-dist}
cd "$(dirname "$0")/.." || exit 1
ROOT=$(pwd -P)
commit=unknown
top=$(git rev-parse --show-toplevel 2>/dev/null) || top=""
if [ -n "$top" ] && [ "$(cd "$top" && pwd -P)" = "$ROOT" ]; then
  head=$(git rev-parse --verify -q HEAD 2>/dev/null) || head=""
  if [ -n "$head" ]; then
    commit=$head
    git diff --quiet HEAD -- 2>/dev/null || commit="$head-dirty"
  fi
fi
mkdir -p "$OUT"
printf '{"commit":"%s"}\n' "$commit" >"$OUT/build-info.json"
