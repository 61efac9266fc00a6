#!/bin/sh
# recover and history against the kernel's own log recovery.
#
# Part 1, always: hand-made journals (a copy of the bundled clean image
# with its log replaced) for what kernel-written ones rarely hold -- a
# block cancelled and reused, once and twice; block LSNs newer, older and
# equal; a foreign UUID; recovery order; intents; the failures the kernel
# stops on; a shortform directory whose entries run past its di_size --
# checked against the decisions recovery makes (and files' reading of the
# directory).
#
# Part 2, as root with loop devices (skipped otherwise; make check on CI
# does not need it): each journal, hand-made or bundled, is recovered by
# the kernel from a copy (mount, shutdown, unmount), and every buffer
# recover names is compared with history --replay of the original,
# outside the CRC and LSN fields the write verifiers restamp.  Where
# recover says recovery fails, the mount must fail.  The obfuscated
# metadumps of the bundled images (tests/images/metadump) too: the kernel
# recovers the image xfs_mdrestore makes of each, recover and history run
# on the metadump itself.  No mount and no loop device is left behind.
. "$(dirname "$0")/lib/test-lib.sh"
. "$XLS_TOP/tests/lib/images.sh"
. "$XLS_TOP/tests/lib/metadump.sh"

cat >synth.pl <<'EOF'
# Replace the log of a copy of a v5 image with a few hand-made transactions
# and write chosen block headers on the data device.
#
#   perl synth.pl IMG LOG_OFFSET LOG_BYTES SCENARIO
#
# Prints "lsn NAME CYCLE/BLOCK tid TID" for each transaction.
use strict;
use warnings;

my ($img, $log_off, $log_bytes, $scenario) = @ARGV;
open(my $fh, '+<:raw', $img) or die "$img: $!";

sub pread_at { my ($off, $len) = @_; my $b; sysseek($fh, $off, 0) or die; sysread($fh, $b, $len) == $len or die "short read"; return $b; }
sub pwrite_at { my ($off, $data) = @_; sysseek($fh, $off, 0) or die; syswrite($fh, $data) == length($data) or die "short write"; }

my $sb = pread_at(0, 512);
my $uuid = substr($sb, 32, 16);

sub le16 { pack('v', $_[0]) } sub le32 { pack('V', $_[0]) } sub le64 { pack('Q<', $_[0]) }

# A buffer item: one region per run of logged chunks, as the kernel logs.
sub buf {
	my (%a) = @_;
	my $len = $a{len} // 8;
	my $chunks = $a{chunks} // {};
	my @map = (0) x (($len * 4 + 31) >> 5);
	$map[$_ >> 5] |= 1 << ($_ & 31) for keys %$chunks;
	my @regs;
	my @c = sort { $a <=> $b } keys %$chunks;
	while (@c) {
		my @run = (shift @c);
		push @run, shift @c while @c && $c[0] == $run[-1] + 1;
		push @regs, join('', map { $chunks->{$_} } @run);
	}
	my $flags = ($a{flags} // 0) | (($a{blft} // 0) << 11);
	my $fmt = le16(0x123c) . le16(1 + @regs) . le16($flags) . le16($len) .
		  le64($a{blkno}) . le32(scalar @map) . join('', map { le32($_) } @map);
	return [$fmt, @regs];
}

# 128 bytes: one character repeated, or the bytes given, zero-padded.
sub chunk { my ($fill) = @_; return $fill x 128 if length($fill) == 1; return $fill . ("\0" x (128 - length($fill))); }

# An EFI or EFD (type) with one extent.
sub efi { my ($type, $id) = @_; return [le16($type) . le16(1) . le32(1) . le64($id) . le64(0x1000) . le32(1) . le32(0)]; }
# an RUI of one mapping (struct xfs_map_extent: owner, offset, block, length, flags: 32
# bytes), an RUD (16 bytes): the sizes the kernel's pass 2 checks
sub rui { my ($id) = @_; return [le16(0x1240) . le16(1) . le32(1) . le64($id) . le64(131) . le64(0) . le64(0x1000) . le32(1) . le32(0)]; }
sub rud { my ($id) = @_; return [le16(0x1241) . le16(1) . le32(0) . le64($id)]; }

# cycle 2: past every LSN the bundled images' metadata carries (1/N), so
# that the kernel accepts them ("Metadata has LSN ahead of current LSN")
my $CYCLE = 2;
my $blk = 0;		# next record's block
my $prev = 0;
my $tid = 0x51000000;
my $log = '';		# the records, from log block 0

# CRC32C (Castagnoli, reflected): the record checksum, as xlog_cksum()
# computes it over the header with h_crc zeroed and the payload as written.
my @crctab;
for my $i (0 .. 255) {
	my $c = $i;
	$c = ($c & 1) ? (($c >> 1) ^ 0x82F63B78) : ($c >> 1) for 1 .. 8;
	$crctab[$i] = $c;
}
sub crc32c {
	my $crc = 0xffffffff;
	$crc = $crctab[($crc ^ $_) & 0xff] ^ ($crc >> 8) for unpack('C*', $_[0]);
	return $crc ^ 0xffffffff;
}

sub ophdr { my ($t, $len, $flags) = @_; return pack('NNCCn', $t, $len, 0x69, $flags, 0); }

# One v2 record: header block, payload with each block's first word
# saved in h_cycle_data and replaced by the cycle (xlog_pack_data).
sub record {
	my ($payload, $nops) = @_;
	my $hlen = length($payload);
	$hlen += 512 - $hlen % 512 if $hlen % 512;
	$payload .= "\0" x ($hlen - length($payload));
	my $nblk = $hlen / 512;
	die "record too big" if $nblk > 64;
	my @cycle_data;
	for my $i (0 .. $nblk - 1) {
		push @cycle_data, substr($payload, $i * 512, 4);
		substr($payload, $i * 512, 4) = pack('N', $CYCLE);
	}
	push @cycle_data, "\0\0\0\0" while @cycle_data < 64;
	my $h = pack('NNNN', 0xFEEDBABE, $CYCLE, 2, $hlen) . pack('NN', $CYCLE, $blk) .
		pack('NN', $CYCLE, 0) .
		"\0\0\0\0" . pack('NN', $prev, $nops) . join('', @cycle_data) .
		pack('N', 1) . $uuid . pack('N', 32768);
	$h .= "\0" x (512 - length($h));
	# a v5 kernel rejects a zero CRC in the replay pass: compute it
	substr($h, 32, 4) = pack('V', crc32c(substr($h, 0, 328) . $payload));
	$log .= $h . $payload;
	my $lsn = $blk;
	$prev = $blk;
	$blk += 1 + $nblk;
	return $lsn;
}

# One transaction per record; returns the block of its LSN.
sub trans {
	my ($name, $items, %o) = @_;
	my $t = $tid++;
	my $nregs = 0;
	$nregs += @$_ for @$items;
	my $p = ophdr($t, 0, 0x01);
	$p .= ophdr($t, 16, 0) . le32(0x5452414e) . le32(40) . le32($t) . le32($nregs);
	my $nops = 2;
	for my $it (@$items) {
		for my $r (@$it) {
			$p .= ophdr($t, length($r), 0) . $r;
			$nops++;
		}
	}
	unless ($o{nocommit}) {
		$p .= ophdr($t, 0, 0x02);
		$nops++;
	}
	my $lsn = record($p, $nops);
	printf "lsn %s %u/%u tid 0x%08x\n", $name, $CYCLE, $lsn, $t;
	return $lsn;
}

# A 4 KiB symlink block (xfs_dsymlink_hdr: magic, offset, bytes, crc,
# uuid, owner, blkno, lsn) holding "target", its CRC right unless $badcrc.
sub symlink_block {
	my ($daddr, $lsnblk, $u, $badcrc) = @_;
	my $b = pack('NNN', 0x58534c4d, 0, 6) . "\0\0\0\0" . $u . pack('Q>', 131) .
		pack('Q>', $daddr) . pack('NN', $CYCLE, $lsnblk) . 'target';
	$b .= "\0" x (4096 - length($b));
	substr($b, 12, 4) = pack('V', crc32c($b) ^ ($badcrc ? 1 : 0));
	pwrite_at($daddr * 512, $b);
}

# An inode cluster of 32 v3 inodes of 512 bytes, free and on no list.
sub inode_cluster {
	my ($daddr) = @_;
	my $c = '';
	for my $i (0 .. 31) {
		my $d = pack('nnCC', 0x494e, 0, 3, 2) . ("\0" x 90) . pack('N', 0xffffffff);
		$d .= "\0" x (512 - length($d));
		$c .= $d;
	}
	pwrite_at($daddr * 512, $c);
}

# A shortform directory entry: namelen, offset, name, ftype, 4-byte inode.
sub sf_entry { my ($name, $off, $ino, $ftype) = @_; return pack('Cn', length $name, $off) . $name . pack('CN', $ftype, $ino); }

# An inode item of the root directory (inode 128 at daddr 128, the first of
# its 32-inode cluster): its core as the disk has it, in the log's byte
# order, with di_size $size, and $fork as its data fork.
sub root_item {
	my ($fork, $size) = @_;
	my $d = pread_at(128 * 512, 176);
	my $core = '';
	# xfs_dinode's fields as (offset, bytes); the rest is copied as it is
	for my $f ([0, 2], [2, 2], [4, 1], [5, 1], [6, 2], [8, 4], [12, 4], [16, 4], [20, 2],
		   [22, 2], [24, 8], [32, 8], [40, 8], [48, 8], [56, 8], [64, 8], [72, 4], [76, 4],
		   [80, 2], [82, 1], [83, 1], [84, 4], [88, 2], [90, 2], [92, 4], [96, 4], [100, 4],
		   [104, 8], [112, 8], [120, 8], [128, 4], [132, 12], [144, 8], [152, 8], [160, 16]) {
		my $v = substr($d, $f->[0], $f->[1]);
		$v = reverse $v if $f->[1] <= 8 && $f->[0] != 132;
		$core .= $v;
	}
	substr($core, 56, 8) = le64($size);
	my $ilf = le16(0x123b) . le16(3) . le32(0x3) . le16(0) . le16(length $fork) . le32(0) .
		  le64(128) . ("\0" x 16) . le64(128) . le32(32) . le32(0);
	return [$ilf, $core, $fork . ("\0" x (-length($fork) % 4))];
}

my $D = 0xE0000;	# free space in AG 3 of the bundled 512 MiB images
my %blk = (reuse => $D, twice => $D + 8, newer => $D + 16, older => $D + 24,
	   equal => $D + 32, foreign => $D + 40, fresh => $D + 48, ibuf => $D + 64,
	   cancel1 => $D + 160, cancel2 => $D + 168, plain => $D + 176, nocommit => $D + 184,
	   wb_noops => $D + 192, wb_lo => $D + 200, wb_hi => $D + 216);

trans('start', [efi(0x1236, 0x5555), efi(0x1237, 0x5555)]);	# block 0: an LSN no test needs
if ($scenario eq 'cancel') {
	# reuse: logged, cancelled, reused: skip, cancel 1 -> 0, replay
	trans('t1', [buf(blkno => $blk{reuse}, blft => 11, chunks => { 0 => chunk('A') })]);
	trans('t2', [buf(blkno => $blk{reuse}, flags => 0x2)]);
	trans('t3', [buf(blkno => $blk{reuse}, blft => 11, chunks => { 0 => chunk('B'), 1 => chunk('B') })]);
	# twice: two cancels, so a reference count of 2
	trans('t4', [buf(blkno => $blk{twice}, blft => 11, chunks => { 2 => chunk('C') })]);
	trans('t5', [buf(blkno => $blk{twice}, flags => 0x2)]);
	trans('t6', [buf(blkno => $blk{twice}, blft => 11, chunks => { 2 => chunk('D') })]);
	trans('t7', [buf(blkno => $blk{twice}, flags => 0x2)]);
	trans('t8', [buf(blkno => $blk{twice}, blft => 11, chunks => { 3 => chunk('E') })]);
} elsif ($scenario =~ /^(lsn|badcrc|ahead|foreign)$/) {
	# foreign: a stale block of another filesystem; replayed whatever its
	# LSN, and the header logged with it makes it ours (unless 'foreign')
	my %fchunks = (5 => chunk('F'));
	$fchunks{0} = chunk(pack('NNN', 0x58534c4d, 0, 6) . "\0\0\0\0" . $uuid . pack('Q>', 131) .
			    pack('Q>', $blk{foreign}) . pack('NN', $CYCLE, 0) . 'target')
		unless $scenario eq 'foreign';
	my $l = trans('t1', [buf(blkno => $blk{newer}, blft => 9, chunks => { 5 => chunk('N') }),
			     buf(blkno => $blk{older}, blft => 9, chunks => { 5 => chunk('O') }),
			     buf(blkno => $blk{equal}, blft => 9, chunks => { 5 => chunk('Q') }),
			     buf(blkno => $blk{foreign}, blft => 9, chunks => \%fchunks),
			     buf(blkno => $blk{fresh}, blft => 9, chunks => { 5 => chunk('Z') })]);
	my $later = trans('t2', [efi(0x1236, 0x6666), efi(0x1237, 0x6666)]);
	# newer: an LSN after the transaction's and not after the head
	symlink_block($blk{newer}, $scenario eq 'ahead' ? $later + 100 : $later, $uuid,
		      $scenario eq 'badcrc');
	symlink_block($blk{older}, $l - 1, $uuid);
	symlink_block($blk{equal}, $l, $uuid);
	symlink_block($blk{foreign}, $later, pack('H32', 'deadbeef' x 4));
} elsif ($scenario eq 'order') {
	# cancels and inode buffers go last, each of those lists last logged first
	inode_cluster($blk{ibuf});
	inode_cluster($blk{ibuf} + 32);
	trans('t0', [buf(blkno => $blk{cancel1}, blft => 11, chunks => { 0 => chunk('x') }),
		     buf(blkno => $blk{cancel2}, blft => 11, chunks => { 0 => chunk('y') })]);
	my $ib = sub { buf(blkno => $blk{ibuf} + $_[0], len => 32, flags => 0x1, blft => 8,
			   chunks => { 4 => chunk(pack('nnCC', 0x494e, 0, 3, 2) . ("\0" x 90) .
						  pack('N', $_[1])) }) };
	trans('t1', [buf(blkno => $blk{cancel1}, flags => 0x2), $ib->(0, 0x77),
		     buf(blkno => $blk{plain}, blft => 11, chunks => { 0 => chunk('P') }),
		     efi(0x1236, 0x1111), $ib->(32, 0x88), buf(blkno => $blk{cancel2}, flags => 0x2)]);
	trans('t2', [efi(0x1237, 0x1111)]);
} elsif ($scenario eq 'intents') {
	trans('t1', [efi(0x1236, 0x1111), efi(0x1236, 0x2222), rui(0x3333)]);
	trans('t2', [efi(0x1237, 0x1111), rud(0x4444)]);
	trans('t3', [buf(blkno => $blk{nocommit}, blft => 11, chunks => { 0 => chunk('U') })],
	      nocommit => 1);
} elsif ($scenario eq 'wborder') {
	# one write-back, logged out of daddr order: hi, noops, lo.  hi and lo
	# are stale blocks of another filesystem that replay leaves foreign
	# (their write verifier fails); noops is directory data without its
	# magic (no verifier attached: "no buf ops").  The kernel writes them
	# sorted by daddr: noops warns, lo fails, hi is not written.
	trans('t1', [buf(blkno => $blk{wb_hi}, blft => 9, chunks => { 5 => chunk('H') }),
		     buf(blkno => $blk{wb_noops}, blft => 11, chunks => { 5 => chunk('W') }),
		     buf(blkno => $blk{wb_lo}, blft => 9, chunks => { 5 => chunk('L') })]);
	my $later = trans('t2', [efi(0x1236, 0x7777), efi(0x1237, 0x7777)]);
	symlink_block($blk{wb_hi}, $later, pack('H32', 'deadbeef' x 4));
	symlink_block($blk{wb_lo}, $later, pack('H32', 'deadbeef' x 4));
} elsif ($scenario eq 'badunlinked') {
	# inode 2's di_next_unlinked (chunk 8, byte 96) logged as 0
	inode_cluster($blk{ibuf});
	trans('t1', [buf(blkno => $blk{ibuf}, len => 32, flags => 0x1, blft => 8,
			 chunks => { 8 => chunk("\0") })]);
} elsif ($scenario =~ /^sf(dir|bad)$/) {
	# the root directory (inode 128, shortform, "d" -> 131) logged with
	# e1 and e2 added but a di_size that holds only d and e1; sfdir logs
	# it twice so, then with the di_size that holds all three
	my $fork = pack('CCN', 3, 0, 128) . sf_entry('d', 0x60, 131, 2) .
		   sf_entry('e1', 0x70, 132, 1) . sf_entry('e2', 0x80, 133, 1);
	trans('t1', [root_item($fork, 25)]);
	if ($scenario eq 'sfdir') {
		trans('t2', [root_item($fork, 25)]);
		trans('t3', [root_item($fork, length($fork))]);
	}
} else {
	die "unknown scenario $scenario\n";
}

# Our records from block 0, every block after them stamped with the
# previous cycle: the head is where the cycle drops (xlog_find_head).
my $old = (pack('N', $CYCLE - 1) . ("\0" x 508)) x 2048;
for (my $o = 0; $o < $log_bytes; $o += length($old)) {
	my $n = $log_bytes - $o < length($old) ? $log_bytes - $o : length($old);
	pwrite_at($log_off + $o, substr($old, 0, $n));
}
pwrite_at($log_off, $log);
close($fh) or die "$img: $!";
EOF

cat >cmpblk.pl <<'EOF'
# cmpblk.pl A B: two copies of one metadata buffer, equal but for the
# fields the write verifiers restamp (CRC, LSN), found from its magic;
# an inode cluster (ISIZE bytes per inode) has them in every inode.
use strict;
use warnings;

sub slurp { local $/; open(my $f, '<:raw', $_[0]) or die "$_[0]: $!\n"; return <$f>; }
my ($a, $b) = (slurp($ARGV[0]), slurp($ARGV[1]));
die "lengths differ\n" if length($a) != length($b);
my $m32 = unpack('N', $a);
my $m16 = unpack('n', $a);
my $mda = unpack('n', substr($a, 8, 2));
my %short = map { $_ => 1 } (0x41423342, 0x41423343, 0x524d4233, 0x52334643,
			     0x46494233, 0x49414233);		# AB3B AB3C RMB3 R3FC FIB3 IAB3
my %long = map { $_ => 1 } (0x424d4133, 0x4d415052, 0x52434e54);	# BMA3 MAPR RCNT
my %dir3 = map { $_ => 1 } (0x58444233, 0x58444433, 0x58444633);	# XDB3 XDD3 XDF3
my %da3 = map { $_ => 1 } (0x3df1, 0x3dff, 0x3bee, 0x3ebe);
my @skip;	# [offset, length]: CRC, then LSN
if ($short{$m32})		{ @skip = ([52, 4], [24, 8]); }
elsif ($long{$m32})		{ @skip = ([64, 4], [32, 8]); }
elsif ($m32 == 0x58414746)	{ @skip = ([216, 4], [208, 8]); }	# XAGF
elsif ($m32 == 0x58414749)	{ @skip = ([312, 4], [320, 8]); }	# XAGI
elsif ($m32 == 0x5841464c)	{ @skip = ([32, 4], [24, 8]); }		# XAFL
elsif ($m32 == 0x58465342)	{ @skip = ([224, 4], [240, 8]); }	# XFSB
elsif ($m32 == 0x58534c4d)	{ @skip = ([12, 4], [48, 8]); }		# XSLM
elsif ($dir3{$m32})		{ @skip = ([4, 4], [16, 8]); }
elsif ($da3{$mda})		{ @skip = ([12, 4], [24, 8]); }
elsif ($m16 == 0x494e) {						# IN
	my $isize = $ENV{ISIZE} || 512;
	for (my $o = 0; $o + $isize <= length($a); $o += $isize) {
		push @skip, [$o + 100, 4], [$o + 112, 8];
	}
}
for my $r (@skip) {
	substr($_, $r->[0], $r->[1]) = "\0" x $r->[1] for $a, $b;
}
exit 0 if $a eq $b;
my @d = grep { substr($a, $_ * 128, 128) ne substr($b, $_ * 128, 128) }
	0 .. length($a) / 128 - 1;
print "chunks differ: @d[0 .. ($#d < 15 ? $#d : 15)]", @d > 16 ? " ...\n" : "\n";
exit 1;
EOF


# synth NAME SCENARIO: NAME.img, the clean image with the scenario's log;
# NAME.lsn lists the transactions.
synth() {
	cp --sparse=always "$(image clean)" "$1.img" &&
	"$XLS" info --json "$1.img" >"$1.info" &&
	off=$(sed 's/.*"log_offset":\([0-9]*\).*/\1/' "$1.info") &&
	bytes=$(sed 's/.*"log_bytes":\([0-9]*\).*/\1/' "$1.info") &&
	perl synth.pl "$1.img" "$off" "$bytes" "$2" >"$1.lsn"
}

# decisions IMG DADDR: the decision for each item of the buffer, in order
decisions() {
	"$XLS" recover --json --blkno="$2" "$1" |
		sed -n 's/.*"kind":"ritem".*"decision":"\([a-z_]*\)".*"reason":"\([a-z_]*\)".*/\1:\2/p' |
		tr '\n' ' '
}

D=0xe0000	# where synth.pl logs: free space in AG 3 of the bundled images
daddr() { printf '0x%x' $((D + $1)); }

for sc in cancel lsn badcrc ahead foreign order intents badunlinked wborder sfdir sfbad; do
	test_expect_success "synthesize the $sc journal" "synth $sc $sc"
done

test_expect_success 'cancel: a block cancelled once, then reused' '
	test "$(decisions cancel.img $(daddr 0))" = \
	     "skip_cancelled:cancelled cancel:cancel_record replay_always:unknown_magic " &&
	"$XLS" recover --json cancel.img >out &&
	grep -q "\"kind\":\"cancel\",\"blkno\":\"$(daddr 0)\",\"len\":4096,\"refs\":1}" out
'

test_expect_success 'cancel: a block cancelled twice keeps its entry until the last' '
	test "$(decisions cancel.img $(daddr 8))" = \
	     "skip_cancelled:cancelled cancel:cancel_record skip_cancelled:cancelled cancel:cancel_record replay_always:unknown_magic " &&
	"$XLS" recover --json cancel.img >out &&
	grep -q "\"kind\":\"cancel\",\"blkno\":\"$(daddr 8)\",\"len\":4096,\"refs\":2}" out &&
	grep -q "drops a cancel reference: 2 -> 1\"" out
'

test_expect_success 'cancel: --replay holds the reuse, not the cancelled copy' '
	"$XLS" history --blkno=$(daddr 0) --replay=r.bin cancel.img >/dev/null &&
	perl -e "local \$/; \$_ = <>; exit(\$_ eq (q{B} x 256) . (qq{\0} x 3840) ? 0 : 1)" r.bin
'

test_expect_success 'lsn: newer and equal block LSNs skip, older replays' '
	test "$(decisions lsn.img $(daddr 16))" = "skip_lsn:lsn_newer " &&
	test "$(decisions lsn.img $(daddr 32))" = "skip_lsn:lsn_newer " &&
	test "$(decisions lsn.img $(daddr 24))" = "replay:lsn_older " &&
	"$XLS" recover lsn.img >out &&
	grep -q "XSLM block LSN 2/1 on disk < 2/2" out
'

test_expect_success 'lsn: a foreign UUID or no magic replays without a check' '
	test "$(decisions lsn.img $(daddr 40))" = "replay_always:foreign_uuid " &&
	test "$(decisions lsn.img $(daddr 48))" = "replay_always:unknown_magic " &&
	"$XLS" recover --json lsn.img >out &&
	grep "\"blkno\":\"$(daddr 48)\"" out | grep -q "\"kernel_warning\":\"Bad symlink block magic!\"" &&
	grep -q "\"recovery_fails\":false" out
'

test_expect_success 'badcrc: a skipped block with a bad CRC fails its read verifier' '
	test_expect_code 1 "$XLS" recover --json badcrc.img >out &&
	grep "\"blkno\":\"$(daddr 16)\"" out | grep -q "\"decision\":\"skip_lsn\".*bad CRC" &&
	grep -q "\"recovery_fails\":true" out
'

test_expect_success 'ahead: a block LSN past the log head fails recovery' '
	test_expect_code 1 "$XLS" recover --json ahead.img >out &&
	grep -q "\"fail_why\":\"buffer $(daddr 16): block LSN 2/[0-9]* is ahead of the log head\"" out
'

test_expect_success 'foreign: a header left foreign after replay fails the write verifier' '
	test_expect_code 1 "$XLS" recover --json foreign.img >out &&
	grep "\"blkno\":\"$(daddr 40)\"" out | grep -q "foreign UUID after replay"
'

test_expect_success 'wborder: buffers are written in daddr order; the lowest failing one fails' '
	test_expect_code 1 "$XLS" recover --json wborder.img >out &&
	grep "\"kind\":\"writeback\"" out >wb &&
	test $(wc -l <wb) -eq 1 &&
	grep -q "\"no_ops\":1,\"no_ops_list\":\[{\"blkno\":\"$(daddr 192)\",\"len_bb\":8}\]" wb &&
	grep -q "\"fails\":true,\"fail_blkno\":\"$(daddr 200)\"" wb &&
	grep -q "\"not_written\":1" wb &&
	grep "\"kind\":\"summary\"" out | grep -q "\"fail_why\":\"buffer $(daddr 200) " &&
	grep "\"blkno\":\"$(daddr 216)\"" out | grep -q "\"write_fails\":\"the header still carries a foreign UUID" &&
	"$XLS" recover wborder.img >out.txt
	grep -q "! kernel warns: xfs_buf_verify_write: no buf ops on daddr $(daddr 192) len 8" out.txt &&
	grep -q "! daddr $(daddr 200): the write verifier fails" out.txt
'

test_expect_success 'order: buffers, items, inode buffers and cancels, the last two reversed' '
	"$XLS" recover --json order.img >out &&
	tid=$(sed -n "s/^lsn t1 [0-9/]* tid //p" order.lsn) &&
	grep "\"kind\":\"ritem\",\"tid\":\"$tid\"" out |
		sed "s/.*\"order\":\([0-9]*\),\"index\":\([0-9]*\),\"item\":\"\([a-z]*\)\",\"list\":\"\([a-z_]*\)\".*/\1 \2 \3 \4/" >got &&
	printf "%s\n" "1 3 buf buffer" "2 4 efi item" "3 5 buf inode_buffer" \
		"4 2 buf inode_buffer" "5 6 buf cancel" "6 1 buf cancel" >want &&
	test_cmp want got &&
	"$XLS" recover order.img >text &&
	grep -q "di_next_unlinked to replay: inode 1 -> 0x88" text
'

test_expect_success 'intents: intents without a done item are left to finish' '
	"$XLS" recover --json intents.img >out &&
	grep -q "\"kind\":\"intent\",\"intent\":\"efi\",\"id\":\"0x2222\"" out &&
	grep -q "\"kind\":\"intent\",\"intent\":\"rui\",\"id\":\"0x3333\"" out &&
	! grep -q "\"kind\":\"intent\",\"intent\":\"efi\",\"id\":\"0x1111\"" out &&
	grep -q "releases rui 0x4444, which is not in the log" out &&
	grep -q "\"pending_work\":2," out
'

test_expect_success 'intents: a transaction without a commit record is discarded' '
	"$XLS" recover --json intents.img >out &&
	grep -q "\"kind\":\"rtrans\".*\"state\":\"incomplete\",\"outcome\":\"discarded\"" out &&
	"$XLS" history --blkno=0xe00b8 intents.img >hist &&
	grep -q "discarded: no commit" hist
'

test_expect_success 'badunlinked: a logged di_next_unlinked of 0 fails recovery' '
	test_expect_code 1 "$XLS" recover --json badunlinked.img >out &&
	grep -q "\"decision\":\"fail\",\"decision_text\":\"FAIL\",\"reason\":\"bad_unlinked\"" out
'

# The cluster of inode 0x83, which dir4k's first transaction logs, zeroed:
# its read verifier fails (xfs_inode_buf_verify) before anything of it is
# replayed.  The same happens to a metadump that lacks a cluster.
test_expect_success 'badinobuf: an inode item on a cluster of no inodes fails its read verifier' '
	cp --sparse=always "$(image dir4k)" badinobuf.img &&
	dd if=/dev/zero of=badinobuf.img bs=512 seek=$((0x80)) count=32 conv=notrunc 2>/dev/null &&
	test_expect_code 1 "$XLS" recover --json badinobuf.img >out &&
	grep -q "\"decision\":\"fail\",\"decision_text\":\"FAIL\",\"reason\":\"bad_inode_buf\",\"ino\":\"0x83\",\"ino_blkno\":\"0x80\"" out &&
	grep -q "\"fail_lsn\":\"1/2\",\"fail_stage\":\"pass2\",\"fail_cause\":\"metadata\",\"kernel_error\":-117," out &&
	grep -q "\"fail_why\":\"inode cluster buffer 0x80 (16384 bytes) fails its read verifier for inode 0x83" out &&
	"$XLS" recover --json "$(image dir4k)" >img.json &&
	! grep -q bad_inode_buf img.json
'

# Verdicts the kernel gives before or instead of a replay, on dir4k: a
# byte of a record in the middle of the log flipped (the tail search
# verifies every CRC from tail to head), one of the last record flipped
# (a torn write: the head moves back), the image cut short after the log,
# the superblock's LSN set ahead of the log.
flip() {	# flip IMG LOG_BLOCK OFFSET
	perl -e 'my ($img, $at) = ($ARGV[0], $ARGV[1]);
		 open(my $f, "+<:raw", $img) or die "$img: $!";
		 sysseek($f, $at, 0); sysread($f, my $b, 1);
		 sysseek($f, $at, 0); syswrite($f, chr(ord($b) ^ 0xff));' \
		"$1" "$(( $(sed -n 's/.*"log_offset":\([0-9]*\).*/\1/p' dir4k.info) + $2 * 512 + $3 ))"
}
"$XLS" info --json "$(image dir4k)" >dir4k.info
cp --sparse=always "$(image dir4k)" crcmid.img && flip crcmid.img 13 600
cp --sparse=always "$(image dir4k)" torn.img && flip torn.img 5050 100
# a record of another filesystem in mid-log (record 1/46: one byte of its
# h_fs_uuid, at 304 + 5 in its header), its CRC set again (logpatch.pl
# writes the payload's first word back as it is): xlog_header_check_recover
cp --sparse=always "$(image dir4k)" uuidmid.img && flip uuidmid.img 46 309 &&
	w=$(dd if=uuidmid.img bs=1 count=4 status=none \
	       skip=$(( $(sed -n 's/.*"log_offset":\([0-9]*\).*/\1/p' dir4k.info) + 47 * 512 )) | od -An -tx1 | tr -d " \n") &&
	perl "$XLS_TOP/tests/lib/logpatch.pl" uuidmid.img \
		"$(sed -n 's/.*"log_offset":\([0-9]*\).*/\1/p' dir4k.info)" 46 "$w" 0 "$w" >/dev/null
cp --sparse=always "$(image dir4k)" cut.img &&
	truncate -s $(( $(sed -n 's/.*"log_offset":\([0-9]*\).*/\1/p' dir4k.info) + 67108864 + 40960 )) cut.img
cp --sparse=always "$(image dir4k)" sblsn.img &&
	{ xfs_db -x -c 'sb 0' -c 'write lsn 0x500000010' sblsn.img >/dev/null 2>&1 || rm -f sblsn.img; }
# the primary superblock the log replays (record 1/2, bytes "XFSB" then a
# block size of 4096), its sb_agcount patched and the record's CRC set
# again: 3 AGs, which xlog_recover_do_primary_sb_buffer refuses (no shrink
# in recovery), and 8 AGs in 4 AGs' blocks, which the write verifier does
logoff=$(sed -n 's/.*"log_offset":\([0-9]*\).*/\1/p' dir4k.info)
for n in 3 8; do
	cp --sparse=always "$(image dir4k)" sbag$n.img &&
		perl "$XLS_TOP/tests/lib/logpatch.pl" sbag$n.img "$logoff" 2 5846534200001000 88 \
			0000000$n >/dev/null
done
# the pending ATTRI of attri (its type, size and alfi_igen, found in record
# 1/15169) with an op code of 0, and with two namespaces in its filter; the
# pending XMI of xmi (record 1/8127) with a __pad of 1: the kernel's pass 2
# refuses each (xlog_recover_attri_commit_pass2, _xmi_)
attrioff=$("$XLS" info --json "$(image attri)" | sed -n 's/.*"log_offset":\([0-9]*\).*/\1/p')
cp --sparse=always "$(image attri)" attriop.img &&
	perl "$XLS_TOP/tests/lib/logpatch.pl" attriop.img "$attrioff" 15169 46120500942e0733 24 \
		00000000 >/dev/null
cp --sparse=always "$(image attri)" attrins.img &&
	perl "$XLS_TOP/tests/lib/logpatch.pl" attrins.img "$attrioff" 15169 46120500942e0733 36 \
		0a000000 >/dev/null
xmioff=$("$XLS" info --json "$(image xmi)" | sed -n 's/.*"log_offset":\([0-9]*\).*/\1/p')
cp --sparse=always "$(image xmi)" xmipad.img &&
	perl "$XLS_TOP/tests/lib/logpatch.pl" xmipad.img "$xmioff" 8127 4812010000000000c0671f048688ffff 4 \
		01000000 >/dev/null
# ... a '/' in the ATTRI's name (the first byte of its name region); an
# EFI and the BUI of intents (record 1/3777, each found by its type, size,
# count and id) declaring 2 extents where they log 1
cp --sparse=always "$(image attri)" attrislash.img &&
	perl "$XLS_TOP/tests/lib/logpatch.pl" attrislash.img "$attrioff" 15169 46120500942e0733 52 \
		2f >/dev/null
intentsoff=$("$XLS" info --json "$(image intents)" | sed -n 's/.*"log_offset":\([0-9]*\).*/\1/p')
cp --sparse=always "$(image intents)" efinext.img &&
	perl "$XLS_TOP/tests/lib/logpatch.pl" efinext.img "$intentsoff" 3777 \
		3612010001000000905274a08388ffff 4 02000000 >/dev/null
cp --sparse=always "$(image intents)" buinext.img &&
	perl "$XLS_TOP/tests/lib/logpatch.pl" buinext.img "$intentsoff" 3777 \
		44120100010000005017db728188ffff 4 02000000 >/dev/null
# ... and an EFD of wrapped (record 2/970, its type, size, count and EFI's
# id) declaring 3 extents where it logs 2
wrappedoff=$("$XLS" info --json "$(image wrapped)" | sed -n 's/.*"log_offset":\([0-9]*\).*/\1/p')
cp --sparse=always "$(image wrapped)" efdnext.img &&
	perl "$XLS_TOP/tests/lib/logpatch.pl" efdnext.img "$wrappedoff" 970 \
		371201000200000050993ebb8188ffff 4 03000000 >/dev/null
# one AG fewer than the blocks need: xfs_validate_sb_common refuses it
cp --sparse=always "$(image dir4k)" sbgeo.img &&
	{ xfs_db -x -c 'sb 0' -c 'write -d agcount 3' sbgeo.img >/dev/null 2>&1 || rm -f sbgeo.img; }

test_expect_success 'verdict: a bad CRC mid-log fails the tail search: nothing replayed, -74' '
	test_expect_code 1 "$XLS" recover --summary crcmid.img >out &&
	head -1 out | grep -q "^Verdict: recovery fails at LSN 1/13: the kernel.s mount returns error -74 (EFSBADCRC) while it looks for the tail" &&
	grep -q "^  the kernel says: \"failed to locate log tail\", then \"log mount/recovery failed: error -74\"$" out &&
	grep -q "^  cause: damage in the log itself" out &&
	grep -q "^  0 transactions replayed before the kernel stops" out &&
	grep -q "^  the dry run goes on past the failure, as the kernel does not: 340 transactions" out
'
test_expect_success 'verdict: a record of another filesystem mid-log fails pass 1: EIO, nothing written' '
	"$XLS" records uuidmid.img 2>/dev/null | grep -q "^ *1/46 .* ok foreign-uuid$" &&
	test_expect_code 1 "$XLS" recover --summary uuidmid.img >out 2>/dev/null &&
	head -1 out | grep -q "^Verdict: recovery fails at LSN 1/46: the kernel.s mount returns error -5 (EIO) in pass 1, before it replays anything$" &&
	grep -q "^  the kernel says: \"dirty log entry has mismatched uuid - can.t recover\", then \"log mount/recovery failed: error -5\"$" out &&
	test_expect_code 1 "$XLS" replay -o uuidmid.out uuidmid.img >/dev/null 2>&1 &&
	test ! -e uuidmid.out
'
test_expect_success 'verdict: an intent the kernel.s pass 2 refuses fails recovery there (EFSCORRUPTED)' '
	for sc in attriop attrins xmipad attrislash efinext buinext efdnext; do
		test_expect_code 1 "$XLS" recover --summary $sc.img >out &&
		head -1 out | grep -q "^Verdict: recovery fails at LSN [0-9]*/[0-9]*: the kernel.s mount returns error -117 (EFSCORRUPTED) in pass 2, replaying an item$" &&
		grep -q "^  the kernel says: \"Internal error [a-z_0-9]*\", then \"log mount/recovery failed: error -117\"$" out &&
		test_expect_code 1 "$XLS" replay -o $sc.out $sc.img >/dev/null 2>&1 &&
		test ! -e $sc.out || { echo "$sc"; return 1; }
	done &&
	"$XLS" recover --summary "$(image attri)" | head -1 | grep -q "^Verdict: recovery succeeds$" &&
	"$XLS" recover -v attriop.img | grep -q "attri: its format, op, filter or regions" &&
	"$XLS" recover -v attrins.img | grep -q "attri: its format, op, filter or regions" &&
	"$XLS" recover -v xmipad.img | grep -q "xmi: its size or padding" &&
	test_expect_code 1 "$XLS" recover --summary attrislash.img >out &&
	grep -q "\"Internal error xfs_attri_validate_name_iovec\"" out &&
	test_expect_code 1 "$XLS" recover --summary efinext.img >out &&
	grep -q "\"Internal error xfs_efi_copy_format\"" out &&
	test_expect_code 1 "$XLS" recover --summary buinext.img >out &&
	grep -q "\"Internal error xlog_recover_bui_commit_pass2\"" out &&
	test_expect_code 1 "$XLS" recover --summary efdnext.img >out &&
	grep -q "\"Internal error xlog_recover_efd_commit_pass2\"" out &&
	"$XLS" recover --summary "$(image intents)" | head -1 | grep -q "^Verdict: recovery succeeds$"
'
test_expect_success 'verdict: a torn head names the transaction the kernel drops' '
	"$XLS" recover --summary torn.img >out &&
	head -1 out | grep -q "^Verdict: recovery succeeds$" &&
	grep -q "^  339 transactions replayed" out &&
	grep -q "^  torn head: the last record (LSN 1/5046) did not reach the disk whole; the kernel drops it, and with it the 1 transaction that committed there: 0x[0-9a-f]\{8\}$" out &&
	"$XLS" recover --json --summary torn.img >out.json &&
	grep -q "\"torn_records\":1,\"torn_lsn\":\"1/5046\",\"torn_commits\":1,\"torn_tids\":\[\"0x" out.json &&
	tid=$(sed -n "s/.*\"torn_tids\":\[\"\(0x[0-9a-f]*\)\".*/\1/p" out.json) &&
	"$XLS" trans --json "$(image dir4k)" | tail -n 3 | grep -q "\"tid\":\"$tid\"" &&
	! "$XLS" trans --json torn.img | grep -q "\"tid\":\"$tid\""
'
test_expect_success 'verdict: a device cut short is refused before recovery (EIO)' '
	test_expect_code 1 "$XLS" recover --summary cut.img >out 2>err &&
	head -1 out | grep -q "^Verdict: recovery fails: the kernel.s mount returns error -5 (EIO) before recovery begins$" &&
	grep -q "^  the kernel says: \"last sector read failed\"$" out &&
	grep -q "finding: .* device_size: the data device holds" err &&
	test_expect_code 1 "$XLS" info cut.img >/dev/null 2>err &&
	grep -q "the device or image is cut short" err &&
	"$XLS" recover --json --summary cut.img | grep -q "\"fail_stage\":\"mount\",\"fail_cause\":\"device\",\"kernel_error\":-5,"
'
if [ -f sblsn.img ]; then
	test_expect_success 'verdict: a superblock LSN ahead of the log: EINVAL, in the kernel.s words' '
		test_expect_code 1 "$XLS" recover --summary sblsn.img >out &&
		grep -q "^  the kernel says: \"Corruption warning: Metadata has LSN (5:16) ahead of current LSN (1:5058). Please unmount and run xfs_repair (>= v4.3) to resolve.\", then \"log mount/recovery failed: error -22\"$" out
	'
else
	test_skip 'verdict: superblock LSN ahead' 'needs xfs_db'
fi
if [ -f sbgeo.img ]; then
	test_expect_success 'verdict: a superblock whose AGs do not add up is refused at mount (EFSCORRUPTED)' '
		test_expect_code 1 "$XLS" recover --summary sbgeo.img >out 2>err &&
		head -1 out | grep -q "^Verdict: recovery fails: the kernel.s mount returns error -117 (EFSCORRUPTED) before recovery begins$" &&
		grep -q "^  the kernel says: \"SB sanity check failed\"$" out &&
		grep -q "finding: .* sb_geometry: the superblock fails the kernel.s check (the AG count and size disagree with the block count)" err &&
		"$XLS" recover --json --summary sbgeo.img | grep -q "\"fail_stage\":\"mount\",\"fail_cause\":\"metadata\",\"kernel_error\":-117," &&
		test_expect_code 1 "$XLS" replay -o sbgeo.out sbgeo.img >/dev/null 2>err &&
		! test -e sbgeo.out &&
		cp --sparse=always sbgeo.img sbgeo.copy && sum0=$(cksum <sbgeo.copy) &&
		test_expect_code 1 "$XLS" replay --in-place sbgeo.copy >/dev/null 2>err &&
		grep -q "nothing written" err && test "$(cksum <sbgeo.copy)" = "$sum0"
	'
else
	test_skip 'verdict: superblock geometry refused' 'needs xfs_db'
fi
test_expect_success 'verdict: a logged superblock with fewer AGs fails the item, in the kernel.s words' '
	test_expect_code 1 "$XLS" recover --summary sbag3.img >out &&
	head -1 out | grep -q "^Verdict: recovery fails at LSN 1/2: the kernel.s mount returns error -117 (EFSCORRUPTED) in pass 2, replaying an item$" &&
	grep -q "^  the kernel says: \"Shrinking AG count in log recovery not supported\", then \"log mount/recovery failed: error -117\"$" out &&
	grep -q "the primary superblock it logs has 3 AGs, 4 before" out &&
	"$XLS" recover --json sbag3.img | grep -q "\"decision\":\"fail\",.*\"reason\":\"agcount_shrink\""
'
test_expect_success 'verdict: a logged superblock whose AGs outnumber its blocks fails its write verifier' '
	test_expect_code 1 "$XLS" recover --summary sbag8.img >out &&
	head -1 out | grep -q "^Verdict: recovery fails at LSN 1/2: the kernel.s mount returns error -117 (EFSCORRUPTED) writing back the buffers it replayed$" &&
	grep -q "^  the kernel says: \"SB sanity check failed\", then \"log mount/recovery failed: error -117\"$" out &&
	grep -q "buffer 0x0 (512 bytes; .*fails its write verifier.*the AG count and size disagree with the block count" out
'
test_expect_success 'verdict: the kernel.s counts stop where it stops (dirfrag: 7 transactions, 51 warnings)' '
	test_expect_code 1 "$XLS" recover --json --summary "$(image dirfrag)" >out &&
	grep -q "\"trans_replayed\":7,\"trans_discarded\":0,\"trans_corrupt\":0,\"kernel_warnings\":51," out &&
	grep -q "\"dry_run_trans_replayed\":8,.*\"dry_run_kernel_warnings\":79" out &&
	grep -q "\"fail_stage\":\"writeback\",\"fail_cause\":\"recovery_limit\",\"kernel_error\":-117," out
'
test_expect_success 'verdict: without a data device, the log alone, and said so' '
	"$XLS" copy "$(image dir4k)" bare.log >/dev/null &&
	"$XLS" recover --summary -f bare.log >out &&
	head -1 out | grep -q "^Verdict: recovery succeeds, as far as the log alone tells: no data device was read$" &&
	grep -q "^  approximate: no data device (a bare log), so no block was read: [0-9]* items taken as replayed" out &&
	"$XLS" recover --summary --json -f bare.log | grep -q "\"no_data_device\":true,\"approximate\":true"
'
test_expect_success 'verdict: lost says what recover says, in the same keys' '
	for img in "$(image dirfrag)" crcmid.img "$(image unlinked)" "$(image reflink)"; do
		"$XLS" recover --json --summary "$img" >r.json
		"$XLS" lost --json "$img" 2>/dev/null | grep "\"kind\":\"lost_summary\"" >l.json
		for k in recovery_fails fail_lsn fail_stage fail_cause kernel_error kernel_says fail_why \
			 trans_replayed trans_discarded trans_corrupt pending_work pending_efi \
			 pending_rui pending_cui pending_bui pending_xmi pending_attri \
			 pending_unlinked_buckets pending_unlinked_inodes pending_cow_extents \
			 cow_staged_ags torn_records mount_fails_after; do
			a=$(perl -ne "print \$1 if /\"$k\":(\"(?:[^\"\\\\]|\\\\.)*\"|[^,}]*)/" r.json)
			b=$(perl -ne "print \$1 if /\"$k\":(\"(?:[^\"\\\\]|\\\\.)*\"|[^,}]*)/" l.json)
			test "$a" = "$b" || { echo "$img $k: recover $a, lost $b"; return 1; }
		done
	done
'

test_expect_success 'sfdir: files reads a shortform directory to di_size, and says once it is malformed' '
	test_expect_code 1 "$XLS" files --json sfdir.img >out &&
	grep "\"kind\":\"finding\"" out >found &&
	test "$(wc -l <found)" -eq 1 &&
	grep -q "\"finding\":\"files_malformed\",\"lsn\":\"2/2\".*inode 0x80 .*(sf_count)" found &&
	test_expect_code 1 "$XLS" files sfbad.img >text 2>err &&
	grep -q "^xfs_logscope: .sfbad.img.: finding: LSN 2/2 files_malformed: the shortform directory of inode 0x80 " err &&
	! grep -q finding text &&
	sed -n "s/.*\"lsn\":\"\([0-9/]*\)\".*\"event\":\"dirent_add\".*\"name\":\"\([a-z0-9]*\)\".*/\1 \2/p" \
		out >got &&
	printf "%s\n" "2/2 e1" "2/6 e2" >want &&
	test_cmp want got &&
	"$XLS" lost --json sfdir.img >out &&
	grep -c "\"kind\":\"lost_dirent\".*\"op\":\"add\"" out >n &&
	echo 2 >want && test_cmp want n
'

# ---- part 2: the kernel -------------------------------------------------

. "$XLS_TOP/tests/lib/kmount.sh"

# kernel_recover IMG [LOG]: mount (the kernel recovers), shut down without
# flushing the log, unmount.  Fails when the mount fails.
kernel_recover() {
	opts=loop
	if [ -n "${2:-}" ]; then
		LOGLOOP=$(losetup -f --show "$2") || return 1
		opts=loop,logdev=$LOGLOOP
	fi
	# what the kernel logs from here on goes to kmsg.out
	marker="xls-t0800-$$-$(date +%s%N)"
	[ -w /dev/kmsg ] && echo "$marker" >/dev/kmsg
	if mount -t xfs -o "$opts" "$1" "$MNT" 2>mount.err; then
		xfs_io -x -c shutdown "$MNT" && umount "$MNT"
		rc=$?
	else
		rc=1
	fi
	dmesg 2>/dev/null | sed -n "/$marker/,\$p" >kmsg.out
	if [ -n "$LOGLOOP" ]; then
		losetup -d "$LOGLOOP"
		LOGLOOP=
	fi
	return $rc
}

can_mount=false
why="needs root, losetup, xfs_io and XFS on loop devices"
if [ "$(id -u)" -eq 0 ] && command -v losetup >/dev/null && command -v xfs_io >/dev/null &&
   command -v mountpoint >/dev/null && [ -e /dev/loop-control ]; then
	cp --sparse=always "$(image clean)" probe.img &&
		kernel_recover probe.img && can_mount=true
	rm -f probe.img
fi

# same ORIG COPY [LOG]: every buffer recover names in ORIG, as history
# --replay leaves it, equals COPY after the kernel's recovery; at most 48
# buffers, evenly spread.  With work left after replay (intents, unlinked
# inodes), the kernel goes on to change allocation and inode metadata:
# those types are not compared.
same() {
	xa=${3:+-l $3}
	# what the tool reads: ORIG, or the metadump it was restored from
	in=${TOOL_IN:-$xa $1}
	# shellcheck disable=SC2086
	"$XLS" recover --json $in >same.json
	skip=' none$'
	grep -q '"pending_work":0,' same.json || skip=' (agf|agfl|agi|btree|dino|inode|sb)$'
	perl -ne 'print "$1 $2\n" if /"kind":"ritem".*"item":"buf".*"blkno":"(0x[0-9a-f]+)".*"type":"([a-z_0-9]+)"/;
		  print "$1 inode\n" if /"item":"inode".*"decision":"replay".*"ino_blkno":"(0x[0-9a-f]+)"/' \
		same.json | sort -u -k1,1 | grep -Ev "$skip" >blknos || :
	n=$(wc -l <blknos)
	step=$(( (n + 47) / 48 ))
	awk -v s=$step 'NR % s == 0' blknos >picked
	[ -s picked ] || { echo "nothing to compare"; return 1; }
	bad=0
	while read -r blk type; do
		rm -f r.bin
		# shellcheck disable=SC2086
		"$XLS" history --blkno="$blk" --replay=r.bin $in >/dev/null ||
			{ echo "$blk $type: history failed"; bad=$((bad + 1)); continue; }
		len=$(stat -c %s r.bin)
		dd if="$2" of=k.bin bs=512 skip=$((blk)) count=$((len / 512)) 2>/dev/null
		out=$(perl cmpblk.pl r.bin k.bin) ||
			{ echo "$blk $type ($len bytes): $out"; bad=$((bad + 1)); }
	done <picked
	echo "$(wc -l <picked) of $n buffers compared, $bad differ"
	[ "$bad" -eq 0 ]
}

# kernel NAME IMG [LOG]: recover a copy with the kernel; when recover says
# recovery fails the mount must fail, else every buffer must match.
kernel() {
	name=$1 img=$2 log=${3:-}
	cp --sparse=always "$img" copy.img || return 1
	logcopy=
	if [ -n "$log" ]; then
		cp --sparse=always "$log" copylog.img || return 1
		logcopy=copylog.img
	fi
	# shellcheck disable=SC2086
	"$XLS" recover --json ${TOOL_IN:-${log:+-l $log} $img} >kernel.json
	grep -q '"recovery_fails":true' kernel.json && fails=true || fails=false
	if kernel_recover copy.img $logcopy; then
		writes_as_kernel || return 1
		says_as_kernel || return 1
		$fails && { echo "$name: the kernel recovered it, recover said it fails"; return 1; }
		same "$img" copy.img $log
	else
		cat mount.err
		$fails || { echo "$name: the kernel failed to recover it"; return 1; }
		writes_as_kernel || return 1
		says_as_kernel
	fi
}

# says_as_kernel: the verdict's words are the kernel's (kernel.json,
# kmsg.out): the error its mount returns, the first message it quotes
# (code addresses aside), and as many warnings as the kernel logs
says_as_kernel() {
	[ -s kmsg.out ] || return 0
	perl -e '
		my ($json, $kmsg) = @ARGV;
		open(my $j, "<", $json) or die;
		my ($s) = grep { /"kind":"summary"/ } <$j>;
		my %k;
		$k{$1} = $2 while $s =~ /"([a-z_]+)":("(?:[^"\\]|\\.)*"|[^,}]*)/g;
		s/^"(.*)"$/$1/, s/\\"/"/g for values %k;
		open(my $m, "<", $kmsg) or die;
		my @lines = map { s/^\[[ 0-9.]*\] //; s/^XFS \([^)]*\): //; s/\+0x[0-9a-f]+\/0x[0-9a-f]+//g;
				  s/\s+$//; $_ } <$m>;
		my $warn = grep { /^(Bad .* magic!|Unknown buffer type!)$|no buf ops on daddr/ } @lines;
		my $bad = 0;
		if (defined $k{kernel_warnings} && $warn != $k{kernel_warnings}) {
			print "kernel warnings: the kernel logs $warn, recover says $k{kernel_warnings}\n";
			$bad = 1;
		}
		if ($k{recovery_fails} eq "true") {
			# a mount refused before the log (the superblock, the device
			# size) never says the log failed: both ways, as recover says
			my $err = "log mount/recovery failed: error $k{kernel_error}";
			my $says = index($k{kernel_says}, $err) >= 0;
			if ($says != scalar(grep { $_ eq $err } @lines)) {
				print $says ? "the kernel does not log \"$err\"\n" :
					      "the kernel logs \"$err\", recover does not say so\n";
				$bad = 1;
			}
			my ($first) = $k{kernel_says} =~ /^"([^"]*)"/;
			if (!grep { index($_, $first) >= 0 } @lines) {
				print "the kernel does not log \"$first\"\n";
				$bad = 1;
			}
		}
		exit $bad;
	' kernel.json kmsg.out || { sed "s/^/kmsg: /" kmsg.out | head -20; return 1; }
}

# writes_as_kernel: the "no buf ops" warnings of recover's write-backs are
# the kernel's, in its order, and a write-back that fails names a buffer
# the kernel finds corrupt (kernel.json, kmsg.out).  After the buffer
# whose write verifier fails, the kernel shuts down; whether the buffers
# after it in the list still get as far as the warning depends on when
# the shutdown is seen (one run in several warns for all of dirfrag's),
# so those the kernel warns for past the failing daddr are not compared.
writes_as_kernel() {
	[ -s kmsg.out ] || return 0
	perl -ne 'next unless /"kind":"writeback"/;
		  while (/\{"blkno":"(0x[0-9a-f]+)","len_bb":(\d+)\}/g) { print "$1 $2\n" }' \
		kernel.json >noops.tool
	fail=$(sed -n 's/.*"kind":"writeback".*"fail_blkno":"\(0x[0-9a-f]*\)".*/\1/p' kernel.json)
	sed -n 's/.*no buf ops on daddr \(0x[0-9a-f]*\) len \([0-9]*\).*/\1 \2/p' kmsg.out |
		FAIL=${fail:-} perl -ne 'my ($d) = /^(0x[0-9a-f]+)/;
			print unless $ENV{FAIL} && hex($d) > hex($ENV{FAIL})' >noops.kernel
	test_cmp noops.kernel noops.tool || return 1
	[ -z "$fail" ] || grep -q "Metadata corruption detected at .* block $fail *$" kmsg.out ||
		{ echo "the kernel does not find $fail corrupt"; return 1; }
	# an inode item whose cluster buffer fails its read verifier, first
	fail=$(sed -n 's/.*"reason":"bad_inode_buf".*"ino_blkno":"\(0x[0-9a-f]*\)".*/\1/p' kernel.json |
		head -n1)
	[ -z "$fail" ] || grep -q "Metadata corruption detected at .* xfs_inode block $fail xfs_inode_buf_verify" kmsg.out ||
		{ echo "the kernel does not find the inode cluster $fail corrupt"; return 1; }
}

if $can_mount; then
	for sc in cancel lsn badcrc ahead foreign order badunlinked wborder badinobuf sfdir \
		  crcmid uuidmid torn cut attriop attrins xmipad attrislash efinext buinext \
		  efdnext; do
		test_expect_success "kernel: $sc journal recovered as recover says" \
			"kernel $sc $sc.img"
	done
	if [ -f sblsn.img ]; then
		test_expect_success "kernel: sblsn journal refused as recover says" "kernel sblsn sblsn.img"
	fi
	if [ -f sbgeo.img ]; then
		test_expect_success "kernel: sbgeo superblock refused as recover says" "kernel sbgeo sbgeo.img"
	fi
	for sc in sbag3 sbag8; do
		test_expect_success "kernel: $sc journal recovered as recover says" "kernel $sc $sc.img"
	done
	for name in dir4k dir64k logsu256k wrapped unlinked; do
		test_expect_success "kernel: $name recovered buffer by buffer as history --replay" \
			"kernel $name \$(image $name)"
	done
	test_expect_success 'kernel: extlog recovered buffer by buffer as history --replay' '
		kernel extlog $(image extlog) $(image extlog-log)
	'
	# the kernel recovers it, then reads the first di_size bytes of the
	# root's fork (xfs_iformat_local) and refuses them, as files says
	test_expect_success 'kernel: sfbad recovered, its root directory refused' '
		"$XLS" recover --json sfbad.img >kernel.json &&
		grep -q "\"recovery_fails\":false" kernel.json &&
		cp --sparse=always sfbad.img copy.img &&
		! kernel_recover copy.img &&
		grep -q "Failed to read root inode 0x80" kmsg.out &&
		grep -q "Metadata corruption detected at xfs_dir2_sf_verify.*inode 0x80 data fork" kmsg.out &&
		grep -q "First 25 bytes of corrupted metadata buffer" kmsg.out
	'
	test_expect_success 'kernel: dirfrag fails to recover as recover says' '
		kernel dirfrag $(image dirfrag)
	'
	# kernel_md NAME: the kernel recovers what xfs_mdrestore makes of NAME's
	# obfuscated v1 metadump; recover and history read the metadump
	kernel_md() {
		rm -f rest.img &&
		xfs_mdrestore "$(metadump "$1" v1)" rest.img || return 1
		if [ "$1" = extlog ]; then
			TOOL_IN="-l $(image extlog-log) $(metadump extlog v1)" \
				kernel "$1.v1" rest.img "$(image extlog-log)"
		else
			TOOL_IN=$(metadump "$1" v1) kernel "$1.v1" rest.img
		fi
	}
	if command -v xfs_mdrestore >/dev/null 2>&1; then
		for name in dir4k dir64k logsu256k wrapped unlinked extlog dirfrag; do
			test_expect_success "kernel: the restored $name.v1 metadump recovered as recover on it says" \
				"kernel_md $name"
		done
	else
		test_skip 'kernel: restored metadumps' 'needs xfs_mdrestore'
	fi
else
	test_skip 'kernel comparisons' "$why"
fi
test_done
