#!/usr/bin/env bash
# Proves the Dockerfile's runtime stage by running it, without a Docker engine (docs/operations.md,
# "Docker runtime check"):
#   1. reads the runtime stage of Dockerfile: its base image (debian:<suite>-slim), RUN lines,
#      COPY destinations, USER, ENV, WORKDIR, HEALTHCHECK, ENTRYPOINT and CMD;
#   2. builds that base as a Debian root file system with mmdebstrap (minbase, with the slim
#      image's dpkg path exclusions) and runs the stage's RUN lines in it, exactly as written
#      (so the packages are whatever its apt-get line installs, nothing more); the result is
#      cached outside the repository, keyed by suite and RUN lines;
#   3. on a throw-away overlay of that root, copies in the static release binary and the config
#      as the COPY lines do, then runs ENTRYPOINT + CMD in a chroot as the image's user with its
#      ENV and WORKDIR (overriding only the listen address to 127.0.0.1 on a free port and the
#      rates upstream, which points at a local TLS stub);
#   4. checks: GET /healthz is 200; the HEALTHCHECK command exits 0; an HTTPS upstream signed by
#      a CA the image does not trust is refused (TLS verification is on); after that CA is added
#      the Debian way (/usr/local/share/ca-certificates + update-ca-certificates, as a derived
#      image would), the same request is answered from the upstream through the image's trust
#      store; SIGTERM → exit status 0; the image's bundle holds Debian's public roots.
# Needs root (chroot, mounts), mmdebstrap, openssl, python3 and a Debian mirror for the first
# build; later runs use the cache (ALMANAC_DOCKER_CHECK_CACHE, default /var/cache/almanac/docker-check).
#
# Usage: scripts/docker-check.sh [path/to/static/binary]   (builds it when not given)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"

fail() { echo "docker-check: FAIL: $*" >&2; exit 1; }
note() { echo "docker-check: $*"; }
START=$(date +%s)

[ "$(id -u)" = 0 ] || fail "needs root (chroot and mounts)"
for tool in mmdebstrap openssl python3 curl chroot mount unshare; do
  command -v "$tool" >/dev/null || fail "$tool not found (make docker-check installs mmdebstrap)"
done

# --- 1. the runtime stage ----------------------------------------------------------------------
eval "$(python3 - Dockerfile <<'PY'
import json, re, shlex, sys
text = open(sys.argv[1]).read().replace("\\\n", " ")
lines = [l.strip() for l in text.split("\n")]
stage, inside = [], False
for l in lines:
    if re.match(r"(?i)^FROM\s", l):
        inside = bool(re.search(r"(?i)\sAS\s+runtime\s*$", l))
        if inside: stage.append(l)
        continue
    if inside and l and not l.startswith("#"):
        stage.append(l)
def out(name, value): print(f"{name}={shlex.quote(value)}")
def arr(name, values): print(f"{name}=(" + " ".join(shlex.quote(v) for v in values) + ")")
runs, envs, copies = [], [], []
user = workdir = healthcheck = entry = cmd = base = ""
for l in stage:
    op, _, rest = l.partition(" ")
    op, rest = op.upper(), rest.strip()
    if op == "FROM": base = rest.split()[0]
    elif op == "RUN": runs.append(rest)
    elif op == "ENV":
        m = re.match(r"^(\S+?)=(.*)$", rest) or re.match(r"^(\S+)\s+(.*)$", rest)
        envs.append(f"{m.group(1)}={m.group(2)}")
    elif op == "USER": user = rest
    elif op == "WORKDIR": workdir = rest
    elif op == "COPY": copies.append(rest)
    elif op == "HEALTHCHECK": healthcheck = json.dumps(json.loads(rest.split(" CMD ", 1)[1]))
    elif op == "ENTRYPOINT": entry = rest
    elif op == "CMD": cmd = rest
out("BASE", base); arr("RUNS", runs); arr("ENVS", envs); arr("COPIES", copies)
out("IMAGE_USER", user); out("WORKDIR", workdir or "/")
arr("HEALTHCHECK", json.loads(healthcheck) if healthcheck else [])
arr("ENTRYPOINT", json.loads(entry) if entry else []); arr("CMD", json.loads(cmd) if cmd else [])
PY
)"
[[ "$BASE" =~ ^debian:([a-z]+)-slim$ ]] || fail "runtime stage base '$BASE' is not debian:<suite>-slim"
SUITE="${BASH_REMATCH[1]}"
[ ${#RUNS[@]} -gt 0 ] && [ -n "$IMAGE_USER" ] && [ ${#ENTRYPOINT[@]} -gt 0 ] && [ ${#HEALTHCHECK[@]} -gt 0 ] \
  || fail "could not read RUN/USER/ENTRYPOINT/HEALTHCHECK from the runtime stage"
note "runtime stage: $BASE, ${#RUNS[@]} RUN lines, USER $IMAGE_USER, WORKDIR $WORKDIR, ENV ${ENVS[*]}"

# --- 2. the root file system (cached) ---------------------------------------------------------
MIRROR="${ALMANAC_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
SECURITY_MIRROR="${ALMANAC_DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}"
CACHE="${ALMANAC_DOCKER_CHECK_CACHE:-/var/cache/almanac/docker-check}"
KEY="$( { echo "v1 $SUITE minbase slim-excludes"; printf '%s\n' "${RUNS[@]}"; } | sha256sum | cut -c1-16)"
ROOTFS="$CACHE/$SUITE-$KEY/rootfs"
mkdir -p "$CACHE"
exec 9>"$CACHE/.lock"
flock 9
if [ ! -f "$CACHE/$SUITE-$KEY/complete" ]; then
  note "building $SUITE root file system (mmdebstrap; cached in $CACHE/$SUITE-$KEY)"
  build="$CACHE/.build-$$"
  rm -rf "$build"; mkdir -p "$build"
  printf '%s\n' "${RUNS[@]}" > "$build/run-lines"
  # Each RUN line as Docker runs it: /bin/sh -c, as root, with Docker's default PATH.
  cat > "$build/apply-runs" <<'SH'
#!/bin/sh
set -e
while IFS= read -r line; do
  echo "docker-check: RUN $line"
  env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root chroot "$1" /bin/sh -c "$line"
done < "$(dirname "$0")/run-lines"
SH
  chmod +x "$build/apply-runs"
  # The slim image's dpkg exclusions (docs, man pages, locales).
  excludes=(
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright'
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/groff/*'
    --dpkgopt='path-exclude=/usr/share/info/*' --dpkgopt='path-exclude=/usr/share/lintian/*'
    --dpkgopt='path-exclude=/usr/share/linda/*' --dpkgopt='path-exclude=/usr/share/locale/*'
  )
  mmdebstrap --mode=root --variant=minbase --quiet "${excludes[@]}" \
    --customize-hook="$build/apply-runs \"\$1\"" \
    "$SUITE" "$build/rootfs" \
    "deb $MIRROR $SUITE main" "deb $MIRROR $SUITE-updates main" "deb $SECURITY_MIRROR $SUITE-security main" \
    || fail "mmdebstrap failed"
  rm -rf "$CACHE/$SUITE-$KEY"
  mkdir -p "$CACHE/$SUITE-$KEY"
  mv "$build/rootfs" "$ROOTFS"
  rm -rf "$build"
  touch "$CACHE/$SUITE-$KEY/complete"
else
  note "root file system from cache: $ROOTFS"
fi
BUILT=$(date +%s)

# --- 3. the binary ------------------------------------------------------------------------------
binary="${1:-}"
if [ -z "$binary" ]; then
  note "building the release binary as the Dockerfile does (--static-swift-stdlib)"
  swift build -c release --static-swift-stdlib --product almanac >&2 || fail "release build failed"
  binary="$(swift build -c release --static-swift-stdlib --show-bin-path)/almanac"
fi
[ -x "$binary" ] || fail "no executable at $binary"

# --- 4. run it ----------------------------------------------------------------------------------
WORK="$(mktemp -d /tmp/almanac-docker-check.XXXXXX)"
MERGED="$WORK/merged"
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill -9 "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  for m in "$MERGED/dev" "$MERGED/proc" "$MERGED"; do
    mountpoint -q "$m" && { umount "$m" 2>/dev/null || umount -l "$m"; }
  done
  # Never delete through a mount: only the scratch directories, once nothing is mounted there.
  mountpoint -q "$MERGED" || rm -rf "$WORK"
}
trap cleanup EXIT
mkdir -p "$WORK/upper" "$WORK/work" "$MERGED"
mount -t overlay overlay -o "lowerdir=$ROOTFS,upperdir=$WORK/upper,workdir=$WORK/work" "$MERGED" || fail "overlay mount failed"
mount -t proc proc "$MERGED/proc"
mount -t tmpfs -o mode=755,size=1m tmpfs "$MERGED/dev"
for d in "null 1 3" "zero 1 5" "random 1 8" "urandom 1 9"; do
  set -- $d; mknod -m 666 "$MERGED/dev/$1" c "$2" "$3"
done
printf '127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n' > "$MERGED/etc/hosts"

# COPY lines: the build stage's binary, files from the repository.
for copy in "${COPIES[@]}"; do
  read -r -a words <<<"$copy"
  dest="${words[-1]}"; src="${words[-2]}"
  if [[ "${words[0]}" == --from=* ]]; then
    install -D -m 0755 "$binary" "$MERGED$dest"
  else
    install -D -m 0644 "$ROOT/$src" "$MERGED$dest"
  fi
done
mkdir -p "$MERGED$WORKDIR"

# USER name:group → numeric ids from the image's own passwd and group files.
user="${IMAGE_USER%%:*}"; group="${IMAGE_USER#*:}"
uid="$(awk -F: -v u="$user" '$1 == u || $3 == u {print $3; exit}' "$MERGED/etc/passwd")"
gid="$(awk -F: -v g="$group" '$1 == g || $3 == g {print $3; exit}' "$MERGED/etc/group")"
home="$(awk -F: -v u="$user" '$1 == u || $3 == u {print $6; exit}' "$MERGED/etc/passwd")"
[ -n "$uid" ] && [ -n "$gid" ] || fail "user $IMAGE_USER not in the image's /etc/passwd and /etc/group"
note "image user $IMAGE_USER = $uid:$gid"

# Two distinct ports outside the kernel's ephemeral range (scripts/free_port.py).
{ read -r PORT; read -r TLS_PORT; } < <(python3 "$ROOT/scripts/free_port.py" 2)

# A CA of our own and a certificate for 127.0.0.1 signed by it; the TLS stub answers the rates
# upstream's path with a Coinbase-format body.
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$WORK/ca.key" -out "$WORK/ca.crt" -days 2 \
  -subj "/CN=almanac docker-check CA" >/dev/null 2>&1
openssl req -newkey rsa:2048 -nodes -keyout "$WORK/server.key" -out "$WORK/server.csr" -subj "/CN=127.0.0.1" >/dev/null 2>&1
printf 'subjectAltName=IP:127.0.0.1\n' > "$WORK/san.ext"
openssl x509 -req -in "$WORK/server.csr" -CA "$WORK/ca.crt" -CAkey "$WORK/ca.key" -CAcreateserial \
  -out "$WORK/server.crt" -days 2 -extfile "$WORK/san.ext" >/dev/null 2>&1
cat > "$WORK/stub.py" <<'PY'
import http.server, ssl, sys
BODY = b'{"data":{"currency":"BTC","rates":{"USD":"91234.56","EUR":"84000.12"}}}'
class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(BODY)))
        self.end_headers()
        self.wfile.write(BODY)
        with open(sys.argv[4], "a") as log: log.write(self.path + "\n")
    def log_message(self, *args): pass
server = http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(sys.argv[2], sys.argv[3])
server.socket = context.wrap_socket(server.socket, server_side=True)
server.serve_forever()
PY
: > "$WORK/stub.log"
python3 "$WORK/stub.py" "$TLS_PORT" "$WORK/server.crt" "$WORK/server.key" "$WORK/stub.log" 2>"$WORK/stub.err" &
PIDS+=($!)
for _ in $(seq 100); do curl -sk "https://127.0.0.1:$TLS_PORT/" -o /dev/null && break; sleep 0.05; done
: > "$WORK/stub.log" # forget the readiness probe

# Inside the chroot, as the image's user: Docker's default PATH, HOME from passwd, the ENV lines,
# and the test's overrides (loopback, free port, the stub as the only rates upstream).
image_command() { # image_command COMMAND... → IMAGE_CMD (chroot execs it: its PID is the program's)
  IMAGE_CMD=(chroot --userspec="$uid:$gid" --groups="$gid" "$MERGED" /usr/bin/env -i -C "$WORKDIR"
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME="$home" HOSTNAME=almanac "${ENVS[@]}"
    ALMANAC_SERVER_HOST=127.0.0.1 ALMANAC_SERVER_PORT="$PORT"
    ALMANAC_RATES_PROVIDERS=coinbase ALMANAC_RATES_COINBASE_BASE_URL="https://127.0.0.1:$TLS_PORT"
    "$@")
}

start_service() {
  image_command "${ENTRYPOINT[@]}" "${CMD[@]}"
  "${IMAGE_CMD[@]}" >"$WORK/service.log" 2>&1 &
  SERVICE=$!
  PIDS+=("$SERVICE")
  for _ in $(seq 200); do
    curl -s -o /dev/null "http://127.0.0.1:$PORT/healthz" && return 0
    kill -0 "$SERVICE" 2>/dev/null || { cat "$WORK/service.log" >&2; fail "the service exited at start"; }
    sleep 0.05
  done
  cat "$WORK/service.log" >&2; fail "the service did not answer /healthz within 10 s"
}

stop_service() {
  kill -TERM "$SERVICE"
  local status=0
  wait "$SERVICE" || status=$?
  [ "$status" = 0 ] || { tail -5 "$WORK/service.log" >&2; fail "SIGTERM → exit status $status, not 0"; }
  note "ok  SIGTERM → exit 0"
}

# Run 1: the image as built.
start_service
[ "$(awk '/^Uid:/ {print $2}' /proc/$SERVICE/status)" = "$uid" ] || fail "the service does not run as uid $uid"
[ "$(readlink /proc/$SERVICE/root)" = "$MERGED" ] || fail "the service is not in the image's root"
[ "$(readlink /proc/$SERVICE/cwd)" = "$MERGED${WORKDIR%/}" ] || [ "$WORKDIR" = / ] || fail "the service's working directory is not $WORKDIR"
note "ok  running as uid $uid in the image's root, cwd $WORKDIR"
code="$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/healthz")"
[ "$code" = 200 ] || fail "/healthz answered $code"
note "ok  GET /healthz → 200"
image_command "${HEALTHCHECK[@]}"
"${IMAGE_CMD[@]}" >"$WORK/healthcheck.log" 2>&1 || { cat "$WORK/healthcheck.log" >&2; fail "HEALTHCHECK ${HEALTHCHECK[*]} failed"; }
note "ok  HEALTHCHECK ${HEALTHCHECK[*]} → exit 0"
bundle="$MERGED/etc/ssl/certs/ca-certificates.crt"
roots="$(grep -c 'BEGIN CERTIFICATE' "$bundle" 2>/dev/null || echo 0)"
[ "$roots" -ge 100 ] || fail "the image's CA bundle $bundle holds $roots certificates"
note "ok  the image's trust store holds $roots public roots (Debian ca-certificates)"
code="$(curl -s -o "$WORK/untrusted.json" -w '%{http_code}' "http://127.0.0.1:$PORT/v1/rates")"
[ "$code" != 200 ] || fail "an upstream signed by an untrusted CA was accepted: TLS verification is off"
[ ! -s "$WORK/stub.log" ] || fail "the stub answered a request although its CA is not trusted"
# The client is told the class of failure (never curl's words or the upstream's address); the
# operator's warn line for the same request carries libcurl's own diagnostic.
grep -q 'TLS handshake or certificate check failed' "$WORK/untrusted.json" || { cat "$WORK/untrusted.json" >&2; fail "the refusal is not a TLS failure"; }
for _ in $(seq 1 50); do grep -q 'SSL certificate problem' "$WORK/service.log" && break; sleep 0.1; done
grep -q 'SSL certificate problem' "$WORK/service.log" || { tail -5 "$WORK/service.log" >&2; fail "no warn line with libcurl's certificate diagnostic"; }
note "ok  HTTPS upstream signed by an unknown CA refused ($code, TLS failure, no request reached it)"
stop_service

# Run 2: the CA added to the image's trust store as a derived image would do it.
install -D -m 0644 "$WORK/ca.crt" "$MERGED/usr/local/share/ca-certificates/almanac-docker-check.crt"
chroot "$MERGED" /usr/sbin/update-ca-certificates >/dev/null 2>&1 || fail "update-ca-certificates failed in the image"
start_service
body="$(curl -s "http://127.0.0.1:$PORT/v1/rates")"
grep -q '91234.56' <<<"$body" || { echo "$body" >&2; tail -5 "$WORK/service.log" >&2; fail "the rates did not come from the HTTPS upstream"; }
grep -q '/v2/exchange-rates' "$WORK/stub.log" || fail "the stub saw no request"
note "ok  HTTPS upstream through the image's trust store → 200 with the upstream's rates"
stop_service

END=$(date +%s)
note "PASS in $((END - START)) s (root file system $((BUILT - START)) s)"
