#!/usr/bin/env bash
# Installs what the queue-mode suite needs beyond test/e2e/install.sh: PostgreSQL and Redis from the
# Debian packages, only when absent. Needs root and apt-get when they are missing.
# Prints "[queue install] ready: postgres <bin dir>, redis-server <path>" at the end.
set -euo pipefail

pg_bin() {
  local d
  for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    if [ -x "$d/postgres" ] && [ -x "$d/initdb" ]; then echo "$d"; return 0; fi
  done
  return 1
}

missing=()
pg_bin >/dev/null || missing+=(postgresql)
command -v redis-server >/dev/null || missing+=(redis-server)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
    echo "[queue install] ${missing[*]} missing, and this is not root with apt-get: install them first" >&2
    exit 1
  fi
  echo "[queue install] apt-get install ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  # The packages start system services on some machines; the suite runs its own throwaway ones.
  if command -v service >/dev/null; then
    service redis-server stop >/dev/null 2>&1 || true
    service postgresql stop >/dev/null 2>&1 || true
  fi
fi
echo "[queue install] ready: postgres $(pg_bin), redis-server $(command -v redis-server)"
