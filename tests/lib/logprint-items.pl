#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
#
# logprint-items.pl - normalise "xfs_logprint -t -b -i -q" output (xfsprogs
# 6.1 to 6.15) to one line per committed transaction and one per log item
# in it, with every field both tools decode:
#
#   xfs_logprint -t -b -i -q IMG | perl tests/lib/logprint-items.pl
#
#   T <tid> th=<#items: th_num_items, a count of regions>
#     BUF <blkno> <len> <bmap size> <flags> <#regs>
#     INO <ino> <flags: ilf_fields> <dsize> [core: m= v= f= nl= sz= nb= ne= ae= fo= gen= f2=]
#     ICR <ag> <agbno> <len> cnt= isize= gen=
#     EFI|EFD|RUI|CUI|BUI (and _RT) n=<num_extents> id=<id> [extents]
#     RUD|CUD|BUD|XMD|ATTRD (and _RT) id=<id>
#     XMI id= ino1 igen1 ino2 igen2 off1 off2 len flags
#     ATTRI f= ino= igen= filter= name_len= new_name_len= value_len= new_value_len= id=
#       (before xfsprogs 6.10: ATTRI name_len= value_len= id=; give
#       xls-items.pl --old-attri to compare with those)
#
# Numbers printed in hex are lower case without leading zeros.  Extents:
# EFI "s/l", the others "s/l/owner/offset/flags" with empty owner and offset
# where logprint prints none (CUI).  The EFD extents are not printed by
# logprint -t, so only their count is compared.  tests/lib/xls-items.pl
# writes the same lines from "xfs_logscope trans --json"; the two share no
# code with each other or with src/.
use strict;
use warnings;

sub h {
	my $v = lc shift;
	$v =~ s/^0x//;
	$v =~ s/^0+(?=.)//;
	return "0x$v";
}

my @lines = <STDIN>;
my ($trans, @items);

sub flush {
	return unless defined $trans;
	print "$trans\n";
	print "  $_\n" for @items;
	@items = ();
	$trans = undef;
}

# The core of an inode item: the tab-tab lines after "CORE inode:".
sub inode_core {
	my ($i) = @_;
	my %c;
	my $j = $i + 1;
	$j++ if $j < @lines && $lines[$j] =~ /CORE inode/;
	while ($j < @lines && $lines[$j] =~ /^\t\t/) {
		my $l = $lines[$j++];
		$c{flags2} = $1 if $l =~ /flags2 (\S+)/;
		while ($l =~ /(\w+):\s*(-?\S+)/g) {
			$c{$1} //= $2;
		}
	}
	return "" unless exists $c{mode};
	return sprintf " m=%s v=%s f=%s nl=%s sz=%s nb=%s ne=%s ae=%s fo=%s gen=%s f2=%s",
		h($c{mode}), $c{ver}, $c{format}, $c{nlink}, h($c{size}),
		h($c{nblks}), $c{nextents}, $c{anextents}, $c{forkoff}, $c{gen},
		h($c{flags2} // 0);
}

# The "(s: ..., l: ...)" extent lines after an intent's header line.
sub extents {
	my ($i) = @_;
	my $e = "";
	for (my $j = $i + 1; $j < @lines && $lines[$j] =~ /^\s*\(s: /; $j++) {
		my $l = $lines[$j];
		while ($l =~ /\(s: (\S+), l: (\d+)((?:, own: \d+, off: \d+)?)(?:, f: (\S+))?\)/g) {
			my ($s, $len, $oo, $f) = ($1, $2, $3, $4);
			if (!defined $f) {
				$e .= " " . h($s) . "/$len";
				next;
			}
			my ($own, $off) = $oo =~ /own: (\d+), off: (\d+)/ ? ($1, $2) : ("", "");
			$e .= " " . h($s) . "/$len/$own/$off/" . h($f);
		}
	}
	return $e;
}

for (my $i = 0; $i < @lines; $i++) {
	local $_ = $lines[$i];
	if (/^TRANS: tid:(\S+)\s+#items:(\d+)/) {
		flush();
		$trans = "T " . h($1) . " th=$2";
		next;
	}
	next unless defined $trans;
	if (/^\tBUF:\s+#regs:(\d+)\s+start blkno:(\S+)\s+len:(\d+)\s+bmap size:(\d+)\s+flags:(\S+)/) {
		push @items, "BUF " . h($2) . " $3 $4 " . h($5) . " $1";
	} elsif (/^\tINODE: #regs:\d+\s+ino:(\S+)\s+flags:(\S+)\s+dsize:(\d+)/) {
		push @items, "INO " . h($1) . " " . h($2) . " $3" . inode_core($i);
	} elsif (/^\tICR:\s+#ag: (\d+)\s+agbno: (\S+)\s+len: (\d+)/) {
		my ($ag, $bno, $len) = ($1, $2, $3);
		$lines[$i + 1] =~ /cnt: (\d+)\s+isize: (\d+)\s+gen: (\S+)/;
		push @items, "ICR $ag " . h($bno) . " $len cnt=$1 isize=$2 gen=" . h($3);
	} elsif (/^\s*((?:EFI|EFD|RUI|CUI|BUI)(?:_RT)?):\s+#regs:\s*\d+\s+num_extents:\s*(\d+)\s+id:\s*(\S+)/) {
		my ($t, $n, $id) = ($1, $2, h($3));
		push @items, "$t n=$n id=$id" . ($t =~ /^EFD/ ? "" : extents($i));
	} elsif (/^\s*((?:RUD|CUD|BUD|XMD|ATTRD)(?:_RT)?):\s+#regs:\s*\d+\s+id:\s*(\S+)/) {
		push @items, "$1 id=" . h($2);
	} elsif (/^XMI:\s+#regs:\s*\d+\s+num_extents:\s*\d+\s+id:\s*(\S+)/) {
		my $id = h($1);
		$lines[$i + 1] =~ /ino1: (\S+), igen1: (\S+), ino2: (\S+), igen2: (\S+), off1: (\d+), off2: (\d+), len: (\d+), flags: (\S+)\)/;
		push @items, "XMI id=$id " . join(" ", h($1), h($2), h($3), h($4), $5, $6, $7, h($8));
	} elsif (/^ATTRI:\s+#regs: \d+\s+f: (\S+), ino: (\S+), igen: (\S+), attr_filter: (\S+), name_len: (\d+), new_name_len: (\d+), value_len: (-?\d+), new_value_len: (\d+)\s+id: (\S+)/) {
		push @items, "ATTRI f=" . h($1) . " ino=" . h($2) . " igen=" . h($3) .
			" filter=" . h($4) . " name_len=$5 new_name_len=$6 value_len=$7" .
			" new_value_len=$8 id=" . h($9);
	} elsif (/^ATTRI:\s+#regs: \d+\s+name_len: (\d+), value_len: (\d+)\s+id: (\S+)/) {
		# xfsprogs before 6.10 prints only these
		push @items, "ATTRI name_len=$1 value_len=$2 id=" . h($3);
	}
}
flush();
