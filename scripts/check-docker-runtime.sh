#!/usr/bin/env bash
# Proves, without a Docker engine, that the Dockerfile's runtime stage can run the binary:
#   1. builds the release binary as the Dockerfile does (--static-swift-stdlib);
#   2. checks no Swift runtime library (libswiftCore, Foundation, dispatch, ICU…) is still
#      dynamically linked;
#   3. maps every shared library `ldd` reports to its Debian package (`dpkg -S`);
#   4. requires each package to be in the runtime stage's `apt-get install` line, a
#      dependency (recursively) of those packages, or in debian:bookworm-slim itself.
# Runs offline: dependency closure comes from the local dpkg database (dpkg-query), where
# every package that owns a linked library is installed.
#
# Usage: scripts/check-docker-runtime.sh [path/to/binary]   (skips the build when given)
set -euo pipefail
cd "$(dirname "$0")/.."

fail() { echo "docker-check: FAIL: $*" >&2; exit 1; }
note() { echo "docker-check: $*"; }

# Packages of the debian:bookworm-slim base image that programs may rely on (a subset of its
# Essential/required set, checked against `dpkg -l` in the image): C/C++ runtimes and the
# compression and crypto libraries its own tools link.
BASE_IMAGE_PACKAGES="libc6 libgcc-s1 libstdc++6 zlib1g libzstd1 liblzma5 libbz2-1.0 libcrypt1 libselinux1 \
libpcre2-8-0 libgmp10 libidn2-0 libunistring2 libtasn1-6 libp11-kit0 libffi8 libgnutls30 libnettle8 \
libhogweed6 libgcrypt20 libgpg-error0 libsystemd0 liblz4-1 libcap2 libacl1 libattr1 libmd0 libudev1"

# --- 1. the binary -------------------------------------------------------------------------
binary="${1:-}"
if [ -z "$binary" ]; then
  note "building release binary with --static-swift-stdlib"
  swift build -c release --static-swift-stdlib --product almanac >&2 || fail "release build failed"
  binary="$(swift build -c release --static-swift-stdlib --show-bin-path)/almanac"
fi
[ -x "$binary" ] || fail "no executable at $binary"
command -v ldd >/dev/null || fail "ldd not found"
command -v dpkg >/dev/null || fail "dpkg not found: this check needs a Debian-based machine"

ldd_out="$(ldd "$binary")" || fail "ldd failed on $binary"

# --- 2. static Swift runtime ----------------------------------------------------------------
if grep -E 'libswift|libFoundation|lib_FoundationICU|libdispatch|libBlocksRuntime|libXCTest' <<<"$ldd_out"; then
  fail "Swift runtime libraries are still dynamically linked (above): --static-swift-stdlib did not take"
fi
if grep -q 'not found' <<<"$ldd_out"; then
  grep 'not found' <<<"$ldd_out" >&2
  fail "unresolved shared libraries"
fi

# --- 3. runtime packages from the Dockerfile -------------------------------------------------
runtime_line="$(awk '/RUNTIME-PACKAGES/ {found=1; next} found && /apt-get install/ {print; exit}' Dockerfile)"
[ -n "$runtime_line" ] || fail "no apt-get install line after the RUNTIME-PACKAGES marker in Dockerfile"
runtime_packages="$(sed -E 's/.*apt-get install//; s/&&.*//; s/\\//g' <<<"$runtime_line" | tr ' ' '\n' | grep -E '^[a-z0-9][a-z0-9.+-]+$' || true)"
[ -n "$runtime_packages" ] || fail "could not parse runtime packages from: $runtime_line"
note "runtime packages: $(echo $runtime_packages)"

# Dependency closure over the local dpkg database (Depends + Pre-Depends, every alternative).
declare -A allowed=()
queue=()
for p in $runtime_packages $BASE_IMAGE_PACKAGES; do queue+=("$p"); done
while [ ${#queue[@]} -gt 0 ]; do
  p="${queue[0]}"; queue=("${queue[@]:1}")
  p="${p%%:*}"
  [ -n "$p" ] && [ -z "${allowed[$p]:-}" ] || continue
  allowed[$p]=1
  deps="$(dpkg-query -W -f='${Depends}, ${Pre-Depends}' "$p" 2>/dev/null || true)"
  for d in $(sed -E 's/\([^)]*\)//g; s/[|,]/ /g' <<<"$deps"); do
    queue+=("$d")
  done
done

# --- 4. every linked library is provided ------------------------------------------------------
owner_of() {
  local path="$1" candidates owner
  candidates="$path $(readlink -f "$path" 2>/dev/null || true)"
  case "$path" in
    /lib/*|/lib64/*) candidates="$candidates /usr$path" ;;
    /usr/lib/*) candidates="$candidates ${path#/usr}" ;;
  esac
  for c in $candidates; do
    owner="$(dpkg -S "$c" 2>/dev/null | head -n1 | cut -d: -f1)" && [ -n "$owner" ] && { echo "$owner"; return 0; }
  done
  return 1
}

missing=0
while read -r path; do
  [ -n "$path" ] || continue
  pkg="$(owner_of "$path")" || { echo "docker-check: $path belongs to no Debian package" >&2; missing=1; continue; }
  if [ -n "${allowed[$pkg]:-}" ]; then
    note "ok  $(basename "$path") <- $pkg"
  else
    echo "docker-check: $path comes from package '$pkg', which the runtime stage does not install" \
         "(add it to the apt-get install line after RUNTIME-PACKAGES in Dockerfile)" >&2
    missing=1
  fi
done < <(awk '/=>/ {print $3} !/=>/ && $1 ~ /^\// {print $1}' <<<"$ldd_out" | sort -u)

[ "$missing" -eq 0 ] || fail "the runtime image would lack shared libraries (above)"
note "PASS: $(basename "$binary") needs only libraries the runtime stage provides"
