#!/bin/sh
# replay: the filesystem as kernel log recovery leaves it, written without
# mounting.
#
# Part 1, anywhere: what replay refuses, and what its output holds by the
# tool's own account and by independent readings (the superblock counters
# summed from the AG headers by perl; the input's checksum unchanged).
#
# Part 2, as root with loop devices (skipped otherwise): for each bundled
# dirty image and for journals this kernel writes now, a copy is mounted
# and unmounted by the kernel, and replay's output must equal it sector for
# sector outside the log (tests/lib/imgcmp.pl, which shares no code with
# xfs_logscope), sb_lsn and sb_crc aside; the kernel must mount the output
# without recovery and xfs_repair -n find nothing.  With work pending
# (unlinked inodes), the output, mounted and unmounted, must equal the
# kernel's copy.  The failing journal: no output without --force; with it
# and xfs_repair, no fewer entries than xfs_repair -L keeps.
. "$(dirname "$0")/lib/test-lib.sh"
. "$XLS_TOP/tests/lib/images.sh"

sum_of() { sha256sum "$1" | cut -d' ' -f1; }

test_expect_success 'replay: usage errors and refusals, nothing written' '
	mkdir out && : >out/exists &&
	test_expect_code 2 "$XLS" replay $(image dir4k) 2>err && grep -q "needs -o OUT" err &&
	test_expect_code 2 "$XLS" replay -o out/exists $(image dir4k) 2>err &&
	grep -q "exists: xfs_logscope never overwrites" err &&
	"$XLS" copy $(image dir4k) bare.log >/dev/null &&
	test_expect_code 2 "$XLS" replay -f -o out/x bare.log 2>err && grep -q "bare log" err &&
	test_expect_code 2 "$XLS" replay -l $(image extlog-log) -o out/x $(image extlog) 2>err &&
	grep -q "log-out OUTLOG" err &&
	test_expect_code 2 "$XLS" replay --log-out out/l -o out/x $(image dir4k) 2>err &&
	test_expect_code 1 "$XLS" replay -o out/frag $(image dirfrag) 2>err &&
	grep -q "the kernel fails to recover this log .*nothing written" err &&
	test "$(ls -A out)" = exists
'

# the summary counters, summed from the AG headers by an independent reader
cat >sbsum.pl <<'EOF_PL'
use strict;
use warnings;
open(my $f, '<:raw', $ARGV[0]) or die "$ARGV[0]: $!\n";
sub rd { my ($off, $len) = @_; sysseek($f, $off, 0); sysread($f, my $b, $len) == $len or die; $b }
my $sb = rd(0, 512);
my ($bsize, $agblocks, $agcount) = (unpack('N', substr($sb, 4, 4)), unpack('N', substr($sb, 84, 4)),
				    unpack('N', substr($sb, 88, 4)));
my $sect = unpack('n', substr($sb, 102, 2));
my ($ic, $if, $fd) = (0, 0, 0);
for my $ag (0 .. $agcount - 1) {
	my $base = $ag * $agblocks * $bsize;
	my $agf = rd($base + $sect, 512);
	my $agi = rd($base + 2 * $sect, 512);
	$fd += unpack('N', substr($agf, 52, 4)) + unpack('N', substr($agf, 48, 4)) +
	       unpack('N', substr($agf, 60, 4));	# freeblks, flcount, btreeblks
	$ic += unpack('N', substr($agi, 16, 4));	# agi_count
	$if += unpack('N', substr($agi, 28, 4));	# agi_freecount
}
my @sb = map { unpack('Q>', substr($sb, $_, 8)) } 128, 136, 144;
print "sb $sb[0] $sb[1] $sb[2] ag $ic $if $fd\n";
exit($sb[0] == $ic && $sb[1] == $if && $sb[2] == $fd ? 0 : 1);
EOF_PL

test_expect_success 'replay dir4k: a clean log, the counters of its AG headers, the input untouched' '
	before=$(sum_of $(image dir4k)) &&
	"$XLS" replay -o d4.out $(image dir4k) >out.txt &&
	grep -q "^Verdict: recovery succeeds$" out.txt &&
	grep -q "log clean, as an unmount leaves it" out.txt &&
	test "$(sum_of $(image dir4k))" = "$before" &&
	"$XLS" info d4.out | grep -q "^state  *clean$" &&
	"$XLS" recover --summary d4.out | head -1 | grep -q "nothing to recover" &&
	perl sbsum.pl d4.out &&
	test "$(stat -c %s d4.out)" = "$(stat -c %s $(image dir4k))"
'
# census NAME IMG: the work left for pass 3 that recover, lost and replay
# count (the same keys, the same values), against tests/lib/pending-ref.pl's
# reading of replay's output, which shares no code with xfs_logscope
census() {
	name=$1 img=$2
	rm -f "$name.cen.out"
	# before pass 3: the work it finishes is what is counted
	"$XLS" replay --finish=kernel --json -o "$name.cen.out" "$img" >"$name.cen.replay" || return 1
	"$XLS" recover --summary --json "$img" >"$name.cen.recover" || return 1
	"$XLS" lost --json "$img" 2>/dev/null | grep "\"kind\":\"lost_summary\"" >"$name.cen.lost"
	set -- $(perl "$XLS_TOP/tests/lib/pending-ref.pl" "$name.cen.out") || return 1
	echo "# $name: $*"
	for k in unlinked_buckets unlinked_inodes cow_extents cow_ags; do
		want=$(echo "$*" | sed "s/.*$k \([0-9]*\).*/\1/")
		key=pending_$k
		[ $k = cow_ags ] && key=cow_staged_ags
		for f in recover replay lost; do
			got=$(sed -n "s/.*\"$key\":\([0-9]*\).*/\1/p" "$name.cen.$f")
			test "$got" = "$want" || { echo "$name: $f $key $got, the image says $want"; return 1; }
		done
	done
	rm -f "$name.cen.out"
}

test_expect_success 'pending work: recover, lost and replay count it by kind, as the recovered blocks hold it' '
	census unl "$(image unlinked)" && census rfl "$(image reflink)" &&
	census beu "$(image beunl)" && census d4 "$(image dir4k)" &&
	grep -q "\"pending_work\":160,.*\"pending_unlinked_buckets\":64,\"pending_unlinked_inodes\":160," unl.cen.recover &&
	grep -q "\"pending_work\":32,.*\"pending_cow_extents\":32,\"cow_staged_ags\":1," rfl.cen.recover &&
	"$XLS" recover --summary "$(image unlinked)" | grep -q "^  160 pieces of work left to finish after replay: 160 unlinked inodes (on 64 buckets)$" &&
	"$XLS" recover --summary "$(image reflink)" | grep -q "^  32 pieces of work left to finish after replay: 32 CoW staging extents (in 1 AG)$"
'
# pass 3 with xfsprogs' libxfs, where this build has it (tools/libxfs-config)
have_pass3=false
"$XLS" --version | grep -q "^pass 3: xfsprogs' libxfs" && have_pass3=true
if $have_pass3; then
	test_expect_success 'pass 3: the CoW staging leftovers freed here, the log clean; --finish=kernel leaves them' '
		"$XLS" replay --json -o p3.out "$(image reflink)" >p3.json &&
		grep -q "\"pending_cow_extents\":32,.*\"log_cleaned\":true,\"pass3_done\":true,\"pass3_cow_extents\":32,\"pass3_cow_fsblocks\":992,\"pass3_inodes_freed\":0," p3.json &&
		! grep -q "next_step" p3.json &&
		test "$(perl "$XLS_TOP/tests/lib/pending-ref.pl" p3.out)" = "unlinked_buckets 0 unlinked_inodes 0 cow_extents 0 cow_ags 0" &&
		"$XLS" info p3.out | grep -q "^state  *clean$" &&
		"$XLS" replay --finish=kernel --json -o p3k.out "$(image reflink)" >p3k.json &&
		grep -q "\"log_cleaned\":false,\"pass3_done\":false,\"next_step\":\"mount OUT" p3k.json
	'
	test_expect_success 'pass 3: the unlinked inodes inactivated and freed here, the log clean' '
		"$XLS" replay --json -o p3u.out "$(image unlinked)" >p3u.json &&
		grep -q "\"log_cleaned\":true,\"pass3_done\":true,\"pass3_cow_extents\":0,\"pass3_cow_fsblocks\":0,\"pass3_inodes_freed\":160,\"pass3_inode_chunks_freed\":2,\"pass3_data_fsblocks\":0," p3u.json &&
		test "$(perl "$XLS_TOP/tests/lib/pending-ref.pl" p3u.out)" = "unlinked_buckets 0 unlinked_inodes 0 cow_extents 0 cow_ags 0" &&
		"$XLS" replay -o p3ut.out "$(image unlinked)" >p3u.txt &&
		grep -q "^  pass 3, as the kernel.s mount finishes recovery (xfsprogs. libxfs): 160 unlinked inodes inactivated and freed (2 inode chunks and 0 filesystem blocks of data freed with them); 2 extents freed in all (16 filesystem blocks); [1-9][0-9]* buffers written" p3u.txt &&
		cmp p3u.out p3ut.out
	'
	# the bundled journal shut down in the middle of truncations and a
	# reflink: 3 EFIs, 4 RUIs, 3 CUIs and a BUI, nothing else pending
	test_expect_success 'pass 3: the intents finished here, each with the work it defers, the log clean' '
		"$XLS" replay --json -o p3i.out "$(image intents)" >p3i.json &&
		grep -q "\"pending_work\":11,\"pending_efi\":3,\"pending_rui\":4,\"pending_cui\":3,\"pending_bui\":1,\"pending_xmi\":0," p3i.json &&
		grep -q "\"log_cleaned\":true,\"pass3_done\":true,.*\"pass3_intents\":11,\"pass3_intent_extents\":11,\"pass3_freed_extents\":3,\"pass3_freed_fsblocks\":3," p3i.json &&
		"$XLS" info p3i.out | grep -q "^state  *clean$" &&
		"$XLS" recover --json --summary p3i.out | grep -q "\"pending_work\":0," &&
		"$XLS" replay -o p3it.out "$(image intents)" >p3i.txt &&
		grep -q "^  pass 3, as the kernel.s mount finishes recovery (xfsprogs. libxfs): 11 intents finished (11 extents named), with the work they defer; 3 extents freed in all (3 filesystem blocks); [1-9][0-9]* buffers written" p3i.txt &&
		cmp p3i.out p3it.out &&
		"$XLS" replay --finish=kernel --json -o p3ik.out "$(image intents)" >p3ik.json &&
		grep -q "\"log_cleaned\":false,\"pass3_done\":false,\"next_step\":\"mount OUT" p3ik.json
	'
	# intents, then the log force that ends their checkpoint, then an
	# unlinked inode and CoW staging leftovers: blocks of the second
	# checkpoint carry an LSN 12 log blocks past the head, the unmount
	# record goes there, and no block is ahead of the log (xfs_repair -n
	# says so when one is)
	# an exchange of two files left after 5 of its 16 blocks (xmi.txt)
	test_expect_success 'pass 3: an XMI finished here, the exchange asked anew of its two files, the log clean' '
		"$XLS" replay --json -o p3x.out "$(image xmi)" >p3x.json &&
		grep -q "\"pending_work\":1,.*\"pending_xmi\":1," p3x.json &&
		grep -q "\"log_cleaned\":true,\"pass3_done\":true,.*\"pass3_intents\":1,\"pass3_intent_extents\":0,\"pass3_freed_extents\":0,\"pass3_freed_fsblocks\":0,\"pass3_exchanges\":1,\"pass3_parent_pointers\":0," p3x.json &&
		"$XLS" replay -o p3xt.out "$(image xmi)" | grep -q "^  pass 3, as the kernel.s mount finishes recovery (xfsprogs. libxfs): 1 intent finished (1 file mapping exchange), with the work they defer;" &&
		"$XLS" recover --json --summary p3x.out | grep -q "\"pending_work\":0," &&
		"$XLS" info p3x.out | grep -q "^state  *clean$"
	'
	# a rename's parent pointer update left pending, with the unmap and free of
	# its attr fork's block, and 35 unlinked inodes (attri.txt)
	test_expect_success 'pass 3: a parent-pointer ATTRI finished here, then the unlinked inodes, the log clean' '
		"$XLS" replay --json -o p3a.out "$(image attri)" >p3a.json &&
		grep -q "\"pending_efi\":1,\"pending_rui\":1,.*\"pending_attri\":1,.*\"pending_unlinked_inodes\":35," p3a.json &&
		grep -q "\"log_cleaned\":true,\"pass3_done\":true,.*\"pass3_inodes_freed\":35,.*\"pass3_intents\":3,\"pass3_intent_extents\":2,.*\"pass3_exchanges\":0,\"pass3_parent_pointers\":1," p3a.json &&
		"$XLS" replay -o p3at.out "$(image attri)" | grep -q "^  pass 3, as the kernel.s mount finishes recovery (xfsprogs. libxfs): 3 intents finished (2 extents named, 1 parent pointer update), with the work they defer; 35 unlinked inodes" &&
		"$XLS" recover --json --summary p3a.out | grep -q "\"pending_work\":0," &&
		"$XLS" info p3a.out | grep -q "^state  *clean$"
	'
	test_expect_success 'pass 3 in two checkpoints: intents, then unlinked inodes and CoW leftovers, the log clean past both' '
		"$XLS" replay --json -o p3i2.out "$(image intents2)" >p3i2.json &&
		grep -q "\"pending_work\":11,\"pending_efi\":0,\"pending_rui\":1,\"pending_cui\":1,\"pending_bui\":0,.*\"pending_unlinked_inodes\":1,.*\"pending_cow_extents\":8," p3i2.json &&
		grep -q "\"pass3_done\":true,.*\"pass3_inodes_freed\":1,.*\"pass3_intents\":2,.*\"pass3_checkpoints\":2,\"pass3_checkpoint1_bbs\":12," p3i2.json &&
		"$XLS" info p3i2.out | grep -q "^state  *clean$" &&
		"$XLS" recover --json --summary p3i2.out | grep -q "\"pending_work\":0," &&
		"$XLS" replay -o p3i2t.out "$(image intents2)" | grep -q "stamped with the LSNs of the kernel.s two pass-3 checkpoints (the first 12 log blocks long" &&
		if command -v xfs_repair >/dev/null; then xfs_repair -n p3i2.out >p3i2.repair 2>&1; fi
	'
	# AG 1's refcount btree block, which the log does not replay, with a
	# byte flipped: the kernel's pass 3 fails there ("Failed to recover
	# leftover CoW staging extents", the mount fails); so does replay's
	test_expect_success 'pass 3 on corrupt metadata: exit 1, the input named, nothing written' '
		xz -dc "$IMAGES/reflink.img.xz" >badrc.img &&
		perl -e "open(my \$f, q(+<:raw), q(badrc.img)) or die; sysseek(\$f, 134242304 + 4000, 0); syswrite(\$f, chr(0xa5))" &&
		test_expect_code 1 "$XLS" replay -o badrc.out badrc.img 2>badrc.err &&
		grep -q "badrc.img.: pass 3 meets corrupt metadata (AG 1: CoW staging leftovers: " badrc.err &&
		test ! -e badrc.out
	'
	# a logged bmbt record of the BUI's file with its start block's high
	# byte changed (record 1/3329, payload byte 1800, 0x00 made 0xa0, found
	# past the payload's first word, h_cycle_data[0]; its CRC set again):
	# the kernel's pass 3 finds it corrupt finishing the BUI, cancels its
	# dirty transaction and shuts down (the mount fails, EUCLEAN); libxfs
	# would abort there, the child stops as the kernel does
	test_expect_success 'pass 3 fails holding changes: exit 1, corrupt metadata, nothing written' '
		xz -dc "$IMAGES/intents.img.xz" >badbmbt.img &&
		logoff=$("$XLS" info --json badbmbt.img | sed -n "s/.*\"log_offset\":\([0-9]*\).*/\1/p") &&
		first=$(dd if=badbmbt.img bs=1 count=4 status=none \
			skip=$((logoff + 3329 * 512 + 44)) | od -An -tx1 | tr -d " \n") &&
		test "$(dd if=badbmbt.img bs=1 count=1 status=none \
			skip=$((logoff + 3330 * 512 + 1800)) | od -An -tx1 | tr -d " \n")" = 00 &&
		perl "$XLS_TOP/tests/lib/logpatch.pl" badbmbt.img "$logoff" 3329 "$first" 1800 a0 \
			>/dev/null &&
		test_expect_code 1 "$XLS" replay -o badbmbt.out badbmbt.img 2>badbmbt.err &&
		grep -q "badbmbt.img.: pass 3 meets corrupt metadata (a transaction failed holding changes (Structure needs cleaning)" badbmbt.err &&
		! grep -q "died of signal" badbmbt.err &&
		test ! -e badbmbt.out
	'
else
	test_skip 'pass 3 with libxfs' 'this build has no libxfs (tools/libxfs-config)'
fi

test_expect_success 'replay --json: the verdict and what was written, in one record' '
	"$XLS" replay --json -o d4j.out $(image dir4k) >out.json &&
	test "$(wc -l <out.json)" -eq 1 &&
	grep -q "^{\"kind\":\"replay\",\"recovery_fails\":false,.*\"out\":\"d4j.out\",\"in_place\":false,\"buffers_replayed\":2076,\"inodes_replayed\":1050," out.json &&
	grep -q "\"counters_recomputed\":true,\"log_cleaned\":true" out.json &&
	cmp d4.out d4j.out
'
test_expect_success 'replay --finish=kernel of unlinked inodes: the log stays dirty for the kernel to finish' '
	"$XLS" replay --finish=kernel -o ul.out $(image unlinked) >out.txt &&
	grep -q "next: mount OUT: the kernel finishes the work left" out.txt &&
	! grep -q "log clean" out.txt &&
	"$XLS" info ul.out | grep -q "^state  *dirty$"
'
test_expect_success 'replay --force past the failure: whole blocks where the kernel hits a limit' '
	"$XLS" replay --force --json -o frag.out $(image dirfrag) >out.json &&
	grep -q "\"recovery_fails\":true,.*\"fail_cause\":\"recovery_limit\"" out.json &&
	grep -q "\"blocks_assembled\":[1-9]" out.json &&
	grep -q "\"log_cleaned\":true,\"pass3_done\":false,\"next_step\":\"run xfs_repair on OUT" out.json
'
# synthesized: the superblock the log replays says 3 AGs of 16 MiB on a
# 32 MiB image (a growfs the device no longer holds); or 2^30 AGs in two
# AGs' blocks, which its write verifier refuses
test_expect_success 'replay: a recovered superblock past the device: written, the log clean, exit 1' '
	"$XLS_BUILD/tests/xls-synth" sb-grown sgrown.img >/dev/null &&
	test_expect_code 1 "$XLS" replay --json -o sgrown.out sgrown.img >sgrown.json 2>sgrown.err &&
	grep -q "\"approximate\":false,\"mount_fails_after\":true,.*\"counters_recomputed\":false,\"log_cleaned\":true," sgrown.json &&
	test_expect_code 1 "$XLS" recover --summary sgrown.img >sgrown.verdict &&
	head -1 sgrown.verdict | grep -q "^Verdict: recovery succeeds, then the mount fails (EIO)" &&
	grep -q "reading AG 2.s headers past the end of the device (EIO): the superblock recovery leaves says 50331648 bytes, the device holds 33554432" sgrown.err &&
	"$XLS" info sgrown.out 2>/dev/null | grep -q "state *clean" &&
	"$XLS_BUILD/tests/xls-synth" sb-badgeo badgeo.img >/dev/null &&
	test_expect_code 1 "$XLS" replay -o badgeo.out badgeo.img >/dev/null 2>badgeo.err &&
	! test -e badgeo.out &&
	grep -q "fails its write verifier .*the AG count and size disagree with the block count" badgeo.err
'
test_expect_success 'replay of a metadump: the restored image, recovered' '
	"$XLS" replay -o md.out "$XLS_TOP/tests/images/metadump/dir4k.v1ao.md.xz" >/dev/null &&
	cmp md.out d4.out
'
test_expect_success 'replay of a v2 metadump carrying its external log: --log-out, no -l' '
	"$XLS" replay -o mdx.out --log-out mdx.log "$XLS_TOP/tests/images/metadump/extlog.v2ao.md.xz" >/dev/null &&
	"$XLS" replay -l "$(image extlog-log)" --log-out x.log -o x.out "$(image extlog)" >/dev/null &&
	cmp -n 67108864 mdx.log x.log &&
	"$XLS" info -l mdx.log mdx.out | grep -q "^state  *clean$" &&
	test_expect_code 2 "$XLS" replay -o no.out --log-out no.log "$(image dir4k)" 2>err &&
	grep -q "the log of .* is internal" err && ! test -e no.out
'

. "$XLS_TOP/tests/lib/kmount.sh"
. "$XLS_TOP/tests/lib/workloads.sh"

kmount_probe xfs_io xfs_repair

# kmount_umount IMG [LOG]: the kernel mounts IMG (recovering its log) and
# unmounts it; what it logs goes to NAME.kmsg
kmount_umount() {
	opts=loop,nouuid
	if [ -n "${2:-}" ]; then
		LOGLOOP=$(losetup -f --show "$2") || return 1
		opts=$opts,logdev=$LOGLOOP
	fi
	marker="xls-t0850-$$-$(date +%s%N)"
	[ -w /dev/kmsg ] && echo "$marker" >/dev/kmsg
	mount -t xfs -o "$opts" "$1" "$MNT" && umount "$MNT"
	rc=$?
	dmesg 2>/dev/null | sed -n "/$marker/,\$p" >"$1.kmsg"
	[ -n "$LOGLOOP" ] && { losetup -d "$LOGLOOP"; LOGLOOP=; }
	return $rc
}

# kmount_ro IMG [LOG]: the kernel mounts IMG read-only on a read-only loop
# device, which it can only do without recovery, and unmounts it
kmount_ro() {
	opts=loop,ro,nouuid
	if [ -n "${2:-}" ]; then
		LOGLOOP=$(losetup -r -f --show "$2") || return 1
		opts=$opts,logdev=$LOGLOOP
	fi
	mount -t xfs -o "$opts" "$1" "$MNT" 2>/dev/null && umount "$MNT"
	rc=$?
	[ -n "$LOGLOOP" ] && { losetup -d "$LOGLOOP"; LOGLOOP=; }
	return $rc
}

# as_kernel NAME IMG [LOG]: replay's output equals the kernel's recovery
as_kernel() {
	name=$1 img=$2 log=${3:-}
	lopt= logoff=
	rm -f "$name".*
	if [ -n "$log" ]; then
		lopt="-l $log --log-out $name.outlog"
		cp --sparse=always "$log" "$name.reflog" || return 1
		logoff="0 0"
	else
		logoff=$("$XLS" info --json "$img" |
			 sed -n 's/.*"log_offset":\([0-9]*\).*"log_bytes":\([0-9]*\).*/\1 \2/p')
	fi
	# shellcheck disable=SC2086
	"$XLS" replay $lopt -o "$name.out" "$img" >"$name.replay" || return 1
	cp --sparse=always "$img" "$name.ref" &&
	kmount_umount "$name.ref" ${log:+$name.reflog} || return 1
	if grep -q "next: mount OUT" "$name.replay"; then
		# work left: the kernel's next mount of the output finishes it
		kmount_umount "$name.out" ${log:+$name.outlog} || return 1
	else
		# read-only first: a loop device mount makes read-only refuses a
		# log that needs recovery ("recovery required on read-only device")
		cp --sparse=always "$name.out" "$name.o2" &&
		{ [ -z "$log" ] || cp "$name.outlog" "$name.o2log"; } &&
		kmount_ro "$name.o2" ${log:+$name.o2log} ||
			{ echo "$name: the kernel refuses the output read-only"; return 1; }
		# shellcheck disable=SC2086
		xfs_logprint -t ${log:+-l $name.o2log} "$name.o2" 2>&1 | grep -q "state: <CLEAN>" ||
			{ echo "$name: xfs_logprint finds the output's log dirty"; return 1; }
		kmount_umount "$name.o2" ${log:+$name.o2log} || return 1
		grep -q "Ending clean mount" "$name.o2.kmsg" ||
			{ echo "$name: the kernel recovers the output again"; return 1; }
		rm -f "$name.o2" "$name.o2log"
	fi
	# where the kernel's recoveries of one journal differ (a stale free
	# list slot, measured: the timing of its asynchronous log forces),
	# the output equals one of them: up to four more copies recovered
	tries=1
	# shellcheck disable=SC2086
	until perl "$XLS_TOP/tests/lib/imgcmp.pl" "$name.ref" "$name.out" $logoff >"$name.cmp"; do
		[ "$tries" -lt 5 ] && [ -z "$log" ] || { cat "$name.cmp"; return 1; }
		tries=$((tries + 1))
		cp --sparse=always "$img" "$name.ref" && kmount_umount "$name.ref" || return 1
	done
	[ "$tries" -eq 1 ] || echo "$name: equal to the kernel's recovery of copy $tries"
	# xfs_repair before 6.10 refuses their features (parent pointers, exchange-range)
	case $name in pptr*|xmi|attri) [ -n "${XFSPROGS_NEW:-}" ] || return 0 ;; esac
	# shellcheck disable=SC2086
	${REPAIR:-xfs_repair} -n ${log:+-l $name.outlog} "$name.out" >"$name.repair" 2>&1 ||
		{ tail -5 "$name.repair"; return 1; }
}

if $can_mount; then
	REPAIR=xfs_repair
	[ -n "${XFSPROGS_NEW:-}" ] && REPAIR=$XFSPROGS_NEW/repair/xfs_repair
	for name in dir4k dir64k logsu256k wrapped unlinked sfconv reflink pptr pptr64k sect4k remap intents intents2 xmi attri p3wrap; do
		test_expect_success "kernel: $name, replayed as the kernel recovers it" \
			"as_kernel $name \$(image $name)"
	done
	test_expect_success 'kernel: extlog (external log), replayed as the kernel recovers it' '
		as_kernel extlog $(image extlog) $(image extlog-log)
	'
	test_expect_success 'kernel: a fresh journal of 4 KiB directories, replayed as the kernel recovers it' '
		fresh fresh4k 300 mkfs.xfs && as_kernel f4k fresh4k.img
	'
	test_expect_success 'kernel: a fresh journal of 64 KiB directories, replayed as the kernel recovers it' '
		fresh fresh64k 3000 mkfs.xfs -n size=65536 && as_kernel f64k fresh64k.img
	'
	# the unmount record as the kernel pads it: to the 4 KiB sector, to a
	# 32 KiB log stripe unit over 4 KiB sectors, to 256 KiB with extended
	# headers (the default logbsize is the stripe unit)
	test_expect_success 'kernel: fresh journals of 4 KiB sectors and log stripe units, replayed as the kernel recovers them' '
		fresh sect4su 300 mkfs.xfs -s size=4096 -l su=32k && as_kernel s4su sect4su.img &&
		fresh stripe256 300 mkfs.xfs -l su=256k && as_kernel su256 stripe256.img
	'
	test_expect_success 'kernel: a fresh journal churning what the disk holds, replayed as the kernel recovers it' '
		fresh_churn churn && as_kernel ch churn.img
	'
	test_expect_success 'kernel: a fresh journal of fallocate modes, remote xattrs and symlinks, tmpfiles and open unlinked files, 64 KiB directories, rmap, replayed as the kernel recovers it' '
		fresh_mixed mixed64k 120 -n size=65536 -m rmapbt=1 &&
		as_kernel mx mixed64k.img &&
		grep -q "pieces* of work left to finish after replay" mx.replay &&
		grep -q "next: mount OUT\|^  pass 3, as the kernel" mx.replay
	'
	test_expect_success 'kernel: a fresh reflink journal with CoW staging extents left, replayed as the kernel recovers it' '
		fresh_reflink reflink && as_kernel rl reflink.img &&
		grep -q "[1-9][0-9]* CoW staging extents* (in [1-9][0-9]* AGs*)" rl.replay &&
		census rl reflink.img &&
		"$XLS" replay --finish=repair -o rlrepair.out reflink.img >rlrepair.replay &&
		grep -q "log clean" rlrepair.replay &&
		xfs_repair -n rlrepair.out >rlrepair.before 2>&1
		grep -q "leftover CoW extent" rlrepair.before &&
		xfs_repair rlrepair.out >/dev/null 2>&1 && xfs_repair -n rlrepair.out >/dev/null 2>&1
	'
	# pass 3 of unlinked inodes: every kind it frees, compared block for
	# block with the kernel's mount (as_kernel); then 10,000 files whose
	# frees refill the free lists while the blocks just freed are busy,
	# which the allocator steps around as the kernel's does
	# (src/pass3/libxfs_busy.c); and 4800 files whose frees split the
	# free-space btrees until the kernel's allocator finds only busy space,
	# or takes back a stale btree block still pinned, and forces the log:
	# more checkpoints, each stamping its LSN (src/pass3/libxfs_ckpt.c)
	test_expect_success 'kernel: a fresh journal of inodes unlinked while open, of every kind, replayed with pass 3 as the kernel recovers it' '
		fresh_unlinked unl 200 all && as_kernel un unl.img &&
		if $have_pass3; then
			grep -q "^  pass 3, as the kernel.s mount finishes recovery (xfsprogs. libxfs): 389 unlinked inodes inactivated and freed ([1-9][0-9]* inode chunks and [1-9][0-9]* filesystem blocks" un.replay
		else
			grep -q "next: mount OUT" un.replay
		fi
	'
	# fresh_pass3 TAG FILES EXPECT FRESH NAME ARGS...: FRESH makes the
	# journal NAME.img with FILES open files at most; replayed as the
	# kernel recovers it (as_kernel TAG), pass 3's summary matching EXPECT
	# where this build has pass 3, the work left to the kernel where not
	fresh_pass3() {
		tag=$1 files=$2 expect=$3 img=$5.img
		shift 3
		(ulimit -n "$files" && "$@") && as_kernel "$tag" "$img" || return 1
		if $have_pass3; then
			grep -q "^  pass 3, as the kernel.s mount finishes recovery (xfsprogs. libxfs): $expect" "$tag.replay"
		else
			grep -q "next: mount OUT" "$tag.replay"
		fi
	}
	if (ulimit -n 16384) 2>/dev/null; then
		test_expect_success 'kernel: 10,000 unlinked inodes refilling the free lists: pass 3 allocates past the busy extents, as the kernel' '
			fresh_pass3 u10 16384 "10000 unlinked inodes inactivated and freed" \
				fresh_unlinked unl10k 12500 files
		'
	else
		test_skip 'kernel: 10,000 unlinked inodes' 'needs 16384 open files (ulimit -n)'
	fi
	if (ulimit -n 8192) 2>/dev/null; then
		test_expect_success 'kernel: 4800 unlinked inodes whose frees split the free-space btrees: the log forced mid-way as the kernel forces it, four checkpoints' '
			fresh_pass3 ub 8192 "4800 unlinked inodes inactivated and freed.*stamped with the LSNs of the kernel.s [2-9] pass-3 checkpoints" \
				fresh_unlinked unlbig 6000 files
		'
		# the log forced amid reference count work: the kernel's
		# checkpoint holds the cluster buffers of the chunks freed so
		# far as cancelled (xfs_ifree_cluster), and its allocator keeps
		# the AG reservations back (xfs_fs_reserve_ag_blocks)
		test_expect_success 'kernel: 1016 reflinked and small files unlinked while open, CoW leftovers: the log forced amid reference count work as the kernel forces it' '
			fresh_pass3 cu 8192 "1016 unlinked inodes inactivated and freed.*CoW staging extents freed.*stamped with the LSNs of the kernel.s [2-9] pass-3 checkpoints" \
				fresh_cow_unlinked cowunl 16 1000
		'
		test_expect_success 'kernel: the same with reflinks and punches under way at the shutdown: intents, then the unlinked inodes and CoW leftovers, the log forced on the way, as the kernel' '
			fresh_pass3 cb 8192 "[1-9][0-9]* intents finished.*1[0-9][0-9][0-9] unlinked inodes inactivated and freed.*CoW staging extents freed.*stamped with the LSNs of the kernel.s [2-9] pass-3 checkpoints" \
				fresh_cow_intents cowbusy 16 1000
		'
		# the ranges pass 3 never writes, found per AG: over AGs whose
		# size is not a power of two, a block number is not an address
		test_expect_success 'kernel: 1536 files unlinked while open over three AGs of 87,382 blocks: whole chunks freed in each, their clusters never written, as the kernel' '
			fresh_pass3 chk 4096 "1536 unlinked inodes inactivated and freed (24 inode chunks" \
				fresh_chunks chunks
		'
	else
		test_skip 'kernel: 4800 unlinked inodes, 1016 reflinked files, chunks over three AGs' 'needs 8192 open files (ulimit -n)'
	fi
	# the kernel's mount recovers the growth, then fails reading the new
	# AGs' headers past the device's end, and cleans the log on its way out
	test_expect_success 'kernel: a growfs the device no longer holds: recovered, the log cleaned, the mount failing, as the kernel does' '
		fresh_grown grown &&
		logoff=$("$XLS" info --json grown.img |
			 sed -n "s/.*\"log_offset\":\([0-9]*\).*\"log_bytes\":\([0-9]*\).*/\1 \2/p") &&
		cp --sparse=always grown.img grown.ref && cp --sparse=always grown.img grown.inplace &&
		! kmount_umount grown.ref &&
		grep -q "metadata I/O error in \"xfs_read_agf" grown.ref.kmsg &&
		! grep -q "log mount/recovery failed" grown.ref.kmsg &&
		"$XLS" info grown.ref | grep -q "state *clean" &&
		test_expect_code 1 "$XLS" replay -o grown.out grown.img >grown.replay 2>grown.err &&
		grep -q "the kernel.s mount then fails reading AG 4.s headers past the end of the device (EIO)" grown.err &&
		grep -q "log clean, as the kernel.s failed mount leaves it" grown.replay &&
		grep -q "the work left (intents, unlinked inodes) dropped" grown.replay &&
		"$XLS" info grown.out 2>/dev/null | grep -q "state *clean" &&
		perl "$XLS_TOP/tests/lib/imgcmp.pl" grown.ref grown.out $logoff &&
		test_expect_code 1 "$XLS" replay --json --in-place grown.inplace >grown.json 2>/dev/null &&
		grep -q "\"approximate\":false,\"mount_fails_after\":true,.*\"counters_recomputed\":false,\"log_cleaned\":true," grown.json &&
		test_expect_code 1 "$XLS" recover --summary grown.img >grown.verdict &&
		"$XLS" lost --json grown.img 2>/dev/null | head -1 | grep -q "\"mount_fails_after\":true" &&
		grep -q "^  then the mount fails: the superblock recovery leaves says 1073741824 bytes, more than the device holds, and the mount reads AG 4.s headers past its end (EIO); on its way out the kernel cleans the log and drops the work left" grown.verdict &&
		perl "$XLS_TOP/tests/lib/imgcmp.pl" grown.ref grown.inplace $logoff
	'
	# the journal the kernel refuses: --force and xfs_repair keep more
	# entries than xfs_repair -L, the only other way past it
	entries() {
		mount -t xfs -o loop,nouuid "$1" "$MNT" || return 1
		perl "$XLS_TOP/tests/lib/walk-tree.pl" "$MNT" >"$1.walk"
		umount "$MNT" && wc -l <"$1.walk"
	}
	test_expect_success 'kernel: dirfrag, --force and xfs_repair keep more entries than xfs_repair -L' '
		"$XLS" replay --force -o forced.img $(image dirfrag) >/dev/null &&
		xfs_repair forced.img >forced.repair 2>&1 &&
		cp --sparse=always $(image dirfrag) zeroed.img &&
		xfs_repair -L zeroed.img >zeroed.repair 2>&1 &&
		f=$(entries forced.img) && z=$(entries zeroed.img) &&
		echo "# dirfrag: $f entries after replay --force and xfs_repair, $z after xfs_repair -L" &&
		test "$f" -gt "$z"
	'
else
	test_skip 'replay against the kernel' "$why"
fi

test_done
