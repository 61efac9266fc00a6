#!/bin/sh
# The audit of log efficiency: checkpoints and the relog split agree
# exactly with an independent reading of the raw log (tests/lib/relog-ref.pl,
# which compares bytes where the tool compares hashes); checkpoints add up
# to the log; stats, checkpoints and compare agree with each other; the
# options, formats and pictures behave.
. "$(dirname "$0")/lib/test-lib.sh"
. "$XLS_TOP/tests/lib/images.sh"
REF="$XLS_TOP/tests/lib/relog-ref.pl"

# checkpoints --json as relog-ref.pl's lines, then its total line
ckpt_lines() {
	perl -ne '
		BEGIN { $n = 0; @t = (0) x 6 }
		next unless /"kind":"checkpoint"/;
		my %f; $f{$1} = $2 while /"(\w+)":"?([^",]*)"?/g;
		my @v = @f{qw(first_bytes changed_bytes unchanged_bytes inode_first_bytes
			      inode_changed_bytes inode_unchanged_bytes)};
		printf "ckpt %d 0x%08x %s %s %d %d %d %d %d %d %d\n", $f{seq}, hex($f{tid}),
			$f{lsn}, $f{commit_lsn}, $f{records}, @v;
		$n++; $t[$_] += $v[$_] for 0 .. 5;
		END { print "total $n @t\n" }'
}

ALL="$IMAGE_NAMES dirfrag"
for name in $ALL; do
	test_expect_success "$name: checkpoints and relog split equal an independent byte-level count" "
		args=\$(image_args $name) &&
		case $name in extlog) ref_args=\"-l \$(image extlog-log) \$(image extlog)\" ;;
		*) ref_args=\$(image $name) ;; esac &&
		perl '$REF' \$ref_args >ref &&
		\"\$XLS\" checkpoints --json \$args >ck.json &&
		ckpt_lines <ck.json >got &&
		grep -v '^head ' ref >want &&
		test_cmp want got &&
		# the same head and tail
		\"\$XLS\" info --json \$args >info &&
		h=\$(sed 's/.*\"head_blk\":\([0-9]*\).*/\1/' info) &&
		t=\$(sed 's/.*\"tail_blk\":\([0-9]*\).*/\1/' info) &&
		grep -qx \"head \$h tail \$t\" ref
	"
done

test_expect_success 'the bundled journals relog: some chunks of each kind' '
	perl "$REF" $(image dir64k) | tail -1 >t &&
	read -r _ n f c u if ic iu <t &&
	test "$n" -gt 100 && test "$f" -gt 0 && test "$c" -gt 0 && test "$u" -gt "$c" &&
	test "$if" -gt 0 && test "$ic" -gt 0
'

for name in $ALL; do
	test_expect_success "$name: checkpoints add up to the log, and to stats" "
		args=\$(image_args $name) &&
		\"\$XLS\" checkpoints --json \$args >ck.json &&
		\"\$XLS\" stats --json \$args >st.json &&
		perl -ne '
			if (/\"kind\":\"checkpoint\"/) {
				/\"log_bytes\":(\d+)/ and \$lb += \$1;
				for my \$k (qw(first changed unchanged inode_first inode_changed inode_unchanged)) {
					/\"\${k}_bytes\":(\d+)/ and \$s{\$k} += \$1;
				}
				\$n++;
				my \$sum = 0; \$sum += \$1 while /\"\w+_bytes\":(\d+)/g;
			}
			/\"kind\":\"total\".*\"log_bytes\":(\d+)/ and \$total = \$1;
			/\"kind\":\"total\".*\"trans_committed\":(\d+)/ and \$committed = \$1;
			if (/\"kind\":\"relog\"/) {
				for my \$k (keys %s) { /\"\${k}_bytes\":(\d+)/ and \$r{\$k} = \$1 }
			}
			END {
				die \"checkpoints \$n, committed \$committed\\n\" unless \$n == (\$committed // 0);
				die \"checkpoints \$lb bytes, log \$total\\n\" unless \$lb == (\$total // 0);
				for my \$k (keys %s) { die \"\$k: \$s{\$k} vs \$r{\$k}\\n\" unless \$s{\$k} == \$r{\$k} }
			}' ck.json st.json
	"
done

test_expect_success 'a checkpoint: its categories add up to its log bytes, its items to items_by_type' '
	"$XLS" checkpoints --json $(image dir4k) | grep "\"kind\":\"checkpoint\"" >ck &&
	perl -ne "
		my (\$lb) = /\"log_bytes\":(\d+)/; my \$sum = 0;
		\$sum += \$1 while /\"[a-z_]+_(?:headers|formats|data|untracked|space)_bytes\":(\d+)/g;
		\$sum += \$1 if /\"padding_bytes\":(\d+)/;
		die \"\$_ sum \$sum\\n\" unless \$sum == \$lb;
		my (\$items) = /\"items\":(\d+)/; my \$n = 0;
		\$n += \$1 while /\"count\":(\d+)/g;
		die \"\$_ items \$n\\n\" unless \$n == \$items;
	" ck
'

test_expect_success 'checkpoints: text, -v, --tid, csv with a header even when empty' '
	img=$(image dir4k) &&
	"$XLS" checkpoints "$img" >out &&
	head -1 out | grep -q "^ *SEQ  *TID  *START  *COMMIT" &&
	test $(grep -c "^ *[0-9][0-9]*  *0x" out) -eq 340 &&
	grep -q "^340 checkpoints; relogged bytes" out &&
	"$XLS" checkpoints -v "$img" | grep -q "^        items  .*buf:" &&
	tid=$(sed -n "2s/^ *[0-9]*  *\(0x[0-9a-f]*\) .*/\1/p" out) &&
	"$XLS" checkpoints --json --tid=$tid "$img" >one &&
	test $(grep -c "\"kind\":\"checkpoint\"" one) -eq 1 &&
	"$XLS" checkpoints --csv "$img" >c.csv &&
	head -1 c.csv | grep -q "^seq,tid,lsn,commit_lsn," &&
	test $(wc -l <c.csv) -eq 341 &&
	"$XLS" checkpoints --csv $(image clean) >e.csv &&
	test $(wc -l <e.csv) -eq 1 && head -1 e.csv | grep -q "^seq,tid,"
'

test_expect_success 'stats: the relog split beside dirty %, the cost model, the distributions' '
	"$XLS" stats $(image dir64k) >out &&
	grep -q "MEAN%  MED%  P90%  UNCH%" out &&
	grep -q "^  unchanged_pct  *81.68$" out &&
	grep -q "^Formatting cost model by buffer type and size" out &&
	grep -q "^log_bytes  *103 " out &&
	"$XLS" stats --json $(image dir64k) >st &&
	grep -q "\"kind\":\"relog\",\"first_bytes\":853888,\"changed_bytes\":4065920,\"unchanged_bytes\":21940096," st &&
	grep -q "\"kind\":\"buftype\",\"type\":\"dir_data\",\"len\":65536,.*\"unchanged_pct\":95.83" st &&
	grep -q "\"kind\":\"cost_model\",\"items\":2008,\"bit_steps\":419686,\"run_steps\":4844," st &&
	grep -q "\"kind\":\"checkpoint_dist\",\"measure\":\"log_bytes\",\"checkpoints\":103," st &&
	grep -q "\"kind\":\"hot\".*\"unchanged_pct\"" st &&
	"$XLS" stats --csv $(image dir64k) | head -1 | grep -q ",committed_items,first_bytes,changed_bytes,unchanged_bytes,unchanged_pct$"
'

test_expect_success 'compare: deltas and ratios, a journal against itself, csv, no -l' '
	a=$(image dir4k) && b=$(image dir64k) &&
	"$XLS" compare --json "$a" "$b" >cmp &&
	grep -q "\"kind\":\"compare_total\",\"a_input\":\"$a\",\"b_input\":\"$b\",\"a_checkpoints\":340,\"b_checkpoints\":103,\"checkpoints_delta\":-237," cmp &&
	grep -q "\"kind\":\"compare_buftype\",\"type\":\"btree\",\"len\":4096,\"a_count\":894,\"b_count\":726," cmp &&
	grep -q "\"kind\":\"compare_items\",\"item\":\"inode\",\"a_count\":1050,\"b_count\":12364," cmp &&
	# against itself: no delta, every ratio 1
	"$XLS" compare --json "$a" "$a" >self &&
	! grep -q "_delta\":-\?[1-9]" self &&
	! grep -q "_ratio\":[02-9]" self &&
	"$XLS" compare --csv "$a" "$b" >c.csv &&
	head -1 c.csv | grep -q "^type,len,a_count,b_count," &&
	test $(wc -l <c.csv) -eq 16 &&
	"$XLS" compare "$a" "$b" | grep -q "^Buffers by type and size" &&
	test_expect_code 2 "$XLS" compare -l "$a" "$a" "$b" 2>err &&
	grep -q "invalid option -- .l." err &&
	! "$XLS" compare -h | grep -q -- "--logdev" &&
	test_expect_code 2 "$XLS" compare "$a" 2>err
'
# a journal without a type has no mean or share of it, and each type has
# a row of its sizes together, the sum of its size rows
cat >typesum.pl <<'EOF_PL'
my (%a, %b, %ta, %tb);
while (<>) {
	if (/"kind":"compare_buftype","type":"(\w+)","len":\d+,"a_count":(\d+),"b_count":(\d+)/) {
		$a{$1} += $2;
		$b{$1} += $3;
	} elsif (/"kind":"compare_type","type":"(\w+)","a_count":(\d+),"b_count":(\d+)/) {
		$ta{$1} = $2;
		$tb{$1} = $3;
	}
}
die "types: " . join(" ", sort keys %a) . " but rows for " . join(" ", sort keys %ta) . "\n"
	unless join(" ", sort keys %a) eq join(" ", sort keys %ta);
for (sort keys %a) {
	die "$_: sizes add up to $a{$_}/$b{$_}, its row says $ta{$_}/$tb{$_}\n"
		if $a{$_} != $ta{$_} || $b{$_} != $tb{$_};
}
EOF_PL
test_expect_success 'compare: "-" where a journal has no such buffer; a row per type' '
	a=$(image dir4k) && b=$(image dir64k) &&
	"$XLS" compare --json "$a" "$b" >cmp &&
	grep "\"kind\":\"compare_buftype\",\"type\":\"dir_leaf1\"" cmp | grep -q "\"b_count\":0," &&
	! grep "\"kind\":\"compare_buftype\",\"type\":\"dir_leaf1\"" cmp | grep -q "b_dirty_pct_mean" &&
	grep -q "\"kind\":\"compare_type\",\"type\":\"dir_data\",\"a_count\":259,\"b_count\":362," cmp &&
	perl typesum.pl cmp &&
	"$XLS" compare "$a" "$b" >cmp.txt &&
	grep -q "^Buffers by type, every size together" cmp.txt &&
	grep -q "^dir_leaf1  *4096 .* -$" cmp.txt
'

test_expect_success '--svg on stats, checkpoints and compare: plain SVG, never overwritten' '
	a=$(image dir4k) && b=$(image dir64k) &&
	"$XLS" stats --svg s.svg "$b" >/dev/null &&
	"$XLS" checkpoints --svg c.svg "$b" >/dev/null &&
	"$XLS" compare --svg m.svg "$a" "$b" >/dev/null &&
	for f in s.svg c.svg m.svg; do
		head -2 $f | grep -q "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\"" &&
		tail -1 $f | grep -q "^</svg>$" &&
		! grep -qi "<script" $f || return 1
		if command -v xmllint >/dev/null 2>&1; then xmllint --noout $f || return 1; fi
	done &&
	grep -q "Checkpoint size over the log" s.svg &&
	grep -q "Dirty % of buffers by type and size" s.svg &&
	grep -q "Relogged bytes by buffer type and size" s.svg &&
	grep -q "Relogged bytes over the log" c.svg &&
	grep -q "Buffer bytes logged per checkpoint by type and size" m.svg &&
	test_expect_code 2 "$XLS" stats --svg s.svg "$b" >/dev/null 2>err &&
	grep -q "exists: xfs_logscope never overwrites" err
'

test_done
