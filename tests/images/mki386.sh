#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mki386.sh - make the i386 XFS test images in tests/images/: journals
# written by a 32-bit x86 kernel (Debian's 686 kernel, emulated by
# qemu-system-i386) on filesystems mounted with user and group quota, and
# what that kernel's log recovery leaves, with the quota options and
# without them.
#
# Usage: sudo I386_JOURNAL=/path/to/i386-journal.sh tests/images/mki386.sh [NAME...]
#    or: sudo tests/images/mki386.sh --tool /path/to/i386-journal.sh [NAME...]
#
#   NAME is i386q, i386v4q or i386int (default: all three).  For i386q and
#   i386v4q it writes
#     tests/images/NAME.img.xz    the filesystem with a dirty log written by
#                                 the i386 kernel (xz -9)
#     tests/images/NAME.recovered.delta.xz
#                                 what the i386 kernel's recovery, mounted
#                                 with the same quota options as the
#                                 workload (uquota,gquota), changes outside
#                                 the log (mkbe.sh's delta format; xz -9)
#     tests/images/NAME.noquota.delta.xz
#                                 what the same kernel's recovery without
#                                 quota options changes outside the log: it
#                                 skips the dquot items and resets the
#                                 superblock's quota flags ("resetting quota
#                                 flags")
#     tests/images/NAME.txt       provenance: mkfs, mount options, workload,
#                                 kernel, date, log state, checks
#
# i386-journal.sh boots the i386 kernel with a busybox initramfs: given
# IMAGE and a busybox sh workload, it mounts IMAGE (with -o $MOUNTOPTS when
# set), runs the workload and powers off without unmounting; given
# --recover, it mounts (recovers) and unmounts.  This script sets MOUNTOPTS
# itself for every run (the caller's is not used).  It needs
# qemu-system-i386 (qemu-system-x86), cpio, and "dpkg --add-architecture
# i386; apt-get update" (it apt-get downloads the 686 kernel and
# busybox-static).  mkfs.xfs runs here (x86_64); the workload fsyncs with
# busybox "sync FILE..." (no xfs_io in busybox).  A tool that also prints
# the kernel's messages (lines "KMSG2 ..." from dmesg before poweroff) has
# them recorded in NAME.txt.  About three minutes in all.
#
# i386int is made by tests/images/mkguestint.sh (i386 i386int), which needs
# no --tool: it boots the same kernel with tests/images/guest-journal.sh
# and a static helper (tests/images/xlsguest.c, built with
# i686-linux-gnu-gcc or gcc -m32) that reflinks and shuts the filesystem
# down (XFS_IOC_GOINGDOWN) while truncations and a reflink are half done:
# EFIs, RUIs, CUIs and BUIs pending, with an inode unlinked while open and
# CoW staging extents, on a reflink+rmapbt filesystem, no quota.  It writes
# i386int.img.xz, i386int.recovered.delta.xz and i386int.txt; its check
# records the sectors where replay's output differs from the kernel's
# recovery instead of refusing the image (the i386 kernel is 6.1; pass 3
# here is xfsprogs' libxfs, newer: see i386int.txt, tests/t0861-i386.sh).
#
# i386 logs differ from x86_64 ones: the record-header CRC covers 324
# bytes, the inode log format is 52 bytes, EFI/EFD extents 12 bytes.
#
# Each image is checked before it is kept: "xfs_logscope replay" of it here
# (x86_64; the default quota, the superblock's: uquota,gquota) must equal
# the i386 kernel's recovery with uquota,gquota outside the log, and
# "replay --quota=noquota" its recovery without quota options
# (tests/lib/imgcmp.pl); and the two recoveries must differ (the dquot
# items and the quota flags), or the image tests nothing of quota.
#
# Delta format: as mkbe.sh's ("xls-imgdelta 1 SIZE LOGOFF LOGBYTES\n",
# then "DADDR COUNT\n" and COUNT*512 bytes of the recovered image per run
# of differing sectors, then "end\n"; the log left out).  Both deltas are
# against NAME.img.  tests/t0861-i386.sh applies them and compares with
# tests/lib/imgcmp.pl.  The images differ on every run (UUIDs, timing).

set -euo pipefail

ALL=(i386q i386v4q i386int)
OUTDIR=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$OUTDIR/../.." && pwd)
PROG=${0##*/}
die() { echo "$PROG: $*" >&2; exit 1; }
log() { echo "$PROG: $*" >&2; }

TOOL=${I386_JOURNAL:-}
if [ "${1:-}" = --tool ]; then
	TOOL=${2:-}
	shift 2 || die "--tool needs a path"
fi
[ $# -gt 0 ] || set -- "${ALL[@]}"
# i386int is made with tests/images/guest-journal.sh (mkguestint.sh)
case " $* " in
*" i386q "*|*" i386v4q "*)
	[ -n "$TOOL" ] || die "give the path of i386-journal.sh (I386_JOURNAL=... or --tool PATH)"
	[ -r "$TOOL" ] || die "$TOOL: not found" ;;
esac
for t in mkfs.xfs xz perl qemu-system-i386 cpio; do
	command -v "$t" >/dev/null || die "$t not found"
done
XLS=${XLS:-$TOP/build/xfs_logscope}
[ -x "$XLS" ] || die "$XLS not found (make first, or set XLS)"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/mki386.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

# The workload: busybox sh, run in / with the filesystem on /mnt; it ends
# by printing WORKLOAD-DONE (i386-journal.sh powers off after it).  Files
# made and chowned to uids 1001-1004 and gids 2001-2003, data written,
# truncated and removed, directories made and removed: each step changes
# the user and group dquots, which the log carries as dquot items.  Half
# of the quota workload of the reference journals (100 rounds), zeros for
# data, so that the image compresses well.
wl_quota() {
	cat <<'EOF'
cd /mnt
mkdir d0 d1 d2 shared
chown 1001:2001 d1; chown 1002:2002 d2; chmod 777 shared
sync /mnt d1 d2
i=1
while [ $i -le 100 ]; do
	u=$((1001 + i % 4)); g=$((2001 + i % 3))
	f=shared/f-$i
	echo "data $i for uid $u gid $g" > $f
	chown $u:$g $f
	sync $f shared
	if [ $((i % 5)) -eq 0 ]; then
		d=d$((i % 3))
		dd if=/dev/zero of=$d/big-$i bs=4096 count=$((i % 7 + 1)) 2>/dev/null
		chown $u:$g $d/big-$i
		sync $d/big-$i $d
	fi
	if [ $((i % 7)) -eq 0 ] && [ -e shared/f-$((i - 3)) ]; then
		rm shared/f-$((i - 3))
		sync shared
	fi
	if [ $((i % 9)) -eq 0 ] && [ -e shared/f-$((i - 4)) ]; then
		chown $((1001 + (i + 1) % 4)):$((2001 + (i + 1) % 3)) shared/f-$((i - 4))
		sync shared/f-$((i - 4))
	fi
	if [ $((i % 10)) -eq 0 ] && [ -e d$(((i - 5) % 3))/big-$((i - 5)) ]; then
		truncate -s 1000 d$(((i - 5) % 3))/big-$((i - 5))
		sync d$(((i - 5) % 3))/big-$((i - 5))
	fi
	if [ $((i % 13)) -eq 0 ]; then
		mkdir d1/sub-$i
		chown $u:$g d1/sub-$i
		: > d1/sub-$i/inner
		chown $u:$g d1/sub-$i/inner
		sync d1 d1/sub-$i d1/sub-$i/inner
	fi
	if [ $((i % 26)) -eq 0 ]; then
		rm d1/sub-$((i - 13))/inner
		rmdir d1/sub-$((i - 13))
		sync d1
	fi
	# let the log worker (every 30 s) push the AIL: metadata (dquot
	# blocks among it) written back mid-way, so recovery replays onto
	# blocks the kernel wrote
	if [ $i -eq 50 ]; then sleep 35; fi
	i=$((i + 1))
done
i=10
while [ $i -le 100 ]; do
	rm -f shared/f-$i d0/big-$i d1/big-$i d2/big-$i
	if [ $((i % 30)) -eq 0 ]; then sync shared d0 d1 d2; fi
	i=$((i + 10))
done
sync /mnt shared d0 d1 d2
echo WORKLOAD-DONE
EOF
}

MKFS_i386q="mkfs.xfs -q -l size=64m"
MKFS_i386v4q="mkfs.xfs -q -l size=64m -m crc=0"
QUOTA=uquota,gquota

# DELTA: tests/lib/mkdelta.pl, and tests/lib/applydelta.pl to check it
mkdelta() { perl "$TOP/tests/lib/mkdelta.pl" "$@"; }
applydelta() { perl "$TOP/tests/lib/applydelta.pl" "$@" >/dev/null; }

# runtool LOG MOUNTOPTS IMAGE WORKLOAD|--recover: i386-journal.sh with
# exactly these mount options (none when empty); its output goes to LOG
runtool() {
	local out=$1 opts=$2
	shift 2
	if ! env -u RTDEV MOUNTOPTS="$opts" bash "$TOOL" "$@" >"$out" 2>&1; then
		tail -40 "$out" >&2
		die "i386-journal.sh $* failed (MOUNTOPTS=$opts)"
	fi
}

# kmsg LOG: the kernel's messages about XFS and quota before poweroff, when
# the tool printed them (KMSG2 lines); the per-module banner left out
kmsg() {
	grep -a '^KMSG2 ' "$1" | sed 's/^KMSG2 //' | tr -d '\r' |
		grep -v -e 'SGI XFS' -e 'dquot_6' || :
}

# recover_copy NAME SUFFIX MOUNTOPTS: the i386 kernel recovers a copy of
# NAME.img, mounted with MOUNTOPTS; writes NAME.SUFFIX (image),
# NAME.SUFFIX.delta, .dstat and .log
recover_copy() {
	local name=$1 suf=$2 opts=$3 img=$WORK/$1.img ref=$WORK/$1.$2
	cp --sparse=always "$img" "$ref"
	runtool "$ref.log" "$opts" "$ref" --recover
	"$XLS" info "$ref" | grep -q '^state  *clean$' ||
		die "$name: the $suf copy's log is not clean"
	mkdelta "$img" "$ref" "$logoff" "$logbytes" >"$ref.delta" 2>"$ref.dstat"
	# the delta must give back the recovered image outside the log
	cp --sparse=always "$img" "$WORK/$name.check"
	applydelta "$WORK/$name.check" "$ref.delta"
	perl "$TOP/tests/lib/imgcmp.pl" "$ref" "$WORK/$name.check" "$logoff" "$logbytes" ||
		die "$name: the $suf delta does not give back the recovered image"
	rm -f "$WORK/$name.check"
}

# replay_check NAME SUFFIX [OPTION]: xfs_logscope replay (with OPTION) of
# NAME.img here equals NAME.SUFFIX outside the log
replay_check() {
	local name=$1 suf=$2 opt=${3:-}
	rm -f "$WORK/$name.out"
	# shellcheck disable=SC2086
	"$XLS" replay $opt -o "$WORK/$name.out" "$WORK/$name.img" >"$WORK/$name.$suf.replay" ||
		die "$name: xfs_logscope replay ${opt:-(default quota)} failed"
	grep -q "log clean" "$WORK/$name.$suf.replay" ||
		die "$name: replay ${opt:-(default quota)} leaves the log dirty"
	perl "$TOP/tests/lib/imgcmp.pl" "$WORK/$name.$suf" "$WORK/$name.out" "$logoff" "$logbytes" ||
		die "$name: xfs_logscope replay ${opt:-(default quota)} differs from the i386 kernel's $suf recovery"
	rm -f "$WORK/$name.out"
}

make_one() {
	local name=$1 mk img state t0 t1 t2 t3 qdiff logoff logbytes
	case $name in
	i386q)	 mk=$MKFS_i386q ;;
	i386int) MKGUESTINT_KEEP=${MKI386_KEEP:-} bash "$OUTDIR/mkguestint.sh" i386 i386int; return ;;
	i386v4q) mk=$MKFS_i386v4q ;;
	*)	 die "unknown image $name" ;;
	esac
	img=$WORK/$name.img
	wl_quota >"$WORK/$name.wl.sh"
	truncate -s 512M "$img"
	# shellcheck disable=SC2086
	$mk "$img"
	log "$name: workload under the i386 kernel, mounted $QUOTA"
	t0=$(date +%s)
	runtool "$WORK/$name.wl.log" "$QUOTA" "$img" "$WORK/$name.wl.sh"
	t1=$(date +%s)
	"$XLS" info "$img" >"$WORK/$name.info"
	grep -q '^state  *dirty$' "$WORK/$name.info" || die "$name: the log is not dirty"
	grep -q '^crc_bad  *0$' "$WORK/$name.info" || die "$name: records with bad CRCs"
	read -r logoff logbytes < <("$XLS" info --json "$img" |
		sed -n 's/.*"log_offset":\([0-9]*\).*"log_bytes":\([0-9]*\).*/\1 \2/p')
	state=$(awk '$1 ~ /^(head_blk|tail_blk|last_lsn|tail_lsn|records|trans_committed|items)$/ { printf "%s %s  ", $1, $2 }' "$WORK/$name.info")
	"$XLS" recover --summary --json "$img" >"$WORK/$name.sum"
	grep -q "\"quota_mount\":\"$QUOTA\"" "$WORK/$name.sum" ||
		die "$name: the superblock does not have $QUOTA on"
	log "$name: the i386 kernel recovers a copy, mounted $QUOTA"
	recover_copy "$name" recovered "$QUOTA"
	t2=$(date +%s)
	log "$name: the i386 kernel recovers a copy, mounted without quota options"
	recover_copy "$name" noquota ""
	t3=$(date +%s)
	# the two recoveries differ (dquot blocks, quota flags): the image
	# holds quota work, or it tests nothing of it
	if qdiff=$(perl "$TOP/tests/lib/imgcmp.pl" "$WORK/$name.recovered" "$WORK/$name.noquota" "$logoff" "$logbytes"); then
		die "$name: the recoveries with and without quota are the same"
	fi
	# xfs_logscope replay here against the i386 kernel, equal outside the log
	replay_check "$name" recovered
	replay_check "$name" noquota --quota=noquota
	xz -9 -T1 -c "$img" >"$WORK/$name.img.xz"
	xz -9 -T1 -c "$WORK/$name.recovered.delta" >"$WORK/$name.recovered.delta.xz"
	xz -9 -T1 -c "$WORK/$name.noquota.delta" >"$WORK/$name.noquota.delta.xz"
	{
		echo "image:     $name.img.xz (dirty log written by a 32-bit x86 kernel, quota on)"
		echo "reference: $name.recovered.delta.xz (what that kernel's recovery, mounted $QUOTA,"
		echo "           changes outside the log)"
		echo "           $name.noquota.delta.xz (what its recovery without quota options changes"
		echo "           outside the log)"
		echo "made by:   tests/images/mki386.sh $name (with $TOOL)"
		echo "date:      $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
		echo "kernel:    Debian linux-image-6.1.0-57-686-unsigned:i386 ($(apt-cache policy linux-image-6.1.0-57-686-unsigned:i386 2>/dev/null | sed -n 's/^ *Candidate: //p')), i386 (32-bit x86), under"
		echo "           $(qemu-system-i386 --version | head -1) (TCG) on $(uname -m)"
		echo "busybox:   Debian busybox-static:i386 ($(apt-cache policy busybox-static:i386 2>/dev/null | sed -n 's/^ *Candidate: //p'))"
		echo "xfsprogs:  $(mkfs.xfs -V | sed 's/^mkfs.xfs //') ($(uname -m): mkfs only)"
		echo "image size: $(stat -c %s "$img") bytes; sha256 $(sha256sum "$img" | cut -d" " -f1)"
		echo "mkfs:      truncate -s 512M $name.img; $mk $name.img"
		echo "mount:     mount -t xfs -o $QUOTA /dev/vda /mnt (MOUNTOPTS=$QUOTA)"
		echo "dirty log: mount by the i386 kernel, workload, poweroff -f (no unmount)"
		echo "log state: $state"
		echo "log:       offset $logoff, $logbytes bytes"
		echo "recovered: cp --sparse=always $name.img REF; MOUNTOPTS=$QUOTA i386-journal.sh REF --recover"
		echo "           (the i386 kernel mounts with $QUOTA, recovers, unmounts); REF sha256"
		echo "           $(sha256sum "$WORK/$name.recovered" | cut -d" " -f1)"
		echo "           delta: $(cat "$WORK/$name.recovered.dstat"), $(stat -c %s "$WORK/$name.recovered.delta") bytes uncompressed"
		echo "noquota:   cp --sparse=always $name.img NOQ; i386-journal.sh NOQ --recover (MOUNTOPTS"
		echo "           unset: no quota options); NOQ sha256"
		echo "           $(sha256sum "$WORK/$name.noquota" | cut -d" " -f1)"
		echo "           delta: $(cat "$WORK/$name.noquota.dstat"), $(stat -c %s "$WORK/$name.noquota.delta") bytes uncompressed"
		echo "           REF and NOQ differ outside the log in: $(echo "$qdiff" | grep '^daddr' | sed 's/^daddr //' | tr '\n' ' ')"
		echo "checked:   replay's output equals REF outside the log (xfs_logscope replay,"
		echo "           the superblock's quota: $QUOTA), and replay --quota=noquota's equals NOQ"
		echo "           (tests/lib/imgcmp.pl; $XLS, $("$XLS" -V | head -1),"
		echo "           tree $(git -C "$TOP" describe --always --dirty 2>/dev/null || echo '?'))"
		echo "timing:    workload $((t1 - t0)) s, recovery $((t2 - t1)) s with quota, $((t3 - t2)) s without (emulated)"
		if [ -n "$(kmsg "$WORK/$name.wl.log")" ]; then
			echo
			echo "kernel messages (dmesg before poweroff, XFS and quota lines):"
			echo "  workload:"
			kmsg "$WORK/$name.wl.log" | sed 's/^/    /'
			echo "  recovery mounted $QUOTA:"
			kmsg "$WORK/$name.recovered.log" | sed 's/^/    /'
			echo "  recovery without quota options:"
			kmsg "$WORK/$name.noquota.log" | sed 's/^/    /'
		fi
		echo
		echo "xfs_logscope info $name.img:"
		echo
		grep -v '^input ' "$WORK/$name.info" | sed 's/^/  /'
		echo
		echo "workload (busybox sh; \"sync FILE...\" fsyncs each FILE):"
		echo
		cat "$WORK/$name.wl.sh"
	} >"$WORK/$name.txt"
	mv "$WORK/$name.img.xz" "$WORK/$name.recovered.delta.xz" "$WORK/$name.noquota.delta.xz" \
	   "$WORK/$name.txt" "$OUTDIR/"
	log "$name: $(stat -c %s "$OUTDIR/$name.img.xz") + $(stat -c %s "$OUTDIR/$name.recovered.delta.xz") + $(stat -c %s "$OUTDIR/$name.noquota.delta.xz") bytes"
	# MKI386_KEEP=DIR keeps the dirty image and the two recovered copies there
	if [ -n "${MKI386_KEEP:-}" ]; then
		mv "$img" "$MKI386_KEEP/$name.img"
		mv "$WORK/$name.recovered" "$MKI386_KEEP/$name.recovered.img"
		mv "$WORK/$name.noquota" "$MKI386_KEEP/$name.noquota.img"
	fi
	rm -f "$img" "$WORK/$name.recovered" "$WORK/$name.noquota" "$WORK/$name".*.delta
}

for n in "$@"; do
	make_one "$n"
done
