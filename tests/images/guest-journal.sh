#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# guest-journal.sh - the shared s390x-journal.sh and i386-journal.sh in one
# script, with an extra static binary in the guest: boot Debian's s390x
# (big-endian) or 686 (32-bit x86) 6.1 kernel under qemu (TCG) with a
# busybox initramfs, mount IMAGE on /mnt, run WORKLOAD (a busybox sh
# fragment; it must print WORKLOAD-DONE at its end), power off without
# unmounting: IMAGE is left with a dirty log written by that kernel.  With
# --recover instead of a workload, the same kernel mounts IMAGE and
# unmounts it: what that kernel's log recovery leaves.
#
# Usage: [GUEST_BIN=FILE] [KERNEL_DEB=FILE] guest-journal.sh s390x|i386 IMAGE WORKLOAD.sh|--recover
#   GUEST_BIN: a static binary for the guest, put in the initramfs as
#   /bin/xlsguest (tests/images/xlsguest.c: reflink, fragmented writes,
#   the XFS_IOC_GOINGDOWN shutdown busybox has no command for).
#   KERNEL_DEB: a Debian linux-image .deb of that architecture to boot
#   instead of the 6.1 kernel apt-get downloads (e.g. trixie's 6.12 s390x
#   kernel, fetched through a private apt configuration: mkbe.sh); its
#   modules may be compressed (.ko.xz, .ko.zst: unpacked here) and under
#   usr/lib/modules; one the kernel has built in (modules.builtin) is
#   skipped.
#   Before poweroff the kernel's XFS messages are printed as "KMSG2 ..."
#   lines (mkbe.sh and mki386.sh record them).
# Needs (Debian, as root): apt-get install qemu-system-misc qemu-system-x86
#   cpio; dpkg --add-architecture s390x; dpkg --add-architecture i386;
#   apt-get update.  Same kernels, busybox and qemu command lines as
#   s390x-journal.sh and i386-journal.sh.
set -eu
arch=$1 img=$(readlink -f "$2") wl=$3
w=$(mktemp -d); trap 'rm -rf "$w"' EXIT
[ "$wl" = --recover ] || wl=$(readlink -f "$wl")
bin=${GUEST_BIN:+$(readlink -f "$GUEST_BIN")}
cd "$w"
kdeb=${KERNEL_DEB:+$(readlink -f "$KERNEL_DEB")}
case $arch in
s390x)	kpkg=linux-image-6.1.0-50-s390x:s390x pkgs="busybox-static:s390x"
	mods="crc32c_generic libcrc32c xfs virtio_blk" ;;
i386)	kpkg=linux-image-6.1.0-57-686-unsigned:i386 pkgs="busybox-static:i386"
	mods="virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev virtio_pci virtio_blk crc32c_generic libcrc32c xfs" ;;
*)	echo "guest-journal: s390x or i386, not $arch"; exit 1 ;;
esac
[ -n "$kdeb" ] || pkgs="$kpkg $pkgs"
# shellcheck disable=SC2086
apt-get download -qq $pkgs >/dev/null 2>&1 ||
	{ echo "guest-journal: cannot download $pkgs (dpkg --add-architecture; apt-get update)"; exit 1; }
mkdir k bb ir ir/bin ir/m ir/proc ir/sys ir/dev ir/mnt
dpkg-deb -x "${kdeb:-$(echo linux-image-*.deb)}" k
dpkg-deb -x busybox-static_*.deb bb
cp bb/bin/busybox ir/bin/
[ -z "$bin" ] || cp "$bin" ir/bin/xlsguest
K=$(echo k/lib/modules/* k/usr/lib/modules/* | tr ' ' '\n' | grep -v '\*' | head -1)
[ -d "$K/kernel" ] || { echo "guest-journal: no modules in the kernel package"; exit 1; }
load=
for m in $mods; do
	f=$(find "$K/kernel" \( -name "$m.ko" -o -name "$m.ko.xz" -o -name "$m.ko.zst" \) | head -1)
	case $f in
	*.ko)	cp "$f" ir/m/ ;;
	*.xz)	xz -dc "$f" > "ir/m/$m.ko" ;;
	*.zst)	zstd -q -dc "$f" > "ir/m/$m.ko" ;;
	*)	grep -q "/$m\.ko\$" "$K/modules.builtin" 2>/dev/null ||
			{ echo "guest-journal: no module $m in the kernel package"; exit 1; }
		continue ;;
	esac
	load="$load $m"
done
{
	echo '#!/bin/busybox sh'
	echo '/bin/busybox --install -s /bin'
	echo 'mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev'
	echo "for m in$load; do insmod /m/\$m.ko; done; sleep 1"
	echo 'mount -t xfs /dev/vda /mnt && echo MOUNTED'
	if [ "$wl" = --recover ]; then echo 'umount /mnt && echo WORKLOAD-DONE'; else cat "$wl"; fi
	echo 'dmesg | grep -i -e xfs -e recover | sed "s/^/KMSG2 /"'
	echo 'poweroff -f'
} > ir/init
chmod +x ir/init
(cd ir && find . | cpio -o -H newc 2>/dev/null | gzip > ../initrd.gz)
case $arch in
s390x)	timeout 1800 qemu-system-s390x -nographic -no-reboot -m 1024 \
		-kernel k/boot/vmlinuz-* -initrd initrd.gz -append "console=ttysclp0 quiet" \
		-drive file="$img",if=none,id=d0,format=raw,cache=unsafe -device virtio-blk-ccw,drive=d0 > boot.log 2>&1 || true ;;
i386)	timeout 1800 qemu-system-i386 -accel tcg -nographic -no-reboot -m 1024 \
		-kernel k/boot/vmlinuz-* -initrd initrd.gz -append "console=ttyS0 quiet" \
		-drive file="$img",if=none,id=d0,format=raw,cache=unsafe -device virtio-blk-pci,drive=d0 > boot.log 2>&1 || true ;;
esac
cat boot.log
grep -q MOUNTED boot.log && grep -q WORKLOAD-DONE boot.log || { echo "guest-journal: failed"; exit 1; }
echo "guest-journal: $img done"
