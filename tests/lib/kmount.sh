# Sourced by the tests that mount a journal (t0802, t0810, t0890, t0900): a mount
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

# kmount_probe [COMMAND...]: can_mount=true when this machine can mount a
# copy of the clean image on a loop device (root, losetup, XFS) and has
# every COMMAND; $why says what a skip needs.
kmount_probe() {
	can_mount=false
	why="needs root, losetup"
	for c in "$@"; do why="$why, $c"; done
	why="$why and XFS on loop devices"
	[ "$(id -u)" -eq 0 ] && command -v losetup >/dev/null &&
		command -v mountpoint >/dev/null && [ -e /dev/loop-control ] || return 0
	for c in "$@"; do command -v "$c" >/dev/null || return 0; done
	cp --sparse=always "$(image clean)" "$TRASH/probe.img" &&
		mount -o loop,ro,nouuid "$TRASH/probe.img" "$MNT" 2>/dev/null &&
		umount "$MNT" && can_mount=true
	rm -f "$TRASH/probe.img"
}
