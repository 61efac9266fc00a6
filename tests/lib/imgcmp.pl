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
open(my $ha, '<:raw', $fa) or die "$fa: $!\n";
open(my $hb, '<:raw', $fb) or die "$fb: $!\n";
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
# the data extents of a file (SEEK_DATA, SEEK_HOLE): holes read as zeros,
# so only where either file holds data is read
sub extents {
	my ($fh, $len) = @_;
	my ($off, @e) = (0);
	while ($off < $len) {
		my $d = sysseek($fh, $off, 3);
		last unless defined $d;
		my $h = sysseek($fh, $d, 4);
		$h = $len unless defined $h;
		push @e, [$d, $h];
		$off = $h;
	}
	return @e;
}
my @ranges = sort { $a->[0] <=> $b->[0] } (extents($ha, $size), extents($hb, $size));
push @ranges, [0, 512] unless @ranges && $ranges[0][0] == 0;	# the superblock, always
@ranges = sort { $a->[0] <=> $b->[0] } @ranges;
my $pos = 0;
for my $r (@ranges) {
	my ($start, $end) = @$r;
	$start = $pos if $start < $pos;
	$start -= $start % 512;
	$end = $size if $end > $size;
	next if $start >= $end;
	$pos = $end;
	for (my $off = $start; $off < $end; $off += $chunk) {
		my $n = $end - $off < $chunk ? $end - $off : $chunk;
		$n += 512 - $n % 512 if $n % 512 && $off + $n + 512 - $n % 512 <= $size;
		sysseek($ha, $off, 0); sysseek($hb, $off, 0);
		my ($x, $y) = ('', '');
		sysread($ha, $x, $n) == $n or die "$fa: short read\n";
		sysread($hb, $y, $n) == $n or die "$fb: short read\n";
		if ($off == 0) {
			substr($_, 224, 4) = "\0" x 4 for $x, $y;	# sb_crc
			substr($_, 240, 8) = "\0" x 8 for $x, $y;	# sb_lsn
		}
		if ($x eq $y) {
			$flush->();
			next;
		}
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
}
$flush->();
print "$runs runs of sectors differ\n" if $runs;
exit($runs || $sa != $sb ? 1 : 0);
