#!/usr/bin/perl
# Deterministic mutator of bare XFS logs, for tests/t0610-mutate.sh.
#
#   mutate.pl SEED INDEX IN OUT
#
# Writes OUT, a mutation of the log IN chosen by (SEED, INDEX) alone: the
# same arguments always give the same bytes (own xorshift32 generator, no
# perl rand).  Prints one line describing what was done.  Kinds:
#   flip     XOR 1..32 random bytes
#   trunc    truncate the file (usually at a block boundary)
#   zero     zero a range of bytes
#   garbage  replace 1..4 blocks by random bytes (half of them made to look
#            like record headers: magic, cycle, plausible h_len)
#   shift    insert or delete 1..8 blocks, moving every later record
#   header   set one field of one record header to a boundary value
#   payload  set one aligned word of a record's payload to a boundary value
#            (op lengths, flags, item magics and counts live there)
#   cycle    change the cycle stamp (first word) of a block
#   multi    2..4 of the above
use strict;
use warnings;
use FindBin;
use lib $FindBin::Bin;
use XorShift;

my ($seed, $index, $in, $out) = @ARGV;
die "usage: mutate.pl SEED INDEX IN OUT\n" unless defined $out;

my $M32 = 0xffffffff;
XorShift::seed($seed, $index);

open(my $fh, '<:raw', $in) or die "mutate.pl: $in: $!\n";
my $d = do { local $/; <$fh> };
close $fh;

my $BB = 512;
my @interesting = (0, 1, 2, 0x7f, 0x80, 0xff, 0x100, 0x1ff, 0x200, 0x201,
	0x7fff, 0x8000, 0x8001, 0xffff, 0x10000, 0x3ffff, 0x40000, 0x40001,
	0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff, 0xfeedbabe,
	0x123c, 0x3c120000, 0x123b, 0x1236, 0x5452414e, 0x4e415254);

sub headers {
	my @h;
	for (my $b = 0; $b * $BB + 4 <= length $d; $b++) {
		push @h, $b if substr($d, $b * $BB, 4) eq "\xfe\xed\xba\xbe";
	}
	return @h;
}
sub set32 { my ($off, $v) = @_; substr($d, $off, 4) = pack('N', $v & $M32) if $off + 4 <= length $d; }
sub get32 { my $off = shift; return $off + 4 <= length $d ? unpack('N', substr($d, $off, 4)) : 0; }
sub rbytes { my $n = shift; return join('', map { chr(rnd() & 0xff) } 1 .. $n); }
sub nblocks { return int(length($d) / $BB); }

# xlog_rec_header field offsets
my %hfield = (h_cycle => 4, h_version => 8, h_len => 12, h_lsn_cycle => 16,
	h_lsn_blk => 20, h_tail_cycle => 24, h_tail_blk => 28, h_prev_block => 36,
	h_num_logops => 40, h_fmt => 300, h_size => 320);
my @hnames = sort keys %hfield;

my @kinds = qw(flip trunc zero garbage shift header payload cycle multi);
my @desc;

sub mutate {
	my $k = shift;
	my $len = length $d;
	return push(@desc, "noop(empty)") if $len == 0;
	if ($k eq 'flip') {
		my $n = 1 + below(32);
		for (1 .. $n) {
			my $o = below($len);
			substr($d, $o, 1) = chr(ord(substr($d, $o, 1)) ^ ((rnd() & 0xff) | 1));
		}
		push @desc, "flip($n)";
	} elsif ($k eq 'trunc') {
		my $nl = below(4) ? 32768 + below($len > 32768 ? $len - 32768 : 1) : below($len);
		$nl -= $nl % $BB if below(4);
		$d = substr($d, 0, $nl);
		push @desc, "trunc($nl)";
	} elsif ($k eq 'zero') {
		my $o = below($len);
		my $n = 1 + below(below(2) ? 16384 : 600);
		$n = $len - $o if $o + $n > $len;
		substr($d, $o, $n) = "\0" x $n;
		push @desc, "zero($o,$n)";
	} elsif ($k eq 'garbage') {
		my $n = 1 + below(4);
		for (1 .. $n) {
			my $b = below(nblocks());
			my $g = rbytes($BB);
			if (below(2)) {
				substr($g, 0, 4) = "\xfe\xed\xba\xbe";
				substr($g, 4, 4) = pack('N', 1 + below(2));
				substr($g, 8, 4) = pack('N', 2);
				substr($g, 12, 4) = pack('N', 1 + below(70000));
				substr($g, 20, 4) = pack('N', $b);
				substr($g, 40, 4) = pack('N', below(40));
			}
			substr($d, $b * $BB, $BB) = $g if ($b + 1) * $BB <= length $d;
		}
		push @desc, "garbage($n)";
	} elsif ($k eq 'shift') {
		my @h = headers();
		my $b = @h && below(2) ? $h[below(scalar @h)] : below(nblocks());
		my $n = 1 + below(8);
		if (below(2)) {
			my $blk = below(2) ? "\0" x ($BB * $n) : substr($d, $b * $BB, $BB) x $n;
			substr($d, $b * $BB, 0) = $blk;
			push @desc, "insert($b,$n)";
		} else {
			substr($d, $b * $BB, $BB * $n) = '' if $b * $BB < length $d;
			push @desc, "delete($b,$n)";
		}
	} elsif ($k eq 'header') {
		my @h = headers();
		return mutate('flip') unless @h;
		my $b = $h[below(scalar @h)];
		my $f = $hnames[below(scalar @hnames)];
		my $off = $b * $BB + $hfield{$f};
		my $old = get32($off);
		my $v = below(3) == 0 ? $old + below(5) - 2 :
			below(4) == 0 ? rnd() : $interesting[below(scalar @interesting)];
		set32($off, $v);
		push @desc, sprintf("header(%u,%s=0x%x)", $b, $f, $v & $M32);
	} elsif ($k eq 'payload') {
		my @h = headers();
		return mutate('flip') unless @h;
		my $b = $h[below(scalar @h)];
		my $hl = get32($b * $BB + 12);
		$hl = 4096 if $hl == 0 || $hl > 262144;
		my $hs = get32($b * $BB + 320);
		my $hblks = $hs > 32768 ? int(($hs + 32767) / 32768) : 1;
		my $o = ($b + $hblks) * $BB + 4 * below(int($hl / 4));
		my $v = $interesting[below(scalar @interesting)];
		my $w = below(3);
		if ($w == 0 && $o + 1 <= length $d) {
			substr($d, $o, 1) = chr($v & 0xff);
		} elsif ($w == 1 && $o + 2 <= length $d) {
			substr($d, $o, 2) = pack(below(2) ? 'n' : 'v', $v & 0xffff);
		} else {
			set32($o, $v);
		}
		push @desc, sprintf("payload(%u,+%u,0x%x)", $b, $o - ($b + $hblks) * $BB, $v);
	} elsif ($k eq 'cycle') {
		my $b = below(nblocks());
		my $v = (0, 1, 2, 3, 0xfeedbabe, 0xffffffff)[below(6)];
		set32($b * $BB, $v);
		push @desc, sprintf("cycle(%u,0x%x)", $b, $v);
	} else {
		my $n = 2 + below(3);
		mutate($kinds[below(scalar @kinds - 1)]) for 1 .. $n;
	}
}

mutate($kinds[below(scalar @kinds)]);
open($fh, '>:raw', $out) or die "mutate.pl: $out: $!\n";
print $fh $d;
close $fh or die "mutate.pl: $out: $!\n";
print join(' ', @desc), "\n";
