# bench/lib.sh — helpers shared by the benchmarks (bench/*.sh) and the harness scripts
# (scripts/{demo,cluster,observability-check,schemathesis,redbot}.sh)
# Source it; it defines functions and a cleanup trap. Every process started here is
# recorded and stopped by its PID on exit (never by name).
#
# Conventions:
#   ROOT      repository root
#   WORK      a mktemp dir for this run (removed on exit unless EVIDENCE_KEEP=1)
#   STUB_PORT / APP_PORT / NGINX_PORT   ports picked free on 127.0.0.1
#   APP_PID / STUB_PID / NGINX_PID

set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/almanac-evidence.XXXXXX")"
PYTHON="${PYTHON:-python3}"
EVIDENCE_VENV_DIR="${EVIDENCE_VENV_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/almanac-evidence}"
ADMIN_TOKEN="${ADMIN_TOKEN:-evidence-admin-token}"
APP_BIN="${APP_BIN:-$ROOT/.build/release/almanac}"
_PIDS=()

log() { printf '[%s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

sudo_if_needed() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# Register a PID for cleanup.
track_pid() { _PIDS+=("$1"); }

# Stop one PID: SIGTERM, wait up to $2 seconds (default 5), then SIGKILL.
stop_pid() {
  local pid="$1" grace="${2:-5}" i
  [ -n "$pid" ] || return 0
  kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < grace * 10; i++)); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.1
  done
  log "pid $pid did not exit within ${grace}s; SIGKILL"
  kill -KILL "$pid" 2>/dev/null || true
}

_cleanup() {
  local rc=$?
  local i
  for ((i = ${#_PIDS[@]} - 1; i >= 0; i--)); do stop_pid "${_PIDS[$i]}" 3; done
  if [ "${EVIDENCE_KEEP:-0}" = 1 ]; then log "kept $WORK"; else rm -rf "$WORK"; fi
  exit "$rc"
}
trap _cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

raise_fd_limit() {
  local want="${1:-20000}" hard
  hard="$(ulimit -Hn)"
  if [ "$hard" != unlimited ] && [ "$hard" -lt "$want" ]; then want="$hard"; fi
  ulimit -n "$want" || log "could not raise fd limit to $want"
}

# A free TCP port on 127.0.0.1, outside the kernel's ephemeral range so no outgoing connection
# takes it before the server binds it (scripts/free_port.py says how).
free_port() {
  "$PYTHON" "$(dirname "${BASH_SOURCE[0]}")/../scripts/free_port.py"
}

# wait_http URL [seconds] — until the URL answers any HTTP status.
wait_http() {
  local url="$1" secs="${2:-30}" i
  for ((i = 0; i < secs * 10; i++)); do
    if curl -s -o /dev/null --max-time 1 "$url"; then return 0; fi
    sleep 0.1
  done
  return 1
}

# ---------------------------------------------------------------- tools
need_cmd() {
  # need_cmd CMD APT_PACKAGE — install with apt-get when missing.
  command -v "$1" >/dev/null 2>&1 && return 0
  log "installing $2 (for $1)"
  sudo_if_needed apt-get update -qq
  DEBIAN_FRONTEND=noninteractive sudo_if_needed apt-get install -y -qq "$2" >/dev/null
  command -v "$1" >/dev/null 2>&1 || die "$1 still missing after installing $2"
}

# venv_tool NAME PIP_SPEC — a private venv under $EVIDENCE_VENV_DIR/venv-NAME with the
# pinned package; prints the venv's bin dir. Once installed it works offline.
venv_tool() {
  local name="$1" spec="$2" venv="$EVIDENCE_VENV_DIR/venv-$1"
  if [ ! -x "$venv/bin/python" ]; then
    mkdir -p "$EVIDENCE_VENV_DIR"
    "$PYTHON" -m venv "$venv" >&2
  fi
  if ! "$venv/bin/pip" show -q "${spec%%==*}" >/dev/null 2>&1 ||
     [ "$("$venv/bin/pip" show "${spec%%==*}" 2>/dev/null | awk '/^Version:/{print $2}')" != "${spec##*==}" ]; then
    log "pip install $spec into $venv"
    "$venv/bin/pip" install -q "$spec" >&2
  fi
  echo "$venv/bin"
}

# ---------------------------------------------------------------- build
build_release() {
  if [ "${BENCH_SKIP_BUILD:-0}" = 1 ] && [ -x "$APP_BIN" ]; then return 0; fi
  log "swift build -c release"
  (cd "$ROOT" && make -s deps >/dev/null 2>&1 || true)
  (cd "$ROOT" && swift build -c release >"$WORK/build.log" 2>&1) || {
    tail -40 "$WORK/build.log" >&2; die "release build failed"; }
  [ -x "$APP_BIN" ] || die "no binary at $APP_BIN"
}

# ---------------------------------------------------------------- stub upstream
# start_stub [extra args...] — sets STUB_PORT, STUB_PID, STUB.
start_stub() {
  STUB_PORT="$(free_port)"
  "$PYTHON" "$ROOT/scripts/stub_upstream.py" --port "$STUB_PORT" "$@" \
    >"$WORK/stub.log" 2>&1 &
  STUB_PID=$!
  track_pid "$STUB_PID"
  STUB="http://127.0.0.1:$STUB_PORT"
  wait_http "$STUB/__stats" 15 || { cat "$WORK/stub.log" >&2; die "stub upstream did not start"; }
}

stub_fault() { curl -s -X POST "$STUB/__fault?mode=$1${2:+&$2}" >/dev/null; }
stub_stats() { curl -s "$STUB/__stats"; }
stub_reset() { curl -s -X POST "$STUB/__reset" >/dev/null; }

# ---------------------------------------------------------------- almanac
# almanac_env — environment pointing every provider at the stub, quiet logs.
# Callers may export extra ALMANAC_* before start_almanac to override.
almanac_env() {
  export ALMANAC_SERVER_HOST=127.0.0.1
  export ALMANAC_SERVER_PORT="$APP_PORT"
  export ALMANAC_SERVER_ADMIN_TOKEN="$ADMIN_TOKEN"
  export ALMANAC_LOG_LEVEL="${ALMANAC_LOG_LEVEL:-error}"
  export ALMANAC_RATES_PROVIDERS="${ALMANAC_RATES_PROVIDERS:-coinbase,coingecko}"
  # Every registered provider's location keys (covers included) at the stub: the list is the
  # binary's own (`almanac check-config --providers`), so a new provider is wired with no edit.
  # The stub's tickers quote coinbase's table, so the price index is on in every run as in production.
  local var
  load_provider_listing
  for var in $(provider_vars baseUrlEnv); do export "$var=$STUB"; done
  export ALMANAC_UPSTREAM_USER_AGENT="${ALMANAC_UPSTREAM_USER_AGENT:-almanac-evidence (+https://example.invalid/almanac)}"
  unset ALMANAC_CONFIG PORT || true
}

# load_provider_listing — PROVIDER_LISTING: every provider the binary registers, one JSON
# object a line (`$APP_BIN check-config --providers`). Read once per run, in this shell (not
# in a `$(…)`, which would forget it): profile-hit later wraps the binary in valgrind.
PROVIDER_LISTING=""
load_provider_listing() {
  [ -n "$PROVIDER_LISTING" ] && return 0
  PROVIDER_LISTING="$("$APP_BIN" check-config --providers)" || die "$APP_BIN check-config --providers failed"
  [ -n "$PROVIDER_LISTING" ] || die "$APP_BIN check-config --providers listed no provider"
}

# provider_vars FIELD — the environment variables FIELD (baseUrlEnv or budgetEnv) of every
# provider in PROVIDER_LISTING (load_provider_listing first), one a line.
provider_vars() {
  printf '%s\n' "$PROVIDER_LISTING" | python3 -c '
import json, sys
field = sys.argv[1]
for line in sys.stdin:
    if line.strip():
        value = json.loads(line)[field]
        for name in (value if isinstance(value, list) else [value]):
            print(name)
' "$1"
}

# unbudget_providers NAME… — no request budget for these providers (RATES_COINBASE,
# BOOKS_GOOGLE_BOOKS, …), unless the caller set one: the stub is no real provider, and its
# published limits (Google Books: 1 a second) would turn a run's load into the steward's 503s.
unbudget_providers() {
  local provider var
  for provider in "$@"; do
    var="ALMANAC_${provider}_MAX_REQUESTS_PER_SECOND"
    export "$var=${!var:-0}"
  done
}

# unbudget_all_providers — unbudget_providers for every provider the binary registers.
unbudget_all_providers() {
  local var
  load_provider_listing
  for var in $(provider_vars budgetEnv); do export "$var=${!var:-0}"; done
}

# start_almanac — sets APP_PORT, APP_PID, ALMANAC. stdout (access log) goes to
# $APP_STDOUT (default /dev/null), stderr to $APP_STDERR (default $WORK/almanac.err).
# ALMANAC_FIXED_PORT: listen there instead of on a free port (make demo's 8080).
start_almanac() {
  APP_PORT="${ALMANAC_FIXED_PORT:-$(free_port)}"
  APP="http://127.0.0.1:$APP_PORT"
  local err="${APP_STDERR:-$WORK/almanac.err}"
  almanac_env
  "$APP_BIN" serve >"${APP_STDOUT:-/dev/null}" 2>"$err" &
  APP_PID=$!
  track_pid "$APP_PID"
  if ! wait_http "$APP/healthz" 30; then
    tail -30 "$err" >&2
    die "almanac did not answer /healthz"
  fi
}

# ---------------------------------------------------------------- a cluster: redis + replicas
# redis_ping PORT — true when a Redis on 127.0.0.1:PORT answers PING (bash /dev/tcp, no client).
redis_ping() {
  local reply=""
  { exec 3<>"/dev/tcp/127.0.0.1/$1"; } 2>/dev/null || return 1
  printf 'PING\r\n' >&3
  read -r -t 1 reply <&3 || true
  exec 3<&- 3>&-
  [ "${reply%$'\r'}" = "+PONG" ]
}

# start_redis — redis-server on 127.0.0.1:$REDIS_PORT (a free port unless set: a restart keeps
# it), persistence off, stopped by PID on exit. Sets REDIS_PORT, REDIS_PID, REDIS_URL.
start_redis() {
  need_cmd redis-server redis-server
  REDIS_PORT="${REDIS_PORT:-$(free_port)}"
  REDIS_URL="redis://127.0.0.1:$REDIS_PORT"
  redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save "" --appendonly no --daemonize no \
    --dir "$WORK" --loglevel warning >>"$WORK/redis.log" 2>&1 &
  REDIS_PID=$!
  track_pid "$REDIS_PID"
  local i
  for ((i = 0; i < 100; i++)); do
    redis_ping "$REDIS_PORT" && return 0
    sleep 0.1
  done
  tail -20 "$WORK/redis.log" >&2
  die "redis-server did not answer PING on port $REDIS_PORT"
}

# start_replicas N — N almanac processes (start_almanac each, free ports) sharing $REDIS_URL as
# their second cache layer. Sets REPLICA_PORTS, REPLICA_PIDS (arrays, replica i at index i-1);
# replica i logs to $WORK/replica-i.out (access log, with APP_STDOUT unset) and .err.
start_replicas() {
  local n="$1" i
  REPLICA_PORTS=(); REPLICA_PIDS=()
  export ALMANAC_CACHE_REDIS_URL="$REDIS_URL"
  for ((i = 1; i <= n; i++)); do
    APP_STDOUT="${APP_STDOUT:-$WORK/replica-$i.out}" APP_STDERR="$WORK/replica-$i.err" start_almanac
    REPLICA_PORTS+=("$APP_PORT"); REPLICA_PIDS+=("$APP_PID")
  done
}

# render_lb_config OUT LB_PORT PORT... — deploy/nginx.conf (what compose runs) for this machine:
# `listen 127.0.0.1:LB_PORT`, replica i at 127.0.0.1:PORT_i, temp files under OUT's directory.
# Fails when the file no longer has the lines it rewrites, so the two cannot drift apart.
render_lb_config() {
  local out="$1" lb="$2" dir i=1 port
  shift 2
  mkdir -p "$(dirname "$out")"
  dir="$(cd "$(dirname "$out")" && pwd)"
  mkdir -p "$dir/tmp" "$dir/logs"
  local args=(-e "s|^\([[:space:]]*\)listen 8080;|\1listen 127.0.0.1:$lb;|"
              -e "s|^http {|http {\n  client_body_temp_path $dir/tmp/body;\n  proxy_temp_path $dir/tmp/proxy;\n  fastcgi_temp_path $dir/tmp/fastcgi;\n  uwsgi_temp_path $dir/tmp/uwsgi;\n  scgi_temp_path $dir/tmp/scgi;|")
  for port in "$@"; do
    args+=(-e "s|server almanac$i:8080 |server 127.0.0.1:$port |")
    i=$((i + 1))
  done
  sed "${args[@]}" "$ROOT/deploy/nginx.conf" >"$out"
  grep -q "listen 127.0.0.1:$lb;" "$out" || die "deploy/nginx.conf: no 'listen 8080;' line to rewrite"
  ! grep -Eq "server almanac[0-9]+:8080" "$out" || die "deploy/nginx.conf names more replicas than were started"
  [ "$(grep -c "server 127.0.0.1:" "$out")" = "$#" ] || die "deploy/nginx.conf does not name $# replicas"
}

# nginx_check DIR CONF — `nginx -t` on CONF with prefix DIR (error log DIR/logs/error.log).
nginx_check() {
  nginx -t -q -e "$1/logs/error.log" -p "$1" -c "$2" -g "pid $1/nginx.pid;" 2>"$1/logs/test.log" ||
    { cat "$1/logs/test.log" >&2; die "nginx config test failed: $2"; }
}

# run_nginx DIR CONF URL — checks CONF, starts nginx in the foreground of a background job
# (prefix DIR, pid file DIR/nginx.pid), waits until URL answers. Sets NGINX_PID (master).
run_nginx() {
  local dir="$1" conf="$2" url="$3"
  need_cmd nginx nginx-light
  # Workers run as an unprivileged user when the master is root: let them reach the files.
  chmod 711 "$WORK"; chmod -R a+rX "$dir"
  nginx_check "$dir" "$conf"
  nginx -e "$dir/logs/error.log" -p "$dir" -c "$conf" -g "pid $dir/nginx.pid; daemon off;" 2>>"$dir/logs/error.log" &
  NGINX_PID=$!
  track_pid "$NGINX_PID"
  wait_http "$url" 10 || { cat "$dir/logs/error.log" >&2; die "nginx did not start"; }
}

admin() { # admin METHOD PATH
  curl -s -o /dev/null -w '%{http_code}' -X "$1" -H "Authorization: Bearer $ADMIN_TOKEN" "$APP$2"
}

proc_status() { # proc_status PID FIELD -> value in kB (or empty)
  awk -v f="$2:" '$1 == f {print $2}' "/proc/$1/status" 2>/dev/null || true
}
fd_count() { ls "/proc/$1/fd" 2>/dev/null | wc -l; }

# Report plumbing shared by the evidence scripts: `report_init NAME` sets OUT (the saved report,
# bench-results/NAME-<UTC stamp>.md) and REPORT (the working copy in the temp dir); `emit` appends
# a line to it; `J EXPR` prints a Python expression over the JSON document on stdin (as `d`).
report_init() {
  mkdir -p "$ROOT/bench-results"
  OUT="$ROOT/bench-results/$1-$(date -u +%Y%m%dT%H%M%SZ).md"
  REPORT="$WORK/report.md"
}
emit() { printf '%s\n' "$*" >>"$REPORT"; }
J() { "$PYTHON" -c "import json,sys; d=json.load(sys.stdin); print($1)"; }

machine_header() {
  local cpu
  cpu="$(awk -F': ' '/^model name/{print $2; exit}' /proc/cpuinfo)"
  echo "- date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "- machine: $(nproc) cores ($cpu), $(awk '/MemTotal/{printf "%.1f GiB", $2/1048576}' /proc/meminfo) RAM, $(uname -sr)"
  echo "- load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "- commit: $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)"
}

# ---------------------------------------------------------------- nginx
# start_nginx BODY_FILE CONTENT_TYPE URL_PATH — serves those exact bytes at URL_PATH
# (and at /) with worker_processes = $NGINX_WORKERS (default 2), worker_connections =
# $NGINX_WORKER_CONNECTIONS (default 16384), error_log level $NGINX_ERROR_LOG_LEVEL (default
# error; its log is $WORK/nginx/logs/error.log). Sets NGINX_PORT, NGINX_PID (master), NGINX.
start_nginx() {
  local body="$1" ctype="$2" urlpath="$3" dir="$WORK/nginx"
  mkdir -p "$dir/www$(dirname "$urlpath")" "$dir/tmp" "$dir/logs"
  cp "$body" "$dir/www$urlpath"
  NGINX_PORT="$(free_port)"
  NGINX="http://127.0.0.1:$NGINX_PORT"
  cat >"$dir/nginx.conf" <<NGX
worker_processes ${NGINX_WORKERS:-2};
worker_rlimit_nofile 20000;
error_log $dir/logs/error.log ${NGINX_ERROR_LOG_LEVEL:-error};
events { worker_connections ${NGINX_WORKER_CONNECTIONS:-16384}; multi_accept on; }
http {
  access_log ${NGINX_ACCESS_LOG:-off};
  client_body_temp_path $dir/tmp/body;
  proxy_temp_path $dir/tmp/proxy;
  fastcgi_temp_path $dir/tmp/fastcgi;
  uwsgi_temp_path $dir/tmp/uwsgi;
  scgi_temp_path $dir/tmp/scgi;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  keepalive_timeout 600s;
  server_tokens off;
  types { }
  default_type "$ctype";
  server {
    listen 127.0.0.1:$NGINX_PORT reuseport backlog=4096;
    root $dir/www;
    location = / { try_files $urlpath =404; }
  }
}
NGX
  run_nginx "$dir" "$dir/nginx.conf" "$NGINX$urlpath"
}

nginx_pids() { # master + workers
  echo "$NGINX_PID"
  cat "/proc/$NGINX_PID/task/$NGINX_PID/children" 2>/dev/null | tr ' ' '\n' | grep -v '^$' || true
}

# ---------------------------------------------------------------- the floor
# start_floor RESPONSE_FILE — builds bench/floor.c with cc (into $WORK) and runs it with
# $FLOOR_WORKERS (default 2) forked workers, answering every request with RESPONSE_FILE's
# bytes (a whole HTTP response). Sets FLOOR_PORT, FLOOR_PID (the parent; its workers die
# with it), FLOOR.
start_floor() {
  need_cmd cc gcc
  cc -O2 -Wall -Wextra -Werror -o "$WORK/floor" "$ROOT/bench/floor.c" || die "cannot build bench/floor.c"
  FLOOR_PORT="$(free_port)"
  FLOOR="http://127.0.0.1:$FLOOR_PORT"
  "$WORK/floor" "$FLOOR_PORT" "$1" "${FLOOR_WORKERS:-2}" 2>"$WORK/floor.err" &
  FLOOR_PID=$!
  track_pid "$FLOOR_PID"
  wait_http "$FLOOR/" 10 || { cat "$WORK/floor.err" >&2; die "the floor did not start"; }
}

# process_tree PID — PID and its direct children (nginx's workers, the floor's workers).
process_tree() {
  echo "$1"
  cat /proc/"$1"/task/*/children 2>/dev/null | tr ' ' '\n' | grep -v '^$' || true
}

# cpu_ticks PID... — user + system CPU time of those processes (every thread), summed, in
# clock ticks (`getconf CLK_TCK` a second), from /proc/PID/stat fields 14 and 15.
cpu_ticks() {
  local total=0 pid fields
  for pid in "$@"; do
    # The command name (field 2) may hold spaces: count fields after its closing ")".
    fields="$(sed 's/^.*) //' "/proc/$pid/stat" 2>/dev/null)" || continue
    [ -n "$fields" ] || continue
    total=$((total + $(echo "$fields" | awk '{print $12 + $13}')))
  done
  echo "$total"
}
