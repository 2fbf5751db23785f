#!/usr/bin/env python3
"""Checks deploy/compose.yaml and deploy/nginx.conf without a Docker engine (part of `make test`).

  python3 scripts/deploy_test.py        (DEPLOY_BIN: the almanac binary, default .build/debug/almanac)

- compose.yaml parses (PyYAML), and has what README "Running more than one replica" promises:
  three replicas built from the repository's Dockerfile, each with L2 at the Redis service,
  a readiness health check on /readyz, a shutdown delay for draining and a stop grace period
  longer than delay + grace; Redis 7 without persistence; nginx with deploy/nginx.conf,
  started once every replica is healthy, publishing the port nginx.conf listens on.
- every replica's environment (compose's `${VAR:-default}` expanded as compose would with the
  variable unset) is accepted by `almanac check-config`: no unknown key, no bad value.
- deploy/nginx.conf names exactly the replica services, and nginx accepts it (`nginx -t`,
  through `scripts/cluster.sh check-nginx`, which rewrites the addresses to loopback exactly
  as `make cluster` does before running it).

Exit status 0 when every check passes; each failure is printed.
"""

import os
import re
import subprocess
import sys

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEPLOY = os.path.join(ROOT, "deploy")
BIN = os.environ.get("DEPLOY_BIN", os.path.join(ROOT, ".build", "debug", "almanac"))
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


def main():
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
        if check(os.access(BIN, os.X_OK), f"no almanac binary at {BIN} (swift build first)"):
            result = subprocess.run([BIN, "check-config"], env={"PATH": "/usr/bin:/bin", **env},
                                    cwd=DEPLOY, capture_output=True, text=True, timeout=30)
            check(result.returncode == 0, f"{name}: almanac check-config exit {result.returncode}: {result.stderr.strip()}")

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

    for failure in failures:
        print("FAIL:", failure, file=sys.stderr)
    print(f"deploy_test: {'ok' if not failures else str(len(failures)) + ' failure(s)'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
