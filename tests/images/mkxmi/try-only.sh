#!/bin/bash
# try-only.sh OUT.img "DELAYS..." : like try.sh but keeps going until the pending work is exactly "1 XMI";
# the first image with any XMI is kept as OUT.fallback.img.
OUT=$1; DELAYS=$2; n=0
for d in $DELAYS; do
  n=$((n+1)); echo "=== try $n delay $d"
  "$(dirname "$0")"/make-xmis.sh $OUT $d > $OUT.try.log 2>&1; tail -1 $OUT.try.log
  line=$(${XLS:-xfs_logscope} recover -v $OUT 2>&1 | grep 'left to finish'); echo "   $line"
  if echo "$line" | grep -q "work left to finish after replay: 1 XMI$"; then echo "GOOD (only XMI) after $n tries (delay $d)"; exit 0; fi
  if echo "$line" | grep -qw XMI && [ ! -e ${OUT%.img}.fallback.img ]; then cp --sparse=always $OUT ${OUT%.img}.fallback.img; cp $OUT.try.log ${OUT%.img}.fallback.try.log; echo "   saved fallback"; fi
done
echo "no only-XMI after $n tries"; exit 1
