#!/bin/sh
# recover on the bundled kernel-written journals: the cancel table, the
# order recovery takes items in, the decisions and what they rest on, and
# the multi-extent directory buffers recovery cannot replay.
. "$(dirname "$0")/lib/test-lib.sh"
. "$XLS_TOP/tests/lib/images.sh"

# Every recover --json line of one journal, checked by rules recovery
# follows (xlog_recover_reorder_trans, xlog_recover_buf_commit_pass1/2).
cat >rules.pl <<'EOF'
use strict;
use warnings;
use JSON::PP;

my $json = JSON::PP->new;
my (%refs, @items, %sum, $summary, $fail);
while (my $line = <STDIN>) {
	my $o = $json->decode($line);
	if ($o->{kind} eq 'cancel') {
		$refs{"$o->{blkno}/$o->{len}"} = $o->{refs};
	} elsif ($o->{kind} eq 'ritem') {
		push @items, $o;
	} elsif ($o->{kind} eq 'summary') {
		$summary = $o;
	}
}
sub bad { print "$_[0]\n"; $fail = 1; }
my %rank = (buffer => 0, item => 1, inode_buffer => 2, cancel => 3);
my ($prev, $bufs) = (undef, 0);
for my $o (@items) {
	# items of one transaction come in recovery order
	if ($prev && $prev->{tid} eq $o->{tid} && $prev->{lsn} eq $o->{lsn}) {
		bad("$o->{tid}: order $o->{order} after $prev->{order}")
			if $o->{order} != $prev->{order} + 1;
		my ($a, $b) = ($rank{$prev->{list}}, $rank{$o->{list}});
		bad("$o->{tid}: $o->{list} after $prev->{list}") if $b < $a;
		if ($a == $b) {
			my $up = $o->{index} > $prev->{index};
			bad("$o->{tid}: $o->{list} item $o->{index} after $prev->{index}")
				if ($b < 2) != $up;
		}
	} else {
		bad("$o->{tid}: first item has order $o->{order}") if $o->{order} != 1;
	}
	$prev = $o;
	next unless $o->{item} eq 'buf';
	$bufs++;
	$sum{$o->{decision}}++;
	# the cancel table: a reference per cancel record still to come
	my $k = "$o->{blkno}/$o->{len}";
	my $r = $refs{$k} // 0;
	bad("$k: cancel_refs $o->{cancel_refs}, table says $r") if $o->{cancel_refs} != $r;
	if ($o->{flag_names} =~ /cancel/) {
		bad("$k: cancel record with no reference") unless $r && $o->{decision} eq 'cancel';
		$refs{$k} = $r - 1;
	} elsif ($r) {
		bad("$k: $o->{decision} while cancelled") unless $o->{decision} eq 'skip_cancelled';
	} else {
		bad("$k: skip_cancelled with no reference") if $o->{decision} eq 'skip_cancelled';
	}
	# a skip for a newer block LSN rests on that LSN
	if ($o->{decision} eq 'skip_lsn') {
		my ($bc, $bb) = split m{/}, $o->{block_lsn} // '0/0';
		my ($tc, $tb) = split m{/}, $o->{lsn};
		bad("$k: skip_lsn with block LSN $o->{block_lsn} < $o->{lsn}")
			if $bc < $tc || ($bc == $tc && $bb < $tb);
	}
	bad("$k: replay with block LSN $o->{block_lsn} >= $o->{lsn}")
		if $o->{decision} eq 'replay' && $o->{reason} eq 'lsn_newer';
}
for my $k (keys %refs) {
	bad("$k: $refs{$k} references left after pass 2") if $refs{$k};
}
bad("no summary") unless $summary;
# the listing goes on past a failure, as the dry run does; the kernel's
# counts stop there
my $sb = $summary && $summary->{recovery_fails} ? $summary->{dry_run_buffers} : $summary->{buffers};
bad("summary: buffers $sb, items say $bufs") if $summary && $sb != $bufs;
exit($fail ? 1 : 0);
EOF

for name in $IMAGE_NAMES dirfrag; do
	test_expect_success "$name: recover follows recovery's order and cancel table" "
		\"\$XLS\" recover --json \$(image_args $name) >rec.json
		test \$? -le 1 && perl rules.pl <rec.json
	"
done

test_expect_success 'clean: nothing to replay' '
	"$XLS" recover --json $(image clean) >out &&
	grep -q "\"kind\":\"summary\",\"recovery_fails\":false,\"trans_replayed\":0," out &&
	! grep -q "\"kind\":\"ritem\"" out
'

test_expect_success 'dir4k: text output has the cancel table, transactions and a summary' '
	"$XLS" recover $(image dir4k) >out &&
	grep -q "^Cancel table after pass 1" out &&
	grep -q "^trans 0x[0-9a-f]*  lsn [0-9]*/[0-9]*  commit" out &&
	grep -q "^ORDER  ITEM LIST   TYPE" out &&
	grep -q "^  recovery_fails  *no$" out &&
	grep -q "skip: cancelled" out && grep -q "cancel record" out
'

test_expect_success 'dir64k: a cancelled directory block is reused for inodes' '
	"$XLS" recover --json --blkno=0x400c0 $(image dir64k) >out &&
	grep "\"blkno\":\"0x400c0\"" out | grep -q "\"decision\":\"skip_cancelled\"" &&
	grep "\"blkno\":\"0x400c0\"" out | grep -q "\"decision\":\"cancel\"" &&
	grep "\"item\":\"inode\"" out | grep -q "\"decision\":\"replay\""
'

test_expect_success 'dir64k: new inode clusters carry inodes once icreate is replayed' '
	"$XLS" recover --json $(image dir64k) >out &&
	grep "\"item\":\"icreate\"" out | grep -q "\"decision\":\"replay\"" &&
	grep "\"list\":\"inode_buffer\"" out | grep -q "\"reason\":\"inode_buf\""
'

test_expect_success 'wrapped: inodes written back after a transaction skip it' '
	"$XLS" recover --json $(image wrapped) >out &&
	grep "\"item\":\"inode\"" out | grep "\"decision\":\"skip_lsn\"" >skips &&
	test -s skips && grep -q "inode LSN [0-9]*/[0-9]* on disk > " skips &&
	grep -q "\"recovery_fails\":false" out
'

test_expect_success 'unlinked: inode buffers replay di_next_unlinked; AGI buckets are left' '
	"$XLS" recover --json $(image unlinked) >out &&
	grep "\"list\":\"inode_buffer\"" out | grep -q "\"unlinked\":\[{\"slot\":" &&
	grep -q "\"kind\":\"intent\",\"intent\":\"unlinked\"" out &&
	"$XLS" recover $(image unlinked) >text &&
	grep -q "di_next_unlinked to replay: inode" text &&
	grep -q "^Work recovery would finish after replay" text
'

test_expect_success 'extlog: every intent has its done item' '
	"$XLS" recover --json $(image_args extlog) >out &&
	grep -q "\"item\":\"efi\"" out && grep -q "\"item\":\"efd\"" out &&
	grep -q "\"pending_work\":0," out
'

test_expect_success 'dirfrag: one 64 KiB directory buffer per 16 extent segments' '
	"$XLS" recover --json $(image dirfrag) >out
	test $? -eq 1 &&
	grep "\"seg\":1,\"nseg\":16," out | grep -q "\"block_start\":true" &&
	grep "\"seg\":2,\"nseg\":16," out | grep -q "\"seg_offset\":4096,\"seg_offset_exact\":true,\"block_start\":false" &&
	grep "\"block_start\":false" out | grep -q "\"kernel_warning\":\"Bad dir data magic!\"" &&
	grep -q "\"recovery_fails\":true,\"fail_lsn\":\"1/4380\",\"fail_stage\":\"writeback\",\"fail_cause\":\"recovery_limit\"" out &&
	grep -q "\"fail_why\":\"buffer 0x1b0 (4096 bytes; last replayed by transaction 0x[0-9a-f]*) fails its write verifier when the buffers queued at LSN 1/4380 are written in daddr order: the directory verifier checks a whole directory block" out &&
	grep "\"kind\":\"writeback\"" out | grep -q "\"buffers\":61," &&
	grep "\"kind\":\"writeback\"" out | grep -q "\"fails\":true,\"fail_blkno\":\"0x1b0\",\"fail_len_bb\":8"
'

test_expect_success 'dirfrag: the text names the segment and the kernel warning' '
	test_expect_code 1 "$XLS" recover --blkno=0x1c0 $(image dirfrag) >out &&
	grep -q "segment 2 of 16 of a 65536-byte dir_data block, offset 4096: starts inside the block" out &&
	grep -q "! kernel warns: Bad dir data magic!" out
'

test_expect_success 'recover --csv has one header and one layout, every item in it' '
	"$XLS" recover --csv $(image dir4k) >out &&
	head -1 out | grep -q "^tid,lsn,seq,order,index,item,list,blkno,len,type,flag_names,ino,ino_blkno,ino_boffset,id,decision," &&
	"$XLS" recover --json $(image dir4k) >out.json &&
	test "$(($(wc -l <out) - 1))" -eq "$(grep -c "\"kind\":\"ritem\"" out.json)" &&
	grep -q "^0x[0-9a-f]*,[0-9/]*,[0-9]*,[0-9]*,[0-9]*,inode,item,,,,,0x[0-9a-f]*,0x[0-9a-f]*,[0-9]*,,replay," out &&
	grep -q ",icreate," out &&
	perl -MText::ParseWords -ne "print scalar(parse_line(q{,}, 0, \$_)), qq{\n}" out |
		sort -u >counts &&
	test $(wc -l <counts) -eq 1
'

test_expect_success 'recover --tid and --type show only what they name' '
	"$XLS" recover --json --type=agi $(image dir4k) >out &&
	test -s out && ! grep "\"kind\":\"ritem\"" out | grep -qv "\"type\":\"agi\"" &&
	tid=$(grep -m1 "\"kind\":\"ritem\"" out | sed "s/.*\"tid\":\"\(0x[0-9a-f]*\)\".*/\1/") &&
	"$XLS" recover --json --tid=$tid $(image dir4k) >out2 &&
	! grep "\"kind\":\"ritem\"" out2 | grep -qv "\"tid\":\"$tid\""
'

test_expect_success 'recover -f: without a data device no block is read' '
	"$XLS" copy $(image dir4k) log.bin >/dev/null &&
	"$XLS" recover --json -f log.bin >out &&
	grep "\"item\":\"buf\"" out | grep -v "\"decision\":\"skip_cancelled\"" |
		grep -v "\"decision\":\"cancel\"" >bufs &&
	test -s bufs && ! grep -v "\"reason\":\"unread\"" bufs
'

test_expect_success 'recover exits 0 when recovery goes through' '
	test_expect_code 0 "$XLS" recover $(image dir4k) >/dev/null
'
test_expect_success 'recover: the verdict comes first, the items after it' '
	test_expect_code 1 "$XLS" recover $(image dirfrag) >out &&
	head -1 out | grep -q "^Verdict: recovery fails at LSN 1/4380: the kernel.s mount returns error -117 (EFSCORRUPTED) writing back" &&
	grep -q "^  why: buffer 0x1b0 " out &&
	grep -q "^Summary$" out &&
	test_expect_code 1 "$XLS" recover --json $(image dirfrag) >out.json &&
	head -1 out.json | grep -q "^{\"kind\":\"summary\",.*\"recovery_fails\":true" &&
	test $(grep -c "\"kind\":\"summary\"" out.json) -eq 1 &&
	"$XLS" recover $(image dir4k) | head -1 | grep -q "^Verdict: recovery succeeds$" &&
	"$XLS" recover $(image clean) | head -1 | grep -q "^Verdict: nothing to recover: the log is clean$"
'

test_expect_success 'recover --summary: the verdict and the figures only' '
	test_expect_code 1 "$XLS" recover --summary $(image dirfrag) >out &&
	head -1 out | grep -q "^Verdict: recovery fails" &&
	! grep -q "^ORDER\|^trans \|^write-back\|^Cancel" out &&
	grep -q "^  recovery_fails  *yes$" out &&
	test_expect_code 1 "$XLS" recover --summary --json $(image dirfrag) >out.json &&
	test $(wc -l <out.json) -eq 1 && grep -q "^{\"kind\":\"summary\"" out.json &&
	test_expect_code 1 "$XLS" recover --summary --csv $(image dirfrag) >out.csv &&
	test $(wc -l <out.csv) -eq 2 && head -1 out.csv | grep -q "^recovery_fails,fail_lsn," &&
	grep -q "^yes,1/4380,writeback,recovery_limit,-117," out.csv
'

test_expect_success 'recover: with no room for a spool, the verdict comes last and says so' '
	TMPDIR=$PWD/nonexistent test_expect_code 1 "$XLS" recover $(image dirfrag) >out 2>err &&
	grep -q "no temporary file for the items" err &&
	head -1 out | grep -vq "^Verdict" &&
	grep -q "^Verdict: recovery fails" out &&
	"$XLS" recover $(image dirfrag) >spooled
	for f in spooled out; do
		awk "/^Verdict: /{v=1; next} v && /^  /{next} {v=0; print}" $f >$f.items
	done &&
	test_cmp spooled.items out.items
'

# An open transaction's records past its memory wait in a temporary file
# (recover/store.c).  With 4 KiB of memory every transaction of these
# journals over a page of records goes through it (strace shows the
# writes): every decision, detail, write and intent must be as with the
# records in memory; and a file that cannot be made is one sentence
# naming its directory, exit 1, not a crash.
test_expect_success 'recover: records waiting in the temporary file decide as in memory' '
	for i in dir64k dirfrag intents logsu256k pptr64k; do
		"$XLS_BUILD/tests/xls-rstore" 0 $(image $i) >$i.mem &&
		"$XLS_BUILD/tests/xls-rstore" 4096 $(image $i) >$i.file &&
		test $(grep -c "^item " $i.mem) -gt 500 && test_cmp $i.mem $i.file || return 1
	done
'
test_expect_success 'recover: a temporary file for the records that cannot be made is an error sentence' '
	TMPDIR=$PWD/nonexistent "$XLS_BUILD/tests/xls-rstore" 0 $(image dir64k) >out 2>err &&
	! test -s err &&
	TMPDIR=$PWD/nonexistent test_expect_code 1 "$XLS_BUILD/tests/xls-rstore" 4096 \
		$(image dir64k) >out 2>err &&
	grep -q "^xls-rstore: cannot keep the items of an open transaction in a temporary file in $PWD/nonexistent in pass [12] of recovery: No such file or directory$" err
'

test_done
