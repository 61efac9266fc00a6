#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mkmetadumps.sh - make the xfs_metadump files of tests/images/metadump/
# from the bundled images (tests/images/NAME.img.xz).
#
# Usage: tests/images/metadump/mkmetadumps.sh [NAME...]
#        XFSPROGS_NEW=/path/to/xfsprogs-build tests/images/metadump/mkmetadumps.sh
#
#   NAME is an image of tests/images (default: all of them).  For each it
#   writes, xz-compressed (xz -9):
#     NAME.v1.md.xz     xfs_metadump NAME.img           (v1: obfuscated, stale
#                                                        bytes zeroed: the default)
#     NAME.v1ao.md.xz   xfs_metadump -a -o NAME.img     (v1: names kept, blocks
#                                                        whole: byte for byte)
#   and, when XFSPROGS_NEW names an xfsprogs 6.6 or later build tree (its
#   db/xfs_db and db/xfs_metadump.sh are used; it is never installed):
#     NAME.v2ao.md.xz   xfs_metadump -v 2 -a -o NAME.img  (all but wrapped, whose
#                                                        1.3 MB log v1 covers)
#     NAME.v2.md.xz     xfs_metadump -v 2 NAME.img      (extlog and dir4k only)
#   For extlog the log device is given with -l, so v2 carries it; v1 cannot
#   (the v1 files of extlog hold the data device only).  NAME.txt in this
#   folder records how each file was made.
#
# Needs xfsprogs (xfs_metadump, xfs_db) and xz; no root: xfs_metadump reads
# the image files.  Never run by "make check": the tests use the committed
# files, and make the plain, gzip and zstd forms from them.

set -euo pipefail

OUTDIR=$(cd "$(dirname "$0")" && pwd)
IMAGES=$(cd "$OUTDIR/.." && pwd)
PROG=${0##*/}
ALL=(clean dir4k dir64k logsu256k unlinked wrapped extlog dirfrag)
V2_OBFUSCATED="extlog dir4k"
V2_NONE="wrapped"

die() { echo "$PROG: $*" >&2; exit 1; }
log() { echo "$PROG: $*" >&2; }

for t in xfs_metadump xfs_db xz; do
	command -v "$t" >/dev/null || die "$t not found"
done
NEW_MD=""
if [ -n "${XFSPROGS_NEW:-}" ]; then
	NEW_MD=$XFSPROGS_NEW/db/xfs_metadump.sh
	[ -x "$NEW_MD" ] && [ -x "$XFSPROGS_NEW/db/xfs_db" ] ||
		die "XFSPROGS_NEW=$XFSPROGS_NEW: no db/xfs_metadump.sh and db/xfs_db there"
else
	log "XFSPROGS_NEW is not set: making the v1 files only"
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/mkmetadumps.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

[ $# -gt 0 ] || set -- "${ALL[@]}"

# v1 NAME VARIANT OPTS...: the installed xfs_metadump
v1() {
	local name=$1 variant=$2
	shift 2
	xfs_metadump "$@" "$WORK/$name.img" "$WORK/$name.$variant.md" 2>"$WORK/err" ||
		die "xfs_metadump $* $name.img failed: $(cat "$WORK/err")"
	keep "$name" "$variant" "xfs_metadump $(sed "s|$WORK/||g" <<<"$*") $name.img" \
		"$(xfs_metadump -V)"
}

# v2 NAME VARIANT OPTS...: the newer build's, its own xfs_db first on PATH
v2() {
	local name=$1 variant=$2 logopt=()
	shift 2
	[ "$name" != extlog ] || logopt=(-l "$WORK/extlog-log.img")
	PATH=$XFSPROGS_NEW/db:$PATH "$NEW_MD" -v 2 "$@" "${logopt[@]}" "$WORK/$name.img" \
		"$WORK/$name.$variant.md" 2>"$WORK/err" ||
		die "xfs_metadump -v 2 $* $name.img failed: $(cat "$WORK/err")"
	keep "$name" "$variant" "xfs_metadump -v 2${*:+ $*}${logopt[*]:+ -l extlog-log.img} $name.img" \
		"$(PATH=$XFSPROGS_NEW/db:$PATH "$NEW_MD" -V)"
}

# keep NAME VARIANT COMMAND VERSION: compress it into the folder, note how
keep() {
	local f=$1.$2.md
	xz -9 -T1 -c "$WORK/$f" >"$OUTDIR/$f.xz.tmp"
	mv -f "$OUTDIR/$f.xz.tmp" "$OUTDIR/$f.xz"
	{
		echo "$f.xz: $3"
		echo "    $4; $(stat -c %s "$WORK/$f") bytes, $(stat -c %s "$OUTDIR/$f.xz") compressed;" \
			"$(date -u '+%Y-%m-%d')"
		sed 's/^/    warning: /' "$WORK/err"
	} >>"$WORK/$1.txt"
	log "$f.xz"
}

for name in "$@"; do
	[ -r "$IMAGES/$name.img.xz" ] || die "no image $IMAGES/$name.img.xz"
	xz -dc "$IMAGES/$name.img.xz" | cp --sparse=always /dev/stdin "$WORK/$name.img"
	: >"$WORK/$name.txt"
	if [ "$name" = extlog ]; then
		xz -dc "$IMAGES/extlog-log.img.xz" | cp --sparse=always /dev/stdin "$WORK/extlog-log.img"
		# xfs_metadump 6.1 asserts on an external log it was not given
		v1 "$name" v1 -l "$WORK/extlog-log.img"
		v1 "$name" v1ao -a -o -l "$WORK/extlog-log.img"
	else
		v1 "$name" v1
		v1 "$name" v1ao -a -o
	fi
	if [ -n "$NEW_MD" ] && [ "$name" != "$V2_NONE" ]; then
		v2 "$name" v2ao -a -o
		case " $V2_OBFUSCATED " in *" $name "*) v2 "$name" v2 ;; esac
	fi
	{
		echo "metadumps of tests/images/$name.img.xz (see ../$name.txt), made by"
		echo "tests/images/metadump/mkmetadumps.sh:"
		echo
		cat "$WORK/$name.txt"
	} >"$OUTDIR/$name.txt"
	rm -f "$WORK/$name".*
done
