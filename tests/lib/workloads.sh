# Workloads that make fresh journals with this machine's kernel, for the
# tests that compare with it (t0810, t0850); sourced after kmount.sh ($MNT).

# A workload of the kind lost must follow: creates, hard links, renames
# within and across directories, unlinks, mkdir and rmdir, xattrs, a
# directory grown to BIG entries, fsyncs; halfway, a freeze writes
# everything back (the disk then holds the first half, the log the rest,
# which also removes and renames what the disk holds); at the end the
# filesystem is shut down with its log unflushed.
workload() {
	m=$1 n=$2 big=$3
	mkdir "$m/d1" "$m/d2" "$m/big" "$m/gone"
	for i in $(seq 1 "$big"); do
		: >"$m/big/a-rather-long-name-to-fill-directory-blocks-quickly-$i"
	done
	for i in $(seq 1 "$n"); do
		if [ "$i" -eq $((n / 2)) ]; then
			xfs_freeze -f "$m" && xfs_freeze -u "$m"
		fi
		if [ "$i" -gt $((n / 2)) ] && [ $((i % 3)) -eq 0 ]; then
			rm -f "$m/d1/f$((i - n / 2))" "$m/big/a-rather-long-name-to-fill-directory-blocks-quickly-$i"
			mv "$m/d2/link$((i - n / 2))" "$m/d1/back$i" 2>/dev/null
		fi
		: >"$m/d1/f$i"
		[ $((i % 4)) -eq 0 ] && ln "$m/d1/f$i" "$m/d2/link$i"
		[ $((i % 5)) -eq 0 ] && mv "$m/d1/f$((i - 2))" "$m/d2/moved$i" 2>/dev/null
		[ $((i % 6)) -eq 0 ] && mv "$m/d1/f$((i - 1))" "$m/d1/renamed$i" 2>/dev/null
		[ $((i % 7)) -eq 0 ] && rm -f "$m/d1/f$((i - 3))"
		[ $((i % 9)) -eq 0 ] && { mkdir "$m/d2/sub$i"; : >"$m/d2/sub$i/x"; }
		[ $((i % 18)) -eq 0 ] && rm -rf "$m/d2/sub$((i - 9))"
		[ $((i % 10)) -eq 0 ] && setfattr -n user.a$i -v "value$i" "$m/d1/f$i" 2>/dev/null
		: >"$m/big/more-$i"
		[ $((i % 25)) -eq 0 ] && xfs_io -c fsync "$m/d1" "$m/d2" "$m/big" "$m"
	done
	: >"$m/gone/file" && rm -rf "$m/gone"
	xfs_io -c fsync "$m/d1" "$m/d2"
	# the last changes only in the log
	for i in $(seq 1 20); do : >"$m/d2/last$i"; done
	xfs_io -c fsync "$m/d2"
}

# Churn over what the disk holds: four directories of 1500 files written
# back by a freeze, then renames out of one, unlinks in another, creates in
# a third that is then removed whole (its inode chunks freed: recovery
# skips the cancelled clusters' inode items), xattrs removed.
churn() {
	m=$1
	mkdir "$m/a" "$m/b" "$m/c" "$m/d"
	for d in a b c d; do
		for i in $(seq 1 1500); do : >"$m/$d/file-with-a-name-$i"; done
	done
	for i in $(seq 1 300); do setfattr -n user.x -v "$i" "$m/a/file-with-a-name-$i"; done
	xfs_freeze -f "$m" && xfs_freeze -u "$m"
	for r in 1 2 3 4 5 6; do
		for i in $(seq "$r" 6 1500); do
			mv "$m/a/file-with-a-name-$i" "$m/b/moved-$r-$i" 2>/dev/null
			rm -f "$m/c/file-with-a-name-$i"
			: >"$m/d/new-$r-$i"
			[ $((i % 50)) -eq 0 ] && xfs_io -c fsync "$m/a" "$m/b" "$m/c" "$m/d"
		done
		setfattr -x user.x "$m/b/moved-$r-$r" 2>/dev/null
	done
	rm -rf "$m/d"
	mkdir "$m/e"
	for i in $(seq 1 200); do : >"$m/e/late$i"; done
	xfs_io -c fsync "$m/e" "$m"
}

# fresh_churn NAME: a 1 GiB filesystem, 64 MiB log, churn, shut down.
fresh_churn() {
	truncate -s 1G "$1.img" && mkfs.xfs -q -f -l size=64m "$1.img" || return 1
	mount -o loop "$1.img" "$MNT" || return 1
	churn "$MNT"
	xfs_io -x -c 'shutdown -f' "$MNT"
	umount "$MNT"
}

# fresh NAME BIG MKFS...: a new journal written by this kernel.
fresh() {
	name=$1 big=$2
	shift 2
	truncate -s 512M "$name.img" && "$@" -q -f -l size=64m "$name.img" || return 1
	mount -o loop "$name.img" "$MNT" || return 1
	workload "$MNT" 400 "$big"
	xfs_io -x -c 'shutdown -f' "$MNT"
	umount "$MNT"
	"$XLS" info "$name.img" | grep -q 'state *dirty'
}


# fresh_reflink NAME: reflink and rmap btrees; files, reflinked copies,
# copies of copies, overwrites of shared blocks (CoW), unlinks; shut down
# while CoW staging extents (the speculative preallocation of the CoW
# fork) are still in the refcount btree, which the kernel frees after it
# recovers the log.
fresh_reflink() {
	truncate -s 512M "$1.img" && mkfs.xfs -q -f -m reflink=1,rmapbt=1 -l size=64m "$1.img" ||
		return 1
	mount -o loop "$1.img" "$MNT" || return 1
	m=$MNT
	mkdir "$m/src" "$m/cp1" "$m/cp2"
	for i in $(seq 1 120); do
		head -c $(( (i % 32 + 1) * 4096 )) /dev/urandom >"$m/src/orig-$i"
	done
	xfs_io -c fsync "$m/src" "$m"
	for i in $(seq 1 120); do
		cp --reflink=always "$m/src/orig-$i" "$m/cp1/copy-$i"
		[ $((i % 2)) -eq 0 ] && cp --reflink=always "$m/cp1/copy-$i" "$m/cp2/again-$i"
		[ $((i % 3)) -eq 0 ] && xfs_io -c "pwrite -q 0 4096" -c fsync "$m/src/orig-$i"
		[ $((i % 5)) -eq 0 ] && rm -f "$m/src/orig-$i"
		xfs_io -c fsync "$m/cp1" "$m/cp2" "$m/src"
	done
	xfs_io -x -c 'shutdown -f' "$m"
	umount "$m"
}

# fresh_grown NAME: a filesystem of 512 MiB grown to 1 GiB (xfs_growfs),
# shut down with the growth in its log and two files unlinked while open
# (work left for the mount), then its image cut back to 512 MiB, as a
# device that shrank under it: the superblock on disk still says 512 MiB,
# the one in the log 1 GiB.
fresh_grown() {
	truncate -s 1G "$1.img" && mkfs.xfs -q -f -d size=512m -l size=64m "$1.img" || return 1
	mount -o loop "$1.img" "$MNT" || return 1
	mkdir "$MNT/d" && echo a >"$MNT/d/open1" && echo b >"$MNT/d/open2" && sync &&
		xfs_growfs "$MNT" >/dev/null && touch "$MNT/d/after" &&
		(exec 3<"$MNT/d/open1" 4<"$MNT/d/open2" && rm "$MNT/d/open1" "$MNT/d/open2" &&
		 xfs_io -c fsync "$MNT/d" && xfs_io -x -c 'shutdown -f' "$MNT")
	rc=$?
	xfs_io -x -c 'shutdown -f' "$MNT" 2>/dev/null
	umount "$MNT"
	[ "$rc" -eq 0 ] && truncate -s 512M "$1.img"
}

# fresh_wrap NAME N: a 512 MiB filesystem, 64 MiB log, N creates in two
# directories (a fifth with data), renames and unlinks behind them, each
# directory fsynced every 20 operations: the log wraps, its head comes
# round past blocks of earlier cycles; shut down.
fresh_wrap() {
	truncate -s 512M "$1.img" && mkfs.xfs -q -f -l size=64m "$1.img" || return 1
	mount -o loop "$1.img" "$MNT" || return 1
	mkdir "$MNT/a" "$MNT/b"
	perl -MIO::Handle -e '
		my ($m, $n) = @ARGV;
		for my $i (0 .. $n - 1) {
			my $d = $m . ($i % 2 ? "/a" : "/b");
			open(my $f, ">", "$d/file-with-a-longish-name-$i") or die "$d: $!";
			print $f "x" x (100 * ($i % 40)) if $i % 5 == 0;
			close($f);
			rename("$d/file-with-a-longish-name-" . ($i - 4), "$d/renamed-$i")
				if $i % 3 == 0 && $i > 10;
			unlink($m . (($i - 20) % 2 ? "/a" : "/b") . "/file-with-a-longish-name-" . ($i - 20))
				if $i % 4 == 0 && $i > 20;
			next if $i % 20;
			open(my $dh, "<", $d) or die "$d: $!";
			$dh->sync or die "fsync $d: $!";
			close($dh);
		}' "$MNT" "$2"
	xfs_io -x -c 'shutdown -f' "$MNT"
	umount "$MNT"
}

# fresh_mixed NAME ROUNDS MKFS-OPTIONS...: what the other workloads leave
# out, in five directories over ROUNDS rounds, each directory fsynced at
# the end of a round: files written then punched, zeroed, collapsed or
# inserted into (fallocate), 6000-byte xattrs (remote values) and small
# ones, hard links, symlinks of 300 bytes (remote), reflinked copies
# overwritten (CoW), a directory of long names grown past one block,
# chmod, chown, renames across directories, unlinks three rounds behind;
# then O_TMPFILE files linked in, and two files unlinked while open when
# the filesystem is shut down (unlinked inodes for the mount to free).
fresh_mixed() {
	name=$1 rounds=$2
	shift 2
	truncate -s 1G "$name.img" && mkfs.xfs -q -f -l size=64m "$@" "$name.img" || return 1
	mount -o loop "$name.img" "$MNT" || return 1
	m=$MNT
	mkdir "$m/a" "$m/b" "$m/big"
	big=$(head -c 6000 /dev/zero | tr '\0' x)
	target=$(printf 'target-%.0s' $(seq 1 40))
	long=$(printf 'n%.0s' $(seq 1 60))
	for r in $(seq 1 "$rounds"); do
		d=$m/a/d$((r % 5))
		mkdir -p "$d"
		for i in $(seq 1 20); do
			f=$d/file-$r-$i-with-a-rather-long-name-to-fill-blocks
			xfs_io -f -c "pwrite -q 0 $(( (i % 7 + 1) * 8192 ))" "$f"
			case $((i % 6)) in
			0) xfs_io -c "fpunch 4096 4096" "$f" ;;
			1) xfs_io -c "fzero 0 4096" "$f" ;;
			2) xfs_io -c "falloc 65536 65536" -c "fcollapse 0 4096" "$f" ;;
			3) xfs_io -c "finsert 0 4096" "$f" ;;
			4) setfattr -n user.big -v "$big" "$f" ;;
			5) setfattr -n user.s$i -v small "$f" && ln "$f" "$m/b/link-$r-$i" ;;
			esac
		done
		ln -s "$target$r" "$m/b/sym-$r"
		cp --reflink=always "$d/file-$r-1-with-a-rather-long-name-to-fill-blocks" "$m/b/rl-$r" &&
			xfs_io -c "pwrite -q 0 4096" "$m/b/rl-$r"
		for i in $(seq 1 30); do : >"$m/big/entry-$r-$i-$long"; done
		rm -f "$m/a/d$(((r + 2) % 5))/file-$((r - 3))-"*
		chmod 600 "$d/file-$r-2-"*
		chown 1000:1000 "$d/file-$r-3-"*
		mv "$d/file-$r-4-with-a-rather-long-name-to-fill-blocks" "$m/b/moved-$r"
		xfs_io -c fsync "$d" "$m/big" "$m/b"
	done 2>/dev/null
	for i in 1 2 3 4 5; do
		xfs_io -T -c "pwrite -q 0 8192" -c "flink $m/b/tmp-$i" "$m/b"
	done
	(exec 3>"$m/b/open-1" 4>"$m/b/open-2" && echo data >&3 && rm "$m/b/open-1" "$m/b/open-2" &&
	 xfs_io -c fsync "$m/b" && xfs_io -x -c 'shutdown -f' "$m")
	rc=$?
	xfs_io -x -c 'shutdown -f' "$m" 2>/dev/null
	umount "$m"
	[ "$rc" -eq 0 ] && "$XLS" info "$name.img" | grep -q 'state *dirty'
}

# fresh_pinned NAME: creates in four directories, a tenth with a small
# xattr, a third renamed behind, each directory fsynced every 20, until
# the 64 MiB log has moved its tail (at least 5 s, at most 90 s): the log
# fills, and the AIL pushed to make room writes back inode clusters but
# not the inode btree's blocks, which every create relogs, pinned in the
# CIL.  The disk then holds inodes in use in chunks no record of its
# inode btree holds: xfs_repair -L never finds them.  Shut down.
fresh_pinned() {
	truncate -s 1G "$1.img" && mkfs.xfs -q -f -l size=64m "$1.img" || return 1
	mount -o loop "$1.img" "$MNT" || return 1
	tailfile=/sys/fs/xfs/$(basename "$(findmnt -n -o SOURCE "$MNT")")/log/log_tail_lsn
	mkdir "$MNT/d0" "$MNT/d1" "$MNT/d2" "$MNT/d3"
	perl -MIO::Handle -e '
		my ($m, $tailfile) = @ARGV;
		my $start = time;
		for (my $i = 0; ; $i++) {
			my $d = "$m/d" . ($i % 4);
			my $f = "$d/file-with-a-longish-name-$i";
			open(my $h, ">", $f) or die "$f: $!";
			close($h);
			system("setfattr", "-n", "user.n$i", "-v", "v$i", $f) if $i % 10 == 0;
			rename("$d/file-with-a-longish-name-" . ($i - 8), "$d/renamed-$i")
				if $i % 3 == 0 && $i > 8;
			next if $i % 20;
			for my $k (0 .. 3) {
				open(my $dh, "<", "$m/d$k") or die "$m/d$k: $!";
				$dh->sync or die "fsync: $!";
				close($dh);
			}
			next if $i % 200;
			open(my $t, "<", $tailfile) or die "$tailfile: $!";
			my ($cycle, $block) = split /:/, scalar <$t>;
			close($t);
			last if ($block > 2 && time - $start >= 5) || time - $start > 90;
		}' "$MNT" "$tailfile"
	rc=$?
	xfs_io -x -c 'shutdown -f' "$MNT"
	umount "$MNT"
	[ "$rc" -eq 0 ] && "$XLS" info "$1.img" | grep -q 'state *dirty'
}

# fresh_unlinked NAME FILES KINDS MKFS-OPTIONS...: inodes unlinked while
# open when the filesystem is shut down, for pass 3 to free: FILES files
# with data over eight directories, one in five kept linked (fsynced, so
# their blocks are on disk); with KINDS "all" also empty files, files
# with small xattrs (shortform attr forks), local and remote symlinks
# (400 to 940 bytes) held by O_PATH,
# empty directories held open, files of a bmap btree (61 to 1061 extents),
# reflinked files (where mkfs made reflink on: two of three copies),
# files whose xattrs have blocks (a leaf, remote values, a node tree),
# a directory's 128 files unlinked whole (its inode chunks freed) and
# O_TMPFILE files never linked.
fresh_unlinked() {
	name=$1 files=$2 kinds=$3
	shift 3
	truncate -s 1G "$name.img" && mkfs.xfs -q -f -l size=64m "$@" "$name.img" || return 1
	mount -o loop "$name.img" "$MNT" || return 1
	# O_PATH and O_TMPFILE are Linux's generic values (not alpha, parisc, sparc)
	perl -MFcntl -MIO::Handle -e '
		my ($m, $n, $kinds) = @ARGV;
		my ($O_PATH, $O_TMPFILE) = (010000000, 020000000 | O_DIRECTORY);
		my @keep;
		sub held { my ($p, $fl) = @_; sysopen(my $h, $p, $fl, 0644) or die "$p: $!"; push @keep, $h; $h }
		mkdir("$m/d$_") for 0 .. 7;
		for my $i (0 .. $n - 1) {
			my $h = held("$m/d" . ($i % 8) . "/f$i", O_CREAT | O_RDWR);
			for (my $off = 0; $off < ($i % 7) * 4096; $off += 8192) {
				sysseek($h, $off, 0); syswrite($h, "y" x 4096);
			}
			$h->sync;
		}
		for my $i (0 .. $n - 1) { unlink("$m/d" . ($i % 8) . "/f$i") if $i % 5 }
		if ($kinds eq "all") {
			for my $i (0 .. 29) { held("$m/d0/e$i", O_CREAT | O_RDWR); unlink("$m/d0/e$i") }
			for my $i (0 .. 19) {
				my $h = held("$m/d1/x$i", O_CREAT | O_RDWR);
				syswrite($h, "z" x 5000);
				system("setfattr", "-n", "user.a", "-v", "v" x 20, "$m/d1/x$i") == 0 &&
				system("setfattr", "-n", "user.b", "-v", "w" x 30, "$m/d1/x$i") == 0 or die "setfattr";
				unlink("$m/d1/x$i");
			}
			for my $i (0 .. 9) {
				symlink("t" x (10 + $i), "$m/d2/s$i") or die "symlink: $!";
				held("$m/d2/s$i", $O_PATH | O_NOFOLLOW); unlink("$m/d2/s$i");
				# remote: a block each, past what a 512-byte inode holds
				symlink("/u" x (200 + 30 * $i), "$m/d2/r$i") or die "symlink: $!";
				held("$m/d2/r$i", $O_PATH | O_NOFOLLOW); unlink("$m/d2/r$i");
				mkdir("$m/d3/r$i") or die "mkdir: $!";
				held("$m/d3/r$i", O_RDONLY | O_DIRECTORY); rmdir("$m/d3/r$i") or die "rmdir: $!";
				syswrite(held("$m/d4", $O_TMPFILE | O_RDWR), "tmp" x 1000);
			}
			# files of a bmap btree: an extent every other block
			for my $i (0 .. 5) {
				my $h = held("$m/d5/b$i", O_CREAT | O_RDWR);
				for my $k (0 .. 60 + 200 * $i) {
					sysseek($h, $k * 8192, 0); syswrite($h, "b" x 4096);
				}
				$h->sync; unlink("$m/d5/b$i");
			}
			# reflinked files (where mkfs made reflink on): three copies
			# of a file of 300 extents, one half rewritten (its CoW
			# staging extents left too), two unlinked while open
			my $src = held("$m/d6/src", O_CREAT | O_RDWR);
			for my $k (0 .. 299) { sysseek($src, $k * 8192, 0); syswrite($src, "s" x 4096) }
			$src->sync;
			if (system("cp", "--reflink=always", "$m/d6/src", "$m/d6/k0") == 0) {
				system("cp", "--reflink=always", "$m/d6/src", "$m/d6/k$_") == 0 or die "cp" for 1, 2;
				my $h = held("$m/d6/k1", O_RDWR);
				for my $k (0 .. 149) { sysseek($h, $k * 16384, 0); syswrite($h, "k" x 4096) }
				$h->sync;
				held("$m/d6/k$_", O_RDONLY) for 0, 2;
				unlink("$m/d6/k$_") for 1, 2;
			}
			# xattrs with blocks: a leaf, remote values, a node tree
			for my $i (0 .. 2) {
				my $f = "$m/d7/a$i";
				my $h = held($f, O_CREAT | O_RDWR);
				syswrite($h, "a" x 3000);
				my ($n, $len) = ([30, 2, 600]->[$i], [100, 9000, 60]->[$i]);
				open(my $dump, ">", "$m/d7/a$i.dump") or die "dump: $!";
				print $dump "# file: $f\n";
				printf $dump "user.x%05d=\"%s\"\n", $_, ("v" . $_) x int($len / 6) for 1 .. $n;
				close($dump);
				system("setfattr", "--restore=$m/d7/a$i.dump") == 0 or die "setfattr";
				unlink("$m/d7/a$i.dump");
				$h->sync; unlink($f);
			}
			mkdir("$m/chunk");
			held("$m/chunk/c$_", O_CREAT | O_RDWR) for 0 .. 127;
			unlink("$m/chunk/c$_") for 0 .. 127;
		}
		for my $d (map("$m/d$_", 0 .. 7), $m, -d "$m/chunk" ? "$m/chunk" : ()) {
			open(my $dh, "<", $d) or die "$d: $!"; $dh->sync or die "fsync $d: $!"; close($dh);
		}
		system("xfs_io", "-x", "-c", "shutdown -f", $m) == 0 or die "shutdown";
	' "$MNT" "$files" "$kinds"
	rc=$?
	xfs_io -x -c 'shutdown -f' "$MNT" 2>/dev/null
	umount "$MNT"
	[ "$rc" -eq 0 ] && "$XLS" info "$name.img" | grep -q 'state *dirty'
}

# fresh_cow_unlinked NAME SOURCES SMALL: reflink and rmap btrees; SOURCES
# files of 1-4 MiB written in turns, 64 KiB each, each turn fsynced (with
# allocsize=64k, their extents interleave), each copied by reflink and 40
# random 4 KiB pieces of the copy rewritten (CoW: shared extents split,
# staging extents left by the CoW fork's preallocation); SMALL files of
# 0-64 KiB; then, still open, the odd copies, the even sources and every
# small file unlinked: pass 3 inactivates them (reference counts
# decreased, shared extents kept, the rest freed) while the frees it
# makes stay busy, then frees the CoW leftovers, and the kernel's log is
# forced in the middle of it.  With a fourth argument, "under way", four
# processes reflink the sources left and punch the copies when the
# filesystem shuts down: intents too (BUI, RUI, CUI, EFI), which pass 3
# finishes first, the checkpoint they end and the forces after it
# letting go of btree blocks freed there and taken again later.
fresh_cow_unlinked() {
	name=$1 sources=$2 small=$3 busy=${4:-}
	truncate -s 1G "$name.img" &&
		mkfs.xfs -q -f -m reflink=1,rmapbt=1 -l size=64m "$name.img" || return 1
	mount -o loop,allocsize=64k "$name.img" "$MNT" || return 1
	perl -MFcntl -MIO::Handle -e '
		my ($m, $ns, $nsmall, $busy) = @ARGV;
		my (@keep, @size);
		srand(46);
		sub held { my ($p, $fl) = @_; sysopen(my $h, $p, $fl, 0644) or die "$p: $!"; push @keep, $h; $h }
		my $chunk = "c" x 65536;
		my @src = map { held("$m/s$_", O_CREAT | O_RDWR) } 0 .. $ns - 1;
		@size = map { (1 + int(rand(4))) * 16 } 0 .. $ns - 1;	# in 64 KiB chunks
		for my $k (0 .. 63) {
			for my $i (0 .. $ns - 1) {
				next if $k >= $size[$i];
				sysseek($src[$i], $k * 65536, 0); syswrite($src[$i], $chunk);
				$src[$i]->sync;
			}
		}
		my @cp;
		for my $i (0 .. $ns - 1) {
			system("cp", "--reflink=always", "$m/s$i", "$m/c$i") == 0 or die "cp --reflink";
			my $h = held("$m/c$i", O_RDWR);
			for (1 .. 40) {
				sysseek($h, int(rand($size[$i] * 16)) * 4096, 0); syswrite($h, "w" x 4096);
			}
			$h->sync;
		}
		for my $i (0 .. $nsmall - 1) {
			my $h = held("$m/m$i", O_CREAT | O_RDWR);
			my $n = int(rand(17)) * 4096;
			syswrite($h, "m" x $n) if $n;
			$h->sync;
		}
		unlink("$m/c$_") for grep { $_ % 2 } 0 .. $ns - 1;
		unlink("$m/s$_") for grep { !($_ % 2) } 0 .. $ns - 1;
		unlink("$m/m$_") for 0 .. $nsmall - 1;
		open(my $dh, "<", $m) or die "$m: $!"; $dh->sync or die "fsync $m: $!"; close($dh);
		my @pids;
		for my $j (0 .. ($busy ? 3 : -1)) {
			my $pid = fork() // die "fork: $!";
			if (!$pid) {
				# the errors they meet after the shutdown (EIO) are expected
				open(STDOUT, ">", "/dev/null");
				open(STDERR, ">", "/dev/null");
				for my $r (0 .. 1000) {
					my $i = 1 + 2 * (($r + $j) % int($ns / 2));
					system("xfs_io", "-f", "-c", "reflink $m/s$i", "-c", "fpunch 65536 131072",
					       "-c", "fsync", "$m/x$j.$r");
					unlink("$m/x$j." . ($r - 2)) if $r >= 2;
				}
				exit 0;
			}
			push @pids, $pid;
		}
		select(undef, undef, undef, 1.5) if @pids;
		system("xfs_io", "-x", "-c", "shutdown -f", $m) == 0 or die "shutdown";
		kill 9, @pids;
		waitpid($_, 0) for @pids;
	' "$MNT" "$sources" "$small" "$busy"
	rc=$?
	xfs_io -x -c 'shutdown -f' "$MNT" 2>/dev/null
	umount "$MNT"
	[ "$rc" -eq 0 ] && "$XLS" info "$name.img" | grep -q 'state *dirty'
}

# fresh_cow_intents NAME SOURCES SMALL: fresh_cow_unlinked with reflinks
# and punches under way, made again (four times at most) until the
# shutdown has caught intents in the log: where it lands between two of
# their transaction chains, nothing is pending but the unlinked inodes.
fresh_cow_intents() {
	for try in 1 2 3 4; do
		fresh_cow_unlinked "$1" "$2" "$3" "under way" || return 1
		"$XLS" recover "$1.img" 2>/dev/null |
			grep -q "left to finish after replay: .*[0-9] \(EFI\|RUI\|CUI\|BUI\)" && return 0
		rm -f "$1.img"
	done
	echo "fresh_cow_intents: no intents pending in four tries"
	return 1
}

# fresh_chunks NAME: a 1 GiB filesystem of three AGs (87,381 blocks each:
# not a power of two, so a block's number in the filesystem is not its
# address over 4096), eight directories spread over them, 192 files each,
# every one unlinked while open: pass 3 frees whole inode chunks in every
# AG, whose cluster buffers the kernel never writes.
fresh_chunks() {
	truncate -s 1G "$1.img" && mkfs.xfs -q -f -d agcount=3 -l size=64m "$1.img" || return 1
	mount -o loop "$1.img" "$MNT" || return 1
	perl -MFcntl -MIO::Handle -e '
		my ($m) = @ARGV;
		my @keep;
		for my $d (0 .. 7) { mkdir("$m/d$d") or die "mkdir: $!" }
		for my $d (0 .. 7) {
			for my $i (0 .. 191) {
				sysopen(my $h, "$m/d$d/f$i", O_CREAT | O_RDWR, 0644) or die "$m/d$d/f$i: $!";
				syswrite($h, "x" x (4096 * ($i % 3)));
				push @keep, $h;
			}
		}
		$_->sync for @keep;
		for my $d (0 .. 7) {
			unlink("$m/d$d/f$_") for 0 .. 191;
			open(my $dh, "<", "$m/d$d") or die "$m/d$d: $!"; $dh->sync or die "fsync: $!";
		}
		system("xfs_io", "-x", "-c", "shutdown -f", $m) == 0 or die "shutdown";
	' "$MNT"
	rc=$?
	xfs_io -x -c 'shutdown -f' "$MNT" 2>/dev/null
	umount "$MNT"
	[ "$rc" -eq 0 ] && "$XLS" info "$1.img" | grep -q 'state *dirty'
}
