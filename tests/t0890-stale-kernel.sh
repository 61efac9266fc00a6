#!/bin/sh
# --stale against the kernel (issue 31), as root with loop devices
# (skipped otherwise).  The kernel recovers a copy of a dirty journal
# (mount, unmount): the records recovery replayed are now before the tail
# of a clean log.  trans --stale on that copy must find at least 99 % of
# the committed transactions trans found on the dirty original, each
# marked stale and the same to the byte (tests/lib/stale-cmp.pl, which
# shares no code with xfs_logscope).  Bundled journals and journals this
# kernel writes now, one of them wrapped twice.  Then a record inside a
# checkpoint of several records gets a broken CRC: the rest of the
# checkpoint must come out partial, its items exactly the last ones of
# the whole checkpoint (tests/lib/stale-suffix.pl).  files --stale on the
# recovered copy against files on the dirty original: no event the
# original's do not have or explain, and most of them found
# (tests/lib/stale-files.pl).
. "$(dirname "$0")/lib/test-lib.sh"
. "$XLS_TOP/tests/lib/images.sh"
. "$XLS_TOP/tests/lib/kmount.sh"
. "$XLS_TOP/tests/lib/workloads.sh"

kmount_probe xfs_io perl

# recovered NAME: NAME.rec.img, NAME.img as the kernel's recovery leaves it
recovered() {
	cp --sparse=always "$1.img" "$1.rec.img" &&
	mount -o loop "$1.rec.img" "$MNT" && umount "$MNT" &&
	"$XLS" info "$1.rec.img" | grep -q "^state *clean"
}

# same NAME: trans on NAME.img against trans --stale on NAME.rec.img
same() {
	"$XLS" trans --json "$1.img" >"$1.a" &&
	"$XLS" trans --stale --json "$1.rec.img" >"$1.b" &&
	perl "$XLS_TOP/tests/lib/stale-cmp.pl" "$1.a" "$1.b" >"$1.cmp" &&
	cat "$1.cmp" &&
	awk '/^committed/ { exit !($2 > 0 && $4 * 100 >= $2 * 99) }' "$1.cmp"
}

# files_same NAME: files on NAME.img against files --stale on NAME.rec.img
files_same() {
	"$XLS" files --json "$1.img" >"$1.fa" &&
	"$XLS" files --stale --json "$1.rec.img" >"$1.fb" &&
	tail=$("$XLS" info --json "$1.img" | sed 's/.*"tail_lsn":"\([0-9]*\/[0-9]*\)".*/\1/') &&
	perl "$XLS_TOP/tests/lib/stale-files.pl" "$1.fa" "$1.fb" "$tail"
}

if $can_mount; then
	for i in dir4k dir64k later links; do
		test_expect_success "kernel: $i recovered, its transactions found stale" "
			cp --sparse=always \"\$(image $i)\" $i.img && recovered $i && same $i
		"
		test_expect_success "kernel: $i recovered, files --stale tells no event the log does not" "
			files_same $i
		"
	done
	test_expect_success 'kernel: a fresh journal (churn) recovered, found stale' '
		fresh_churn churn && recovered churn && same churn && files_same churn
	'
	test_expect_success 'kernel: a journal wrapped twice, recovered, found stale' '
		fresh_wrap wrap 150000 &&
		"$XLS" info --json wrap.img | grep -q "\"last_lsn\":\"[3-9]/" &&
		recovered wrap && same wrap && files_same wrap
	'
	test_expect_success 'kernel: a broken CRC inside a checkpoint leaves the rest partial' '
		"$XLS" trans --stale --json churn.rec.img >whole.json &&
		set -- $(perl -MJSON::PP -ne '"'"'
			my $r = decode_json($_);
			if ($r->{kind} eq "trans" && $r->{stale} && $r->{state} eq "committed" &&
			    $r->{records} >= 4) { print "$r->{tid} $r->{lsn}\n"; exit }
		'"'"' whole.json) && test -n "$1" &&
		tid=$1 start=${2#*/} &&
		blk=$("$XLS" records --all --json churn.rec.img | START=$start perl -MJSON::PP -ne '"'"'
			my $r = decode_json($_);
			if ($r->{blk} > $ENV{START}) { $n++; if ($n == 2) { print $r->{blk}; exit } }
		'"'"') && test -n "$blk" &&
		cp --sparse=always churn.rec.img cut.img &&
		off=$("$XLS" info --json cut.img | sed "s/.*\"log_offset\":\([0-9]*\).*/\1/") &&
		perl -e '"'"'open(my $f, "+<", $ARGV[0]) or die; seek($f, $ARGV[1], 0);
			read($f, my $b, 1); seek($f, $ARGV[1], 0); print $f chr(ord($b) ^ 0x55);
			close($f) or die'"'"' cut.img $((off + blk * 512 + 512 + 100)) &&
		"$XLS" trans --stale --json cut.img >cut.json &&
		grep -q "\"blk\":$blk,.*\"why\":\"record CRC mismatch\"" cut.json &&
		perl "$XLS_TOP/tests/lib/stale-suffix.pl" whole.json cut.json "$tid"
	'
else
	test_skip 'kernel: --stale on journals the kernel recovered' "$why"
fi
test_done
