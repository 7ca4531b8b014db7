#!/usr/bin/env bash
# Runs sysbench 1.0.20's eight OLTP workloads against a local ShaleDB cluster (`shale cluster up`:
# 3 etcd members, 2 SQL nodes, HAProxy in front) through HAProxy, then measures raw etcd on the
# same members at the same concurrency (sysbench/etcd-raw.ts: 1-key snapshot Range, 4-key commit
# Txn), and writes a markdown table with both and their ratios to
# sysbench/results/cluster-<date>.md. Always stops the cluster at exit.
#
#   sysbench/cluster.sh [threads=8] [seconds=30] [tables=4] [table_size=10000]
#   KEEP_WORK=1 sysbench/cluster.sh ...   # keep the cluster's data and logs (path printed at exit)
#   RAW_KEYS=10000 RAW_VALUE=200          # raw etcd key count and value size (defaults shown)
#   RESULTS_FILE=/tmp/x.md                # write the table there instead of sysbench/results/
#
# Needs: sysbench, mariadb-client, etcd, haproxy, jq, ss, bc; npm dependencies installed.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=lib/parse.sh
source sysbench/lib/parse.sh
THREADS=${1:-8}
SECONDS_PER_RUN=${2:-30}
TABLES=${3:-4}
SIZE=${4:-10000}
RAW_KEYS=${RAW_KEYS:-10000}
RAW_VALUE=${RAW_VALUE:-200}
WORKLOADS=(oltp_point_select oltp_read_only oltp_write_only oltp_read_write oltp_insert oltp_update_index oltp_update_non_index oltp_delete)
# Which ratio applies: a workload that commits writes is compared with raw 4-key Txns, one that
# reads with raw Ranges (oltp_read_write with both).
declare -A WRITES=([oltp_write_only]=1 [oltp_read_write]=1 [oltp_insert]=1 [oltp_update_index]=1 [oltp_update_non_index]=1 [oltp_delete]=1)
declare -A READS=([oltp_point_select]=1 [oltp_read_only]=1 [oltp_read_write]=1)
WORK=$(mktemp -d /tmp/shale-cluster-bench-XXXXXX)
CDIR=$WORK/cluster
FAILED=0
FAILURES=()

cleanup() {
  if [ -f "$CDIR/cluster.json" ]; then
    node bin/shale.js cluster down --dir "$CDIR" --keep-data >&2 || echo "cluster down failed (see $CDIR)" >&2
  fi
  if [ "$FAILED" = 1 ] || [ "${KEEP_WORK:-0}" = 1 ]; then
    echo "cluster data and logs kept in $CDIR" >&2
  else
    rm -rf "$WORK"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ ! -f dist/main.js ] || [ -n "$(find src -newer dist/main.js -print -quit)" ]; then npm run build >&2; fi

# Ports: etcd members at base, base+100, base+200 (peers one above), nodes at nbase, nbase+1, HAProxy
# at hport; all below Linux's ephemeral range (32768+) and checked free.
port_free() { [ -z "$(ss -Hltn "sport = :$1")" ]; }
pick_ports() {
  local eb nb hp p ok
  for _ in $(seq 1 100); do
    eb=$((20000 + (RANDOM % 80) * 100)); nb=$((14000 + RANDOM % 5000)); hp=$((19100 + RANDOM % 800))
    ok=1
    for p in $eb $((eb + 1)) $((eb + 100)) $((eb + 101)) $((eb + 200)) $((eb + 201)) $nb $((nb + 1)) $hp; do
      port_free "$p" || { ok=0; break; }
    done
    [ "$ok" = 1 ] && { echo "$eb $nb $hp"; return 0; }
  done
  echo "no free ports found" >&2
  return 1
}
PORTS=$(pick_ports)
read -r ETCD_BASE NODE_BASE PORT <<<"$PORTS"
LOAD_AT_START=$(cut -d' ' -f1-3 /proc/loadavg)

echo "[cluster] up: etcd $ETCD_BASE/+100/+200, nodes $NODE_BASE/+1, haproxy $PORT, dir $CDIR" >&2
node bin/shale.js cluster up --dir "$CDIR" --etcd-members 3 --nodes 2 --port "$PORT" \
  --node-base-port "$NODE_BASE" --etcd-base-port "$ETCD_BASE" --log-level warn >&2
for _ in $(seq 1 100); do mariadb -h127.0.0.1 -P"$PORT" -uroot -e 'select 1' >/dev/null 2>&1 && break; sleep 0.2; done
ENDPOINTS=$(jq -r '[.etcd[] | "127.0.0.1:\(.clientPort)"] | join(",")' "$CDIR/cluster.json")

sb() { # workload command [extra...]; killed if it outlives its run by 120 s (a hung server)
  local workload=$1 cmd=$2 limit=$((SECONDS_PER_RUN + 120)); shift 2
  [ "$cmd" = run ] || limit=3600
  timeout -k 10 "$limit" sysbench "$workload" --db-driver=mysql --mysql-host=127.0.0.1 --mysql-port="$PORT" \
    --mysql-user=root --mysql-db=sbtest --tables="$TABLES" --table-size="$SIZE" "$@" "$cmd"
}

fail() { # what output-tail
  FAILED=1
  FAILURES+=("$1: $2")
  echo "[shale] $1 FAILED:" >&2; echo "$2" >&2
}

declare -A TPS QPS P99 IGN
mariadb -h127.0.0.1 -P"$PORT" -uroot -e 'DROP DATABASE IF EXISTS sbtest; CREATE DATABASE sbtest'
start=$(date +%s.%N)
if out=$(sb oltp_common prepare --threads="$TABLES" 2>&1); then
  PREP=$(printf '%.1f' "$(echo "$(date +%s.%N) - $start" | bc)")
  echo "[shale] prepare: $PREP s" >&2
else
  rc=$?; PREP="failed"; fail "prepare (exit $rc)" "$(echo "$out" | tail -5)"
fi
for w in "${WORKLOADS[@]}"; do
  if out=$(sb "$w" run --threads="$THREADS" --time="$SECONDS_PER_RUN" --percentile=99 --report-interval=0 2>&1); then
    TPS[$w]=$(echo "$out" | sb_tps); QPS[$w]=$(echo "$out" | sb_qps)
    P99[$w]=$(echo "$out" | sb_p99); IGN[$w]=$(echo "$out" | sb_ignored)
    echo "[shale] $w: tps=${TPS[$w]} qps=${QPS[$w]} p99=${P99[$w]}ms ignored/s=${IGN[$w]}" >&2
  else
    rc=$?; TPS[$w]=0; QPS[$w]=0; P99[$w]=0; IGN[$w]=0
    what="$w (exit $rc)"; [ "$rc" = 124 ] && what="$w (hung: killed after $((SECONDS_PER_RUN + 120)) s)"
    fail "$what" "$(echo "$out" | tail -5)"
  fi
done

echo "[etcd] raw: $ENDPOINTS, concurrency $THREADS, $SECONDS_PER_RUN s per op" >&2
node_modules/.bin/tsx sysbench/etcd-raw.ts --endpoints "$ENDPOINTS" --concurrency "$THREADS" \
  --duration "$SECONDS_PER_RUN" --keys "$RAW_KEYS" --value-size "$RAW_VALUE" --json >"$WORK/raw.json"
RAW_RANGE=$(jq -r '.range.opsPerSec | . * 100 | round / 100' "$WORK/raw.json")
RAW_TXN=$(jq -r '.txn.opsPerSec | . * 100 | round / 100' "$WORK/raw.json")
raw_row() { jq -r --arg op "$1" --arg k "$2" '.[$k] | "| \($op) | \(.opsPerSec * 10 | round / 10) | \(.p50Ms * 100 | round / 100) | \(.p99Ms * 100 | round / 100) | \(.errors) |"' "$WORK/raw.json"; }
RAW_LEADER=$(jq -r 'if .leaderFound then "the leader (\(.target))" else "\(.target) (no leader found)" end' "$WORK/raw.json")
RAW_CONFLICTS=$(jq -r '"\(.txn.conflicts) of \(.txn.ops) Txns failed their compare (conflicts, counted in ops/s); \(.txn.committedPerSec * 10 | round / 10) commits/s"' "$WORK/raw.json")
echo "[etcd] range=$RAW_RANGE ops/s txn=$RAW_TXN ops/s" >&2

sb oltp_common cleanup >/dev/null 2>&1 || fail "cleanup" "sysbench oltp_common cleanup failed"
STATUS=$(node bin/shale.js cluster status --dir "$CDIR" 2>&1) || fail "cluster status after the run" "$STATUS"
LOAD_AT_END=$(cut -d' ' -f1-3 /proc/loadavg)
NODE_ERRORS=$(cat "$CDIR"/logs/node-*.log 2>/dev/null | grep -cE '"level":(50|60)' || true)

DATE=$(date +%F)
OUT=${RESULTS_FILE:-sysbench/results/cluster-$DATE.md}
[ -z "${RESULTS_FILE:-}" ] && [ -e "$OUT" ] && OUT=sysbench/results/cluster-$DATE-$(date +%H%M).md
{
  echo "# ShaleDB cluster on etcd vs raw etcd ($DATE)"
  echo
  echo "Command: \`sysbench/cluster.sh $THREADS $SECONDS_PER_RUN $TABLES $SIZE\`. \`shale cluster up\`: 3 etcd members ($(etcd --version | awk '/etcd Version/ {print $3}')), 2 SQL nodes (\`--workers 1\`), $(haproxy -v | awk 'NR==1 {print $1, $2, $3}') in front; sysbench 1.0.20 through HAProxy; then \`sysbench/etcd-raw.ts\` against the same etcd members at the same concurrency (requests to the leader, as ShaleDB sends them). Everything on one machine: $(nproc) cores, load average (1/5/15 min) $LOAD_AT_START at start, $LOAD_AT_END at the end."
  echo
  echo "## Raw etcd ($THREADS concurrent requests, $SECONDS_PER_RUN s per op, $RAW_KEYS keys x $RAW_VALUE B, to $RAW_LEADER)"
  echo
  echo "| op | ops/s | p50 ms | p99 ms | errors |"
  echo "|---|---|---|---|---|"
  raw_row "Range of 1 random key at a fixed revision, serializable (a snapshot read)" range
  raw_row "Txn: 4 random keys' mod_revision < read revision + 1, then put the 4 (a 4-key commit)" txn
  echo
  echo "Txn: $RAW_CONFLICTS."
  echo
  echo "## sysbench through HAProxy"
  echo
  echo "sysbench 1.0.20, ${TABLES}x${SIZE} rows, ${THREADS} threads, ${SECONDS_PER_RUN} s per workload, prepare ${PREP} s."
  echo
  echo "Ratios: **TPS ÷ raw Txn** = ShaleDB transactions/s over raw etcd 4-key Txns/s (every ShaleDB write transaction commits with one etcd Txn; 1.00 = as fast as etcd alone commits at this concurrency), shown for workloads that write. **QPS ÷ raw Range** = ShaleDB statements/s (incl. BEGIN/COMMIT) over raw etcd 1-key snapshot Ranges/s (each ShaleDB read needs at least one etcd Range), shown for workloads that read."
  echo
  echo "| workload | TPS | QPS | p99 ms | ignored err/s | raw etcd Txn ops/s | TPS ÷ raw Txn | raw etcd Range ops/s | QPS ÷ raw Range |"
  echo "|---|---|---|---|---|---|---|---|---|"
  for w in "${WORKLOADS[@]}"; do
    wt='' wr='' rt='' rr=''
    [ -n "${WRITES[$w]:-}" ] && { wt=$RAW_TXN; wr=$(ratio "${TPS[$w]}" "$RAW_TXN"); }
    [ -n "${READS[$w]:-}" ] && { rt=$RAW_RANGE; rr=$(ratio "${QPS[$w]}" "$RAW_RANGE"); }
    echo "| $w | ${TPS[$w]} | ${QPS[$w]} | ${P99[$w]} | ${IGN[$w]} | $wt | $wr | $rt | $rr |"
  done
  echo
  echo "SQL node log lines at level error/fatal: $NODE_ERRORS."
  if [ "${#FAILURES[@]}" -gt 0 ]; then
    echo
    echo "## Failures"
    echo
    for f in "${FAILURES[@]}"; do echo '```'; echo "$f"; echo '```'; done
  fi
} >"$OUT"
echo >&2
cat "$OUT"
echo >&2
echo "written to $OUT" >&2
