#!/usr/bin/perl
# stale-suffix.pl WHOLE.json CUT.json TID: after a record inside checkpoint
# TID was made untrustworthy (CUT), `trans --stale --json` must show the
# checkpoint as two transactions: its start, incomplete, and from the next
# trusted record a partial one whose items are exactly the last items of
# the whole checkpoint (WHOLE), every field but the position the same.
# Exits 1 and says why otherwise.  Shares no code with xfs_logscope.
use strict;
use warnings;
use JSON::PP;

my ($whole, $cut, $tid) = @ARGV;
my $json = JSON::PP->new->canonical(1);

sub items {
	my ($path, $want_lsn) = @_;
	my (@items, @trans);
	open(my $fh, '<', $path) or die "$path: $!\n";
	while (my $line = <$fh>) {
		my $r = decode_json($line);
		next unless ($r->{tid} // '') eq $tid && $r->{stale};
		if ($r->{kind} eq 'trans') {
			push @trans, $r;
			next;
		}
		next unless $r->{kind} eq 'item';
		next if defined $want_lsn && $r->{lsn} ne $want_lsn;
		delete @$r{qw(index lsn)};
		push @items, $json->encode($r);
	}
	close($fh);
	return (\@items, \@trans);
}

my ($all, $wt) = items($whole);
die "no single whole checkpoint $tid\n" unless @$wt == 1 && !$wt->[0]{partial};
my (undef, $ct) = items($cut);
my @p = grep { $_->{partial} } @$ct;
die "no partial transaction $tid after the cut\n" unless @p == 1;
die "partial $tid is not committed\n" unless $p[0]{state} eq 'committed';
die "partial $tid: commit $p[0]{commit_lsn}, the whole one's $wt->[0]{commit_lsn}\n"
	unless $p[0]{commit_lsn} eq $wt->[0]{commit_lsn};
my ($part) = items($cut, $p[0]{lsn});
die "partial $tid has no item\n" unless @$part;
my @suffix = @$all[@$all - @$part .. $#$all];
for my $i (0 .. $#$part) {
	next if $part->[$i] eq $suffix[$i];
	die "partial $tid item $i differs:\n  $part->[$i]\n  $suffix[$i]\n";
}
printf "partial %s from %s: its %u items the last of %u, %u ops skipped\n",
	$tid, $p[0]{lsn}, scalar @$part, scalar @$all, $p[0]{skipped_ops};
