#!/bin/sh
# The bundled kernel-written journals decode to the checked-in output.
. "$(dirname "$0")/lib/test-lib.sh"
. "$XLS_TOP/tests/lib/images.sh"
EXPECT="$XLS_TOP/tests/images/expect"

for name in $IMAGE_NAMES; do
	for cmd in info records stats; do
		test_expect_success "$name: $cmd matches tests/images/expect/$name.$cmd" "
			expect_output $name $cmd >actual &&
			test_cmp '$EXPECT/$name.$cmd' actual
		"
	done
done
for name in unlinked logsu256k; do
	test_expect_success "$name: bufs matches tests/images/expect/$name.bufs" "
		expect_output $name bufs >actual &&
		test_cmp '$EXPECT/$name.bufs' actual
	"
done

test_expect_success 'clean: the log is clean, tail at head, nothing to replay' '
	"$XLS" info --json $(image clean) >out &&
	grep -q "\"state\":\"clean\"" out && grep -q "\"records\":0," out
'
test_expect_success 'wrapped: head in the next cycle before the tail, one record wraps' '
	"$XLS" info --json $(image wrapped) >out &&
	grep -q "\"state\":\"dirty\"" out && grep -q "\"records_wrapped\":1," out &&
	head=$(sed "s/.*\"head_blk\":\([0-9]*\).*/\1/" out) &&
	tail=$(sed "s/.*\"tail_blk\":\([0-9]*\).*/\1/" out) &&
	test "$head" -lt "$tail"
'
test_expect_success 'logsu256k: records over 32 KiB carry extended headers' '
	"$XLS" records --json $(image logsu256k) >out &&
	grep -q "\"hblks\":8," out && grep -q "\"h_size\":262144," out
'
test_expect_success 'extlog: an external log needs -l, exit 3, one line' '
	test_expect_code 3 "$XLS" info $(image extlog) 2>err &&
	test $(wc -l <err) -eq 1 && grep -q "external log" err
'
test_expect_success 'unlinked: inode cluster buffers logged with inode_buf' '
	"$XLS" bufs --json $(image unlinked) >out &&
	grep "\"flag_names\":\"inode_buf" out | grep -q "\"type\":\"dino\""
'
test_expect_success 'every kernel-written log: all record CRCs verify' '
	for name in $IMAGE_NAMES; do
		"$XLS" info --json $(image_args $name) >out &&
		grep -q "\"crc_bad\":0," out || return 1
	done
'
test_expect_success 'copy writes the log; -f reads it back the same' '
	img=$(image dir4k) &&
	"$XLS" copy "$img" log.bin >/dev/null &&
	test $(stat -c %s log.bin) -eq 67108864 &&
	"$XLS" trans --json "$img" >a &&
	"$XLS" trans --json -f log.bin >b &&
	test_cmp a b
'
test_expect_success 'a zeroed log is clean; the kernel would refuse this one: exit 1, one line' '
	cp --sparse=always $(image clean) z.img &&
	off=$("$XLS" info --json z.img | sed "s/.*\"log_offset\":\([0-9]*\).*/\1/") &&
	dd if=/dev/zero of=z.img bs=512 seek=$((off / 512)) count=131072 conv=notrunc 2>/dev/null &&
	test_expect_code 1 "$XLS" info z.img >out 2>err &&
	grep -q "^state  *clean$" out && grep -q "^log_zeroed  *yes$" out &&
	test $(wc -l <err) -eq 1 && grep -q "log is totally zeroed" err
'
test_expect_success 'a truncated image is an error naming it, exit 3, one line' '
	cp --sparse=always $(image dir4k) t.img && truncate -s 300M t.img &&
	test_expect_code 3 "$XLS" info t.img 2>err &&
	test $(wc -l <err) -eq 1 && grep -q "is truncated" err
'
test_expect_success 'copy refuses to overwrite a file' '
	: >exists && test_expect_code 2 "$XLS" copy $(image dir4k) exists 2>err &&
	test $(wc -l <err) -eq 1 && grep -q "exists: xfs_logscope never overwrites" err
'
test_done
