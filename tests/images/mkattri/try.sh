#!/bin/bash
# try.sh KIND OUT.img "DELAYS..." -- make-KIND.sh args ; repeats with the given delays until
# xfs_logscope recover reports a pending item of KIND (XMI/ATTRI). Prints number of tries.
KIND=$1; OUT=$2; DELAYS=$3; shift 3
n=0
for d in $DELAYS; do
  n=$((n+1))
  echo "=== try $n delay $d"
  "$@" $OUT $d > $OUT.try.log 2>&1; tail -3 $OUT.try.log
  line=$(${XLS:-xfs_logscope} recover -v $OUT 2>&1 | grep 'left to finish')
  echo "   $line"
  if echo "$line" | grep -qw "$KIND"; then echo "GOOD after $n tries (delay $d)"; exit 0; fi
done
echo "FAILED after $n tries"; exit 1
