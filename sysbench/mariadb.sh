#!/usr/bin/env bash
# Starts or stops a private MariaDB (Debian mariadb-server, default settings, durable commits)
# on 127.0.0.1 with its own data directory, for side-by-side comparisons and behaviour checks.
#   sysbench/mariadb.sh start <datadir> <port>
#   sysbench/mariadb.sh stop  <datadir>
set -euo pipefail
cmd=${1:?start|stop}
datadir=$(realpath -m "${2:?datadir}")
port=${3:-3307}
case "$cmd" in
  start)
    mkdir -p "$datadir"
    if [ ! -d "$datadir/mysql" ]; then
      mariadb-install-db --no-defaults --datadir="$datadir" --user="$(id -un)" \
        --auth-root-authentication-method=normal >"$datadir.install.log" 2>&1
    fi
    mariadbd --no-defaults --datadir="$datadir" --port="$port" --bind-address=127.0.0.1 \
      --socket="$datadir/mysqld.sock" --pid-file="$datadir/mysqld.pid" --user="$(id -un)" \
      --log-error="$datadir.err.log" &
    for _ in $(seq 1 100); do
      if mariadb -h127.0.0.1 -P"$port" -uroot -e 'select 1' >/dev/null 2>&1; then exit 0; fi
      sleep 0.2
    done
    echo "mariadb did not start; see $datadir.err.log" >&2
    exit 1
    ;;
  stop)
    if [ -f "$datadir/mysqld.pid" ]; then
      pid=$(cat "$datadir/mysqld.pid")
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || exit 0; sleep 0.2; done
      kill -9 "$pid" 2>/dev/null || true
    fi
    ;;
  *) echo "usage: $0 start|stop <datadir> [port]" >&2; exit 2 ;;
esac
