#!/bin/sh
# What a new user meets in the first hour: CSV that loads as it says,
# filters, options anywhere, help, outputs never left half-made, messages
# that say what the input is, units, tables without trailing spaces.
. "$(dirname "$0")/lib/test-lib.sh"
. "$XLS_TOP/tests/lib/images.sh"

# csv_check FILE: a header, and every row with as many fields as it has
# (RFC 4180: quoted fields may hold commas, doubled quotes and newlines)
cat >csvcheck.pl <<'EOF'
use strict;
use warnings;
local $/;
my $t = <STDIN>;
die "empty\n" if $t eq '';
my ($n, @rows) = (0);
my @f; my $cur = ''; my $q = 0;
for (my $i = 0; $i < length($t); $i++) {
	my $c = substr($t, $i, 1);
	if ($q) {
		if ($c eq '"') {
			if (substr($t, $i + 1, 1) eq '"') { $cur .= '"'; $i++; } else { $q = 0; }
		} else { $cur .= $c; }
	} elsif ($c eq '"') { $q = 1;
	} elsif ($c eq ',') { push @f, $cur; $cur = '';
	} elsif ($c eq "\n") { push @f, $cur; push @rows, [@f]; @f = (); $cur = '';
	} else { $cur .= $c; }
}
die "unterminated quote\n" if $q;
die "last line without a newline\n" if @f || $cur ne '';
my $w = scalar @{$rows[0]};
for my $r (1 .. $#rows) {
	my $got = scalar @{$rows[$r]};
	die "row $r has $got fields, the header $w\n" if $got != $w;
}
print scalar(@rows) - 1, "\n";
EOF
csv_check() {
	perl csvcheck.pl <"$1"
}

for name in dir4k unlinked extlog; do
	# shellcheck disable=SC2046
	set -- $(image_args $name)
	for cmd in info records "records -a" trans bufs "bufs -v" stats recover \
		   "recover --summary" "history --blkno=0x2"; do
		test_expect_success "$name: $cmd --csv: one header, every row under it" "
			\"\$XLS\" $cmd --csv $* >out.csv 2>err; rc=\$?
			[ \$rc -le 1 ] && ! grep -q internal err && csv_check out.csv >/dev/null
		"
	done
done

test_expect_success 'CSV on a clean log: the header, and no row' '
	for cmd in records trans bufs stats recover "history --blkno=0x2"; do
		# shellcheck disable=SC2086
		"$XLS" $cmd --csv $(image clean) >out.csv &&
		test "$(csv_check out.csv)" = 0 || { echo "$cmd"; return 1; }
	done
'

test_expect_success 'trans --csv: one row per field, items of every type under one header' '
	"$XLS" trans --csv $(image dir4k) >out.csv &&
	head -1 out.csv | grep -qx "kind,tid,lsn,index,item,key,value" &&
	grep -q "^item,0x[0-9a-f]*,1/[0-9]*,[0-9]*,inode,di_size," out.csv &&
	grep -q "^item,0x[0-9a-f]*,1/[0-9]*,[0-9]*,buf,blkno,0x" out.csv &&
	grep -q "^trans,0x[0-9a-f]*,1/[0-9]*,,,state,committed$" out.csv
'

# ---- filters ---------------------------------------------------------------
test_expect_success 'an unknown --type is a usage error listing the known types' '
	test_expect_code 2 "$XLS" bufs --type=dirdata $(image dir4k) >out 2>err &&
	! test -s out &&
	grep -q "unknown buffer type .dirdata.; known: unknown udquot .* dir_data .* rtsummary" err &&
	test_expect_code 2 "$XLS" recover --type=nope $(image dir4k) 2>err
'
test_expect_success '--type takes any case, kernel and xfs_logprint spellings, lists' '
	"$XLS" bufs --csv --type=agi,sb $(image dir4k) >a &&
	"$XLS" bufs --csv --type="XFS_BLFT_AGI_BUF,Super Block" $(image dir4k) >b &&
	test_cmp a b &&
	cut -d, -f6 a | sed 1d | sort -u >types && printf "agi\nsb\n" >want &&
	test_cmp want types &&
	"$XLS" bufs --csv --type=DIR $(image dir4k) | sed 1d | cut -d, -f6 | sort -u >types &&
	printf "dir_block\ndir_data\ndir_leaf1\n" >want && test_cmp want types
'
test_expect_success '--size keeps buffers of that many bytes' '
	"$XLS" bufs --csv --size=64k $(image dir64k) >out &&
	test $(sed 1d out | wc -l) -gt 0 &&
	test "$(sed 1d out | cut -d, -f5 | sort -u)" = 65536 &&
	"$XLS" recover --csv --size=512 $(image dir4k) | sed 1d | cut -d, -f9 | sort -u >sizes &&
	test "$(cat sizes)" = 512 &&
	test_expect_code 2 "$XLS" bufs --size=12q $(image dir4k) 2>err
'
test_expect_success '--tid is hexadecimal, with or without 0x' '
	tid=$("$XLS" bufs --csv $(image dir4k) | sed -n 2p | cut -d, -f1) &&
	"$XLS" bufs --csv --tid=$tid $(image dir4k) >a &&
	"$XLS" bufs --csv --tid=${tid#0x} $(image dir4k) >b &&
	test_cmp a b && test $(sed 1d a | wc -l) -gt 0 &&
	test "$(sed 1d a | cut -d, -f1 | sort -u)" = "$tid"
'
test_expect_success '--top beyond what is drawn or tracked is refused' '
	test_expect_code 2 "$XLS" bufs --svg=x.svg --top=65 $(image dir4k) 2>err &&
	grep -q "1 to 64" err && ! test -e x.svg &&
	test_expect_code 2 "$XLS" stats --top=49153 $(image dir4k) 2>err &&
	"$XLS" stats --top=49152 $(image dir4k) >/dev/null
'

# ---- the command line ------------------------------------------------------
test_expect_success 'options before the command are the command s' '
	"$XLS" --json info $(image dir4k) >a &&
	"$XLS" info --json $(image dir4k) >b && test_cmp a b &&
	"$XLS" -l "$(image extlog-log)" --csv info "$(image extlog)" >a &&
	"$XLS" info --csv -l "$(image extlog-log)" "$(image extlog)" >b && test_cmp a b &&
	"$XLS" --type agi bufs $(image dir4k) >a &&
	"$XLS" bufs --type=agi $(image dir4k) >b && test_cmp a b
'
test_expect_success '-h, help and help COMMAND' '
	"$XLS" -h >a && "$XLS" help >b && "$XLS" --help >c &&
	test_cmp a b && test_cmp a c && grep -q "^  recover DEV" a &&
	"$XLS" help bufs >a && "$XLS" bufs -h >b && "$XLS" bufs --help >c &&
	test_cmp a b && test_cmp a c && grep -q -- "--size=BYTES" a &&
	test_expect_code 2 "$XLS" help frob 2>err && grep -q "unknown command .frob." err
'
test_expect_success '-v only where it changes the output' '
	for cmd in info records trans stats copy; do
		test_expect_code 2 "$XLS" $cmd -v $(image dir4k) x 2>err || return 1
	done &&
	"$XLS" bufs $(image dir4k) >a && "$XLS" bufs -v $(image dir4k) >b && ! cmp -s a b &&
	"$XLS" recover $(image dir4k) >a && "$XLS" recover -v $(image dir4k) >b && ! cmp -s a b &&
	"$XLS" history --blkno=0x2 $(image dir4k) >a &&
	"$XLS" history -v --blkno=0x2 $(image dir4k) >b && ! cmp -s a b
'

# ---- outputs never half-made -----------------------------------------------
test_expect_success 'an existing output file: exit 2, one line, before any output' '
	: >exists &&
	test_expect_code 2 "$XLS" copy $(image dir4k) exists >out 2>err &&
	! test -s out && ! test -s exists && test $(wc -l <err) -eq 1 &&
	test_expect_code 2 "$XLS" history --blkno=0x2 --svg=exists $(image dir4k) >out 2>err &&
	! test -s out && test $(wc -l <err) -eq 1 &&
	test_expect_code 2 "$XLS" bufs --svg=exists $(image dir4k) >out 2>err &&
	! test -s out && test $(wc -l <err) -eq 1 &&
	test_expect_code 4 "$XLS" copy $(image dir4k) nodir/x.log 2>err &&
	grep -q "cannot create .nodir/x.log." err
'
test_expect_success 'copy: the new file appears complete, with no temporary left' '
	"$XLS" copy $(image dir4k) new.log >/dev/null &&
	test $(stat -c %s new.log) -eq 67108864 &&
	test "$(ls -A | grep -c "^\.new\.log\.")" = 0
'
if [ "$(id -u)" -eq 0 ] && mkdir small && mount -t tmpfs -o size=1m tmpfs small 2>/dev/null; then
	test_expect_success 'copy to a full filesystem: exit 4, the errno, nothing left' '
		test_expect_code 4 "$XLS" copy $(image dir4k) small/x.log 2>err;
		rc=$?; ls -A small >left; umount small; [ $rc -eq 0 ] &&
		test $(wc -l <err) -eq 1 && grep -q "No space left on device" err &&
		! test -s left
	'
else
	test_skip 'copy to a full filesystem' 'needs root to mount a small tmpfs'
fi

# ---- messages that say what the input is ------------------------------------
test_expect_success 'an empty file is empty' '
	: >empty.img && test_expect_code 3 "$XLS" info empty.img 2>err &&
	test "$(cat err)" = "xfs_logscope: '\''empty.img'\'' is empty"
'
test_expect_success '-f on a whole filesystem image says to drop -f' '
	test_expect_code 2 "$XLS" info -f $(image dir4k) 2>err &&
	grep -q "is a whole XFS filesystem, not a bare log: drop -f" err
'
test_expect_success '-f with -l is a usage error' '
	test_expect_code 2 "$XLS" info -f -l $(image extlog-log) $(image extlog) 2>err &&
	grep -q "exclude each other" err
'
test_expect_success 'a write failure names the errno' '
	test_expect_code 4 "$XLS" trans $(image dir4k) >/dev/full 2>err &&
	grep -q "cannot write to standard output: No space left on device" err
'

# ---- units and tables -------------------------------------------------------
test_expect_success 'info: the log in basic blocks, filesystem blocks and bytes' '
	"$XLS" info --json $(image dir4k) >out &&
	grep -q "\"log_bbs\":131072,\"log_fsblocks\":16384,\"log_bytes\":67108864," out &&
	if command -v xfs_db >/dev/null; then
		test "$(xfs_db -r -c "sb 0" -c "p logblocks" $(image dir4k))" = "logblocks = 16384"
	fi
'
test_expect_success 'a length says its unit: len_bb in basic blocks, len in bytes' '
	"$XLS" trans --json $(image dir4k) | grep "\"item\":\"buf\"" | head -50 >items &&
	perl -ne "/\"len_bb\":(\d+),\"len\":(\d+)/ or die \"no len_bb: \$_\"; \$1 * 512 == \$2 or die" items &&
	"$XLS" bufs --json $(image dir4k) | head -50 |
		perl -ne "/\"len\":(\d+)/ && \$1 % 512 == 0 && \$1 >= 512 or die"
'
test_expect_success 'no text line ends in a space' '
	for cmd in info records trans bufs "bufs -v" stats recover "recover -v" \
		   "history --blkno=0x2 -v"; do
		# shellcheck disable=SC2086
		"$XLS" $cmd $(image dir4k) >out 2>&1
		if grep -n " $" out | head -3 | grep .; then echo "$cmd"; return 1; fi
	done
'


# ---- issue 45's first-hour edges ---------------------------------------------
test_expect_success 'an output that exists is a usage error (2), one that cannot be made internal (4)' '
	: >taken && "$XLS" copy $(image dir4k) made.log >/dev/null &&
	test_expect_code 2 "$XLS" replay -o taken $(image dir4k) 2>err &&
	grep -q "^xfs_logscope: .taken. exists: xfs_logscope never overwrites a file$" err &&
	test_expect_code 2 "$XLS" replay -l $(image extlog-log) -o fresh.img --log-out taken $(image extlog) 2>err &&
	test ! -e fresh.img &&
	test_expect_code 2 "$XLS" copy $(image dir4k) taken 2>err &&
	test_expect_code 2 "$XLS" stats --svg=taken $(image dir4k) >/dev/null 2>err &&
	test_expect_code 4 "$XLS" replay -o nodir/x.img $(image dir4k) 2>err &&
	grep -q "cannot create .nodir/x.img." err &&
	test ! -s taken
'
test_expect_success 'lost --summary: the summary alone, as recover --summary gives the verdict alone' '
	"$XLS" lost $(image dir4k) >whole &&
	"$XLS" lost --summary $(image dir4k) >summary &&
	head -1 whole | grep -q "^Zeroing the log loses " &&
	grep -q "^Directory entries recovery adds or removes" whole &&
	! grep -q "^Directory entries recovery adds or removes" summary &&
	grep -q "^Verdict: recovery succeeds$" summary &&
	lines=$(wc -l <summary) && head -n "$lines" whole | cmp - summary &&
	"$XLS" lost --summary --json $(image dir4k) >summary.json &&
	test "$(wc -l <summary.json)" -eq 1 && grep -q "^{\"kind\":\"lost_summary\"," summary.json
'
test_expect_success 'files -h, lost -h: --blocks-max says which blocks, whatever comes first' '
	for c in files lost; do
		"$XLS" $c -h >help.$c &&
		! grep -q "those blocks" help.$c &&
		sed -n "/--blocks-max/,/--/p" help.$c | tr -s " \n" " " |
			grep -q "blocks recovery writes" || { echo "$c"; return 1; }
	done
'
test_expect_success 'the man page gives replay a section of its own, in subsections' '
	man=$XLS_TOP/man/xfs_logscope.8 &&
	sed -n "/^\.SH REPLAY/,/^\.SH /p" "$man" >replay.man &&
	for ss in "What is written" "In which order" "When work is pending" "Quota" \
		  "Other byte order" "When recovery fails" "In place" "External log"; do
		grep -q "^\.SS $ss\$" replay.man || { echo "no subsection $ss"; return 1; }
	done &&
	awk "/^\.SS /{if (n > 40) bad = 1; n = 0; next} {n++} END {exit bad}" replay.man
'
if [ "$(id -u)" -eq 0 ] && [ -e /dev/loop-control ] && command -v losetup >/dev/null; then
	test_expect_success 'replay --in-place on a mounted device: the refusal does not offer --force' '
		xz -dc "$IMAGES/clean.img.xz" >mounted.img && mkdir -p mnt &&
		mount -o loop,ro,nouuid mounted.img mnt &&
		{ test_expect_code 3 "$XLS" replay --in-place mounted.img 2>err; r=$?;
		  umount mnt; test $r -eq 0; } &&
		grep -q "is mounted: its log is live (unmount it first" err &&
		! grep -q -- "--force" err
	'
else
	test_skip 'replay --in-place on a mounted device' 'needs root and loop devices'
fi

test_done
