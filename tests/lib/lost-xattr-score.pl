#!/usr/bin/perl
# lost-xattr-score.pl A.xattrs B.xattrs LOST.json: the xattrs that differ
# between copy A (recovered by the kernel) and copy B (xfs_repair -L) --
# added, removed, or with another value -- against the lost_xattr records
# of `xfs_logscope lost --json` (parent pointers aside: the kernel does not
# show them).  Prints "xattrs differ N reported M matched K recall R%
# precision P%" and what was missed or reported wrongly.
use strict;
use warnings;
use JSON::PP;

my ($fa, $fb, $fl) = @ARGV;
sub load {
	my ($f) = @_;
	my %s;
	open(my $h, '<', $f) or die "$f: $!";
	while (<$h>) {
		chomp;
		my ($i, $n, $v) = split /\t/;
		$s{"$i\t$n"} = $v;
	}
	return \%s;
}
my ($a, $b) = (load($fa), load($fb));
my %diff;
for my $k (keys %$a) {
	if (!exists $b->{$k}) { $diff{"$k\tadd"} = 1 }
	elsif ($b->{$k} ne $a->{$k}) { $diff{"$k\treplace"} = 1 }
}
for my $k (keys %$b) { $diff{"$k\tremove"} = 1 unless exists $a->{$k} }
my %rep;
open(my $h, '<', $fl) or die "$fl: $!";
while (<$h>) {
	next unless /"kind":"lost_xattr"/;
	my $r = decode_json($_);
	next if $r->{parent};
	$rep{ join("\t", hex($r->{ino}), $r->{name}, $r->{op}) } = 1;
}
my $match = grep { $rep{$_} } keys %diff;
my ($nd, $nr) = (scalar(keys %diff), scalar(keys %rep));
printf "xattrs differ %d reported %d matched %d recall %.1f%% precision %.1f%%\n", $nd, $nr,
	$match, $nd ? 100 * $match / $nd : 100, $nr ? 100 * $match / $nr : 100;
my @missed = grep { !$rep{$_} } sort keys %diff;
my @wrong = grep { !$diff{$_} } sort keys %rep;
print "missed: $_\n" for @missed[0 .. ($#missed < 9 ? $#missed : 9)];
print "wrong: $_\n" for @wrong[0 .. ($#wrong < 9 ? $#wrong : 9)];
