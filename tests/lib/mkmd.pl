#!/usr/bin/perl
# mkmd.pl - write a small xfs_metadump file, v1 or v2, from pieces, with
# the defects a test asks for.  It shares no code with src/: the formats
# are written from xfsprogs' description (include/xfs_metadump.h).
#
#   perl mkmd.pl [OPTION...] OUT PIECE...
#
# PIECE is DEV:DADDR:SOURCE, one v2 extent (v1: its sectors, 63 to an
# index block), in the order given:
#   DEV     d data, l log, r realtime, 3 (no such device; v2 only)
#   DADDR   512-byte sector, decimal or 0x hex
#   SOURCE  img=FILE@SECTOR+COUNT  COUNT sectors of FILE from SECTOR
#           file=FILE              all of FILE, zero-padded to a sector
#           fill=BYTE+COUNT        COUNT sectors of the byte BYTE
# Options:
#   -v N             version 1 (default) or 2
#   --logblocks=N    in a superblock piece at daddr 0: set sb_logblocks
#   --rblocks=N      ... and sb_rblocks
#   --info=N         v1 mb_info (default 0x0d: flags, full blocks, dirty log)
#   --blocklog=N     v1 mb_blocklog (default 9)
#   --magic-at=K     v1: index block K gets the magic 'XXXX'
#   --count-at=K:N   v1: index block K says mb_count N
#   --no-end         v1: no closing index block after a full last one
#   --compat=N --incompat=N --reserved=N --version=N   v2 header fields
#   --len-at=K:N     v2: extent K's header says xme_len N
use strict;
use warnings;

my %o = (v => 1, info => 0x0d, blocklog => 9, compat => 0x06, incompat => 0,
	 reserved => 0, version => 2);
my (%magic_at, %count_at, %len_at);
while (@ARGV && $ARGV[0] =~ /^-/) {
	my $a = shift @ARGV;
	if ($a eq '-v') { $o{v} = shift @ARGV; }
	elsif ($a =~ /^--(logblocks|rblocks|info|blocklog|compat|incompat|reserved|version)=(.+)$/) { $o{$1} = oct_or_dec($2); }
	elsif ($a =~ /^--magic-at=(\d+)$/) { $magic_at{$1} = 1; }
	elsif ($a =~ /^--count-at=(\d+):(\d+)$/) { $count_at{$1} = $2; }
	elsif ($a =~ /^--len-at=(\d+):(\d+)$/) { $len_at{$1} = $2; }
	elsif ($a eq '--no-end') { $o{no_end} = 1; }
	else { die "mkmd.pl: unknown option $a\n"; }
}
my $out = shift @ARGV or die "usage: mkmd.pl [OPTION...] OUT PIECE...\n";

sub oct_or_dec { my ($s) = @_; return $s =~ /^0/ ? oct($s) : $s; }

sub slurp {
	my ($f, $off, $len) = @_;
	open(my $fh, '<:raw', $f) or die "mkmd.pl: $f: $!\n";
	my $b = '';
	if (defined $off) {
		sysseek($fh, $off, 0) or die "mkmd.pl: seek $f\n";
		sysread($fh, $b, $len) == $len or die "mkmd.pl: short read of $f\n";
	} else {
		local $/;
		$b = <$fh>;
	}
	return $b;
}

my %devbits = (d => 0, l => 1, r => 2, 3 => 3);
my @pieces;
for my $p (@ARGV) {
	my ($dev, $daddr, $src) = $p =~ /^([dlr3]):(0x[0-9a-fA-F]+|\d+):(.+)$/
		or die "mkmd.pl: bad piece $p\n";
	$daddr = oct_or_dec($daddr);
	my $data;
	if ($src =~ /^img=(.+)@(\d+)\+(\d+)$/) { $data = slurp($1, $2 * 512, $3 * 512); }
	elsif ($src =~ /^file=(.+)$/) { $data = slurp($1); }
	elsif ($src =~ /^fill=(0x[0-9a-fA-F]+|\d+)\+(\d+)$/) { $data = chr(oct_or_dec($1)) x ($2 * 512); }
	else { die "mkmd.pl: bad source $src\n"; }
	$data .= "\0" x ((512 - length($data) % 512) % 512);
	if ($daddr == 0 && defined $o{logblocks} && substr($data, 0, 4) eq 'XFSB') {
		substr($data, 96, 4) = pack('N', $o{logblocks});	# sb_logblocks
	}
	if ($daddr == 0 && defined $o{rblocks} && substr($data, 0, 4) eq 'XFSB') {
		substr($data, 16, 8) = pack('Q>', $o{rblocks});		# sb_rblocks
	}
	push @pieces, [$devbits{$dev}, $daddr, $data];
}

open(my $fh, '>:raw', $out) or die "mkmd.pl: $out: $!\n";
if ($o{v} == 1) {
	# every sector of every piece, 63 to an index block
	my @sectors;
	for my $p (@pieces) {
		for (my $i = 0; $i < length($p->[2]) / 512; $i++) {
			push @sectors, [$p->[1] + $i, substr($p->[2], $i * 512, 512)];
		}
	}
	my $k = 0;
	while (1) {
		my @chunk = splice(@sectors, 0, 63);
		my $n = exists $count_at{$k} ? $count_at{$k} : scalar @chunk;
		my $idx = ($magic_at{$k} ? 'XXXX' : 'XFSM') . pack('nCC', $n, $o{blocklog}, $o{info}) .
			  join('', map { pack('Q>', $_->[0]) } @chunk);
		print $fh $idx . ("\0" x (512 - length($idx))) . join('', map { $_->[1] } @chunk);
		$k++;
		last if @chunk < 63 || (!@sectors && $o{no_end});
	}
} else {
	print $fh pack('NNNNQ>', 0x584D4432, $o{version}, $o{compat}, $o{incompat}, $o{reserved});
	my $k = 0;
	for my $p (@pieces) {
		my $len = exists $len_at{$k} ? $len_at{$k} : length($p->[2]) / 512;
		print $fh pack('Q>N', ($p->[0] << 54) | $p->[1], $len) . $p->[2];
		$k++;
	}
}
close($fh) or die "mkmd.pl: $out: $!\n";
