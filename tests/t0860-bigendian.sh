#!/bin/sh
# Big-endian journals: tests/images/be4k, be64k and beunl hold dirty logs
# written by a big-endian kernel (Debian's s390x kernel under
# qemu-system-s390x; tests/images/mkbe.sh, NAME.txt).  Their log items are
# in the writer's byte order, which a little-endian kernel refuses to
# recover ("dirty log written in incompatible format").
#
# Without mounting (works anywhere): every command decodes them and says
# whose byte order they are in; and replay, on this machine, writes what
# the big-endian kernel's own recovery left, sector for sector outside the
# log (tests/lib/imgcmp.pl, which shares no code with xfs_logscope), sb_lsn
# and sb_crc aside.  The reference is NAME.recovered.delta.xz: the sectors
# of the s390x kernel's recovered copy that differ from NAME.img, outside
# the log (format in mkbe.sh); NAME.img patched with it is that copy.
# beunl leaves work for the next mount (40 inodes unlinked while open):
# pass 3 here (xfsprogs' libxfs) frees them as that kernel's mount does;
# replay --finish=mount leaves the log dirty, and only a big-endian kernel
# can finish it (mkbe.sh checked that the s390x kernel's mount of replay's
# output equals its recovery of the original); --finish=repair cleans the
# log and leaves the inodes to xfs_repair, which frees them otherwise than
# the kernel does (the output differs from the kernel's recovery).
#
# beint (tests/images/mkguestint.sh, beint.txt) was shut down
# (XFS_IOC_GOINGDOWN, LOGFLUSH) halfway through two truncations and a
# reflink on a reflink+rmapbt filesystem: 1 EFI, 2 RUIs, 3 CUIs and 1 BUI
# pending, with an inode unlinked while open and 8 CoW staging extents.
# Pass 3 here (xfsprogs' libxfs 6.13) finishes them all, but the s390x
# kernel is 6.1, whose pass 3 differs from libxfs's in three ways,
# measured on beint with xfs_db -r on the kernel's recovered copy (REF) and
# replay's output (OUT):
#  - the AGFL's length: 6.1's xfs_alloc_min_freelist wants min(level+1,
#    max) blocks per free space and rmap btree, libxfs 2*min(level+1,
#    max)-2 (upstream's fix for AGFL exhaustion): with bnolevel 1,
#    cntlevel 1, rmaplevel 3, 8 blocks against 10, so libxfs refills the
#    AGFL with two more blocks (16639, 16640): AG 0's AGF (fllast, flcount
#    41/8 against 43/10, freeblks 16520 against 16518), AGFL slots 42-43,
#    bnobt and cntbt roots (record [16639,2] free in REF only), and the
#    rmapbt leaf fsb 16574, which has the OWN_AG record [16639,2,-5] in OUT
#    only (record 104, the later ones shifted);
#  - rmapbt node keys: 6.1 keeps the unwritten flag (bit 61 of rm_offset)
#    in the keys, libxfs masks it off when it recomputes them: fsb 16564
#    key 52 (low key), fsb 16635 keys 40 and 41 (high keys): 0x20 in REF
#    and in the dirty image, 0x00 in OUT;
#  - LSN stamps: the kernel's first pass-3 checkpoint is 19 log blocks
#    (9216 bytes at 1/2994), replay's model of it 20: the buffers of the
#    second checkpoint carry lsn 1/3013 (0x100000bc5) in REF, 1/3014 in
#    OUT: AGF, AGI, AGFL, bnobt, cntbt, inobt, finobt roots, the freed
#    inode (0x87), rmapbt fsb 16564, 16565, 16572, 16574, refcountbt 16638.
# Those sectors are known; the test below holds OUT to REF everywhere else.
# The s390x 6.12 kernel's own recovery of beint equals OUT outside the log
# (measured once: the differences are 6.1's pass 3, not replay's), and
# beint12 holds replay to that kernel sector for sector.
#
# beint12 is beint made again (mkguestint.sh, KERNEL_DEB: mkbe.sh) under
# Debian trixie's s390x kernel, 6.12 (beint12.txt): 2 EFIs, 3 RUIs, 3 CUIs
# and 1 BUI pending, an unlinked inode and 8 CoW staging extents.  6.12's
# pass 3 is libxfs 6.13's (the AGFL's length, the rmapbt keys), and its
# first pass-3 checkpoint is as long as replay's model of it (23 log
# blocks): pass 3 here equals that kernel's recovery sector for sector
# outside the log.  (Measured too, not tested: 6.12's recovery of beint,
# the 6.1 kernel's log, equals replay's output of beint sector for sector
# outside the log: beint's known sectors are 6.1's pass 3, not replay's.)
. "$(dirname "$0")/lib/test-lib.sh"

BE_NAMES="be4k be64k beunl beint beint12"

. "$XLS_TOP/tests/lib/delta.sh"

# reference NAME: NAME.ref, the s390x kernel's recovered copy outside the log
reference() { delta_reference "$1" "$1.recovered.delta" "$1.ref"; }

for name in $BE_NAMES; do
	test_expect_success "$name: info: a dirty log in big-endian order" "
		\"\$XLS\" info \$(image $name) >info.$name &&
		grep -q '^state  *dirty\$' info.$name &&
		grep -q '^log_byte_order  *big-endian\$' info.$name &&
		grep -q '^crc_bad  *0\$' info.$name &&
		grep -q '^trans_incomplete  *0\$' info.$name &&
		grep -q '^trans_corrupt  *0\$' info.$name &&
		\"\$XLS\" info --json \$(image $name) | grep -q '\"log_byte_order\":\"big-endian\"'
	"
done

test_expect_success 'decode: records, trans, bufs, stats of each, transactions as info counts them' '
	for name in $BE_NAMES; do
		img=$(image $name) &&
		n=$(sed -n "s/^trans_committed  *//p" info.$name) && test "$n" -gt 0 &&
		"$XLS" trans $img >trans.$name &&
		test "$(grep -c "^trans 0x" trans.$name)" -eq "$n" &&
		"$XLS" trans --json $img >trans.$name.json &&
		test "$(grep -c "^{\"kind\":\"item\"" trans.$name.json)" -eq \
		     "$(sed -n "s/^items  *//p" info.$name)" &&
		! grep -q "\"item\":\"unknown\"" trans.$name.json &&
		"$XLS" records $img >/dev/null &&
		"$XLS" bufs $img >/dev/null &&
		"$XLS" stats $img >/dev/null || { echo "$name"; return 1; }
	done
'

test_expect_success 'recover --summary: recovery succeeds, a big-endian log this kernel refuses' '
	for name in $BE_NAMES; do
		"$XLS" recover --summary $(image $name) >sum.$name &&
		head -1 sum.$name | grep -q "^Verdict: recovery succeeds$" &&
		grep -q "written by a big-endian kernel" sum.$name &&
		grep -q "dirty log written in incompatible format" sum.$name &&
		grep -q "^  log_byte_order  *big-endian$" sum.$name &&
		grep -q "^  trans_corrupt  *0$" sum.$name &&
		grep -q "^  kernel_warnings  *0$" sum.$name || { echo "$name"; return 1; }
	done &&
	grep -q "^  pending_work  *0$" sum.be4k &&
	grep -q "^  pending_work  *0$" sum.be64k &&
	grep -q "^  pending_work  *40$" sum.beunl &&
	grep -q "^  pending_work  *16$" sum.beint &&
	grep -q "^  pending_work  *18$" sum.beint12
'

test_expect_success 'lost and files: what recovery adds, by name' '
	for name in $BE_NAMES; do
		"$XLS" lost $(image $name) >lost.$name &&
		"$XLS" files $(image $name) >files.$name || { echo "$name"; return 1; }
	done &&
	grep -q "^Zeroing the log loses 8702 directory entries added" lost.be64k &&
	grep -q "/out  *moved-8992$" lost.be64k &&
	grep -q " dirent_move  *.*/out/moved-" files.be64k &&
	grep -q " created  *.*/alpha/sub-" files.be4k &&
	grep -q "/beta/renamed-" files.be4k
'

for name in be4k be64k; do
	test_expect_success "$name: replay here equals the big-endian kernel's recovery outside the log" "
		img=\$(image $name) && before=\$(sum_of \$img) &&
		reference $name &&
		\"\$XLS\" replay -o $name.out \$img >$name.replay &&
		grep -q '^Verdict: recovery succeeds\$' $name.replay &&
		grep -q 'log clean, as an unmount leaves it' $name.replay &&
		test \"\$(sum_of \$img)\" = \"\$before\" &&
		\"\$XLS\" info $name.out | grep -q '^state  *clean\$' &&
		perl \"\$XLS_TOP/tests/lib/imgcmp.pl\" $name.ref $name.out \$(logoff_of \$img) &&
		! perl \"\$XLS_TOP/tests/lib/imgcmp.pl\" $name.ref \$img \$(logoff_of \$img) >/dev/null
	"
done

test_expect_success "beunl: replay --finish=mount leaves the unlinked inodes, and the log, to the kernel" '
	img=$(image beunl) && before=$(sum_of $img) &&
	"$XLS" replay --finish=mount -o beunl.out $img >beunl.replay &&
	grep -q "^Verdict: recovery succeeds$" beunl.replay &&
	! grep -q "log clean" beunl.replay &&
	grep -q "next: mount OUT with a kernel of the byte order that wrote the log" beunl.replay &&
	test "$(sum_of $img)" = "$before" &&
	"$XLS" info beunl.out >info.out &&
	grep -q "^state  *dirty$" info.out &&
	grep -q "^log_byte_order  *big-endian$" info.out
'
if "$XLS" --version | grep -q "^pass 3: xfsprogs' libxfs"; then
	test_expect_success "beunl: pass 3 here frees the 40 unlinked inodes: the big-endian kernel's mount, sector for sector" '
		"$XLS" replay -o beunl.p3 $(image beunl) >beunl.p3.replay &&
		grep -q "pass 3, as the kernel.s mount finishes recovery (xfsprogs. libxfs): 40 unlinked inodes inactivated and freed" beunl.p3.replay &&
		grep -q "log clean, as an unmount leaves it" beunl.p3.replay &&
		reference beunl &&
		perl "$XLS_TOP/tests/lib/imgcmp.pl" beunl.ref beunl.p3 $(logoff_of beunl.p3)
	'
else
	test_skip 'beunl: pass 3 here' 'this build has no libxfs (tools/libxfs-config)'
fi
test_expect_success "beint: recover: 1 EFI, 2 RUIs, 3 CUIs, 1 BUI, an unlinked inode and 8 CoW staging extents pending" '
	grep -q "^  16 pieces of work left to finish after replay: 1 EFI, 2 RUIs, 3 CUIs, 1 BUI, 1 unlinked inode (on 1 bucket), 8 CoW staging extents (in 1 AG)$" sum.beint &&
	"$XLS" recover --summary --json $(image beint) >sum.beint.json &&
	for kv in efi:1 rui:2 cui:3 bui:1 xmi:0 attri:0 other_intents:0 unlinked_inodes:1 unlinked_broken:0 cow_extents:8; do
		grep -q "\"pending_${kv%%:*}\":${kv#*:}[,}]" sum.beint.json || { echo "$kv"; return 1; }
	done
'
# AGF, AGI, AGFL; bnobt, cntbt, inobt, finobt roots; the freed inode;
# rmapbt fsb 16564, 16565, 16572, 16574, 16635; refcountbt fsb 16638
# shellcheck disable=SC2034 # used in the tests below (eval)
BEINT_KNOWN="0x1+3 0x8+1 0x10+1 0x18+1 0x20+1 0x87+1 0x205a0+1 0x205a4+1 0x205a8+1
	0x205e0+1 0x205f0+1 0x205f4+2 0x207d8+1 0x207db+1 0x207f0+1"
if "$XLS" --version | grep -q "^pass 3: xfsprogs' libxfs"; then
	test_expect_success "beint: pass 3 here finishes the intents, frees the unlinked inode and the CoW staging extents, log clean" '
		pass3_finished beint "7 intents finished (7 extents named), with the work they defer; 1 unlinked inode inactivated and freed (0 inode chunks and 16 filesystem blocks of data freed with them); 8 CoW staging extents freed (248 filesystem blocks); 10 extents freed in all (265 filesystem blocks)" &&
		grep -q "^log_byte_order  *big-endian$" info.beint.p3
	'
	test_expect_success "beint: pass 3 here equals the s390x 6.1 kernel's outside the log but for the AGFL length, rmapbt keys and LSN stamps" '
		reference beint &&
		! perl "$XLS_TOP/tests/lib/imgcmp.pl" beint.ref $(image beint) $(logoff_of beint.p3) >/dev/null &&
		{ perl "$XLS_TOP/tests/lib/imgcmp.pl" beint.ref beint.p3 $(logoff_of beint.p3) >beint.cmp; true; } &&
		sectors_within beint.cmp $BEINT_KNOWN
	'
else
	test_skip 'beint: pass 3 here' 'this build has no libxfs (tools/libxfs-config)'
fi
test_expect_success "beint12: recover: 2 EFIs, 3 RUIs, 3 CUIs, 1 BUI, an unlinked inode and 8 CoW staging extents pending" '
	grep -q "^  18 pieces of work left to finish after replay: 2 EFIs, 3 RUIs, 3 CUIs, 1 BUI, 1 unlinked inode (on 1 bucket), 8 CoW staging extents (in 1 AG)$" sum.beint12
'
if "$XLS" --version | grep -q "^pass 3: xfsprogs' libxfs"; then
	test_expect_success "beint12: pass 3 here equals the s390x 6.12 kernel's recovery sector for sector outside the log" '
		pass3_finished beint12 "9 intents finished (9 extents named), with the work they defer; 1 unlinked inode inactivated and freed (0 inode chunks and 16 filesystem blocks of data freed with them); 8 CoW staging extents freed (248 filesystem blocks); 11 extents freed in all (266 filesystem blocks)" &&
		img=$(image beint12) &&
		reference beint12 &&
		! perl "$XLS_TOP/tests/lib/imgcmp.pl" beint12.ref $img $(logoff_of $img) >/dev/null &&
		perl "$XLS_TOP/tests/lib/imgcmp.pl" beint12.ref beint12.p3 $(logoff_of $img)
	'
else
	test_skip 'beint12: pass 3 here' 'this build has no libxfs (tools/libxfs-config)'
fi
test_expect_success "beunl: replay --finish=repair cleans the log, the work left to xfs_repair" '
	"$XLS" replay --finish=repair -o beunl.rep $(image beunl) >beunl.replay &&
	grep -q "log clean, as an unmount leaves it" beunl.replay &&
	grep -q "next: run xfs_repair" beunl.replay &&
	"$XLS" info beunl.rep | grep -q "^state  *clean$" &&
	reference beunl &&
	! perl "$XLS_TOP/tests/lib/imgcmp.pl" beunl.ref beunl.rep $(logoff_of beunl.rep) >/dev/null
'

# shellcheck source-path=SCRIPTDIR source=lib/kmount.sh
. "$XLS_TOP/tests/lib/kmount.sh"
kmount_probe
if $can_mount && test -f beint.p3; then
	test_expect_success "kernel: refuses beint's big-endian dirty log, mounts replay's output read-only" '
		cp --sparse=always $(image beint) beint.k &&
		! mount -o loop,nouuid beint.k "$MNT" 2>/dev/null &&
		cp --sparse=always beint.p3 beint.p3.k &&
		mount -o loop,ro,nouuid beint.p3.k "$MNT" &&
		test -f "$MNT/d/copy2" && ! test -e "$MNT/d/held" &&
		umount "$MNT"
	'
else
	test_skip "kernel: beint and replay's output mounted here" "${why:-no pass 3 output}"
fi

test_done
