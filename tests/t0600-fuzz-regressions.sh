#!/bin/sh
# Fuzz regressions: every input saved in tests/fuzz/crashes/ (a crash, hang
# or sanitizer report the fuzzer or the mutation test once found) is run
# through every command as a bare log.  Each must end without a signal,
# within 20 seconds, without a sanitizer report.
#
# NAME.log is the input as the fuzzer saw it; like the harness, the test
# zero-pads it to 64 KiB (and to a whole 512-byte block).  NAME.txt says
# what it found.  While the bug is open, NAME.todo holds a one-line reason
# and the test is reported as TODO ("not ok N - ... # TODO ..."), which
# keeps the suite green; delete NAME.todo with the fix.
. "$(dirname "$0")/lib/test-lib.sh"

: "${ASAN_OPTIONS:=abort_on_error=1:halt_on_error=1:detect_leaks=1}"
: "${UBSAN_OPTIONS:=abort_on_error=1:halt_on_error=1:print_stacktrace=1}"
export ASAN_OPTIONS UBSAN_OPTIONS

CRASHES="$XLS_TOP/tests/fuzz/crashes"

# As fuzz-log.c pads: at least 64 KiB, a whole number of blocks.
pad() {
	cp "$1" "$2" || return 1
	size=$(wc -c <"$2")
	want=$(( (size + 511) / 512 * 512 ))
	[ "$want" -ge 65536 ] || want=65536
	truncate -s "$want" "$2"
}

run_one() {	# command words... (the input is the last argument)
	rm -f m.svg
	timeout 20 "$XLS" "$@" >out 2>err
	rc=$?
	if [ "$rc" -ge 124 ] || grep -q 'Sanitizer\|runtime error' err; then
		echo "xfs_logscope $*: exit $rc$( [ "$rc" -eq 124 ] && echo ' (timeout: hang)')"
		head -30 err
		return 1
	fi
}

run_all() {	# $1 input
	for cmd in "info" "records" "records --all" "trans" "trans --json" \
		   "bufs -v" "stats" "stats --json" "checkpoints -v" "bufs --json -v"; do
		# shellcheck disable=SC2086
		run_one $cmd -f "$1" || return 1
	done
	# the buffers bufs --json found (its output is still in "out")
	grep -o '"blkno":"0x[0-9a-f]*"' out | cut -d'"' -f4 | sort -u | head -8 >blknos
	run_one recover -f "$1" || return 1
	run_one recover --json -v -f "$1" || return 1
	run_one bufs --top=20 --svg=m.svg -f "$1" || return 1
	for b in $(cat blknos) 0x2; do
		run_one history -v --blkno="$b" -f "$1" || return 1
		run_one history --svg=m.svg --blkno="$b" -f "$1" || return 1
	done
}

# Like test_expect_success, but a failure is a TODO while the bug is open.
test_expect_todo() {	# $1 desc, $2 reason, $3 script
	test_n=$((test_n + 1))
	if (eval "$3") >"$TRASH/.out" 2>&1; then
		echo "ok $test_n - $1 # TODO $2 (passes with this build)"
	else
		echo "not ok $test_n - $1 # TODO $2"
		sed 's/^/# /' "$TRASH/.out" | head -40
	fi
}

found=0
for input in "$CRASHES"/*.log; do
	[ -f "$input" ] || continue
	found=$((found + 1))
	name=$(basename "$input" .log)
	todo="$CRASHES/$name.todo"
	script="pad '$input' in.log && run_all in.log"
	if [ -f "$todo" ]; then
		test_expect_todo "$name: no crash, hang or sanitizer report" \
			"$(head -1 "$todo")" "$script"
	else
		test_expect_success "$name: no crash, hang or sanitizer report" "$script"
	fi
done
[ "$found" -gt 0 ] || test_skip 'fuzz regressions' 'no saved inputs in tests/fuzz/crashes'

# Wrong results the fuzz seeds showed (no crash): inputs made by
# xls-seedgen -S, which is deterministic.
SEEDGEN="$XLS_BUILD/tests/xls-seedgen"
if [ -x "$SEEDGEN" ]; then
	mkdir -p synth && "$SEEDGEN" -S synth x >/dev/null
	# log.c validate_head(): in a log shorter than one maximal record
	# (512 blocks, v2), "start = nblks - (scan - head)" wrapped below 0
	# when the head is near block 0, so the header of a record that
	# crosses the physical end was never looked for; the kernel's
	# xlog_find_head (signed daddr) scans back to it.  Fixed.
	test_expect_success 'a 128-block log whose only record crosses the end has a head' '
		test -f synth/x-synth-r0+1-wrap.log &&
		"$XLS" info -f synth/x-synth-r0+1-wrap.log >out 2>err
		rc=$?
		cat err
		test "$rc" -le 1 && grep -q "^records  *1$" out
	'
	# Hostile names (xls-seedgen's names_seeds): each damaged shortform
	# fork, directory block and attr leaf is one files_malformed finding
	# naming its problem, a child of the parent loop of 0x80 and 0x81 has
	# no path (unknown: the chain never reaches the root),
	# and no command crashes or hangs on them.
	test_expect_success 'hostile names: files names each malformed structure once' '
		test -f synth/x-names-r3+3-plain-crc0.log &&
		test_expect_code 1 "$XLS" files --json synth/x-names-r3+3-plain-crc0.log -f >out &&
		test "$(grep -c "\"finding\":\"files_malformed\"" out)" -eq 9 &&
		for want in "directory of inode 0x80 .*(bad_namelen)" \
			    "directory of inode 0x81 .*(sf_count)" \
			    "directory of inode 0x83 .*(past_end)" \
			    "attr fork of inode 0x82 .*(sf_header)" \
			    "attr fork of inode 0x84 .*(past_end)" \
			    "block at daddr 0x1000 .*(past_end)" \
			    "block at daddr 0x1008 .*(bad_free_len)" \
			    "block at daddr 0x1010 .*(bad_tag)" \
			    "leaf block at daddr 0x1018 .*(sf_count)"; do
			grep -q "files_malformed.*$want" out || { echo "no finding: $want"; return 1; }
		done &&
		grep "\"ino\":\"0x88\",\"event\":\"dirent_add\"" out >loop &&
		test -s loop && ! grep -q "\"path\"" loop
	'
	test_expect_success 'hostile names: no crash, hang or sanitizer report' '
		for f in synth/x-names-*.log; do
			run_one files -f "$f" && run_one files --csv -f "$f" &&
			run_all "$f" || return 1
		done
	'
else
	test_skip 'synthetic small logs' 'needs xls-seedgen (make tests)'
fi

# source.c: sb_to_geometry() computed log_bbs = sb_logblocks * blocksize /
# 512 in 64 bits and truncated it to 32, and sb_check() set no upper bound
# on sb_logblocks (the kernel refuses a log over XFS_MAX_LOG_BYTES, 2 GiB):
# a superblock claiming a 2 TiB + 8 MiB log was read as an 8 MiB one.
# Fixed in baea1ff.
if img=$(image clean 2>/dev/null); then
	test_expect_success 'a superblock with a log of more than 2^32 blocks is refused' '
		cp --sparse=always "$img" big-log.img &&
		printf "\040\000\010\000" |
			dd of=big-log.img bs=1 seek=96 conv=notrunc 2>/dev/null &&
		test_expect_code 3 "$XLS" info big-log.img >out 2>err
		rc=$?
		cat out err
		rm -f big-log.img
		test "$rc" -eq 0
	'
fi
test_done
