#!/usr/bin/env bash
# Upstream round trips per second: CurlHTTPClient vs the curl CLI, against a local nginx
# (keep-alive) serving a small JSON file on 127.0.0.1. nginx runs by PID with a temp config.
# Usage: bench/bench-client.sh   (N=2000 C=64 by default; `make bench` calls it)
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-2000}
C=${C:-64}
NGINX=${NGINX:-$(command -v nginx || echo /usr/sbin/nginx)}

build_log=$(mktemp)
swift build -c release --product bench-client >"$build_log" 2>&1 || { cat "$build_log"; rm -f "$build_log"; exit 1; }
rm -f "$build_log"

tmp=$(mktemp -d)
chmod 755 "$tmp"  # nginx workers (user nobody when run as root) must read the docroot
nginx_pid=""
cleanup() {
  if [ -n "$nginx_pid" ]; then kill "$nginx_pid" 2>/dev/null || true; wait "$nginx_pid" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

port=$(python3 "$(dirname "${BASH_SOURCE[0]}")/../scripts/free_port.py" 2>/dev/null || echo 18089)
mkdir -p "$tmp/www" "$tmp/logs"
printf '{"data":{"currency":"BTC","rates":{"USD":"91234.56","EUR":"84120.10","GBP":"72011.93"}}}\n' > "$tmp/www/rates.json"
cat > "$tmp/nginx.conf" <<CONF
daemon off;
worker_processes 1;
pid $tmp/nginx.pid;
error_log $tmp/logs/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  keepalive_requests 1000000;
  keepalive_timeout 60s;
  client_body_temp_path $tmp/body;
  proxy_temp_path $tmp/proxy;
  fastcgi_temp_path $tmp/fastcgi;
  uwsgi_temp_path $tmp/uwsgi;
  scgi_temp_path $tmp/scgi;
  server {
    listen 127.0.0.1:$port;
    root $tmp/www;
    location / { default_type application/json; }
  }
}
CONF
"$NGINX" -c "$tmp/nginx.conf" -p "$tmp" 2>"$tmp/logs/stderr.log" &
nginx_pid=$!
for _ in $(seq 1 100); do
  curl -fs "http://127.0.0.1:$port/rates.json" >/dev/null 2>&1 && break
  sleep 0.05
done
url="http://127.0.0.1:$port/rates.json"

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(uname -sr)"
echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ); server: nginx $("$NGINX" -v 2>&1 | cut -d/ -f2), 1 worker; body $(wc -c <"$tmp/www/rates.json") bytes"
echo

./.build/release/bench-client "$url" "$N" "$C"

# The curl CLI doing the same in one process: a URL list via -K, sequential and --parallel.
seq_list="$tmp/seq.curl"; par_list="$tmp/par.curl"
for _ in $(seq 1 "$N"); do printf 'url = "%s"\noutput = "/dev/null"\n' "$url"; done > "$seq_list"
for _ in $(seq 1 $((N * 5 / C * C))); do printf 'url = "%s"\noutput = "/dev/null"\n' "$url"; done > "$par_list"
curl_run() {  # name requests workers args...
  local name=$1 requests=$2 workers=$3; shift 3
  local start end cpu
  TIMEFORMAT='%U %S'
  start=$(date +%s.%N)
  cpu=$( { time curl -s --no-progress-meter "$@" >/dev/null 2>&1; } 2>&1 )
  end=$(date +%s.%N)
  awk -v n="$name" -v r="$requests" -v w="$workers" -v s="$start" -v e="$end" -v c="$cpu" \
    'BEGIN { split(c, u, " "); t = e - s; printf "| %-32s | %7d | %7.3f | %9.0f | %9.1f | %8.1f |\n", n, r, t, r / t, t * w / r * 1e6, (u[1] + u[2]) / r * 1e6 }'
}
curl_run "curl CLI sequential (-K list)" "$N" 1 -K "$seq_list"
curl_run "curl CLI --parallel-max $C" $((N * 5 / C * C)) "$C" --parallel --parallel-max "$C" -K "$par_list"
