#!/usr/bin/env bash
# Prepares the QEMU guest test of package qemutest on Debian 12:
# installs QEMU (software emulation) and busybox-static, and unpacks
# Debian's current amd64 kernel, with its modules, into DIR.
#
#   bash drivers/port/usbport/qemutest/prepare.sh DIR
#   CHIPDESK_QEMU_KERNEL=DIR go test -tags 'qemu libusb' ./drivers/port/usbport/qemutest/
set -euo pipefail
dir=${1:?usage: prepare.sh DIR}
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
need=()
for p in qemu-system-x86 busybox-static libusb-1.0-0-dev pkg-config; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
if ls "$dir"/boot/vmlinuz-* >/dev/null 2>&1; then
	exit 0
fi
mkdir -p "$dir"
pkg=$(apt-cache depends linux-image-amd64 | awk '/Depends: linux-image-[0-9]/ { print $2; exit }')
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chmod 777 "$tmp"
(cd "$tmp" && apt-get download -qq "$pkg")
dpkg-deb -x "$tmp"/*.deb "$dir"
ls "$dir"/boot/vmlinuz-*
