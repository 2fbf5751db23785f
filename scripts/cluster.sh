#!/usr/bin/env bash
# scripts/cluster.sh — `make cluster`: the topology of deploy/compose.yaml as processes on this
# machine, all on 127.0.0.1: redis-server, three almanac replicas sharing it as their second
# cache layer, and nginx in front with deploy/nginx.conf (the same file compose mounts, only
# its addresses rewritten), every provider at the stub upstream of `make demo`.
#
#   make cluster                            build, then serve http://localhost:8080 until Ctrl-C
#   CLUSTER_PORT=9090 make cluster          another port for the load balancer
#   CLUSTER_REPLICAS=5 make cluster         another number of replicas (deploy/nginx.conf
#                                           must name as many; it names three)
#   CLUSTER_SKIP_BUILD=1 scripts/cluster.sh reuse .build/release/almanac (CLUSTER_BIN: another)
#   scripts/cluster.sh check-nginx          only render deploy/nginx.conf with loopback
#                                           addresses and `nginx -t` it (scripts/deploy_test.py)
#
# Every process is stopped by its PID on exit (bench/lib.sh). While running, a change of any
# replica's readiness or L2 state is printed, so stopping Redis (`kill <redis pid>`) or a
# replica shows what the others do.
source "$(dirname "${BASH_SOURCE[0]}")/../bench/lib.sh"
ADMIN_TOKEN="${TOKEN:-demo-admin-token}"
APP_BIN="${CLUSTER_BIN:-$APP_BIN}"
REPLICAS="${CLUSTER_REPLICAS:-3}"
LB_PORT="${CLUSTER_PORT:-8080}"
export ALMANAC_LOG_LEVEL="${ALMANAC_LOG_LEVEL:-warn}"
# What deploy/compose.yaml sets for draining behind the load balancer.
export ALMANAC_SERVER_SHUTDOWN_DELAY_SECONDS="${ALMANAC_SERVER_SHUTDOWN_DELAY_SECONDS:-1}"
export ALMANAC_SERVER_TRUST_FORWARDED_HEADERS=true

if [ "${1:-}" = check-nginx ]; then
  need_cmd nginx nginx-light
  ports=()
  for ((i = 0; i < REPLICAS; i++)); do ports+=("$(free_port)"); done
  render_lb_config "$WORK/nginx/nginx.conf" "$(free_port)" "${ports[@]}"
  nginx_check "$WORK/nginx" "$WORK/nginx/nginx.conf"
  log "deploy/nginx.conf with loopback addresses: nginx -t ok"
  exit 0
fi

if [ "${CLUSTER_SKIP_BUILD:-0}" != 1 ] || [ ! -x "$APP_BIN" ]; then
  (cd "$ROOT" && swift build -c release --product almanac >&2)
fi

# readiness PORT — "<status> <l2>" from /readyz, e.g. "200 up", "503 -", "down -".
readiness() {
  local body status l2
  body="$(curl -s --max-time 2 -w '\n%{http_code}' "http://127.0.0.1:$1/readyz" 2>/dev/null)" || { echo "down -"; return; }
  status="${body##*$'\n'}"
  l2="$(printf '%s' "${body%$'\n'*}" | sed -n 's/.*"l2":"\([a-z]*\)".*/\1/p')"
  echo "$status ${l2:--}"
}

start_stub --fixed-rates
start_redis
start_replicas "$REPLICAS"
render_lb_config "$WORK/nginx/nginx.conf" "$LB_PORT" "${REPLICA_PORTS[@]}"
LB="http://127.0.0.1:$LB_PORT"
run_nginx "$WORK/nginx" "$WORK/nginx/nginx.conf" "$LB/healthz"

# Health: every replica ready with L2 up (the connection to Redis is made in the background).
for ((i = 0; i < REPLICAS; i++)); do
  for ((t = 0; t < 100; t++)); do
    [ "$(readiness "${REPLICA_PORTS[$i]}")" = "200 up" ] && break
    sleep 0.1
  done
  state="$(readiness "${REPLICA_PORTS[$i]}")"
  [ "$state" = "200 up" ] || log "replica $((i + 1)): /readyz $state (expected 200 with \"l2\":\"up\"; see $WORK/replica-$((i + 1)).err)"
done
[ "$(curl -s -o /dev/null -w '%{http_code}' "$LB/healthz")" = 200 ] || die "the load balancer does not answer /healthz"

echo "almanac cluster on this machine (Ctrl-C stops everything):"
echo "  load balancer  $LB  (nginx pid $NGINX_PID, deploy/nginx.conf rendered to $WORK/nginx/nginx.conf)"
for ((i = 0; i < REPLICAS; i++)); do
  echo "  replica $((i + 1))      http://127.0.0.1:${REPLICA_PORTS[$i]}  (pid ${REPLICA_PIDS[$i]}; /readyz $(readiness "${REPLICA_PORTS[$i]}"))"
done
echo "  redis          $REDIS_URL  (pid $REDIS_PID)"
echo "  stub upstream  $STUB  (pid $STUB_PID; GET $STUB/__stats counts what the cluster asked)"
cat <<MSG
Try:
  curl -si $LB/v1/rates/USD | grep -i -E '^(x-cache|cache-status|etag)'     # twice: MISS, then a hit
  for p in ${REPLICA_PORTS[*]}; do curl -si http://127.0.0.1:\$p/v1/rates/USD | grep -i cache-status; done   # from Redis: detail=redis
  curl -s -X DELETE -H "Authorization: Bearer $ADMIN_TOKEN" $LB/admin/cache/rates   # purges every replica
  kill $REDIS_PID    # Redis gone: every replica keeps answering, /readyz says "l2":"down"
MSG

# Watch: print each change of a replica's readiness and L2 state; end when every replica or
# nginx is gone.
declare -A last
while kill -0 "$NGINX_PID" 2>/dev/null; do
  alive=0
  for ((i = 0; i < REPLICAS; i++)); do
    kill -0 "${REPLICA_PIDS[$i]}" 2>/dev/null && alive=$((alive + 1))
    now="$(readiness "${REPLICA_PORTS[$i]}")"
    if [ "${last[$i]:-}" != "$now" ]; then
      [ -z "${last[$i]:-}" ] || log "replica $((i + 1)): /readyz $now (was ${last[$i]})"
      last[$i]="$now"
    fi
  done
  [ "$alive" -gt 0 ] || die "every replica has exited"
  sleep 1
done
die "nginx exited (see $WORK/nginx/logs/error.log)"
