#!/usr/bin/env bash
# Alternating A/B runs of one sysbench workload on two ShaleDB builds, for changes too small for
# the harness (npm run bench) to resolve. Each run gets a fresh copy of one prepared data
# directory and a server of its own, so the builds see the same data; the runs alternate A, B,
# A, B... so that the machine's drift hits both.
#
#   sysbench/ab.sh prepare DIR                     # 4 sysbench tables × ROWS rows into a new DIR
#   sysbench/ab.sh run DIR ROOT_A ROOT_B WORKLOAD  # TPS of each run, then each build's median
#
# ROOT_A / ROOT_B: checkouts with `npm run build` done (e.g. `git worktree add /tmp/a main`, a
# `node_modules` symlink to this checkout's, `npm run build`). Environment (defaults shown):
#   PAIRS=3 TIME=10 THREADS=8 WORKERS=2   runs per build, seconds per run, sysbench threads, --workers
#   WARM=4     seconds of the same workload first on each server, not counted: a fresh server's
#              first seconds run slower (each worker maps the store anew)
#   PORT=4590  the server's port on 127.0.0.1
#   ROWS=100000  rows per table (prepare and run must agree)
#   SBARGS=""  more sysbench options for the runs, e.g. "--point-selects=0" (split at spaces)
#
# Needs: sysbench, mariadb-client. Stops the servers it started, also when interrupted.
set -euo pipefail
cd "$(dirname "$0")/.."
PAIRS=${PAIRS:-3} TIME=${TIME:-10} THREADS=${THREADS:-8} WORKERS=${WORKERS:-2} WARM=${WARM:-4} PORT=${PORT:-4590} ROWS=${ROWS:-100000}
SB=(--db-driver=mysql --mysql-host=127.0.0.1 "--mysql-port=$PORT" --mysql-user=root --mysql-db=sbtest --tables=4 "--table-size=$ROWS")
server="" RESULT="" COPY=""

# Stops the server (if one runs) and removes the copy (if one exists); also on exit.
cleanup() {
  if [ -n "$server" ]; then
    kill -INT "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
    server=""
  fi
  if [ -n "$COPY" ]; then
    rm -rf "$COPY" "$COPY.log"
    COPY=""
  fi
}
trap cleanup EXIT

start() { # ROOT DIR
  if (: <>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then
    echo "ab.sh: something already listens on port $PORT (set PORT)" >&2
    exit 1
  fi
  node "$1/bin/shale.js" serve --host 127.0.0.1 --port "$PORT" --data-dir "$2" --workers "$WORKERS" --log-level warn 2>>"$2.log" &
  server=$!
  for _ in $(seq 1 150); do
    kill -0 "$server" 2>/dev/null || { server=""; echo "ab.sh: the server exited; see $2.log" >&2; exit 1; }
    mariadb -h127.0.0.1 -P"$PORT" -uroot -e 'select 1' >/dev/null 2>&1 && return 0
    sleep 0.2
  done
  echo "ab.sh: the server did not start; see $2.log" >&2
  exit 1
}

tps() { # ROOT BASE WORKLOAD: one run on a copy of BASE; sets RESULT to its TPS
  COPY=$(mktemp -d /tmp/shale-ab.XXXXXX)
  rm -rf "$COPY" && cp -a "$2" "$COPY"
  start "$1" "$COPY"
  local extra
  read -r -a extra <<<"${SBARGS:-}"
  if [ "$WARM" -gt 0 ]; then sysbench "$3" "${SB[@]}" "${extra[@]}" --threads="$THREADS" --time="$WARM" run >/dev/null; fi
  RESULT=$(sysbench "$3" "${SB[@]}" "${extra[@]}" --threads="$THREADS" --time="$TIME" run | awk '/transactions:/ { gsub(/\(/, "", $3); print $3 }')
  cleanup
}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

case "${1:-}" in
  prepare)
    dir=${2:?usage: sysbench/ab.sh prepare DIR}
    [ -e "$dir" ] && { echo "ab.sh: $dir exists" >&2; exit 1; }
    start . "$dir"
    mariadb -h127.0.0.1 -P"$PORT" -uroot -e 'CREATE DATABASE sbtest'
    sysbench oltp_common "${SB[@]}" --threads=4 prepare >/dev/null
    cleanup
    echo "prepared $dir"
    ;;
  run)
    [ $# -eq 5 ] || { echo 'usage: sysbench/ab.sh run DIR ROOT_A ROOT_B WORKLOAD' >&2; exit 1; }
    a=() b=()
    for i in $(seq 1 "$PAIRS"); do
      tps "$3" "$2" "$5"
      a+=("$RESULT")
      tps "$4" "$2" "$5"
      b+=("$RESULT")
      echo "pair $i: A ${a[-1]}  B ${b[-1]}"
    done
    echo "$5, median TPS: A $(printf '%s\n' "${a[@]}" | median)  B $(printf '%s\n' "${b[@]}" | median)"
    ;;
  *)
    awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
    exit 1
    ;;
esac
