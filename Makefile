# almanac — the two commands that matter: `make run` and `make test`.
SHELL := /bin/bash
SWIFT ?= swift
CONFIG ?= config/almanac.json
# Seconds per fuzz target: a short smoke run inside `make test`, a long one for `make fuzz`.
FUZZ_SMOKE_SECONDS ?= 15
FUZZ_SECONDS ?= 600
SUDO := $(shell [ "$$(id -u)" = "0" ] || echo sudo)

.PHONY: run test build release deps test-deps docker-deps bench fuzz soak clean docker-check demo tour cluster

## The git commit every build embeds (`almanac --version`, `GET /`, almanac_build_info), read
## by Package.swift from the environment: `-dirty` when tracked files have changes. Outside a
## git checkout (a source tarball) it stays empty and the binary says "unknown"; packagers
## set it themselves: `make release ALMANAC_COMMIT=1a2b3c4d5e6f`.
ALMANAC_COMMIT ?= $(shell git rev-parse --short=12 HEAD 2>/dev/null)$(shell git status --porcelain --untracked-files=no 2>/dev/null | grep -q . && echo -dirty)
export ALMANAC_COMMIT

## Install libcurl's, zlib's and OpenSSL's headers when missing (Debian/Ubuntu).
deps:
	@if ! pkg-config --exists libcurl zlib openssl 2>/dev/null || [ ! -f /usr/include/x86_64-linux-gnu/curl/curl.h -a ! -f /usr/include/curl/curl.h ] || [ ! -f /usr/include/zlib.h ] || [ ! -f /usr/include/openssl/ssl.h ]; then \
	  echo "installing libcurl4-openssl-dev zlib1g-dev libssl-dev"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq libcurl4-openssl-dev zlib1g-dev libssl-dev pkg-config; \
	fi
	@# The Redis client's tests start their own redis-server (never a mock).
	@if ! command -v redis-server >/dev/null 2>&1; then \
	  echo "installing redis-server"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq redis-server; \
	fi

## The Docker runtime check builds a Debian root file system with mmdebstrap.
docker-deps:
	@if ! command -v mmdebstrap >/dev/null 2>&1 || ! command -v openssl >/dev/null 2>&1; then \
	  echo "installing mmdebstrap"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq mmdebstrap openssl; \
	fi

## openssl and redis-sentinel for the Redis TLS and Sentinel tests. Test-only Python packages: forex-python (with requests, simplejson), whose BtcConverter the
## history end-to-end test drives against almanac; PyYAML and nginx for the deployment check
## (scripts/deploy_test.py). Installed only when missing.
test-deps:
	@command -v jq >/dev/null && command -v curl >/dev/null && command -v nginx >/dev/null || { \
	  echo "installing jq curl (the tours' commands) nginx-light (nginx -t on deploy/nginx.conf)"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq jq curl nginx-light; }
	@# Redis over TLS and behind Sentinel: the tests make their certificates with openssl and
	@# start real redis-sentinel processes.
	@command -v openssl >/dev/null && command -v redis-sentinel >/dev/null || { \
	  echo "installing openssl redis-sentinel (Redis TLS and Sentinel tests)"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq openssl redis-sentinel; }
	@# promtool (Debian's prometheus package): the alert rules' checks and unit tests.
	@command -v promtool >/dev/null || { \
	  echo "installing prometheus (promtool: deploy/prometheus/alerts.yml checks)"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends prometheus; }
	@python3 -c "import forex_python.bitcoin, requests, yaml, googleapiclient.discovery, openapi_spec_validator" 2>/dev/null || { \
	  echo "installing forex-python, PyYAML, google-api-python-client, openapi-spec-validator (test dependencies)"; \
	  python3 -m pip --version >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq python3-pip; }; \
	  python3 -m pip install --quiet --disable-pip-version-check forex-python requests pyyaml google-api-python-client openapi-spec-validator 2>/dev/null \
	    || python3 -m pip install --quiet --disable-pip-version-check --break-system-packages forex-python requests pyyaml google-api-python-client openapi-spec-validator; }

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --product almanac

## Build a release binary and serve on :8080 with config/almanac.json.
run: release
	./.build/release/almanac serve --config $(CONFIG)

## Every test: the harness scripts parse (scripts/check_scripts.py: shell, Python, and Python
## embedded in shell), unit + end-to-end (the three-replica cluster included), the deployment files
## (scripts/deploy_test.py), the alert rules (promtool check and unit tests) and the alerts' and
## dashboard's metric names against the real /metrics (scripts/observability-check.sh), the
## two tours (the README's and docs/tour.md) against `make demo`, the Docker runtime
## check, then every libFuzzer target for
## FUZZ_SMOKE_SECONDS each on its checked-in corpus plus fresh inputs (fails on a finding).
## libFuzzer ships with the Swift toolchain (-sanitize=fuzzer): nothing more to install.
test: deps test-deps docker-deps
	python3 scripts/check_scripts.py
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --parallel
	DEPLOY_BIN=.build/debug/almanac python3 scripts/deploy_test.py
	promtool check rules deploy/prometheus/alerts.yml
	promtool test rules deploy/prometheus/alerts_test.yml
	OBSERVABILITY_BIN=.build/debug/almanac scripts/observability-check.sh
	DEMO_BIN=.build/debug/almanac DEMO_SKIP_BUILD=1 python3 scripts/tour_test.py
	$(SUDO) ./scripts/docker-check.sh
	scripts/fuzz.sh $(FUZZ_SMOKE_SECONDS)

## The stub upstream and almanac wired together on :8080 (DEMO_PORT), so the tours (the
## README's quick tour, docs/tour.md) run offline exactly as shown. Ctrl-C stops both.
demo: release
	DEMO_SKIP_BUILD=1 scripts/demo.sh

## The cluster of deploy/compose.yaml as processes on this machine: redis-server, three
## replicas sharing it, nginx in front on :8080 (CLUSTER_PORT), the demo's stub upstream.
## Ctrl-C stops everything.
cluster: release
	CLUSTER_SKIP_BUILD=1 scripts/cluster.sh

## Every command of both tours (the README's, docs/tour.md), run against `make demo`, must print
## what it shows.
tour: release
	DEMO_SKIP_BUILD=1 python3 scripts/tour_test.py

## Without a Docker engine: run the release binary in the runtime stage's root file system
## (mmdebstrap + its RUN lines, as its user, with its ENV and WORKDIR), cached in /var/cache/almanac.
docker-check: deps docker-deps
	$(SUDO) ./scripts/docker-check.sh

## Benchmarks (report only; never fail a build): almanac vs nginx, cache, client.
bench: deps
	bench/bench.sh

## Every libFuzzer target, one after another, FUZZ_SECONDS each (default 600; about 70 minutes).
fuzz: deps
	scripts/fuzz.sh $(FUZZ_SECONDS)

## Mixed traffic against the release binary for SOAK_SECONDS (default 600).
soak: deps
	bench/soak.sh

clean:
	rm -rf .build
