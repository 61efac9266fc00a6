/*
 * The one apply step (replay/apply.c) on items built by hand: which
 * decisions write (xls_apply_writes), and what each kind of item writes
 * into the block an in-memory provider hands over -- the logged regions
 * where recovery places them, an inode buffer's di_next_unlinked fields,
 * one inode of a cluster, an icreate's clusters, one dquot -- with the
 * provider's refusals and errors.  Expected bytes are written here from
 * the on-disk offsets, not from the code under test.
 */
#include <string.h>

#include "tap.h"
#include "base/ondisk.h"
#include "replay/apply.h"

#define BLK_BYTES	8192u		/* the largest block handed over */
#define BLKNO		64
#define FILL		0xaa
#define DI(f)		offsetof(struct xfs_dinode, f)

/* A provider keeping one block, or none (ret 0), or failing (ret -1). */
struct prov {
	int			ret;
	int64_t			only;	/* -1: any blkno; else only this one */
	uint8_t			blk[BLK_BYTES];
	unsigned int		gets, dones;
	enum xls_apply_what	what;
	int64_t			blkno;
	uint32_t		len;
	bool			fresh, ok;
};

static int p_get(void *ctx, const struct xls_ritem *ri, enum xls_apply_what what,
		 int64_t blkno, uint32_t len, bool fresh, uint8_t **buf)
{
	struct prov *p = ctx;

	(void)ri;
	p->gets++;
	p->what = what;
	p->blkno = blkno;
	p->len = len;
	p->fresh = fresh;
	if (p->ret <= 0 || (p->only >= 0 && blkno != p->only) || len * BBSIZE > BLK_BYTES)
		return p->ret > 0 ? 0 : p->ret;
	*buf = p->blk;
	return 1;
}

static void p_done(void *ctx, const struct xls_ritem *ri, enum xls_apply_what what,
		   int64_t blkno, uint8_t *buf, bool ok)
{
	struct prov *p = ctx;

	(void)ri;
	(void)what;
	(void)blkno;
	p->dones += buf == p->blk;
	p->ok = ok;
}

static struct prov P;

static struct xls_block_provider prov_reset(int ret)
{
	struct xls_block_provider bp = { &P, p_get, p_done, false, false };

	memset(&P, 0, sizeof(P));
	memset(P.blk, FILL, sizeof(P.blk));
	P.ret = ret;
	P.only = -1;
	return bp;
}

#define all_fill(b, from, to)	all_is(b, from, to, FILL)

static bool all_is(const uint8_t *b, size_t from, size_t to, uint8_t v)
{
	for (size_t i = from; i < to; i++)
		if (b[i] != v)
			return false;
	return true;
}

static uint32_t be32at(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint16_t be16at(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }

static void test_writes(struct tap *t)
{
	static const struct { enum xls_rdecision d; bool plain, logged; } b[] = {
		{ XLS_RD_REPLAY, true, true },
		{ XLS_RD_REPLAY_ALWAYS, true, true },
		{ XLS_RD_SKIP_CANCELLED, false, true },
		{ XLS_RD_SKIP_LSN, false, true },
		{ XLS_RD_CANCEL, false, false },
		{ XLS_RD_SKIP_QUOTAOFF, false, true },
		{ XLS_RD_FAIL, false, false },
	};
	struct xls_rbuf rb = { 0 };
	struct xls_rinode in = { 0 };
	struct xls_ricreate ic = { 0 };
	struct xls_rdquot dq = { 0 };
	struct xls_ritem ri;

	for (size_t i = 0; i < sizeof(b) / sizeof(b[0]); i++) {
		memset(&ri, 0, sizeof(ri));
		ri.buf = &rb;
		ri.decision = b[i].d;
		tap_ok(t, xls_apply_writes(&ri, false) == b[i].plain &&
			  xls_replays(b[i].d) == b[i].plain,
		       "writes: buffer %s %s", xls_rdecision_key(b[i].d),
		       b[i].plain ? "written" : "not written");
		tap_ok(t, xls_apply_writes(&ri, true) == b[i].logged,
		       "writes: buffer %s, every_logged: %s", xls_rdecision_key(b[i].d),
		       b[i].logged ? "written" : "not written");
	}
	memset(&ri, 0, sizeof(ri));
	ri.has_ino = true;
	ri.inode = &in;
	ri.decision = XLS_RD_REPLAY;
	tap_ok(t, xls_apply_writes(&ri, false) && xls_apply_writes(&ri, true),
	       "writes: inode replay with its inode kept");
	ri.inode = NULL;
	tap_ok(t, !xls_apply_writes(&ri, true), "writes: inode replay, inode not kept: no");
	ri.inode = &in;
	ri.decision = XLS_RD_REPLAY_ALWAYS;
	tap_ok(t, !xls_apply_writes(&ri, true), "writes: inode replay_always: no");
	ri.decision = XLS_RD_SKIP_LSN;
	tap_ok(t, !xls_apply_writes(&ri, true), "writes: inode skip_lsn, every_logged: no");
	memset(&ri, 0, sizeof(ri));
	ri.icreate = &ic;
	ri.decision = XLS_RD_REPLAY;
	tap_ok(t, xls_apply_writes(&ri, false), "writes: icreate replay");
	ri.decision = XLS_RD_SKIP_CANCELLED;
	tap_ok(t, !xls_apply_writes(&ri, true), "writes: icreate skip_cancelled, every_logged: no");
	memset(&ri, 0, sizeof(ri));
	ri.dquot = &dq;
	ri.decision = XLS_RD_REPLAY;
	tap_ok(t, xls_apply_writes(&ri, false), "writes: dquot replay");
	ri.decision = XLS_RD_SKIP_QUOTAOFF;
	tap_ok(t, !xls_apply_writes(&ri, true), "writes: dquot skip_quotaoff, every_logged: no");
	memset(&ri, 0, sizeof(ri));
	ri.decision = XLS_RD_REPLAY;
	tap_ok(t, !xls_apply_writes(&ri, true), "writes: an item of no kind: no");
}

static void test_buf(struct tap *t, const struct xls_geometry *g, const struct xls_rtrans *rt)
{
	static struct xls_region_result res;
	static uint8_t data[128 + 256 + 256];
	struct xls_rbuf rb = { 0 };
	struct xls_ritem ri = { 0 };
	struct xls_apply_count n = { 0 };
	struct xls_block_provider bp;
	int rc;

	/* 4 sectors: the middle place runs past the block's end */
	res.nplaces = 3;
	res.places[0] = (struct xls_region_place){ .offset = 128, .len = 128 };
	res.places[1] = (struct xls_region_place){ .offset = 1920, .len = 256 };
	res.places[2] = (struct xls_region_place){ .offset = 512, .len = 256 };
	memset(data, 0x11, 128);
	memset(data + 128, 0x33, 256);
	memset(data + 384, 0x22, 256);
	rb.blkno = BLKNO;
	rb.len = 4;
	rb.res = &res;
	rb.data = data;
	ri.buf = &rb;
	ri.decision = XLS_RD_REPLAY;

	bp = prov_reset(1);
	rc = xls_apply_item(g, rt, &ri, &bp, &n);
	tap_ok(t, rc == 0 && P.gets == 1 && P.what == XLS_APPLY_BUF && P.blkno == BLKNO &&
		  P.len == 4 && !P.fresh, "buf: block asked for at blf_blkno, blf_len");
	tap_ok(t, all_is(P.blk, 128, 256, 0x11) && all_is(P.blk, 512, 768, 0x22),
	       "buf: each place copied to its offset, in order past a skipped one");
	tap_ok(t, all_fill(P.blk, 0, 128) && all_fill(P.blk, 256, 512) &&
		  all_fill(P.blk, 768, BLK_BYTES), "buf: bytes outside the places untouched");
	tap_ok(t, all_fill(P.blk, 1920, 2048), "buf: a place past the block's end not copied");
	tap_ok(t, n.buffers == 1 && n.inodes == 0 && n.dquots == 0 && n.clusters == 0,
	       "buf: count.buffers 1");
	tap_ok(t, P.dones == 1 && P.ok, "buf: done() once, ok");

	ri.decision = XLS_RD_REPLAY_ALWAYS;
	bp = prov_reset(1);
	n = (struct xls_apply_count){ 0 };
	rc = xls_apply_item(g, rt, &ri, &bp, &n);
	tap_ok(t, rc == 0 && n.buffers == 1 && all_is(P.blk, 512, 768, 0x22),
	       "buf: replay_always applied");

	ri.decision = XLS_RD_SKIP_LSN;
	bp = prov_reset(1);
	n = (struct xls_apply_count){ 0 };
	rc = xls_apply_item(g, rt, &ri, &bp, &n);
	tap_ok(t, rc == 0 && P.gets == 0 && P.dones == 0 && n.buffers == 0 &&
		  all_fill(P.blk, 0, BLK_BYTES), "buf: skip_lsn: no block asked for, nothing applied");
	bp.every_logged = true;
	rc = xls_apply_item(g, rt, &ri, &bp, &n);
	tap_ok(t, rc == 0 && n.buffers == 1 && P.dones == 1 && all_is(P.blk, 128, 256, 0x11),
	       "buf: skip_lsn with every_logged: applied");
	ri.decision = XLS_RD_CANCEL;
	bp = prov_reset(1);
	bp.every_logged = true;
	n = (struct xls_apply_count){ 0 };
	rc = xls_apply_item(g, rt, &ri, &bp, &n);
	tap_ok(t, rc == 0 && P.gets == 0 && n.buffers == 0,
	       "buf: cancel with every_logged: not applied");

	ri.decision = XLS_RD_REPLAY;
	bp = prov_reset(0);
	rc = xls_apply_item(g, rt, &ri, &bp, &n);
	tap_ok(t, rc == 0 && P.gets == 1 && P.dones == 0 && n.buffers == 0 &&
		  all_fill(P.blk, 0, BLK_BYTES), "buf: get() 0: nothing applied, 0 returned");
	bp = prov_reset(-1);
	rc = xls_apply_item(g, rt, &ri, &bp, &n);
	tap_ok(t, rc == -1 && P.dones == 0 && n.buffers == 0, "buf: get() -1: -1 returned");

	rb.data = NULL;
	bp = prov_reset(1);
	bp.done = NULL;
	rc = xls_apply_item(g, rt, &ri, &bp, &n);
	tap_ok(t, rc == 0 && n.buffers == 1 && all_fill(P.blk, 0, BLK_BYTES),
	       "buf: no logged bytes kept: counted, block untouched (no done())");
}

static void test_inode_buf(struct tap *t, const struct xls_geometry *g,
			   const struct xls_rtrans *rt)
{
	static struct xls_region_result res;
	static const uint8_t data[128] = { 0x11 };
	const uint32_t nu = DI(di_next_unlinked);
	const struct xls_runlinked u[] = {
		{ 0, nu, 0x01020304u, true },
		{ 1, 256 + nu, 0xffffffffu, false },	/* unreadable: skipped */
		{ 3, 768 + nu, 0xa0b0c0d0u, true },
		{ 7, 2046, 0x55555555u, true },		/* past the block */
	};
	struct xls_rbuf rb = { 0 };
	struct xls_ritem ri = { 0 };
	struct xls_apply_count n = { 0 };
	struct xls_block_provider bp = prov_reset(1);
	int rc;

	res.nplaces = 1;
	res.places[0] = (struct xls_region_place){ .offset = 0, .len = 128 };
	rb.blkno = BLKNO;
	rb.len = 4;
	rb.blf_flags = XFS_BLF_INODE_BUF;
	rb.res = &res;
	rb.data = data;
	rb.nunlinked = 4;
	rb.unlinked = u;
	ri.buf = &rb;
	ri.decision = XLS_RD_REPLAY_ALWAYS;
	rc = xls_apply_item(g, rt, &ri, &bp, &n);
	tap_ok(t, rc == 0 && P.what == XLS_APPLY_INODE_BUF && n.buffers == 1,
	       "inode buf: asked for as XLS_APPLY_INODE_BUF, counted as a buffer");
	tap_ok(t, be32at(P.blk + nu) == 0x01020304u && be32at(P.blk + 768 + nu) == 0xa0b0c0d0u,
	       "inode buf: di_next_unlinked written big-endian at its offset");
	tap_ok(t, all_fill(P.blk, 0, nu) && all_fill(P.blk, nu + 4, 768 + nu) &&
		  all_fill(P.blk, 768 + nu + 4, BLK_BYTES),
	       "inode buf: nothing else written (no regions, not the unreadable, not past the end)");
	tap_ok(t, P.dones == 1 && P.ok, "inode buf: done() once, ok");
}

/* Inode slot @slot of the cluster: magic and version, the rest zero. */
static void put_inode(uint8_t *blk, uint32_t isize, uint32_t slot, uint8_t version)
{
	memset(blk + slot * isize, 0, isize);
	blk[slot * isize] = 'I';
	blk[slot * isize + 1] = 'N';
	blk[slot * isize + DI(di_version)] = version;
}

static void test_inode(struct tap *t, const struct xls_geometry *g0, const struct xls_rtrans *rt)
{
	struct xls_geometry g = *g0;
	struct xls_rinode in = { 0 };
	struct xls_ritem ri = { 0 };
	struct xls_apply_count n = { 0 };
	struct xls_block_provider bp = prov_reset(1);
	uint8_t *dip;
	int rc;

	g.inode_size = 256;
	in.fields = XFS_ILOG_CORE;
	in.has_core = true;
	in.core.len = XLS_LOG_DINODE_V2_SIZE;
	in.core.di_magic = XFS_DINODE_MAGIC;
	in.core.di_version = 2;
	in.core.di_mode = 0100644;
	in.core.di_gen = 0x5a5a1234u;
	in.core.di_size = 0x123456;
	in.core.di_next_unlinked = 0x77u;	/* never replayed */
	ri.has_ino = true;
	ri.ino_blkno = BLKNO;
	ri.ino_len = 4;
	ri.ino_boffset = 2 * 256;
	ri.inode = &in;
	ri.decision = XLS_RD_REPLAY;
	for (uint32_t s = 0; s < 8; s++)
		put_inode(P.blk, 256, s, 2);
	dip = P.blk + 512;
	memset(dip + DI(di_next_unlinked), 0xee, 4);
	rc = xls_apply_item(&g, rt, &ri, &bp, &n);
	tap_ok(t, rc == 0 && P.gets == 1 && P.what == XLS_APPLY_INODE && P.blkno == BLKNO &&
		  P.len == 4, "inode: the cluster asked for at ilf_blkno, ilf_len");
	tap_ok(t, be16at(dip + DI(di_mode)) == 0100644 && be32at(dip + DI(di_gen)) == 0x5a5a1234u &&
		  be32at(dip + DI(di_size) + 4) == 0x123456 && dip[DI(di_version)] == 2,
	       "inode: the core written big-endian at ilf_boffset");
	tap_ok(t, be32at(dip + DI(di_next_unlinked)) == 0xeeeeeeeeu,
	       "inode: di_next_unlinked left alone");
	tap_ok(t, be16at(P.blk + 256 + DI(di_mode)) == 0 && be16at(P.blk + 768 + DI(di_mode)) == 0,
	       "inode: the other inodes of the cluster untouched");
	tap_ok(t, n.inodes == 1 && n.inode_errors == 0 && P.dones == 1 && P.ok,
	       "inode: count.inodes 1, done() once, ok");

	bp = prov_reset(1);
	n = (struct xls_apply_count){ 0 };
	rc = xls_apply_item(&g, rt, &ri, &bp, &n);	/* the block: 0xaa, no magic */
	tap_ok(t, rc == 0 && n.inodes == 0 && n.inode_errors == 1 && n.inode_why &&
		  strstr(n.inode_why, "magic"), "inode: bad magic: inode_errors 1 (%s)",
	       n.inode_why ? n.inode_why : "no reason");
	tap_ok(t, P.dones == 1 && !P.ok, "inode: bad magic: done() once, not ok");
	ri.ino_boffset = 8 * 256;
	bp = prov_reset(1);
	n = (struct xls_apply_count){ 0 };
	rc = xls_apply_item(&g, rt, &ri, &bp, &n);
	tap_ok(t, rc == 0 && n.inode_errors == 1 && !P.ok && all_fill(P.blk, 0, BLK_BYTES),
	       "inode: ilf_boffset past the cluster: an error, nothing written");
}

static void test_icreate(struct tap *t, const struct xls_geometry *g0, const struct xls_rtrans *rt)
{
	struct xls_geometry g = *g0;
	struct xls_ricreate ic = { .ag = 0, .agbno = 16, .count = 64, .isize = 512,
				   .length = 4, .gen = 7 };
	struct xls_ritem ri = { 0 };
	struct xls_apply_count n = { 0 };
	struct xls_block_provider bp = prov_reset(1);
	bool good = true;
	int rc;

	/* 4 KiB blocks, 2-block clusters of 16 inodes of 512 bytes */
	g.blocksize = 4096;
	g.block_log = 12;
	g.ag_blocks = 1024;
	g.ag_block_log = 10;
	g.ag_count = 1;
	g.inode_size = 512;
	g.inode_log = 9;
	g.inopb_log = 3;
	g.inode_cluster_blocks = 2;
	ri.icreate = &ic;
	ri.decision = XLS_RD_REPLAY;
	P.only = 18 << 3;	/* the second cluster only */
	rc = xls_apply_item(&g, rt, &ri, &bp, &n);
	tap_ok(t, rc == 0 && P.gets == 2 && P.what == XLS_APPLY_ICREATE && P.len == 16 && P.fresh,
	       "icreate: each cluster asked for, fresh, 16 sectors");
	for (uint32_t i = 0; i < 16; i++) {
		const uint8_t *dip = P.blk + i * 512;

		good &= be16at(dip) == XFS_DINODE_MAGIC && dip[DI(di_version)] == 2 &&
			be32at(dip + DI(di_gen)) == 7 &&
			be32at(dip + DI(di_next_unlinked)) == 0xffffffffu &&
			dip[DI(di_mode)] == 0 && dip[511] == 0;
	}
	tap_ok(t, good, "icreate: the cluster given initialised: magic, v2, gen, NULLAGINO");
	tap_ok(t, n.clusters == 1 && P.dones == 1 && P.ok,
	       "icreate: count.clusters 1 (the provider kept one), done() once");
	bp = prov_reset(-1);
	rc = xls_apply_item(&g, rt, &ri, &bp, &n);
	tap_ok(t, rc == -1 && P.dones == 0, "icreate: get() -1: -1 returned");
}

static void test_dquot(struct tap *t, const struct xls_geometry *g, const struct xls_rtrans *rt)
{
	static uint8_t ddq[sizeof(struct xfs_disk_dquot)];
	struct xls_rdquot dq = { .blkno = BLKNO, .len = 8, .boffset = sizeof(struct xfs_dqblk),
				 .id = 1, .ddq_len = sizeof(ddq), .ddq = ddq };
	struct xls_ritem ri = { 0 };
	struct xls_apply_count n = { 0 };
	struct xls_block_provider bp = prov_reset(1);
	const size_t off = sizeof(struct xfs_dqblk);
	int rc;

	memset(ddq, 0x44, sizeof(ddq));
	ri.dquot = &dq;
	ri.decision = XLS_RD_REPLAY;
	rc = xls_apply_item(g, rt, &ri, &bp, &n);
	tap_ok(t, rc == 0 && P.what == XLS_APPLY_DQUOT && P.blkno == BLKNO && P.len == 8 &&
		  n.dquots == 1 && P.dones == 1 && P.ok, "dquot: applied, counted, done() ok");
	tap_ok(t, all_is(P.blk, off, off + sizeof(ddq), 0x44) && all_fill(P.blk, 0, off) &&
		  all_fill(P.blk, off + sizeof(ddq), BLK_BYTES),
	       "dquot: the logged dquot at qlf_boffset, nothing else (v4: no CRC)");
	dq.boffset = 8 * 512 - 8;
	bp = prov_reset(1);
	n = (struct xls_apply_count){ 0 };
	rc = xls_apply_item(g, rt, &ri, &bp, &n);
	tap_ok(t, rc == 0 && n.dquots == 0 && P.dones == 1 && !P.ok &&
		  all_fill(P.blk, 0, BLK_BYTES), "dquot: past the buffer: done() not ok, nothing written");
}

int main(void)
{
	struct tap t = { 0, 0 };
	struct xls_geometry g = { 0 };
	struct xls_trans tr = { 0 };
	struct xls_rtrans rt = { 0 };

	/* v4: no CRCs to recompute, so every byte expected is written here */
	g.has_sb = true;
	g.inode_size = 256;
	tr.lsn = (uint64_t)3 << 32 | 40;
	rt.t = &tr;
	rt.replayed = true;
	test_writes(&t);
	test_buf(&t, &g, &rt);
	test_inode_buf(&t, &g, &rt);
	test_inode(&t, &g, &rt);
	test_icreate(&t, &g, &rt);
	test_dquot(&t, &g, &rt);
	return tap_done(&t);
}
