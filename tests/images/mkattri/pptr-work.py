#!/usr/bin/env python3
# pptr-work.py setup|run DIR WORKER
# setup: files with many long-named hard links (-> parent-pointer attr fork in leaf/node format)
# run:   endless create/link/rename/unlink with fsync(dir) after each op (or every $FSYNC_EVERY ops, 0=never); exits on error (shutdown)
import os, sys, random
mode, top, w = sys.argv[1], sys.argv[2], int(sys.argv[3])
d = os.path.join(top, "d%d" % w)
pad = "p" * 150
NF, NL = 8, 200
def lname(f, i): return "f%d_link%05d_%s" % (f, i, pad)
if mode == "setup":
    os.makedirs(d, exist_ok=True)
    for f in range(NF):
        p = os.path.join(d, "f%d" % f)
        open(p, "w").close()
        for i in range(NL):
            os.link(p, os.path.join(d, lname(f, i)))
    os.sync()
    sys.exit(0)
random.seed(w)
FE = int(os.environ.get('FSYNC_EVERY', '1'))  # fsync(dir) every FE ops; 0 = never
dfd = os.open(d, os.O_RDONLY | os.O_DIRECTORY)
links = {f: list(range(NL)) for f in range(NF)}
nxt = NL
nops = 0
try:
    while True:
        op = random.randrange(4)
        f = random.randrange(NF)
        if op == 0:
            p = os.path.join(d, "new_%d_%s" % (nxt, pad)); nxt += 1
            os.close(os.open(p, os.O_CREAT | os.O_WRONLY, 0o644))
            os.unlink(p) if random.random() < 0.5 else None
        elif op == 1:
            os.link(os.path.join(d, "f%d" % f), os.path.join(d, lname(f, nxt)))
            links[f].append(nxt); nxt += 1
        elif op == 2 and links[f]:
            i = random.choice(links[f])
            os.rename(os.path.join(d, lname(f, i)), os.path.join(d, lname(f, nxt)))
            links[f].remove(i); links[f].append(nxt); nxt += 1
        elif op == 3 and len(links[f]) > 50:
            i = random.choice(links[f])
            os.unlink(os.path.join(d, lname(f, i))); links[f].remove(i)
        nops += 1
        if FE and nops % FE == 0:
            os.fsync(dfd)
except OSError as e:
    print("worker %d: %d ops, stopped: %s" % (w, nops, e))
