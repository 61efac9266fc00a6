#!/bin/sh
# Mutation test of the metadump reader: small valid metadumps (v1, v2, v2
# with an external log: the superblock and AG headers of a bundled image,
# sb_logblocks cut down to a log of a few of its records, made by
# tests/lib/mkmd.pl) mutated deterministically by tests/fuzz/mutate-md.pl
# -- index blocks, counts, daddrs, extent headers, device bits, lengths,
# duplicated extents, truncation, shifted bytes, and gzip/xz/zstd forms of
# the result, some cut short or flipped.  Every command must end by itself,
# without a signal, within 20 seconds, and without a sanitizer report.
#
#   XLS_MD_MUTATIONS=N   how many (default 150)
#   XLS_MUTATE_SEED=S    generator seed (default 1)
#
# A failing mutation is kept in $XLS_BUILD/t0932-failures/.  The inputs
# make fuzz-metadump found (tests/fuzz/crashes-md) are run first.
. "$(dirname "$0")/lib/test-lib.sh"

: "${ASAN_OPTIONS:=abort_on_error=1:halt_on_error=1:detect_leaks=1}"
: "${UBSAN_OPTIONS:=abort_on_error=1:halt_on_error=1:print_stacktrace=1}"
export ASAN_OPTIONS UBSAN_OPTIONS

N=${XLS_MD_MUTATIONS:-150}
SEED=${XLS_MUTATE_SEED:-1}
BATCH=50
MKMD="perl $XLS_TOP/tests/lib/mkmd.pl"
SEEDGEN="$XLS_BUILD/tests/xls-seedgen"
MUTATE="$XLS_TOP/tests/fuzz/mutate-md.pl"
FAILDIR="$XLS_BUILD/t0932-failures"
EXT=md
BASES_FROM="base() above (tests/lib/mkmd.pl)"
. "$XLS_TOP/tests/lib/mutate-lib.sh"

if ! [ -x "$SEEDGEN" ] || ! command -v perl >/dev/null 2>&1 ||
   ! command -v timeout >/dev/null 2>&1 || ! command -v zstd >/dev/null 2>&1; then
	test_skip 'metadump mutation test' 'needs xls-seedgen (make tests), perl, timeout and zstd'
	test_done
fi

# base NAME IMAGE [LOG]: v1 and v2 metadumps of IMAGE's superblock and AG
# headers and of two small logs cut from its journal (LOG: an external one)
base() {
	name=$1 img=$2 log=${3:-}
	if [ -n "$log" ]; then
		"$XLS" copy -l "$log" "$img" $name.log >/dev/null || return 1
	else
		"$XLS" copy "$img" $name.log >/dev/null || return 1
	fi
	mkdir -p seeds.$name && "$SEEDGEN" -n 6 -f $name.log seeds.$name $name >/dev/null &&
	rm -f $name.log || return 1
	logstart=$(( $("$XLS" info --json ${log:+-l $log} "$img" |
		sed -n 's/.*"log_offset":\([0-9]*\).*/\1/p') / 512 ))
	for s in $(ls seeds.$name/*.log | sed -n '1p;4p'); do
		cp "$s" seed.log && truncate -s %4096 seed.log || return 1
		lb=$(($(stat -c %s seed.log) / 4096))
		b=bases/$(basename "$s" .log)
		if [ -n "$log" ]; then
			$MKMD -v 2 --compat=0x0e --logblocks=$lb $b.v2.md d:0:img="$img@0+1" \
				d:1:img="$img@1+3" l:0:file=seed.log || return 1
		else
			for v in 1 2; do
				$MKMD -v $v --logblocks=$lb $b.v$v.md d:0:img="$img@0+1" \
					d:1:img="$img@1+3" d:$logstart:file=seed.log || return 1
			done
		fi
	done
}

test_expect_success 'setup: small metadumps of logs cut from the kernel journals' '
	mkdir -p bases &&
	base dir4k "$(image dir4k)" &&
	base wrapped "$(image wrapped)" &&
	base extlog "$(image extlog)" "$(image extlog-log)" &&
	ls bases >bases.list &&
	test "$(wc -l <bases.list)" -ge 8 &&
	for b in $(cat bases.list); do
		"$XLS" records "bases/$b" >/dev/null || { echo "$b does not read"; return 1; }
	done
'

run_all() {	# $1 input, $2 index
	for cmd in "info" "records --all" "trans --json" "stats" "recover --json" \
		   "history --blkno=$(($2 % 4)) --diff"; do
		# shellcheck disable=SC2086
		timeout 20 "$XLS" $cmd "$1" >/dev/null 2>err
		rc=$?
		if [ "$rc" -ge 124 ] || grep -q 'Sanitizer\|runtime error' err; then
			echo "xfs_logscope $cmd: exit $rc$( [ "$rc" -eq 124 ] && echo ' (timeout: hang)')"
			head -20 err
			return 1
		fi
		[ "$rc" -le 4 ] || { echo "xfs_logscope $cmd: exit $rc"; return 1; }
		# an error says why (t0931 checks that a refused metadump gets one line)
		if [ "$rc" -ge 2 ] && ! grep -qv ": warning: " err; then
			echo "xfs_logscope $cmd: exit $rc and no error on stderr"
			head -5 err
			return 1
		fi
	done
	replay_bounded "$1"
}

# replay_bounded INPUT: replay --force (its external log copied too) writes
# a filesystem no larger than the superblock says, whatever the log names
replay_bounded() {
	rm -f r.img r.log
	lo=
	"$XLS" info "$1" 2>/dev/null | grep -q '^log_location  *external' && lo="--log-out r.log"
	# shellcheck disable=SC2086
	timeout 20 "$XLS" replay --force -o r.img $lo "$1" >/dev/null 2>err
	rc=$?
	if [ "$rc" -ge 124 ] || [ "$rc" -gt 4 ] || grep -q 'Sanitizer\|runtime error' err; then
		echo "xfs_logscope replay: exit $rc"
		head -20 err
		return 1
	fi
	[ -f r.img ] || return 0
	fs=$("$XLS" info --json "$1" 2>/dev/null |
	     sed -n 's/.*"block_size":\([0-9]*\),"dblocks":\([0-9]*\).*/\1 \2/p')
	set -- $fs
	[ -n "${2:-}" ] || return 0
	[ "$(stat -c %s r.img)" -le $(($1 * $2)) ] ||
		{ echo "replay: r.img is $(stat -c %s r.img) bytes, the filesystem $(($1 * $2))"; return 1; }
}

# What make fuzz-metadump once found (tests/fuzz/crashes-md/NAME.md, with
# NAME.txt saying what): every command, as the mutations, replay included.
for f in "$XLS_TOP"/tests/fuzz/crashes-md/*.md; do
	[ -f "$f" ] || continue
	test_expect_success "fuzz regression $(basename "$f" .md): no signal, no sanitizer report" "
		run_all '$f' 0 && run_all '$f' 1
	"
done

mutation_tests "metadump mutations"
test_done
