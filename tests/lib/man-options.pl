#!/usr/bin/perl
# man-options.pl MAN HELPDIR: the man page's OPTIONS against each command's
# option table as its help prints it (HELPDIR/CMD, from 'xfs_logscope help
# CMD'): every option a command's help lists has an entry in OPTIONS that
# names the command (the options every reading command shares excepted),
# and every option an entry names is one some command takes.  Prints what
# disagrees; exits 1 if anything does.
use strict;
use warnings;

my ($man, $dir) = @ARGV;
my %shared = map { $_ => 1 } qw(--file --threads --logdev --force --json --csv --help --usage --version);

open my $m, '<', $man or die "$man: $!";
my ($in, @entries, $cur) = (0);
while (<$m>) {
	if (/^\.SH /) { $in = /^\.SH OPTIONS/; next; }
	next unless $in;
	if (/^\.TP/) { $cur = { tag => undef, body => '' }; push @entries, $cur; next; }
	next unless $cur;
	if (!defined $cur->{tag}) { $cur->{tag} = $_; next; }
	$cur->{body} .= $_;
}
close $m;

my (%man_opt_cmds, %man_opts);
for my $e (@entries) {
	(my $tag = $e->{tag}) =~ s/\\-/-/g;
	my @opts = $tag =~ /(--[a-z][a-z-]*|(?<![a-z-])-[a-zA-Z](?![a-z-]))/g;
	my @cmds = $e->{body} =~ /\\fB([a-z]+)(?:\\fR| )/g;
	for my $o (@opts) {
		$man_opts{$o} = 1;
		$man_opt_cmds{$o}{$_} = 1 for @cmds;
	}
}

my $bad = 0;
my %help_opts;
opendir my $d, $dir or die "$dir: $!";
for my $cmd (sort grep { !/^\./ } readdir $d) {
	open my $h, '<', "$dir/$cmd" or die;
	while (<$h>) {
		next unless /^\s+(?:(-[a-zA-Z]), )?(--[a-z][a-z-]*)/;
		my ($short, $long) = ($1, $2);
		$help_opts{$long} = 1;
		$help_opts{$short} = 1 if $short;
		next if $shared{$long};
		if (!$man_opts{$long}) {
			print "$cmd $long: no entry in the man page's OPTIONS\n";
			$bad = 1;
		} elsif (!$man_opt_cmds{$long}{$cmd}) {
			print "$cmd $long: its entry in OPTIONS does not name $cmd\n";
			$bad = 1;
		}
	}
	close $h;
}
for my $o (sort keys %man_opts) {
	next if $help_opts{$o} || $o eq '-h' || $o eq '-V' || $o eq '--version';
	print "$o: in the man page's OPTIONS, but no command takes it\n";
	$bad = 1;
}
exit $bad;
