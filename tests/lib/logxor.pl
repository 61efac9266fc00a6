#!/usr/bin/perl
# logxor.pl IMG LOGOFF RECBLK OFFSET XORHEX: XOR one byte of the payload of
# the log record at block RECBLK of the internal log at byte LOGOFF of IMG
# (byte OFFSET of the payload as the kernel reads it: the first word of a
# 512-byte block lives in h_cycle_data) with XORHEX, then set the record's
# CRC again as xlog_cksum computes it (over the 328-byte header with h_crc
# zero, then the payload as written).  Records of one header block only.
# Shares no code with xfs_logscope.
use strict;
use warnings;

my ($img, $logoff, $recblk, $off, $x) = @ARGV;
die "usage: logxor.pl IMG LOGOFF RECBLK OFFSET XORHEX\n" unless defined $x;
my @table;
for my $i (0 .. 255) {
	my $c = $i;
	$c = ($c & 1) ? (($c >> 1) ^ 0x82F63B78) : ($c >> 1) for 1 .. 8;
	push @table, $c;
}
sub crc32c {
	my ($crc, $buf) = @_;
	$crc = $table[($crc ^ $_) & 0xff] ^ ($crc >> 8) for unpack('C*', $buf);
	return $crc;
}
open(my $f, '+<:raw', $img) or die "$img: $!\n";
my $hoff = $logoff + $recblk * 512;
sysseek($f, $hoff, 0) or die;
sysread($f, my $hdr, 512) == 512 or die "short header\n";
die "no record header at block $recblk\n" unless unpack('N', $hdr) == 0xFEEDBABE;
my $len = unpack('N', substr($hdr, 12, 4));
my $blocks = int(($len + 511) / 512);
die "offset $off past the payload\n" if $off >= $len || $blocks > 64;
sysread($f, my $data, $blocks * 512) == $blocks * 512 or die "short record\n";
if ($off % 512 < 4) {
	my $p = 44 + 4 * int($off / 512) + $off % 512;
	substr($hdr, $p, 1) = chr(ord(substr($hdr, $p, 1)) ^ hex($x));
} else {
	substr($data, $off, 1) = chr(ord(substr($data, $off, 1)) ^ hex($x));
}
substr($hdr, 32, 4) = "\0\0\0\0";
my $crc = crc32c(crc32c(0xffffffff, substr($hdr, 0, 328)), substr($data, 0, $len));
substr($hdr, 32, 4) = pack('V', ~$crc & 0xffffffff);
sysseek($f, $hoff, 0) or die;
syswrite($f, $hdr . $data) == 512 + length($data) or die "short write\n";
close($f) or die;
