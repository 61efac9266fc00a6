#!/usr/bin/perl
# Deterministic mutator of xfs_metadump files (v1 and v2), for
# tests/t0932-metadump-mutate.sh.
#
#   mutate-md.pl SEED INDEX IN OUT
#
# Writes OUT, a mutation of the metadump IN chosen by (SEED, INDEX) alone
# (own xorshift32 generator, as tests/fuzz/mutate.pl), and prints one line
# saying what was done.  The index blocks (v1) or the header and extent
# headers (v2) are found by walking the file as xfs_mdrestore does.  Kinds:
#   flip     XOR 1..16 random bytes anywhere
#   count    v1: set one index block's mb_count to a boundary value
#   daddr    v1: set one daddr; v2: one xme_addr (device bits included)
#   len      v2: set one xme_len to a boundary value
#   hdr      flip a byte of one index block or extent header, or of the v2 header
#   dup      copy one index block or extent (with its blocks) to the end
#   trunc    truncate anywhere
#   shift    insert or delete 1..600 bytes, moving what follows
#   magic    v1: break the magic of a later index block
#   multi    2..3 of the above
# A third of the outputs are then compressed (gzip, xz, zstd: the byte
# stream of OUT becomes compressed) and, half of those, truncated or
# flipped again in their compressed form.
use strict;
use warnings;
use FindBin;
use lib $FindBin::Bin;
use XorShift;
no warnings qw(portable);

my ($seed, $index, $in, $out) = @ARGV;
die "usage: mutate-md.pl SEED INDEX IN OUT\n" unless defined $out;

my $M32 = 0xffffffff;
XorShift::seed($seed, $index);

open(my $fh, '<:raw', $in) or die "mutate-md.pl: $in: $!\n";
my $d = do { local $/; <$fh> };
close $fh;

my $v2 = substr($d, 0, 4) eq 'XMD2';
my @bounds16 = (0, 1, 2, 62, 63, 64, 0x7fff, 0x8000, 0xffff);
my @bounds32 = (0, 1, 2, 7, 8, 0x3f, 0x40, 0x1000, 0x7fffffff, 0x80000000, 0xffffffff);
my @bounds64 = (0, 1, 2, 0x80000, 0x7ffff, 0xfffff, 0x100000, 0x3fffffffffffff,
	0x40000000000000, 0x80000000000000, 0xc0000000000000, 0xffffffffffffffff);

# The headers: v1 index blocks, or v2 extent headers, as [offset, length
# of what follows].
sub walk {
	my @h;
	if ($v2) {
		for (my $o = 24; $o + 12 <= length $d;) {
			my $len = unpack('N', substr($d, $o + 8, 4)) * 512;
			push @h, [$o, $len];
			$o += 12 + $len;
		}
	} else {
		for (my $o = 0; $o + 512 <= length $d;) {
			my $n = unpack('n', substr($d, $o + 4, 2));
			push @h, [$o, $n * 512];
			last if $n < 63;
			$o += 512 + $n * 512;
		}
	}
	return @h;
}

sub pick { my @h = walk(); return @h ? $h[below(scalar @h)] : undef; }

sub mutate_once {
	my @kinds = $v2 ? qw(flip daddr len hdr hdr dup trunc shift) :
			  qw(flip count daddr hdr dup trunc shift magic);
	my $k = $kinds[below(scalar @kinds)];
	my $h = pick();
	if ($k eq 'flip') {
		my $n = 1 + below(16);
		substr($d, below(length $d), 1) ^= chr(1 + below(255)) for 1 .. $n;
		return "flip $n bytes";
	}
	return 'no header' unless $h;
	my ($o, $len) = @$h;
	if ($k eq 'count') {
		my $v = $bounds16[below(scalar @bounds16)];
		substr($d, $o + 4, 2) = pack('n', $v);
		return "count at $o = $v";
	}
	if ($k eq 'daddr') {
		my $v = $bounds64[below(scalar @bounds64)] + below(3);
		my $at = $v2 ? $o : $o + 8 + 8 * below(63);
		substr($d, $at, 8) = pack('Q>', $v & 0xffffffffffffffff);
		return sprintf("daddr at %d = 0x%x", $at, $v);
	}
	if ($k eq 'len') {
		my $v = $bounds32[below(scalar @bounds32)];
		substr($d, $o + 8, 4) = pack('N', $v);
		return "xme_len at $o = $v";
	}
	if ($k eq 'hdr') {
		my $at = $v2 && below(4) == 0 ? below(24) : $o + below($v2 ? 12 : 8);
		substr($d, $at, 1) ^= chr(1 << below(8));
		return "header byte $at";
	}
	if ($k eq 'dup') {
		$d .= substr($d, $o, ($v2 ? 12 : 512) + $len);
		return "dup of $o";
	}
	if ($k eq 'trunc') {
		my $at = below(length $d);
		$d = substr($d, 0, $at);
		return "trunc at $at";
	}
	if ($k eq 'shift') {
		my $at = below(length $d);
		my $n = 1 + below(600);
		if (below(2)) {
			substr($d, $at, 0) = join('', map { chr(rnd() & 0xff) } 1 .. $n);
			return "insert $n at $at";
		}
		substr($d, $at, $n) = '';
		return "delete $n at $at";
	}
	if ($k eq 'magic') {
		my @h = walk();
		my ($mo) = @{ $h[$#h] };
		substr($d, $mo, 4) = 'XFSN';
		return "magic at $mo";
	}
}

my @what;
if (below(6) == 0) {
	push @what, mutate_once() for 1 .. 2 + below(2);
} else {
	push @what, mutate_once();
}
open($fh, '>:raw', $out) or die "mutate-md.pl: $out: $!\n";
print $fh $d;
close $fh;

# compressed, a third of them; then perhaps cut or flipped
my @z = (['gzip', '-c'], ['xz', '-c'], ['zstd', '-q', '-c']);
if (below(3) == 0) {
	my $z = $z[below(3)];
	system("$z->[0] @{$z}[1 .. $#$z] <'$out' >'$out.z' && mv '$out.z' '$out'") == 0 or
		die "mutate-md.pl: $z->[0] failed\n";
	push @what, $z->[0];
	my $c = below(4);
	if ($c <= 1) {
		open($fh, '<:raw', $out) or die;
		my $zd = do { local $/; <$fh> };
		close $fh;
		if ($c == 0) {
			$zd = substr($zd, 0, below(length $zd));
			push @what, 'cut';
		} else {
			substr($zd, below(length $zd), 1) ^= chr(1 + below(255));
			push @what, 'flipped';
		}
		open($fh, '>:raw', $out) or die;
		print $fh $zd;
		close $fh;
	}
}
print join(', ', @what), "\n";
