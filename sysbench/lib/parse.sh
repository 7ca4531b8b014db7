# shellcheck shell=bash
# Numbers from sysbench 1.0.20's `run` report (the same awk expressions as compare.sh), for
# scripts that `source` this file. Each function reads the report on stdin and prints one number.
#
#   transactions:                        1234   (41.12 per sec.)   -> sb_tps  41.12
#   queries:                             24680  (822.40 per sec.)  -> sb_qps  822.40
#   ignored errors:                      3      (0.10 per sec.)    -> sb_ignored 0.10
#        99th percentile:                        68.05             -> sb_p99  68.05

sb_tps() { awk '/transactions:/ {gsub(/\(/,"",$3); print $3}'; }
sb_qps() { awk '/^ *queries:/ {gsub(/\(/,"",$3); print $3}'; }
sb_p99() { awk '/99th percentile:/ {print $3}'; }
sb_ignored() { awk '/ignored errors:/ {gsub(/\(/,"",$4); print $4}'; }

# ratio a b: a / b with two decimals, or "-" when b is 0 or either is missing.
ratio() {
  local a=${1:-} b=${2:-}
  if [ -z "$a" ] || [ -z "$b" ] || [ "$(echo "$b == 0" | bc)" = 1 ]; then echo '-'; return; fi
  printf '%.2f' "$(echo "scale=4; $a / $b" | bc)"
}
