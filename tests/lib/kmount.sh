# Sourced by the tests that mount a journal (t0800, t0810, t0900): a mount
# point $MNT in $TRASH, $LOGLOOP for the loop device of an external log,
# and an exit trap that unmounts, detaches and removes $TRASH whatever a
# test left behind.
MNT=$TRASH/mnt
LOGLOOP=
kmount_cleanup() {
	if mountpoint -q "$MNT" 2>/dev/null; then
		umount "$MNT" 2>/dev/null || umount -l "$MNT"
	fi
	[ -n "$LOGLOOP" ] && losetup -d "$LOGLOOP" 2>/dev/null
	LOGLOOP=
	rm -rf "$TRASH"
}
trap kmount_cleanup EXIT
mkdir -p "$MNT"
