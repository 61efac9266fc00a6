#!/bin/sh
# Synthesized logs (tests/tools/xls-synth/), issue 4 items 1 and 5: buffer
# items with arbitrary bitmaps and region cuts, runs split at 4 KiB page
# boundaries as unmapped inode cluster buffers were logged before Linux 6.15,
# and the same log written by a big-endian machine.
#
# xls-synth writes the log record by record as the kernel does and prints a
# manifest of what it wrote; "xls-synth -C" checks that xfs_logscope's JSON
# holds every fact of it, field for field.
. "$(dirname "$0")/lib/test-lib.sh"
. "$XLS_TOP/tests/lib/synth-lib.sh"
test_expect_success 'xls-synth is built and lists its scenarios' '
	test -x "$SYNTH" && "$SYNTH" -l | grep -q "^bufs "
'
test_expect_success 'bufs: the synthesizer writes the image' '
	synth le bufs && grep -q "^record " le.man && grep -q "^buf " le.man
'
test_expect_success 'bufs: info finds head, tail, records and transactions' '
	run 0 le info && check le info info &&
	expect le.info <<-\EOT
	info "state":"dirty" "head_blk":19 "tail_blk":2 "records":2 "trans_committed":2
	EOT
'
test_expect_success 'bufs: every record header, length and CRC as written' '
	run 0 le records && check le records record
'
test_expect_success 'bufs: trans reassembles both checkpoints, every buffer item decoded' '
	run 0 le trans && check le trans trans,item
'
test_expect_success 'bufs: every buffer exactly (regions, runs, splits, dirty bytes, cost)' '
	run 0 le bufs -v && check le bufs buf
'
# 16 KiB inode cluster buffer, chunks 30..33 dirty, logged as 30-31, 32-33
test_expect_success '16 KiB inode cluster: the run split at byte 4096' '
	expect le.bufs <<-\EOT
	buf "blkno":"0x100" "index":0 "len":16384 "type":"dino" "flag_names":"inode_buf" "map_size":4 "regions":2 "runs":1 "split_runs":1 "dirty_bytes":512 "problems":"" "region_list":[{"offset":3840,"len":256},{"offset":4096,"len":256}]
	EOT
'
test_expect_success '32 KiB inode cluster: two runs split at 8 KiB and 12 KiB' '
	expect le.bufs <<-\EOT
	buf "blkno":"0x140" "len":32768 "map_size":8 "regions":5 "runs":3 "split_runs":2 "dirty_bytes":1152 "region_list":[{"offset":0,"len":128},{"offset":7936,"len":256},{"offset":8192,"len":384},{"offset":12160,"len":128},{"offset":12288,"len":256}]
	EOT
'
test_expect_success 'a run over a page boundary logged whole is not split (6.15+)' '
	expect le.bufs <<-\EOT
	buf "blkno":"0x320" "regions":1 "runs":1 "split_runs":0 "region_list":[{"offset":3840,"len":512}]
	EOT
'
test_expect_success 'a run cut off a page boundary is still a split run' '
	expect le.bufs <<-\EOT
	buf "blkno":"0x300" "type":"attr_leaf" "regions":2 "runs":1 "split_runs":1 "region_list":[{"offset":1280,"len":256},{"offset":1536,"len":256}]
	EOT
'
test_expect_success '64 KiB block: 16 map words, runs in words 0 and 15' '
	expect le.bufs <<-\EOT
	buf "blkno":"0x400" "len":65536 "map_size":16 "regions":6 "runs":6 "split_runs":0 "dirty_bytes":2304 "dirty_pct":3.5156
	EOT
'
test_expect_success 'bufs -v text: split points, their offsets and page boundaries' '
	test_expect_code 0 "$XLS" bufs -v le.img >le.txt &&
	grep -q "split at chunk 32 (offset 4096) on a 4 KiB page boundary" le.txt &&
	grep -q "split at chunk 64 (offset 8192) on a 4 KiB page boundary" le.txt &&
	grep -q "split at chunk 96 (offset 12288) on a 4 KiB page boundary" le.txt &&
	grep "split at chunk 12 (offset 1536)" le.txt >odd &&
	! grep -q "page boundary" odd &&
	grep -q "region   2  offset   4096  len    256  chunks 32-33" le.txt
'
test_expect_success 'bufs --json -v: each split point, its offset and page boundary' '
	expect le.bufs <<-\EOT
	buf "blkno":"0x100" "index":0 "split_list":[{"chunk":32,"offset":4096,"page_boundary":true}]
	buf "blkno":"0x140" "split_list":[{"chunk":64,"offset":8192,"page_boundary":true},{"chunk":96,"offset":12288,"page_boundary":true}]
	buf "blkno":"0x300" "split_list":[{"chunk":12,"offset":1536,"page_boundary":false}]
	buf "blkno":"0x320" "split_list":[]
	EOT
'
# Without a superblock, owners come from the logged headers alone: no
# AG number, no inode range, no block read from the data device.
test_expect_success 'the same log as a bare log file (-f): the same buffers' '
	synth bare bufs -f && run 0 bare bufs -f -v && check bare bufs buf &&
	sed -E "s/,\"(owner|btree|agno|owner_ino|ino_first|ino_last|owner_from)\":[^,}]*//g" le.bufs >le.noowner &&
	sed -E "s/,\"(owner|btree|agno|owner_ino|ino_first|ino_last|owner_from)\":[^,}]*//g" bare.bufs >bare.noowner &&
	test_cmp le.noowner bare.noowner
'
# item 5: a big-endian machine's log
test_expect_success 'big-endian (h_fmt BE, items and trans header BE): synthesized' '
	synth be bufs -E && ! cmp -s le.img be.img
'
test_expect_success 'big-endian: records, trans and items decoded exactly' '
	run 0 be records && check be records record &&
	run 0 be trans && check be trans trans,item &&
	expect be.trans <<-\EOT
	trans "tid":"0xc0ffee0" "th_type":40 "th_num_items":18 "items":5
	item "tid":"0xc0ffee0" "index":0 "blkno":"0x100" "len_bb":32 "map_size":4 "flags":"0x4001" "size":3 "regions":3
	EOT
'
test_expect_success 'big-endian: blkno, map_size, regions and dirty bytes as on LE' '
	run 0 be bufs -v && check be bufs buf && test_cmp le.bufs be.bufs
'
test_expect_success 'big-endian: the trans output is the LE one' '
	test_cmp le.trans be.trans
'
if command -v xfs_logprint >/dev/null 2>&1; then
	test_expect_success 'xfs_logprint -t reads the synthesized log the same way' '
		xfs_logprint -t le.img >lp 2>&1 &&
		grep -q "log tail: 2 head: 19 state: <DIRTY>" lp &&
		test $(grep -c "TRANS: tid:0xc0ffee[01] " lp) -eq 2 &&
		grep -q "#regs:3   start blkno:0x100   len:32   bmap size:4   flags:0x4001" lp &&
		grep -q "#regs:6   start blkno:0x140   len:64   bmap size:8   flags:0x4001" lp &&
		grep -q "#regs:7   start blkno:0x400   len:128   bmap size:16   flags:0x5000" lp
	'
else
	test_skip 'xfs_logprint reads the synthesized log' 'xfs_logprint not installed'
fi
test_done
