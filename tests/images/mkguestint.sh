#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mkguestint.sh - make a test image whose dirty log, written by a foreign
# kernel (Debian's 6.1 s390x or 686 kernel under qemu, TCG), has intents
# pending at the crash: EFIs, RUIs, CUIs and BUIs on a reflink+rmapbt
# filesystem, with an inode unlinked while open and CoW staging extents in
# the same log.  Called by mkbe.sh (beint) and mki386.sh (i386int).
#
# Usage: sudo tests/images/mkguestint.sh s390x|i386 NAME
#   writes tests/images/NAME.img.xz, NAME.recovered.delta.xz (what the
#   foreign kernel's recovery changes outside the log: mkbe.sh's delta
#   format) and NAME.txt (provenance).  MKGUESTINT_KEEP=DIR keeps the dirty
#   image, the kernel's recovered copy and replay's output there.
#   KERNEL_DEB=FILE boots that Debian linux-image .deb (of ARCH) instead of
#   the 6.1 kernel, for the workload and the reference recovery alike
#   (mkbe.sh's beint12: trixie's 6.12 s390x kernel).
#
# Busybox has no reflink and no shutdown ioctl: tests/images/xlsguest.c,
# built static with the cross compiler (s390x-linux-gnu-gcc from
# gcc-s390x-linux-gnu + libc6-dev-s390x-cross; i686-linux-gnu-gcc from
# gcc-i686-linux-gnu + libc6-dev-i386-cross, or gcc -m32 from gcc-multilib,
# which Debian 12 will not install beside the s390x cross compiler), is put
# in the initramfs by tests/images/guest-journal.sh.
#
# Two boots make the image: the setup (two fragmented 32 MiB files, one
# reflinked, a 64 KiB file), unmounted cleanly; then the race on a copy:
# the 64 KiB file held open and unlinked, CoW overwrites of the reflinked
# file (fsynced: CoW staging extents left in the CoW fork), then two
# truncations and a reflink of a 4096-extent file in the background and,
# DELAY ms later, XFS_IOC_GOINGDOWN with LOGFLUSH (xfs_io's "shutdown -f"):
# the log is forced and the filesystem shut down with the deferred work of
# the three half done.  Delays are tried in turn until "xfs_logscope
# recover" counts pending EFIs, RUIs, CUIs and BUIs, an unlinked inode and
# CoW staging extents.
#
# Checks (recorded in NAME.txt): the foreign kernel recovers a copy (REF);
# "xfs_logscope replay -o OUT" here says pass 3 was done and the log is
# clean; OUT against REF outside the log (tests/lib/imgcmp.pl): the
# differing sectors are recorded, not fatal (the foreign kernel is 6.1,
# pass 3 here is xfsprogs' libxfs, which a 6.1 kernel does not always
# match); xfs_repair -n OUT; the foreign kernel mounts a copy of OUT
# without recovery and changes nothing outside the log; this machine's
# kernel mounts OUT read-only (when loop devices work) and refuses a
# big-endian dirty log.

set -euo pipefail

ARCH=${1:?usage: mkguestint.sh s390x|i386 NAME}
NAME=${2:?usage: mkguestint.sh s390x|i386 NAME}
OUTDIR=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$OUTDIR/../.." && pwd)
PROG=${0##*/}
die() { echo "$PROG: $*" >&2; exit 1; }
log() { echo "$PROG: $*" >&2; }
TOOL=$OUTDIR/guest-journal.sh
XLS=${XLS:-$TOP/build/xfs_logscope}
[ -x "$XLS" ] || die "$XLS not found (make first, or set XLS)"
"$XLS" --version | grep -q "^pass 3: xfsprogs' libxfs" || die "$XLS has no pass 3 (libxfs)"
case $ARCH in
s390x)	CC=s390x-linux-gnu-gcc; QEMU=qemu-system-s390x
	KPKG=linux-image-6.1.0-50-s390x:s390x; BBPKG=busybox-static:s390x
	WHO="a big-endian kernel" ;;
i386)	CC=i686-linux-gnu-gcc; QEMU=qemu-system-i386
	command -v $CC >/dev/null || CC="gcc -m32"
	KPKG=linux-image-6.1.0-57-686-unsigned:i386; BBPKG=busybox-static:i386
	WHO="a 32-bit x86 kernel" ;;
*)	die "s390x or i386, not $ARCH" ;;
esac
KVER=$(apt-cache policy "$KPKG" 2>/dev/null | sed -n 's/^ *Candidate: //p')
# KERNEL_DEB=FILE: boot that linux-image .deb instead (guest-journal.sh),
# for the workload and for the reference recovery alike
if [ -n "${KERNEL_DEB:-}" ]; then
	[ -f "$KERNEL_DEB" ] || die "KERNEL_DEB: no $KERNEL_DEB"
	KERNEL_DEB=$(readlink -f "$KERNEL_DEB"); export KERNEL_DEB
	KPKG=$(dpkg-deb -f "$KERNEL_DEB" Package):$(dpkg-deb -f "$KERNEL_DEB" Architecture)
	KVER=$(dpkg-deb -f "$KERNEL_DEB" Version)
fi
for t in mkfs.xfs xfs_repair xz perl $QEMU cpio ${CC%% *}; do
	command -v "$t" >/dev/null || die "$t not found"
done

WORK=$(mktemp -d "${TMPDIR:-/tmp}/mkguestint.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
$CC -O2 -static -Wall -o "$WORK/xlsguest" "$OUTDIR/xlsguest.c" || die "cannot build xlsguest.c with $CC -static"

wl_setup() {
	cat <<'EOF'
cd /mnt
mkdir d
xlsguest frag d/frag1 32
xlsguest frag d/frag2 32
xlsguest clone d/frag1 d/copy
xlsguest pwrite d/held 0 64k 0x68
sync d
sync
cd /
umount /mnt && echo WORKLOAD-DONE
EOF
}

wl_race() {
	cat <<EOF
cd /mnt
sleep 100000 < d/held &
rm d/held
xlsguest fsync d
for o in 0 1 2 3 4 5 6 7; do xlsguest pwrite d/frag1 \$((o * 1024))k 4k 0x77; done
xlsguest truncate d/copy 0 &
xlsguest truncate d/frag2 0 &
xlsguest clone d/frag1 d/copy2 &
xlsguest msleep $1
xlsguest down /mnt 1
echo WORKLOAD-DONE
EOF
}

# pending IMG: "efi N rui N cui N bui N unlinked N cow N", or failure when
# one of them is 0 (or other work is pending)
pending() {
	"$XLS" recover --json --summary "$1" 2>/dev/null | perl -ne '
		next unless /"kind":"summary"/;
		my %v = /"(pending_\w+)":(\d+)/g;
		exit 1 if grep { !$v{"pending_$_"} } qw(efi rui cui bui unlinked_inodes cow_extents);
		exit 1 if $v{pending_xmi} + $v{pending_attri} + $v{pending_other_intents};
		print join(" ", map { "$_ $v{\"pending_$_\"}" } qw(efi rui cui bui)),
			" unlinked $v{pending_unlinked_inodes} cow $v{pending_cow_extents}\n";
		$ok = 1; END { exit !$ok }'
}

guest() { GUEST_BIN=$WORK/xlsguest bash "$TOOL" "$ARCH" "$@"; }
kmsg() { grep -a '^KMSG2 ' "$1" | sed 's/^KMSG2 //' | tr -d '\r' | grep -v 'SGI XFS' || :; }

MKFS="mkfs.xfs -q -m reflink=1,rmapbt=1 -l size=64m"
base=$WORK/base.img img=$WORK/$NAME.img ref=$WORK/$NAME.ref out=$WORK/$NAME.out
truncate -s 512M "$base"
$MKFS "$base"
wl_setup >"$WORK/setup.sh"
log "$NAME: setup under the $ARCH kernel"
guest "$base" "$WORK/setup.sh" >"$WORK/setup.log" 2>&1 || { tail -30 "$WORK/setup.log" >&2; die "setup failed"; }
"$XLS" info "$base" | grep -q '^state  *clean$' || die "the setup left the log dirty"
attempt=0 pend=
for delay in 600 300 400 500 250 700 350 450 200 800; do
	attempt=$((attempt + 1))
	cp --sparse=always "$base" "$img"
	wl_race "$delay" >"$WORK/race.sh"
	log "$NAME: attempt $attempt, shutdown $delay ms after the truncations"
	guest "$img" "$WORK/race.sh" >"$WORK/race.log" 2>&1 || { tail -30 "$WORK/race.log" >&2; die "race failed"; }
	if pend=$(pending "$img"); then break; fi
	log "$NAME: pending: $("$XLS" recover --summary "$img" | sed -n 3p)"
	pend=
done
[ -n "$pend" ] || die "no attempt left EFIs, RUIs, CUIs, BUIs, an unlinked inode and CoW extents pending"
log "$NAME: pending $pend"
"$XLS" info "$img" >"$WORK/info"
grep -q '^crc_bad  *0$' "$WORK/info" || die "records with bad CRCs"
read -r logoff logbytes < <("$XLS" info --json "$img" |
	sed -n 's/.*"log_offset":\([0-9]*\).*"log_bytes":\([0-9]*\).*/\1 \2/p')
state=$(awk '$1 ~ /^(head_blk|tail_blk|last_lsn|tail_lsn|records|trans_committed|items)$/ { printf "%s %s  ", $1, $2 }' "$WORK/info")

log "$NAME: the $ARCH kernel recovers a copy"
cp --sparse=always "$img" "$ref"
guest "$ref" --recover >"$WORK/ref.log" 2>&1 || { tail -30 "$WORK/ref.log" >&2; die "recovery failed"; }
"$XLS" info "$ref" | grep -q '^state  *clean$' || die "the recovered copy's log is not clean"
perl "$TOP/tests/lib/mkdelta.pl" "$img" "$ref" "$logoff" "$logbytes" >"$WORK/delta" 2>"$WORK/dstat"
cp --sparse=always "$img" "$WORK/check"
perl "$TOP/tests/lib/applydelta.pl" "$WORK/check" "$WORK/delta" >/dev/null
perl "$TOP/tests/lib/imgcmp.pl" "$ref" "$WORK/check" "$logoff" "$logbytes" ||
	die "the delta does not give back the recovered image"
rm -f "$WORK/check"

log "$NAME: replay here, pass 3 with libxfs"
"$XLS" replay -o "$out" "$img" >"$WORK/replay" || die "replay failed"
grep -q "pass 3, as the kernel.s mount finishes recovery" "$WORK/replay" || die "replay did no pass 3"
grep -q "log clean, as an unmount leaves it" "$WORK/replay" || die "replay left the log dirty"
if perl "$TOP/tests/lib/imgcmp.pl" "$ref" "$out" "$logoff" "$logbytes" >"$WORK/cmp"; then
	cmpres="replay's output equals REF outside the log"
else
	cmpres="replay's output DIFFERS from REF outside the log: $(grep '^daddr' "$WORK/cmp" | sed 's/^daddr //' | tr '\n' ' ')"
	log "$NAME: $cmpres"
fi
xfs_repair -n "$out" >"$WORK/repair" 2>&1 || die "xfs_repair -n finds problems in replay's output"
log "$NAME: the $ARCH kernel mounts a copy of replay's output"
cp --sparse=always "$out" "$WORK/out2"
guest "$WORK/out2" --recover >"$WORK/out2.log" 2>&1 || { tail -30 "$WORK/out2.log" >&2; die "the $ARCH kernel cannot mount replay's output"; }
grep -a -q "Starting recovery" "$WORK/out2.log" && die "the $ARCH kernel recovers replay's output (its log is not clean)"
perl "$TOP/tests/lib/imgcmp.pl" "$out" "$WORK/out2" "$logoff" "$logbytes" >/dev/null ||
	die "the $ARCH kernel's mount of replay's output changes it outside the log"
rm -f "$WORK/out2"
here="not tried (no loop devices)"
mnt=$WORK/mnt
mkdir "$mnt"
if mount -o loop,ro,nouuid "$out" "$mnt" 2>/dev/null; then
	umount "$mnt"
	here="this machine's kernel ($(uname -r)) mounts replay's output read-only"
	if [ "$ARCH" = s390x ]; then
		cp --sparse=always "$img" "$WORK/be"
		if mount -o loop,nouuid "$WORK/be" "$mnt" 2>/dev/null; then
			umount "$mnt"
			die "this machine's kernel recovers the big-endian log"
		fi
		rm -f "$WORK/be"
		here="$here, and refuses to mount $NAME.img (a big-endian dirty log)"
	fi
fi

xz -9 -T1 -c "$img" >"$WORK/$NAME.img.xz"
xz -9 -T1 -c "$WORK/delta" >"$WORK/$NAME.recovered.delta.xz"
{
	echo "image:     $NAME.img.xz (dirty log written by $WHO, intents pending)"
	echo "reference: $NAME.recovered.delta.xz (what that kernel's recovery changes outside the log)"
	echo "made by:   ${KERNEL_DEB:+KERNEL_DEB=${KERNEL_DEB##*/} }tests/images/mkguestint.sh $ARCH $NAME (tests/images/guest-journal.sh, xlsguest.c)"
	echo "date:      $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
	echo "kernel:    Debian $KPKG ($KVER), under"
	echo "           $($QEMU --version | head -1) (TCG) on $(uname -m)"
	echo "busybox:   Debian $BBPKG ($(apt-cache policy "$BBPKG" 2>/dev/null | sed -n 's/^ *Candidate: //p'))"
	echo "xlsguest:  tests/images/xlsguest.c, $CC -O2 -static ($($CC --version | head -1))"
	echo "xfsprogs:  $(mkfs.xfs -V | sed 's/^mkfs.xfs //') ($(uname -m): mkfs only)"
	echo "image size: $(stat -c %s "$img") bytes; sha256 $(sha256sum "$img" | cut -d" " -f1)"
	echo "mkfs:      truncate -s 512M $NAME.img; $MKFS $NAME.img"
	echo "dirty log: setup boot (unmounted), race boot: attempt $attempt, XFS_IOC_GOINGDOWN"
	echo "           (LOGFLUSH) $delay ms after the truncations and the reflink started"
	echo "pending:   $pend (xfs_logscope recover)"
	echo "log state: $state"
	echo "log:       offset $logoff, $logbytes bytes"
	echo "recovered: cp --sparse=always $NAME.img REF; guest-journal.sh $ARCH REF --recover"
	echo "           (the $ARCH kernel mounts, recovers, unmounts); REF sha256"
	echo "           $(sha256sum "$ref" | cut -d" " -f1)"
	echo "           delta: $(cat "$WORK/dstat"), $(stat -c %s "$WORK/delta") bytes uncompressed"
	echo "checked:   xfs_logscope replay -o OUT $NAME.img: pass 3 done, log clean"
	echo "           ($("$XLS" -V | head -1), $("$XLS" -V | sed -n 2p),"
	echo "           tree $(git -C "$TOP" describe --always --dirty 2>/dev/null || echo '?'));"
	echo "           $cmpres"
	echo "           (tests/lib/imgcmp.pl); xfs_repair -n OUT clean; the $ARCH kernel mounts a copy"
	echo "           of OUT without recovery and changes nothing outside the log;"
	echo "           $here"
	echo "pass 3:    what replay's pass 3 finished:"
	sed -n 's/^  pass 3, as/    pass 3, as/p' "$WORK/replay" | fold -s -w 76 | sed '2,$s/^/      /'
	echo
	echo "kernel messages (dmesg before poweroff, XFS lines):"
	echo "  race:"
	kmsg "$WORK/race.log" | sed 's/^/    /'
	echo "  recovery:"
	kmsg "$WORK/ref.log" | sed 's/^/    /'
	echo
	echo "xfs_logscope info $NAME.img:"
	echo
	grep -v '^input ' "$WORK/info" | sed 's/^/  /'
	echo
	echo "setup (busybox sh; \"sync FILE...\" fsyncs each FILE; xlsguest: tests/images/xlsguest.c):"
	echo
	cat "$WORK/setup.sh"
	echo
	echo "race (on a copy of the setup's image):"
	echo
	cat "$WORK/race.sh"
} >"$WORK/$NAME.txt"
mv "$WORK/$NAME.img.xz" "$WORK/$NAME.recovered.delta.xz" "$WORK/$NAME.txt" "$OUTDIR/"
log "$NAME: $(stat -c %s "$OUTDIR/$NAME.img.xz") + $(stat -c %s "$OUTDIR/$NAME.recovered.delta.xz") bytes"
if [ -n "${MKGUESTINT_KEEP:-}" ]; then
	mv "$img" "$MKGUESTINT_KEEP/$NAME.img"
	mv "$ref" "$MKGUESTINT_KEEP/$NAME.recovered.img"
	mv "$out" "$MKGUESTINT_KEEP/$NAME.replayed.img"
fi
