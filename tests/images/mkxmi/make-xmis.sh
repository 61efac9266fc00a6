#!/bin/bash
# make-xmis.sh OUT.img DELAY : mkfs, NP pairs of small files (mkpairs.py), remount (clean log),
# xchg.py exchanges pair after pair (no fsync); after DELAY s: xfs_io -x -c 'shutdown -f'; umount.
set -u
XP=${XFSPROGS:?set XFSPROGS to a built xfsprogs >= 6.10 tree}; H=$(cd "$(dirname "$0")" && pwd)
OUT=$1; DELAY=$2
MNT=${MNT:-/mnt/xmi}
NP=${NP:-2000}
rm -f $OUT; truncate -s 1G $OUT
$XP/mkfs/mkfs.xfs -q -f -l size=64m -i exchange=1 -m reflink=1,rmapbt=1 $OUT || exit 1
dev=$(losetup -f --show $OUT) || exit 1; echo "loop $dev"
mount $dev $MNT || { losetup -d $dev; exit 1; }
$H/mkpairs.py $MNT $NP
$XP/io/xfs_io -c "stat" $MNT/a0 | grep -E 'nextents|size'
$XP/io/xfs_io -c "stat" $MNT/b0 | grep -E 'nextents|size'
# clean log before the exchanges
umount $MNT; mount $dev $MNT || { losetup -d $dev; exit 1; }
$H/xchg.py $MNT $NP > $OUT.xchg.out 2>&1 & XPID=$!
sleep $DELAY
$XP/io/xfs_io -x -c 'shutdown -f' $MNT
kill $XPID 2>/dev/null; wait $XPID; echo "xchg rc=$? last: $(tail -2 $OUT.xchg.out | tr '\n' ' ')"
umount $MNT; losetup -d $dev
