#!/usr/bin/env python3
"""Checks deploy/compose.yaml and deploy/nginx.conf without a Docker engine (part of `make test`).

  python3 scripts/deploy_test.py        (DEPLOY_BIN: the almanac binary, default .build/debug/almanac)

- compose.yaml parses (PyYAML), and has what docs/operations.md "What a cluster does for clients" promises:
  three replicas built from the repository's Dockerfile, each with L2 at the Redis service,
  a readiness health check on /readyz, a shutdown delay for draining and a stop grace period
  longer than delay + grace; Redis 7 without persistence; nginx with deploy/nginx.conf,
  started once every replica is healthy, publishing the port nginx.conf listens on.
- every replica's environment (compose's `${VAR:-default}` expanded as compose would with the
  variable unset) is accepted by `almanac check-config`: no unknown key, no bad value.
- compose.sentinel.yaml parses and has what docs/operations.md "Redis over TLS and behind
  Sentinel" promises: three replicas finding the primary through three Sentinels (no URL), a
  primary and a replica of it, the Sentinels monitoring the primary with a quorum of 2; each
  replica's environment is accepted by `almanac check-config`.
- deploy/nginx.conf names exactly the replica services, and nginx accepts it (`nginx -t`,
  through `scripts/cluster.sh check-nginx`, which rewrites the addresses to loopback exactly
  as `make cluster` does before running it).
- `make cluster` itself (scripts/cluster.sh on the same binary): answers through nginx,
  one ETag whichever replica answers, answers from Redis, no failed request when a replica
  is SIGKILLed, and every process stopped by Ctrl-C.

Exit status 0 when every check passes; each failure is printed.
"""

import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request

import yaml

from default_signals import default_signals
from free_port import free_port

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEPLOY = os.path.join(ROOT, "deploy")
# Absolute: the checks run with the deploy folder as working directory.
BIN = os.path.abspath(os.environ.get("DEPLOY_BIN", os.path.join(ROOT, ".build", "debug", "almanac")))
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
    return condition


def seconds(text):
    """Compose durations used here: "20s", "1m30s"."""
    total = 0
    for number, unit in re.findall(r"(\d+)([hms])", str(text)):
        total += int(number) * {"h": 3600, "m": 60, "s": 1}[unit]
    return total


def expand(value):
    """`${NAME:-default}` / `${NAME}` as compose expands them when NAME is unset."""
    return re.sub(r"\$\{[A-Z0-9_]+(?::?-([^}]*))?\}", lambda m: m.group(1) or "", str(value))


def get(url, headers=None):
    """(status, headers dict with lower-case names, body) of a GET; status 0 when it failed."""
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, {k.lower(): v for k, v in error.headers.items()}, error.read()
    except OSError:
        return 0, {}, b""


def check_cluster():
    """`make cluster` for real (scripts/cluster.sh with the debug binary): requests through
    nginx running deploy/nginx.conf reach the replicas and share Redis; a replica SIGKILLed
    costs no request (nginx retries on the next); Ctrl-C stops every process by its PID."""
    if not os.access(BIN, os.X_OK):
        return
    lb_port = free_port()
    env = dict(os.environ, CLUSTER_BIN=BIN, CLUSTER_SKIP_BUILD="1", CLUSTER_PORT=str(lb_port), TOKEN="deploy-test-token")
    script = subprocess.Popen(["bash", os.path.join(ROOT, "scripts", "cluster.sh")], env=env, cwd=ROOT,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              preexec_fn=default_signals)
    pids, replicas, lines = {}, [], []
    deadline = time.monotonic() + 90
    try:
        for line in script.stdout:
            lines.append(line)
            m = re.match(r"\s+replica \d+\s+http://127\.0\.0\.1:(\d+)\s+\(pid (\d+)", line)
            if m:
                replicas.append((int(m.group(1)), int(m.group(2))))
            m = re.match(r"\s+(redis|stub upstream)\s+\S+\s+\(pid (\d+)", line) or re.match(r"\s+load balancer\s+\S+\s+\(nginx pid (\d+)", line)
            if m:
                pids[line.split()[0]] = int(m.groups()[-1])
            if line.startswith("Try:") or time.monotonic() > deadline:
                break
        if not check(len(replicas) == 3 and len(pids) == 3,
                     f"make cluster started 3 replicas, redis, nginx and the stub: {''.join(lines)}{script.stderr.read() if script.poll() is not None else ''}"):
            return
        lb = f"http://127.0.0.1:{lb_port}"
        answers = [get(lb + "/v1/rates/USD") for _ in range(6)]
        check(all(a[0] == 200 for a in answers), f"through nginx: {[a[0] for a in answers]}")
        check(len({a[1].get("etag") for a in answers}) == 1, "one ETag whichever replica answered")
        check(any("detail=redis" in a[1].get("cache-status", "") for a in answers),
              f"a replica answered from Redis: {[a[1].get('cache-status') for a in answers]}")
        os.kill(replicas[0][1], 9)
        after = [get(lb + "/v1/rates/USD")[0] for _ in range(9)]
        check(after == [200] * 9, f"with replica 1 killed, nginx sends to the others: {after}")
    finally:
        script.send_signal(2)  # Ctrl-C
        try:
            script.wait(timeout=30)
        except subprocess.TimeoutExpired:
            script.kill()
            failures.append("make cluster did not stop within 30 s of Ctrl-C")
    gone = lambda pid: not os.path.exists(f"/proc/{pid}") or open(f"/proc/{pid}/stat").read().split()[2] == "Z"
    left = [pid for pid in [p for _, p in replicas] + list(pids.values()) if not gone(pid)]
    check(not left, f"Ctrl-C stopped every process of make cluster (left: {left})")


def check_config(name, env):
    """`almanac check-config` accepts `env` (the replica's configuration)."""
    if check(os.access(BIN, os.X_OK), f"no almanac binary at {BIN} (swift build first)"):
        result = subprocess.run([BIN, "check-config"], env={"PATH": "/usr/bin:/bin", **env},
                                cwd=DEPLOY, capture_output=True, text=True, timeout=30)
        check(result.returncode == 0, f"{name}: almanac check-config exit {result.returncode}: {result.stderr.strip()}")


def check_sentinel_compose():
    with open(os.path.join(DEPLOY, "compose.sentinel.yaml")) as f:
        compose = yaml.safe_load(f)
    services = compose.get("services", {})
    replicas = sorted(name for name in services if name.startswith("almanac"))
    sentinels = sorted(name for name in services if name.startswith("sentinel"))
    check(replicas == ["almanac1", "almanac2", "almanac3"], f"sentinel compose: three replicas, got {replicas}")
    check(sentinels == ["sentinel1", "sentinel2", "sentinel3"], f"sentinel compose: three sentinels, got {sentinels}")
    for name in replicas:
        env = {k: expand(v) for k, v in services[name].get("environment", {}).items()}
        check("ALMANAC_CACHE_REDIS_URL" not in env, f"sentinel compose {name}: no cache.redis.url with sentinels")
        listed = sorted(a.split(":")[0] for a in env.get("ALMANAC_CACHE_REDIS_SENTINELS", "").split(","))
        check(listed == sentinels, f"sentinel compose {name}: lists the sentinel services, got {listed}")
        check("/readyz" in " ".join(services[name].get("healthcheck", {}).get("test", [])),
              f"sentinel compose {name}: the health check asks /readyz")
        check_config(f"sentinel compose {name}", env)
    primary = " ".join(services.get("redis-primary", {}).get("command", []))
    replica = " ".join(services.get("redis-replica", {}).get("command", []))
    check("--replicaof redis-primary 6379" in replica, f"sentinel compose: redis-replica replicates the primary, got {replica!r}")
    check("--save" in primary and "--appendonly" in primary, "sentinel compose: persistence off on the primary")
    for name in sentinels:
        script = " ".join(services[name].get("command", []))
        master = expand(services["almanac1"]["environment"].get("ALMANAC_CACHE_REDIS_MASTER_NAME", ""))
        check(f"sentinel monitor {master} redis-primary 6379 2" in script,
              f"sentinel compose {name}: monitors the primary as {master!r} with quorum 2")


def main():
    check_sentinel_compose()
    with open(os.path.join(DEPLOY, "compose.yaml")) as f:
        compose = yaml.safe_load(f)
    services = compose.get("services", {})
    replicas = sorted(name for name in services if name.startswith("almanac"))
    check(replicas == ["almanac1", "almanac2", "almanac3"], f"three replicas, got {replicas}")

    for name in replicas:
        service = services[name]
        build = service.get("build", {})
        context = os.path.normpath(os.path.join(DEPLOY, build.get("context", ".")))
        check(os.path.isfile(os.path.join(context, build.get("dockerfile", "Dockerfile"))),
              f"{name}: build context {context} has no {build.get('dockerfile')}")
        check(context == ROOT, f"{name}: built from the repository root, got {context}")
        env = {k: expand(v) for k, v in service.get("environment", {}).items()}
        check(re.fullmatch(r"redis://redis:\d+(/\d+)?", env.get("ALMANAC_CACHE_REDIS_URL", "")) is not None,
              f"{name}: ALMANAC_CACHE_REDIS_URL points at the redis service, got {env.get('ALMANAC_CACHE_REDIS_URL')}")
        health = " ".join(service.get("healthcheck", {}).get("test", []))
        check("/readyz" in health, f"{name}: the health check asks /readyz, got {health!r}")
        delay = int(env.get("ALMANAC_SERVER_SHUTDOWN_DELAY_SECONDS", "0"))
        grace = int(env.get("ALMANAC_SERVER_SHUTDOWN_GRACE_SECONDS", "10"))
        check(delay > 0, f"{name}: server.shutdownDelaySeconds set for draining")
        check(seconds(service.get("stop_grace_period", "10s")) > delay + grace,
              f"{name}: stop_grace_period longer than delay {delay} s + grace {grace} s")
        check(services.get("nginx", {}).get("depends_on", {}).get(name, {}).get("condition") == "service_healthy",
              f"nginx waits for {name} to be healthy")
        # The configuration the replica would run with: check-config must accept it.
        check_config(name, env)

    redis = services.get("redis", {})
    check(str(redis.get("image", "")).startswith("redis:7"), f"redis: Redis 7, got {redis.get('image')}")
    command = redis.get("command", [])
    check("--save" in command and "--appendonly" in command, "redis: persistence off (--save \"\" --appendonly no)")

    nginx = services.get("nginx", {})
    check("./nginx.conf:/etc/nginx/nginx.conf:ro" in nginx.get("volumes", []), "nginx: mounts deploy/nginx.conf")
    with open(os.path.join(DEPLOY, "nginx.conf")) as f:
        conf = f.read()
    upstreams = re.findall(r"^\s*server\s+([a-z0-9]+):8080\b", conf, re.M)
    check(upstreams == replicas, f"nginx.conf upstreams are the replica services, got {upstreams}")
    listen = re.findall(r"^\s*listen\s+(\d+);", conf, re.M)
    check(listen == ["8080"] and any(str(p).endswith(":8080") for p in nginx.get("ports", [])),
          f"nginx listens on 8080 and compose publishes it, got {listen} / {nginx.get('ports')}")

    result = subprocess.run(["bash", os.path.join(ROOT, "scripts", "cluster.sh"), "check-nginx"],
                            capture_output=True, text=True, timeout=120)
    check(result.returncode == 0, f"nginx -t on deploy/nginx.conf: {result.stderr.strip()}")

    check_cluster()

    for failure in failures:
        print("FAIL:", failure, file=sys.stderr)
    print(f"deploy_test: {'ok' if not failures else str(len(failures)) + ' failure(s)'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
