#!/bin/sh
# files and lost on the bundled kernel journals, against what their
# workloads did (tests/images/NAME.txt; emulated here in Perl, sharing no
# code with xfs_logscope), and owners and --ino on bufs, trans, recover and
# history.
. "$(dirname "$0")/lib/test-lib.sh"
. "$XLS_TOP/tests/lib/images.sh"

count() { grep -c "\"event\":\"$1\"" "$2" || true; }

# The dir4k workload (wl_dir4k in tests/images/dir4k.txt): each step is
# fsynced, so each lands in a checkpoint of its own and files sees it.
perl -e '
	my (%a, %b, $mv, $rm);
	for my $i (1 .. 300) {
		$a{sprintf "file-%05d", $i} = 1;
		$b{sprintf "other-%05d-with-a-longer-name", $i} = 1 if $i % 3 == 0;
		if ($i % 5 == 0) { my $n = sprintf "file-%05d", $i - 2; $rm++ if delete $a{$n} }
		if ($i % 7 == 0 && $a{sprintf "file-%05d", $i - 3}) {
			delete $a{sprintf "file-%05d", $i - 3}; $b{"renamed-$i"} = 1; $mv++;
		}
		my $o = sprintf "other-%05d-with-a-longer-name", $i - $i % 3;
		if ($i % 11 == 0 && $b{$o}) { delete $b{$o}; $b{"o$i"} = 1; $mv++ }
	}
	for (my $i = 10; $i <= 300; $i += 10) { $rm++ if delete $a{sprintf "file-%05d", $i} }
	print "creates 402 moves $mv removes $rm\n";
' >dir4k.expect

test_expect_success 'files: dir4k, every create, rename and unlink of its workload' '
	"$XLS" files --json $(image dir4k) >dir4k.files &&
	echo "creates $(count dirent_add dir4k.files) moves $(count dirent_move dir4k.files) removes $(count dirent_remove dir4k.files)" >dir4k.got &&
	test_cmp dir4k.expect dir4k.got &&
	test "$(( $(count created dir4k.files) + $(count reused dir4k.files) ))" -eq 402
'
# alpha's block (daddr 0x78) as if written back after the log: a dir3
# block header with an LSN past the head, so its state before its first
# item is unknown.  That item converts alpha from shortform: its entries
# leave the fork and enter the block, which must still be no event.
test_expect_success 'files: a block the disk holds a later state of gives the same events' '
	cp --sparse=always $(image dir4k) newer.img &&
	perl -e "open(my \$f, \"+<\", \"newer.img\") or die;
		 sysseek(\$f, 0x78 * 512, 0); syswrite(\$f, pack(\"N\", 0x58444233));
		 sysseek(\$f, 0x78 * 512 + 16, 0); syswrite(\$f, pack(\"NN\", 1, 0xfffff));" &&
	"$XLS" files --json newer.img >newer.files &&
	echo "creates $(count dirent_add newer.files) moves $(count dirent_move newer.files) removes $(count dirent_remove newer.files)" >newer.got &&
	test_cmp dir4k.expect newer.got
'
test_expect_success 'files: names and paths of the events' '
	grep -q "\"event\":\"dirent_move\".*\"path\":\"/beta/renamed-7\".*\"name\":\"file-00004\".*\"new_name\":\"renamed-7\"" dir4k.files &&
	grep -q "\"event\":\"dirent_add\".*\"path\":\"/alpha\".*\"dir\":\"0x80\",\"name\":\"alpha\"" dir4k.files
'
# --path keeps every event of an inode that has a path under it at any
# point of the log or after recovery (where it was created, moved from,
# or ends), and only those: checked against the paths of a run without it.
cat >paths.pl <<'EOF_PL'
my ($prefix, %want) = shift;
while (<>) {
	my ($ino) = /"ino":"(0x[0-9a-f]+)"/ or next;
	my ($p) = /"(?:final_)?path":"([^"]*)"/;
	$want{$ino} = 1 if defined $p && ($p eq $prefix || index($p, "$prefix/") == 0);
}
print "$_\n" for sort keys %want;
EOF_PL
test_expect_success 'files --path and --ino keep the events of a subtree and of one inode' '
	"$XLS" files --json $(image dir4k) >all.files &&
	perl paths.pl /beta all.files >beta.want &&
	test "$(wc -l <beta.want)" -gt 100 &&
	"$XLS" files --json --path=/beta $(image dir4k) >beta.files &&
	grep -o "\"ino\":\"0x[0-9a-f]*\"" beta.files | sort -u | sed "s/.*:\"//; s/\"//" >beta.got &&
	test_cmp beta.want beta.got &&
	grep "\"kind\":\"event\"" beta.files >beta.events &&
	sed "s/.*/\"ino\":\"&\"/" beta.want >beta.pat &&
	grep -F -f beta.pat all.files | grep "\"kind\":\"event\"" >beta.expect &&
	test "$(wc -l <beta.events)" -eq "$(grep -c . beta.expect)" &&
	grep -q "\"path\":\"/alpha/file-00004\"" beta.files &&
	"$XLS" files --json --ino=0x83 $(image dir4k) >ino.files &&
	test -s ino.files && ! grep -v "\"ino\":\"0x83\"\\|\"dir\":\"0x83\"\\|\"new_dir\":\"0x83\"" ino.files &&
	"$XLS" files --path=/nothere $(image dir4k) >none.txt 2>none.err &&
	grep -q "no event matches --path=/nothere" none.err
'
test_expect_success 'files: text and CSV, one header its rows match' '
	"$XLS" files $(image dir4k) >dir4k.txt && head -1 dir4k.txt | grep -q "SEQ.*EVENT.*PATH.*DETAIL" &&
	"$XLS" files --csv $(image dir4k) >dir4k.csv 2>dir4k.csverr &&
	test ! -s dir4k.csverr &&
	test "$(awk -F, "{ print NF }" dir4k.csv | sort -u | wc -l)" -eq 1 ||
	{ cat dir4k.csverr; awk -F, "{ print NF }" dir4k.csv | sort | uniq -c; false; }
'
# Every field of the JSON records has its CSV column: a create gives its
# mode and generation in both (they were left out of the CSV).
test_expect_success 'files: CSV, the mode and generation of every create' '
	perl -MText::ParseWords -ne "
		chomp; my @f = parse_line(q{,}, 0, \$_);
		if (\$. == 1) { my \$i = 0; %c = map { \$_ => \$i++ } @f; next }
		next unless \$f[\$c{event}] eq q{created};
		print join(q{ }, @f[@c{qw(seq ino mode gen)}]), qq{\n};
	" dir4k.csv >csv.creates &&
	perl -MJSON::PP -ne "
		my \$r = decode_json(\$_);
		next unless \$r->{kind} eq q{event} && \$r->{event} eq q{created};
		print join(q{ }, @\$r{qw(seq ino mode gen)}), qq{\n};
	" dir4k.files >json.creates &&
	test -s json.creates && test_cmp json.creates csv.creates
'

# pptr (tests/images/pptr.txt, wl_pptr): after the freeze, xattrs in every
# form -- 2 shortform, 40 in a leaf (one removed in the same checkpoint),
# 400 (node form), 1 remote -- and every new inode's parent pointer.
test_expect_success 'files: pptr, xattrs of every form and parent pointers' '
	"$XLS" files --json $(image pptr) >pptr.files &&
	test "$(count xattr_set pptr.files)" -eq 442 &&
	grep -q "\"event\":\"xattr_set\".*\"name\":\"user.remote\"" pptr.files &&
	grep -q "\"event\":\"xattr_set\".*\"name\":\"trusted.root\"" pptr.files &&
	! grep -q "\"name\":\"user.leaf7\"" pptr.files &&
	test "$(count pptr_set pptr.files)" -ge "$(count created pptr.files)"
'
test_expect_success 'files: pptr64k, 300 renames and 300 unlinks in a node-form 64 KiB directory' '
	"$XLS" files --json $(image pptr64k) >pptr64k.files &&
	test "$(count dirent_move pptr64k.files)" -eq 300 &&
	test "$(count dirent_remove pptr64k.files)" -eq 300 &&
	test "$(count xattr_set pptr64k.files)" -eq 300 &&
	test "$(count pptr_remove pptr64k.files)" -eq 600
'

# The sfconv workload (wl_sfconv in tests/images/sfconv.txt): in d1, d2
# and d3, names t1..t6 with hard links h1..h6 in the inline fork, then one
# checkpoint each that adds t7..t30, t7..t40, t7..t50 and converts the
# directory to a block.  Nothing is removed or renamed: every name is one
# add, whatever the conversion moves between fork and block.
perl -e '
	my @n = ("/ d1", "/ d2", "/ d3");
	for my $k (1 .. 3) {
		push @n, map { "d$k h$_" } 1 .. 6;
		push @n, map { "d$k t$_" } 1 .. 20 + 10 * $k;
	}
	print "$_\n" for sort @n;
' >sfconv.expect
# "DIR NAME" of each dirent_add, DIR by the name the root gave it
cat >adds.pl <<'EOF_PL'
my (%name, @adds);
while (<>) {
	next unless /"event":"dirent_add"/;
	my ($ino) = /"ino":"(0x[0-9a-f]+)"/;
	my ($dir, $n) = /"dir":"(0x[0-9a-f]+)","name":"([^"]*)"/;
	$name{$ino} = $n if $dir eq "0x80";
	push @adds, [$dir, $n];
}
print join("\n", sort map { ($_->[0] eq "0x80" ? "/" : $name{$_->[0]} // $_->[0]) .
			    " $_->[1]" } @adds), "\n";
EOF_PL
test_expect_success 'files: sfconv, hard-linked names through a shortform-to-block conversion' '
	"$XLS" files --json $(image sfconv) >sfconv.files &&
	test "$(count dirent_remove sfconv.files)" -eq 0 &&
	test "$(count dirent_move sfconv.files)" -eq 0 &&
	perl adds.pl sfconv.files >sfconv.got &&
	test_cmp sfconv.expect sfconv.got
'
# The links workload (wl_links in tests/images/links.txt), emulated: each
# inode by its first name, with every path it ever had and the names it
# ends with.  disk1..disk6 and their links dlink1..6 were written back
# before the log begins: the log only removes (or moves) one of the two.
cat >links.pl <<'EOF_PL'
my (%dir, %hist);
sub add { my ($p, $k) = @_; $dir{$p} = $k; $hist{$k}{$p} = 1 }
sub rm { delete $dir{$_[0]} or die "rm $_[0]" }
sub ln { add($_[1], $dir{$_[0]} // die "ln $_[0]") }
sub mv { ln(@_); rm($_[0]) }
for my $i (1 .. 6) { add("/d1/disk$i", "disk$i"); ln("/d1/disk$i", "/d2/dlink$i") }
for my $k (1 .. 3) {
	for my $i (1 .. 8) {
		add("/d$k/f$i", "d$k/f$i");
		ln("/d$k/f$i", sprintf "/d%d/l$k-$i-$_", ($k + $_ - 2) % 3 + 1) for 1 .. $i % 3 + 1;
	}
}
for my $k (1 .. 3) {
	my ($nx, $nxx) = ($k % 3 + 1, ($k + 1) % 3 + 1);
	rm("/d$k/f1"); rm("/d$k/l$k-2-1"); mv("/d$k/l$k-3-1", "/d$nx/m$k-3");
	rm("/d$k/f4"); rm("/d$k/l$k-4-1");
	rm("/d$k/l$k-5-1"); rm("/d$nx/l$k-5-2"); rm("/d$nxx/l$k-5-3");
	rm("/d$k/f6"); mv("/d$k/l$k-6-1", "/d$nxx/m$k-6");
	mv("/d$k/f8", "/d$nx/m$k-8"); rm("/d$nxx/l$k-8-3");
}
rm("/d2/dlink1"); rm("/d1/disk2"); mv("/d2/dlink3", "/d3/dmoved3");
rm("/d1/disk3"); rm("/d2/dlink4"); rm("/d1/disk5");
my %final; push @{$final{$dir{$_}}}, $_ for keys %dir;
# the inode of each key: the one whose events carry one of its paths
my (%ino, %fp);
open(my $f, "<", shift) or die;
while (<$f>) {
	my ($i) = /"ino":"(0x[0-9a-f]+)"/ or next;
	$fp{$i} = $1 if /"kind":"file"/ && /"final_path":"([^"]*)"/;
	my ($p) = /"kind":"event".*"path":"([^"]*)"/ or next;
	for my $k (keys %hist) { $ino{$k}{$i} = 1 if $hist{$k}{$p} }
}
my ($n, $bad) = (0, 0);
for my $k (sort keys %hist) {
	my @i = keys %{$ino{$k} // {}};
	next if !@i && $k eq "disk6";		# no event: both names on disk
	if (@i != 1) { print "$k: inodes @i\n"; $bad++; next }
	my $got = $fp{$i[0]} // "(none)";
	$n++;
	next if grep { $_ eq $got } @{$final{$k}};
	print "$k (ino $i[0]): final_path $got, not one of @{$final{$k}}\n";
	$bad++;
}
print "$n inodes checked\n";
exit($bad > 0);
EOF_PL
test_expect_success 'files: links, every inode ends with a name it still has' '
	"$XLS" files --json $(image links) >links.files &&
	perl links.pl links.files >links.out || { cat links.out; false; } &&
	grep -qx "29 inodes checked" links.out
'
# later (wl_later in tests/images/later.txt): /big's data block at daddr
# 0x1480 is on disk at LSN 3/54485, and recovery skips its items from the
# tail (2/59398, the checkpoint of step 1187 of wl_later_ops) to there.
# Steps 1193-1195 renamed three files into it, as the block on disk shows
# (names and inode numbers read from the image, not from xfs_logscope);
# they keep those names after recovery.
test_expect_success 'files: later, renames into a block the disk holds a later state of' '
	"$XLS" recover --json $(image later) >later.recover &&
	grep "\"blkno\":\"0x1480\"" later.recover | grep "\"lsn\":\"2/60404\"" |
		grep -q "\"decision\":\"skip_lsn\".*\"reason\":\"lsn_newer\"" &&
	"$XLS" files --json $(image later) >later.files &&
	for r in 0xaeb:moved-001193-19980 0xa3e:moved-001194-19080 0x328:moved-001195-5840; do
		grep "\"ino\":\"${r%%:*}\"" later.files |
			grep -q "\"\(final_\)\?path\":\"/big/${r#*:}\"" ||
			{ echo "no event or file record of ${r%%:*} names /big/${r#*:}"; return 1; }
	done
'
test_expect_success 'lost: dir4k, the whole workload in the log: every entry an add' '
	"$XLS" lost --json $(image dir4k) >dir4k.lost &&
	head -1 dir4k.lost | grep -q "\"kind\":\"lost_summary\",\"dirents_added\":316,\"dirents_removed\":0" &&
	test "$(grep -c "\"kind\":\"lost_dirent\"" dir4k.lost)" -eq 316 &&
	grep -q "\"kind\":\"lost_dirent\",\"dir\":\"0x80\",\"path\":\"/\",\"name\":\"alpha\",\"ino\":\"0x83\",\"op\":\"add\"" dir4k.lost
'
test_expect_success 'lost --ino and --path keep what concerns an inode, a subtree' '
	"$XLS" lost --json --ino=0x83 $(image dir4k) >lino &&
	test "$(grep -c "\"kind\":\"lost_dirent\"" lino)" -gt 100 &&
	! grep "\"kind\":\"lost_" lino | grep -v "\"kind\":\"lost_summary\"" | grep -v "\"ino\":\"0x83\"\\|\"dir\":\"0x83\"" &&
	"$XLS" lost --json --path=/beta $(image dir4k) >lbeta &&
	test "$(grep -c "\"kind\":\"lost_dirent\"" lbeta)" -gt 50 &&
	! grep "\"kind\":\"lost_dirent\"" lbeta | grep -v "\"path\":\"/beta\\|\"name\":\"beta\"" &&
	"$XLS" lost --path=/nope $(image dir4k) >/dev/null 2>lnone &&
	grep -q "no entry, inode or xattr matches --path=/nope" lnone
'
test_expect_success 'lost: net effect, and what xfs_repair -L moves to lost+found' '
	"$XLS" lost --json $(image wrapped) >wrapped.lost &&
	! grep "\"kind\":\"lost_inode\"" wrapped.lost | grep -q "\"mode\":\"0\"" &&
	n=$(grep -c "\"kind\":\"lost_found\"" wrapped.lost) && test "$n" -gt 0 &&
	grep -q "\"lost_found\":$n," wrapped.lost &&
	"$XLS" lost $(image wrapped) >wrapped.lost.txt &&
	grep -q "^  xfs_repair -L would move $n inodes to lost+found" wrapped.lost.txt
'
# On wrapped, directory /w2 (inode 0x83) is on the disk with its first two
# blocks never written: xfs_repair finds no "." in it and clears it, and
# junks the entry naming it (t0810 checks against xfs_repair itself).
test_expect_success 'lost: an entry to a directory xfs_repair clears is lost, the directory not in lost+found' '
	grep -q "^{\"kind\":\"lost_dirent\",\"dir\":\"0x80\",\"path\":\"/\",\"name\":\"w2\",\"ino\":\"0x83\",\"op\":\"add\"}" wrapped.lost &&
	! grep -q "^{\"kind\":\"lost_found\",\"ino\":\"0x83\"" wrapped.lost
'
test_expect_success 'lost: pptr, xattrs and parent pointers' '
	"$XLS" lost --json $(image pptr) >pptr.lost &&
	grep -q "\"kind\":\"lost_xattr\".*\"name\":\"user.remote\",\"op\":\"add\"" pptr.lost &&
	grep -q "\"kind\":\"lost_xattr\".*\"parent\":\"0x83\",\"op\":\"add\"" pptr.lost
'
test_expect_success 'lost: a bare log has no filesystem to compare with (usage)' '
	"$XLS" copy $(image dir4k) bare.log &&
	test_expect_code 2 "$XLS" lost -f bare.log
'
test_expect_success 'lost --csv: every record under one header, its kind first' '
	"$XLS" lost --csv $(image dir4k) >dir4k.lostcsv &&
	head -1 dir4k.lostcsv | grep -qx "record,dir,path,name,ino,op,what,mode,changes,parent,apart,tid,lsn,id" &&
	"$XLS" lost --json $(image dir4k) >dir4k.lostjson &&
	for k in lost_dirent lost_inode lost_found lost_xattr apart; do
		test "$(grep -c "^$k," dir4k.lostcsv)" -eq "$(grep -c "\"kind\":\"$k\"" dir4k.lostjson)" ||
			{ echo "$k: csv and json differ"; return 1; }
	done &&
	test "$(grep -c "^lost_dirent," dir4k.lostcsv)" -eq 316 &&
	"$XLS" lost --csv $(image pptr) >pptr.lostcsv &&
	grep -q "^lost_xattr," pptr.lostcsv &&
	perl -MText::ParseWords -ne "print scalar(parse_line(q{,}, 0, \$_)), qq{\n}" pptr.lostcsv |
		sort -u >counts &&
	test $(wc -l <counts) -eq 1
'

# dir64k replays 26 MB of blocks, far past 64 KiB.  Past --blocks-mem
# the blocks go to a temporary file and the answer is the same, byte for
# byte but for the summary's overlay_spilled_bytes; past --blocks-max they
# read as on disk, the answer is short, and it says so.
test_expect_success 'lost --blocks-mem: past it, spilled to TMPDIR, the same answer' '
	"$XLS" lost --json $(image dir64k) >dir64k.lost &&
	head -1 dir64k.lost | grep -q "\"approximate\":false,.*\"overlay_spilled_bytes\":0[,}]" &&
	mkdir -p spill &&
	TMPDIR=$PWD/spill "$XLS" lost --json --blocks-mem=64k $(image dir64k) >dir64k.lost64k &&
	head -1 dir64k.lost64k | grep -q "\"overlay_spilled_bytes\":[1-9][0-9]\{6,\}[,}]" &&
	sed "s/\"overlay_spilled_bytes\":[0-9]*/\"overlay_spilled_bytes\":0/" dir64k.lost64k >dir64k.lost64k.0 &&
	test_cmp dir64k.lost dir64k.lost64k.0 &&
	test -z "$(ls spill)" &&
	"$XLS" lost --blocks-mem=64k $(image dir64k) >dir64k.lost64k.txt &&
	"$XLS" lost $(image dir64k) >dir64k.lost.txt &&
	test_cmp dir64k.lost.txt dir64k.lost64k.txt
'
test_expect_success 'lost --blocks-mem: a TMPDIR where no file can be made is an error that names it' '
	test_expect_code 3 env TMPDIR=/nonexistent/dir "$XLS" lost --blocks-mem=64k $(image dir64k) >out 2>err &&
	grep -q "cannot keep the block images past --blocks-mem in a temporary file in .*/nonexistent/dir.* (TMPDIR): No such file or directory" err &&
	TMPDIR=/nonexistent/dir "$XLS" lost $(image dir64k) >out
'
test_expect_success 'lost --blocks-max: past the bound, approximate and exit 1' '
	test_expect_code 1 "$XLS" lost --json --blocks-mem=64k --blocks-max=64k $(image dir64k) >dir64k.lostmax &&
	head -1 dir64k.lostmax | grep -q "\"approximate\":true,\"mount_fails_after\":false,\"overlay_bytes\":[0-9]*,\"overlay_max_bytes\":65536" &&
	full=$(grep -c "\"kind\":\"lost_dirent\"" dir64k.lost) &&
	short=$(grep -c "\"kind\":\"lost_dirent\"" dir64k.lostmax || true) &&
	test "$short" -lt "$full" &&
	test_expect_code 1 "$XLS" lost --blocks-mem=64k --blocks-max=64k $(image dir64k) >dir64k.lostmax.txt &&
	grep -q "^  approximate: more than 65536 bytes of replayed blocks" dir64k.lostmax.txt &&
	"$XLS" lost --json --blocks-mem=1g $(image dir64k) >dir64k.lost1g &&
	test_cmp dir64k.lost dir64k.lost1g
'
test_expect_success 'files --blocks-mem: past it, spilled, the same events' '
	"$XLS" files --json $(image dir64k) >dir64k.files &&
	! grep -q "\"finding\":\"files_bound\"" dir64k.files &&
	"$XLS" files --json --blocks-mem=64K $(image dir64k) >dir64k.files64k &&
	test_cmp dir64k.files dir64k.files64k &&
	"$XLS" files --json --blocks-mem=64K $(image dirfrag) >dirfrag.files64k &&
	"$XLS" files --json $(image dirfrag) >dirfrag.files1 &&
	test_cmp dirfrag.files1 dirfrag.files64k
'
# Events wait for a path until the log names their directory: past the
# memory given them, in a temporary file (base/spillq).  With 64 bytes of
# memory every waiting event of dir64k and dirfrag goes through the file
# (strace shows its writes); they must come out as with 8 MiB.
test_expect_success 'files: events waiting in the temporary file come out as in memory' '
	for i in dir64k dirfrag later pptr64k; do
		"$XLS_BUILD/tests/xls-fevents" 8388608 $(image $i) >$i.hold8m &&
		"$XLS_BUILD/tests/xls-fevents" 64 $(image $i) >$i.hold64 &&
		test -s $i.hold8m && test_cmp $i.hold8m $i.hold64 || return 1
	done &&
	"$XLS_BUILD/tests/xls-fevents" -s 8388608 $(image later) >later.s8m &&
	"$XLS_BUILD/tests/xls-fevents" -s 64 $(image later) >later.s64 &&
	test_cmp later.s8m later.s64
'
test_expect_success 'files --blocks-max: past the bound, a files_bound finding and exit 1' '
	test_expect_code 1 "$XLS" files --json --blocks-max=64K $(image dir64k) >dir64k.filesmax &&
	grep -q "\"finding\":\"files_bound\",.*more than 65536 bytes of directory and attr blocks: [1-9][0-9]* later items" dir64k.filesmax
'
# dirfrag's 64 KiB blocks lie on up to 16 extents, each logged by a
# buffer format of its own, and clean extents not at all: assembled by the
# directory's map (as lost reads them), they are well-formed blocks.
cat >dirents.pl <<'EOF_PL'
my %seen;
while (<>) {
	my ($d) = /"(?:dir|new_dir)":"(0x[0-9a-f]+)"/ or next;
	my ($n) = /"name":"([^"]*)"/;
	my ($i) = /"ino":"(0x[0-9a-f]+)"/;
	$seen{"$d $n $i"} = 1 if /"event":"dirent_add"|"kind":"lost_dirent".*"op":"add"/;
}
print "$_\n" for sort keys %seen;
EOF_PL
test_expect_success 'files: dirfrag, blocks on discontiguous extents assembled: every entry lost has, none malformed' '
	"$XLS" files --json $(image dirfrag) >dirfrag.files &&
	! grep -q "\"kind\":\"finding\"" dirfrag.files &&
	"$XLS" lost --json $(image dirfrag) >dirfrag.lost &&
	perl dirents.pl dirfrag.lost >dirfrag.want &&
	test "$(wc -l <dirfrag.want)" -gt 3000 &&
	perl dirents.pl dirfrag.files >dirfrag.got &&
	test_cmp dirfrag.want dirfrag.got
'
test_expect_success '--blocks-mem, --blocks-max: below 64k, not a size, or on another command: usage' '
	test_expect_code 2 "$XLS" lost --blocks-mem=32k $(image dir4k) &&
	test_expect_code 2 "$XLS" files --blocks-max=32k $(image dir4k) &&
	test_expect_code 2 "$XLS" recover --blocks-max=1g $(image dir4k) &&
	test_expect_code 2 "$XLS" files --blocks-mem=lots $(image dir4k) &&
	test_expect_code 2 "$XLS" lost --blocks-mem=1t $(image dir4k) &&
	test_expect_code 2 "$XLS" stats --blocks-mem=1m $(image dir4k)
'

# owners, from the v5 headers the log holds
test_expect_success 'bufs: owners of directory blocks, btrees, AG headers and inode clusters' '
	"$XLS" bufs --json $(image dir4k) >dir4k.bufs &&
	grep -q "\"type\":\"dir_block\".*\"owner\":\"dir\",\"agno\":0,\"owner_ino\":\"0x83\"" dir4k.bufs &&
	grep -q "\"type\":\"btree\".*\"owner\":\"btree\",\"btree\":\"finobt\",\"agno\":0" dir4k.bufs &&
	grep -q "\"type\":\"agf\".*\"owner\":\"agf\",\"agno\":1" dir4k.bufs &&
	"$XLS" bufs --json $(image unlinked) | grep -q "\"type\":\"dino\".*\"owner\":\"inodes\".*\"ino_first\":\"0xc0\",\"ino_last\":\"0xdf\""
'
# alpha (0x83) is a block-form directory at the end: each of its entries
# was logged in a region of its block, by its create or the conversion
test_expect_success 'bufs -v: the entries of logged regions hold every entry alpha ends with' '
	"$XLS" bufs -v --type=dir $(image dir4k) >dir4k.bufsv &&
	sed -n "s/^      entry  offset .* ino 0x[0-9a-f]*  \(.*\)$/\"name\":\"\1\"/p" dir4k.bufsv |
		sort -u >names &&
	grep "\"kind\":\"lost_dirent\",\"dir\":\"0x83\"" dir4k.lost |
		grep -o "\"name\":\"[^\"]*\"" | sort -u >alpha &&
	test "$(wc -l <alpha)" -gt 100 &&
	comm -23 alpha names >missing && test_cmp /dev/null missing &&
	! grep -q "\"name\":\"\.\.\?\"" names &&
	grep -q "^      entry  offset .* ino 0x84  file-00001$" dir4k.bufsv &&
	"$XLS" bufs -v --json --type=dir $(image dir4k) >dir4k.bufsvj &&
	grep -q "\"dirents\":\[{\"offset\":96,\"ino\":\"0x84\",\"name\":\"file-00001\"}" dir4k.bufsvj &&
	test "$(grep -o "{\"offset\":[0-9]*,\"ino\":" dir4k.bufsvj | wc -l)" -eq \
		"$(grep -c "^      entry  offset " dir4k.bufsv)"
'
test_expect_success 'bufs --ino: only the buffers of that inode' '
	"$XLS" bufs --json --ino=0x83 $(image dir4k) >ino.bufs && test -s ino.bufs &&
	! grep -v "\"owner_ino\":\"0x83\"\\|\"ino_first\":\"0x80\"" ino.bufs
'
test_expect_success 'trans, recover and history --ino' '
	"$XLS" trans --json --ino=0x84 $(image dir4k) >ino.trans &&
	grep -q "\"item\":\"inode\".*\"ino\":\"0x84\"" ino.trans &&
	! grep "\"kind\":\"item\"" ino.trans | grep "\"item\":\"inode\"" | grep -v "\"ino\":\"0x84\"" &&
	"$XLS" recover --json --ino=0x84 $(image dir4k) >ino.recover &&
	grep -q "\"kind\":\"ritem\".*\"ino\":\"0x84\"" ino.recover &&
	"$XLS" history --json --ino=0x84 $(image dir4k) >ino.history &&
	grep -q "\"kind\":\"appearance\"" ino.history &&
	"$XLS" history --blkno=0x80 $(image dir4k) >blk.history &&
	"$XLS" history --ino=0x84 $(image dir4k) >ino.h &&
	grep -q "daddr 0x80 " ino.h &&
	test "$(grep -c "ino 0x84 in buffer" ino.h)" -lt "$(grep -c "in buffer 0x80" blk.history)"
'
# A data device whose directory blocks, inode clusters and btree blocks
# hold garbage: lost and files read them (fsview, names, the baselines),
# and must give findings or an answer, never a crash or a hang.
test_expect_success 'lost and files on a data device of hostile metadata: no crash, no hang' '
	for seed in 1 2 3 4 5 6; do
		cp --sparse=always $(image dir4k) hostile.img &&
		perl -e "
			srand($seed);
			open(my \$f, \"+<\", \"hostile.img\") or die;
			# the root and alpha inode clusters, alpha and beta blocks, AG btrees
			for my \$d (0x80, 0x78, 0x70, 0x40070, 0x40078, 0x40080, 0x18, 0x20, 0x10, 0x8) {
				for (1 .. 40) {
					my \$off = \$d * 512 + int(rand(4096));
					sysseek(\$f, \$off, 0);
					syswrite(\$f, chr(int(rand(256))) x (1 + int(rand(3))));
				}
			}" &&
		for cmd in lost "lost --json" files "files --json"; do
			timeout 60 "$XLS" $cmd hostile.img >/dev/null 2>err
			rc=$?
			if [ $rc -gt 4 ] || grep -q "Sanitizer\|runtime error" err; then
				echo "seed $seed: $cmd: exit $rc"; cat err; return 1
			fi
		done || return 1
	done
'
test_done
