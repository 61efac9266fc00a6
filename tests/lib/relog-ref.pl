#!/usr/bin/perl
# An independent reading of an XFS journal, sharing no code with src/:
# from the raw bytes of the image (or of an external log device) it finds
# the head and the tail, reads every record between them (restoring the
# cycle-stamped words, extended headers included, records that wrap),
# walks the op headers, reassembles transactions by tid as recovery does,
# and, in commit order, splits every 128-byte chunk of every committed
# buffer item (not a cancel record) and of every inode item's core and
# forks into first / changed / unchanged against the BYTES -- not a hash --
# last logged at the same address.  Buffer chunks are addressed by
# absolute byte (blkno * 512 + offset in the buffer, regions placed bit
# at a time as xlog_recover_do_reg_buffer places them); inode chunks by
# inode number, part and offset.
#
# Usage: relog-ref.pl [-l LOGDEV] IMAGE
# Prints "head H tail T", then one line per committed checkpoint:
#   ckpt SEQ TID START_LSN COMMIT_LSN RECORDS BUF_FIRST BUF_CHANGED BUF_UNCHANGED
#        INODE_FIRST INODE_CHANGED INODE_UNCHANGED
# and a last line "total CHECKPOINTS BUF_FIRST BUF_CHANGED BUF_UNCHANGED
# INODE_FIRST INODE_CHANGED INODE_UNCHANGED".  LSNs as cycle/block.
# No CRC check and no torn-write trimming: the images it is run on have
# neither (the test checks that the head and tail agree).
use strict;
use warnings;

my $logdev;
if (@ARGV && $ARGV[0] eq '-l') { shift; $logdev = shift; }
my $image = shift or die "usage: relog-ref.pl [-l LOGDEV] IMAGE\n";

sub be16 { unpack 'n', substr($_[0], $_[1], 2) }
sub be32 { unpack 'N', substr($_[0], $_[1], 4) }
sub be64 { my ($h, $l) = unpack 'NN', substr($_[0], $_[1], 8); $h * 4294967296 + $l }

# ---- the superblock: where the log is --------------------------------
open(my $img, '<:raw', $image) or die "$image: $!\n";
sysread($img, my $sb, 512) == 512 or die "$image: short superblock\n";
die "$image: not XFS\n" unless substr($sb, 0, 4) eq 'XFSB';
my $blocksize = be32($sb, 4);
my $logstart = be64($sb, 48);
my $agblocks = be32($sb, 84);
my $logblocks = be32($sb, 96);
my $agblklog = unpack 'C', substr($sb, 124, 1);
my ($fh, $log_off);
if ($logstart) {
	my $agno = int($logstart / 2**$agblklog);
	my $agbno = $logstart - $agno * 2**$agblklog;
	$log_off = ($agno * $agblocks + $agbno) * $blocksize;
	$fh = $img;
} else {
	die "$image: external log; give -l LOGDEV\n" unless $logdev;
	open($fh, '<:raw', $logdev) or die "$logdev: $!\n";
	$log_off = 0;
}
my $nblks = $logblocks * $blocksize / 512;
sysseek($fh, $log_off, 0) or die "seek: $!\n";
my $log = '';
while (length($log) < $nblks * 512) {
	my $n = sysread($fh, $log, $nblks * 512 - length($log), length($log));
	die "read: $!\n" unless defined $n;
	die "short log\n" unless $n;
}

# Block @b of the log (physical, modulo its size).
sub blk { substr($log, ($_[0] % $nblks) * 512, 512) }

# ---- head and tail: the record with the highest LSN ------------------
sub header_ok {
	my ($h) = @_;
	return 0 unless be32($h, 0) == 0xFEEDBABE;
	my $v = be32($h, 8);
	return 0 unless $v == 1 || $v == 2;
	return 0 unless be32($h, 4) >= 1;
	return be32($h, 12) <= 2 * 1024 * 1024;
}
sub hblks_of {
	my ($h) = @_;
	my $size = be32($h, 320);
	return 1 unless be32($h, 8) == 2 && $size > 32768;
	return int(($size + 32767) / 32768);
}
# ---- records tail .. head, payloads restored -------------------------
sub payload {
	my ($b) = @_;
	my $h = blk($b);
	my $hblks = hblks_of($h);
	my $len = be32($h, 12);
	my $dblks = int(($len + 511) / 512);
	my $data = '';
	$data .= blk($b + $hblks + $_) for 0 .. $dblks - 1;
	for my $i (0 .. $dblks - 1) {
		my ($j, $k) = (int($i / 64), $i % 64);
		my $src = $j == 0 ? $h : blk($b + $j);
		my $off = $j == 0 ? 44 + 4 * $k : 4 + 4 * $k;
		substr($data, $i * 512, 4) = substr($src, $off, 4);
	}
	return (substr($data, 0, $len), $hblks + $dblks, be64($h, 16), be32($h, 40));
}

my ($last_blk, $last_lsn) = (-1, -1);
for my $b (0 .. $nblks - 1) {
	my $h = blk($b);
	next unless header_ok($h);
	my $lsn = be64($h, 16);
	next unless ($lsn % 4294967296) == $b;
	($last_blk, $last_lsn) = ($b, $lsn) if $lsn > $last_lsn;
}
if ($last_blk < 0) { print "head 0 tail 0\ntotal 0 0 0 0 0 0 0\n"; exit 0; }
my $lh = blk($last_blk);
my $head = ($last_blk + hblks_of($lh) + int((be32($lh, 12) + 511) / 512)) % $nblks;
my $tail = be64($lh, 24) % 4294967296;

# A last record that is an unmount record: clean, nothing to replay
# (xlog_find_tail moves the tail to the head).
sub unmount_record {
	my ($data, undef, undef, $nops) = payload($_[0]);
	return $nops == 1 && length($data) >= 12 && (unpack('C', substr($data, 9, 1)) & 0x20);
}
$tail = $head if unmount_record($last_blk);
print "head $head tail $tail\n";

# ---- relog state: address -> bytes last logged -----------------------
my (%last_buf, %last_ino);
sub classify {
	my ($map, $key, $bytes, $acc) = @_;
	my $len = length $bytes;
	if (!exists $map->{$key}) { $acc->[0] += $len; }
	elsif ($map->{$key} eq $bytes) { $acc->[2] += $len; }
	else { $acc->[1] += $len; }
	$map->{$key} = $bytes;
}

# The item's format region in either byte order: its type and a reader.
sub item_endian {
	my ($r) = @_;
	my $le = unpack 'v', substr($r, 0, 2);
	return ($le, 'v', 'V') if $le >= 0x1236 && $le <= 0x124f;
	return (unpack('n', substr($r, 0, 2)), 'n', 'N');
}

sub buf_item {
	my ($regs, $acc) = @_;
	my $f = $regs->[0];
	return if length($f) < 24;
	my (undef, $w16, $w32) = item_endian($f);
	my $flags = unpack $w16, substr($f, 4, 2);
	return if $flags & 0x2;				# XFS_BLF_CANCEL
	my ($lo, $hi) = unpack "$w32$w32", substr($f, 8, 8);
	my $blkno = $w32 eq 'V' ? $hi * 4294967296 + $lo : $lo * 4294967296 + $hi;
	my $words = unpack $w32, substr($f, 16, 4);
	my $fit = int((length($f) - 20) / 4);
	$words = $fit if $words > $fit;
	$words = 17 if $words > 17;
	my @w = map { unpack $w32, substr($f, 20 + 4 * $_, 4) } 0 .. $words - 1;
	my $nbits = 32 * $words;
	my @bit = map { ($w[$_ >> 5] >> ($_ & 31)) & 1 } 0 .. $nbits - 1;
	my $bit = 0;
	for my $i (1 .. $#$regs) {
		my $r = $regs->[$i];
		$bit++ while $bit < $nbits && !$bit[$bit];
		last if $bit >= $nbits;
		my $n = 0;
		$n++ while $bit + $n < $nbits && $bit[$bit + $n];
		$n = int(length($r) / 128) if length($r) < $n * 128;
		for my $c (0 .. $n - 1) {
			classify(\%last_buf, $blkno * 4 + $bit + $c, substr($r, 128 * $c, 128), $acc);
		}
		$bit += $n;
	}
}

sub inode_item {
	my ($regs, $acc) = @_;
	my $f = $regs->[0];
	return if length($f) < 52;
	my (undef, undef, $w32) = item_endian($f);
	my $fields = unpack $w32, substr($f, 4, 4);
	my $o = length($f) >= 56 ? 16 : 12;
	my ($lo, $hi) = unpack "$w32$w32", substr($f, $o, 8);
	my $ino = $w32 eq 'V' ? $hi * 4294967296 + $lo : $lo * 4294967296 + $hi;
	my @part = ($regs->[1]);
	my $idx = 2;
	push @part, ($fields & 0x00e) ? $regs->[$idx++] : undef;
	push @part, ($fields & 0x1c0) ? $regs->[$idx] : undef;
	for my $p (0 .. 2) {
		my $r = $part[$p];
		next unless defined $r;
		for (my $c = 0; 128 * $c < length $r; $c++) {
			classify(\%last_ino, "$ino/$p/$c", substr($r, 128 * $c, 128), $acc);
		}
	}
}

# ---- transactions, as recovery reassembles them ----------------------
my (%open, @total, $seq);
@total = (0) x 6;
$seq = 0;
sub lsn_str { my ($l) = @_; sprintf '%d/%d', int($l / 4294967296), $l % 4294967296 }

sub commit {
	my ($t, $commit_lsn) = @_;
	my (@b, @i);
	@b = (0, 0, 0);
	@i = (0, 0, 0);
	for my $item (@{ $t->{items} }) {
		my $type = (item_endian($item->[0]))[0];
		buf_item($item, \@b) if $type == 0x123c;
		inode_item($item, \@i) if $type == 0x123b;
	}
	$seq++;
	printf "ckpt %d 0x%08x %s %s %d %d %d %d %d %d %d\n", $seq, $t->{tid},
		lsn_str($t->{lsn}), lsn_str($commit_lsn), scalar(keys %{ $t->{recs} }), @b, @i;
	$total[$_] += $b[$_] for 0 .. 2;
	$total[3 + $_] += $i[$_] for 0 .. 2;
}

# A new region of @t: the transaction header first, then item regions.
sub add_region {
	my ($t, $data) = @_;
	return unless length $data;
	if (!$t->{header}) { $t->{header} = 1; return; }
	my $items = $t->{items};
	if (!@$items || @{ $items->[-1] } == $t->{want}) {
		my $f = $data;
		my (undef, $w16) = item_endian($f);
		$t->{want} = unpack $w16, substr($f, 2, 2);
		push @$items, [];
	}
	push @{ $items->[-1] }, $data;
}

my $b = $tail;
my $walked = 0;
while ($b != $head) {
	die "bad record header at block $b\n" unless header_ok(blk($b));
	my ($data, $blks, $lsn, $nops) = payload($b);
	my $pos = 0;
	for (1 .. $nops) {
		last if $pos + 12 > length $data;
		my ($tid, $len, $client, $flags) = unpack 'NNCC', substr($data, $pos, 10);
		my $d = substr($data, $pos + 12, $len);
		$pos += 12 + $len;
		my $t = $open{$tid};
		if (!$t) {
			next unless $flags & 0x01;		# START
			$open{$tid} = { tid => $tid, lsn => $lsn, items => [], recs => { $lsn => 1 } };
			next;
		}
		$t->{recs}{$lsn} = 1;
		$flags &= ~0x10;				# END
		$flags &= ~0x04 if $flags & 0x08;		# WAS_CONT
		if ($flags == 0x02) {				# COMMIT
			commit($t, $lsn);
			delete $open{$tid};
		} elsif ($flags == 0 || $flags == 0x04) {
			add_region($t, $d);
		} elsif ($flags == 0x08) {
			my $items = $t->{items};
			$items->[-1][-1] .= $d if @$items;
		} else {
			delete $open{$tid};			# unmount, or corrupt
		}
	}
	$b = ($b + $blks) % $nblks;
	die "walked past the log\n" if ($walked += $blks) > $nblks;
}
print "total $seq @total\n";
