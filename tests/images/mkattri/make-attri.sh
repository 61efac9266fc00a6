#!/bin/bash
# make-attri.sh OUT.img DELAY : parent-pointer fs, 2 workers of dir ops (fsync(dir) every $FSYNC_EVERY ops, default 1), shutdown -f after DELAY s
set -u
XP=${XFSPROGS:?set XFSPROGS to a built xfsprogs >= 6.12 tree}; H=$(cd "$(dirname "$0")" && pwd)
OUT=$1; DELAY=$2
MNT=${MNT:-/mnt/attri}
rm -f $OUT; truncate -s 1G $OUT
$XP/mkfs/mkfs.xfs -q -f -l size=64m -n parent=1 $OUT || exit 1
mount -o loop $OUT $MNT || exit 1
$H/pptr-work.py setup $MNT 0 & $H/pptr-work.py setup $MNT 1 & wait
# clean log before the workload
umount $MNT; mount -o loop $OUT $MNT || exit 1
$H/pptr-work.py run $MNT 0 & P0=$!
$H/pptr-work.py run $MNT 1 & P1=$!
sleep $DELAY
$XP/io/xfs_io -x -c 'shutdown -f' $MNT
wait $P0 $P1
umount $MNT
