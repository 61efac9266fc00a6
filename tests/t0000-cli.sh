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
for cmd in info records trans copy; do
	test_expect_success "$cmd --help documents the command" "
		\"\$XLS\" $cmd --help >out && grep -q -- --json out && grep -q -- --logdev out
	"
done
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
test_done
