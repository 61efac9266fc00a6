#!/usr/bin/env python3
# xchg.py DIR NPAIRS : XFS_IOC_EXCHANGE_RANGE(fd of a<i>, file1 = b<i>, off 0/0, len 64 KiB, flags 0)
# for i = 0..N-1 in turn, no fsync. Prints the index before each exchange (stdout line-buffered).
import os, sys, struct, fcntl
XFS_IOC_EXCHANGE_RANGE = (1 << 30) | (40 << 16) | (ord('X') << 8) | 129
d, n = sys.argv[1], int(sys.argv[2])
for i in range(n):
    fa = os.open("%s/a%d" % (d, i), os.O_RDWR)
    fb = os.open("%s/b%d" % (d, i), os.O_RDWR)
    print(i, flush=True)
    try:
        fcntl.ioctl(fa, XFS_IOC_EXCHANGE_RANGE, struct.pack("=iIQQQQ", fb, 0, 0, 0, 65536, 0))
    except OSError as e:
        print("exchange %d: %s" % (i, e), flush=True); break
    os.close(fa); os.close(fb)
