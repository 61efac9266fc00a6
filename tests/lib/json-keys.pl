#!/usr/bin/perl
# json-keys.pl MANPAGE < JSONL - every key the tool writes (and every key
# of an object in one of its lists) is named under its kind in the man
# page's JSON KEYS section or in the section's opening paragraph, and
# every kind has an entry there.  An entry is a .TP paragraph whose first
# line names its kinds in bold.  Prints what is missing; exits 1 if
# anything is.
use strict;
use warnings;
use JSON::PP;

my $man = shift or die "usage: json-keys.pl MANPAGE < JSONL\n";
open(my $fh, '<', $man) or die "$man: $!\n";
my ($in, @entries, $cur) = (0);
my %global;
while (my $l = <$fh>) {
	if ($l =~ /^\.SH /) {
		$in = $l =~ /^\.SH JSON KEYS/;
		next;
	}
	next unless $in;
	if ($l =~ /^\.TP/) {
		$cur = { head => undef, words => {} };
		push @entries, $cur;
		next;
	}
	my $words = $cur ? $cur->{words} : \%global;
	if ($cur && !defined $cur->{head}) {
		$cur->{head} = $l;
		my %k;
		$k{$1} = 1 while $l =~ /\\fB([a-z_0-9]+)/g;
		$k{$1} = 1 if $l =~ /^\.B ([a-z_0-9]+)/;
		$cur->{kinds} = [ keys %k ];
	}
	(my $t = $l) =~ s/\\f[BIRP]//g;
	$t =~ s/\\-/-/g;
	$words->{$1} = 1 while $t =~ /([A-Za-z_][A-Za-z0-9_]*)/g;
}
my %doc;
for my $e (@entries) {
	for my $k (@{ $e->{kinds} }) {
		$doc{$k}{$_} = 1 for keys %{ $e->{words} };
	}
}
my (%seen, %shapes, $bad);
while (my $l = <STDIN>) {
	next unless $l =~ /^\{/;
	# decode only the first line of each sequence of keys: JSON::PP is
	# slow, and a run prints hundreds of thousands of lines of few shapes
	my %k;
	my $sig = join(",", grep { !$k{$_}++ } $l =~ /"([a-z_0-9]+)":/g);
	next if $shapes{$sig}++;
	my $o = eval { decode_json($l) };
	if (!$o) {
		print "not JSON: $l";
		$bad = 1;
		next;
	}
	my $kind = $o->{kind} // '(none)';
	for my $key (keys %$o) {
		$seen{$kind}{$key}++;
		# the keys of the objects in a list ({offset,len}, ...) too
		my $v = $o->{$key};
		for my $e (ref $v eq 'ARRAY' ? @$v : ($v)) {
			next unless ref $e eq 'HASH';
			$seen{$kind}{$_}++ for keys %$e;
		}
	}
}
for my $kind (sort keys %seen) {
	if (!$doc{$kind}) {
		print "kind $kind: no entry in JSON KEYS\n";
		$bad = 1;
		next;
	}
	my @miss = grep { !$doc{$kind}{$_} && !$global{$_} } sort keys %{ $seen{$kind} };
	next unless @miss;
	print "kind $kind: undocumented keys: @miss\n";
	$bad = 1;
}
exit($bad ? 1 : 0);
