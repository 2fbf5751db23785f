# almanac container image: build with the official Swift toolchain, run on slim Debian.
# `make docker-check` (part of `make test`) proves the runtime stage without a Docker engine:
# scripts/docker-check.sh builds its root file system (mmdebstrap + the RUN lines below) and
# runs the release binary there as USER, with ENV and WORKDIR (docs/operations.md).

# ---- build -------------------------------------------------------------------------
ARG SWIFT_IMAGE=swift:6.3-bookworm
FROM ${SWIFT_IMAGE} AS build
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libcurl4-openssl-dev zlib1g-dev libssl-dev pkg-config \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# Manifest first so the dependency-free resolve is cached apart from source edits.
COPY Package.swift ./
COPY Sources ./Sources
COPY Tests ./Tests
# The commit to embed (`almanac --version`): .git is not copied in, so pass it:
#   docker build --build-arg ALMANAC_COMMIT=$(git rev-parse --short=12 HEAD) .
# Package.swift reads it from the environment; without it the binary says "unknown".
ARG ALMANAC_COMMIT=unknown
# The Swift runtime is linked statically: the runtime stage needs no toolchain libraries.
RUN swift build -c release --static-swift-stdlib --product almanac \
 && install -D -m 0755 "$(swift build -c release --static-swift-stdlib --show-bin-path)/almanac" /out/almanac

# ---- runtime -----------------------------------------------------------------------
FROM debian:bookworm-slim AS runtime
# libssl3: the Redis client's TLS (rediss://) links OpenSSL directly, not only through libcurl.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libcurl4 libssl3 ca-certificates \
 && rm -rf /var/lib/apt/lists/*
RUN groupadd --system --gid 10001 almanac \
 && useradd --system --uid 10001 --gid almanac --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin almanac
COPY --from=build /out/almanac /usr/local/bin/almanac
WORKDIR /app
# config/almanac.json holds the defaults and no secrets; override with ALMANAC_* variables.
COPY config/almanac.json /app/config/almanac.json
USER almanac:almanac
ENV ALMANAC_CONFIG=/app/config/almanac.json
EXPOSE 8080
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 CMD ["/usr/local/bin/almanac", "healthcheck"]
ENTRYPOINT ["/usr/local/bin/almanac"]
CMD ["serve"]
