#!/bin/sh
# Synthesized logs (tests/tools/xls-synth/), issue 4 items 2 to 4: ops
# continued across records, a transaction header split between two records,
# transactions whose records wrap past the physical end of the log, and torn
# writes at the head trimmed as kernel recovery trims them (xlog_verify_head).
. "$(dirname "$0")/lib/test-lib.sh"
. "$XLS_TOP/tests/lib/synth-lib.sh"
# --- item 2: continued ops ---------------------------------------------
test_expect_success 'cont: a 64 KiB region over 3 records, headers split' '
	synth cont cont && all cont 0
'
test_expect_success 'cont: the 64 KiB region is one region of one item' '
	expect cont.trans <<-\EOT
	trans "tid":"0xc0ffee0" "lsn":"1/2" "commit_lsn":"1/130" "state":"committed" "th_num_items":2 "items":1 "regions":2 "records":3 "region_bytes":65620
	item "tid":"0xc0ffee0" "index":0 "item":"buf" "size":2 "regions":2 "blkno":"0x800" "len_bb":128 "map_size":16 "data_bytes":65536
	EOT
'
test_expect_success 'cont: the 64 KiB buffer all dirty, its cost counts 4 op headers' '
	expect cont.bufs <<-\EOT
	buf "blkno":"0x800" "len":65536 "regions":1 "runs":1 "split_runs":0 "dirty_bytes":65536 "dirty_pct":100.0000 "data_bytes":65536 "log_cost":65668
	EOT
'
test_expect_success 'cont: a transaction header cut 8 + 8 across records' '
	expect cont.trans <<-\EOT
	trans "tid":"0xc0ffee2" "lsn":"1/130" "commit_lsn":"1/194" "state":"committed" "th_type":40 "th_num_items":4 "items":1 "regions":4 "records":2
	item "tid":"0xc0ffee2" "index":0 "blkno":"0x900" "size":4 "regions":4 "data_bytes":640
	EOT
'
test_expect_success 'cont: a buffer format region cut after 8 bytes' '
	expect cont.trans <<-\EOT
	trans "tid":"0xc0ffee6" "lsn":"1/258" "commit_lsn":"1/322" "state":"committed" "items":1 "regions":6 "records":2
	item "tid":"0xc0ffee6" "index":0 "blkno":"0x140" "len_bb":64 "map_size":8 "flags":"0x4001" "size":6 "regions":6 "data_bytes":1152
	EOT
'
if command -v xfs_logprint >/dev/null 2>&1; then
	test_expect_success 'cont: the log holds the continued ops (xfs_logprint)' '
		xfs_logprint cont.img >lp 2>&1 &&
		grep -q "tid: c0ffee0  len: 32108  clientid: TRANS  flags: CONTINUE" lp &&
		grep -q "tid: c0ffee0  len: 32244  clientid: TRANS  flags: WAS_CONT CONTINUE" lp &&
		grep -q "tid: c0ffee0  len: 1184  clientid: TRANS  flags: WAS_CONT END" lp &&
		test $(grep -c "tid: c0ffee2  len: 8  clientid: TRANS  flags: " lp) -eq 2
	'
else
	test_skip 'cont: the log holds the continued ops' 'xfs_logprint not installed'
fi
test_expect_success 'cont in a v1 log and in 256 KiB records' '
	synth cont1 cont -1 && all cont1 0 &&
	synth cont256 cont -u 262144 -L 8388608 && all cont256 0
'

# --- item 3: records across the physical end of the log ----------------
test_expect_success 'wrap: head in cycle 8 near the start, tail in cycle 7 near the end' '
	synth wrap wrap && all wrap 0 &&
	expect wrap.info <<-\EOT
	info "state":"dirty" "head_blk":79 "tail_blk":4036 "last_lsn":"8/76" "tail_lsn":"7/4036" "records":5 "records_wrapped":1 "crc_bad":0 "trans_committed":3
	EOT
'
test_expect_success 'wrap: the record over the end is read whole, CRC ok' '
	expect wrap.records <<-\EOT
	record "lsn":"7/4039" "blk":4039 "h_len":32256 "data_blks":63 "wrapped":true "crc_status":"ok" "bad_cycle_blocks":0
	record "lsn":"8/7" "prev_block":4039 "wrapped":false "crc_status":"ok"
	EOT
'
test_expect_success 'wrap: the transaction across the end is committed' '
	expect wrap.trans <<-\EOT
	trans "tid":"0xc0ffee1" "lsn":"7/4039" "commit_lsn":"8/71" "state":"committed" "items":2 "regions":5 "records":3 "region_bytes":66168
	EOT
'
test_expect_success 'wrap: records --all lists the wrapped record in physical order' '
	run 0 wrap records --all &&
	expect wrap.records <<-\EOT
	record "lsn":"7/4039" "wrapped":true "crc_status":"ok"
	record "lsn":"8/7" "crc_status":"ok"
	record "lsn":"7/2000" "h_crc":"0x0" "crc_status":"zero"
	EOT
'
test_expect_success 'wrap in a v1 log, with 4 KiB sectors, from a big-endian machine' '
	synth wrap1 wrap -1 && all wrap1 0 &&
	synth wrap4k wrap -S 4096 && all wrap4k 0 &&
	synth wrapbe wrap -E -c 3 && all wrapbe 0
'
test_expect_success 'wrap: the cycle after 0xfeedbabd is 0xfeedbabf (magic skipped)' '
	synth wrapmagic wrap -c 0xfeedbabd && all wrapmagic 0 &&
	expect wrapmagic.info <<-\EOT
	info "last_lsn":"4276992703/76" "tail_lsn":"4276992701/4036" "records_wrapped":1
	EOT
'
test_expect_success 'wrap-exact: records end at the end of the log, the head is block 0' '
	synth exact wrap-exact && all exact 0 &&
	expect exact.info <<-\EOT
	info "head_blk":0 "tail_blk":4081 "last_lsn":"7/4093" "records":5 "records_wrapped":0
	EOT
'
test_expect_success 'copy of the wrapped log, read back with -f: the same transactions' '
	rm -f wrap.copy && "$XLS" copy wrap.img wrap.copy &&
	"$XLS" trans --json -f wrap.copy >copy.trans &&
	test_cmp wrap.trans copy.trans
'
# A record header in the last block of the log, its extended header at
# block 0: xlog_split_iclog stamps the extended header and every payload
# block past the end with cycle + 1, and recovery (xlog_do_recovery_pass,
# "the header already wrapped") reads the payload contiguously from there.
test_expect_success 'wrap-hdr: head, tail, CRC and transactions right' '
	synth wraphdr wrap-hdr -b 65536 &&
	run01 wraphdr trans && check wraphdr trans trans,item &&
	run01 wraphdr info &&
	expect wraphdr.info <<-\EOT
	info "head_blk":70 "tail_blk":4095 "records_wrapped":1 "crc_bad":0 "trans_committed":2
	EOT
'
# Regression (was a bug in src/log.c, rec_unpack): first_wrapped = nblks - blk - hblks
# underflows when the header blocks themselves straddle the end, so every
# payload block (all in cycle + 1) is taken for a bad cycle stamp: a false
# "cycle" finding and exit 1.  Every payload block is past the end then:
# first_wrapped must be 0 when blk + hblks >= nblks.
test_expect_success 'wrap-hdr: no bad cycle stamps, no findings (exit 0)' '
	run 0 wraphdr records && check wraphdr records record &&
	synth wraphdrl wrap-hdr-last -b 131072 && all wraphdrl 0
'

# --- item 4: torn writes at the head -------------------------------------
test_expect_success 'torn-crc: the last record CRC bad, the head moves back to it' '
	synth torn torn-crc && all torn 0 &&
	expect torn.info <<-\EOT
	info "torn_head":true "torn_from_blk":19 "head_blk":9 "last_lsn":"1/5" "records":2 "crc_bad":0
	EOT
'
test_expect_success 'torn-crc: the transaction committed in the torn record is not' '
	expect torn.trans <<-\EOT
	trans "tid":"0xc0ffee0" "state":"committed"
	trans "tid":"0xc0ffee1" "lsn":"1/5" "state":"incomplete" "items":2
	count trans 2
	EOT
'
test_expect_success 'torn-stale: a block of the last record never written' '
	synth stale torn-stale && all stale 0 &&
	expect stale.info <<-\EOT
	info "torn_head":false "head_blk":9 "last_lsn":"1/5" "trans_committed":1 "trans_incomplete":1
	EOT
'
test_expect_success 'torn-stale over an older cycle (-c 3): the same head' '
	synth stale3 torn-stale -c 3 && all stale3 0 &&
	expect stale3.info <<-\EOT
	info "head_blk":9 "last_lsn":"3/5" "torn_head":false
	EOT
'
test_expect_success 'torn-mid: a bad CRC among the last 8 records drops the good one after it' '
	synth mid torn-mid && all mid 0 &&
	expect mid.info <<-\EOT
	info "torn_head":true "torn_from_blk":22 "head_blk":9 "records":2 "trans_committed":1 "trans_incomplete":1
	EOT
'
test_expect_success 'wrap-torn: the record over the end torn, the head goes back a cycle' '
	synth wtorn wrap-torn && all wtorn 0 &&
	expect wtorn.info <<-\EOT
	info "torn_head":true "torn_from_blk":79 "head_blk":4039 "tail_blk":4036 "last_lsn":"7/4036" "records":1
	EOT
'
test_expect_success 'torn writes with 4 KiB sectors, v1 logs, 256 KiB records' '
	synth t4k torn-crc -S 4096 && all t4k 0 &&
	synth t1 torn-crc -1 && all t1 0 &&
	synth t256 torn-mid -u 262144 -L 8388608 && all t256 0
'
test_done
