#!/bin/sh
# Differential test against xfs_logprint -t -b: per committed transaction,
# its tid, th_num_items and item count, and for each buffer item its blkno,
# length, map size, flags and region count, in the same order.
. "$(dirname "$0")/lib/test-lib.sh"
. "$XLS_TOP/tests/lib/images.sh"
LIB="$XLS_TOP/tests/lib"

logprint_args() {
	case "$1" in
	extlog)	echo "-l $(image extlog-log) $(image extlog)" ;;
	*)	image "$1" ;;
	esac
}

for name in $LOGPRINT_NAMES; do
	test_expect_success "$name: trans agrees with the recorded xfs_logprint -t -b" "
		\"\$XLS\" trans --json \$(image_args $name) | awk -f '$LIB/xls-norm.awk' >ours &&
		test_cmp '$XLS_TOP/tests/images/$name.logprint.norm' ours
	"
	if command -v xfs_logprint >/dev/null 2>&1; then
		test_expect_success "$name: trans agrees with xfs_logprint -t -b run now" "
			xfs_logprint -t -b \$(logprint_args $name) 2>/dev/null |
				awk -f '$LIB/logprint-norm.awk' >theirs &&
			\"\$XLS\" trans --json \$(image_args $name) | awk -f '$LIB/xls-norm.awk' >ours &&
			test_cmp theirs ours
		"
		test_expect_success "$name: head, tail and state agree with xfs_logprint -t" "
			xfs_logprint -t \$(logprint_args $name) 2>/dev/null |
				sed -n 's/.*log tail: \([0-9]*\) head: \([0-9]*\) state: <\([A-Z]*\)>.*/\1 \2 \3/p' |
				tr A-Z a-z >theirs &&
			\"\$XLS\" info --json \$(image_args $name) |
				sed 's/.*\"state\":\"\([a-z]*\)\".*\"head_blk\":\([0-9]*\),\"tail_blk\":\([0-9]*\).*/\3 \2 \1/' >ours &&
			test_cmp theirs ours
		"
	else
		test_skip "$name: live xfs_logprint comparison" "xfs_logprint not installed"
	fi
done
test_done
