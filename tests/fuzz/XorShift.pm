# The mutators' generator (mutate.pl, mutate-md.pl): xorshift32 seeded
# from (SEED, INDEX) alone, so that a mutation is reproduced from its two
# numbers on any perl (no rand, no srand).
package XorShift;
use strict;
use warnings;
use Exporter 'import';
our @EXPORT = qw(rnd below);

my $M32 = 0xffffffff;
my $x = 0x1234567;

# seed SEED INDEX: start the sequence of mutation INDEX of seed SEED
sub seed {
	my ($seed, $index) = @_;
	$x = (($seed * 2654435761) ^ ($index * 40503 + 0x9e3779b9)) & $M32;
	$x = 0x1234567 if $x == 0;
	rnd() for 1 .. 8;
}

sub rnd {
	$x ^= ($x << 13) & $M32;
	$x ^= $x >> 17;
	$x ^= ($x << 5) & $M32;
	return $x;
}

# below N: 0 .. N-1 (0 when N is 0)
sub below { my $n = shift; return $n > 0 ? rnd() % $n : 0; }

1;
