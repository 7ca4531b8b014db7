#!/usr/bin/env bash
# Installs the Debian packages the test suite drives (sysbench, the mysql/mariadb CLI, etcd and
# HAProxy for the etcd store and `shale cluster up`, MariaDB's server as the reference) if missing.
# Runs apt-get as root; otherwise prints the command to run.
# Note: on machines with systemd, Debian's etcd-server package also starts an etcd service on
# 127.0.0.1:2379; the tests never use default ports, so it does not get in their way.
set -euo pipefail
need=()
command -v sysbench >/dev/null 2>&1 || need+=(sysbench)
command -v mariadb >/dev/null 2>&1 || need+=(mariadb-client)
command -v etcd >/dev/null 2>&1 || need+=(etcd-server)
# mariadbd: the reference server of `npm run bench`, its smoke test and the dump round trip.
command -v mariadbd >/dev/null 2>&1 || [ -x /usr/sbin/mariadbd ] || need+=(mariadb-server)
command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ] || need+=(haproxy)
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "missing: ${need[*]}; install with: sudo apt-get install -y ${need[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq "${need[@]}"
