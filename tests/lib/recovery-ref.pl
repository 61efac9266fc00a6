#!/usr/bin/perl
# An independent, bit-at-a-time implementation of kernel log recovery's
# buffer region placement (xlog_recover_do_reg_buffer), checked against
# every buffer of "xfs_logscope bufs --json -v" read on standard input.
# Prints one line per disagreement; exits 1 if there was any.
use strict;
use warnings;

my ($bufs, $bad) = (0, 0);
while (my $line = <STDIN>) {
	next unless $line =~ /"kind":"buf"/ && $line =~ /"data_map":"([0-9a-f ]*)"/;
	my @words = map { hex } split / /, $1;
	my ($lens) = $line =~ /"region_lens":\[([0-9,]*)\]/;
	my @lens = length $lens ? split(/,/, $lens) : ();
	my ($len) = $line =~ /"len":(\d+)/;
	my ($blkno) = $line =~ /"blkno":"(0x[0-9a-f]+)"/;
	my ($got_places) = $line =~ /"region_list":\[([^\]]*)\]/;
	my ($got_runs) = $line =~ /"runs":(\d+)/;
	my ($got_split) = $line =~ /"split_runs":(\d+)/;
	my ($got_dirty) = $line =~ /"dirty_bytes":(\d+)/;
	$bufs++;

	my $nbits_map = 32 * @words;
	my @bit = map { ($words[$_ >> 5] >> ($_ & 31)) & 1 } 0 .. $nbits_map - 1;

	# Regions, as recovery places them.
	my (@places, $bit);
	$bit = 0;
	for my $l (@lens) {
		$bit++ while $bit < $nbits_map && !$bit[$bit];
		last if $bit >= $nbits_map;
		my $n = 0;
		$n++ while $bit + $n < $nbits_map && $bit[$bit + $n];
		$n = int($l / 128) if $l < $n * 128;
		push @places, [$bit, $n];
		$bit += $n;
	}
	# Maximal runs, and how many placed regions start in each.
	my @runs;
	for (my $i = 0; $i < $nbits_map; ) {
		if (!$bit[$i]) { $i++; next; }
		my $s = $i;
		$i++ while $i < $nbits_map && $bit[$i];
		push @runs, [$s, $i - $s];
	}
	my $split = 0;
	for my $r (@runs) {
		my $k = grep { $_->[1] > 0 && $_->[0] >= $r->[0] &&
			       $_->[0] < $r->[0] + $r->[1] } @places;
		$split++ if $k > 1;
	}
	my $chunks = int($len / 128);
	my $dirty = 0;
	$dirty += $bit[$_] for 0 .. ($chunks < $nbits_map ? $chunks : $nbits_map) - 1;
	$dirty *= 128;
	$dirty = $len if $dirty > $len;

	my $want_places = join ",", map { sprintf '{"offset":%d,"len":%d}',
		$_->[0] * 128, $_->[1] * 128 } @places;
	my @diff;
	push @diff, "places got [$got_places] want [$want_places]"
		if $got_places ne $want_places;
	push @diff, "runs got $got_runs want " . scalar(@runs) if $got_runs != @runs;
	push @diff, "split_runs got $got_split want $split" if $got_split != $split;
	push @diff, "dirty_bytes got $got_dirty want $dirty" if $got_dirty != $dirty;
	if (@diff) {
		$bad++;
		print "buffer $blkno: ", join("; ", @diff), "\n";
	}
}
print "checked $bufs buffers, $bad disagree\n";
exit($bad ? 1 : 0);
