#!/bin/sh
# xfs_metadump files read directly (tests/images/metadump: v1 made with the
# installed xfs_metadump, v2 with xfsprogs 6.15; see mkmetadumps.sh there).
#
#  - "-a -o" metadumps (names kept, blocks whole) of every bundled image,
#    v1 and v2: every command prints what it prints on the image, byte for
#    byte (info's keys that say what the input is aside), history --replay
#    writes the same block and copy the same log; the data device the
#    source stage serves is the image, byte for byte (xls-srcdump).
#  - obfuscated ones (the default of xfs_metadump): the log is copied as it
#    was, so every command that reads only the log prints what it prints
#    on the image; recover's decisions equal those on the image
#    xfs_mdrestore makes of the metadump (blocks the metadump lacks are
#    zeros there, and absent here), and the data device equals that image
#    outside the superblock sector, which xfs_mdrestore rewrites.
#  - gzip, xz and zstd forms read as the plain file.
#  - info reports the metadump, and warns when xfs_metadump cleared the log.
# v2 metadumps are restored only with XFSPROGS_NEW (an xfsprogs 6.6 or
# later build tree: its mdrestore/xfs_mdrestore); that part skips otherwise.
. "$(dirname "$0")/lib/test-lib.sh"
. "$XLS_TOP/tests/lib/images.sh"
. "$XLS_TOP/tests/lib/metadump.sh"

SRCDUMP="$XLS_BUILD/tests/xls-srcdump"
NAMES="$IMAGE_NAMES dirfrag"

# both CMD... : run on $img_args and on $md_args; outputs and exit status
# equal (with $norm, what the metadump run says of absent blocks dropped)
norm=cat
both() {
	# shellcheck disable=SC2086
	"$XLS" "$@" $img_args >a.out 2>a.err
	rca=$?
	# shellcheck disable=SC2086
	"$XLS" "$@" $md_args >b.raw 2>b.err
	rcb=$?
	$norm <b.raw >b.out
	[ "$rca" -eq "$rcb" ] || { echo "$*: exit $rca on the image, $rcb on the metadump"; cat b.err; return 1; }
	test_cmp a.out b.out || { echo "$*: the outputs differ"; return 1; }
	# findings name their input
	sed -i "s|^xfs_logscope: '[^']*': finding: |xfs_logscope: INPUT: finding: |" a.err b.err
	test_cmp a.err b.err || { echo "$*: standard error differs"; return 1; }
}

# The hottest buffer of the log, for history.
hot() {
	# shellcheck disable=SC2086
	"$XLS" stats --json --top 1 $img_args | sed -n 's/.*"kind":"hot".*"blkno":"\(0x[0-9a-f]*\)".*/\1/p' | head -n1
}

# bufs --csv but the last column, owner_from: bufs reads the data device
# for owners the logged regions do not name, and a metadump lacks blocks
# only the log allocated, whose owner then comes from the buffer type
# ("type", not "disk"); every_cmd compares it whole where nothing is lacking
bufs_but_owner_from() {
	# shellcheck disable=SC2086
	"$XLS" bufs --csv $img_args | sed 's/,[a-z_]*$//' >a.out &&
	# shellcheck disable=SC2086
	"$XLS" bufs --csv $md_args | sed 's/,[a-z_]*$//' >b.out &&
	test_cmp a.out b.out
}

# log_cmds: the commands that read the log alone (and bufs, but for the
# owners it reads from the data device)
log_cmds() {
	both records --all &&
	both trans &&
	both trans --json &&
	both bufs -v &&
	bufs_but_owner_from &&
	both stats --json &&
	"$XLS" info $img_args | drop_input_keys >a.out &&
	"$XLS" info $md_args | drop_input_keys >b.out &&
	test_cmp a.out b.out &&
	rm -f a.log b.log &&
	"$XLS" copy $img_args a.log >/dev/null &&
	"$XLS" copy $md_args b.log >/dev/null &&
	cmp a.log b.log
}

# lacks_data NAME VARIANT: the metadump lacks sectors that are not zeros
# on the image (blocks allocated in the log alone are not metadata to
# xfs_metadump, yet the kernel may have written them): recover reads
# zeros there, as on the image xfs_mdrestore makes, not the image's data
lacks_data() {
	# shellcheck disable=SC2046
	"$SRCDUMP" -c "$(image "$1")" $(metadump_args "$1" "$2") >lacks.txt || return 2
	! grep -q " missing_nonzero 0 " lacks.txt
}

# recover --summary --csv of a metadump has two more columns, at the end,
# and says approximate when items were decided on blocks it lacks
drop_absent_column() {
	perl -ne '
		my @f = /("(?:[^"]|"")*"|[^,\n]*)(?:,|\n|$)/g;
		pop @f while @f && $f[-1] eq "";
		splice @f, -2;
		if ($. == 1) { ($ap) = grep { $f[$_] eq "approximate" } 0 .. $#f }
		elsif (defined $ap) { $f[$ap] = "no" }
		print join(",", @f), "\n";'
}

# every_cmd NAME VARIANT [FORM]: every command as on the image; recover
# and history too, their notes of absent blocks aside, unless the blocks
# the metadump lacks hold data on the image (then the restored image is
# the reference: see "as_restored" below)
every_cmd() {
	img_args=$(image_args "$1") && md_args=$(metadump_args "$1" "$2" "${3:-plain}") || return 1
	norm=cat
	log_cmds || return 1
	lacks_data "$1" "$2"
	case $? in
	0)	echo "$1.$2 lacks data of the image: $(cat lacks.txt)"; return 0 ;;
	2)	return 1 ;;
	esac
	both bufs --csv &&
	both files --json &&
	norm=drop_absent_notes
	both lost --json &&
	both recover &&
	both recover --json -v || return 1
	norm=drop_absent_column
	both recover --summary --csv || return 1
	norm=drop_absent_notes
	blk=$(hot)
	[ -n "$blk" ] || { [ "$1" = clean ] && return 0; echo "no hot buffer"; return 1; }
	both history --blkno="$blk" --json &&
	both history --blkno="$blk" --diff &&
	rm -f a.bin b.bin &&
	"$XLS" history --blkno="$blk" --replay=a.bin $img_args >/dev/null &&
	"$XLS" history --blkno="$blk" --replay=b.bin $md_args >/dev/null &&
	cmp a.bin b.bin
}

for v in v1ao v2ao; do
	for name in $NAMES; do
		has_metadump "$name" "$v" || continue
		test_expect_success "$name.$v: every command as on the image" "every_cmd $name $v"
	done
done

for form in xz gz zst; do
	test_expect_success "dir4k.v1ao, $form-compressed: every command as on the image" \
		"every_cmd dir4k v1ao $form"
done
test_expect_success 'extlog.v2ao, gzip-compressed: every command as on the image' '
	every_cmd extlog v2ao gz
'

# --- the data device, byte for byte ---------------------------------------

test_expect_success 'v1ao and v2ao: the data device is the image on every sector carried, zeros elsewhere' '
	for name in $NAMES; do
		for v in v1ao v2ao; do
			has_metadump $name $v || continue
			"$SRCDUMP" -c "$(image $name)" $(metadump_args $name $v) ||
				{ echo "$name.$v"; return 1; }
		done
	done
'

test_expect_success 'extlog.v2ao: the log device is the image, byte for byte' '
	rm -f log.out &&
	"$SRCDUMP" -L "$(metadump extlog v2ao)" log.out >/dev/null &&
	cmp -n $(stat -c %s log.out) log.out "$(image extlog-log)"
'

# (xz decompresses a 512 MiB image in ~0.4 s: a few commands only)
test_expect_success 'compressed images: the device as decompressed, the commands as on the image' '
	"$SRCDUMP" -c "$(image dir64k)" "$IMAGES/dir64k.img.xz" >/dev/null &&
	img_args=$(image_args dir4k) && md_args="$IMAGES/dir4k.img.xz" &&
	both trans --json && both recover --json &&
	"$XLS" info $md_args >out &&
	grep -q "^compression *xz$" out && grep -q "^spool_bytes *[1-9]" out &&
	img_args=$(image_args extlog) &&
	md_args="-l $IMAGES/extlog-log.img.xz $IMAGES/extlog.img.xz" &&
	both bufs --json && both recover --json
'

# --- obfuscated metadumps ---------------------------------------------------

test_expect_success 'obfuscated v1: the log commands as on the image (a dirty log is copied as it was)' '
	for name in $NAMES; do
		[ $name = clean ] && continue
		img_args=$(image_args $name) && md_args=$(metadump_args $name v1) || return 1
		log_cmds || { echo "$name.v1"; return 1; }
	done
'

MDRESTORE=
if command -v xfs_mdrestore >/dev/null 2>&1; then
	MDRESTORE=xfs_mdrestore
fi
MDRESTORE2=
if [ -n "${XFSPROGS_NEW:-}" ] && [ -x "$XFSPROGS_NEW/mdrestore/xfs_mdrestore" ]; then
	MDRESTORE2=$XFSPROGS_NEW/mdrestore/xfs_mdrestore
fi

# restored NAME VARIANT RESTORE: the image RESTORE makes of the metadump
restored() {
	rm -f rest.img rest-log.img
	case $1.$2 in
	extlog.v2*) "$3" -l rest-log.img "$(metadump "$1" "$2")" rest.img ;;
	*)	"$3" "$(metadump "$1" "$2")" rest.img ;;
	esac
}

# as_restored NAME VARIANT RESTORE: recover on the metadump decides as on
# the restored image, and the data device is that image but for sector 0
as_restored() {
	restored "$1" "$2" "$3" || return 1
	rest_args=rest.img
	case $1.$2 in
	extlog.v2*) rest_args="-l rest-log.img rest.img" ;;
	extlog.v1*) rest_args="-l $(image extlog-log) rest.img" ;;
	esac
	# what a failure is caused by and the step after it differ: the
	# metadump knows it lacks the block, the restored image does not
	# shellcheck disable=SC2046,SC2086
	"$XLS" recover --json -v $(metadump_args "$1" "$2") | drop_absent_notes |
		sed -e 's/"fail_cause":"[a-z_]*",//' -e 's/"next_step":"[^"]*",//' \
		    -e 's/"fail_block_absent":true,//' >md.json
	# shellcheck disable=SC2086
	"$XLS" recover --json -v $rest_args |
		sed -e 's/"fail_cause":"[a-z_]*",//' -e 's/"next_step":"[^"]*",//' >rest.json
	test_cmp rest.json md.json || return 1
	# shellcheck disable=SC2046
	"$SRCDUMP" -i 512 -c rest.img $(metadump_args "$1" "$2") >/dev/null
}

for v in v1 v1ao; do
	if [ -z "$MDRESTORE" ]; then
		test_skip "$v: as xfs_mdrestore restores it" "needs xfs_mdrestore"
		continue
	fi
	test_expect_success "$v: recover decides as on the xfs_mdrestore'd image, which the data device is" "
		for name in \$NAMES; do
			as_restored \$name $v $MDRESTORE || { echo \$name.$v; return 1; }
		done
	"
done
if [ -n "$MDRESTORE2" ]; then
	test_expect_success "v2: recover decides as on the image xfs_mdrestore 6.6+ restores" '
		for name in $NAMES; do
			for v in v2 v2ao; do
				has_metadump $name $v || continue
				as_restored $name $v "$MDRESTORE2" || { echo "$name.$v"; return 1; }
			done
		done
	'
else
	test_skip 'v2: as xfs_mdrestore 6.6+ restores it' 'set XFSPROGS_NEW to an xfsprogs build tree'
fi

# Without a newer xfs_mdrestore: the obfuscated v1 and v2 dumps of one
# image differ only in the obfuscated names, which no decision mentions.
test_expect_success 'obfuscated v2: recover decides as on the v1 dump of the same image' '
	for name in $NAMES; do
		has_metadump $name v2 || continue
		"$XLS" recover --json -v $(metadump_args $name v1) >v1.json 2>/dev/null
		"$XLS" recover --json -v $(metadump_args $name v2) >v2.json &&
		test_cmp v1.json v2.json || { echo "$name"; return 1; }
	done
'

test_expect_success 'absent blocks: recover and history say so; the verdict warns' '
	test_expect_code 1 "$XLS" recover $(metadump wrapped v1) >out &&
	grep -q "the block is absent from the metadump (read as zeros)" out &&
	grep -q "items decided on blocks the metadump does not carry" out &&
	grep -q "on the filesystem itself the verdict may differ" out &&
	grep -q "^Verdict: recovery fails at LSN 1/78709: the kernel.s mount returns error -117" out &&
	grep -q "^  approximate: the failure turns on a block this metadump does not carry" out &&
	grep -q "^  why: inode cluster buffer 0xa0080 (16384 bytes) fails its read verifier" out &&
	test_expect_code 1 "$XLS" recover --json $(metadump wrapped v1) >out.json &&
	grep -q "\"block_state\":\"absent\"" out.json &&
	grep "\"kind\":\"summary\"" out.json | grep -q "\"absent_reads\":[1-9]" &&
	"$XLS" recover --json $(image wrapped) >img.json &&
	! grep -q "absent" img.json &&
	{ "$XLS" history --blkno=0x1a0 --diff $(metadump wrapped v1) >h.out; test $? -le 1; } &&
	grep -q "^note: 16384 bytes of the block on disk are absent from the metadump" h.out &&
	{ "$XLS" history --blkno=0x1a0 --diff --json $(metadump wrapped v1) >h.json; test $? -le 1; } &&
	grep -q "\"disk_absent_bytes\":16384" h.json
'

# --- what info says -------------------------------------------------------

test_expect_success 'info: version, flags, extents and bytes of the metadump' '
	"$XLS" info $(metadump dir4k v1) >out 2>err &&
	grep -q "^metadump_version *1$" out &&
	grep -q "^metadump_obfuscated *yes$" out &&
	grep -q "^metadump_full_blocks *no$" out &&
	grep -q "^metadump_dirty_log *yes$" out &&
	grep -q "^metadump_log_cleared *no$" out &&
	grep -q "^metadump_extents *[1-9]" out &&
	grep -q "^metadump_bytes *[1-9]" out &&
	! grep -q "^compression" out &&
	test_must_fail test -s err &&
	"$XLS" info --json $(metadump extlog v2ao gz) >out.json &&
	grep -q "\"compression\":\"gzip\",\"spool_bytes\":[1-9][0-9]*,\"metadump_version\":2,\"metadump_obfuscated\":false,\"metadump_full_blocks\":true,\"metadump_dirty_log\":true,\"metadump_external_log\":true,\"metadump_rt_device\":false,\"metadump_log_cleared\":false" out.json
'

test_expect_success 'info --csv: one header its row matches, metadump columns at the end' '
	"$XLS" info --csv $(metadump dir4k v1ao zst) >out.csv &&
	test "$(wc -l <out.csv)" -eq 2 &&
	head -n1 out.csv | grep -q ",findings,compression,log_compression,spool_bytes,metadump_version," &&
	test "$(head -n1 out.csv | tr , "\n" | wc -l)" -eq "$(tail -n1 out.csv | tr , "\n" | wc -l)" &&
	"$XLS" info --csv $(image dir4k) | head -n1 | grep -q ",findings$"
'

test_expect_success 'info: a clean log xfs_metadump cleared is said to be, on stderr too' '
	"$XLS" info $(metadump clean v1) >out 2>err &&
	grep -q "^metadump_log_cleared *yes$" out &&
	grep -q "^state *clean$" out &&
	grep -q "warning: this log is not the filesystem.s: xfs_metadump found it clean and cleared it" err &&
	"$XLS" records $(metadump clean v1) >/dev/null 2>err &&
	grep -q "cleared it" err &&
	"$XLS" info $(metadump clean v1ao) >out 2>err &&
	grep -q "^metadump_log_cleared *no$" out &&
	! test -s err
'

test_expect_success 'v1 of an external-log filesystem: the log with -l, which may be compressed' '
	test_expect_code 3 "$XLS" info "$(metadump extlog v1)" >out 2>err &&
	test "$(wc -l <err)" -eq 1 &&
	grep -q "has an external log, which a v1 metadump does not carry: give the log device with -l" err &&
	"$XLS" info -l "$IMAGES/extlog-log.img.xz" "$(metadump extlog v1 gz)" >out &&
	grep -q "^log_compression *xz$" out &&
	grep -q "^compression *gzip$" out &&
	"$XLS" info -l "$(image extlog-log)" "$(image extlog)" | drop_input_keys >a.out &&
	drop_input_keys <out >b.out && test_cmp a.out b.out
'

test_expect_success 'v2 carries the external log: -l is a usage error, and a metadump is no -l or -f' '
	test_expect_code 2 "$XLS" info -l "$(image extlog-log)" "$(metadump extlog v2ao)" 2>err &&
	grep -q "carries its external log; -l .* makes no sense" err &&
	test_expect_code 2 "$XLS" info -f "$(metadump dir4k v1ao)" 2>err &&
	grep -q "is an xfs_metadump, not a bare log: drop -f" err &&
	test_expect_code 2 "$XLS" info -f "$(metadump dir4k v1ao gz)" 2>err &&
	grep -q "is an xfs_metadump, not a bare log: drop -f" err &&
	test_expect_code 2 "$XLS" info -l "$(metadump dir4k v1ao)" "$(image extlog)" 2>err &&
	grep -q "is an xfs_metadump, not a log device" err
'

test_expect_success 'the workflow of the man page: recover bug-1234.md.gz' '
	cp "$(metadump dirfrag v1 gz)" bug-1234.md.gz &&
	test_expect_code 1 "$XLS" recover --summary bug-1234.md.gz >out &&
	grep -q "^Verdict: recovery fails" out &&
	"$XLS" recover --summary "$(image dirfrag)" >img.out;
	head -n1 out >a && head -n1 img.out >b && test_cmp b a
'

test_done
