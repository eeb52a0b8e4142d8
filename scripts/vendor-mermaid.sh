#!/usr/bin/env bash
# Fetch the pinned Mermaid package's files from the npm registry into .vendor/mermaid, so the
# browser tests can serve the CDN URL the pages load (https://cdn.jsdelivr.net/npm/mermaid@12.3.0/)
# from disk. A test fixture, not a dependency: nothing at run time loads it.
set -euo pipefail
cd "$(dirname "$0")/.."
version=12.3.0
dest=.vendor/mermaid
if [ -f "$dest/package/dist/mermaid.esm.min.mjs" ] && grep -q "\"version\": \"$version\"" "$dest/package/package.json"; then
  exit 0
fi
rm -rf "$dest" && mkdir -p "$dest"
tarball=$(npm pack "mermaid@$version" --pack-destination "$dest" --silent | tail -n 1)
tar -xzf "$dest/$tarball" -C "$dest"
rm -f "$dest/$tarball"
echo "mermaid $version in $dest/package"
