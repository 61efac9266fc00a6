#!/bin/sh
# Safety: the input is only ever opened read-only and never changes, and a
# mounted filesystem is refused unless --force is given.
. "$(dirname "$0")/lib/test-lib.sh"

: "${ASAN_OPTIONS:=abort_on_error=1:halt_on_error=1:detect_leaks=1}"
: "${UBSAN_OPTIONS:=abort_on_error=1:halt_on_error=1:print_stacktrace=1}"
export ASAN_OPTIONS UBSAN_OPTIONS

# Every command, with the options that change what it reads.
COMMANDS="info
records
records --all
trans --json
bufs -v
stats --json
copy"
"$XLS" recover --help >/dev/null 2>&1 && COMMANDS="$COMMANDS
recover -v"
"$XLS" history --help >/dev/null 2>&1 && COMMANDS="$COMMANDS
history -v --blkno=2 --svg=o.svg"
"$XLS" bufs --help 2>/dev/null | grep -q -- --svg && COMMANDS="$COMMANDS
bufs --top=3 --svg=o.svg"

has_strace=false
if command -v strace >/dev/null 2>&1 &&
   strace -f -qq -e trace=openat,open -o /dev/null true 2>/dev/null; then
	has_strace=true
fi

# strace_xls ARGS... : the tool under strace, opens traced into trace.out.
# LeakSanitizer cannot run under ptrace: off for these runs only.
strace_xls() {
	ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0" \
	strace -f -qq -e trace=openat,open -o trace.out "$XLS" "$@"
}

# run_cmd NAME INPUT... : run one command of $COMMANDS on INPUT (with its
# options), under strace when there is one, writing trace.out.
run_cmd() {
	cmd=$1
	shift
	set -- $cmd "$@"
	rm -f copy.out o.svg
	if [ "$cmd" = copy ]; then
		set -- "$@" copy.out
	fi
	if $has_strace; then
		strace_xls "$@" >/dev/null 2>err
	else
		"$XLS" "$@" >/dev/null 2>err
	fi
	rc=$?
	if [ "$rc" -gt 1 ]; then
		echo "xfs_logscope $*: exit $rc" >&2
		cat err >&2
		return 1
	fi
	return 0
}

# no_write_open PATH : trace.out has a read-only open of PATH and no other.
no_write_open() {
	$has_strace || return 0
	if ! grep -F "\"$1\"" trace.out | grep -q 'O_RDONLY'; then
		echo "no read-only open of $1 in the trace:" >&2
		cat trace.out >&2
		return 1
	fi
	if grep -F "\"$1\"" trace.out | grep -E 'O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_APPEND'; then
		echo "$1 was opened for writing" >&2
		return 1
	fi
}

# SHA-256 of a file as its allocated extents (SEEK_DATA/SEEK_HOLE) and
# their contents: the 512 MiB test images are sparse, and a write anywhere
# changes either an extent's contents or the extent list, so this detects
# every change at the cost of reading only the data.  Falls back to
# sha256sum of the whole file.
sum() {
	perl -MDigest::SHA -e '
		use Fcntl qw(SEEK_SET);
		my ($SEEK_DATA, $SEEK_HOLE) = (3, 4);
		open(my $f, "<:raw", $ARGV[0]) or die "$ARGV[0]: $!\n";
		my $size = -s $f;
		my $sha = Digest::SHA->new(256);
		my $pos = 0;
		$sha->add("size $size\n");
		while ($pos < $size) {
			my $d = sysseek($f, $pos, $SEEK_DATA);
			last unless defined $d;		# only a hole is left
			my $h = sysseek($f, $d, $SEEK_HOLE);
			$h = $size unless defined $h;
			$sha->add("extent $d $h\n");
			sysseek($f, $d, SEEK_SET);
			for (my $left = $h - $d; $left > 0; ) {
				my $n = sysread($f, my $buf, $left > 1048576 ? 1048576 : $left);
				die "read: $!\n" unless $n;
				$sha->add($buf);
				$left -= $n;
			}
			$pos = $h;
		}
		print $sha->hexdigest, "\n";
	' "$1" 2>/dev/null || sha256sum <"$1" | cut -d' ' -f1
}

# And the inode's own record of a write: size, mtime, ctime.
stamp() {
	stat -c '%s %Y %Z' "$1"
}

if $has_strace; then
	test_expect_success 'strace sees the opens of a run' '
		strace_xls -V >/dev/null &&
		grep -q open trace.out
	'
else
	test_skip 'open flags are checked with strace' 'strace is not available'
fi

img=$(image dir4k) && extimg=$(image extlog) && extlog=$(image extlog-log) || {
	echo "Bail out! cannot decompress the test images"
	exit 1
}
# A bare log is small enough to hash after every command.
"$XLS" copy "$img" "$TRASH/bare.log" >/dev/null || {
	echo "Bail out! copy failed"
	exit 1
}
bare="$TRASH/bare.log"

img_sum=$(sum "$img")
ext_sum=$(sum "$extimg")
extlog_sum=$(sum "$extlog")
bare_sum=$(sum "$bare")

echo "$COMMANDS" | while read -r cmd; do
	echo "$cmd"
done >commands.list

while read -r cmd; do
	test_expect_success "$cmd: the image is opened read-only and unchanged" "
		before=\$(stamp \"\$img\") &&
		run_cmd '$cmd' \"\$img\" &&
		no_write_open \"\$img\" &&
		test \"\$(stamp \"\$img\")\" = \"\$before\" &&
		test \"\$(sum \"\$img\")\" = \"\$img_sum\"
	"
	test_expect_success "$cmd -f: the bare log is opened read-only and unchanged" "
		run_cmd '$cmd' -f \"\$bare\" &&
		no_write_open \"\$bare\" &&
		test \"\$(sum \"\$bare\")\" = \"\$bare_sum\"
	"
	test_expect_success "$cmd -l: data device and log device read-only and unchanged" "
		before=\$(stamp \"\$extimg\") &&
		run_cmd '$cmd' -l \"\$extlog\" \"\$extimg\" &&
		no_write_open \"\$extimg\" &&
		no_write_open \"\$extlog\" &&
		test \"\$(stamp \"\$extimg\")\" = \"\$before\" &&
		test \"\$(sum \"\$extimg\")\" = \"\$ext_sum\" &&
		test \"\$(sum \"\$extlog\")\" = \"\$extlog_sum\"
	"
done <commands.list

test_expect_success 'the sparse-aware hash sees a write into a hole' '
	head -c 1048576 /dev/urandom >h.bin &&
	truncate -s 8M h.bin &&
	a=$(sum h.bin) && printf x | dd of=h.bin bs=1 seek=4000000 conv=notrunc 2>/dev/null &&
	b=$(sum h.bin) && test "$a" != "$b"
'

test_expect_success 'copy refuses to overwrite an existing file' '
	echo keep >exists &&
	test_expect_code 2 "$XLS" copy "$img" exists 2>err &&
	test "$(cat exists)" = keep
'

# --- a mounted filesystem --------------------------------------------------

MNT_TESTS="refused-image refused-device forced-image forced-device"
skip_mounted() {
	for t in $MNT_TESTS; do
		test_skip "mounted filesystem: $t" "$1"
	done
}

loopdev=
mnt="$TRASH/mnt"
cleanup() {
	if [ -n "$loopdev" ]; then
		umount "$mnt" 2>/dev/null
		losetup -d "$loopdev" 2>/dev/null
	fi
	cd / && rm -rf "$TRASH"
}
trap cleanup EXIT

if [ "$(id -u)" != 0 ]; then
	skip_mounted 'not root'
elif ! command -v mkfs.xfs >/dev/null 2>&1 || ! command -v losetup >/dev/null 2>&1; then
	skip_mounted 'needs mkfs.xfs and losetup'
elif ! truncate -s 300M fs.img || ! mkfs.xfs -q -l size=64m fs.img >mkfs.out 2>&1; then
	skip_mounted 'mkfs.xfs failed'
elif ! loopdev=$(losetup -f --show "$TRASH/fs.img" 2>/dev/null); then
	loopdev=
	skip_mounted 'no loop device'
elif ! mkdir -p "$mnt" || ! mount -t xfs "$loopdev" "$mnt" 2>/dev/null; then
	losetup -d "$loopdev"
	loopdev=
	skip_mounted 'cannot mount XFS'
else
	test_expect_success 'mounted filesystem: refused-image (exit 3, one line)' '
		test_expect_code 3 "$XLS" info "$TRASH/fs.img" >out 2>err &&
		test $(wc -l <err) -eq 1 && grep -q "mounted" err && ! test -s out
	'
	test_expect_success 'mounted filesystem: refused-device (exit 3, one line)' '
		test_expect_code 3 "$XLS" info "$loopdev" >out 2>err &&
		test $(wc -l <err) -eq 1 && grep -q "mounted" err && ! test -s out
	'
	test_expect_success 'mounted filesystem: forced-image reads it with --force' '
		"$XLS" info --force "$TRASH/fs.img" >out 2>err
		rc=$?
		test "$rc" -le 1 && grep -q "^state " out
	'
	test_expect_success 'mounted filesystem: forced-device reads it with --force' '
		"$XLS" info --force "$loopdev" >out 2>err
		rc=$?
		test "$rc" -le 1 && grep -q "^state " out
	'
	umount "$mnt" && losetup -d "$loopdev" && loopdev=
fi
test_done
