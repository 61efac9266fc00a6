#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
#
# xls-items.pl - "xfs_logscope trans --json" as the lines
# tests/lib/logprint-items.pl makes of "xfs_logprint -t -b -i -q" (see
# there): each committed transaction, then its items in log order.
#
#   xfs_logscope trans --json IMG | perl tests/lib/xls-items.pl [--old-attri]
#
# --old-attri: ATTRI as xfsprogs before 6.10 prints it (name_len, value_len
# and id only).
use strict;
use warnings;
use JSON::PP;

my $old_attri = @ARGV && $ARGV[0] eq '--old-attri';
my $json = JSON::PP->new;
my %items;	# "tid lsn" -> [[index, line], ...]

sub h {
	my $v = lc shift;
	$v =~ s/^0x//;
	$v =~ s/^0+(?=.)//;
	return "0x$v";
}

sub x { return h(sprintf "%x", shift); }

sub inode_line {
	my ($o) = @_;
	my $s = "INO " . h($o->{ino}) . " " . h($o->{fields}) . " $o->{dsize}";
	return $s unless defined $o->{mode};
	return $s . sprintf " m=%s v=%s f=%s nl=%s sz=%s nb=%s ne=%s ae=%s fo=%s gen=%s f2=%s",
		x(oct $o->{mode}), $o->{di_version}, $o->{di_format}, $o->{nlink},
		x($o->{di_size}), x($o->{nblocks}), $o->{nextents}, $o->{anextents},
		$o->{forkoff}, $o->{gen}, h($o->{di_flags2} // 0);
}

sub intent_line {
	my ($t, $o) = @_;
	my $s = uc($t) . " n=$o->{nextents} id=" . h($o->{id} // $o->{efi_id});
	return $s if $t =~ /^efd/;
	for my $e (@{$o->{extents}}) {
		if ($t =~ /^efi/) {
			$s .= " " . h($e->{startblock}) . "/$e->{len_fsb}";
		} else {
			$s .= " " . h($e->{startblock}) . "/$e->{len_fsb}/" .
				($e->{owner_id} // "") . "/" . ($e->{startoff} // "") . "/" .
				h($e->{flags});
		}
	}
	return $s;
}

sub attri_line {
	my ($o) = @_;
	return "ATTRI name_len=$o->{name_len} value_len=$o->{value_len} id=" . h($o->{id})
		if $old_attri;
	return "ATTRI f=" . h($o->{op_flags}) . " ino=" . h($o->{ino}) .
		" igen=" . x($o->{igen}) . " filter=" . h($o->{attr_filter}) .
		" name_len=$o->{name_len} new_name_len=" . ($o->{new_name_len} // 0) .
		" value_len=$o->{value_len} new_value_len=" . ($o->{new_value_len} // 0) .
		" id=" . h($o->{id});
}

sub item_line {
	my ($o) = @_;
	my $t = $o->{item};

	return "BUF " . h($o->{blkno}) . " $o->{len_bb} $o->{map_size} " .
		h($o->{flags}) . " $o->{regions}" if $t eq 'buf';
	return inode_line($o) if $t eq 'inode';
	return "ICR $o->{ag} " . h($o->{agbno}) . " $o->{length_fsb} cnt=$o->{count}" .
		" isize=$o->{isize} gen=" . x($o->{gen}) if $t eq 'icreate';
	return intent_line($t, $o) if $t =~ /^(efi|efd|rui|cui|bui)(_rt)?$/;
	if ($t =~ /^(rud|cud|bud|xmd|attrd)(_rt)?$/) {
		my ($k) = grep { /_id$/ } sort keys %$o;
		return uc($t) . " id=" . h($o->{$k});
	}
	return "XMI id=" . h($o->{id}) . " " . join(" ", h($o->{ino1}), x($o->{igen1}),
		h($o->{ino2}), x($o->{igen2}), $o->{startoff1}, $o->{startoff2},
		$o->{blockcount}, h($o->{flags})) if $t eq 'xmi';
	return attri_line($o) if $t eq 'attri';
	return undef;	# logprint -t prints no line of its own for the others
}

while (my $l = <STDIN>) {
	my $o = $json->decode($l);

	if ($o->{kind} eq 'item') {
		my $s = item_line($o);
		push @{$items{"$o->{tid} $o->{lsn}"}}, [$o->{index}, $s] if defined $s;
	} elsif ($o->{kind} eq 'trans' && $o->{state} eq 'committed') {
		my $key = "$o->{tid} $o->{lsn}";
		print "T " . h($o->{tid}) . " th=$o->{th_num_items}\n";
		print "  $_->[1]\n" for sort { $a->[0] <=> $b->[0] } @{$items{$key} // []};
		delete $items{$key};
	}
}
