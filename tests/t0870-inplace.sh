#!/bin/sh
# replay --in-place, interrupted: killed (SIGKILL) at 100 points spread
# over its writes on each of six journals, or failing a write with EIO or
# ENOSPC, then run again --
# the image must end equal, byte for byte, to an uninterrupted replay -o of
# the same journal; where root and loop devices exist, the kernel's own
# recovery of the interrupted image must equal the kernel's recovery of the
# journal, sector for sector outside the log.  The faults come from
# tests/shim/faultshim.c, preloaded (it shares no code with xfs_logscope).
. "$(dirname "$0")/lib/test-lib.sh"
. "$XLS_TOP/tests/lib/images.sh"

SHIM=$XLS_BUILD/tests/faultshim.so
# an ASan build must not insist on coming first in the preload list
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
export ASAN_OPTIONS

# faulty SPEC CMD...: CMD with the fault SPEC (OP:N:ACTION) on victim files
faulty() {
	spec=$1
	shift
	XLS_FAULT=$spec XLS_FAULT_PATH=victim LD_PRELOAD=$SHIM "$@"
}

. "$XLS_TOP/tests/lib/kmount.sh"
kmount_probe

# victim NAME: fresh copies of the journal's files to replay in place
# (victim.img, and victim-log.img for an external log); prints the
# arguments that read them
victim() {
	cp --sparse=always "$(image "$1")" victim.img || return 1
	case $1 in
	extlog)	cp --sparse=always "$(image extlog-log)" victim-log.img &&
		echo "-l victim-log.img victim.img" ;;
	*)	echo victim.img ;;
	esac
}

# same NAME: the victim's files equal the uninterrupted replay's
same() {
	perl "$XLS_TOP/tests/lib/sparsecmp.pl" victim.img "$1.ref" &&
	{ [ "$1" != extlog ] || perl "$XLS_TOP/tests/lib/sparsecmp.pl" victim-log.img "$1.reflog"; }
}

# kernel_same NAME: the kernel recovers a copy of the victim (as the kill
# left it) to what it recovers the journal to, outside the log
kernel_same() {
	cp --sparse=always victim.img kvictim.img || return 1
	opts=loop,nouuid
	if [ "$1" = extlog ]; then
		cp --sparse=always victim-log.img kvictim-log.img &&
		LOGLOOP=$(losetup -f --show kvictim-log.img) || return 1
		opts=$opts,logdev=$LOGLOOP
	fi
	mount -o "$opts" kvictim.img "$MNT" && umount "$MNT"
	rc=$?
	[ -z "$LOGLOOP" ] || { losetup -d "$LOGLOOP"; LOGLOOP=; }
	[ $rc -eq 0 ] || { echo "the kernel cannot recover it"; return 1; }
	# shellcheck disable=SC2086
	perl "$XLS_TOP/tests/lib/imgcmp.pl" "$1.kref" kvictim.img $(cat "$1.logoff") >/dev/null ||
		{ echo "the kernel recovers something else"; return 1; }
}

# The kernel's recovery of the journal itself, the reference of kernel_same.
kernel_ref() {
	cp --sparse=always "$(image "$1")" "$1.kref" || return 1
	opts=loop,nouuid
	if [ "$1" = extlog ]; then
		cp --sparse=always "$(image extlog-log)" "$1.kreflog" &&
		LOGLOOP=$(losetup -f --show "$1.kreflog") || return 1
		opts=$opts,logdev=$LOGLOOP
		echo "0 0" >"$1.logoff"
	else
		"$XLS" info --json "$(image "$1")" |
			sed -n 's/.*"log_offset":\([0-9]*\).*"log_bytes":\([0-9]*\).*/\1 \2/p' >"$1.logoff"
	fi
	mount -o "$opts" "$1.kref" "$MNT" && umount "$MNT"
	rc=$?
	[ -z "$LOGLOOP" ] || { losetup -d "$LOGLOOP"; LOGLOOP=; }
	return $rc
}

# killed NAME: SIGKILL at 100 points spread over the writes of an in-place
# replay of NAME; after each, a second replay --in-place finishes the same
# image as the uninterrupted replay, and the kernel's recovery of the
# interrupted image (where it can mount) the same as its recovery of the
# journal
killed() {
	name=$1 w=$(cat "$1.writes") bad=0
	for i in $(seq 1 100); do
		k=$(( (i * w + 99) / 100 ))
		args=$(victim "$name") || return 1
		# shellcheck disable=SC2086
		{ faulty "write:$k:kill" "$XLS" replay --in-place $args >/dev/null 2>&1; :; }
		if $can_mount; then
			kernel_same "$name" || { echo "killed at write $k of $w"; bad=1; }
		fi
		# shellcheck disable=SC2086
		"$XLS" replay --in-place $args >/dev/null 2>err ||
			{ echo "killed at write $k of $w: the second replay fails"; cat err; bad=1; }
		same "$name" || { echo "killed at write $k of $w: not the uninterrupted image"; bad=1; }
		[ $bad -eq 0 ] || return 1
	done
}

# failing NAME: a write failing with EIO or ENOSPC at chosen points: exit
# 3 naming the file and the byte, and a second replay finishes the image
failing() {
	name=$1 w=$(cat "$1.writes") bad=0
	for k in 1 $((w / 3)) $((w / 2)) $((w - 1)); do
		for e in eio enospc; do
			args=$(victim "$name") || return 1
			# shellcheck disable=SC2086
			{ faulty "write:$k:$e" "$XLS" replay --in-place $args >out 2>err; rc=$?; }
			[ $rc -eq 3 ] || { echo "$e at write $k: exit $rc"; bad=1; }
			grep -q "cannot write .*victim\(-log\)*.img. at byte [0-9]*: \(Input/output error\|No space left on device\)" err ||
				{ echo "$e at write $k:"; cat err; bad=1; }
			# shellcheck disable=SC2086
			"$XLS" replay --in-place $args >/dev/null && same "$name" ||
				{ echo "$e at write $k: not recovered"; bad=1; }
		done
	done
	test $bad -eq 0
}

# 64 KiB directories, reflink and rmap with CoW staging extents left,
# unlinked inodes (the log left dirty for the kernel), an external log,
# a wrapped log, 4 KiB directories
for name in dir64k reflink unlinked extlog wrapped dir4k; do
	test_expect_success "$name: the reference, and the writes of an in-place replay" "
		lo= && { [ $name != extlog ] || lo='-l $(image extlog-log) --log-out $name.reflog'; } &&
		\"\$XLS\" replay --finish=kernel \$lo -o $name.ref \$(image_args $name) >/dev/null &&
		args=\$(victim $name) &&
		XLS_FAULT_COUNT=$name.count faulty write:0:count \"\$XLS\" replay --in-place \$args >/dev/null &&
		same $name &&
		sed -n 's/.* writes \\([0-9]*\\) .*/\\1/p' $name.count >$name.writes &&
		test \"\$(cat $name.writes)\" -gt 100 &&
		{ ! \$can_mount || kernel_ref $name; }
	"
	test_expect_success "$name: killed at 100 points, replayed again: the same image" "
		killed $name
	"
	test_expect_success "$name: a write failing with EIO or ENOSPC: exit 3, the offset named, recoverable" "
		failing $name
	"
done

test_expect_success '--in-place: the next step names the device, not OUT' '
	args=$(victim unlinked) &&
	"$XLS" replay --in-place $args >out &&
	grep -q "^  next: mount DEV: the kernel finishes the work left" out &&
	"$XLS" replay --in-place --json $args >out.json &&
	grep -q "\"next_step\":\"mount DEV: " out.json
'

test_expect_success '--in-place: refused on a metadump, with -o, when recovery fails; a failed sync is an error' '
	test_expect_code 2 "$XLS" replay --in-place "$XLS_TOP/tests/images/metadump/dir4k.v1ao.md.xz" 2>err &&
	grep -q "metadump, with no filesystem to write into" err &&
	cp --sparse=always $(image dir4k) victim.img &&
	test_expect_code 2 "$XLS" replay --in-place -o x.img victim.img 2>err &&
	cp --sparse=always $(image dirfrag) victim2.img && before=$(sha256sum <victim2.img) &&
	test_expect_code 1 "$XLS" replay --in-place victim2.img 2>err &&
	grep -q "never written in place" err &&
	test "$(sha256sum <victim2.img)" = "$before" &&
	{ faulty sync:1:eio "$XLS" replay --in-place victim.img >/dev/null 2>err; test $? -eq 3; } &&
	grep -q "cannot sync .*victim.img" err
'

test_done
