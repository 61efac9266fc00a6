#!/usr/bin/perl
# walk-tree.pl [--stat] MNT: every directory entry of the mounted tree,
# one per line, "DIRINO<TAB>NAME<TAB>INO" (decimal), sorted; "." and "..",
# and lost+found at the root with all below it, left out.  --stat adds
# "<TAB>SIZE<TAB>NLINK" of the inode, as lstat(2) gives them.  Independent
# of xfs_logscope: it reads the tree through the kernel.
use strict;
use warnings;

my $stat = @ARGV && $ARGV[0] eq '--stat' ? shift : undef;
my $root = shift or die "usage: walk-tree.pl [--stat] MNT\n";
my @out;
my @todo = ($root);
my %seen;
while (@todo) {
	my $dir = shift @todo;
	my @st = lstat($dir) or die "$dir: $!";
	my $dino = $st[1];
	next if $seen{$dino}++;
	opendir(my $dh, $dir) or die "$dir: $!";
	for my $name (readdir $dh) {
		next if $name eq '.' || $name eq '..';
		next if $dir eq $root && $name eq 'lost+found';
		my @s = lstat("$dir/$name") or die "$dir/$name: $!";
		push @out, "$dino\t$name\t$s[1]" . ($stat ? "\t$s[7]\t$s[3]" : '');
		push @todo, "$dir/$name" if -d _;
	}
	closedir $dh;
}
print "$_\n" for sort @out;
