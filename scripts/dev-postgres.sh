#!/usr/bin/env bash
# A private, throw-away PostgreSQL cluster for Keystream's tests and local development.
#
#   scripts/dev-postgres.sh start   # initdb (first time) + start on 127.0.0.1:$KEYSTREAM_PG_PORT
#   scripts/dev-postgres.sh url     # prints the URL to use, e.g.
#                                   #   KEYSTREAM_TEST_DATABASE_URL=$(scripts/dev-postgres.sh url) npm test
#                                   #   KEYSTREAM_DATABASE_URL=$(scripts/dev-postgres.sh url) npm start
#   scripts/dev-postgres.sh status  # exit 0 when it is running
#   scripts/dev-postgres.sh stop    # stops it and deletes its data (it is throw-away)
#
# No systemd and no system cluster: Debian's postgresql-15 binaries run a cluster of our own in
# $KEYSTREAM_PG_DIR (default /tmp/keystream-pg-<user>-<port>), with trust authentication on
# 127.0.0.1 only, its socket in that directory and fsync off (test speed; never for real data).
# As root, the server runs as the `postgres` user (PostgreSQL refuses to run as root).
# `.ci/run` uses this same script, so CI and developers get the same cluster.
set -euo pipefail

PORT="${KEYSTREAM_PG_PORT:-55432}"
DIR="${KEYSTREAM_PG_DIR:-${TMPDIR:-/tmp}/keystream-pg-$(id -un)-${PORT}}"
DATA="$DIR/data"
SOCK="$DIR/socket"
LOG="$DIR/server.log"

die() {
  echo "dev-postgres: $*" >&2
  exit 1
}

pg_bindir() {
  if [ -n "${KEYSTREAM_PG_BINDIR:-}" ]; then
    echo "$KEYSTREAM_PG_BINDIR"
    return
  fi
  local dir
  # Debian installs each major version's server binaries under /usr/lib/postgresql/<major>/bin.
  dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [ -n "$dir" ] && [ -x "$dir/initdb" ]; then
    echo "$dir"
    return
  fi
  if command -v initdb >/dev/null 2>&1; then
    dirname "$(command -v initdb)"
    return
  fi
  die "no PostgreSQL server binaries found (initdb, pg_ctl). On Debian: apt-get install -y postgresql-15"
}

# Runs a command as the cluster's owner: `postgres` when we are root, else ourselves.
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    # runuser keeps no controlling terminal and needs no password; su is the fallback.
    if command -v runuser >/dev/null 2>&1; then
      runuser -u postgres -- "$@"
    else
      su postgres -s /bin/sh -c "$(printf '%q ' "$@")"
    fi
  else
    "$@"
  fi
}

url() {
  echo "postgres://postgres@127.0.0.1:${PORT}/postgres"
}

running() {
  local bin
  bin=$(pg_bindir)
  [ -f "$DATA/PG_VERSION" ] && as_owner "$bin/pg_ctl" -D "$DATA" status >/dev/null 2>&1
}

start() {
  local bin
  bin=$(pg_bindir)
  if running; then
    echo "dev-postgres: already running on 127.0.0.1:${PORT} (data in $DATA)"
    return 0
  fi
  if [ "$(id -u)" -eq 0 ]; then
    id postgres >/dev/null 2>&1 || die "running as root needs the 'postgres' user (it comes with Debian's postgresql packages)"
    install -d -m 700 -o postgres -g postgres "$DIR" "$SOCK"
  else
    install -d -m 700 "$DIR" "$SOCK"
  fi
  if [ ! -f "$DATA/PG_VERSION" ]; then
    rm -rf "$DATA"
    echo "dev-postgres: initdb in $DATA"
    as_owner "$bin/initdb" -D "$DATA" -A trust -U postgres -E UTF8 --locale=C.UTF-8 >"$DIR/initdb.log" 2>&1 ||
      {
        cat "$DIR/initdb.log" >&2
        die "initdb failed"
      }
  fi
  if (exec 3<>"/dev/tcp/127.0.0.1/${PORT}") 2>/dev/null; then
    die "port ${PORT} on 127.0.0.1 is already taken by another program; set KEYSTREAM_PG_PORT to a free port"
  fi
  echo "dev-postgres: starting PostgreSQL ($("$bin/postgres" --version)) on 127.0.0.1:${PORT}"
  if ! as_owner "$bin/pg_ctl" -D "$DATA" -l "$LOG" -w -t 60 \
    -o "-p ${PORT} -k ${SOCK} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
    start >/dev/null; then
    tail -n 30 "$LOG" >&2 || true
    die "PostgreSQL did not start (log: $LOG)"
  fi
  echo "dev-postgres: ready at $(url)"
}

stop() {
  local bin
  bin=$(pg_bindir)
  if running; then
    as_owner "$bin/pg_ctl" -D "$DATA" -m fast -w stop >/dev/null
    echo "dev-postgres: stopped"
  else
    echo "dev-postgres: not running"
  fi
  # Only what start made: never a directory someone pointed KEYSTREAM_PG_DIR at by mistake.
  rm -rf "$DATA" "$SOCK" "$LOG" "$DIR/initdb.log"
  rmdir "$DIR" 2>/dev/null || true
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  url) url ;;
  status)
    if running; then
      echo "dev-postgres: running at $(url)"
    else
      echo "dev-postgres: not running"
      exit 1
    fi
    ;;
  *)
    echo "usage: $0 start|stop|status|url" >&2
    exit 2
    ;;
esac
