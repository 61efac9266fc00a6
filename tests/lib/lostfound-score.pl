#!/usr/bin/perl
# lostfound-score.pl REPAIR_OUTPUT LOST_JSON: the inodes xfs_repair -L moved
# to lost+found ("disconnected inode N" / "disconnected dir inode N") against
# the lost_found records of `lost --json`; one line "lost+found R repaired,
# P predicted, M both: recall X% precision Y%", then what differs.
# Independent of xfs_logscope: it reads the two outputs as text.
use strict;
use warnings;

my ($repair, $lost) = @ARGV;
my (%r, %p);
open(my $fh, '<', $repair) or die "$repair: $!";
while (<$fh>) {
	$r{$1} = 1 if /^disconnected (?:dir )?inode (\d+),/;
}
open($fh, '<', $lost) or die "$lost: $!";
while (<$fh>) {
	$p{hex $1} = 1 if /"kind":"lost_found","ino":"0x([0-9a-f]+)"/;
}
my $both = grep { $p{$_} } keys %r;
my ($nr, $np) = (scalar keys %r, scalar keys %p);
printf "lost+found %d repaired, %d predicted, %d both: recall %.1f%% precision %.1f%%\n",
	$nr, $np, $both, $nr ? 100 * $both / $nr : 100, $np ? 100 * $both / $np : 100;
print "missed: $_\n" for grep { !$p{$_} } sort { $a <=> $b } keys %r;
print "wrong: $_\n" for grep { !$r{$_} } sort { $a <=> $b } keys %p;
