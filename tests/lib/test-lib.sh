# Shell test library, in the manner of git's t/test-lib.sh: TAP output,
# test_expect_success, test_must_fail, test_cmp.
# Source it first.
set -u
: "${XLS_TOP:?run tests through tests/run or make check}"
: "${XLS:=$XLS_TOP/build/xfs_logscope}"
: "${XLS_BUILD:=$XLS_TOP/build}"
IMAGES="$XLS_TOP/tests/images"
test_n=0
test_failed=0
TRASH=$(mktemp -d "${TMPDIR:-/tmp}/xls-test.XXXXXX")
trap 'rm -rf "$TRASH"' EXIT
cd "$TRASH" || exit 1

test_expect_success() {
	test_n=$((test_n + 1))
	if (eval "$2") >"$TRASH/.out" 2>&1; then
		echo "ok $test_n - $1"
	else
		echo "not ok $test_n - $1"
		sed 's/^/# /' "$TRASH/.out" | head -40
		test_failed=$((test_failed + 1))
	fi
}

test_skip() {
	test_n=$((test_n + 1))
	echo "ok $test_n # skip $1: $2"
}

# The command must fail cleanly: non-zero exit, but not a signal.
test_must_fail() {
	"$@"
	rc=$?
	if [ "$rc" -eq 0 ]; then
		echo "test_must_fail: '$*' succeeded" >&2
		return 1
	fi
	if [ "$rc" -ge 128 ]; then
		echo "test_must_fail: '$*' died with signal $((rc - 128))" >&2
		return 1
	fi
	return 0
}

# Exit status must be exactly $1.
test_expect_code() {
	want=$1
	shift
	"$@"
	rc=$?
	if [ "$rc" -ne "$want" ]; then
		echo "test_expect_code: '$*' exited $rc, want $want" >&2
		return 1
	fi
}

test_cmp() {
	diff -u "$1" "$2"
}

# Decompress tests/images/NAME.img.xz once per build, keeping holes.
image() {
	src="$IMAGES/$1.img.xz"
	dst="$XLS_BUILD/images/$1.img"
	if [ ! -f "$dst" ] || [ "$src" -nt "$dst" ]; then
		mkdir -p "$XLS_BUILD/images"
		# tests run in parallel: each writes its own, the last mv wins
		xz -dc "$src" | cp --sparse=always /dev/stdin "$dst.tmp.$$" &&
			mv "$dst.tmp.$$" "$dst" || return 1
	fi
	echo "$dst"
}

test_done() {
	echo "1..$test_n"
	[ "$test_failed" -eq 0 ]
	exit $?
}
