#!/bin/sh
# What a new user meets in the first hour: CSV that loads as it says,
# filters, options anywhere, help, outputs never left half-made, messages
# that say what the input is, units, tables without trailing spaces.
. "$(dirname "$0")/lib/test-lib.sh"
. "$XLS_TOP/tests/lib/images.sh"

# csv_check FILE: a header, and every row with as many fields as it has
# (RFC 4180: quoted fields may hold commas, doubled quotes and newlines)
cat >csvcheck.pl <<'EOF'
use strict;
use warnings;
local $/;
my $t = <STDIN>;
die "empty\n" if $t eq '';
my ($n, @rows) = (0);
my @f; my $cur = ''; my $q = 0;
for (my $i = 0; $i < length($t); $i++) {
	my $c = substr($t, $i, 1);
	if ($q) {
		if ($c eq '"') {
			if (substr($t, $i + 1, 1) eq '"') { $cur .= '"'; $i++; } else { $q = 0; }
		} else { $cur .= $c; }
	} elsif ($c eq '"') { $q = 1;
	} elsif ($c eq ',') { push @f, $cur; $cur = '';
	} elsif ($c eq "\n") { push @f, $cur; push @rows, [@f]; @f = (); $cur = '';
	} else { $cur .= $c; }
}
die "unterminated quote\n" if $q;
die "last line without a newline\n" if @f || $cur ne '';
my $w = scalar @{$rows[0]};
for my $r (1 .. $#rows) {
	my $got = scalar @{$rows[$r]};
	die "row $r has $got fields, the header $w\n" if $got != $w;
}
print scalar(@rows) - 1, "\n";
EOF
csv_check() {
	perl csvcheck.pl <"$1"
}

for name in dir4k unlinked extlog; do
	# shellcheck disable=SC2046
	set -- $(image_args $name)
	for cmd in info records "records -a" trans bufs "bufs -v" stats recover \
		   "recover --summary" "history --blkno=0x2"; do
		test_expect_success "$name: $cmd --csv: one header, every row under it" "
			\"\$XLS\" $cmd --csv $* >out.csv 2>err; rc=\$?
			[ \$rc -le 1 ] && ! grep -q internal err && csv_check out.csv >/dev/null
		"
	done
done

test_expect_success 'CSV on a clean log: the header, and no row' '
	for cmd in records trans bufs stats recover "history --blkno=0x2"; do
		# shellcheck disable=SC2086
		"$XLS" $cmd --csv $(image clean) >out.csv &&
		test "$(csv_check out.csv)" = 0 || { echo "$cmd"; return 1; }
	done
'

test_expect_success 'trans --csv: one row per field, items of every type under one header' '
	"$XLS" trans --csv $(image dir4k) >out.csv &&
	head -1 out.csv | grep -qx "kind,tid,lsn,index,item,key,value" &&
	grep -q "^item,0x[0-9a-f]*,1/[0-9]*,[0-9]*,inode,di_size," out.csv &&
	grep -q "^item,0x[0-9a-f]*,1/[0-9]*,[0-9]*,buf,blkno,0x" out.csv &&
	grep -q "^trans,0x[0-9a-f]*,1/[0-9]*,,,state,committed$" out.csv
'

test_done
