#!/bin/sh
# Every command under I/O faults (tests/shim/faultshim.c, preloaded): the
# Nth read of the input failing with EIO, coming back short, or finding
# the file shrunk; the Nth write of an output failing with EIO or ENOSPC.
# A short read changes nothing.  A failed read or write: exit 3, one line
# naming the file and the byte -- never exit 0 with another output, never
# a signal or a hang; no output file left half-made; the input unchanged.
. "$(dirname "$0")/lib/test-lib.sh"
. "$XLS_TOP/tests/lib/images.sh"

SHIM=$XLS_BUILD/tests/faultshim.so
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
export ASAN_OPTIONS

# the commands, each reading victim*.img; OUT is a file they write
CMDS='info|records --all|trans --json|bufs -v|stats|checkpoints --json|recover --json|history --blkno=0x78 --diff|files|lost --json|copy victim.img out/copy.log|replay -o out/replay.img|compare victim.img victim.img'

# run_case SPEC CMD: CMD on victim.img with fault SPEC; $rc, out.txt, err.txt
run_case() {
	spec=$1
	shift
	rm -rf out && mkdir out
	# shellcheck disable=SC2086
	timeout 60 env XLS_FAULT="$spec" XLS_FAULT_PATH=victim XLS_FAULT_COUNT="${count_to:-}" \
		LD_PRELOAD="$SHIM" "$XLS" $* \
		$(case $1 in copy|compare) ;; *) echo victim.img ;; esac) >out.txt 2>err.txt
	rc=$?
}

# check_cmd CMD: its reads counted, then faults spread over them
check_cmd() {
	cmd=$1
	bad=0
	run_case read:0:count $cmd
	base_rc=$rc
	cp out.txt base.out
	count_to=$PWD/n.count
	run_case read:0:count $cmd
	count_to=
	n=$(sed -n 's/^reads \([0-9]*\) .*/\1/p' n.count)
	[ -n "$n" ] && [ "$n" -gt 0 ] || { echo "$cmd: no reads counted"; return 1; }
	for i in 1 2 3 5 8; do
		k=$(( (i * n + 7) / 8 ))
		for action in eio shrink short; do
			run_case "read:$k:$action" $cmd
			if [ $rc -gt 4 ]; then
				echo "$cmd, read $k $action: exit $rc (a signal or a hang)"
				bad=1
			elif [ $action = short ]; then
				[ $rc -eq "$base_rc" ] && cmp -s out.txt base.out ||
					{ echo "$cmd, read $k short: another answer (exit $rc)"; bad=1; }
			elif [ $rc -ne 3 ]; then
				# the fault fell on no read of the input that mattered: same answer
				[ $rc -eq "$base_rc" ] && cmp -s out.txt base.out ||
					{ echo "$cmd, read $k $action: exit $rc, another answer"; bad=1; }
			elif ! grep -q "victim.img.* at \(byte\|log block\) [0-9]*" err.txt; then
				echo "$cmd, read $k $action: exit 3 without the byte:"
				cat err.txt
				bad=1
			fi
			[ -z "$(ls -A out)" ] || [ $rc -eq 0 ] || [ $rc -eq 1 ] ||
				{ echo "$cmd, read $k $action: left $(ls out)"; bad=1; }
		done
	done
	return $bad
}

cp --sparse=always "$(image dir4k)" victim.img
before=$(sha256sum <victim.img)
echo "$CMDS" | tr '|' '\n' >cmds.list
while read -r cmd; do
	test_expect_success "faults in the reads of: $cmd" "check_cmd '$cmd'"
done <cmds.list

test_expect_success 'the input is never written' '
	test "$(sha256sum <victim.img)" = "$before"
'

# writes: copy, replay, --svg, history --replay fail whole, leave nothing
check_writes() {
	cmd=$1 target=$2
	bad=0
	rm -rf out && mkdir out
	# shellcheck disable=SC2086
	env XLS_FAULT=write:0:count XLS_FAULT_PATH="$target" XLS_FAULT_COUNT="$PWD/w.count" \
		LD_PRELOAD="$SHIM" "$XLS" $cmd >/dev/null 2>&1
	n=$(sed -n 's/.* writes \([0-9]*\) .*/\1/p' w.count)
	[ -n "$n" ] && [ "$n" -gt 0 ] || { echo "$cmd: no writes counted"; return 1; }
	for k in 1 $(( (n + 1) / 2 )) "$n"; do
		for e in eio enospc; do
			rm -rf out && mkdir out
			# shellcheck disable=SC2086
			timeout 60 env XLS_FAULT="write:$k:$e" XLS_FAULT_PATH="$target" \
				LD_PRELOAD="$SHIM" "$XLS" $cmd >out.txt 2>err.txt
			rc=$?
			[ $rc -eq 3 ] || [ $rc -eq 4 ] ||
				{ echo "$cmd, write $k $e: exit $rc"; bad=1; }
			grep -q "\(cannot write\|No space\|Input/output\)" err.txt ||
				{ echo "$cmd, write $k $e:"; cat err.txt; bad=1; }
			[ -z "$(ls -A out)" ] || { echo "$cmd, write $k $e: left $(ls -A out)"; bad=1; }
		done
	done
	return $bad
}
test_expect_success 'copy: a failed write leaves no file' '
	check_writes "copy victim.img out/c.log" out/
'
test_expect_success 'replay -o: a failed write leaves no file' '
	check_writes "replay -o out/r.img victim.img" out/
'
test_expect_success 'stats --svg, history --replay: a failed write leaves no file' '
	check_writes "stats --svg out/s.svg victim.img" out/ &&
	check_writes "history --blkno=0x78 --replay out/h.bin victim.img" out/
'

test_done
