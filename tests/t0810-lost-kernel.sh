#!/bin/sh
# lost against the kernel and xfs_repair -L (root and loop devices only;
# skipped otherwise).
#
# For each journal -- the bundled dirty images, and journals made here by
# the machine's kernel, which are in no repository -- copy A is mounted
# (the kernel recovers it), copy B is repaired with xfs_repair -L (the log
# zeroed); both trees are walked through the kernel (directory inode ->
# {name: inode}, lost+found at the root aside) by tests/lib/walk-tree.pl,
# which shares no code with xfs_logscope, and so are their xattrs
# (tests/lib/walk-xattrs.pl, getfattr).  The entries and the xattrs that
# differ must be those `lost` reports, and the inodes xfs_repair -L moves
# to lost+found those it lists apart (tests/lib/lostfound-score.pl): recall
# and precision are printed, and must be at least 95% each.  With XFSPROGS_NEW (a built xfsprogs >= 6.10 tree), a
# parent-pointer filesystem (mkfs -n parent=1) is made and checked too.
. "$(dirname "$0")/lib/test-lib.sh"
. "$XLS_TOP/tests/lib/images.sh"

. "$XLS_TOP/tests/lib/kmount.sh"
. "$XLS_TOP/tests/lib/workloads.sh"

# score NAME IMG [LOG]: A, B, lost; the scores in NAME.score, fails under
# 95%.  REPAIR is the xfs_repair to use.
REPAIR=xfs_repair
score() {
	name=$1 img=$2 log=${3:-}
	lopt= mopt=loop
	# a loop device an earlier call left when its mount failed
	[ -n "$LOGLOOP" ] && { losetup -d "$LOGLOOP" 2>/dev/null; LOGLOOP=; }
	cp --sparse=always "$img" "$name.a" && cp --sparse=always "$img" "$name.b" || return 1
	if [ -n "$log" ]; then
		cp --sparse=always "$log" "$name.la" && cp --sparse=always "$log" "$name.lb" || return 1
		lopt="-l $log"
	fi
	# shellcheck disable=SC2086
	"$XLS" lost --json $lopt "$img" >"$name.lost" || [ $? -eq 1 ] || return 1
	if [ -n "$log" ]; then
		LOGLOOP=$(losetup -f --show "$name.la") || return 1
		mopt=loop,logdev=$LOGLOOP
	fi
	mount -t xfs -o "$mopt" "$name.a" "$MNT" || return 1
	perl "$XLS_TOP/tests/lib/walk-tree.pl" "$MNT" >"$name.awalk" &&
	perl "$XLS_TOP/tests/lib/walk-xattrs.pl" "$MNT" >"$name.axattrs"
	umount "$MNT" || return 1
	[ -n "$LOGLOOP" ] && { losetup -d "$LOGLOOP"; LOGLOOP=; }
	if [ -n "$log" ]; then
		"$REPAIR" -L -l "$name.lb" "$name.b" >"$name.repair" 2>&1
		LOGLOOP=$(losetup -f --show "$name.lb") || return 1
		mopt=loop,ro,logdev=$LOGLOOP
	else
		"$REPAIR" -L "$name.b" >"$name.repair" 2>&1
		mopt=loop,ro
	fi
	mount -t xfs -o "$mopt" "$name.b" "$MNT" || return 1
	perl "$XLS_TOP/tests/lib/walk-tree.pl" "$MNT" >"$name.bwalk" &&
	perl "$XLS_TOP/tests/lib/walk-xattrs.pl" "$MNT" >"$name.bxattrs"
	umount "$MNT" || return 1
	[ -n "$LOGLOOP" ] && { losetup -d "$LOGLOOP"; LOGLOOP=; }
	rm -f "$name.a" "$name.b" "$name.la" "$name.lb"
	perl "$XLS_TOP/tests/lib/lost-score.pl" "$name.awalk" "$name.bwalk" "$name.lost" >"$name.score"
	perl "$XLS_TOP/tests/lib/lost-xattr-score.pl" "$name.axattrs" "$name.bxattrs" \
		"$name.lost" >"$name.xscore"
	perl "$XLS_TOP/tests/lib/lostfound-score.pl" "$name.repair" "$name.lost" >"$name.lfscore"
	perl -ne 'exit(!(/recall ([\d.]+)% precision ([\d.]+)%/ && $1 >= 95 && $2 >= 95))' "$name.score" &&
	perl -ne 'exit(!(/recall ([\d.]+)% precision ([\d.]+)%/ && $1 >= 95 && $2 >= 95))' "$name.xscore" &&
	perl -ne 'exit(!(/recall ([\d.]+)% precision ([\d.]+)%/ && $1 >= 95 && $2 >= 95))' "$name.lfscore"
}

kmount_probe xfs_io xfs_repair

# The scores of NAME, as TAP comments, whether the test passed or not.
show() {
	[ -f "$1.score" ] || return 0
	echo "# $1: $(head -1 "$1.score")"
	sed -n '2,6s/^/#   /p' "$1.score"
	[ -f "$1.xscore" ] || return 0
	echo "# $1: $(head -1 "$1.xscore")"
	sed -n '2,6s/^/#   /p' "$1.xscore"
	[ -f "$1.lfscore" ] || return 0
	echo "# $1: $(head -1 "$1.lfscore")"
	sed -n '2,6s/^/#   /p' "$1.lfscore"
}

if $can_mount; then
	for name in dir4k dir64k logsu256k wrapped unlinked sfconv reflink; do
		test_expect_success "lost: $name, what the kernel and xfs_repair -L leave differently" \
			"score $name \$(image $name)"
		show $name
	done
	test_expect_success 'lost: extlog (external log)' '
		score extlog $(image extlog) $(image extlog-log)
	'
	show extlog
	test_expect_success 'lost: a fresh kernel journal, 4 KiB directories' '
		fresh fresh4k 300 mkfs.xfs && score fresh4k fresh4k.img
	'
	show fresh4k
	test_expect_success 'lost: a fresh kernel journal, 64 KiB directories' '
		fresh fresh64k 3000 mkfs.xfs -n size=65536 && score fresh64k fresh64k.img
	'
	show fresh64k
	test_expect_success 'lost: a fresh kernel journal churning what the disk holds' '
		fresh_churn churn && score churn churn.img
	'
	show churn
	test_expect_success 'lost: a fresh kernel journal of fallocate modes, remote xattrs and symlinks, reflinks, tmpfiles and open unlinked files, rmap' '
		fresh_mixed mixed 120 -m rmapbt=1 && score mixed mixed.img
	'
	show mixed
	test_expect_success 'lost: a fresh kernel journal whose log filled while its inode btree stayed pinned: inodes repair never finds' '
		fresh_pinned pinned && score pinned pinned.img
	'
	show pinned
	if [ -n "${XFSPROGS_NEW:-}" ] && [ -x "$XFSPROGS_NEW/mkfs/mkfs.xfs" ] &&
	   [ -x "$XFSPROGS_NEW/repair/xfs_repair" ]; then
		# parent pointers: the system's xfs_repair (6.1) does not know them
		for name in pptr pptr64k; do
			test_expect_success "lost: $name (parent pointers), against xfs_repair 6.10+" \
				"REPAIR=\$XFSPROGS_NEW/repair/xfs_repair score $name \$(image $name)"
			show $name
		done
		test_expect_success 'lost: a fresh kernel journal with parent pointers' '
			fresh freshpp 1000 "$XFSPROGS_NEW/mkfs/mkfs.xfs" -n parent=1 &&
			REPAIR=$XFSPROGS_NEW/repair/xfs_repair score freshpp freshpp.img
		'
		show freshpp
	else
		test_skip 'lost: parent pointers' "XFSPROGS_NEW (an xfsprogs >= 6.10 build tree) not set"
	fi
else
	test_skip 'lost against the kernel' "$why"
fi
test_done
