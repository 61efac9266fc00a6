#!/bin/sh
# Command line: usage, help, version, exit codes, clear errors on bad input.
. "$(dirname "$0")/lib/test-lib.sh"

test_expect_success 'no command is a usage error' '
	test_expect_code 2 "$XLS" 2>err && grep -qi usage err
'
test_expect_success 'unknown command is a usage error' '
	test_expect_code 2 "$XLS" frobnicate x 2>err && grep -q "unknown command" err
'
test_expect_success '-V prints the version' '
	"$XLS" -V >out && grep -q "^xfs_logscope version " out
'
for cmd in info records trans; do
	test_expect_success "$cmd --help documents the command" "
		\"\$XLS\" $cmd --help >out && grep -q -- --json out && grep -q -- --logdev out &&
		grep -q -- '-h  *the same as --help' out
	"
done
# each command's help lists what it takes, and only that
test_expect_success 'copy -h offers no output format, compare -h no -l' '
	"$XLS" copy -h >out && grep -q -- --logdev out && ! grep -q -- "--json\|--csv" out &&
	test_expect_code 2 "$XLS" copy --json a b 2>err &&
	"$XLS" compare -h >out && grep -q -- --json out && ! grep -q -- --logdev out &&
	"$XLS" --help >out && grep -q -- "-h  *the same as --help" out
'
test_expect_success 'a negative --blkno is a usage error' '
	test_expect_code 2 "$XLS" bufs --blkno=-5 x 2>err &&
	grep -q "bad daddr .-5." err
'
# --force on a mounted filesystem: read, and a warning (root, loop devices)
if [ "$(id -u)" -eq 0 ] && [ -e /dev/loop-control ] && command -v losetup >/dev/null; then
	test_expect_success '--force on a mounted filesystem reads it and warns' '
		xz -dc "$IMAGES/clean.img.xz" >m.img && mkdir -p mnt &&
		mount -o loop,ro,nouuid m.img mnt &&
		{ test_expect_code 3 "$XLS" info m.img 2>err1; r1=$?;
		  "$XLS" info --force m.img >/dev/null 2>err2; r2=$?;
		  umount mnt; test $r1 -eq 0 && test $r2 -eq 0; } &&
		grep -q "is mounted: its log is live (use --force" err1 &&
		grep -q "warning: mounted, read with --force" err2
	'
else
	test_skip '--force on a mounted filesystem' 'needs root and loop devices'
fi
test_expect_success 'missing device is a usage error' '
	test_expect_code 2 "$XLS" info 2>err
'
test_expect_success '--json and --csv together are a usage error' '
	test_expect_code 2 "$XLS" records --json --csv x 2>err
'
test_expect_success 'a missing file gives one line naming it, exit 3' '
	test_expect_code 3 "$XLS" info "$TRASH/nope" 2>err &&
	test $(wc -l <err) -eq 1 && grep -q "cannot open .*nope" err
'
test_expect_success 'a non-XFS file is refused, exit 3' '
	head -c 1048576 /dev/zero >zero.img &&
	test_expect_code 3 "$XLS" info zero.img 2>err &&
	test $(wc -l <err) -eq 1 && grep -q "not an XFS filesystem" err
'
test_expect_success 'an ext4-like random file is refused without a crash' '
	head -c 2097152 /dev/urandom >rand.img &&
	test_must_fail "$XLS" info rand.img 2>err &&
	test $(wc -l <err) -eq 1
'
# The commands as the program lists them, so that a new one is never missed.
commands() {
	"$XLS" help | sed -n '/^Commands:/,/^$/s/^  \([a-z]*\) .*/\1/p' | grep -vx help
}

test_expect_success 'the man page documents each option of each command, as its table says' '
	mkdir -p help &&
	for c in $(commands); do "$XLS" help "$c" >"help/$c" || return 1; done &&
	test "$(ls help | wc -l)" -ge 13 &&
	perl "$XLS_TOP/tests/lib/man-options.pl" "$XLS_TOP/man/xfs_logscope.8" help
'

test_expect_success '... and the check finds an option the man page lacks' '
	mkdir -p help2 && cp help/* help2/ &&
	echo "      --no-such-option    nothing" >>help2/info &&
	! perl "$XLS_TOP/tests/lib/man-options.pl" "$XLS_TOP/man/xfs_logscope.8" help2 >out &&
	grep -q "info --no-such-option: no entry" out
'

test_expect_success 'every command answers help COMMAND and --usage' '
	for c in $(commands); do
		"$XLS" help "$c" | grep -q "^Usage: xfs_logscope $c " &&
		"$XLS" "$c" --usage | grep -q "xfs_logscope $c" || { echo "$c"; return 1; }
	done
'

test_done
