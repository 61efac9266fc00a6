#!/bin/sh
# Seed the metadump fuzz corpus (fuzz-metadump):
#   mkseeds-md.sh XFS_LOGSCOPE XLS_SEEDGEN OUTDIR
# Small metadumps made by tests/lib/mkmd.pl from the bundled images: the
# superblock and AG headers of dir4k (internal log) and extlog (external
# log), sb_logblocks cut down to a log of a few of their records (cut by
# xls-seedgen); v1, v2, v2 with the external log, a realtime extent; each
# also gzip-, xz- and zstd-compressed; into OUTDIR/seeds-md.
set -eu
xls=$1
seedgen=$2
out=$3
top=$(cd "$(dirname "$0")/../.." && pwd)
work="$out/mkseeds-md.tmp"
mkmd="perl $top/tests/lib/mkmd.pl"

rm -rf "$work" "$out/seeds-md"
mkdir -p "$work" "$out/seeds-md"
trap 'rm -rf "$work"' EXIT
seeds=$out/seeds-md
for name in dir4k extlog; do
	img=$work/$name.img
	xz -dc "$top/tests/images/$name.img.xz" | cp --sparse=always /dev/stdin "$img"
	set --
	if [ $name = extlog ]; then
		xz -dc "$top/tests/images/extlog-log.img.xz" |
			cp --sparse=always /dev/stdin "$work/extlog-log.img"
		set -- -l "$work/extlog-log.img"
	fi
	"$xls" copy "$@" "$img" "$work/$name.log" >/dev/null
	logstart=$(( $("$xls" info --json "$@" "$img" |
		sed -n 's/.*"log_offset":\([0-9]*\).*/\1/p') / 512 ))
	mkdir "$work/cut.$name"
	"$seedgen" -n 4 -f "$work/$name.log" "$work/cut.$name" "$name" >/dev/null
	for s in "$work/cut.$name"/*.log; do
		cp "$s" "$work/seed.log"
		truncate -s %4096 "$work/seed.log"
		lb=$(($(stat -c %s "$work/seed.log") / 4096))
		b=$seeds/$(basename "$s" .log)
		sb="d:0:img=$img@0+1 d:1:img=$img@1+3"
		if [ $name = extlog ]; then
			# shellcheck disable=SC2086
			$mkmd -v 2 --compat=0x0e --logblocks=$lb "$b.v2.md" $sb l:0:file="$work/seed.log"
		else
			# shellcheck disable=SC2086
			$mkmd -v 1 --logblocks=$lb "$b.v1.md" $sb d:$logstart:file="$work/seed.log"
			# shellcheck disable=SC2086
			$mkmd -v 2 --logblocks=$lb "$b.v2.md" $sb d:$logstart:file="$work/seed.log"
			# shellcheck disable=SC2086
			$mkmd -v 2 --incompat=1 --rblocks=16 --logblocks=$lb "$b.rt.md" $sb \
				r:0:fill=0x52+8 d:$logstart:file="$work/seed.log"
		fi
	done
	rm -f "$img" "$work/extlog-log.img" "$work/$name.log"
done
for f in "$seeds"/*.md; do
	gzip -c "$f" >"$f.gz"
	xz -c "$f" >"$f.xz"
	zstd -q -c "$f" >"$f.zst"
done
echo "mkseeds-md: $(ls "$seeds" | wc -l) seeds in $seeds"
