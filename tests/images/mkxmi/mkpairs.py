#!/usr/bin/env python3
# mkpairs.py DIR NPAIRS : for pair i create DIR/a<i> and DIR/b<i>, each 64 KiB in size, written with
# O_DIRECT 4 KiB blocks: a<i> = even blocks 0,2,..,14 (8 extents), b<i> = odd blocks 1,3,..,15
# (8 extents); exchanging the whole 64 KiB takes 16 one-block steps and, since the blocks interleave,
# neither file ever has more than 9 data-fork extents (stays in EXTENTS format; with the attr fork
# forkoff=24 the data fork holds 12).
import os, sys, mmap
d, n = sys.argv[1], int(sys.argv[2])
buf = mmap.mmap(-1, 4096)
def mk(path, blocks, seed):
    fd = os.open(path, os.O_CREAT | os.O_WRONLY | os.O_DIRECT, 0o644)
    for b in blocks:
        buf.seek(0); buf.write(bytes([(seed * 31 + b * 7 + 1) & 0xff]) * 4096)
        os.pwrite(fd, buf, b * 4096)
    os.ftruncate(fd, 65536)
    os.close(fd)
for i in range(n):
    mk("%s/a%d" % (d, i), range(0, 16, 2), 2 * i)
    mk("%s/b%d" % (d, i), range(1, 16, 2), 2 * i + 1)
os.sync()
