#!/usr/bin/perl
# pending-ref.pl IMG: the work pass 3 of log recovery finds in the
# filesystem image IMG (replay's output before pass 3, or any image whose
# log recovery has replayed): every AG's AGI unlinked buckets, each chain
# followed by di_next_unlinked, and, on a reflink filesystem, the CoW
# staging records of every AG's refcount btree (every leaf, left to right,
# from the leftmost path).  Prints
#   unlinked_buckets N unlinked_inodes N cow_extents N cow_ags N
# Reads the image itself with the on-disk offsets written here by hand:
# shares no code with xfs_logscope.
use strict;
use warnings;

my $img = shift or die "usage: pending-ref.pl IMG\n";
open(my $f, '<:raw', $img) or die "$img: $!\n";
sub rd {
	my ($off, $len) = @_;
	sysseek($f, $off, 0) or die "$img: seek $off\n";
	my $got = sysread($f, my $b, $len);
	die "$img: short read at $off\n" unless defined $got && $got == $len;
	return $b;
}
sub be32 { unpack('N', substr($_[0], $_[1], 4)) }
sub be16 { unpack('n', substr($_[0], $_[1], 2)) }

my $sb = rd(0, 512);
die "$img: no XFS superblock\n" unless be32($sb, 0) == 0x58465342;
my $bsize = be32($sb, 4);
my $agblocks = be32($sb, 84);
my $agcount = be32($sb, 88);
my $sect = be16($sb, 102);
my $isize = be16($sb, 104);
my $inopblog = unpack('C', substr($sb, 123, 1));
my $ro_compat = be32($sb, 212);
my $reflink = ($ro_compat & 0x4) != 0;

my ($buckets, $inodes, $cow, $cow_ags) = (0, 0, 0, 0);
my $ag_bytes = $agblocks * $bsize;
my $null = 0xffffffff;
for my $ag (0 .. $agcount - 1) {
	my $agi = rd($ag * $ag_bytes + 2 * $sect, 512);
	next unless be32($agi, 0) == 0x58414749;	# XAGI
	for my $b (0 .. 63) {
		my $agino = be32($agi, 40 + 4 * $b);
		next if $agino == $null;
		$buckets++;
		my %seen;
		while ($agino != $null && !$seen{$agino}++ && ($agino >> $inopblog) < $agblocks) {
			$inodes++;
			my $dino = rd($ag * $ag_bytes + $agino * $isize, 100);
			$agino = be32($dino, 96);	# di_next_unlinked
		}
	}
	next unless $reflink;
	my $agf = rd($ag * $ag_bytes + $sect, 512);
	next unless be32($agf, 0) == 0x58414746;	# XAGF
	my ($blk, $level) = (be32($agf, 88), be32($agf, 92));
	my $hdr = 56;
	# down the left edge to the first leaf
	for (my $l = $level; $l > 1; $l--) {
		my $node = rd($ag * $ag_bytes + $blk * $bsize, $bsize);
		my $maxrecs = int(($bsize - $hdr) / 8);
		$blk = be32($node, $hdr + 4 * $maxrecs);
	}
	my $n = 0;
	my %leaves;
	while ($blk != $null && !$leaves{$blk}++) {
		my $leaf = rd($ag * $ag_bytes + $blk * $bsize, $bsize);
		last unless be32($leaf, 0) == 0x52334643;	# R3FC
		my $recs = be16($leaf, 6);
		for my $i (0 .. $recs - 1) {
			$n++ if be32($leaf, $hdr + 12 * $i) & 0x80000000;
		}
		$blk = be32($leaf, 12);		# bb_rightsib
	}
	$cow += $n;
	$cow_ags++ if $n;
}
print "unlinked_buckets $buckets unlinked_inodes $inodes cow_extents $cow cow_ags $cow_ags\n";
