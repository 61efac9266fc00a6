#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mkp3wrap.sh [TARGET]: make tests/images/p3wrap.img.xz, a kernel-written
# journal whose head lies at the last blocks of the log, with an inode
# unlinked while open left for pass 3 -- so that pass 3's checkpoint,
# written at the head, wraps past the physical end of the log.
#
# One file is made and held open; the log is then filled with small
# fsynced creates, the head read from the live image after each few
# (xfs_logscope info --force) until it reaches TARGET (default 131063 of
# 131072 blocks); the held file is unlinked, its directory fsynced, and
# the filesystem shut down.  Where the head lands varies from run to run:
# the image is kept only when replay's pass-3 checkpoint wraps, and when
# replay -o equals the kernel's mount of a copy outside the log.
# Needs root, loop devices, XFS, python3, and build/xfs_logscope.
set -eu
top=$(cd "$(dirname "$0")/../../.." && pwd)
X=$top/build/xfs_logscope
target=${1:-131063}
w=$(mktemp -d /var/tmp/p3wrap.XXXXXX)
mnt=$w/mnt
trap 'umount "$mnt" 2>/dev/null; rm -rf "$w"' EXIT
mkdir "$mnt"
truncate -s 512M "$w/p3wrap.img"
mkfs.xfs -q -l size=64m "$w/p3wrap.img"
mount -o loop "$w/p3wrap.img" "$mnt"
python3 - "$mnt" "$w/p3wrap.img" "$X" "$target" <<'PY'
import os, subprocess, sys
mnt, img, x, target = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
d = mnt + '/d'
os.mkdir(d)
held = os.open(d + '/u', os.O_CREAT | os.O_RDWR, 0o644)
for k in range(8):
    os.pwrite(held, b'u' * 4096, k * 8192)
os.fsync(held)
def head():
    out = subprocess.run([x, 'info', '--force', img], capture_output=True, text=True).stdout
    return next((int(l.split()[1]) for l in out.splitlines() if l.startswith('head_blk')), -1)
i, h = 0, -1
while True:
    fd = os.open('%s/f%d' % (d, i), os.O_CREAT | os.O_RDWR, 0o644)
    os.write(fd, b'z' * 512)
    os.fsync(fd)
    os.close(fd)
    i += 1
    if i > 3000 and i % 5 == 0:
        h = head()
        if h >= target or h < 1000:
            break
print('p3wrap: %d creates, head %d before the unlink' % (i, h))
os.unlink(d + '/u')
dfd = os.open(d, os.O_RDONLY)
os.fsync(dfd)
subprocess.run(['xfs_io', '-x', '-c', 'shutdown -f', mnt], check=True)
os.close(held)
PY
umount "$mnt"
"$X" info "$w/p3wrap.img" | grep -E '^(head_blk|tail_blk|state) '
"$X" replay -o "$w/out.img" "$w/p3wrap.img" >"$w/replay.txt"
head=$("$X" info "$w/out.img" | awk '$1 == "head_blk" { print $2 }')
old=$("$X" info "$w/p3wrap.img" | awk '$1 == "head_blk" { print $2 }')
[ "$head" -lt "$old" ] || { echo "p3wrap: the checkpoint did not wrap (head $old, then $head): run again"; exit 1; }
grep -q "logged first" "$w/replay.txt" || { echo "p3wrap: pass 3 was not logged"; exit 1; }
cp --sparse=always "$w/p3wrap.img" "$w/kref.img"
mount -o loop,nouuid "$w/kref.img" "$mnt"
umount "$mnt"
logoff=$("$X" info --json "$w/p3wrap.img" |
	 sed -n 's/.*"log_offset":\([0-9]*\).*"log_bytes":\([0-9]*\).*/\1 \2/p')
# shellcheck disable=SC2086
perl "$top/tests/lib/imgcmp.pl" "$w/kref.img" "$w/out.img" $logoff
xz -9 -T2 -c "$w/p3wrap.img" >"$top/tests/images/p3wrap.img.xz"
echo "p3wrap: tests/images/p3wrap.img.xz written (head $old, after pass 3 $head)"
