# The bundled kernel-written images and how to read each: "name [args]".
# Sourced by tests after test-lib.sh; image_args NAME prints the
# xfs_logscope arguments that read it.
IMAGE_NAMES="clean dir4k dir64k logsu256k unlinked wrapped extlog"
# Every bundled kernel-written image, for the comparisons with xfs_logprint
# (those above also have expected outputs of their own in images/expect).
LOGPRINT_NAMES="$IMAGE_NAMES dirfrag sfconv links later reflink pptr pptr64k sect4k remap intents intents2"

image_args() {
	case "$1" in
	extlog)	echo "-l $(image extlog-log) $(image extlog)" ;;
	*)	image "$1" ;;
	esac
}

# Outputs compared with tests/images/expect/NAME.CMD; the input path is
# dropped from info so the expectation does not depend on the build dir.
expect_output() {
	name=$1
	cmd=$2
	# shellcheck disable=SC2046
	case "$cmd" in
	info)	"$XLS" info $(image_args "$name") | grep -v '^input ' ;;
	stats)	"$XLS" stats $(image_args "$name") ;;
	records) "$XLS" records $(image_args "$name") ;;
	bufs)	"$XLS" bufs $(image_args "$name") ;;
	esac
}
