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
# replay --finish=mount leaves the log dirty, and only a big-endian kernel
# can finish it (mkbe.sh checked that the s390x kernel's mount of replay's
# output equals its recovery of the original); --finish=repair cleans the
# log and leaves the inodes to xfs_repair, which frees them otherwise than
# the kernel does (the output differs from the kernel's recovery).
. "$(dirname "$0")/lib/test-lib.sh"

BE_NAMES="be4k be64k beunl"

logoff_of() {
	"$XLS" info --json "$1" |
		sed -n 's/.*"log_offset":\([0-9]*\).*"log_bytes":\([0-9]*\).*/\1 \2/p'
}
sum_of() { sha256sum "$1" | cut -d' ' -f1; }

# applydelta.pl IMG DELTA: patch IMG (a copy of NAME.img) into the kernel's
# recovered copy outside the log; prints the runs and sectors patched
cat >applydelta.pl <<'EOF_PL'
use strict;
use warnings;
my ($img, $delta) = @ARGV;
open(my $o, '+<:raw', $img) or die "$img: $!\n";
open(my $d, '<:raw', $delta) or die "$delta: $!\n";
my $h = <$d>;
my ($size, $logoff, $loglen) = $h =~ /^xls-imgdelta 1 (\d+) (\d+) (\d+)\n$/ or die "$delta: bad header\n";
$size == -s $img or die "$delta: for an image of $size bytes\n";
my ($runs, $secs, $end) = (0, 0, 0);
while (my $l = <$d>) {
	if ($l eq "end\n") { $end = 1; last; }
	my ($daddr, $n) = $l =~ /^(\d+) (\d+)\n$/ or die "$delta: bad record\n";
	my ($at, $len) = (512 * $daddr, 512 * $n);
	$at + $len <= $size or die "$delta: past the end\n";
	$at + $len <= $logoff || $at >= $logoff + $loglen or die "$delta: inside the log\n";
	read($d, my $buf, $len) == $len or die "$delta: short\n";
	sysseek($o, $at, 0);
	syswrite($o, $buf) == $len or die "$img: $!\n";
	$runs++;
	$secs += $n;
}
$end && !defined(<$d>) or die "$delta: no end, or bytes after it\n";
print "$runs $secs\n";
EOF_PL

# reference NAME: NAME.ref, the s390x kernel's recovered copy outside the log
reference() {
	cp --sparse=always "$(image "$1")" "$1.ref" &&
	xz -dc "$IMAGES/$1.recovered.delta.xz" >"$1.delta" &&
	perl applydelta.pl "$1.ref" "$1.delta" >"$1.patched" &&
	read -r runs secs <"$1.patched" && test "$runs" -gt 0 && test "$secs" -gt 0
}

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
test_expect_success "beunl: replay --finish=repair cleans the log, the work left to xfs_repair" '
	"$XLS" replay --finish=repair -o beunl.rep $(image beunl) >beunl.replay &&
	grep -q "log clean, as an unmount leaves it" beunl.replay &&
	grep -q "next: run xfs_repair" beunl.replay &&
	"$XLS" info beunl.rep | grep -q "^state  *clean$" &&
	reference beunl &&
	! perl "$XLS_TOP/tests/lib/imgcmp.pl" beunl.ref beunl.rep $(logoff_of beunl.rep) >/dev/null
'

test_done
