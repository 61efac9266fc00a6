#!/bin/sh
# Differential test against xfs_logprint -t -b -i -q, every item type it
# decodes and every field of each: buffer formats, inode items with their
# log dinode core, icreates, extent intents and done items, XMI, ATTRI.
# The installed xfs_logprint always; a newer one too when XFSPROGS_NEW
# names a built xfsprogs tree (it decodes XMI, _RT and parent pointers).
. "$(dirname "$0")/lib/test-lib.sh"
. "$XLS_TOP/tests/lib/images.sh"
LIB="$XLS_TOP/tests/lib"

logprint_args() {
	case "$1" in
	extlog)	echo "-l $(image extlog-log) $(image extlog)" ;;
	*)	image "$1" ;;
	esac
}

# compare NAME LOGPRINT LABEL
compare() {
	old=
	"$2" -V 2>/dev/null | grep -Eq 'version ([0-5]\.|6\.[0-9]\.)' && old=--old-attri
	test_expect_success "$1: every item agrees with $3" "
		'$2' -t -b -i -q \$(logprint_args $1) 2>/dev/null |
			perl '$LIB/logprint-items.pl' >theirs &&
		\"\$XLS\" trans --json \$(image_args $1) |
			perl '$LIB/xls-items.pl' $old >ours &&
		test_cmp theirs ours && { test $1 = clean || test -s ours; }
	"
}

for name in $LOGPRINT_NAMES; do
	if command -v xfs_logprint >/dev/null 2>&1; then
		compare "$name" "$(command -v xfs_logprint)" "xfs_logprint $(xfs_logprint -V | sed 's/.*version //')"
	else
		test_skip "$name: item comparison with xfs_logprint" "xfs_logprint not installed"
	fi
	new=${XFSPROGS_NEW:+$XFSPROGS_NEW/logprint/xfs_logprint}
	if [ -n "$new" ] && [ -x "$new" ]; then
		compare "$name" "$new" "xfs_logprint $("$new" -V | sed 's/.*version //') (XFSPROGS_NEW)"
	fi
done
test_done
