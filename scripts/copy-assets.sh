#!/bin/sh
# The pages' scripts and stylesheet, src/http/assets/, copied to dist/http/assets/ (or http/assets/
# in the directory given, where scripts/release.ts compiles) at build time (npm run build, and npm
# ci's prepare step when it compiles): tsc emits only what it compiles, and the server reads these
# files beside its compiled modules once at start-up (src/http/hashed-assets.ts).
OUT=${1:-dist}
cd "$(dirname "$0")/.." || exit 1
rm -rf "$OUT/http/assets" && mkdir -p "$OUT/http" && cp -R src/http/assets "$OUT/http/assets"
