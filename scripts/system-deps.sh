#!/usr/bin/env bash
# Installs the Debian packages the test suite drives (sysbench, the mysql/mariadb CLI) if missing.
# Runs apt-get as root; otherwise prints the command to run.
set -euo pipefail
need=()
command -v sysbench >/dev/null 2>&1 || need+=(sysbench)
command -v mariadb >/dev/null 2>&1 || need+=(mariadb-client)
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "missing: ${need[*]}; install with: sudo apt-get install -y ${need[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq "${need[@]}"
