#!/bin/sh
# i386 journals with quota: tests/images/i386q (v5) and i386v4q (v4,
# mkfs -m crc=0) hold dirty logs written by a 32-bit x86 kernel (Debian's
# 686 kernel under qemu-system-i386; tests/images/mki386.sh, NAME.txt),
# mounted uquota,gquota: their record headers carry the i386 CRC (over 324
# bytes), and their logs carry dquot items.
#
# Without mounting (works anywhere): info and records read the i386 CRCs
# as good; recover says what a mount with the superblock's quota
# (uquota,gquota) recovers, or, with --quota=noquota, one without quota
# options (the dquot items skipped, the quota flags reset); and replay, on
# this machine, writes what the i386 kernel's own recovery left, sector for
# sector outside the log (tests/lib/imgcmp.pl, which shares no code with
# xfs_logscope), sb_lsn and sb_crc aside: by default the recovery mounted
# uquota,gquota (NAME.recovered.delta.xz), with --quota=noquota the
# recovery without quota options (NAME.noquota.delta.xz).  Both deltas are
# the sectors of the kernel's recovered copy that differ from NAME.img,
# outside the log (format in mkbe.sh).  Quota types other than the
# superblock's (pquota here) are refused: the kernel would change the
# quota state, which replay does not model.
#
# As root with loop devices (skipped otherwise): this machine's kernel
# mounts i386q's replay outputs read-only, which it can only do without
# recovery.
# shellcheck source-path=SCRIPTDIR source=lib/test-lib.sh
. "$(dirname "$0")/lib/test-lib.sh"

I386_NAMES="i386q i386v4q"

. "$XLS_TOP/tests/lib/delta.sh"

# reference NAME KIND: NAME.KIND.ref, the i386 kernel's recovered copy
# outside the log; KIND recovered (mounted uquota,gquota) or noquota
reference() { delta_reference "$1" "$1.$2.delta" "$1.$2.ref"; }

for name in $I386_NAMES; do
	test_expect_success "$name: info: a dirty log, every record's i386 CRC good" "
		\"\$XLS\" info \$(image $name) >info.$name &&
		grep -q '^state  *dirty\$' info.$name &&
		grep -q '^log_byte_order  *little-endian\$' info.$name &&
		grep -q '^crc_bad  *0\$' info.$name &&
		grep -q '^bad_headers  *0\$' info.$name &&
		grep -q '^trans_incomplete  *0\$' info.$name &&
		grep -q '^trans_corrupt  *0\$' info.$name &&
		n=\$(sed -n 's/^records  *//p' info.$name) && test \"\$n\" -gt 0 &&
		\"\$XLS\" records \$(image $name) >records.$name &&
		test \"\$(awk 'NR > 1 && \$8 == \"i386\"' records.$name | wc -l)\" -eq \"\$n\" &&
		test \"\$(\"\$XLS\" records --json \$(image $name) | grep -c '\"crc_status\":\"i386\"')\" -eq \"\$n\"
	"
done

test_expect_success 'v5 and v4: the superblock versions the images were made with' '
	grep -q "^sb_version  *5$" info.i386q &&
	grep -q "^crc  *yes$" info.i386q &&
	grep -q "^sb_version  *4$" info.i386v4q &&
	grep -q "^crc  *no$" info.i386v4q
'

for name in $I386_NAMES; do
	test_expect_success "$name: recover --summary: recovery succeeds, as a mount with the superblock's uquota,gquota" "
		\"\$XLS\" recover --summary \$(image $name) >sum.$name &&
		head -1 sum.$name | grep -q '^Verdict: recovery succeeds\$' &&
		grep -q '^  quota: as a mount with uquota,gquota recovers it: dquot items and buffers replayed' sum.$name &&
		grep -q '^  quota_mount  *uquota,gquota\$' sum.$name &&
		grep -q '^  quota_reset  *no\$' sum.$name &&
		grep -q '^  skip_quotaoff  *0\$' sum.$name &&
		grep -q '^  trans_corrupt  *0\$' sum.$name &&
		grep -q '^  kernel_warnings  *0\$' sum.$name &&
		grep -q '^  pending_work  *0\$' sum.$name &&
		\"\$XLS\" recover --summary --json \$(image $name) >sum.$name.json &&
		grep -q '\"quota_mount\":\"uquota,gquota\",\"quota_reset\":false,' sum.$name.json
	"
	test_expect_success "$name: recover --quota=noquota: the dquot items skipped, the quota flags reset" "
		\"\$XLS\" recover --summary --json --quota=noquota \$(image $name) >nq.$name.json &&
		grep -q '\"quota_mount\":\"noquota\",\"quota_reset\":true,' nq.$name.json &&
		grep -q '\"recovery_fails\":false,' nq.$name.json &&
		grep -q '\"skip_quotaoff\":[1-9]' nq.$name.json &&
		\"\$XLS\" recover --summary --quota=noquota \$(image $name) >nq.$name &&
		head -1 nq.$name | grep -q '^Verdict: recovery succeeds\$' &&
		grep -q '^  quota: as a mount without quota options recovers it: dquot items and buffers not replayed, the superblock.s quota flags reset (\"resetting quota flags\")' nq.$name
	"
done

for name in $I386_NAMES; do
	test_expect_success "$name: replay here equals the i386 kernel's recovery mounted uquota,gquota, outside the log" "
		img=\$(image $name) && before=\$(sum_of \$img) &&
		reference $name recovered && reference $name noquota &&
		\"\$XLS\" replay -o $name.out \$img >$name.replay &&
		grep -q '^Verdict: recovery succeeds\$' $name.replay &&
		grep -q '^  quota: as a mount with uquota,gquota recovers it' $name.replay &&
		grep -q 'log clean, as an unmount leaves it' $name.replay &&
		test \"\$(sum_of \$img)\" = \"\$before\" &&
		\"\$XLS\" info $name.out >info.$name.out &&
		grep -q '^state  *clean\$' info.$name.out &&
		grep -q '^crc_bad  *0\$' info.$name.out &&
		perl \"\$XLS_TOP/tests/lib/imgcmp.pl\" $name.recovered.ref $name.out \$(logoff_of \$img) &&
		! perl \"\$XLS_TOP/tests/lib/imgcmp.pl\" $name.noquota.ref $name.out \$(logoff_of \$img) >/dev/null &&
		! perl \"\$XLS_TOP/tests/lib/imgcmp.pl\" $name.recovered.ref \$img \$(logoff_of \$img) >/dev/null
	"
	test_expect_success "$name: replay --quota=noquota equals its recovery without quota options, outside the log" "
		img=\$(image $name) && before=\$(sum_of \$img) &&
		\"\$XLS\" replay --quota=noquota -o $name.nq.out \$img >$name.nq.replay &&
		grep -q '^Verdict: recovery succeeds\$' $name.nq.replay &&
		grep -q 'resetting quota flags' $name.nq.replay &&
		grep -q 'log clean, as an unmount leaves it' $name.nq.replay &&
		test \"\$(sum_of \$img)\" = \"\$before\" &&
		\"\$XLS\" info $name.nq.out | grep -q '^state  *clean\$' &&
		perl \"\$XLS_TOP/tests/lib/imgcmp.pl\" $name.noquota.ref $name.nq.out \$(logoff_of \$img) &&
		! perl \"\$XLS_TOP/tests/lib/imgcmp.pl\" $name.recovered.ref $name.nq.out \$(logoff_of \$img) >/dev/null
	"
	# the superblock's types, named otherwise: the same output
	test_expect_success "$name: replay --quota=usrquota,grpquota writes what the default writes" "
		\"\$XLS\" replay --quota=usrquota,grpquota -o $name.ug.out \$(image $name) >/dev/null &&
		cmp $name.out $name.ug.out && rm -f $name.ug.out
	"
done

test_expect_success 'quota types other than the superblock has on, and bad words: refused (exit 2), nothing written' '
	for name in $I386_NAMES; do
		img=$(image $name) &&
		test_expect_code 2 "$XLS" replay --quota=pquota -o $name.pq.out $img 2>err &&
		grep -q "quota types differ from those the superblock has on" err &&
		! test -e $name.pq.out &&
		test_expect_code 2 "$XLS" recover --summary --quota=pquota $img >/dev/null 2>err &&
		grep -q "quota types differ from those the superblock has on" err &&
		test_expect_code 2 "$XLS" replay --quota=bogus -o $name.bg.out $img 2>err &&
		grep -q "bad --quota .bogus." err &&
		! test -e $name.bg.out &&
		test_expect_code 2 "$XLS" recover --summary --quota=bogus $img >/dev/null 2>/dev/null ||
			{ echo "$name"; return 1; }
	done
'

# shellcheck source=lib/kmount.sh
. "$XLS_TOP/tests/lib/kmount.sh"

kmount_probe

# kmount_ro IMG: the kernel mounts IMG read-only from a read-only loop
# device, which it can only do without recovery, and unmounts it; what it
# logs about that device goes to IMG.kmsg (other tests mount at the same
# time)
kmount_ro() {
	dev=$(losetup -r -f --show "$1") || return 1
	marker="xls-t0861-$$-$(date +%s%N)"
	[ -w /dev/kmsg ] && echo "$marker" >/dev/kmsg
	mount -t xfs -o ro,nouuid "$dev" "$MNT" && umount "$MNT"
	rc=$?
	dmesg 2>/dev/null | sed -n "/$marker/,\$p" | grep -F "(${dev#/dev/})" >"$1.kmsg"
	losetup -d "$dev"
	return "$rc"
}

if $can_mount; then
	test_expect_success "kernel: i386q's replay outputs, mounted read-only without recovery" '
		for out in i386q.out i386q.nq.out; do
			cp --sparse=always $out $out.ro &&
			kmount_ro $out.ro || { echo "$out: the kernel refuses it read-only"; cat $out.ro.kmsg; return 1; }
			! grep -q "Starting recovery" $out.ro.kmsg ||
				{ echo "$out: the kernel recovers it"; cat $out.ro.kmsg; return 1; }
			# when dmesg shows what the kernel said: a clean mount
			test ! -s $out.ro.kmsg || grep -q "Ending clean mount" $out.ro.kmsg ||
				{ echo "$out: no clean mount"; cat $out.ro.kmsg; return 1; }
			rm -f $out.ro
		done
	'
else
	test_skip "i386q's replay outputs mounted by this kernel" "$why"
fi

test_done
