#!/usr/bin/env bash
# Trims and configures a debootstrapped rootfs before it becomes tvshop/debian:bookworm:
# the security and updates suites, no recommended packages, no caches in image layers.
set -euo pipefail
rootfs="$1"
mirror="${MIRROR:-http://deb.debian.org/debian}"
cat >"$rootfs/etc/apt/sources.list" <<SOURCES
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb ${mirror%/debian}/debian-security bookworm-security main
SOURCES
cat >"$rootfs/etc/apt/apt.conf.d/90tvshop" <<'APT'
APT::Install-Recommends "false";
APT::Install-Suggests "false";
Acquire::Retries "3";
APT
# Images are built non-interactively; a debconf prompt would hang a build.
echo 'debconf debconf/frontend select Noninteractive' | chroot "$rootfs" debconf-set-selections
chroot "$rootfs" apt-get clean
rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/log/*.log "$rootfs"/tmp/* "$rootfs"/root/.bash_history
