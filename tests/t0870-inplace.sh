#!/bin/sh
# replay --in-place, interrupted: killed (SIGKILL) at 100 points spread
# over its writes, or failing a write with EIO or ENOSPC, then run again --
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

for name in dir4k wrapped; do
	img=$(image "$name")
	test_expect_success "$name: the reference, and the writes of an in-place replay" "
		\"\$XLS\" replay -o $name.ref $img >/dev/null &&
		cp --sparse=always $img victim.img &&
		XLS_FAULT_COUNT=$name.count faulty write:0:count \"\$XLS\" replay --in-place victim.img >/dev/null &&
		perl \"\$XLS_TOP/tests/lib/sparsecmp.pl\" victim.img $name.ref &&
		sed -n 's/.* writes \\([0-9]*\\) .*/\\1/p' $name.count >$name.writes &&
		test \"\$(cat $name.writes)\" -gt 100
	"
	if $can_mount; then
		logoff=$("$XLS" info --json "$img" |
			 sed -n 's/.*"log_offset":\([0-9]*\).*"log_bytes":\([0-9]*\).*/\1 \2/p')
		cp --sparse=always "$img" "$name.kref" &&
			mount -o loop,nouuid "$name.kref" "$MNT" && umount "$MNT"
	fi
	# killed at 50 points of each journal: the next replay, and the kernel,
	# finish the same filesystem
	test_expect_success "$name: killed at 50 points, replayed again: the same image" "
		w=\$(cat $name.writes) && bad=0 &&
		for i in \$(seq 1 50); do
			k=\$(( (i * w + 49) / 50 ))
			cp --sparse=always $img victim.img &&
			{ faulty write:\$k:kill \"\$XLS\" replay --in-place victim.img >/dev/null 2>&1; :; }
			$can_mount && cp --sparse=always victim.img kvictim.img
			\"\$XLS\" replay --in-place victim.img >/dev/null 2>err ||
				{ echo \"killed at write \$k: the second replay fails\"; cat err; bad=1; }
			perl \"\$XLS_TOP/tests/lib/sparsecmp.pl\" victim.img $name.ref ||
				{ echo \"killed at write \$k: not the uninterrupted image\"; bad=1; }
			if $can_mount; then
				{ mount -o loop,nouuid kvictim.img \"\$MNT\" && umount \"\$MNT\"; } ||
					{ echo \"killed at write \$k: the kernel cannot recover it\"; bad=1; }
				perl \"\$XLS_TOP/tests/lib/imgcmp.pl\" $name.kref kvictim.img \$logoff >/dev/null ||
					{ echo \"killed at write \$k: the kernel recovers something else\"; bad=1; }
			fi
			[ \$bad -eq 0 ] || break
		done &&
		test \$bad -eq 0
	"
	test_expect_success "$name: a write failing with EIO or ENOSPC: exit 3, the offset named, recoverable" "
		w=\$(cat $name.writes) && bad=0 &&
		for k in 1 \$((w / 3)) \$((w / 2)) \$((w - 1)); do
			for e in eio enospc; do
				cp --sparse=always $img victim.img &&
				{ faulty write:\$k:\$e \"\$XLS\" replay --in-place victim.img >out 2>err; rc=\$?; }
				[ \$rc -eq 3 ] || { echo \"\$e at write \$k: exit \$rc\"; bad=1; }
				grep -q \"cannot write .*victim.img. at byte [0-9]*: \\(Input/output error\\|No space left on device\\)\" err ||
					{ echo \"\$e at write \$k:\"; cat err; bad=1; }
				\"\$XLS\" replay --in-place victim.img >/dev/null &&
				perl \"\$XLS_TOP/tests/lib/sparsecmp.pl\" victim.img $name.ref || { echo \"\$e at write \$k: not recovered\"; bad=1; }
			done
		done &&
		test \$bad -eq 0
	"
done

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
