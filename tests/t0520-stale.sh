#!/bin/sh
# --stale (issue 31): the records before the tail that the log still holds.
# Synthesized clean logs whose head came round into a checkpoint of the
# cycle before, at blocks xls-synth knows (stale-whole, stale-partial,
# stale-gap): the stale walk finds it whole or partial exactly as the bytes
# say, and a tid used again after a crash is two transactions, not one.  A
# record whose CRC is broken is a boundary.  files --stale marks its stale
# events and takes nothing from the disk.  The active part, with --stale,
# is byte for byte what each command prints without it; recover, lost and
# replay refuse --stale.
. "$(dirname "$0")/lib/test-lib.sh"
. "$XLS_TOP/tests/lib/synth-lib.sh"
. "$XLS_TOP/tests/lib/images.sh"

# stale_check NAME: NAME.man's "# stale " lines against trans --stale --json
stale_check() {
	sed -n 's/^# stale //p' "$1.man" >"$1.sman" && test -s "$1.sman" &&
	"$XLS" trans --stale --json "$1.img" >"$1.st" &&
	"$SYNTH" -C "$1.sman" "$1.st" trans,stale_gap
}

for sc in whole partial gap; do
	test_expect_success "synthesized: the head at a known block of a stale checkpoint ($sc)" "
		synth $sc stale-$sc && all $sc 0 && stale_check $sc &&
		! grep -q '\"stale\":false' $sc.st
	"
done

# flip NAME BLK: break the CRC of the record at log block BLK of NAME.img
flip() {
	off=$("$XLS" info --json "$1.img" | sed 's/.*"log_offset":\([0-9]*\).*/\1/') &&
	perl -e 'open(my $f, "+<", $ARGV[0]) or die; seek($f, $ARGV[1], 0); read($f, my $b, 1);
		 seek($f, $ARGV[1], 0); print $f chr(ord($b) ^ 0x55); close($f) or die' \
		"$1.img" $((off + $2 * 512 + 512 + 100))
}

test_expect_success 'a broken CRC is a boundary: the rest of the checkpoint is partial' '
	synth crc stale-whole &&
	r2=$("$XLS" records --all --json crc.img | sed -n "s/.*\"blk\":\([0-9]*\),\"cycle\":7.*/\1/p" |
	     sed -n "/^1091$/p") && test "$r2" = 1091 &&
	flip crc 1091 &&
	"$XLS" trans --stale --json crc.img >crc.st &&
	tid=$(sed -n "s/^# stale trans \"tid\":\"\(0x[0-9a-f]*\)\" \"lsn\":\"7\/1027\".*/\1/p" crc.man) &&
	expect crc.st <<-EOT
	stale_gap "blk":1091 "blks":64 "lsn":"7/1091"
	trans "tid":"$tid" "lsn":"7/1027" "state":"incomplete" "records":1 "stale":true
	trans "tid":"$tid" "lsn":"7/1155" "state":"committed" "items":2 "records":1 "partial":true "skipped_ops":1 "stale":true
	EOT
	grep -q "\"blk\":1091,.*\"why\":\"record CRC mismatch\"" crc.st
'

# active_of FILE: the part of a --stale --json output from the tail on
active_of() {
	grep -v '"stale":true' "$1" | grep -v '"kind":"stale_gap"' | sed 's/,"stale":false//'
}

test_expect_success 'with --stale the active part is as without it (trans, bufs, stats, checkpoints, files)' '
	for i in dir4k later clean; do
		for c in trans bufs stats checkpoints files; do
			"$XLS" $c --json $(image $i) >$i.$c.a || return 1
			"$XLS" $c --stale --json $(image $i) >$i.$c.b || return 1
			active_of $i.$c.b | cmp - $i.$c.a || { echo "$c $i"; return 1; }
		done
	done
'

test_expect_success 'the stale part of a wrapped dirty log: the cycle before, in LSN order' '
	"$XLS" trans --stale --json $(image later) >later.st &&
	perl -MJSON::PP -ne '"'"'
		my $r = decode_json($_); next unless $r->{kind} eq "trans" && $r->{stale};
		my ($c, $b) = split m{/}, $r->{lsn};
		die "cycle $c at $r->{lsn}\n" unless $c == 2 || $c == 3;
		my $l = $c * 2**32 + $b;
		die "out of order at $r->{lsn}\n" if defined $p && $l < $p;
		$p = $l; $n++;
		END { die "none\n" unless $n; print "$n stale transactions\n" }
	'"'"' later.st
'

test_expect_success 'the stale walk reads the same in one thread and in two' '
	for i in later clean; do
		"$XLS" trans --stale --json --threads=1 $(image $i) >$i.t1 &&
		"$XLS" trans --stale --json --threads=2 $(image $i) >$i.t2 &&
		cmp $i.t1 $i.t2 || return 1
	done &&
	synth th stale-gap && "$XLS" bufs --stale --json --threads=1 th.img >th.t1 &&
	"$XLS" bufs --stale --json --threads=2 th.img >th.t2 && cmp th.t1 th.t2 &&
	"$XLS" files --stale --json --threads=1 $(image later) >later.f1 &&
	"$XLS" files --stale --json --threads=2 $(image later) >later.f2 && cmp later.f1 later.f2
'

# files --stale: the view before the tail takes no baseline from the disk
# (it holds a later state); its events are marked, none replayed.
test_expect_success 'files --stale: stale events marked, none replayed, the boundaries, text and CSV' '
	"$XLS" files --stale --json $(image later) >later.fs &&
	grep -q "\"kind\":\"event\".*\"stale\":true" later.fs &&
	! grep "\"stale\":true" later.fs | grep -q "\"replayed\":true" &&
	grep -q "\"kind\":\"file\".*\"stale\":true" later.fs &&
	grep -q "\"kind\":\"file\".*\"stale\":false" later.fs &&
	synth fg stale-gap && "$XLS" files --stale --json fg.img >fg.fs &&
	grep -q "\"kind\":\"stale_gap\",.*\"blks\":61," fg.fs &&
	"$XLS" files --stale $(image later) >later.ft &&
	grep -q "^stale: the records before the tail" later.ft &&
	grep -q "^Where the records before the tail leave each inode" later.ft &&
	grep -q "^active: from the tail" later.ft &&
	grep -q "^Where recovery leaves each inode" later.ft &&
	"$XLS" files --stale --csv $(image later) >later.fc &&
	head -1 later.fc | grep -q "^seq,tid,lsn,.*,len_fsb,stale$" &&
	grep -q ",yes$" later.fc && grep -q ",no$" later.fc
'

test_expect_success 'history --stale: the appearances the stale checkpoint holds, and no more' '
	synth hw stale-whole && synth hp stale-partial &&
	tid=$(sed -n "s/^# stale trans \"tid\":\"\(0x[0-9a-f]*\)\" \"lsn\":\"7\/[0-9]*\" \"state\":\"committed\" \"items\":3.*/\1/p" hw.man) &&
	test -n "$tid" &&
	"$XLS" history --stale --json --blkno 0x200 hw.img >hw.h &&
	expect hw.h <<-EOT &&
	appearance "stale":true "tid":"$tid" "index":2 "len":4096 "type":"dir_data" "committed":true "decision":"stale"
	count appearance 1
	EOT
	"$XLS" history --stale --json --blkno 0x200 hp.img >hp.h &&
	expect hp.h <<-EOT &&
	appearance "stale":true "tid":"$tid" "index":1 "committed":true
	count appearance 1
	EOT
	"$XLS" history --stale --json --blkno 0xc00 hw.img >hw.c &&
	"$XLS" history --stale --json --blkno 0xc00 hp.img >hp.c &&
	expect hw.c <<-EOT &&
	count appearance 1
	EOT
	expect hp.c <<-EOT &&
	count appearance 0
	EOT
	"$XLS" history --json --blkno 0x200 $(image later) >later.h1 &&
	"$XLS" history --stale --json --blkno 0x200 $(image later) >later.h2 &&
	active_of later.h2 | cmp - later.h1
'

test_expect_success 'recover, lost and replay refuse --stale, saying why' '
	for c in recover lost; do
		test_expect_code 2 "$XLS" $c --stale $(image dir4k) 2>err &&
		grep -q "never uses the records before the tail" err || return 1
	done &&
	test_expect_code 2 "$XLS" replay --stale -o out.img $(image dir4k) 2>err &&
	grep -q "never uses the records before the tail" err && test ! -e out.img
'

test_expect_success 'text and CSV: the stale mark, the boundaries, one CSV layout' '
	synth gap2 stale-gap && "$XLS" trans --stale gap2.img >gap.txt &&
	grep -q "^stale: log blocks .* skipped (61): no record header" gap.txt &&
	grep -q "stale, partial: its start is lost" gap.txt &&
	grep -q "^active: from the tail" gap.txt &&
	"$XLS" bufs --stale --csv $(image later) >later.csv &&
	head -1 later.csv | grep -q "^tid,lsn,index,stale,blkno," &&
	grep -c ",yes,0x" later.csv >/dev/null &&
	"$XLS" checkpoints --stale --csv $(image later) | head -1 | grep -q "^stale,seq,"
'
test_done
