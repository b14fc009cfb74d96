#!/usr/bin/env bash
# Install the Debian packages of tools/system-packages.txt that are missing, and the npm packages of
# package.json (the vendored widget manager, require.js and MathJax for the offline site; npm itself
# from Debian when it is missing).
# Needs root (or sudo) for apt-get; without it, says what is missing and carries on (the tests that
# need a missing package are skipped with that reason).
set -euo pipefail
cd "$(dirname "$0")/.."
missing=()
while read -r line; do
  pkg=${line%%#*}; pkg=$(echo "$pkg" | xargs)
  [ -z "$pkg" ] && continue
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done < tools/system-packages.txt
if [ "$(id -u)" = 0 ]; then SUDO=""; elif command -v sudo >/dev/null 2>&1; then SUDO="sudo -n"; else SUDO=none; fi
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$SUDO" != none ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing Debian packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq
    $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "warning: missing Debian packages (install them to run every test): ${missing[*]}" >&2
  fi
fi
if [ -f package.json ] && { [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; }; then
  if ! command -v npm >/dev/null 2>&1 && [ "$SUDO" != none ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing Debian package: npm (for the offline site's vendored JavaScript)"
    $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends npm >/dev/null || true
  fi
  if command -v npm >/dev/null 2>&1; then
    npm ci --no-audit --no-fund --loglevel=error
  else
    echo "warning: npm not found; the offline site needs node_modules (npm ci)" >&2
  fi
fi
