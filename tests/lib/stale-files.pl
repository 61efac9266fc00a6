#!/usr/bin/perl
# stale-files.pl DIRTY.json RECOVERED.json TAIL: `files --json` on a dirty
# log against `files --stale --json` on a copy of it the kernel recovered
# and unmounted (the same records, now before the tail).  TAIL is the
# dirty log's tail LSN (cycle/block): stale events before it are of
# records the dirty log did not show, and are not compared.  Before the tail the
# disk holds a later state of everything, so the stale view knows less:
# it may tell fewer events, never one the log does not hold.  Checked:
#   - every stale event is marked stale and not replayed;
#   - each stale event is one the dirty log's events have (same tid, LSN,
#     inode, event, directory, name, old and new values), or is explained
#     by what they say of the inode in that transaction: an entry removed
#     where it drops the inode's link count or frees it, an entry added
#     where it creates, reuses or moves the inode or raises its link
#     count, a move where it adds or removes one of its entries (either
#     view may see one half of a move only), a value (size, time, link
#     count) changed to the same new value from another old one (an inode
#     relogged: recovery's baseline is the disk's older copy, the stale
#     view's the item logged before);
#   - where the dirty log's events say nothing of the inode in that
#     transaction, or nothing of that field (a value: a time, a size, a
#     link count, a reuse), or no entry of it (an entry event), there is
#     nothing to compare with: the disk held a later state there and
#     recovery's view had no state before (the transactions at the dirty
#     log's tail, whose inodes the stale view saw logged before it).  At
#     most 5 % of the stale events may be such.
#   - and it finds at least a tenth of the dirty log's events: the stale
#     view cannot tell an inode created, nor an entry added to or removed
#     from a block whose chunks it has not seen logged (64 KiB directory
#     blocks, logged a few chunks at a time, least of all).
# Prints "events N stale M older O same S explained E unknown K
# unexplained U", then up to 5 unexplained ones.  Exit 0 when U is 0, K
# and S within bounds.  Reads the JSON itself: shares no code with
# xfs_logscope.
use strict;
use warnings;
use JSON::PP;

my @KEYS = qw(tid lsn ino event dir name new_dir new_name old new);
my %EXPLAINS = (
	dirent_remove => [qw(nlink freed)],
	dirent_add    => [qw(created reused dirent_move nlink)],
	dirent_move   => [qw(dirent_add dirent_remove dirent_move)],
);

sub key {
	my ($r) = @_;
	return join("\x1f", map { $r->{$_} // '' } @KEYS);
}

sub lsn {
	my ($cycle, $block) = split(m{/}, $_[0] // '0/0');
	return $cycle * 2**32 + $block;
}

my ($dirty, $rec, $tail) = @ARGV;
die "usage: stale-files.pl DIRTY.json RECOVERED.json TAIL_LSN\n" unless defined $tail;
my (%have, %by_ino, %new_of, $n);
open(my $fd, '<', $dirty) or die "$dirty: $!\n";
while (my $line = <$fd>) {
	my $r = decode_json($line);
	next unless ($r->{kind} // '') eq 'event';
	$n++;
	$have{key($r)} = 1;
	$by_ino{"$r->{tid} $r->{ino}"}{$r->{event}} = 1;
	$new_of{"$r->{tid} $r->{ino} $r->{event}"}{$r->{new}} = 1 if defined $r->{new};
}
close($fd);

my ($stale, $older, $same, $explained, $unknown, @bad) = (0, 0, 0, 0, 0);
my %seen;
open(my $fr, '<', $rec) or die "$rec: $!\n";
while (my $line = <$fr>) {
	my $r = decode_json($line);
	next unless ($r->{kind} // '') eq 'event';
	if (!$r->{stale} || $r->{replayed}) {
		push @bad, "not stale, or replayed: $line";
		next;
	}
	$stale++;
	if (lsn($r->{lsn}) < lsn($tail)) {
		$older++;
		next;
	}
	my $k = key($r);
	if ($have{$k}) {
		$same++ unless $seen{$k}++;
		next;
	}
	my $ev = $by_ino{"$r->{tid} $r->{ino}"} // {};
	my $rule = $EXPLAINS{$r->{event}};
	if ($rule ? grep { $ev->{$_} } @$rule :
	    defined $r->{new} && $new_of{"$r->{tid} $r->{ino} $r->{event}"}{$r->{new}}) {
		$explained++;
	} elsif ($rule ? !grep { $ev->{$_} } keys %EXPLAINS : !$ev->{$r->{event}}) {
		$unknown++;
	} else {
		push @bad, $line;
	}
}
close($fr);
printf "events %d stale %d older %d same %d explained %d unknown %d unexplained %d\n",
	$n // 0, $stale, $older, $same, $explained, $unknown, scalar(@bad);
print "  $_" for @bad[0 .. ($#bad < 4 ? $#bad : 4)];
exit(@bad || $unknown * 20 > $stale - $older || $same * 10 < ($n // 0) ? 1 : 0);
