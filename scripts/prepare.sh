#!/bin/sh
# npm's "prepare" step (npm ci / npm install in this directory): build dist/ with the project's own
# TypeScript. A production install (`npm ci --omit=dev`) has no TypeScript: it keeps the dist/ that
# a build made before, and refuses when there is none (newcomer review F2; docs/deployment.md).
# The build is tsc, then scripts/vendor-esm.ts (a few ES-module packages bundled into dist/vendor/),
# then the pages' scripts and stylesheet (scripts/copy-assets.sh), then the commit it was built from
# (scripts/build-info.sh), as `npm run build` does.
if [ -x node_modules/.bin/tsc ]; then
  node_modules/.bin/tsc -p tsconfig.json && node --import tsx scripts/vendor-esm.ts && sh scripts/copy-assets.sh &&
    exec sh scripts/build-info.sh
elif [ -f dist/main.js ] && [ -f dist/cli/occ.js ]; then
  echo "keystream: TypeScript is not installed (production install): using the existing build in dist/"
else
  echo "keystream: dist/ is missing and TypeScript is not installed (npm ci --omit=dev)." >&2
  echo "Build first where the dev dependencies are installed (npm ci && npm run build), then install" >&2
  echo "for production with npm ci --omit=dev: docs/deployment.md, \"Production install\"." >&2
  exit 1
fi
