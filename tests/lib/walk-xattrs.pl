#!/usr/bin/perl
# walk-xattrs.pl MNT: every xattr of every inode of the mounted tree, one
# per line, "INO<TAB>NAMESPACE.NAME<TAB>HASH OF THE VALUE", sorted; as
# getfattr(1) reads them through the kernel (parent pointers, which the
# kernel does not show, are not there).  The inodes xfs_repair moved into
# lost+found at the root are walked too, by their inode numbers as
# everywhere: their xattrs are still theirs.  lost+found itself is left
# out.
use strict;
use warnings;
use Digest::MD5 qw(md5_hex);

my $root = shift or die "usage: walk-xattrs.pl MNT\n";
my %out;
open(my $h, '-|', 'getfattr', '-R', '-h', '-d', '-m', '-', '-e', 'hex', '--absolute-names', $root)
	or die "getfattr: $!";
my $ino;
while (<$h>) {
	chomp;
	if (/^# file: (.*)$/) {
		my $p = $1;
		$ino = ($p =~ m{^\Q$root\E/lost\+found$}) ? undef : (lstat($p))[1];
		next;
	}
	next unless defined $ino && /^([^=]+)=(.*)$/;
	$out{"$ino\t$1\t" . md5_hex($2)} = 1;
}
close $h;
print "$_\n" for sort keys %out;
