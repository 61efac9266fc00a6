#!/bin/sh
# Seed the fuzz corpus from the journals of the bundled images:
#   mkseeds.sh XFS_LOGSCOPE XLS_SEEDGEN OUTDIR
# Each tests/images/NAME.img.xz is decompressed (sparse), its log copied out
# with "xfs_logscope copy" (a 64 MiB bare log), and xls-seedgen cuts small
# valid logs out of that copy into OUTDIR/seeds; xls-seedgen -S adds
# synthetic logs with an item of every type.  The big copies and the
# images are removed afterwards.
set -eu
xls=$1
seedgen=$2
out=$3
top=$(cd "$(dirname "$0")/../.." && pwd)
work="$out/mkseeds.tmp"

rm -rf "$work" "$out/seeds"
mkdir -p "$work" "$out/seeds"
trap 'rm -rf "$work"' EXIT
for xz in "$top"/tests/images/*.img.xz; do
	name=$(basename "$xz" .img.xz)
	case $name in *-log) continue ;; esac	# external log of NAME
	img="$work/$name.img"
	xz -dc "$xz" | cp --sparse=always /dev/stdin "$img"
	set --
	if [ -f "$top/tests/images/$name-log.img.xz" ]; then
		xz -dc "$top/tests/images/$name-log.img.xz" |
			cp --sparse=always /dev/stdin "$work/$name-log.img"
		set -- -l "$work/$name-log.img"
	fi
	if ! "$xls" copy "$@" "$img" "$work/$name.log" >/dev/null; then
		echo "mkseeds: cannot copy the log of $name; skipped" >&2
		rm -f "$img" "$work/$name-log.img"
		continue
	fi
	rm -f "$img" "$work/$name-log.img"
	"$seedgen" -f "$work/$name.log" "$out/seeds" "$name"
	rm -f "$work/$name.log"
done
# Items the test journals do not hold: every type, both byte orders.
"$seedgen" -S "$out/seeds" synth
echo "mkseeds: $(ls "$out/seeds" | wc -l) seeds in $out/seeds"
