#!/bin/sh
# Edge cases where the tool must say what the kernel does: a totally zeroed
# log, a superblock LSN ahead of the log, another filesystem's log, a copied
# log read bare, and the order in which recovery writes its buffers.
#
# The journals are made here from the bundled clean image and mkfs.xfs, with
# no mount; as root with loop devices (skipped otherwise) each is also given
# to the kernel, whose verdict (mounts or not, and what it logs) must agree.
. "$(dirname "$0")/lib/test-lib.sh"
. "$XLS_TOP/tests/lib/images.sh"

# zero_log IMG: overwrite the internal log of IMG with zeros
zero_log() {
	set -- "$1" $("$XLS" info --json "$1" |
		sed -n 's/.*"log_offset":\([0-9]*\),"log_bbs":\([0-9]*\).*/\1 \2/p')
	dd if=/dev/zero of="$1" bs=512 seek=$(($2 / 512)) count="$3" conv=notrunc status=none
}

cp --sparse=always "$(image clean)" used.img
zero_log used.img
can_mkfs=false
if command -v mkfs.xfs >/dev/null; then
	truncate -s 512M fresh.img && mkfs.xfs -q fresh.img && zero_log fresh.img &&
		can_mkfs=true
fi

test_expect_success 'zeroed log: info says clean and zeroed' '
	test_expect_code 1 "$XLS" info used.img >out 2>err &&
	grep -q "^state  *clean$" out &&
	grep -q "^log_zeroed  *yes$" out &&
	grep -q "^head_blk  *0$" out && grep -q "^tail_blk  *0$" out &&
	grep -q "^records  *0$" out
'

test_expect_success 'zeroed log: every command runs on the empty range' '
	for cmd in records trans bufs stats "history --blkno=0x10"; do
		# shellcheck disable=SC2086
		"$XLS" $cmd used.img >out 2>err; rc=$?
		[ $rc -le 1 ] || { echo "$cmd: exit $rc"; cat err; return 1; }
	done &&
	"$XLS" stats --json used.img | grep -q "\"records\":0"
'

test_expect_success 'zeroed log of a used v5 filesystem: the superblock LSN is ahead' '
	test_expect_code 1 "$XLS" info --json used.img >out.json 2>err &&
	grep -q "\"log_zeroed\":true" out.json &&
	grep -q "\"finding\":\"sb_lsn\"" out.json &&
	grep -q "superblock.s LSN 1/[0-9]* is ahead of the log.s current LSN 1/0 (the log is totally zeroed)" err &&
	test_expect_code 1 "$XLS" recover --json used.img >rec.json 2>/dev/null &&
	grep -q "\"recovery_fails\":true" rec.json &&
	grep "\"kind\":\"summary\"" rec.json | grep -q "\"fail_why\":\"the superblock.s LSN.*Metadata has LSN ahead"
'

if $can_mkfs; then
	test_expect_success 'zeroed log of a fresh filesystem: clean, nothing to refuse' '
		test_expect_code 0 "$XLS" info fresh.img >out 2>err &&
		grep -q "^log_zeroed  *yes$" out && ! test -s err &&
		test_expect_code 0 "$XLS" recover --json fresh.img >rec.json &&
		grep -q "\"recovery_fails\":false" rec.json
	'
else
	test_skip 'zeroed log of a fresh filesystem' 'needs mkfs.xfs'
fi

# another filesystem, with an external log of the same size as extlog's
if $can_mkfs; then
	truncate -s 320M other.img &&
	truncate -s "$(stat -c %s "$(image extlog-log)")" otherlog.img &&
	mkfs.xfs -q -l logdev=otherlog.img,size=64m other.img || can_mkfs=false
fi
if $can_mkfs; then
	test_expect_success 'foreign log: the cause comes first, on stdout and stderr' '
		test_expect_code 1 "$XLS" info -l "$(image extlog-log)" other.img >out 2>err &&
		head -1 err | grep -q "finding: .*log_uuid: the log.s records carry UUID" &&
		grep -q "another filesystem.s log, which the kernel refuses" err &&
		! grep -q "^finding:" out &&
		"$XLS" trans --json -l "$(image extlog-log)" other.img 2>/dev/null |
			head -1 | grep -q "\"finding\":\"log_uuid\""
	'
	test_expect_success 'foreign log: recover blames the UUID, not a buffer' '
		test_expect_code 1 "$XLS" recover --json -l "$(image extlog-log)" other.img >rec.json 2>err &&
		grep "\"kind\":\"summary\"" rec.json |
			grep -q "\"fail_why\":\"the log.s records carry UUID.*log has mismatched uuid - can.t recover" &&
		test_expect_code 1 "$XLS" recover --csv -l "$(image extlog-log)" other.img >/dev/null 2>err &&
		grep -q "another filesystem.s log" err
	'
else
	test_skip 'foreign log' 'needs mkfs.xfs'
	test_skip 'foreign log: recover' 'needs mkfs.xfs'
fi

test_expect_success 'bare copy of a v5 log: crc and uuid from the record headers' '
	"$XLS" copy "$(image dir4k)" bare.log >/dev/null &&
	"$XLS" info "$(image dir4k)" | grep "^uuid " >want &&
	"$XLS" info -f bare.log >out &&
	grep "^uuid " out >got && test_cmp want got &&
	grep -q "^crc  *yes$" out
'

# ---- the kernel agrees (root, loop devices) -------------------------------
. "$XLS_TOP/tests/lib/kmount.sh"

# kernel_mount IMG [LOG]: 0 if the kernel mounts it (then unmounted); its
# messages in dmesg.out
kernel_mount() {
	opts=loop
	if [ -n "${2:-}" ]; then
		LOGLOOP=$(losetup -f --show "$2") || return 2
		opts=loop,logdev=$LOGLOOP
	fi
	marker="xls-t0900-$$-$(date +%s%N)"
	echo "$marker" >/dev/kmsg
	if mount -t xfs -o "$opts" "$1" "$MNT" 2>/dev/null; then
		umount "$MNT"; rc=0
	else
		rc=1
	fi
	dmesg | sed -n "/$marker/,\$p" >dmesg.out
	[ -n "$LOGLOOP" ] && losetup -d "$LOGLOOP"
	LOGLOOP=
	return $rc
}

can_mount=false
if [ "$(id -u)" -eq 0 ] && command -v losetup >/dev/null &&
   [ -e /dev/loop-control ] && [ -w /dev/kmsg ] && dmesg >/dev/null 2>&1; then
	cp --sparse=always "$(image clean)" probe.img &&
		kernel_mount probe.img && can_mount=true
	rm -f probe.img
fi

if $can_mount && $can_mkfs; then
	test_expect_success 'kernel: a zeroed log mounts clean, or is refused for the LSN' '
		cp --sparse=always fresh.img k.img && kernel_mount k.img &&
		grep -q "totally zeroed log" dmesg.out &&
		cp --sparse=always used.img k.img && ! kernel_mount k.img &&
		grep -q "Metadata has LSN (1:[0-9]*) ahead of current LSN (1:0)" dmesg.out
	'
	test_expect_success 'kernel: the foreign log is refused for its UUID' '
		cp --sparse=always other.img k.img &&
		cp --sparse=always "$(image extlog-log)" klog.img &&
		! kernel_mount k.img klog.img &&
		grep -q "log has mismatched uuid - can.t recover" dmesg.out
	'
else
	test_skip 'kernel comparisons' 'needs root, loop devices, dmesg and mkfs.xfs'
fi
rm -f k.img klog.img
test_done
