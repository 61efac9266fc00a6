#!/usr/bin/perl
# key-units.pl KEYS.DEF - every numeric key's declared unit is the one its
# name gives by the rule the man page's JSON KEYS states:
#   _bb, _bbs, blk, blks, blkno, _block, _blocks at the end: basic blocks
#   (bb); _fsb, fsblocks at the end, or XFS's own names for filesystem
#   blocks (agbno, startblock, startoff, blockcount, nblocks, dblocks): fsb;
#   pct anywhere: pct; _ratio at the end: none; bytes anywhere: bytes;
#   chunk, first, last: chunk; map_size: words32; forkoff: words64; min,
#   p50, p90, p99, max, mean: measure; any other: bytes (a length, size or
#   offset) or none (a count, an id, flags).
# Keys of no number (str, bool, lsn, list, value) have no unit.  Prints
# each key whose declaration breaks the rule; exits 1 if any does.
use strict;
use warnings;

my %fsb = map { $_ => 1 } qw(agbno startblock startoff startoff1 startoff2
			     blockcount nblocks dblocks);
my %chunk = map { $_ => 1 } qw(chunk first last);
my %measure = map { $_ => 1 } qw(min p50 p90 p99 max mean);
my %numeric = map { $_ => 1 } qw(uint int hex oct real);

# The unit the name gives, or undef where it leaves bytes or none open.
sub named_unit {
	my ($n) = @_;
	return 'bb' if $n =~ /(?:_bbs?|blks?|blkno|_blocks?)$/;
	return 'fsb' if $n =~ /(?:_fsb|fsblocks)$/ || $fsb{$n};
	return 'pct' if $n =~ /pct/;
	return 'none' if $n =~ /_ratio$/;
	return 'bytes' if $n =~ /bytes/;
	return 'chunk' if $chunk{$n};
	return 'words32' if $n eq 'map_size';
	return 'words64' if $n eq 'forkoff';
	return 'measure' if $measure{$n};
	return undef;
}

my $def = shift or die "usage: key-units.pl KEYS.DEF\n";
open(my $fh, '<', $def) or die "$def: $!\n";
my ($n, @bad) = (0);
while (<$fh>) {
	next unless /^XLS_KEY\((\w+), (\w+), (\w+), /;
	my ($name, $kind, $unit) = ($1, $2, $3);
	$n++;
	my $want = $numeric{$kind} ? named_unit($name) : 'none';
	if (defined $want) {
		push @bad, "$name: $unit, its name says $want" if $unit ne $want;
	} elsif ($unit ne 'bytes' && $unit ne 'none') {
		push @bad, "$name: $unit, which its name does not say";
	}
}
die "$def: no XLS_KEY lines\n" unless $n;
print "$_\n" for @bad;
exit(@bad ? 1 : 0);
