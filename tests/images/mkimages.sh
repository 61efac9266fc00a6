#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mkimages.sh - make the XFS test images in tests/images/ with the real kernel.
#
# Usage: sudo tests/images/mkimages.sh [NAME...]
#
#   NAME is one of: dir4k dir64k logsu256k extlog wrapped clean unlinked
#   sfconv links later reflink pptr pptr64k sect4k remap intents intents2
#   (default: all of them).  For each NAME it writes
#     tests/images/NAME.img.xz   the filesystem image (xz -9)
#     tests/images/NAME.txt      provenance: mkfs command, workload, kernel,
#                                xfsprogs version, date, resulting log state
#     tests/images/NAME.logprint.norm
#                                "xfs_logprint -t -b" output normalised by
#                                tests/lib/logprint-norm.awk
#   and extlog also writes tests/images/extlog-log.img.xz (the log device).
#
# Needs root, loop devices, XFS in the kernel, xfsprogs (mkfs.xfs, xfs_io,
# xfs_logprint) and xz.  It is never run by "make check": the tests use the
# committed compressed images.
#
# Every image except "clean" is left with a DIRTY journal: the workload runs,
# then "xfs_io -x -c 'shutdown -f'" forces the log to disk and shuts the
# filesystem down, and the filesystem is unmounted.  Nothing that is written
# after the shutdown reaches the disk, so the log holds transactions that log
# recovery would replay.
#
# pptr and pptr64k are parent-pointer filesystems (mkfs.xfs -n parent=1),
# which need xfsprogs 6.10 or later: XFSPROGS_NEW names a built xfsprogs
# tree (its mkfs/mkfs.xfs, logprint/xfs_logprint), and without it they
# are skipped.  The system's xfsprogs stays as it is.
#
# Work files go to $MKIMAGES_TMP (default /dev/shm if it is writable, else
# /tmp); tmpfs makes the thousands of fsyncs fast.  The filesystems are
# mounted on /mnt/img-mkimages.XXXXXX, removed at the end.  "later" raises
# /proc/sys/fs/xfs/xfssyncd_centisecs while it runs and restores it (also
# on an early exit).

set -euo pipefail

ALL_IMAGES=(dir4k dir64k logsu256k extlog wrapped clean unlinked sfconv links later reflink pptr pptr64k sect4k remap intents intents2)

# The mkfs.xfs and xfs_logprint of an image: the system's, or XFSPROGS_NEW's.
MKFS=mkfs.xfs
LOGPRINT=xfs_logprint

HERE=$(cd "$(dirname "$0")" && pwd)
# where the images go: here, or MKIMAGES_OUT (to try a workload without touching the tree)
OUTDIR=${MKIMAGES_OUT:-$HERE}
NORM_AWK=$HERE/../lib/logprint-norm.awk
PROG=${0##*/}

die() { echo "$PROG: $*" >&2; exit 1; }
log() { echo "$PROG: $*" >&2; }

[ "$(id -u)" -eq 0 ] || die "must be run as root (needs mount and loop devices)"
for t in mkfs.xfs xfs_io xfs_logprint losetup xz mountpoint awk; do
	command -v "$t" >/dev/null || die "$t not found"
done
[ -r "$NORM_AWK" ] || die "$NORM_AWK not found"

if [ -z "${MKIMAGES_TMP:-}" ]; then
	if [ -d /dev/shm ] && [ -w /dev/shm ]; then
		MKIMAGES_TMP=/dev/shm
	else
		MKIMAGES_TMP=${TMPDIR:-/tmp}
	fi
fi
WORK=$(mktemp -d "$MKIMAGES_TMP/mkimages.XXXXXX")
# the mount point: /mnt/img-mkimages.XXXXXX, removed at the end
MNT=$(mktemp -d /mnt/img-mkimages.XXXXXX)

LOOPS=()	# loop devices we attached
SYNCD=/proc/sys/fs/xfs/xfssyncd_centisecs
SYNCD_SAVED=""	# its value before a workload changed it, restored at exit
BGPIDS=()	# background workload processes we started

cleanup() {
	local rc=$? p l
	set +e
	for p in "${BGPIDS[@]}"; do
		kill "$p" 2>/dev/null
	done
	for p in "${BGPIDS[@]}"; do
		wait "$p" 2>/dev/null
	done
	if mountpoint -q "$MNT"; then
		xfs_io -x -c 'shutdown' "$MNT" 2>/dev/null
		umount "$MNT" || umount -l "$MNT"
	fi
	for l in "${LOOPS[@]}"; do
		losetup -d "$l" 2>/dev/null
	done
	if [ -n "$SYNCD_SAVED" ]; then
		echo "$SYNCD_SAVED" >"$SYNCD"
	fi
	rm -rf "$WORK"
	mountpoint -q "$MNT" || rmdir "$MNT"
	exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# attach FILE: attach FILE to a free loop device; sets DEV.
DEV=""
attach() {
	DEV=$(losetup -f --show "$1")
	LOOPS+=("$DEV")
}

# detach DEV
detach() {
	local l keep=()
	losetup -d "$1"
	for l in "${LOOPS[@]}"; do
		[ "$l" = "$1" ] || keep+=("$l")
	done
	LOOPS=("${keep[@]}")
}

# stop_bg: kill and reap the background workload processes.
stop_bg() {
	local p
	for p in "${BGPIDS[@]}"; do
		kill "$p" 2>/dev/null || true
	done
	for p in "${BGPIDS[@]}"; do
		wait "$p" 2>/dev/null || true
	done
	BGPIDS=()
}

# fs: fsync each of the given files or directories (forces the log up to
# the last change of each).
fs() {
	local f
	for f in "$@"; do
		xfs_io -r -c fsync "$f"
	done
}

# shutdown_umount: force the log, shut the filesystem down, unmount.
shutdown_umount() {
	xfs_io -x -c 'shutdown -f' "$MNT"
	umount "$MNT"
}

# sysfs_log DEV FIELD: print /sys/fs/xfs/<dev>/log/FIELD ("cycle:block").
sysfs_log() {
	cat "/sys/fs/xfs/${1##*/}/log/$2"
}

# Provenance, filled in by each image function.
MKFS_CMD=""
MOUNT_CMD=""
WORKLOAD_FNS=()	# functions whose text goes into NAME.txt
NOTES=""

# finish NAME IMG [LOGIMG]: compress the image(s), write NAME.txt and
# NAME.logprint.norm; all are made in $WORK and moved into place together.
finish() {
	local name=$1 img=$2 logimg=${3:-} lopt=() state f out=()
	if [ -n "$logimg" ]; then
		lopt=(-l "$logimg")
	fi
	"$LOGPRINT" -t -b "${lopt[@]}" "$img" >"$WORK/$name.lpb"
	state=$(grep -m1 'log tail:' "$WORK/$name.lpb" | sed 's/^ *//' || true)
	log "$name: $state"

	# the normalised xfs_logprint -t -b output the tests compare against
	awk -f "$NORM_AWK" "$WORK/$name.lpb" >"$WORK/$name.logprint.norm"
	out+=("$name.logprint.norm")

	xz -9 -T1 -c "$img" >"$WORK/$name.img.xz"
	out+=("$name.img.xz")
	if [ -n "$logimg" ]; then
		xz -9 -T1 -c "$logimg" >"$WORK/$name-log.img.xz"
		out+=("$name-log.img.xz")
	fi

	{
		echo "image:     $name.img.xz$([ -n "$logimg" ] && echo " (data device), $name-log.img.xz (external log device)")"
		echo "made by:   tests/images/mkimages.sh $name"
		echo "date:      $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
		echo "kernel:    $(uname -r) ($(uname -m))"
		echo "xfsprogs:  $("$MKFS" -V | sed 's/^mkfs.xfs //')"
		echo "image size: $(stat -c %s "$img") bytes$([ -n "$logimg" ] && echo ", log device $(stat -c %s "$logimg") bytes")"
		echo "mkfs:      $MKFS_CMD"
		echo "mount:     $MOUNT_CMD"
		echo "log state: $state   (xfs_logprint -t$([ -n "$logimg" ] && echo " -l $name-log.img") $name.img)"
		if [ -n "$NOTES" ]; then
			echo "notes:     $NOTES"
		fi
		echo
		echo "workload (run in the mounted filesystem, MNT = mount point;"
		echo "fs F... = xfs_io -r -c fsync F for each F):"
		echo
		for f in "${WORKLOAD_FNS[@]}"; do
			declare -f "$f"
		done
	} >"$WORK/$name.txt"
	out+=("$name.txt")

	for f in "${out[@]}"; do
		mv -f "$WORK/$f" "$OUTDIR/$f"
	done
	log "$name: wrote $(for f in "${out[@]}"; do printf '%s (%s bytes) ' "$f" "$(stat -c %s "$OUTDIR/$f")"; done)"
	NOTES=""
}

# mkfs_img NAME SIZE MKFS-OPTIONS...: create a sparse image, mkfs it;
# sets IMG and MKFS_CMD.
IMG=""
mkfs_img() {
	local name=$1 size=$2
	shift 2
	IMG=$WORK/$name.img
	rm -f "$IMG"
	truncate -s "$size" "$IMG"
	MKFS_CMD="truncate -s $size $name.img; ${MKFS##*/} -f ${*:+$* }$name.img"
	"$MKFS" -f -q "$@" "$IMG"
}

# ---------------------------------------------------------------------------
# Workloads.  Each runs in the mounted filesystem ($MNT).

# A few hundred creates, unlinks and renames in two directories of a
# default (4 KiB directory block) filesystem, with a few hundred fsyncs.
wl_dir4k() {
	local a=$MNT/alpha b=$MNT/beta i
	mkdir "$a" "$b"
	fs "$MNT"
	for i in $(seq 1 300); do
		: >"$a/file-$(printf %05d "$i")"
		if [ $((i % 3)) -eq 0 ]; then
			: >"$b/other-$(printf %05d "$i")-with-a-longer-name"
			fs "$b"
		fi
		if [ $((i % 5)) -eq 0 ]; then
			rm -f "$a/file-$(printf %05d $((i - 2)))"
		fi
		if [ $((i % 7)) -eq 0 ] && [ -e "$a/file-$(printf %05d $((i - 3)))" ]; then
			mv "$a/file-$(printf %05d $((i - 3)))" "$b/renamed-$i"
			fs "$b"
		fi
		if [ $((i % 11)) -eq 0 ] &&
		   [ -e "$b/other-$(printf %05d $((i - i % 3)))-with-a-longer-name" ]; then
			mv "$b/other-$(printf %05d $((i - i % 3)))-with-a-longer-name" "$b/o$i"
		fi
		fs "$a"
	done
	# a last burst: unlink every tenth file of alpha
	for i in $(seq 10 10 300); do
		rm -f "$a/file-$(printf %05d "$i")"
		if [ $((i % 30)) -eq 0 ]; then fs "$a"; fi
	done
	fs "$a"
}

# One of the four concurrent loops of wl_dir64k: creates and unlinks in its
# own directory and in the shared big directory, fsyncs both every 20 steps.
wl_dir64k_loop() {
	local j=$1 own=$MNT/own$1 big=$MNT/big i n
	for i in $(seq 1 400); do
		n=$(printf %06d "$i")
		: >"$own/f$n"
		: >"$big/shared-directory-entry-from-loop-$j-number-$n"
		if [ $((i % 4)) -eq 0 ]; then
			rm -f "$own/f$(printf %06d $((i - 2)))"
		fi
		if [ $((i % 3)) -eq 0 ]; then
			rm -f "$big/a-big-directory-entry-with-a-long-name-$(printf %06d $((j * 1000 + i)))"
		fi
		if [ $((i % 20)) -eq 0 ]; then
			xfs_io -r -c fsync -c "open -r $big" -c fsync "$own"
		fi
	done
	xfs_io -r -c fsync -c "open -r $big" -c fsync "$own"
}

# The shared big directory first gets 8500 long names from one process,
# with no fsync until the end, so that its 64 KiB directory blocks go to
# leaf and then node form (data, leafn, free and da-node blocks) in a few
# big checkpoints.  Then four concurrent loops (wl_dir64k_loop, below)
# create and unlink in their own directories and in the big one, fsyncing
# both directories every 20 steps (a few hundred smaller checkpoints).
wl_dir64k() {
	local big=$MNT/big i j p
	mkdir "$big"
	for j in 1 2 3 4; do mkdir "$MNT/own$j"; done
	fs "$MNT"
	for i in $(seq 1 8500); do
		: >"$big/a-big-directory-entry-with-a-long-name-$(printf %06d "$i")"
	done
	fs "$big"
	for j in 1 2 3 4; do
		wl_dir64k_loop "$j" &
		BGPIDS+=($!)
	done
	for p in "${BGPIDS[@]}"; do
		wait "$p"
	done
	BGPIDS=()
	fs "$MNT/big"
}

# One big checkpoint (thousands of creates, then one fsync) that fills
# several 256 KiB log records, then a few small fsynced changes.
wl_logsu256k() {
	local d=$MNT/many i
	mkdir "$d"
	fs "$MNT"
	for i in $(seq 1 4000); do
		: >"$d/a-file-with-a-fairly-long-name-$(printf %06d "$i")"
	done
	fs "$d"
	for i in $(seq 1 12); do
		: >"$MNT/small-$i"
		fs "$MNT"
	done
	rm "$d"/a-file-with-a-fairly-long-name-0000[0-9]*
	fs "$d"
	mv "$MNT/small-1" "$d/moved"
	fs "$d"
}

# A log forcer: create and fsync small files until $WORK/stop exists.
# Each fsync pushes the CIL, so intents (EFI, CUI, BUI, ...) that would
# otherwise be cancelled with their done items inside one checkpoint
# ("intent whiteouts") sometimes land in a different checkpoint from them.
wl_forcer() {
	local d=$MNT/force$1 i=0
	mkdir -p "$d"
	while [ ! -e "$WORK/stop" ]; do
		i=$((i + 1))
		: >"$d/x$i"
		xfs_io -r -c fsync "$d/x$i" || return 0
		if [ $((i % 50)) -eq 0 ]; then
			rm -f "$d"/x*
		fi
	done
}

# One round of extent work in directory $1: preallocate 4 MiB, punch out
# every other 4 KiB (extent frees), reflink the file (refcount and bmap
# updates), overwrite part of the copy (copy on write), delete both.
wl_extents_round() {
	local d=$1 args=() o
	for o in $(seq 0 8 4088); do
		args+=(-c "fpunch ${o}k 4k")
	done
	xfs_io -f -c 'falloc 0 4m' -c fsync "$d/p" >/dev/null
	xfs_io "${args[@]}" "$d/p"
	xfs_io -f -c "reflink $d/p" -c fsync "$d/r" >/dev/null
	xfs_io -c 'pwrite -S 0x62 0 64k' -c fsync "$d/r" >/dev/null
	rm "$d/p" "$d/r"
	xfs_io -r -c fsync "$d"
}

# An extent worker: six rounds of wl_extents_round in its own directory.
wl_extents() {
	local d=$MNT/ext$1 round
	mkdir -p "$d"
	for round in 1 2 3 4 5 6; do
		wl_extents_round "$d"
	done
}

# Mixed creates, renames and unlinks with fsyncs, on an external log; then
# four extent workers (wl_extents) beside two log forcers (wl_forcer).
wl_extlog() {
	local a=$MNT/dir i p forcers=() workers=()
	mkdir "$a" "$MNT/sub"
	fs "$MNT"
	for i in $(seq 1 200); do
		: >"$a/entry-$(printf %05d "$i")"
		if [ $((i % 4)) -eq 0 ]; then
			mv "$a/entry-$(printf %05d $((i - 1)))" "$MNT/sub/r$i"
			fs "$MNT/sub"
		fi
		if [ $((i % 6)) -eq 0 ]; then
			rm -f "$a/entry-$(printf %05d $((i - 4)))"
		fi
		fs "$a"
	done
	echo "some data" >"$MNT/sub/datafile"
	fs "$MNT/sub/datafile" "$MNT/sub"

	rm -f "$WORK/stop"
	for i in 1 2; do
		wl_forcer "$i" &
		forcers+=($!)
	done
	BGPIDS+=("${forcers[@]}")
	for i in 1 2 3 4; do
		wl_extents "$i" &
		workers+=($!)
	done
	BGPIDS+=("${workers[@]}")
	for p in "${workers[@]}"; do
		wait "$p"
	done
	touch "$WORK/stop"
	for p in "${forcers[@]}"; do
		wait "$p"
	done
	BGPIDS=()
	rm "$MNT/sub/datafile"
	fs "$MNT/sub"
}

# Background load for "wrapped", forever (until killed): loads 1 and 2 do
# batches of create+fsync and unlink, one xfs_io process per batch; load 3
# does extent work (wl_extents_round) so that intents are in flight when
# the filesystem is shut down.
wl_wrapped_load() {
	local j=$1 d=$MNT/w$1 batch=0 i args
	trap 'exit 0' TERM
	mkdir -p "$d"
	if [ "$j" -eq 3 ]; then
		while :; do
			wl_extents_round "$d"
		done
	fi
	while :; do
		batch=$((batch + 1))
		args=()
		for i in $(seq 1 100); do
			args+=(-c "open -f $d/b$batch-file-$i" -c fsync)
		done
		xfs_io -r "${args[@]}" "$d"
		if [ "$batch" -gt 2 ]; then
			rm -f "$d/b$((batch - 2))-file-"*
			xfs_io -r -c fsync "$d"
		fi
	done
}

# The log must wrap: run the background load until the head has gone past
# the physical end of the log and is a little way into the next cycle,
# with the tail still in the previous cycle, then shut down while the load
# is still running.
WRAP_MIN_HEAD=${WRAP_MIN_HEAD:-2048}	# basic blocks into the new cycle
wl_wrapped() {
	local dev=$1 j head tail hc hb tc tb start=$SECONDS
	for j in 1 2 3; do
		# its errors after the shutdown (EIO) are expected
		wl_wrapped_load "$j" 2>>"$WORK/wrapped-load.err" &
		BGPIDS+=($!)
	done
	while :; do
		head=$(sysfs_log "$dev" log_head_lsn)
		tail=$(sysfs_log "$dev" log_tail_lsn)
		hc=${head%%:*} hb=${head##*:} tc=${tail%%:*} tb=${tail##*:}
		if [ "$hc" -ge 2 ] && [ "$hb" -ge "$WRAP_MIN_HEAD" ] &&
		   [ "$tc" -eq $((hc - 1)) ] && [ "$tb" -gt "$hb" ]; then
			break
		fi
		if [ $((SECONDS - start)) -gt 1800 ]; then
			echo "log did not wrap in 30 minutes (head $head tail $tail)" >&2
			return 1
		fi
		sleep 0.05
	done
	WRAP_AT="head $head tail $tail"
	xfs_io -x -c 'shutdown -f' "$MNT"
	stop_bg
}

# Some work, then a normal unmount: the log ends with an unmount record.
wl_clean() {
	local i
	mkdir "$MNT/d"
	for i in $(seq 1 100); do
		: >"$MNT/d/f$i"
		if [ $((i % 10)) -eq 0 ]; then fs "$MNT/d"; fi
	done
	rm "$MNT"/d/f1*
	fs "$MNT/d"
}

# Files unlinked while still open: their inodes go on the AGI unlinked
# lists (AGI buckets and di_next_unlinked in inode cluster buffers, logged
# with XFS_BLF_INODE_BUF).  The shell holds them open across the shutdown.
# There are 64 buckets per AG (bucket = agino % 64) and a bucket's chain is
# only written to an inode buffer when a second inode joins it, so 160
# consecutive inodes make chains of two and three.
UNLINKED_FDS=()
wl_unlinked() {
	local d=$MNT/open i fd
	mkdir "$d" "$MNT/keep"
	fs "$MNT"
	for i in $(seq 1 160); do
		: >"$d/held-$i"
	done
	for i in $(seq 1 40); do
		: >"$MNT/keep/k$i"
	done
	fs "$d" "$MNT/keep"
	for i in $(seq 1 160); do
		exec {fd}<"$d/held-$i"
		UNLINKED_FDS+=("$fd")
	done
	for i in $(seq 1 160); do
		rm "$d/held-$i"
		if [ $((i % 8)) -eq 0 ]; then fs "$d"; fi
	done
	rm "$MNT"/keep/k1*		# some plain unlinks too
	fs "$d" "$MNT/keep"
	# shut down with the files still open, then close them
	xfs_io -x -c 'shutdown -f' "$MNT"
	for fd in "${UNLINKED_FDS[@]}"; do
		exec {fd}<&-
	done
	UNLINKED_FDS=()
}

# Shortform directories that become blocks with hard links inside: each
# inode has two names (tN and its link hN) in the inline fork, then one
# checkpoint adds enough names to convert the directory to a block.  The
# conversion removes every name from the fork and adds it to the block, two
# names per inode; "files" must pair each remove with the add of the same
# name and report only the new names.
wl_sfconv() {
	local d i k
	for k in 1 2 3; do
		d=$MNT/d$k
		mkdir "$d"
		fs "$MNT"
		for i in $(seq 1 6); do
			: >"$d/t$i"
			ln "$d/t$i" "$d/h$i"
		done
		fs "$d"
		for i in $(seq 7 $((20 + 10 * k))); do
			: >"$d/t$i"
		done
		fs "$d"
	done
}

# Hard links.  First, written back before the log begins: d1/disk1..6,
# each with a second name d2/dlink1..6, then sync and a freeze (which
# pushes the whole AIL and covers the log), so that the log never holds
# these names.  Then, in the log, each step fsynced: in d1, d2 and d3,
# f1..f8 each get i % 3 + 1 hard links (the first in the same directory,
# the others in the next directories, d3 wrapping to d1); then some lose
# their original name, some a link, some links are renamed across
# directories, some files lose all names but one; and the disk-only files
# lose one of their two names (or are moved first).  The names each inode
# ends with are listed in tests/t0830-files-lost.sh.
wl_links() {
	local k i j n dk nx nxx
	mkdir "$MNT/d1" "$MNT/d2" "$MNT/d3"
	for i in $(seq 1 6); do
		: >"$MNT/d1/disk$i"
		ln "$MNT/d1/disk$i" "$MNT/d2/dlink$i"
	done
	sync
	xfs_freeze -f "$MNT"
	xfs_freeze -u "$MNT"
	# creates and links: d$k/f$i, and l$k-$i-$j in d$k, d$k+1, d$k+2
	for k in 1 2 3; do
		for i in $(seq 1 8); do
			: >"$MNT/d$k/f$i"
			fs "$MNT/d$k"
			n=$((i % 3 + 1))
			for j in $(seq 1 "$n"); do
				dk=$(((k + j - 2) % 3 + 1))
				ln "$MNT/d$k/f$i" "$MNT/d$dk/l$k-$i-$j"
				fs "$MNT/d$dk"
			done
		done
	done
	# removes and renames, by i (n links: i=1 2, 2 3, 3 1, 4 2, 5 3, 6 1,
	# 7 2, 8 3)
	for k in 1 2 3; do
		nx=$((k % 3 + 1)) nxx=$(((k + 1) % 3 + 1))
		rm "$MNT/d$k/f1"			# the original name
		fs "$MNT/d$k"
		rm "$MNT/d$k/l$k-2-1"			# a link
		fs "$MNT/d$k"
		mv "$MNT/d$k/l$k-3-1" "$MNT/d$nx/m$k-3"	# a link moved
		fs "$MNT/d$k" "$MNT/d$nx"
		rm "$MNT/d$k/f4" "$MNT/d$k/l$k-4-1"	# all but l$k-4-2
		fs "$MNT/d$k"
		rm "$MNT/d$k/l$k-5-1" "$MNT/d$nx/l$k-5-2" "$MNT/d$nxx/l$k-5-3"	# all but f5
		fs "$MNT/d$k" "$MNT/d$nx" "$MNT/d$nxx"
		rm "$MNT/d$k/f6"			# all but the link, moved
		fs "$MNT/d$k"
		mv "$MNT/d$k/l$k-6-1" "$MNT/d$nxx/m$k-6"
		fs "$MNT/d$k" "$MNT/d$nxx"
		mv "$MNT/d$k/f8" "$MNT/d$nx/m$k-8"	# the original moved
		fs "$MNT/d$k" "$MNT/d$nx"
		rm "$MNT/d$nxx/l$k-8-3"
		fs "$MNT/d$nxx"
	done
	# the disk-only files: in the log, one name goes
	rm "$MNT/d2/dlink1"
	fs "$MNT/d2"
	rm "$MNT/d1/disk2"
	fs "$MNT/d1"
	mv "$MNT/d2/dlink3" "$MNT/d3/dmoved3"
	fs "$MNT/d2" "$MNT/d3"
	rm "$MNT/d1/disk3"
	fs "$MNT/d1"
	rm "$MNT/d2/dlink4"
	fs "$MNT/d2"
	rm "$MNT/d1/disk5"
	fs "$MNT/d1"
}

# A directory block that the disk holds a later state of than the first
# items of it in the log (recovery skips those, "on-disk LSN newer"), with
# renames into it among the skipped items.  /big gets 40000 names in 64 KiB
# blocks (node form): every 20th a file of its own, the others hard links
# of MNT/file, so that the image stays small; no fsync, then sync and a
# freeze write it all back.  Then wl_later_ops renames those 2000 files one
# at a time, each step fsynced: within /big, or into /out and back.  With
# xfssyncd_centisecs raised to 720000 nothing pushes the AIL until the log
# is nearly full; the tail stays at the first checkpoint of the renames
# (an item of it stays in the AIL) while the AIL writes the hot blocks of
# /big back, so that on disk they are newer than their items after the
# tail.  wl_later_watch polls the LSNs of /big's data blocks in the image
# file against the log tail (sysfs) and, at the first block newer than the
# tail, shuts the filesystem down at once, as "xfs_io -x -c 'shutdown -f'"
# does (XFS_IOC_GOINGDOWN, log flushed); img_later checks the result
# (later_newer) and tries again if the tail moved past it meanwhile.
wl_later() {
	local img=$1 dev=$2
	mkdir "$MNT/big" "$MNT/out"
	: >"$MNT/file"
	perl -e 'my $m = shift;
		for my $i (1 .. 40000) {
			my $n = sprintf "%s/big/entry-%06d", $m, $i;
			if ($i % 20 == 0) { open(my $f, ">", $n) or die "$n: $!"; close $f }
			else { link("$m/file", $n) or die "$n: $!" }
		}' "$MNT"
	sync
	xfs_freeze -f "$MNT"
	xfs_freeze -u "$MNT"
	xfs_io -r -c bmap "$MNT/big" | perl -ne '
		# the data blocks (directory offsets below 32 GiB), in 512-byte units
		if (/^\s*\d+: \[(\d+)\.\.\d+\]: (\d+)\.\.(\d+)/ && $1 < 67108864) {
			for (my $d = $2; $d < $3; $d += 128) { print "$d\n" }
		}' >"$WORK/later.blocks"
	SYNCD_SAVED=$(cat "$SYNCD")
	echo 720000 >"$SYNCD"
	wl_later_ops &
	BGPIDS+=($!)
	LATER_AT=$(wl_later_watch "$img" "$dev" "$WORK/later.blocks") || LATER_AT=""
	stop_bg
	echo "$SYNCD_SAVED" >"$SYNCD"
	SYNCD_SAVED=""
}

# The renames of wl_later, until the filesystem is shut down: step OP takes
# a random one of the 2000 files (first big/entry-N, N a multiple of 20);
# in /big it is renamed to big/moved-OP-N, or (OP a multiple of 4) moved to
# out/entry-N; in /out it is moved back to big/moved-OP-N.  Then both
# directories are fsynced.  The new names, longer than entry-N, go to the
# last data blocks, which thus take most of the adds.
wl_later_ops() {
	exec perl -e 'use IO::Handle; my $m = shift; srand(4040);
		my @at = map { sprintf "big/entry-%06d", 20 * $_ } 0 .. 2000;
		for (my $op = 1; ; $op++) {
			my $n = 1 + int rand 2000;
			my $to = $at[$n] =~ m{^big/} && $op % 4 == 0 ?
				sprintf("out/entry-%06d", 20 * $n) : sprintf("big/moved-%06d-%d", $op, 20 * $n);
			rename("$m/$at[$n]", "$m/$to") or exit 0;
			$at[$n] = $to;
			for my $d ("big", "out") {
				open(my $h, "<", "$m/$d") or exit 0;
				$h->sync or exit 0;
			}
		}' "$MNT" 2>/dev/null
}

# wl_later_watch IMG DEV BLOCKS: poll the LSN in the header of each data
# block of /big (daddrs in BLOCKS) as the image file holds it, and the log
# tail of DEV; when a block that was written since the start is newer than
# the tail, shut down (log flushed) and print "block B at LSN C:B, tail
# C:B".  Gives up after 300 seconds.
wl_later_watch() {
	perl -e 'use Fcntl; use Time::HiRes qw(time);
		my ($img, $dev, $bf, $mnt) = @ARGV;
		open(my $b, "<", $bf) or die; chomp(my @blk = <$b>);
		open(my $im, "<", $img) or die;
		sysopen(my $md, $mnt, O_RDONLY | O_DIRECTORY) or die;
		my %first; my $end = time + 300;
		sub lsn { open(my $h, "<", "/sys/fs/xfs/$dev/log/$_[0]") or die; my ($c, $x) = <$h> =~ /(\d+):(\d+)/; ($c, $x) }
		while (time < $end) {
			my ($tc, $tb) = lsn("log_tail_lsn");
			for my $d (@blk) {
				sysseek($im, $d * 512, 0); sysread($im, my $h, 24) == 24 or next;
				next unless unpack("N", $h) == 0x58444433;	# XDD3
				my ($c, $x) = unpack("NN", substr($h, 16, 8));
				$first{$d} //= "$c:$x";
				next if $first{$d} eq "$c:$x" || $c * 2**32 + $x <= $tc * 2**32 + $tb;
				my $flags = pack("L", 1);	# XFS_FSOP_GOING_FLAGS_LOGFLUSH
				ioctl($md, 0x8004587d, $flags) or die "XFS_IOC_GOINGDOWN: $!";
				print "block $d at LSN $c:$x, tail $tc:$tb\n";
				exit 0;
			}
		}
		exit 1' "$1" "${2##*/}" "$3" "$MNT"
}

# Parent pointers (Linux 6.10): every name change logs ATTRI items that set,
# remove or replace the child's parent pointer.  Creates, hard links across
# directories, renames within and across, unlinks, a subdirectory moved;
# xattrs in every form: shortform (a few small ones), leaf (many on one
# file), node (more), remote (values larger than a block); a directory of
# long names big enough for node form.  Halfway, a freeze writes it all
# back, so that the log holds changes to what the disk already has.
wl_pptr() {
	local a=$MNT/a b=$MNT/b big=$MNT/big i
	mkdir "$a" "$b" "$big" "$a/sub"
	fs "$MNT"
	for i in $(seq 1 120); do
		: >"$a/f$i"
		if [ $((i % 4)) -eq 0 ]; then ln "$a/f$i" "$b/link$i"; fi
		if [ $((i % 5)) -eq 0 ] && [ -e "$a/f$((i - 2))" ]; then
			mv "$a/f$((i - 2))" "$b/moved$i"
		fi
		if [ $((i % 6)) -eq 0 ] && [ -e "$a/f$((i - 1))" ]; then
			mv "$a/f$((i - 1))" "$a/renamed$i"
		fi
		if [ $((i % 7)) -eq 0 ]; then rm -f "$a/f$((i - 3))"; fi
		if [ $((i % 10)) -eq 0 ]; then fs "$a" "$b"; fi
		if [ "$i" -eq 60 ]; then xfs_freeze -f "$MNT"; xfs_freeze -u "$MNT"; fi
	done
	: >"$a/sf" && : >"$a/leaf" && : >"$a/node" && : >"$a/remote"
	setfattr -n user.small -v tiny "$a/sf"
	setfattr -n trusted.root -v secret "$a/sf"
	for i in $(seq 1 40); do setfattr -n "user.leaf$i" -v "value-$i-of-a-leaf" "$a/leaf"; done
	for i in $(seq 1 400); do setfattr -n "user.node-attribute-$i" -v "v$i" "$a/node"; done
	setfattr -n user.remote -v "$(head -c 6000 /dev/zero | tr '\0' r)" "$a/remote"
	setfattr -x user.leaf7 "$a/leaf"
	mv "$a/sub" "$b/sub-moved"
	for i in $(seq 1 1500); do
		: >"$big/a-long-name-so-that-the-directory-goes-to-node-form-$(printf %05d "$i")"
	done
	for i in $(seq 3 3 1500); do
		rm -f "$big/a-long-name-so-that-the-directory-goes-to-node-form-$(printf %05d "$i")"
	done
	fs "$a" "$b" "$big" "$MNT"
}

# The same on 64 KiB directory blocks, the big directory to node form.
wl_pptr64k() {
	local big=$MNT/big i
	mkdir "$big" "$MNT/d"
	for i in $(seq 1 9000); do
		: >"$big/a-big-directory-entry-with-a-long-name-$(printf %06d "$i")"
	done
	fs "$big"
	for i in $(seq 1 300); do
		mv "$big/a-big-directory-entry-with-a-long-name-$(printf %06d $((i * 7)))" "$MNT/d/m$i"
		rm -f "$big/a-big-directory-entry-with-a-long-name-$(printf %06d $((i * 7 + 1)))"
		setfattr -n "user.x$i" -v "$i" "$MNT/d/m$i"
		if [ $((i % 20)) -eq 0 ]; then fs "$big" "$MNT/d"; fi
	done
	fs "$big" "$MNT/d"
}

# A directory whose blocks the disk holds but whose inode on disk does not
# map them: /big is written back as a shortform directory of three hard
# links (pre-1..3), then grows to 40000 hard links of MNT/file, fsynced
# every 50, with xfssyncd_centisecs raised so that only log pressure pushes
# the AIL; then one name is added and removed in /big, each fsynced, until
# the log tail has moved two cycles on.  /big's full blocks are written
# back and their items fall before the tail; its inode, relogged at every
# fsync, never is: recovery replays it and maps the blocks, adding 40000
# entries no item in the log holds (files must report every one, and
# pre-1..3 as staying where they were: t0840).
wl_remap() {
	local dev=$1 c0 p
	mkdir "$MNT/big"
	: >"$MNT/file"
	for p in 1 2 3; do ln "$MNT/file" "$MNT/big/pre-$p"; done
	xfs_freeze -f "$MNT"
	xfs_freeze -u "$MNT"
	SYNCD_SAVED=$(cat "$SYNCD")
	echo 720000 >"$SYNCD"
	perl -e 'use IO::Handle; my ($m) = @ARGV; open(my $h, "<", "$m/big") or die;
		for my $i (1 .. 40000) {
			link("$m/file", sprintf("%s/big/entry-%06d", $m, $i)) or die;
			$h->sync or die if $i % 50 == 0;
		}' "$MNT"
	c0=$(sysfs_log "$dev" log_head_lsn | cut -d: -f1)
	perl -e 'use IO::Handle; my ($m, $dev, $c0) = @ARGV; open(my $h, "<", "$m/big") or die;
		sub tailc { open(my $f, "<", "/sys/fs/xfs/$dev/log/log_tail_lsn") or die; <$f> =~ /(\d+):/; $1 }
		while (tailc() < $c0 + 2) {
			link("$m/file", "$m/big/hot") or die; $h->sync;
			unlink("$m/big/hot") or die; $h->sync;
		}' "$MNT" "${dev##*/}" "$c0"
	echo "$SYNCD_SAVED" >"$SYNCD"
	SYNCD_SAVED=""
}

# Reflink and reverse-mapping btrees: files of 4-128 KiB (patterns, so
# that the image compresses), reflinked copies and copies of copies in
# other directories, overwrites of shared blocks (copy on write: refcount
# and rmap updates, and CoW staging extents from the CoW fork's
# speculative preallocation, which a crash leaves in the refcount btree
# for the kernel to free after it recovers the log), unlinks of
# originals; every step fsynced.
wl_reflink() {
	local i m=$MNT
	mkdir "$m/src" "$m/cp1" "$m/cp2"
	for i in $(seq 1 120); do
		xfs_io -f -c "pwrite -q -S $((i % 250 + 1)) 0 $(( (i % 32 + 1) * 4096 ))" "$m/src/orig-$i"
	done
	fs "$m/src" "$m"
	for i in $(seq 1 120); do
		cp --reflink=always "$m/src/orig-$i" "$m/cp1/copy-$i"
		if [ $((i % 2)) -eq 0 ]; then cp --reflink=always "$m/cp1/copy-$i" "$m/cp2/again-$i"; fi
		if [ $((i % 3)) -eq 0 ]; then xfs_io -c "pwrite -q -S 0 0 4096" -c fsync "$m/src/orig-$i"; fi
		if [ $((i % 5)) -eq 0 ]; then rm -f "$m/src/orig-$i"; fi
		fs "$m/cp1" "$m/cp2" "$m/src"
	done
}

# ---------------------------------------------------------------------------
# Images.

# simple NAME SIZE WORKLOAD MKFS-OPTIONS...: internal log, shut down dirty.
# EXTRA_FNS: more functions to show in NAME.txt.
EXTRA_FNS=()
simple() {
	local name=$1 size=$2 wl=$3 img dev
	shift 3
	mkfs_img "$name" "$size" "$@"; img=$IMG
	attach "$img"; dev=$DEV
	MOUNT_CMD="mount $name.img MNT (loop device)"
	mount "$dev" "$MNT"
	WORKLOAD_FNS=("$wl" "${EXTRA_FNS[@]}")
	"$wl"
	shutdown_umount
	detach "$dev"
	finish "$name" "$img"
	EXTRA_FNS=()
}

img_dir4k() {
	simple dir4k 512M wl_dir4k
}

# 4 KiB sectors: the log is written in whole sectors, its records padded
# to the 4 KiB log stripe unit mkfs sets, so a clean log's head is never
# inside a sector (what replay's unmount record must respect).
img_sect4k() {
	simple sect4k 512M wl_dir4k -s size=4096
}

img_remap() {
	local img dev
	mkfs_img remap 512M; img=$IMG
	attach "$img"; dev=$DEV
	MOUNT_CMD="mount remap.img MNT (loop device)"
	mount "$dev" "$MNT"
	WORKLOAD_FNS=(wl_remap)
	wl_remap "$dev"
	shutdown_umount
	detach "$dev"
	finish remap "$img"
}

img_dir64k() {
	EXTRA_FNS=(wl_dir64k_loop)
	simple dir64k 512M wl_dir64k -n size=65536
}

img_logsu256k() {
	local img dev
	mkfs_img logsu256k 512M -l su=262144; img=$IMG
	attach "$img"; dev=$DEV
	MOUNT_CMD="mount -o logbsize=262144 logsu256k.img MNT (loop device)"
	mount -o logbsize=262144 "$dev" "$MNT"
	WORKLOAD_FNS=(wl_logsu256k)
	wl_logsu256k
	shutdown_umount
	detach "$dev"
	finish logsu256k "$img"
}

img_extlog() {
	local img logimg dev ldev
	logimg=$WORK/extlog-log.img
	truncate -s 68M "$logimg"
	mkfs_img extlog 512M -l "logdev=$logimg,size=64m"; img=$IMG
	MKFS_CMD="truncate -s 68M extlog-log.img; ${MKFS_CMD//$logimg/extlog-log.img}"
	attach "$logimg"; ldev=$DEV
	attach "$img"; dev=$DEV
	MOUNT_CMD="mount -o logdev=/dev/loopN extlog.img MNT (log device extlog-log.img on /dev/loopN)"
	mount -o "logdev=$ldev" "$dev" "$MNT"
	WORKLOAD_FNS=(wl_extlog wl_extents wl_extents_round wl_forcer)
	wl_extlog
	shutdown_umount
	detach "$dev"
	detach "$ldev"
	finish extlog "$img" "$logimg"
}

# crossing IMG: if a log record written before the wrap runs past the
# physical end of the log, print "block B len L (N blocks past the end)".
# Uses the record headers of "xfs_logprint -d"; records are assumed to have
# one header block (32 KiB log buffers).
crossing() {
	xfs_logprint -d "$1" 2>/dev/null | awk '
		/ length: [0-9]+/ { for (i = 1; i < NF; i++) if ($i == "length:") size = $(i + 1) }
		$2 == "HEADER" && $3 == "Cycle" {
			end = $1 + 1 + int(($8 + 511) / 512)
			if (size && end > size)
				printf "block %d len %d (%d blocks past the end)\n", $1, $8, end - size
		}'
}

WRAP_AT=""
img_wrapped() {
	local img dev lp tail head try cross=""
	for try in 1 2 3 4 5; do
		mkfs_img wrapped 512M -l size=64m; img=$IMG
		attach "$img"; dev=$DEV
		MOUNT_CMD="mount wrapped.img MNT (loop device)"
		mount "$dev" "$MNT"
		WORKLOAD_FNS=(wl_wrapped wl_wrapped_load wl_extents_round)
		wl_wrapped "$dev"
		umount "$MNT"
		detach "$dev"
		xfs_logprint -t "$img" >"$WORK/wrapped.lp"
		lp=$(grep -m1 'log tail:' "$WORK/wrapped.lp")
		tail=$(echo "$lp" | sed -n 's/.*log tail: *\([0-9]*\) .*/\1/p')
		head=$(echo "$lp" | sed -n 's/.*head: *\([0-9]*\) .*/\1/p')
		if [ -n "$head" ] && [ -n "$tail" ] && [ "$head" -lt "$tail" ]; then
			cross=$(crossing "$img")
			log "wrapped: attempt $try: shut down at $WRAP_AT (sysfs); record across the end: ${cross:-none}"
			NOTES="background load: wl_wrapped_load 1, 2, 3 (below); shut down at $WRAP_AT (cycle:block, /sys/fs/xfs/DEV/log) while it ran (attempt $try); record across the physical end of the log: ${cross:-none}"
			# prefer a log where a record crosses the physical end
			if [ -n "$cross" ] || [ "$try" -ge 3 ]; then
				break
			fi
			log "wrapped: no record crosses the end, retrying"
			rm -f "$img"
			img=""
			continue
		fi
		log "wrapped: attempt $try not wrapped ($lp), retrying"
		rm -f "$img"
		WRAP_MIN_HEAD=$((WRAP_MIN_HEAD + 1024))
		img=""
	done
	[ -n "$img" ] || die "wrapped: could not make a wrapped log"
	finish wrapped "$img"
}

img_clean() {
	local img dev
	mkfs_img clean 512M; img=$IMG
	attach "$img"; dev=$DEV
	MOUNT_CMD="mount clean.img MNT (loop device); normal umount at the end"
	mount "$dev" "$MNT"
	WORKLOAD_FNS=(wl_clean)
	wl_clean
	umount "$MNT"
	detach "$dev"
	finish clean "$img"
}

img_unlinked() {
	local img dev
	mkfs_img unlinked 512M; img=$IMG
	attach "$img"; dev=$DEV
	MOUNT_CMD="mount unlinked.img MNT (loop device)"
	mount "$dev" "$MNT"
	WORKLOAD_FNS=(wl_unlinked)
	wl_unlinked		# shuts down itself, files still open
	umount "$MNT"
	detach "$dev"
	finish unlinked "$img"
}

img_sfconv() {
	simple sfconv 512M wl_sfconv
}

# later_newer IMG BLOCKS: print "N of M" data blocks of /big (daddrs in
# BLOCKS) whose header LSN is newer than the tail of the log's last record
# (xfs_logprint), and that tail; fail if N is 0.
later_newer() {
	local tail
	tail=$(xfs_logprint "$1" 2>/dev/null | perl -ne '
		($c, $b, $tc, $tb) = /^cycle: .*lsn: (\d+),(\d+)\s+tail_lsn: (\d+),(\d+)/ or next;
		($max, $tail) = ($c * 2**32 + $b, "$tc:$tb") if $c * 2**32 + $b > $max;
		END { print "$tail\n" }')
	perl -e 'my ($img, $bf, $tail) = @ARGV; my ($tc, $tb) = split /:/, $tail;
		open(my $b, "<", $bf) or die; chomp(my @blk = <$b>);
		open(my $im, "<", $img) or die; my $n = 0;
		for my $d (@blk) {
			sysseek($im, $d * 512, 0); sysread($im, my $h, 24);
			my ($c, $x) = unpack("NN", substr($h, 16, 8));
			$n++ if unpack("N", $h) == 0x58444433 && $c * 2**32 + $x > $tc * 2**32 + $tb;
		}
		print "$n of ", scalar(@blk), " data blocks of /big newer than the log tail $tail\n";
		exit($n == 0)' "$1" "$2" "$tail"
}

img_later() {
	local img dev try newer=""
	for try in 1 2 3 4 5 6 7 8 9 10; do
		mkfs_img later 512M -n size=65536 -l size=64m; img=$IMG
		attach "$img"; dev=$DEV
		MOUNT_CMD="mount later.img MNT (loop device)"
		mount "$dev" "$MNT"
		WORKLOAD_FNS=(wl_later wl_later_ops wl_later_watch)
		wl_later "$img" "$dev"
		umount "$MNT"
		detach "$dev"
		if [ -n "$LATER_AT" ] && newer=$(later_newer "$img" "$WORK/later.blocks"); then
			log "later: attempt $try: shut down at $LATER_AT; $newer"
			break
		fi
		log "later: attempt $try: ${LATER_AT:-no block newer than the tail in 300 s}; ${newer:-none newer after the shutdown}, retrying"
		rm -f "$img"
		img=""
	done
	[ -n "$img" ] || die "later: no attempt left a block newer than the log tail"
	NOTES="xfssyncd_centisecs 720000 while the workload ran; attempt $try; wl_later_watch: $LATER_AT (sysfs); after the shutdown $newer"
	finish later "$img"
}

img_links() {
	simple links 512M wl_links
}

img_reflink() {
	simple reflink 512M wl_reflink -m reflink=1,rmapbt=1
}

# new_xfsprogs: use XFSPROGS_NEW's mkfs.xfs and xfs_logprint, or say why not.
new_xfsprogs() {
	if [ -z "${XFSPROGS_NEW:-}" ] || [ ! -x "$XFSPROGS_NEW/mkfs/mkfs.xfs" ] ||
	   [ ! -x "$XFSPROGS_NEW/logprint/xfs_logprint" ]; then
		log "$1: skipped: parent pointers need XFSPROGS_NEW, a built xfsprogs >= 6.10 tree"
		return 1
	fi
	command -v setfattr >/dev/null || die "setfattr not found (the attr package)"
	MKFS=$XFSPROGS_NEW/mkfs/mkfs.xfs
	LOGPRINT=$XFSPROGS_NEW/logprint/xfs_logprint
}

img_pptr() {
	new_xfsprogs pptr || return 0
	simple pptr 512M wl_pptr -n parent=1 -l size=64m
	MKFS=mkfs.xfs LOGPRINT=xfs_logprint
}

img_pptr64k() {
	new_xfsprogs pptr64k || return 0
	simple pptr64k 512M wl_pptr64k -n parent=1,size=65536 -l size=64m
	MKFS=mkfs.xfs LOGPRINT=xfs_logprint
}

# Intents left pending (pass 3's work): two fragmented files (a 4 KiB
# block every 8 KiB: thousands of extents each) and a reflinked copy of
# one, on reflink and rmap btrees; then, while the copy and the other file
# are truncated to nothing -- the copy's blocks still shared (CUIs, RUIs),
# the other's freed (EFIs, RUIs) -- and the first is reflinked once more
# (BUIs, CUIs, RUIs), the filesystem is shut down after WL_INTENTS_DELAY
# seconds.  No file is unlinked and nothing is
# written into shared blocks: no unlinked inode, no CoW staging extent.
wl_intents_setup() {
	local f
	mkdir "$MNT/d"
	for f in frag1 frag2; do
		perl -e 'open(my $f, ">", $ARGV[0]) or die; for (my $o = 0; $o < 48 << 20; $o += 8192) { sysseek($f, $o, 0); syswrite($f, "q" x 4096) }' "$MNT/d/$f"
	done
	xfs_io -f -c "reflink $MNT/d/frag1" "$MNT/d/copy" >/dev/null
	fs "$MNT/d/frag1" "$MNT/d/frag2" "$MNT/d/copy" "$MNT/d"
	sync
}
wl_intents() {
	xfs_io -c 'truncate 0' "$MNT/d/copy" &
	BGPIDS+=($!)
	xfs_io -c 'truncate 0' "$MNT/d/frag2" &
	BGPIDS+=($!)
	xfs_io -f -c "reflink $MNT/d/frag1" "$MNT/d/copy2" >/dev/null &
	BGPIDS+=($!)
	sleep "$WL_INTENTS_DELAY"
	xfs_io -x -c 'shutdown -f' "$MNT"
	stop_bg
}

# pending_intents IMG: "efi N rui N cui N bui N" when IMG's log leaves
# intents of all four kinds and nothing else (no unlinked inode, no CoW
# staging extent).
pending_intents() {
	"$XLS" recover --json --summary "$1" 2>/dev/null | perl -ne '
		next unless /"kind":"summary"/;
		my %v = /"(pending_\w+)":(\d+)/g;
		my $n = $v{pending_efi} + $v{pending_rui} + $v{pending_cui} + $v{pending_bui};
		exit 1 if $v{pending_work} != $n ||
			grep { !$v{"pending_$_"} } qw(efi rui cui bui);
		print "efi $v{pending_efi} rui $v{pending_rui} cui $v{pending_cui} bui $v{pending_bui}\n";
		$ok = 1; END { exit !$ok }'
}

# intents_image NAME CHECK SETUP WORKLOAD DELAY...: NAME made with SETUP
# then WORKLOAD (shut down WL_INTENTS_DELAY s in, the delays tried in
# turn), retried until CHECK IMG holds, which prints what is pending.
intents_image() {
	local name=$1 check=$2 setup=$3 wl=$4 img dev try got="" delays
	shift 4
	delays=("$@")
	[ -x "${XLS:-}" ] || die "$name: XLS must name a built xfs_logscope (to see what is pending)"
	for try in $(seq 1 40); do
		WL_INTENTS_DELAY=${delays[$((try % ${#delays[@]}))]}
		mkfs_img "$name" 512M -m reflink=1,rmapbt=1 -l size=64m; img=$IMG
		attach "$img"; dev=$DEV
		MOUNT_CMD="mount $name.img MNT (loop device)"
		mount "$dev" "$MNT"
		"$setup"
		"$wl"
		umount "$MNT"
		detach "$dev"
		if got=$("$check" "$img"); then
			break
		fi
		log "$name: attempt $try (shut down after $WL_INTENTS_DELAY s) left not what $check wants, retrying"
		rm -f "$img"
		img=""
	done
	[ -n "$img" ] || die "$name: no attempt left what $check wants"
	NOTES="attempt $try, shut down $WL_INTENTS_DELAY s into the workload; pending: $got"
	finish "$name" "$img"
}

img_intents() {
	WORKLOAD_FNS=(wl_intents_setup wl_intents pending_intents)
	intents_image intents pending_intents wl_intents_setup wl_intents \
		0.05 0.09 0.13 0.17 0.21 0.25 0.29 0.33 0.37 0.41
}

# Pass 3 in two checkpoints: intents, and after the log force that ends
# theirs, unlinked inodes and CoW staging leftovers.  intents' files, and
# a small file held open and unlinked; shared blocks of frag1 rewritten a
# 4 KiB block a MiB, each fsynced (the CoW fork's preallocation is left
# staged); then the copy truncated, shut down after WL_INTENTS_DELAY s.
wl_intents2_setup() {
	wl_intents_setup
	xfs_io -f -c "pwrite -q 0 64k" -c fsync "$MNT/d/held" >/dev/null
}
wl_intents2() {
	local o
	sleep 100000 3<"$MNT/d/held" &
	BGPIDS+=($!)
	rm "$MNT/d/held"
	fs "$MNT/d"
	for o in 0 1 2 3 4 5 6 7; do
		xfs_io -c "pwrite -q $((o * 1024))k 4k" -c fsync "$MNT/d/frag1" >/dev/null
	done
	xfs_io -c 'truncate 0' "$MNT/d/copy" &
	BGPIDS+=($!)
	sleep "$WL_INTENTS_DELAY"
	xfs_io -x -c 'shutdown -f' "$MNT"
	stop_bg
}

# pending_intents2 IMG: "efi N rui N cui N bui N unlinked N cow N" when
# IMG's log leaves intents, unlinked inodes and CoW staging extents.
pending_intents2() {
	"$XLS" recover --json --summary "$1" 2>/dev/null | perl -ne '
		next unless /"kind":"summary"/;
		my %v = /"(pending_\w+)":(\d+)/g;
		my $n = $v{pending_efi} + $v{pending_rui} + $v{pending_cui} + $v{pending_bui};
		exit 1 if !$n || !$v{pending_unlinked_inodes} || !$v{pending_cow_extents} ||
			$v{pending_xmi} + $v{pending_attri} + $v{pending_other_intents};
		print join(" ", map { "$_ $v{\"pending_$_\"}" } qw(efi rui cui bui)),
			" unlinked $v{pending_unlinked_inodes} cow $v{pending_cow_extents}\n";
		$ok = 1; END { exit !$ok }'
}

img_intents2() {
	WORKLOAD_FNS=(wl_intents_setup wl_intents2_setup wl_intents2 pending_intents2)
	intents_image intents2 pending_intents2 wl_intents2_setup wl_intents2 \
		0.00 0.01 0.02 0.03 0.04
}

# ---------------------------------------------------------------------------

if [ $# -eq 0 ]; then
	set -- "${ALL_IMAGES[@]}"
fi
for name in "$@"; do
	case " ${ALL_IMAGES[*]} " in
	*" $name "*) ;;
	*) die "unknown image '$name' (known: ${ALL_IMAGES[*]})" ;;
	esac
done
for name in "$@"; do
	log "making $name"
	"img_$name"
done
log "done"
