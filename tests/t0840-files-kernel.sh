#!/bin/sh
# files against the kernel (root and loop devices only; skipped otherwise).
#
# For each bundled dirty image, copy A is mounted read-write (the kernel
# recovers it) and copy B -o ro,norecovery (the disk as the log found it);
# both trees are walked through the kernel by tests/lib/walk-tree.pl, and
# tests/lib/files-score.pl (neither shares code with xfs_logscope) scores
# `files --json` against them: the events of inodes of the recovered tree
# that carry a path; the inodes whose last event, and whose final_path,
# name a path they have after recovery, and whose last event's path ends
# in a name they have; the entries recovery adds that files reports as
# added or moved there; the inodes whose file record has the size and
# link count lstat gives after recovery; and, for 20 recovered paths, whether `files
# --path=P` keeps an event of that inode.  Each share must be 99% or more.
#
# Left out: clean (no events), dirfrag (the kernel's recovery fails on
# it).  On wrapped the walk of the norecovery mount fails: its root lists
# w1..w3, directories whose inodes the log keeps relogging and the disk
# has never held (mode 0 there), so adds is not scored (files-score.pl
# --no-before; against an empty tree it is 483/486, the three being older
# than the tail).
#
# On later the kernel's recovery adds no entry (the AIL had written every
# block back, and recovery skips their items), so adds is "na" there.
#
# The copies are mounted with nouuid: two copies of an image share its
# UUID, and t0802/t0810/t0890/t0900 may mount the same image meanwhile.
. "$(dirname "$0")/lib/test-lib.sh"
. "$XLS_TOP/tests/lib/images.sh"

. "$XLS_TOP/tests/lib/kmount.sh"

# kscore NAME IMG [LOG]: the walks and files of NAME, its shares in
# NAME.score; fails under 99%.
kscore() {
	name=$1 img=$2 log=${3:-}
	lopt= mopt=loop,nouuid nobefore=
	[ -n "$LOGLOOP" ] && { losetup -d "$LOGLOOP" 2>/dev/null; LOGLOOP=; }
	cp --sparse=always "$img" "$name.a" && cp --sparse=always "$img" "$name.b" || return 1
	if [ -n "$log" ]; then
		cp --sparse=always "$log" "$name.la" && cp --sparse=always "$log" "$name.lb" || return 1
		lopt="--logdev=$log"
		LOGLOOP=$(losetup -f --show "$name.la") || return 1
		mopt=$mopt,logdev=$LOGLOOP
	fi
	# shellcheck disable=SC2086
	"$XLS" files --json $lopt "$img" >"$name.files" || return 1
	mount -t xfs -o "$mopt" "$name.a" "$MNT" || return 1
	root=$(stat -c %i "$MNT") &&
	perl "$XLS_TOP/tests/lib/walk-tree.pl" --stat "$MNT" >"$name.rec" || { umount "$MNT"; return 1; }
	umount "$MNT" || return 1
	[ -n "$LOGLOOP" ] && { losetup -d "$LOGLOOP"; LOGLOOP=; }
	mopt=loop,nouuid,ro,norecovery
	if [ -n "$log" ]; then
		LOGLOOP=$(losetup -f --show "$name.lb") || return 1
		mopt=$mopt,logdev=$LOGLOOP
	fi
	if mount -t xfs -o "$mopt" "$name.b" "$MNT" 2>"$name.nor.err"; then
		perl "$XLS_TOP/tests/lib/walk-tree.pl" "$MNT" >"$name.nor" 2>>"$name.nor.err" ||
			{ nobefore=--no-before; : >"$name.nor"; }
		umount "$MNT" || return 1
	else
		: >"$name.nor"	# no norecovery mount: the disk taken as empty
	fi
	[ -n "$LOGLOOP" ] && { losetup -d "$LOGLOOP"; LOGLOOP=; }
	rm -f "$name.a" "$name.b" "$name.la" "$name.lb"
	# shellcheck disable=SC2086
	perl "$XLS_TOP/tests/lib/files-score.pl" --root "$root" $nobefore --min 99 --show 3 \
		--check-path 20 --xls "$XLS" --img "$img" $lopt \
		"$name.rec" "$name.nor" "$name.files" >"$name.score" 2>"$name.score.err"
}

kmount_probe xfs_io

# The shares of NAME, as TAP comments, whether the test passed or not.
show() {
	[ -f "$1.score" ] || return 0
	sed -n 's/^score /# '"$1"': /p; s/^# miss /#   miss /p; s/^below /#   below /p' "$1.score"
	grep -q 'no norecovery walk' "$1.score" &&
		echo "#   $1: the walk of the norecovery mount failed, adds not scored"
	return 0
}

if $can_mount; then
	for name in dir4k dir64k logsu256k unlinked wrapped sfconv links later reflink pptr pptr64k \
		    sect4k remap; do
		test_expect_success "files: $name, paths, adds and final state against the kernel's recovery" \
			"kscore $name \$(image $name)"
		show $name
	done
	test_expect_success 'files: extlog (external log), paths and adds against the kernel' '
		kscore extlog $(image extlog) $(image extlog-log)
	'
	show extlog
else
	test_skip 'files against the kernel' "$why"
fi
test_done
