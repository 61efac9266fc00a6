#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mkbe.sh - make the big-endian XFS test images in tests/images/: journals
# written by a big-endian kernel (Debian's s390x kernel, emulated by
# qemu-system-s390x), and what that kernel's log recovery leaves.
#
# Usage: sudo S390X_JOURNAL=/path/to/s390x-journal.sh tests/images/mkbe.sh [NAME...]
#    or: sudo tests/images/mkbe.sh --tool /path/to/s390x-journal.sh [NAME...]
#
#   NAME is be4k, be64k, beunl, beint or beint12 (default: all five).  For each NAME
#   it writes
#     tests/images/NAME.img.xz    the filesystem with a dirty log written by
#                                 the s390x kernel (xz -9)
#     tests/images/NAME.recovered.delta.xz
#                                 what the s390x kernel's recovery changes
#                                 outside the log: every 512-byte sector of
#                                 its recovered copy that differs from
#                                 NAME.img (format below; xz -9)
#     tests/images/NAME.txt       provenance: mkfs, workload, kernel, date
#
# s390x-journal.sh boots the s390x kernel with a busybox initramfs: given
# IMAGE and a busybox sh workload, it mounts IMAGE, runs the workload and
# powers off without unmounting; given --recover, it mounts (recovers) and
# unmounts.  It needs qemu-system-s390x (qemu-system-misc), cpio, and
# "dpkg --add-architecture s390x; apt-get update" (it apt-get downloads the
# s390x kernel and busybox-static).  mkfs.xfs runs here (little-endian); the
# workloads fsync with busybox "sync FILE..." (no xfs_io in busybox).  The
# emulated kernel is slow: about three minutes in all.
#
# Each image is checked before it is kept: "xfs_logscope replay" of it here
# (little-endian) must equal the s390x kernel's recovered copy outside the
# log (tests/lib/imgcmp.pl).  beunl leaves work (inodes unlinked while
# open) that replay --finish=mount leaves to the kernel's next mount, with
# the big-endian log dirty: a little-endian kernel refuses it, so the
# s390x kernel mounts replay's output, and that must equal its recovery of
# the original.
#
# beint is made by tests/images/mkguestint.sh (s390x beint), which needs no
# --tool: it boots the same kernel with tests/images/guest-journal.sh and a
# static helper (tests/images/xlsguest.c, built with s390x-linux-gnu-gcc)
# that reflinks and shuts the filesystem down (XFS_IOC_GOINGDOWN) while
# truncations and a reflink are half done: EFIs, RUIs, CUIs and BUIs
# pending, with an inode unlinked while open and CoW staging extents, on a
# reflink+rmapbt filesystem.  Its check records the sectors where replay's
# output differs from the kernel's recovery instead of refusing the image
# (the s390x kernel is 6.1; pass 3 here is xfsprogs' libxfs, newer: see
# beint.txt and tests/t0860-bigendian.sh).
#
# beint12 is beint's workload under Debian trixie's s390x kernel (6.12,
# whose pass 3 is libxfs 6.13's): its linux-image .deb (BEINT12_KERNEL,
# default linux-image-6.12.107+deb13-s390x, the newest the mirror served
# when beint12 was made) is fetched with apt-get download through an apt
# configuration private to this script's temporary folder (a sources list
# "deb [arch=s390x] MIRROR trixie main", its own state, lists and cache;
# MIRROR: TRIXIE_MIRROR, or the first Debian archive URI of the system's
# apt sources, which are never changed), and booted by mkguestint.sh with
# KERNEL_DEB for the workload and the reference recovery alike.  Its
# check wants replay's output to equal that kernel's recovery outside the
# log, sector for sector (tests/t0860-bigendian.sh holds it to that).
#
# Delta format (NAME.recovered.delta.xz, uncompressed):
#   "xls-imgdelta 1 SIZE LOGOFF LOGBYTES\n", then for each run of differing
#   sectors "DADDR COUNT\n" followed by COUNT*512 bytes of the recovered
#   image, then "end\n".  The log region [LOGOFF, LOGOFF+LOGBYTES) is left
#   out.  NAME.img patched with it is the recovered image outside the log
#   (tests/t0860-bigendian.sh applies it and compares with
#   tests/lib/imgcmp.pl).  The images differ on every run (UUIDs, timing).

set -euo pipefail

ALL=(be4k be64k beunl beint beint12)
OUTDIR=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$OUTDIR/../.." && pwd)
PROG=${0##*/}
die() { echo "$PROG: $*" >&2; exit 1; }
log() { echo "$PROG: $*" >&2; }

TOOL=${S390X_JOURNAL:-}
if [ "${1:-}" = --tool ]; then
	TOOL=$2
	shift 2
fi
[ $# -gt 0 ] || set -- "${ALL[@]}"
# beint is made with tests/images/guest-journal.sh (mkguestint.sh)
case " $* " in
*" be4k "*|*" be64k "*|*" beunl "*)
	[ -n "$TOOL" ] || die "give the path of s390x-journal.sh (S390X_JOURNAL=... or --tool PATH)"
	[ -r "$TOOL" ] || die "$TOOL: not found" ;;
esac
for t in mkfs.xfs xz perl qemu-system-s390x cpio; do
	command -v "$t" >/dev/null || die "$t not found"
done
XLS=${XLS:-$TOP/build/xfs_logscope}
[ -x "$XLS" ] || die "$XLS not found (make first, or set XLS)"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/mkbe.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

# The workloads: busybox sh, run in / with the filesystem on /mnt; each
# ends by printing WORKLOAD-DONE (s390x-journal.sh powers off after it).
wl_be4k() {
	cat <<'EOF'
cd /mnt
mkdir alpha beta links
sync /mnt
i=1
while [ $i -le 300 ]; do
	: > alpha/file-$i
	if [ $((i % 3)) -eq 0 ]; then
		echo "payload $i" > beta/other-$i-with-a-longer-name
		sync beta beta/other-$i-with-a-longer-name
	fi
	if [ $((i % 5)) -eq 0 ]; then rm -f alpha/file-$((i - 2)); fi
	if [ $((i % 7)) -eq 0 ] && [ -e alpha/file-$((i - 3)) ]; then
		mv alpha/file-$((i - 3)) beta/renamed-$i
		sync beta
	fi
	if [ $((i % 4)) -eq 0 ]; then ln alpha/file-$i links/hl-$i; fi
	if [ $((i % 8)) -eq 0 ] && [ -e links/hl-$((i - 4)) ]; then
		ln links/hl-$((i - 4)) beta/hl2-$i
		rm links/hl-$((i - 4))
	fi
	if [ $((i % 11)) -eq 0 ]; then mkdir alpha/sub-$i; : > alpha/sub-$i/inner; fi
	if [ $((i % 22)) -eq 0 ]; then
		rm alpha/sub-$((i - 11))/inner
		rmdir alpha/sub-$((i - 11))
	fi
	if [ $((i % 25)) -eq 0 ]; then
		dd if=/dev/urandom of=beta/data-$i bs=4096 count=$((i / 50 + 1)) conv=fsync 2>/dev/null
	fi
	if [ $((i % 50)) -eq 0 ]; then
		truncate -s 1000 beta/data-$((i - 25))
		fallocate -l 65536 beta/prealloc-$i
		sync beta/data-$((i - 25)) beta/prealloc-$i
	fi
	sync alpha links
	# let the log worker (every 30 s) push the AIL: metadata written back
	# mid-way, so recovery replays onto blocks the kernel wrote
	if [ $i -eq 150 ]; then sleep 35; fi
	i=$((i + 1))
done
i=10
while [ $i -le 300 ]; do
	rm -f alpha/file-$i
	if [ $((i % 30)) -eq 0 ]; then sync alpha; fi
	i=$((i + 10))
done
sync alpha beta links
echo WORKLOAD-DONE
EOF
}

wl_be64k() {
	cat <<'EOF'
cd /mnt
mkdir big out
sync /mnt
i=1
while [ $i -le 9000 ]; do
	: > big/a-big-directory-entry-with-a-long-name-$i
	if [ $((i % 250)) -eq 0 ]; then sync big; fi
	i=$((i + 1))
done
sync big
i=7 n=0
while [ $i -le 9000 ]; do
	if [ $((i % 2)) -eq 0 ]; then
		mv big/a-big-directory-entry-with-a-long-name-$i out/moved-$i
	else
		rm big/a-big-directory-entry-with-a-long-name-$i
	fi
	n=$((n + 1))
	if [ $((n % 10)) -eq 0 ]; then sync big out; fi
	i=$((i + 15))
done
sync big out
echo WORKLOAD-DONE
EOF
}

# 40 files held open (by background sleeps) and unlinked: the kernel's
# recovery finishes the work left (frees them from the AGI unlinked lists)
wl_beunl() {
	cat <<'EOF'
cd /mnt
mkdir u keep
i=1
while [ $i -le 40 ]; do
	yes "file $i of beunl" | head -c $((4096 * (i % 4 + 1))) > u/f$i
	: > keep/k$i
	i=$((i + 1))
done
sync u keep u/f1
i=1
while [ $i -le 40 ]; do
	sleep 100000 < u/f$i &
	i=$((i + 1))
done
sleep 1
i=1
while [ $i -le 40 ]; do
	rm u/f$i
	if [ $((i % 5)) -eq 0 ]; then sync u; fi
	i=$((i + 1))
done
sync u keep
echo WORKLOAD-DONE
EOF
}

MKFS_be4k="mkfs.xfs -q -l size=64m"
MKFS_be64k="mkfs.xfs -q -l size=64m -n size=65536"

# DELTA: tests/lib/mkdelta.pl, and tests/lib/applydelta.pl to check it
mkdelta() { perl "$TOP/tests/lib/mkdelta.pl" "$@"; }
applydelta() { perl "$TOP/tests/lib/applydelta.pl" "$@" >/dev/null; }

# trixie_kernel: fetch trixie's s390x kernel .deb into $WORK/trixie through
# a private apt configuration; prints its path
trixie_kernel() {
	local a=$WORK/trixie mirror=${TRIXIE_MIRROR:-} pkg=${BEINT12_KERNEL:-linux-image-6.12.107+deb13-s390x}
	if [ -z "$mirror" ]; then
		mirror=$({ cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null || :; } |
			awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /^https?:.*\/debian\/?$/) { print $i; exit } }')
		[ -n "$mirror" ] || mirror=$({ cat /etc/apt/sources.list.d/*.sources 2>/dev/null || :; } |
			awk '$1 == "URIs:" { for (i = 2; i <= NF; i++) if ($i ~ /\/debian\/?$/) { print $i; exit } }')
	fi
	[ -n "$mirror" ] || mirror=http://deb.debian.org/debian
	mkdir -p "$a/etc/sources.list.d" "$a/etc/preferences.d" "$a/lists/partial" \
		"$a/cache/archives/partial" "$a/state" "$a/deb"
	: >"$a/status"
	# apt's _apt sandbox user writes the download (else apt warns)
	if id _apt >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then chown _apt "$a/deb"; fi
	echo "deb [arch=s390x] $mirror trixie main" >"$a/etc/sources.list"
	local opts=(-o "Dir::Etc::SourceList=$a/etc/sources.list"
		-o "Dir::Etc::SourceParts=$a/etc/sources.list.d"
		-o "Dir::Etc::Preferences=$a/etc/preferences"
		-o "Dir::Etc::PreferencesParts=$a/etc/preferences.d"
		-o "Dir::State=$a/state" -o "Dir::State::Lists=$a/lists"
		-o "Dir::State::status=$a/status" -o "Dir::Cache=$a/cache"
		-o "APT::Default-Release=")
	apt-get "${opts[@]}" update -qq </dev/null >&2 || die "apt-get update (trixie, $mirror) failed"
	(cd "$a/deb" && apt-get "${opts[@]}" download -qq "$pkg:s390x" </dev/null >&2) ||
		die "cannot download $pkg:s390x from $mirror trixie"
	echo "$a"/deb/linux-image-*.deb
}

make_one() {
	local name=$1 mk wl img ref logoff logbytes state t0 t1 t2 verified
	case $name in
	be4k)	mk=$MKFS_be4k; wl=wl_be4k ;;
	be64k)	mk=$MKFS_be64k; wl=wl_be64k ;;
	beunl)	mk=$MKFS_be4k; wl=wl_beunl ;;
	beint)	MKGUESTINT_KEEP=${MKBE_KEEP:-} bash "$OUTDIR/mkguestint.sh" s390x beint; return ;;
	beint12)
		KERNEL_DEB=$(trixie_kernel) MKGUESTINT_KEEP=${MKBE_KEEP:-} \
			bash "$OUTDIR/mkguestint.sh" s390x beint12
		grep -q "replay's output equals REF outside the log" "$OUTDIR/beint12.txt" ||
			die "beint12: replay's output differs from the 6.12 kernel's recovery (beint12.txt)"
		return ;;
	*)	die "unknown image $name" ;;
	esac
	img=$WORK/$name.img ref=$WORK/$name.ref
	"$wl" >"$WORK/$name.wl.sh"
	truncate -s 512M "$img"
	# shellcheck disable=SC2086
	$mk "$img"
	log "$name: workload under the s390x kernel"
	t0=$(date +%s)
	bash "$TOOL" "$img" "$WORK/$name.wl.sh" >&2
	t1=$(date +%s)
	"$XLS" info "$img" | grep -q '^state  *dirty$' || die "$name: the log is not dirty"
	read -r logoff logbytes < <("$XLS" info --json "$img" |
		sed -n 's/.*"log_offset":\([0-9]*\).*"log_bytes":\([0-9]*\).*/\1 \2/p')
	state=$("$XLS" info "$img" | awk '$1 ~ /^(head_blk|tail_blk|last_lsn|tail_lsn|records|trans_committed|items)$/ { printf "%s %s  ", $1, $2 }')
	log "$name: the s390x kernel recovers a copy"
	cp --sparse=always "$img" "$ref"
	bash "$TOOL" "$ref" --recover >&2
	t2=$(date +%s)
	"$XLS" info "$ref" | grep -q '^state  *clean$' || die "$name: the recovered copy's log is not clean"
	mkdelta "$img" "$ref" "$logoff" "$logbytes" >"$WORK/$name.delta" 2>"$WORK/$name.dstat"
	# the delta must give back the recovered image outside the log
	cp --sparse=always "$img" "$WORK/$name.check"
	applydelta "$WORK/$name.check" "$WORK/$name.delta"
	perl "$TOP/tests/lib/imgcmp.pl" "$ref" "$WORK/$name.check" "$logoff" "$logbytes" ||
		die "$name: the delta does not give back the recovered image"
	# xfs_logscope replay here (little-endian) against the s390x kernel:
	# equal outside the log; with work left (the log stays dirty), the
	# s390x kernel's mount of the output must finish it as it finishes
	# the original's (a little-endian kernel cannot recover a big-endian
	# log, so only that kernel can)
	"$XLS" replay --finish=mount -o "$WORK/$name.out" "$img" >"$WORK/$name.replay"
	if grep -q "next: mount OUT" "$WORK/$name.replay"; then
		bash "$TOOL" "$WORK/$name.out" --recover >&2
		verified="replay's output, recovered by the s390x kernel, equals REF outside the log"
	else
		verified="replay's output equals REF outside the log"
	fi
	perl "$TOP/tests/lib/imgcmp.pl" "$ref" "$WORK/$name.out" "$logoff" "$logbytes" ||
		die "$name: xfs_logscope replay differs from the s390x kernel's recovery"
	rm -f "$WORK/$name.out"
	xz -9 -T1 -c "$img" >"$WORK/$name.img.xz"
	xz -9 -T1 -c "$WORK/$name.delta" >"$WORK/$name.recovered.delta.xz"
	{
		echo "image:     $name.img.xz (dirty log written by a big-endian kernel)"
		echo "reference: $name.recovered.delta.xz (what that kernel's recovery changes outside the log)"
		echo "made by:   tests/images/mkbe.sh $name (with s390x-journal.sh)"
		echo "date:      $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
		echo "kernel:    Debian linux-image-6.1.0-50-s390x (6.1.176), s390x (big-endian), under"
		echo "           $(qemu-system-s390x --version | head -1) (TCG) on $(uname -m)"
		echo "busybox:   Debian busybox-static:s390x (1.35.0)"
		echo "xfsprogs:  $(mkfs.xfs -V | sed 's/^mkfs.xfs //') ($(uname -m), little-endian: mkfs only)"
		echo "image size: $(stat -c %s "$img") bytes"
		echo "mkfs:      truncate -s 512M $name.img; $mk $name.img"
		echo "dirty log: mount by the s390x kernel, workload, poweroff -f (no unmount)"
		echo "log state: $state"
		echo "log:       offset $logoff, $logbytes bytes"
		echo "recovered: cp --sparse=always $name.img REF; s390x-journal.sh REF --recover"
		echo "           (the s390x kernel mounts, recovers, unmounts); REF sha256"
		echo "           $(sha256sum "$ref" | cut -d" " -f1)"
		echo "           delta: $(cat "$WORK/$name.dstat"), $(stat -c %s "$WORK/$name.delta") bytes uncompressed"
		echo "checked:   $verified"
		echo "           (tests/lib/imgcmp.pl; xfs_logscope $(git -C "$TOP" describe --always --dirty 2>/dev/null || echo '?'))"
		echo "timing:    workload $((t1 - t0)) s, recovery $((t2 - t1)) s (emulated)"
		echo
		echo "workload (busybox sh; \"sync FILE...\" fsyncs each FILE):"
		echo
		cat "$WORK/$name.wl.sh"
	} >"$WORK/$name.txt"
	mv "$WORK/$name.img.xz" "$WORK/$name.recovered.delta.xz" "$WORK/$name.txt" "$OUTDIR/"
	log "$name: $(stat -c %s "$OUTDIR/$name.img.xz") + $(stat -c %s "$OUTDIR/$name.recovered.delta.xz") bytes"
	# MKBE_KEEP=DIR keeps the dirty image and the recovered copy there
	if [ -n "${MKBE_KEEP:-}" ]; then
		mv "$img" "$MKBE_KEEP/$name.img"
		mv "$ref" "$MKBE_KEEP/$name.recovered.img"
	fi
	rm -f "$img" "$ref" "$WORK/$name.check" "$WORK/$name.delta"
}

for n in "$@"; do
	make_one "$n"
done
