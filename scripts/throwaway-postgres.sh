#!/usr/bin/env bash
# Starts a throwaway PostgreSQL cluster on 127.0.0.1 for tests and benchmarks.
#   eval "$(scripts/throwaway-postgres.sh start)"   → exports TEST_DATABASE_URL and PG_THROWAWAY_DIR
#   scripts/throwaway-postgres.sh stop "$PG_THROWAWAY_DIR"
#   scripts/throwaway-postgres.sh down|up "$PG_THROWAWAY_DIR"   → stops / starts the server, keeping the data (fault tests)
# initdb refuses to run as root, so the cluster runs as the `postgres` (or `nobody`) user.
set -euo pipefail

pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }

# From `/`: su keeps the caller's folder, and one its user cannot read (a clone under /root, say)
# makes the server's tools print "could not change directory" after the test run's last line.
as_owner() {
  local user=$1; shift
  if [ "$(id -u)" = 0 ]; then (cd / && su -s /bin/sh "$user" -c "$*"); else sh -c "$*"; fi
}

case "${1:-}" in
  start)
    bin=$(pg_bin)
    if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
      echo "echo 'no PostgreSQL server binaries under /usr/lib/postgresql; Postgres tests skipped' >&2"
      exit 0
    fi
    user=postgres; id postgres >/dev/null 2>&1 || user=nobody
    dir=$(mktemp -d /tmp/pg-throwaway-XXXXXX)
    chmod 755 "$dir"
    [ "$(id -u)" = 0 ] && chown "$user" "$dir"
    port=$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
    as_owner "$user" "'$bin/initdb' -D '$dir/data' -U postgres --auth=trust -E UTF8 --no-locale >'$dir/initdb.log' 2>&1"
    echo "-h 127.0.0.1 -p $port -k '$dir' -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" >"$dir/server.opts"
    as_owner "$user" "'$bin/pg_ctl' -D '$dir/data' -l '$dir/server.log' -w -o \"$(cat "$dir/server.opts")\" start >/dev/null"
    echo "export TEST_DATABASE_URL=postgres://postgres@127.0.0.1:$port/postgres"
    echo "export PG_THROWAWAY_DIR=$dir"
    ;;
  stop)
    dir=${2:?directory}
    bin=$(pg_bin)
    user=$(stat -c %U "$dir")
    as_owner "$user" "'$bin/pg_ctl' -D '$dir/data' -m fast -w stop >/dev/null" || true
    rm -rf "$dir"
    ;;
  down)
    dir=${2:?directory}
    as_owner "$(stat -c %U "$dir")" "'$(pg_bin)/pg_ctl' -D '$dir/data' -m fast -w stop >/dev/null"
    ;;
  up)
    dir=${2:?directory}
    as_owner "$(stat -c %U "$dir")" "'$(pg_bin)/pg_ctl' -D '$dir/data' -l '$dir/server.log' -w -o \"$(cat "$dir/server.opts")\" start >/dev/null"
    ;;
  *)
    echo "usage: $0 start | stop DIR | down DIR | up DIR" >&2
    exit 2
    ;;
esac
