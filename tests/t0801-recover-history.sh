#!/bin/sh
# history: one buffer through the log, the buffer as recovery leaves it,
# the chunks that change, and the heat maps of history and bufs.
. "$(dirname "$0")/lib/test-lib.sh"
. "$XLS_TOP/tests/lib/images.sh"

# the worked example of the README: a 64 KiB block-form directory block
BLK=0xa0140

test_expect_success 'history needs --blkno' '
	test_expect_code 2 "$XLS" history $(image dir4k) 2>err &&
	grep -q "needs --blkno" err
'

test_expect_success 'history lists every appearance in recovery order' '
	"$XLS" history --json --blkno=$BLK $(image dir64k) >out &&
	test $(grep -c "\"kind\":\"appearance\"" out) -eq \
	     $("$XLS" bufs --json --blkno=$BLK $(image dir64k) | grep -c "\"kind\":\"buf\"") &&
	! grep "\"kind\":\"appearance\"" out | grep -qv "\"decision\":\"replay" &&
	perl -ne "print \"\$1\n\" if /\"seq\":(\d+)/" out >seqs &&
	sort -n -c seqs
'

test_expect_success 'history -v draws the dirty map and the regions' '
	"$XLS" history -v --blkno=$BLK $(image dir64k) >out &&
	grep -q "^      map \[##" out && grep -q "^      region   1  offset      0" out
'

test_expect_success '--replay writes the block and the replayed regions, nothing else' '
	img=$(image dir64k) && before=$(md5sum <"$img") &&
	"$XLS" history --blkno=$BLK --replay=blk.bin --diff $img >out &&
	test "$(md5sum <"$img")" = "$before" &&
	test $(stat -c %s blk.bin) -eq 65536 &&
	dd if=$img of=disk.bin bs=512 skip=$(($BLK)) count=128 2>/dev/null &&
	"$XLS" history --json -v --blkno=$BLK $(image dir64k) >app.json &&
	"$XLS" bufs --json -v --blkno=$BLK $img >bufs.json &&
	perl -e "
		open(my \$a, q{<:raw}, q{blk.bin}); local \$/; my \$r = <\$a>;
		open(my \$b, q{<:raw}, q{disk.bin}); my \$d = <\$b>;
		open(my \$j, q{<}, q{bufs.json}); my %dirty;
		for (split /\n/, <\$j>) {
			while (/\{\"offset\":(\d+),\"len\":(\d+)\}/g) {
				\$dirty{\$_} = 1 for (\$1 / 128) .. ((\$1 + \$2) / 128 - 1);
			}
		}
		for my \$c (0 .. 511) {
			next if \$dirty{\$c};
			die qq{chunk \$c changed but was never logged\n}
				if substr(\$r, \$c * 128, 128) ne substr(\$d, \$c * 128, 128);
		}
	" &&
	grep -q "^replay: wrote 65536 bytes to .blk.bin.: the block on disk, then [0-9]* replayed items" out &&
	grep -q "^diff: [0-9]* of 512 chunks differ from the block on disk: 0-" out
'

test_expect_success '--replay and --svg never overwrite a file' '
	: >exists && : >exists.svg &&
	test_expect_code 2 "$XLS" history --blkno=$BLK --replay=exists $(image dir64k) >out 2>err &&
	! test -s out && test $(wc -l <err) -eq 1 &&
	grep -q ".exists. exists: xfs_logscope never overwrites a file" err && test ! -s exists &&
	test_expect_code 2 "$XLS" history --blkno=$BLK --svg=exists.svg $(image dir64k) >out 2>err && ! test -s out &&
	test ! -s exists.svg
'

test_expect_success '--replay of a daddr no item logs is an error' '
	test_expect_code 2 "$XLS" history --blkno=0x7 --replay=none.bin $(image dir4k) 2>err &&
	grep -q "no buffer item logs daddr 0x7" err && test ! -e none.bin
'

test_expect_success '--diff --json lists the changed chunk ranges' '
	"$XLS" history --json --blkno=0x2 --replay=agi.bin --diff $(image dir4k) >out &&
	grep -q "\"kind\":\"replayed_buffer\",\"file\":\"agi.bin\",\"blkno\":\"0x2\",\"bytes\":512," out &&
	grep -q "\"kind\":\"diff\",\"blkno\":\"0x2\",\"chunks\":4,\"changed\":[0-9]*,\"ranges\":\[" out
'

test_expect_success 'an inode cluster is rebuilt from icreate and inode items' '
	"$XLS" history --blkno=0x400c0 --replay=ino.bin $(image dir64k) >out &&
	grep -q " icreate  *0  16384 100.00 .* replay " out &&
	grep -q " inode  *0  *512 .* replay " out &&
	test $(stat -c %s ino.bin) -eq 16384 &&
	test "$(head -c 2 ino.bin)" = "IN" &&
	! grep -q "could not be applied" out
'

test_expect_success 'history --csv has one layout' '
	"$XLS" history --csv --blkno=0x400c0 $(image dir64k) >out &&
	head -1 out | grep -q "^seq,tid,lsn,index,len,type,flag_names,regions," &&
	perl -MText::ParseWords -ne "print scalar(parse_line(q{,}, 0, \$_)), qq{\n}" out |
		sort -u >counts && test $(wc -l <counts) -eq 1
'

# An SVG is XML with an svg root, chunk rectangles, axes and a legend.
svg_ok() {
	head -1 "$1" | grep -q "^<?xml version=\"1.0\"" &&
	grep -q "<svg xmlns=\"http://www.w3.org/2000/svg\"" "$1" &&
	tail -1 "$1" | grep -q "^</svg>$" &&
	grep -q "byte offset in the buffer" "$1" && grep -q ">clean</text>" "$1" &&
	grep -q "times dirty" "$1" &&
	if command -v xmllint >/dev/null 2>&1; then
		xmllint --noout "$1"
	else
		perl -e 'local $/; $_ = <>; my $n = () = /<rect /g; exit($n ? 0 : 1)' "$1"
	fi
}

test_expect_success 'history --svg draws the 64 KiB directory block' '
	"$XLS" history --blkno=$BLK --svg=dir.svg $(image dir64k) >out &&
	svg_ok dir.svg &&
	grep -q "daddr 0xa0140, dir_block, 65536 bytes: 74 appearances" dir.svg &&
	grep -q ">64K</text>" dir.svg &&
	grep -q "class=\"r\"" dir.svg && grep -q "skipped: cancelled" dir.svg &&
	grep -q "^svg: wrote the heat map of 74 appearances to .dir.svg." out
'

test_expect_success 'history --svg: rows apart, every row on the axis when there is room' '
	"$XLS" history --blkno=0x2 --svg=agi.svg $(image dir4k) >/dev/null &&
	svg_ok agi.svg &&
	grep -q ">#seq  LSN</text>" agi.svg &&
	rows=$("$XLS" history --blkno=0x2 --json $(image dir4k) | grep -c "\"kind\":\"appearance\"") &&
	ticks=$(grep -o "<line x1=\"[0-9]*\" y1=\"[0-9]*\" x2=\"150\"" agi.svg | wc -l) &&
	test "$ticks" -gt 0 &&
	perl -ne "while (/<rect x=\"[0-9.]+\" y=\"(\d+)\" width=\"[0-9.]+\" height=\"(\d+)\" class=\"[radsxuf]\"/g) { \$h{\$1} = \$2 }
		  END { my @y = sort { \$a <=> \$b } keys %h; for (1 .. \$#y) {
			  die \"rows at \$y[\$_ - 1] and \$y[\$_] touch\n\" if \$y[\$_ - 1] + \$h{\$y[\$_ - 1]} >= \$y[\$_] } }" agi.svg
'

test_expect_success 'history --svg: the appearance that makes recovery fail is black' '
	test_expect_code 1 "$XLS" history --blkno=0x1b0 --svg=fail.svg $(image dirfrag) >/dev/null &&
	svg_ok fail.svg && grep -q "class=\"f\"" fail.svg &&
	grep -q "recovery fails</title>" fail.svg &&
	grep -q "1 appearance</text>" fail.svg
'

test_expect_success 'history --svg colours cancels and reuse' '
	"$XLS" history --blkno=0x400c0 --svg=reuse.svg $(image dir64k) >/dev/null &&
	svg_ok reuse.svg && grep -q "class=\"x\"" reuse.svg && grep -q "class=\"k\"" reuse.svg
'

test_expect_success 'bufs --svg draws the hottest buffers' '
	"$XLS" bufs --svg=hot.svg --top=3 $(image wrapped) >out &&
	svg_ok hot.svg &&
	test $(grep -c "^  [1-3]  daddr 0x" out) -eq 3 &&
	test $(grep -c "class=\"pt\"" hot.svg) -eq 3 &&
	grep -q "bin consecutive transactions" hot.svg
'

test_expect_success 'bufs --svg follows the filters' '
	"$XLS" bufs --json --svg=dd.svg --top=2 --type=dir_data $(image dir64k) >out &&
	svg_ok dd.svg && test $(grep -c "\"kind\":\"svg_panel\"" out) -eq 2 &&
	! grep "\"kind\":\"svg_panel\"" out | grep -qv "\"type\":\"dir_data\""
'
test_done
