#!/bin/sh
# Synthesized logs (tests/tools/xls-synth/), issue 4 item 6: the log
# geometries kernels write -- v1 logs (h_version 1, 32 KiB records, one
# header block, on a v4 filesystem without LOGV2), v2 logs with extended
# headers (64, 128 and 256 KiB records), a 256 KiB log stripe unit, 4 KiB log
# sectors (v5 sb_logsectlog 12, v4 SECTORBIT), logs formatted in a later
# cycle as xfs_repair does, bare log files, and clean logs.
. "$(dirname "$0")/lib/test-lib.sh"
. "$XLS_TOP/tests/lib/synth-lib.sh"
if command -v blkid >/dev/null 2>&1; then
	test_expect_success 'libblkid takes the synthesized images for XFS' '
		synth v5 bufs && synth v4 bufs -1 &&
		test "$(blkid -p -o value -s TYPE v5.img)" = xfs &&
		test "$(blkid -p -o value -s TYPE v4.img)" = xfs
	'
else
	test_skip 'libblkid takes the synthesized images for XFS' 'blkid not installed'
fi
test_expect_success 'v1 log on a v4 superblock: records of version 1, exact h_len' '
	synth v1 bufs -1 && all v1 0 &&
	expect v1.info <<-\EOT &&
	info "log_version":1 "sb_version":4 "crc":false "log_sunit":0 "sector_size":512
	EOT
	expect v1.records <<-\EOT
	record "lsn":"1/2" "version":1 "h_size":32768 "hblks":1 "h_len":3764 "data_blks":8 "unused":0 "crc_status":"ok"
	EOT
'
test_expect_success 'v1 log: continued ops, wrap, torn head' '
	synth v1c cont -1 && all v1c 0 &&
	synth v1w wrap -1 && all v1w 0 &&
	synth v1t torn-crc -1 && all v1t 0
'
test_expect_success 'v1 log as a bare file: version taken from each record' '
	synth v1f bufs -1 -f && all v1f 0 -f &&
	expect v1f.info <<-\EOT
	info "log_location":"bare" "records":2 "head_blk":19
	EOT
'
test_expect_success 'v2 log on a v4 superblock (LOGV2BIT)' '
	synth v4l2 bufs -4 && all v4l2 0 &&
	expect v4l2.info <<-\EOT
	info "log_version":2 "sb_version":4 "crc":false
	EOT
'
test_expect_success '256 KiB stripe unit: 256 KiB records, 8 header blocks' '
	synth su bufs -u 262144 -L 8388608 && all su 0 &&
	expect su.info <<-\EOT &&
	info "log_sunit":262144 "log_version":2 "head_blk":1536 "tail_blk":512
	EOT
	expect su.records <<-\EOT
	record "lsn":"1/512" "h_size":262144 "hblks":8 "h_len":258048 "data_blks":504 "crc_status":"ok" "bad_cycle_blocks":0
	record "lsn":"1/1024" "h_size":262144 "hblks":8 "h_len":258048 "data_blks":504 "crc_status":"ok"
	count record 2
	EOT
'
test_expect_success '256 KiB stripe unit: continued ops, wrap, torn head, bad CRC' '
	synth suc cont -u 262144 -L 8388608 && all suc 0 &&
	synth suw wrap -u 262144 -L 8388608 && all suw 0 &&
	synth sut torn-crc -u 262144 -L 8388608 && all sut 0 &&
	synth sum crc-mid -u 262144 -L 12582912 && all sum 1
'
test_expect_success '64 KiB and 128 KiB log buffers: extended headers, no stripe unit' '
	synth b64 bufs -b 65536 && all b64 0 &&
	expect b64.records <<-\EOT &&
	record "lsn":"1/2" "h_size":65536 "hblks":2 "h_len":4096
	EOT
	synth b128 cont -b 131072 && all b128 0 &&
	expect b128.records <<-\EOT
	record "lsn":"1/2" "h_size":131072 "hblks":4 "h_len":129024 "data_blks":252
	EOT
'
test_expect_success '16 KiB log buffers (the smallest logbsize)' '
	synth b16 cont -b 16384 && all b16 0 &&
	expect b16.records <<-\EOT &&
	record "lsn":"1/2" "h_size":16384 "hblks":1 "h_len":15872 "data_blks":31
	EOT
	synth b16w wrap -b 16384 && all b16w 0
'
test_expect_success '64 KiB stripe unit in 128 KiB buffers' '
	synth su64 bufs -u 65536 -b 131072 && all su64 0 &&
	expect su64.records <<-\EOT
	record "lsn":"1/128" "h_size":131072 "hblks":4 "h_len":63488 "data_blks":124
	EOT
'
test_expect_success '4 KiB log sectors, v5 (sb_logsectlog 12): records in 4 KiB units' '
	synth s4k bufs -S 4096 && all s4k 0 &&
	expect s4k.info <<-\EOT &&
	info "sector_size":4096 "log_sunit":4096 "head_blk":32 "tail_blk":8
	EOT
	expect s4k.records <<-\EOT
	record "lsn":"1/8" "h_len":7680 "data_blks":15 "crc_status":"ok"
	record "lsn":"1/24" "h_len":3584 "data_blks":7 "crc_status":"ok"
	EOT
'
test_expect_success '4 KiB log sectors on a v4 superblock (SECTORBIT)' '
	synth s4k4 bufs -S 4096 -4 && all s4k4 0 &&
	expect s4k4.info <<-\EOT
	info "sector_size":4096 "sb_version":4
	EOT
'
test_expect_success '4 KiB log sectors: continued ops, wrap, torn writes' '
	synth s4c cont -S 4096 && all s4c 0 &&
	synth s4w wrap -S 4096 && all s4w 0 &&
	synth s4t torn-stale -S 4096 && all s4t 0
'
test_expect_success 'a log formatted in cycle 5 (libxfs_log_clear), cycle 4 behind the head' '
	synth c5 bufs -c 5 && all c5 0 &&
	expect c5.info <<-\EOT
	info "head_blk":19 "tail_blk":2 "last_lsn":"5/11" "tail_lsn":"5/2"
	EOT
'
test_expect_success 'clean: the unmount record mkfs writes, head and tail after it' '
	synth clean clean && all clean 0 &&
	expect clean.info <<-\EOT
	info "state":"clean" "head_blk":2 "tail_blk":2 "records":0
	EOT
'
test_expect_success 'clean after use: an unmount record at the head, nothing to replay' '
	synth um bufs -U && all um 0 &&
	expect um.info <<-\EOT &&
	info "state":"clean" "head_blk":21 "tail_blk":21 "last_lsn":"1/19" "records":0 "trans_committed":0
	EOT
	synth um5 cont -U -c 5 -S 4096 && all um5 0
'
test_done
