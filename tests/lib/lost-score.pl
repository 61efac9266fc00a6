#!/usr/bin/perl
# lost-score.pl A.walk B.walk LOST.json: the directory entries that differ
# between copy A (recovered by the kernel) and copy B (xfs_repair -L),
# against what `xfs_logscope lost --json` reports.  Prints
#   entries A-B+B-A reported matched recall precision
# and the entries missed or reported wrongly (at most 20 of each).
use strict;
use warnings;
use JSON::PP;

my ($fa, $fb, $fl) = @ARGV;
sub walk {
	my ($f) = @_;
	my %s;
	open(my $h, '<', $f) or die "$f: $!";
	while (<$h>) {
		chomp;
		my ($d, $n, $i) = split /\t/, $_, 3;
		$s{"$d\t$n\t$i"} = 1;
	}
	return \%s;
}
my ($a, $b) = (walk($fa), walk($fb));
my %diff;
$diff{"$_\tadd"} = 1 for grep { !$b->{$_} } keys %$a;
$diff{"$_\tremove"} = 1 for grep { !$a->{$_} } keys %$b;
my %rep;
open(my $h, '<', $fl) or die "$fl: $!";
while (<$h>) {
	next unless /"kind":"lost_dirent"/;
	my $r = decode_json($_);
	$rep{ join("\t", hex($r->{dir}), $r->{name}, hex($r->{ino}), $r->{op}) } = 1;
}
my $match = grep { $rep{$_} } keys %diff;
my ($nd, $nr) = (scalar(keys %diff), scalar(keys %rep));
my $recall = $nd ? 100 * $match / $nd : 100;
my $precision = $nr ? 100 * $match / $nr : 100;
my $adds = grep { /\tadd$/ } keys %diff;
printf "differ %d (add %d, remove %d) reported %d matched %d recall %.1f%% precision %.1f%%\n",
	$nd, $adds, $nd - $adds, $nr, $match, $recall, $precision;
my @missed = grep { !$rep{$_} } sort keys %diff;
my @wrong = grep { !$diff{$_} } sort keys %rep;
print "missed: $_\n" for @missed[0 .. ($#missed < 19 ? $#missed : 19)];
print "wrong: $_\n" for @wrong[0 .. ($#wrong < 19 ? $#wrong : 19)];
