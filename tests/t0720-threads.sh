#!/bin/sh
# The read-ahead thread (--threads 2, the default with two CPUs or more),
# and the threads files and recover format their text on, must change
# nothing but speed: every command gives the same output and exit status
# as with --threads 1, on the kernel journals, on every synthesized scenario
# (torn, wrapped, corrupt) and on mutated logs; and a reader that stops
# early (a closed pipe) ends the threads without hanging.
# files with a small --blocks-mem puts a finding among its events: it must
# come out where it does with one thread.
. "$(dirname "$0")/lib/test-lib.sh"
. "$XLS_TOP/tests/lib/synth-lib.sh"

CMDS='info|records|records --all|trans --json|bufs -v --json|stats --json|checkpoints --json|recover --json -v|recover -v|lost --json|files --json|files|files --blocks-max=64K'

# same INPUT [OPTIONS]: every command of CMDS, both ways, byte for byte
same() {
	in=$1
	shift
	echo "$CMDS" | tr '|' '\n' >cmds.list
	while read -r cmd; do
		for t in 1 2; do
			# shellcheck disable=SC2086
			timeout 60 "$XLS" $cmd --threads $t "$@" "$in" >out.$t 2>err.$t
			echo "exit $?" >>out.$t
			cat err.$t >>out.$t
		done
		cmp -s out.1 out.2 || {
			echo "xfs_logscope $cmd $* $in: --threads 1 and 2 differ"
			diff out.1 out.2 | head -10
			return 1
		}
	done <cmds.list
}

test_expect_success '--threads takes 1 or 2' '
	img=$(image dir4k) &&
	test_expect_code 2 "$XLS" info --threads 0 "$img" &&
	test_expect_code 2 "$XLS" info --threads 3 "$img" &&
	test_expect_code 2 "$XLS" info --threads two "$img" &&
	"$XLS" info --threads 1 "$img" >/dev/null &&
	"$XLS" info --threads 2 "$img" >/dev/null
'

# threads_started ARGS...: how many threads xfs_logscope ARGS starts
# (LeakSanitizer's own clone at exit is no thread, and cannot run traced)
threads_started() {
	ASAN_OPTIONS=detect_leaks=0 strace -f -qq -e trace=clone,clone3 -o trace.out \
		"$XLS" "$@" >/dev/null 2>&1
	grep -c "CLONE_THREAD" trace.out
}

if command -v strace >/dev/null 2>&1 &&
   strace -f -qq -e trace=clone,clone3 -o /dev/null true 2>/dev/null; then
	test_expect_success 'a reader thread with --threads 2; none with 1, nor by default on a short log' '
		img=$(image dir64k) &&
		test "$(threads_started stats --threads 2 "$img")" = 1 &&
		test "$(threads_started stats --threads 1 "$img")" = 0 &&
		test "$(threads_started stats "$img")" = 0 &&
		test "$(threads_started records --all --threads 2 "$img")" = 1 &&
		# the whole 64 MiB log: long enough, when there are two CPUs
		if [ "$(nproc)" -ge 2 ]; then
			test "$(threads_started records --all "$img")" = 1
		fi
	'
else
	test_skip 'reader thread started or not' 'needs strace'
fi

for xz in "$IMAGES"/*.img.xz; do
	name=$(basename "$xz" .img.xz)
	case $name in *-log) continue ;; esac
	test_expect_success "kernel journal $name: same output with 1 and 2 threads" "
		img=\$(image $name) &&
		if [ -f \"\$IMAGES/$name-log.img.xz\" ]; then
			same \"\$img\" -l \"\$(image $name-log)\"
		else
			same \"\$img\"
		fi
	"
done

test_expect_success 'every synthesized scenario: same output with 1 and 2 threads' '
	"$SYNTH" -l | while read -r scen rest; do
		case $scen in	# as t0500 makes them
		wrap-hdr*)	set -- -b 131072 ;;
		crc-tail)	set -- -L 262144 ;;
		*)		set -- ;;
		esac
		synth "$scen" "$scen" "$@" && same "$TRASH/$scen.img" || {
			echo "scenario $scen"
			exit 1
		}
	done
'

test_expect_success 'smallest and largest record buffers: same output' '
	synth small wrap -b 16384 && same "$TRASH/small.img" &&
	synth big cont -b 262144 -u 262144 && same "$TRASH/big.img"
'

test_expect_success 'mutated logs: same output with 1 and 2 threads' '
	img=$(image dir4k) &&
	"$XLS" copy "$img" dir4k.log >/dev/null &&
	mkdir bases &&
	"$XLS_BUILD/tests/xls-seedgen" -f dir4k.log bases dir4k >/dev/null &&
	ls bases >bases.list &&
	nb=$(wc -l <bases.list) &&
	i=1 &&
	while [ $i -le 40 ]; do
		base=$(sed -n "$((i % nb + 1))p" bases.list) &&
		perl "$XLS_TOP/tests/fuzz/mutate.pl" 7 $i "bases/$base" m.log >/dev/null &&
		same m.log -f || { echo "mutation $i of $base (seed 7)"; exit 1; }
		i=$((i + 1))
	done
'

test_expect_success 'a closed pipe ends the read-ahead and writer threads (no hang)' '
	img=$(image dir64k) &&
	for cmd in trans records "bufs -v" files recover; do
		timeout 30 sh -c "\"\$0\" $cmd --threads 2 \"\$1\" | head -1" "$XLS" "$img" >/dev/null
		rc=$?
		[ $rc -ne 124 ] || { echo "$cmd: hung after its reader went away"; return 1; }
	done
'

test_done
