#!/usr/bin/perl
# files-score.pl --root INO [OPTIONS] RECOVERED NORECOVERY FILES
#
# How well `xfs_logscope files` names files, against the kernel.
#   RECOVERED   tests/lib/walk-tree.pl of a copy the kernel mounted
#               read-write (log recovery run): "DIRINO<TAB>NAME<TAB>INO"
#   NORECOVERY  the same of a copy mounted -o ro,norecovery (the disk as
#               the log found it); an empty file if that mount failed.
#               --no-before: the walk of the norecovery mount failed (an
#               entry on disk names an inode only the log holds, as when
#               the log has wrapped over a directory it keeps relogging):
#               adds is then counted against an empty tree, printed as
#               adds_vs_empty and left out of --min
#   FILES       `xfs_logscope files --json IMG` (JSON Lines)
#   --root INO  the root directory's inode (stat of the mount point)
#
# Paths are those of the recovered tree, from the root ("/", "/a/b"); an
# inode may have several (hard links).  Printed, one line each:
#   events_with_path  events on inodes of the recovered tree with a "path"
#   last_path         inodes of the tree with events whose last event
#                     (highest seq, then last line) has a path the inode
#                     has after recovery; last_final_path, the same with the
#                     file record's "final_path"; last_name, the last
#                     event's path ends in a name the inode has after
#                     recovery (a directory above it may have moved since:
#                     a path is the one the inode had when the event
#                     happened)
#   adds              entries recovery adds (recovered walk, not the
#                     norecovery one, as dirino/name/ino) that are a
#                     dirent_add (dir, name, ino) or dirent_move (new_dir,
#                     new_name, ino) event
#   final_state       with RECOVERED from walk-tree.pl --stat: inodes of the
#                     tree with events whose file record's size and nlink
#                     are the ones lstat gives after recovery
#   path_found        with --check-path N --xls XLS --img IMG [--logdev L]:
#                     N recovered paths of inodes with events, each given to
#                     `XLS files --json --path=P`; those whose output has an
#                     event of that inode
# then "score events_with_path=.. last_path=.. last_final_path=..
# last_name=.. final_state=.. adds=.. path_found=.." ("na" where nothing was counted).  With --min PCT, exit 1
# if a share is below PCT.  --show N prints up to N misses of each kind as
# "# miss ..." lines.
#
# Independent of xfs_logscope: it shares no code with src/, and reads the
# JSON with its own small parser (flat objects of strings, numbers and
# booleans; \u00XX is a byte, as xfs_logscope writes names that are not
# UTF-8).
use strict;
use warnings;
use Getopt::Long qw(:config no_ignore_case);

my ($root, $min, $check, $xls, $img, $logdev, $show, $nobefore) = (undef, undef, 0, undef, undef, undef, 0, 0);
GetOptions(
	'no-before' => \$nobefore, 'root=s' => \$root, 'min=f' => \$min, 'check-path=i' => \$check,
	'xls=s' => \$xls, 'img=s' => \$img, 'logdev=s' => \$logdev, 'show=i' => \$show,
) or die "usage: files-score.pl --root INO [--min PCT] [--show N] [--no-before]"
	. " [--check-path N --xls XLS --img IMG [--logdev LOG]] RECOVERED NORECOVERY FILES\n";
@ARGV == 3 && defined $root or die "usage: files-score.pl --root INO ... RECOVERED NORECOVERY FILES\n";
die "--check-path needs --xls and --img\n" if $check && !(defined $xls && defined $img);
$root = $root =~ /^0x/i ? hex($root) : $root + 0;
my ($recfile, $norfile, $jsonfile) = @ARGV;

# --- the walks -------------------------------------------------------------
my %stat;		# ino -> [size, nlink] after recovery (walk-tree.pl --stat)
sub read_walk {
	my ($file) = @_;
	my @e;
	open(my $fh, '<', $file) or die "$file: $!\n";
	while (my $l = <$fh>) {
		chomp $l;
		next if $l eq '';
		my ($d, $n, $i, $size, $nlink) = split /\t/, $l, 5;
		die "$file:$.: not DIRINO<TAB>NAME<TAB>INO\n" unless defined $i && $d =~ /^\d+$/ && $i =~ /^\d+$/;
		push @e, [$d + 0, $n, $i + 0];
		$stat{$i + 0} = [$size, $nlink] if defined $nlink;
	}
	return \@e;
}
my $rec = read_walk($recfile);
my %recstat = %stat;
my $nor = read_walk($norfile);
%stat = %recstat;

my %children;		# dirino -> [[name, ino]...]
$children{$_->[0]}{$_->[1]} = $_->[2] for @$rec;
my %paths = ($root => ['/']);	# ino -> [paths]
my @todo = ($root);
my %done;
while (@todo) {
	my $d = shift @todo;
	next if $done{$d}++;
	my $base = $d == $root ? '' : $paths{$d}[0];
	my $kids = $children{$d} or next;
	for my $n (sort keys %$kids) {
		my $i = $kids->{$n};
		push @{$paths{$i}}, "$base/$n";
		push @todo, $i if $children{$i};
	}
}
my %haspath;		# ino -> {path -> 1}
for my $i (keys %paths) { $haspath{$i}{$_} = 1 for @{$paths{$i}} }

my %before;
$before{"$_->[0]\t$_->[1]\t$_->[2]"} = 1 for @$nor;
my @added = grep { !$before{"$_->[0]\t$_->[1]\t$_->[2]"} } @$rec;

# --- the JSON Lines ----------------------------------------------------------
sub unescape {
	my ($s) = @_;
	return $s unless $s =~ /\\/;
	my %c = ('"' => '"', '\\' => '\\', '/' => '/', b => "\b", f => "\f", n => "\n", r => "\r", t => "\t");
	$s =~ s{\\(?:u([0-9a-fA-F]{4})|(.))}{
		defined $1 ? (hex($1) < 0x100 ? chr(hex $1) : do { my $u = chr(hex $1); utf8::encode($u); $u })
			   : ($c{$2} // $2)
	}ge;
	return $s;
}
sub parse_line {
	my ($l) = @_;
	my %o;
	while ($l =~ /"(\w+)":("((?:[^"\\]|\\.)*)"|[^,}]*)/g) {
		$o{$1} = defined $3 ? unescape($3) : $2;
	}
	return \%o;
}
sub ino_of { my ($h) = @_; return defined $h ? ($h =~ /^0x/i ? hex($h) : $h + 0) : undef }

my (%last, %final, %fstate, %evino, %addev);
my ($ev_tree, $ev_tree_path, $ev_all, $line) = (0, 0, 0, 0);
open(my $jh, '<', $jsonfile) or die "$jsonfile: $!\n";
while (my $l = <$jh>) {
	$line++;
	my $o = parse_line($l);
	my $kind = $o->{kind} // '';
	my $ino = ino_of($o->{ino});
	next unless defined $ino;
	if ($kind eq 'file') {
		$final{$ino} = $o->{final_path};
		$fstate{$ino} = [$o->{size}, $o->{nlink}];
		next;
	}
	next unless $kind eq 'event';
	$ev_all++;
	my $ev = $o->{event} // '';
	if ($ev eq 'dirent_add' && defined $o->{dir}) {
		$addev{ino_of($o->{dir}) . "\t$o->{name}\t$ino"} = 1;
	} elsif ($ev eq 'dirent_move' && defined $o->{new_dir}) {
		$addev{ino_of($o->{new_dir}) . "\t$o->{new_name}\t$ino"} = 1;
	}
	next unless $paths{$ino};
	$ev_tree++;
	$ev_tree_path++ if defined $o->{path};
	$evino{$ino}++;
	my $seq = $o->{seq} // -1;
	$last{$ino} = [$seq, $line, $o] if !$last{$ino} || $seq >= $last{$ino}[0];
}
close $jh;

# --- the shares ---------------------------------------------------------------
my (%share, @fail);
sub share {
	my ($key, $n, $d) = @_;
	$share{$key} = $d ? sprintf('%.1f', 100 * $n / $d) : 'na';
	push @fail, $key if defined $min && $d && 100 * $n / $d < $min && $key !~ /_vs_empty$/;
	return $d ? sprintf('%d/%d = %s%%', $n, $d, $share{$key}) : "0/0 = na";
}
sub fmt { my ($o) = @_; return join ' ', map { "$_=" . ($o->{$_} // '') } grep { exists $o->{$_} }
	qw(seq ino event path dir name new_dir new_name replayed) }
sub miss { my ($what, $n) = @_; print "# miss $what\n" if $n <= $show }

print "events on inodes of the recovered tree with a path: ", share('events_with_path', $ev_tree_path, $ev_tree),
	" ($ev_all events in all, on ", scalar(keys %evino), " inodes of the tree)\n";

my ($lp, $fp, $ln, $nlp, $nfp, $nln) = (0, 0, 0, 0, 0, 0);
for my $ino (sort { $a <=> $b } keys %evino) {
	my $o = $last{$ino}[2];
	my @have = @{$paths{$ino}};
	if (defined $o->{path} && $haspath{$ino}{$o->{path}}) {
		$lp++;
	} else {
		miss(sprintf('last_path ino=0x%x (%s) last: %s', $ino, join(' ', @have), fmt($o)), ++$nlp);
	}
	my %names = map { m{([^/]*)$}; ($1 => 1) } @have;
	if (defined $o->{path} && $o->{path} =~ m{([^/]*)$} && $names{$1}) {
		$ln++;
	} else {
		miss(sprintf('last_name ino=0x%x (%s) last: %s', $ino, join(' ', @have), fmt($o)), ++$nln);
	}
	my $f = $final{$ino};
	if (defined $f && $haspath{$ino}{$f}) {
		$fp++;
	} else {
		miss(sprintf('last_final_path ino=0x%x (%s) final_path=%s', $ino, join(' ', @have), $f // '(none)'), ++$nfp);
	}
}
my $nev = keys %evino;
print "inodes whose last event has a path they have after recovery: ", share('last_path', $lp, $nev), "\n";
print "inodes whose final_path is a path they have after recovery: ", share('last_final_path', $fp, $nev), "\n";
print "inodes whose last event's path ends in a name they have after recovery: ", share('last_name', $ln, $nev), "\n";

# where recovery leaves each inode: the file record's size and link count
if (%stat) {
	my ($same, $n, $nmiss) = (0, 0, 0);
	for my $ino (sort { $a <=> $b } keys %evino) {
		next unless $stat{$ino};
		$n++;
		my ($s, $l) = @{$fstate{$ino} // []};
		if (defined $s && defined $l && $s == $stat{$ino}[0] && $l == $stat{$ino}[1]) {
			$same++;
		} else {
			miss(sprintf('final_state ino=0x%x stat size %d nlink %d, files size %s nlink %s',
				$ino, @{$stat{$ino}}, $s // '-', $l // '-'), ++$nmiss);
		}
	}
	print "inodes whose file record has the size and link count stat gives after recovery: ",
		share('final_state', $same, $n), "\n";
}

my ($ad, $nad) = (0, 0);
for my $e (@added) {
	if ($addev{join "\t", @$e}) {
		$ad++;
	} else {
		miss(sprintf('adds dir=0x%x name=%s ino=0x%x (%s)', $e->[0], $e->[1], $e->[2],
			join(' ', @{$paths{$e->[2]} // []})), ++$nad);
	}
}
if ($nobefore) {
	$share{adds} = 'na';
	print "entries after recovery that are a dirent_add or dirent_move (no norecovery walk): ",
		share('adds_vs_empty', $ad, scalar @added), "\n";
} else {
	print "entries recovery adds that are a dirent_add or dirent_move: ", share('adds', $ad, scalar @added),
		" (", scalar(@$rec), " entries after recovery, ", scalar(@$nor), " before)\n";
}

if ($check) {
	# evenly spaced over the sorted paths: the same sample every run
	my @cand;
	for my $ino (keys %evino) { push @cand, [$_, $ino] for @{$paths{$ino}} }
	@cand = sort { $a->[0] cmp $b->[0] || $a->[1] <=> $b->[1] } @cand;
	my $n = $check < @cand ? $check : @cand;
	my ($found, $nf) = (0, 0);
	for my $k (0 .. $n - 1) {
		my ($p, $ino) = @{$cand[int($k * @cand / $n)]};
		my @cmd = ($xls, 'files', '--json', "--path=$p", (defined $logdev ? ('-l', $logdev) : ()), $img);
		open(my $ph, '-|', @cmd) or die "$xls: $!\n";
		my $hit = 0;
		while (my $l = <$ph>) {
			next unless $l =~ /"kind":"event"/;
			my $o = parse_line($l);
			$hit = 1 if ino_of($o->{ino}) == $ino;
		}
		close $ph;
		if ($hit) {
			$found++;
		} else {
			miss(sprintf('path_found ino=0x%x path=%s (exit %d)', $ino, $p, $? >> 8), ++$nf);
		}
	}
	print "recovered paths whose files --path has an event of the inode: ", share('path_found', $found, $n), "\n";
}

print 'score ', join(' ', map { "$_=$share{$_}" } grep { exists $share{$_} }
	qw(events_with_path last_path last_final_path last_name final_state adds adds_vs_empty path_found)), "\n";
if (@fail) {
	print "below $min%: @fail\n";
	exit 1;
}
exit 0;
