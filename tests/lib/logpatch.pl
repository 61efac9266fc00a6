#!/usr/bin/perl
# logpatch.pl IMG LOGOFF RECBLK FIND AT HEX: in the log record at block
# RECBLK of the internal log at byte LOGOFF of IMG, find the first
# occurrence of the bytes FIND (hex) in its payload, write the bytes HEX
# at AT bytes past it, and set the record's CRC again (CRC32C over the
# 328-byte header with h_crc zero, then the payload, as xlog_cksum), so
# that the kernel reads the record as written.  A patched byte that is
# the first word of a 512-byte block goes to h_cycle_data instead, where
# the kernel finds it (xlog_unpack_data).  Records of one header block
# only (h_size <= 32 KiB).  Shares no code with xfs_logscope.
use strict;
use warnings;

my ($img, $logoff, $recblk, $find, $at, $hex) = @ARGV;
die "usage: logpatch.pl IMG LOGOFF RECBLK FIND AT HEX\n" unless defined $hex;
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
sysread($f, my $data, $blocks * 512) == $blocks * 512 or die "short record\n";
# the payload as written, then as the kernel reads it (first words unpacked)
my $real = $data;
for my $b (0 .. $blocks - 1) {
	last if $b >= 64;
	substr($real, $b * 512, 4) = substr($hdr, 44 + 4 * $b, 4);
}
my $needle = pack('H*', $find);
my $pos = index($real, $needle);
die "bytes $find not in the record\n" if $pos < 0;
my $bytes = pack('H*', $hex);
for my $i (0 .. length($bytes) - 1) {
	my $o = $pos + $at + $i;
	if ($o % 512 < 4) {
		substr($hdr, 44 + 4 * int($o / 512) + $o % 512, 1) = substr($bytes, $i, 1);
	} else {
		substr($data, $o, 1) = substr($bytes, $i, 1);
	}
}
substr($hdr, 32, 4) = "\0\0\0\0";
my $crc = crc32c(0xffffffff, substr($hdr, 0, 328));
$crc = crc32c($crc, substr($data, 0, $len));
substr($hdr, 32, 4) = pack('V', ~$crc & 0xffffffff);
sysseek($f, $hoff, 0) or die;
syswrite($f, $hdr . $data) == 512 + length($data) or die "short write\n";
close($f) or die;
printf "patched %d bytes at payload byte %d of record %d\n", length($bytes), $pos + $at, $recblk;
