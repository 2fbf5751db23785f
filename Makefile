# almanac — the two commands that matter: `make run` and `make test`.
SHELL := /bin/bash
SWIFT ?= swift
CONFIG ?= config/almanac.json
# Seconds per fuzz target: a short smoke run inside `make test`, a long one for `make fuzz`.
FUZZ_SMOKE_SECONDS ?= 15
FUZZ_SECONDS ?= 600
SUDO := $(shell [ "$$(id -u)" = "0" ] || echo sudo)

.PHONY: run test build release deps bench fuzz soak clean docker-check

## Install libcurl's headers when missing (Debian/Ubuntu).
deps:
	@if ! pkg-config --exists libcurl 2>/dev/null || [ ! -f /usr/include/x86_64-linux-gnu/curl/curl.h -a ! -f /usr/include/curl/curl.h ]; then \
	  echo "installing libcurl4-openssl-dev"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq libcurl4-openssl-dev pkg-config; \
	fi

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --product almanac

## Build a release binary and serve on :8080 with config/almanac.json.
run: release
	./.build/release/almanac serve --config $(CONFIG)

## Every test (unit + end-to-end), the Docker runtime check, then every libFuzzer target for
## FUZZ_SMOKE_SECONDS each on its checked-in corpus plus fresh inputs (fails on a finding).
## libFuzzer ships with the Swift toolchain (-sanitize=fuzzer): nothing more to install.
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --parallel
	./scripts/check-docker-runtime.sh
	scripts/fuzz.sh $(FUZZ_SMOKE_SECONDS)

## Without a Docker engine: prove the runtime image provides every library the release binary links.
docker-check: deps
	./scripts/check-docker-runtime.sh

## Benchmarks (report only; never fail a build): almanac vs nginx, cache, client.
bench: deps
	scripts/bench.sh

## Every libFuzzer target, one after another, FUZZ_SECONDS each (default 600; about 70 minutes).
fuzz: deps
	scripts/fuzz.sh $(FUZZ_SECONDS)

## Mixed traffic against the release binary for SOAK_SECONDS (default 600).
soak: deps
	scripts/soak.sh

clean:
	rm -rf .build
