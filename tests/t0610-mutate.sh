#!/bin/sh
# Mutation test: small valid logs cut out of the real kernel journals in
# tests/images (by xls-seedgen, from a bare-log copy made by "copy") and
# its synthetic ones (xls-seedgen -S), then mutated deterministically
# (tests/fuzz/mutate.pl: byte flips, truncations, zeroed ranges, garbage
# blocks, shifted records, header and payload fields, cycle stamps).
# Every command must end by itself, without a signal, within 20 seconds (a
# timeout is a hang, and a failure), and without a sanitizer report.
#
#   XLS_MUTATIONS=N      how many mutations (default 200)
#   XLS_MUTATE_SEED=S    generator seed (default 1; the run is reproducible)
#   XLS_MUTATE_BATCH=B   mutations per TAP test (default 50)
#
# A failing mutation is kept in $XLS_BUILD/t0610-failures/ with a line in
# its .txt saying how to reproduce it.
. "$(dirname "$0")/lib/test-lib.sh"

# Sanitizer reports must fail the test: abort (a signal), not exit 1.
: "${ASAN_OPTIONS:=abort_on_error=1:halt_on_error=1:detect_leaks=1}"
: "${UBSAN_OPTIONS:=abort_on_error=1:halt_on_error=1:print_stacktrace=1}"
export ASAN_OPTIONS UBSAN_OPTIONS

N=${XLS_MUTATIONS:-200}
SEED=${XLS_MUTATE_SEED:-1}
BATCH=${XLS_MUTATE_BATCH:-50}
SEEDGEN="$XLS_BUILD/tests/xls-seedgen"
MUTATE="$XLS_TOP/tests/fuzz/mutate.pl"
FAILDIR="$XLS_BUILD/t0610-failures"
EXT=log
BASES_FROM=xls-seedgen
. "$XLS_TOP/tests/lib/mutate-lib.sh"

if ! [ -x "$SEEDGEN" ] || ! command -v perl >/dev/null 2>&1 ||
   ! command -v timeout >/dev/null 2>&1; then
	test_skip 'mutation test' 'needs xls-seedgen (make tests), perl and timeout'
	test_done
fi

# Slices of every bundled journal; each image is copied out with "copy"
# and the 64 MiB copy cut into small logs, then removed.  With them, the
# synthetic logs of xls-seedgen -S: items of every type, and hostile
# directories and attr forks for files.
test_expect_success 'setup: small logs cut from the kernel journals' '
	mkdir -p bases &&
	for xz in "$IMAGES"/*.img.xz; do
		name=$(basename "$xz" .img.xz)
		case $name in *-log) continue ;; esac
		img=$(image "$name") || return 1
		set --
		if [ -f "$IMAGES/$name-log.img.xz" ]; then
			logimg=$(image "$name-log") || return 1
			set -- -l "$logimg"
		fi
		"$XLS" copy "$@" "$img" "$name.log" >/dev/null || return 1
		"$SEEDGEN" -f "$name.log" bases "$name" >/dev/null || return 1
		rm -f "$name.log"
	done &&
	"$SEEDGEN" -S bases synth >/dev/null &&
	ls bases >bases.list &&
	test -s bases.list
'

# The commands each mutation is run through; the last one rotates.
run_all() {	# $1 input, $2 mutation index
	set -- "$1" "$2"
	# two of them with the read-ahead thread, which small logs do not get
	# by default
	for cmd in "info" "records --all" "trans --json --threads 2" \
		   "bufs --json --threads 2" "stats" "files --json" \
		   "$(extra_cmd "$2")"; do
		rm -f m.svg
		# shellcheck disable=SC2086
		timeout 20 "$XLS" $cmd -f "$1" >/dev/null 2>err
		rc=$?
		if [ "$rc" -ge 124 ] || grep -q 'Sanitizer\|runtime error' err; then
			echo "xfs_logscope $cmd -f: exit $rc$( [ "$rc" -eq 124 ] && echo ' (timeout: hang)')"
			head -20 err
			return 1
		fi
		[ "$rc" -le 4 ] || { echo "xfs_logscope $cmd -f: exit $rc"; return 1; }
	done
	return 0
}

extra_cmd() {
	case $(($1 % 14)) in
	0) echo "records" ;;
	1) echo "bufs -v" ;;
	2) echo "stats --json" ;;
	3) echo "trans" ;;
	4) echo "records --all --csv" ;;
	5) echo "bufs --csv -v" ;;
	6) echo "recover" ;;
	7) echo "recover --json -v" ;;
	8|9) echo "history -v --blkno=$(($1 % 14 - 7))" ;;
	10) echo "bufs --top=5 --svg=m.svg" ;;
	11) echo "history -v --blkno=2 --svg=m.svg" ;;
	12) echo "checkpoints -v --json" ;;
	13) echo "stats --svg=m.svg" ;;
	esac
}

mutation_tests mutations
test_done
