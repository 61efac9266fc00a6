# applydelta.pl IMG DELTA: patch IMG (a copy of NAME.img) into the
# kernel's recovered copy outside the log; prints the runs and sectors
# patched.  DELTA's format: tests/images/mkbe.sh.
use strict;
use warnings;
my ($img, $delta) = @ARGV;
open(my $o, '+<:raw', $img) or die "$img: $!\n";
open(my $d, '<:raw', $delta) or die "$delta: $!\n";
my $h = <$d>;
my ($size, $logoff, $loglen) = $h =~ /^xls-imgdelta 1 (\d+) (\d+) (\d+)\n$/ or die "$delta: bad header\n";
$size == -s $img or die "$delta: for an image of $size bytes\n";
my ($runs, $secs, $end) = (0, 0, 0);
while (my $l = <$d>) {
	if ($l eq "end\n") { $end = 1; last; }
	my ($daddr, $n) = $l =~ /^(\d+) (\d+)\n$/ or die "$delta: bad record\n";
	my ($at, $len) = (512 * $daddr, 512 * $n);
	$at + $len <= $size or die "$delta: past the end\n";
	$at + $len <= $logoff || $at >= $logoff + $loglen or die "$delta: inside the log\n";
	read($d, my $buf, $len) == $len or die "$delta: short\n";
	sysseek($o, $at, 0);
	syswrite($o, $buf) == $len or die "$img: $!\n";
	$runs++;
	$secs += $n;
}
$end && !defined(<$d>) or die "$delta: no end, or bytes after it\n";
print "$runs $secs\n";
