#!/usr/bin/env bash
# Runs sysbench 1.0.20's eight OLTP workloads against ShaleDB (embedded store) and a private
# MariaDB (Debian mariadb-server, default settings) on the same machine, one after the other with
# identical parameters, and prints a markdown table with TPS, p99 latency, ignored errors/s and
# the ShaleDB / MariaDB ratio. Starts and stops everything it uses.
#
#   sysbench/compare.sh [threads=8] [seconds=30] [tables=4] [table_size=100000]
#   SHALE_WORKERS=2 sysbench/compare.sh ...   # ShaleDB with `--workers 2`
#
# Needs: sysbench, mariadb-server (mariadbd, mariadb-install-db), mariadb-client; a built dist/.
set -euo pipefail
cd "$(dirname "$0")/.."
THREADS=${1:-8}
SECONDS_PER_RUN=${2:-30}
TABLES=${3:-4}
SIZE=${4:-100000}
WORKLOADS=(oltp_point_select oltp_read_only oltp_write_only oltp_read_write oltp_insert oltp_update_index oltp_update_non_index oltp_delete)
WORK=$(mktemp -d /tmp/shale-compare-XXXXXX)
SHALE_PORT=${SHALE_PORT:-4100}
MARIA_PORT=${MARIA_PORT:-3310}

cleanup() {
  [ -n "${SHALE_PID:-}" ] && kill "$SHALE_PID" 2>/dev/null && wait "$SHALE_PID" 2>/dev/null || true
  sysbench/mariadb.sh stop "$WORK/mariadb" >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT

SHALE_WORKERS=${SHALE_WORKERS:-1}
node bin/shale.js serve --port "$SHALE_PORT" --data-dir "$WORK/shale" --workers "$SHALE_WORKERS" --log-level warn 2>"$WORK/shale.log" &
SHALE_PID=$!
sysbench/mariadb.sh start "$WORK/mariadb" "$MARIA_PORT" >/dev/null
for _ in $(seq 1 100); do mariadb -h127.0.0.1 -P"$SHALE_PORT" -uroot -e 'select 1' >/dev/null 2>&1 && break; sleep 0.1; done

sb() { # server port workload command [extra...]
  local port=$1 workload=$2 cmd=$3; shift 3
  sysbench "$workload" --db-driver=mysql --mysql-host=127.0.0.1 --mysql-port="$port" --mysql-user=root \
    --mysql-db=sbtest --tables="$TABLES" --table-size="$SIZE" "$@" "$cmd"
}

declare -A TPS P99 IGN PREP
for server in shale mariadb; do
  port=$SHALE_PORT; [ "$server" = mariadb ] && port=$MARIA_PORT
  mariadb -h127.0.0.1 -P"$port" -uroot -e 'DROP DATABASE IF EXISTS sbtest; CREATE DATABASE sbtest'
  start=$(date +%s.%N)
  sb "$port" oltp_common prepare --threads="$TABLES" >"$WORK/$server.prepare.log"
  PREP[$server]=$(echo "$(date +%s.%N) - $start" | bc)
  echo "[$server] prepare: ${PREP[$server]} s" >&2
  for w in "${WORKLOADS[@]}"; do
    out=$(sb "$port" "$w" run --threads="$THREADS" --time="$SECONDS_PER_RUN" --percentile=99 --report-interval=0 2>&1) || {
      echo "[$server] $w FAILED:" >&2; echo "$out" | tail -5 >&2; TPS[$server,$w]=0; P99[$server,$w]=0; IGN[$server,$w]=0; continue; }
    TPS[$server,$w]=$(echo "$out" | awk '/transactions:/ {gsub(/\(/,"",$3); print $3}')
    P99[$server,$w]=$(echo "$out" | awk '/99th percentile:/ {print $3}')
    IGN[$server,$w]=$(echo "$out" | awk '/ignored errors:/ {gsub(/\(/,"",$4); print $4}')
    echo "[$server] $w: tps=${TPS[$server,$w]} p99=${P99[$server,$w]}ms ignored/s=${IGN[$server,$w]}" >&2
  done
  sb "$port" oltp_common cleanup >/dev/null
done

echo
echo "sysbench 1.0.20, ${TABLES}x${SIZE} rows, ${THREADS} threads, ${SECONDS_PER_RUN} s per workload, $(nproc) cores, ShaleDB --workers ${SHALE_WORKERS}"
echo
echo "| workload | ShaleDB TPS | MariaDB TPS | ratio | ShaleDB p99 ms | MariaDB p99 ms | ShaleDB ignored err/s | MariaDB ignored err/s |"
echo "|---|---|---|---|---|---|---|---|"
for w in "${WORKLOADS[@]}"; do
  ratio=$(printf '%.2f' "$(echo "scale=4; ${TPS[shale,$w]} / ${TPS[mariadb,$w]}" | bc 2>/dev/null || echo 0)")
  echo "| $w | ${TPS[shale,$w]} | ${TPS[mariadb,$w]} | $ratio | ${P99[shale,$w]} | ${P99[mariadb,$w]} | ${IGN[shale,$w]} | ${IGN[mariadb,$w]} |"
done
printf '| prepare (s) | %.1f | %.1f | %.2f | | | | |\n' "${PREP[shale]}" "${PREP[mariadb]}" "$(echo "scale=4; ${PREP[shale]} / ${PREP[mariadb]}" | bc)"
