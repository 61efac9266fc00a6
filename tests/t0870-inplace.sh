#!/bin/sh
# replay --in-place, interrupted: killed (SIGKILL) at 100 points spread
# over its writes on each of six journals, and at 100 points spread over
# the writes of its pass 3 on the journals with work left for it, or
# failing a write with EIO or ENOSPC, then run again --
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

# Kill points per journal: 100; the sanitizer build's run (make check-asan,
# XLS_KILLS=20), which looks for memory errors rather than for the points
# themselves, takes fewer.
kills=${XLS_KILLS:-100}

# kill_at_points NAME FROM TO: SIGKILL at $kills points spread over writes
# FROM+1..TO of an in-place replay of NAME; after each, a second replay
# --in-place finishes the same image as the uninterrupted replay, and the
# kernel's recovery of the interrupted image (where it can mount) the same
# as its recovery of the journal
kill_at_points() {
	name=$1 from=$2 w=$3 bad=0
	[ "$w" -gt "$from" ] || { echo "no writes past $from of $w"; return 1; }
	for i in $(seq 1 "$kills"); do
		k=$(( from + (i * (w - from) + kills - 1) / kills ))
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

# killed NAME: over all its writes
killed() {
	kill_at_points "$1" 0 "$(cat "$1.writes")"
}

# killed_pass3 NAME: over pass 3's writes alone -- its checkpoints logged,
# its blocks, the clean log -- those of an in-place replay past those of
# one that leaves the work to the kernel
killed_pass3() {
	kill_at_points "$1" "$(cat "$1.writes2")" "$(cat "$1.writes")"
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

# pass 3 here, or the work left to the kernel when this build has no libxfs
if "$XLS" --version | grep -q "^pass 3: xfsprogs' libxfs"; then
	pass3=true
else
	pass3=false
fi

# 64 KiB directories, reflink and rmap with CoW staging extents left,
# unlinked inodes, an external log, a wrapped log, 4 KiB directories
for name in dir64k reflink unlinked extlog wrapped dir4k; do
	test_expect_success "$name: the reference, and the writes of an in-place replay" "
		lo= && { [ $name != extlog ] || lo='-l $(image extlog-log) --log-out $name.reflog'; } &&
		\"\$XLS\" replay \$lo -o $name.ref \$(image_args $name) >/dev/null &&
		args=\$(victim $name) &&
		XLS_FAULT_COUNT=$name.count faulty write:0:count \"\$XLS\" replay --in-place \$args >/dev/null &&
		same $name &&
		sed -n 's/.* writes \\([0-9]*\\) .*/\\1/p' $name.count >$name.writes &&
		test \"\$(cat $name.writes)\" -gt 100 &&
		{ ! \$can_mount || kernel_ref $name; }
	"
	test_expect_success "$name: killed at $kills points, replayed again: the same image" "
		killed $name
	"
	test_expect_success "$name: a write failing with EIO or ENOSPC: exit 3, the offset named, recoverable" "
		failing $name
	"
done

# pass 3 interrupted: intents, unlinked inodes and CoW leftovers in one
# log; the unlinked inodes; the CoW staging extents; a file mapping
# exchange (XMI); a parent pointer update (ATTRI); a checkpoint that wraps
# past the physical end of the log
for name in intents2 unlinked reflink xmi attri p3wrap; do
	if ! $pass3; then
		test_skip "$name: pass 3 in place, killed" 'this build has no libxfs (tools/libxfs-config)'
		continue
	fi
	test_expect_success "$name: pass 3 in place logs its checkpoints first: the writes of each step" "
		rm -f $name.ref && \"\$XLS\" replay -o $name.ref \$(image $name) >/dev/null &&
		args=\$(victim $name) &&
		XLS_FAULT_COUNT=$name.count faulty write:0:count \"\$XLS\" replay --in-place \$args >out &&
		grep -q 'pass 3, as the kernel.s mount finishes recovery' out &&
		grep -q 'logged first' out &&
		same $name &&
		sed -n 's/.* writes \\([0-9]*\\) .*/\\1/p' $name.count >$name.writes &&
		args=\$(victim $name) &&
		XLS_FAULT_COUNT=$name.count2 faulty write:0:count \"\$XLS\" replay --in-place --finish=kernel \$args >/dev/null &&
		sed -n 's/.* writes \\([0-9]*\\) .*/\\1/p' $name.count2 >$name.writes2 &&
		{ ! \$can_mount || kernel_ref $name; }
	"
	test_expect_success "$name: killed at $kills points of pass 3, replayed again: the same image" "
		killed_pass3 $name
	"
done

test_expect_success '--in-place --finish=kernel: the next step names the device, not OUT' '
	args=$(victim unlinked) &&
	"$XLS" replay --in-place --finish=kernel $args >out &&
	grep -q "^  next: mount DEV: the kernel finishes the work left" out &&
	args=$(victim unlinked) &&
	"$XLS" replay --in-place --finish=kernel --json $args >out.json &&
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
