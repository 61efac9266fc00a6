#!/bin/sh
# Hostile and broken metadumps: each gets one line on standard error that
# says what is wrong and where, nothing on standard output, and exit 3 (2
# for a usage error) -- never a crash, a hang or unbounded memory.  Where
# xfs_mdrestore gives a file a meaning (two copies of a block: the later
# is written last), the tool reads it so, and says so.
#
# The metadumps are small ones made by tests/lib/mkmd.pl (which shares no
# code with src/): the superblock and AG headers of the bundled dir4k
# image, its sb_logblocks cut down to a small log holding a few of its
# records (cut by xls-seedgen), v1 and v2.
. "$(dirname "$0")/lib/test-lib.sh"

MKMD="perl $XLS_TOP/tests/lib/mkmd.pl"
SEEDGEN="$XLS_BUILD/tests/xls-seedgen"
SRCDUMP="$XLS_BUILD/tests/xls-srcdump"
LOGDADDR=524336		# dir4k's sb_logstart, in sectors

if ! command -v perl >/dev/null 2>&1 || ! [ -x "$SEEDGEN" ] || ! [ -x "$SRCDUMP" ]; then
	test_skip 'hostile metadumps' 'needs perl, xls-seedgen and xls-srcdump (make tests)'
	test_done
fi

# md OUT [OPTION...] [PIECE...]: a metadump of the pieces given, or of the
# base's (superblock, AG headers, the small log) when none is
md() {
	out=$1 opts= pieces=
	shift
	for a in "$@"; do
		case $a in
		[dlr3]:*) pieces="$pieces $a" ;;
		*)	opts="$opts $a" ;;
		esac
	done
	# shellcheck disable=SC2086
	[ -n "$pieces" ] || set -- d:0:img="$IMG@0+1" d:1:img="$IMG@1+3" d:$LOGDADDR:file=seed.log
	# shellcheck disable=SC2086
	$MKMD $opts "$out" ${pieces:-"$@"}
}

test_expect_success 'setup: a small log cut from dir4k, metadumps of it that read' '
	IMG=$(image dir4k) &&
	"$XLS" copy "$IMG" d4.log >/dev/null &&
	mkdir seeds && "$SEEDGEN" -f d4.log seeds d4 >/dev/null &&
	seed=$(ls seeds/*-plain.log | head -n1) &&
	cp "$seed" seed.log &&
	truncate -s %4096 seed.log &&
	echo "$(($(stat -c %s seed.log) / 4096))" >logblocks &&
	md good1.md --logblocks=$(cat logblocks) &&
	md good2.md -v 2 --logblocks=$(cat logblocks) &&
	"$XLS" records -f seed.log >expect &&
	"$XLS" records good1.md >out1 && test_cmp expect out1 &&
	"$XLS" records good2.md >out2 && test_cmp expect out2
'
LB=$(cat logblocks 2>/dev/null)
IMG=$(image dir4k)

# refused CODE FILE PATTERN [ARGS...]: exit CODE, nothing on stdout, one
# line on stderr that matches PATTERN, for info and for recover
refused() {
	code=$1 file=$2 pat=$3
	shift 3
	for cmd in info recover; do
		test_expect_code "$code" "$XLS" $cmd "$@" "$file" >out 2>err || return 1
		test ! -s out || { echo "$cmd printed on stdout:"; cat out; return 1; }
		test "$(wc -l <err)" -eq 1 || { echo "$cmd: not one line:"; cat err; return 1; }
		grep -q "$pat" err || { echo "$cmd: not /$pat/:"; cat err; return 1; }
	done
}

test_expect_success 'v1: a bad magic in a later index block' '
	md bad.md --logblocks=$LB --magic-at=1 &&
	refused 3 bad.md "is not a valid metadump: index block 1 at byte 32768 has no .XFSM. magic"
'

test_expect_success 'v1: mb_count beyond the end of the file' '
	md bad.md --logblocks=$LB --count-at=2:63 &&
	refused 3 bad.md "is a truncated metadump: a block at byte 65536 needs 512 bytes, but the file ends at byte"
'

test_expect_success 'v1: mb_count over the 63 an index block holds, mb_blocklog not 9' '
	md bad.md --logblocks=$LB --count-at=0:64 &&
	refused 3 bad.md "index block at byte 0 has mb_count 64, more than its 63 daddrs" &&
	md bad.md --logblocks=$LB --blocklog=12 &&
	refused 3 bad.md "index block at byte 0 has mb_blocklog 12 (xfs_metadump writes 9)"
'

test_expect_success 'v1: a full last index block with no closing one' '
	md bad.md d:0:img="$IMG@0+1" d:1:fill=0+62 --no-end &&
	refused 3 bad.md "truncated metadump: the index block after a full one at byte 32768"
'

test_expect_success 'the first block is not the superblock, or not a superblock' '
	md bad.md d:1:img="$IMG@1+3" d:0:img="$IMG@0+1" &&
	refused 3 bad.md "its first block is daddr 0x1, not the superblock" &&
	md bad.md -v 2 d:1:img="$IMG@1+3" d:0:img="$IMG@0+1" &&
	refused 3 bad.md "its first extent is not the superblock (xme_addr 0x1)" &&
	md bad.md d:0:fill=0x41+1 d:1:img="$IMG@1+3" &&
	refused 3 bad.md "its first block (daddr 0, at byte 512) is not an XFS superblock"
'

test_expect_success 'blocks beyond the end of their device' '
	md bad.md --logblocks=$LB d:0:img="$IMG@0+1" d:0x100000:fill=1+1 &&
	refused 3 bad.md "block daddr 0x100000 (index block at byte 0) lies beyond the end of the data device" &&
	md bad.md -v 2 --logblocks=$LB d:0:img="$IMG@0+1" d:0xfffff:fill=1+2 &&
	refused 3 bad.md "extent 1 at byte 548 (daddr 0xfffff, 1024 bytes) lies beyond the end of its device"
'

test_expect_success 'v2: device bits 2 without the realtime flag, device bits 3' '
	md bad.md -v 2 --logblocks=$LB d:0:img="$IMG@0+1" r:8:fill=1+1 &&
	refused 3 bad.md "extent 1 at byte 548 is of the realtime device, but the header says the metadump carries none" &&
	md bad.md -v 2 --logblocks=$LB d:0:img="$IMG@0+1" 3:8:fill=1+1 &&
	refused 3 bad.md "extent 1 at byte 548 names device 3 (xme_addr bits 54-55), which does not exist" &&
	md bad.md -v 2 --logblocks=$LB d:0:img="$IMG@0+1" l:8:fill=1+1 &&
	refused 3 bad.md "extent 1 at byte 548 is of the log device, but the header says the metadump carries no external log"
'

test_expect_success 'v2: a realtime extent with the flag is passed over' '
	md rt.md -v 2 --incompat=1 --logblocks=$LB --rblocks=16 d:0:img="$IMG@0+1" d:1:img="$IMG@1+3" \
		r:0:fill=0x52+8 d:$LOGDADDR:file=seed.log &&
	"$XLS" records rt.md >out && test_cmp expect out &&
	"$XLS" info rt.md >info && grep -q "^metadump_rt_device *yes$" info
'

test_expect_success 'v2: unknown incompat flags, xmh_reserved, xmh_version, a zero xme_len' '
	md bad.md -v 2 --logblocks=$LB --incompat=6 &&
	refused 3 bad.md "unknown incompat flags 0x6 (xfs_mdrestore refuses them too)" &&
	md bad.md -v 2 --logblocks=$LB --reserved=1 &&
	refused 3 bad.md "xmh_reserved is 0x1, not 0" &&
	md bad.md -v 2 --logblocks=$LB --version=3 &&
	refused 3 bad.md "xmh_version is 3, not 2" &&
	md bad.md -v 2 --logblocks=$LB --len-at=1:0 &&
	refused 3 bad.md "extent 1 at byte 548 has length 0"
'

test_expect_success 'a metadump without its log' '
	md bad.md --logblocks=$LB d:0:img="$IMG@0+1" d:1:img="$IMG@1+3" &&
	refused 3 bad.md "is a metadump without the log: none of its $((LB * 8)) blocks (from byte 268460032 of the data device) is in it"
'

test_expect_success 'truncated plain metadumps: one line wherever they end' '
	for v in 1 2; do
		size=$(stat -c %s good$v.md)
		for cut in 4 20 100 512 600 2060 32768 40000 $((size - 1)); do
			head -c $cut good$v.md >cut.md &&
			refused 3 cut.md "truncated metadump" || { echo "v$v cut at $cut"; return 1; }
		done
	done
'

test_expect_success 'compressed streams that end early: one line, exit 3' '
	gzip -c good1.md >good1.md.gz && xz -c good2.md >good2.md.xz &&
	zstd -q -c good1.md >good1.md.zst &&
	for f in good1.md.gz good2.md.xz good1.md.zst; do
		"$XLS" records "$f" >out && test_cmp expect out || return 1
		size=$(stat -c %s $f)
		for cut in 10 $((size / 2)) $((size - 4)); do
			head -c $cut $f >cut.$f &&
			refused 3 cut.$f "stream ends early, at compressed byte [0-9]* ([0-9]* bytes decompressed): the file is truncated" ||
				{ echo "$f cut at $cut"; return 1; }
		done
	done
'

test_expect_success 'a compressed stream of something else, a corrupt one, one we do not read' '
	seq 1 20000 | gzip -c >text.gz &&
	refused 3 text.gz "is gzip-compressed, and holds neither an XFS filesystem nor an xfs_metadump" &&
	cp good1.md.gz flip.gz &&
	printf "\377\377\377\377" | dd of=flip.gz bs=1 seek=40 conv=notrunc 2>/dev/null &&
	refused 3 flip.gz "the gzip stream is corrupt at or before compressed byte" &&
	printf "BZh91AY&SY" >x.bz2 &&
	refused 3 x.bz2 "is bzip2-compressed, which xfs_logscope does not read: decompress it first"
'

# Two copies of one block: xfs_mdrestore writes both in order, so the later
# is what the restored image holds -- except the superblock, which it
# rewrites from the first copy at the end.
test_expect_success 'two copies of a block: the later one is read, as xfs_mdrestore restores it' '
	md dup.md --logblocks=$LB d:0:img="$IMG@0+1" d:1:img="$IMG@1+3" \
		d:2:fill=0x55+1 d:$LOGDADDR:file=seed.log d:0:fill=0x66+1 &&
	"$XLS" records dup.md >out 2>err &&
	test_cmp expect out &&
	grep -q "warning: the metadump carries 1024 bytes of blocks more than once; the later copy is read" err &&
	"$XLS" info dup.md 2>/dev/null | grep -q "^metadump_overlap_bytes *1024$" &&
	rm -f dev.out && "$SRCDUMP" dup.md dev.out >/dev/null &&
	perl -e "print chr(0x55) x 512" >fill55 &&
	dd if=dev.out bs=512 skip=2 count=1 2>/dev/null | cmp - fill55 &&
	test "$(head -c 4 dev.out)" = XFSB &&
	if command -v xfs_mdrestore >/dev/null 2>&1; then
		xfs_mdrestore dup.md rest.img &&
		"$SRCDUMP" -i 512 -c rest.img dup.md >/dev/null
	fi
'

test_expect_success 'an extent that overlaps others in part: the later copy, to the byte' '
	md ovl.md -v 2 --logblocks=$LB d:0:img="$IMG@0+1" d:1:fill=0x11+6 d:3:fill=0x22+2 \
		d:$LOGDADDR:file=seed.log d:6:fill=0x33+4 &&
	rm -f dev.out && "$SRCDUMP" ovl.md dev.out >/dev/null &&
	for s in 1:11 2:11 3:22 4:22 5:11 6:33 9:33; do
		dd if=dev.out bs=512 skip=${s%:*} count=1 2>/dev/null | od -An -tx1 -N1 |
			grep -q " ${s#*:}" || { echo "sector ${s%:*} is not 0x${s#*:}"; return 1; }
	done &&
	"$XLS" info ovl.md 2>/dev/null | grep -q "^metadump_overlap_bytes *1536$"
'

test_expect_success 'a decompression bomb is bounded by the devices a metadump declares' '
	md bomb.md -v 2 --logblocks=$LB d:0:img="$IMG@0+1" d:8:fill=0+2000 d:8:fill=0+2000 \
		d:8:fill=0+2000 d:8:fill=0+2000 &&
	"$SRCDUMP" -c "$IMG" bomb.md >/dev/null 2>&1; test $? -le 1
'

test_done
