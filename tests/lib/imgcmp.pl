#!/usr/bin/perl
# imgcmp.pl A B LOGOFF LOGBYTES: two images of one XFS filesystem, compared
# 512-byte sector by sector outside the log at byte LOGOFF (LOGBYTES long;
# 0 0 for an external log), the superblock's sb_crc and sb_lsn aside --
# the fields the kernel's unmount sets (xfs_sb_write_verify).  Prints each
# run of differing sectors ("daddr 0x..+N") and exits 1 when there is one.
# Independent of xfs_logscope: it reads the two files, nothing else.
use strict;
use warnings;

my ($fa, $fb, $logoff, $loglen) = @ARGV;
die "usage: imgcmp.pl A B LOGOFF LOGBYTES\n" unless defined $loglen;
open(my $a, '<:raw', $fa) or die "$fa: $!\n";
open(my $b, '<:raw', $fb) or die "$fb: $!\n";
my ($sa, $sb) = (-s $fa, -s $fb);
print "sizes differ: $sa and $sb\n" if $sa != $sb;
my $size = $sa < $sb ? $sa : $sb;
my $chunk = 1 << 20;
my ($run, $runs, $shown) = (undef, 0, 0);
my $flush = sub {
	return unless defined $run;
	printf "daddr 0x%x+%d\n", $run->[0], $run->[1] if $shown++ < 50;
	$runs++;
	$run = undef;
};
for (my $off = 0; $off < $size; $off += $chunk) {
	my $n = $size - $off < $chunk ? $size - $off : $chunk;
	sysseek($a, $off, 0); sysseek($b, $off, 0);
	my ($x, $y) = ('', '');
	sysread($a, $x, $n) == $n or die "$fa: short read\n";
	sysread($b, $y, $n) == $n or die "$fb: short read\n";
	if ($off == 0) {
		substr($_, 224, 4) = "\0" x 4 for $x, $y;	# sb_crc
		substr($_, 240, 8) = "\0" x 8 for $x, $y;	# sb_lsn
	}
	next if $x eq $y && !defined $run;
	for (my $s = 0; $s < $n; $s += 512) {
		my $at = $off + $s;
		my $same = substr($x, $s, 512) eq substr($y, $s, 512) ||
			   ($loglen && $at >= $logoff && $at < $logoff + $loglen);
		if ($same) {
			$flush->();
		} elsif (defined $run && $run->[0] + $run->[1] == $at / 512) {
			$run->[1]++;
		} else {
			$flush->();
			$run = [$at / 512, 1];
		}
	}
}
$flush->();
print "$runs runs of sectors differ\n" if $runs;
exit($runs || $sa != $sb ? 1 : 0);
