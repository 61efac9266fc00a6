#!/usr/bin/perl
# Write a bare log that costs the trans stage one search of the open
# transaction table per op: 1024 transactions are started (the table's
# limit), then every op belongs to a different one of them.
#
#   open-trans-log.pl OUT BLOCKS      (BLOCKS of 512 bytes, >= 256)
#
# Records are v2, 32 KiB, cycle 1, CRC 0 (accepted); the rest of the log is
# zeroed.  The ops are 12-byte headers with no payload, ~2660 a record.  A
# 64 MiB log (131072 blocks) holds 5.4 million ops.  With a linear search of
# the open transactions this took ~4 s of CPU; trans.c now hashes them by
# tid, and the log reads in ~0.1 s.
use strict;
use warnings;

my ($out, $nblks) = @ARGV;
die "usage: open-trans-log.pl OUT BLOCKS\n" unless defined $nblks && $nblks >= 256;
my $BB = 512;
open(my $fh, '>:raw', $out) or die "$out: $!\n";
my $blk = 0;

sub op { my ($tid, $flags, $data) = @_; $data //= '';
	return pack('NNCCn', $tid, length $data, 0x69, $flags, 0) . $data; }

sub record {
	my @ops = @_;
	my $payload = join('', @ops);
	my $hlen = length $payload;
	my $dblks = int(($hlen + $BB - 1) / $BB);
	$payload .= "\0" x ($dblks * $BB - $hlen);
	my $hdr = "\0" x $BB;
	substr($hdr, 0, 16) = pack('NNNN', 0xfeedbabe, 1, 2, $hlen);
	substr($hdr, 16, 16) = pack('NNNN', 1, $blk, 1, 0);
	substr($hdr, 40, 4) = pack('N', scalar @ops);
	for my $i (0 .. $dblks - 1) {	# cycle stamps, saved words in h_cycle_data
		substr($hdr, 44 + 4 * $i, 4) = substr($payload, $i * $BB, 4);
		substr($payload, $i * $BB, 4) = pack('N', 1);
	}
	substr($hdr, 300, 4) = pack('N', 1);		# h_fmt: Linux LE
	substr($hdr, 320, 4) = pack('N', 32768);	# h_size
	print $fh $hdr, $payload;
	$blk += 1 + $dblks;
}

my @ops;
my $size = 0;
sub add {
	my $o = shift;
	if ($size + length($o) > 32000) { record(@ops); @ops = (); $size = 0; }
	push @ops, $o;
	$size += length $o;
}
for my $t (0 .. 1023) {
	add(op(0x1000 + $t, 1));
	add(op(0x1000 + $t, 0, pack('VVVV', 0x5452414e, 1, 0x1000 + $t, 1)));
}
record(@ops) if @ops;
my $n = 0;
while ($blk + 66 < $nblks - 64) {
	record(map { op(0x1000 + (($n++) * 7919) % 1024, 0) } 1 .. 2660);
}
print $fh "\0" x (($nblks - $blk) * $BB);
close $fh or die "$out: $!\n";
