#!/bin/sh
# Buffer analysis on kernel-written journals: checked buffer by buffer
# against an independent implementation of recovery's placement.
. "$(dirname "$0")/lib/test-lib.sh"
. "$XLS_TOP/tests/lib/images.sh"

for name in $IMAGE_NAMES; do
	test_expect_success "$name: regions, runs, splits and dirty bytes match the reference" "
		\"\$XLS\" bufs --json -v \$(image_args $name) >bufs.json &&
		perl '$XLS_TOP/tests/lib/recovery-ref.pl' <bufs.json
	"
done
test_expect_success 'dir64k: partly dirty 64 KiB directory buffers with several regions' '
	"$XLS" bufs --json $(image dir64k) >out &&
	grep "\"len\":65536," out | grep "\"type\":\"dir_" |
		grep -v "\"dirty_pct\":100.0000" | grep -v "\"regions\":1," |
		grep -q "\"regions\":[2-9]"
'
test_expect_success 'bufs --type filters by buffer type' '
	"$XLS" bufs --json --type=agi $(image dir4k) >out &&
	test -s out && ! grep -v "\"type\":\"agi\"" out
'
test_expect_success 'bufs --blkno and --tid filter' '
	"$XLS" bufs --json --blkno=0x2 $(image dir4k) >out &&
	test -s out && ! grep -v "\"blkno\":\"0x2\"" out &&
	tid=$(head -1 out | sed "s/.*\"tid\":\"\(0x[0-9a-f]*\)\".*/\1/") &&
	"$XLS" bufs --json --tid=$tid $(image dir4k) >out2 &&
	test -s out2 && ! grep -v "\"tid\":\"$tid\"" out2
'
test_expect_success 'bufs -v draws the dirty map and lists regions' '
	"$XLS" bufs -v --blkno=0x2 $(image dir4k) >out &&
	grep -q "map \[" out && grep -q "region   1  offset" out
'
test_expect_success 'stats: byte categories add up to the log bytes read' '
	for name in $IMAGE_NAMES; do
		"$XLS" stats --json $(image_args $name) >out || return 1
		total=$(grep "\"kind\":\"total\"" out | sed "s/.*\"log_bytes\":\([0-9]*\).*/\1/")
		sum=$(grep "\"kind\":\"bytes\"" out | sed "s/.*\"bytes\":\([0-9]*\).*/\1/" |
			awk "{ s += \$1 } END { print s + 0 }")
		test "$total" = "$sum" || { echo "$name: $sum != $total"; return 1; }
	done
'
test_expect_success 'stats text output fits in 100 columns' '
	"$XLS" stats $(image dir64k) >out &&
	! awk "length > 100" out | grep -q .
'
test_expect_success 'bufs --csv has one header and a constant column count' '
	"$XLS" bufs --csv $(image dir4k) >out &&
	test $(head -1 out | cut -c1-4) = "tid," &&
	test $(awk -F, "{ print NF }" out | sort -u | wc -l) -eq 1
'
test_done
