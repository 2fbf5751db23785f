# almanac — the two commands that matter: `make run` and `make test`.
SHELL := /bin/bash
SWIFT ?= swift
CONFIG ?= config/almanac.json
SUDO := $(shell [ "$$(id -u)" = "0" ] || echo sudo)

.PHONY: run test build release deps docker-deps bench fuzz soak clean docker-check

## Install libcurl's headers when missing (Debian/Ubuntu).
deps:
	@if ! pkg-config --exists libcurl 2>/dev/null || [ ! -f /usr/include/x86_64-linux-gnu/curl/curl.h -a ! -f /usr/include/curl/curl.h ]; then \
	  echo "installing libcurl4-openssl-dev"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq libcurl4-openssl-dev pkg-config; \
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

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --product almanac

## Build a release binary and serve on :8080 with config/almanac.json.
run: release
	./.build/release/almanac serve --config $(CONFIG)

## Every test (unit + end-to-end), then the Docker runtime check.
test: deps docker-deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --parallel
	$(SUDO) ./scripts/docker-check.sh

## Without a Docker engine: run the release binary in the runtime stage's root file system
## (mmdebstrap + its RUN lines, as its user, with its ENV and WORKDIR), cached in /var/cache/almanac.
docker-check: deps docker-deps
	$(SUDO) ./scripts/docker-check.sh

## Benchmarks (report only; never fail a build): almanac vs nginx, cache, client.
bench: deps
	scripts/bench.sh

## libFuzzer targets for a bounded time (FUZZ_SECONDS, default 60 per target).
fuzz: deps
	scripts/fuzz.sh $(FUZZ_SECONDS)

## Mixed traffic against the release binary for SOAK_SECONDS (default 600).
soak: deps
	scripts/soak.sh

clean:
	rm -rf .build
