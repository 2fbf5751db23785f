# almanac — the two commands that matter: `make run` and `make test`.
SHELL := /bin/bash
SWIFT ?= swift
CONFIG ?= config/almanac.json
SUDO := $(shell [ "$$(id -u)" = "0" ] || echo sudo)

.PHONY: run test build release deps test-deps bench fuzz soak clean docker-check

## Install libcurl's headers when missing (Debian/Ubuntu).
deps:
	@if ! pkg-config --exists libcurl 2>/dev/null || [ ! -f /usr/include/x86_64-linux-gnu/curl/curl.h -a ! -f /usr/include/curl/curl.h ]; then \
	  echo "installing libcurl4-openssl-dev"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq libcurl4-openssl-dev pkg-config; \
	fi

## Test-only Python packages: forex-python (with requests, simplejson), whose BtcConverter the
## history end-to-end test drives against almanac. Installed only when not importable.
test-deps:
	@python3 -c "import forex_python.bitcoin, requests" 2>/dev/null || { \
	  echo "installing forex-python (test dependency)"; \
	  python3 -m pip --version >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq python3-pip; }; \
	  python3 -m pip install --quiet --disable-pip-version-check forex-python requests 2>/dev/null \
	    || python3 -m pip install --quiet --disable-pip-version-check --break-system-packages forex-python requests; }

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --product almanac

## Build a release binary and serve on :8080 with config/almanac.json.
run: release
	./.build/release/almanac serve --config $(CONFIG)

## Every test (unit + end-to-end), then the Docker runtime check.
test: deps test-deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --parallel
	./scripts/check-docker-runtime.sh

## Without a Docker engine: prove the runtime image provides every library the release binary links.
docker-check: deps
	./scripts/check-docker-runtime.sh

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
