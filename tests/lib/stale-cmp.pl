#!/usr/bin/perl
# stale-cmp.pl DIRTY.json RECOVERED.json: of the committed transactions
# `trans --json` found on a dirty log, how many `trans --stale --json`
# finds again, marked stale and the same to the byte (tid, LSN, commit
# LSN, state, counts, and every item with every field), on a copy of that
# log the kernel recovered and unmounted (its records now before the
# tail).  Prints "committed N same M", then up to 5 that differ; exits 0.
# Reads the JSON itself: shares no code with xfs_logscope.
use strict;
use warnings;
use JSON::PP;

my $json = JSON::PP->new->canonical(1);

sub load {
	my ($path, $stale) = @_;
	my (%trans, %items);
	open(my $fh, '<', $path) or die "$path: $!\n";
	while (my $line = <$fh>) {
		my $r = decode_json($line);
		my $kind = $r->{kind} // '';
		next unless $kind eq 'trans' || $kind eq 'item';
		if ($stale) {
			next unless $r->{stale};
			delete $r->{stale};
		}
		my $key = "$r->{tid} $r->{lsn}";
		if ($kind eq 'item') {
			push @{$items{$key}}, $json->encode($r);
		} else {
			# a tid and LSN seen twice is two transactions: keep both apart
			$key .= ' again' while exists $trans{$key};
			$trans{$key} = $r;
		}
	}
	close($fh);
	return (\%trans, \%items);
}

my ($dt, $di) = load($ARGV[0], 0);
my ($rt, $ri) = load($ARGV[1], 1);
my ($n, $same, @bad) = (0, 0);
for my $key (sort keys %$dt) {
	next unless $dt->{$key}{state} eq 'committed';
	$n++;
	my $r = $rt->{$key};
	my $ok = $r && $json->encode($r) eq $json->encode($dt->{$key}) &&
		 join("\n", @{$di->{$key} // []}) eq join("\n", @{$ri->{$key} // []});
	if ($ok) { $same++ } else { push @bad, $key }
}
print "committed $n same $same\n";
print "differs: $_\n" for grep { defined } @bad[0 .. 4];
