#!/usr/bin/env bash
# Install every Debian package pktpath's build, tests and benchmarks need.
# Idempotent: quiet and fast when everything is already there.
set -euo pipefail

PKGS=(
  build-essential meson ninja-build pkg-config python3 python3-matplotlib
  libdpdk-dev dpdk dpdk-dev
  libbpf-dev libpcap-dev libjansson-dev libmicrohttpd-dev libcmocka-dev
  clang llvm libclang-rt-14-dev clang-format
  prometheus tcpdump tcpreplay curl valgrind
  iproute2 nftables
)

missing=()
for p in "${PKGS[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ "${#missing[@]}" -eq 0 ]; then
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "setup.sh: missing packages (${missing[*]}) and not root; install them or run as root" >&2
    exit 1
  fi
fi

echo "setup.sh: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >/dev/null
# prometheus pulls in a service; we only need the binaries, so don't start it.
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
# Debian's prometheus package starts a server on :9090 on install; our tests start their own.
if command -v systemctl >/dev/null 2>&1; then $SUDO systemctl stop prometheus >/dev/null 2>&1 || true; fi
