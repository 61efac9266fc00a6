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
# i386int (tests/images/mkguestint.sh, i386int.txt; no quota) was shut
# down (XFS_IOC_GOINGDOWN, LOGFLUSH) halfway through two truncations and a
# reflink on a reflink+rmapbt filesystem: 2 EFIs (12-byte i386 extents),
# 2 RUIs, 2 CUIs and 1 BUI pending, with an inode unlinked while open and
# 8 CoW staging extents.  Pass 3 here (xfsprogs' libxfs 6.13) finishes
# them all, but the i386 kernel is 6.1, whose pass 3 differs from
# libxfs's in two ways, measured with xfs_db -r on the kernel's recovered
# copy (REF) and replay's output (OUT) (t0860 has the same on beint):
#  - the AGFL's length: 6.1's xfs_alloc_min_freelist wants min(level+1,
#    max) blocks per free space and rmap btree, libxfs 2*min(level+1,
#    max)-2: with bnolevel 1, cntlevel 1, rmaplevel 3, 8 blocks against
#    10, so libxfs refills the AGFL with two more (16650, 16651): AG 0's
#    AGF (fllast/flcount 43/8 against 45/10, freeblks 16814 against
#    16812), AGFL slots, bnobt and cntbt roots (record [16650,2] free in
#    REF only), rmapbt OWN_AG record 120 of fsb 16570, [16647,3] (REF)
#    against [16647,5] (OUT);
#  - rmapbt node keys: 6.1 keeps the unwritten flag (bit 61 of rm_offset)
#    in the keys, libxfs masks it off when it recomputes them: fsb 8 keys
#    10 and 11 (high keys), fsb 16564 key 51 (low key): 0x20 in REF and in
#    the dirty image, 0x00 in OUT.
# Its LSN stamps agree (the kernel's first pass-3 checkpoint is 33 log
# blocks, as replay's model of it).  Those sectors are known; the test
# holds OUT to REF everywhere else.  Debian has no i386 kernel newer than
# 6.1 (trixie dropped it), so no reference of libxfs 6.13's pass 3 here.
#
# As root with loop devices (skipped otherwise): this machine's kernel
# mounts i386q's and i386int's replay outputs read-only, which it can only
# do without recovery.
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

test_expect_success "i386int: info and recover: i386 CRCs good; 2 EFIs, 2 RUIs, 2 CUIs, 1 BUI, an unlinked inode and 8 CoW staging extents pending" '
	img=$(image i386int) &&
	"$XLS" info $img >info.i386int &&
	grep -q "^state  *dirty$" info.i386int &&
	grep -q "^log_byte_order  *little-endian$" info.i386int &&
	grep -q "^crc_bad  *0$" info.i386int &&
	grep -q "^trans_corrupt  *0$" info.i386int &&
	n=$(sed -n "s/^records  *//p" info.i386int) && test "$n" -gt 0 &&
	test "$("$XLS" records --json $img | grep -c "\"crc_status\":\"i386\"")" -eq "$n" &&
	"$XLS" trans --json $img >trans.i386int.json &&
	! grep -q "\"item\":\"unknown\"" trans.i386int.json &&
	"$XLS" recover --summary $img >sum.i386int &&
	head -1 sum.i386int | grep -q "^Verdict: recovery succeeds$" &&
	grep -q "^  16 pieces of work left to finish after replay: 2 EFIs, 2 RUIs, 2 CUIs, 1 BUI, 1 unlinked inode (on 1 bucket), 8 CoW staging extents (in 1 AG)$" sum.i386int &&
	grep -q "^  kernel_warnings  *0$" sum.i386int &&
	"$XLS" recover --summary --json $img >sum.i386int.json &&
	for kv in efi:2 rui:2 cui:2 bui:1 xmi:0 attri:0 other_intents:0 unlinked_inodes:1 unlinked_broken:0 cow_extents:8; do
		grep -q "\"pending_${kv%%:*}\":${kv#*:}[,}]" sum.i386int.json || { echo "$kv"; return 1; }
	done
'
# AGF, AGFL; bnobt, cntbt roots; rmapbt fsb 8, 16564, 16570
# shellcheck disable=SC2034 # used in the tests below (eval)
I386INT_KNOWN="0x1+1 0x3+1 0x8+1 0x10+1 0x40+1 0x205a0+1 0x205a4+1 0x205d0+1 0x205d5+1"
if "$XLS" --version | grep -q "^pass 3: xfsprogs' libxfs"; then
	test_expect_success "i386int: pass 3 here finishes the intents, frees the unlinked inode and the CoW staging extents, log clean" '
		pass3_finished i386int "7 intents finished (7 extents named), with the work they defer; 1 unlinked inode inactivated and freed (0 inode chunks and 16 filesystem blocks of data freed with them); 8 CoW staging extents freed (248 filesystem blocks); 11 extents freed in all (266 filesystem blocks)"
	'
	test_expect_success "i386int: pass 3 here equals the i386 6.1 kernel's outside the log but for the AGFL length and rmapbt keys" '
		delta_reference i386int i386int.recovered.delta i386int.ref &&
		! perl "$XLS_TOP/tests/lib/imgcmp.pl" i386int.ref $(image i386int) $(logoff_of i386int.p3) >/dev/null &&
		{ perl "$XLS_TOP/tests/lib/imgcmp.pl" i386int.ref i386int.p3 $(logoff_of i386int.p3) >i386int.cmp; true; } &&
		sectors_within i386int.cmp $I386INT_KNOWN
	'
else
	test_skip 'i386int: pass 3 here' 'this build has no libxfs (tools/libxfs-config)'
fi

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
	test_expect_success "kernel: i386q's and i386int's replay outputs, mounted read-only without recovery" '
		outs="i386q.out i386q.nq.out" && { ! test -f i386int.p3 || outs="$outs i386int.p3"; } &&
		for out in $outs; do
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
