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
. "$(dirname "$0")/lib/test-lib.sh"

BE_NAMES="be4k be64k beunl"

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
	grep -q "^  pending_work  *40$" sum.beunl
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
test_expect_success "beunl: replay --finish=repair cleans the log, the work left to xfs_repair" '
	"$XLS" replay --finish=repair -o beunl.rep $(image beunl) >beunl.replay &&
	grep -q "log clean, as an unmount leaves it" beunl.replay &&
	grep -q "next: run xfs_repair" beunl.replay &&
	"$XLS" info beunl.rep | grep -q "^state  *clean$" &&
	reference beunl &&
	! perl "$XLS_TOP/tests/lib/imgcmp.pl" beunl.ref beunl.rep $(logoff_of beunl.rep) >/dev/null
'

test_done
