# Helpers of the synthesized-log tests (t0500-t0503): write a log with
# tests/tools/xls-synth, run xfs_logscope on it, and check its JSON against
# the manifest the synthesizer printed.  Source after test-lib.sh.
SYNTH="$XLS_BUILD/tests/xls-synth"

# synth NAME SCENARIO [OPTIONS]: write NAME.img and its manifest NAME.man
synth() {
	n=$1
	shift
	"$SYNTH" "$@" "$TRASH/$n.img" >"$TRASH/$n.man"
}
# run WANT NAME CMD [OPTIONS]: xfs_logscope CMD --json [OPTIONS] NAME.img
# into NAME.CMD; the exit status must be exactly WANT
run() {
	want=$1 n=$2 cmd=$3
	shift 3
	test_expect_code "$want" "$XLS" "$cmd" --json "$@" "$TRASH/$n.img" >"$TRASH/$n.$cmd"
}
# run01 NAME CMD [OPTIONS]: the same, exit status 0 or 1 (decoded)
run01() {
	n=$1 cmd=$2
	shift 2
	"$XLS" "$cmd" --json "$@" "$TRASH/$n.img" >"$TRASH/$n.$cmd"
	rc=$?
	[ "$rc" -le 1 ] || { echo "$XLS $cmd $n: exit $rc" >&2; return 1; }
}
# check NAME CMD [KINDS]: NAME.CMD has every manifest line of KINDS
check() {
	"$SYNTH" -C "$TRASH/$1.man" "$TRASH/$1.$2" ${3:+"$3"}
}
# expect FILE <<EOF: FILE has every line of the manifest on standard input
# ("KIND "key":value ..."; "count KIND N")
expect() {
	"$SYNTH" -C - "$TRASH/$1"
}
# all NAME WANT [OPTIONS]: info, records, trans and bufs -v of NAME.img
# into NAME.info, NAME.records, NAME.trans, NAME.bufs.  info, trans and bufs
# must exit WANT; records, which has no transaction stage and so sees only
# record-level findings, exits 0 or 1 when WANT is 1.
all() {
	n=$1 want=$2
	shift 2
	run "$want" "$n" info "$@" &&
	if [ "$want" -eq 1 ]; then run01 "$n" records "$@"; else run "$want" "$n" records "$@"; fi &&
	run "$want" "$n" trans "$@" &&
	run "$want" "$n" bufs -v "$@"
}
# survive NAME [OPTIONS]: every command on NAME.img ends with exit 0..3,
# never a signal, within a time limit
survive() {
	n=$1
	shift
	for c in info records "records --all" trans "bufs -v" stats; do
		# shellcheck disable=SC2086
		timeout 20 "$XLS" $c "$@" "$TRASH/$n.img" >/dev/null 2>&1
		rc=$?
		[ "$rc" -le 3 ] || { echo "$c $n: exit $rc" >&2; return 1; }
	done
}
