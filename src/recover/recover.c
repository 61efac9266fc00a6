/*
 * Recovery stage: a dry run of kernel log recovery.
 *
 * The rules, all from fs/xfs (Linux 6.x):
 *
 *  - xlog_do_log_recovery(): pass 1 over tail..head, then pass 2; a
 *    transaction is acted on at its commit record and only then
 *    (xlog_recovery_process_trans); one without a commit record is dropped.
 *  - xlog_recover_buf_commit_pass1(): each committed XFS_BLF_CANCEL item adds
 *    a reference to the cancel table entry for (blf_blkno, blf_len); a
 *    format region that cannot hold its bitmap (xfs_buf_log_check_iovec)
 *    fails recovery.
 *  - xlog_recover_reorder_trans(): buffers first, other items next (both in
 *    log order), then XFS_BLF_INODE_BUF buffers and cancel items, each of
 *    those two lists built by adding at the head, so last logged first.
 *  - xlog_recover_buf_commit_pass2(): a cancel item drops a reference
 *    (xlog_put_buffer_cancelled); any other buffer in the table is skipped
 *    (xlog_is_buffer_cancelled); else the block is read and, on v5, its LSN
 *    taken from where its current magic says (xlog_recover_get_buf_lsn);
 *    LSN != 0, != -1 and >= the transaction's LSN skips the item.
 *  - xlog_recover_do_reg_buffer(), xlog_recover_do_inode_buffer(): what a
 *    replay copies; xlog_recover_validate_buf_type(): which verifier is
 *    attached (and the warning when the magic does not fit the type), and
 *    that the write verifier stamps the transaction's LSN.
 *  - xlog_recover_process_ophdr(): queued buffers are written (so stamped)
 *    when a commit record brings a new transaction LSN.
 *  - xlog_recover_inode_commit_pass2(): inode items are skipped when their
 *    cluster buffer is cancelled or the on-disk v3 inode's LSN is newer.
 *  - intents stay in the AIL until their done item is replayed
 *    (xlog_recover_release_intent); those left are finished by
 *    xlog_recover_process_intents().
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uuid/uuid.h>

#include "base/ondisk.h"
#include <xfs/xfs_da_format.h>
#include "analysis/analysis.h"
#include "base/bitmap.h"
#include "base/crc32c.h"
#include "items/item.h"
#include "recover/recover.h"

/* Magics newer than the xfsprogs 6.1 headers (realtime groups, rt btrees). */
#ifndef XFS_RTBITMAP_MAGIC
#define XFS_RTBITMAP_MAGIC	0x424D505A	/* BMPZ */
#endif
#ifndef XFS_RTSUMMARY_MAGIC
#define XFS_RTSUMMARY_MAGIC	0x53554D59	/* SUMY */
#endif
#ifndef XFS_RTRMAP_CRC_MAGIC
#define XFS_RTRMAP_CRC_MAGIC	0x4d415052	/* MAPR */
#endif
#ifndef XFS_RTREFC_CRC_MAGIC
#define XFS_RTREFC_CRC_MAGIC	0x52434e54	/* RCNT */
#endif
/* rtgroups come with the metadata directory tree (xfs_has_rtgroups) */
#ifndef XFS_SB_FEAT_INCOMPAT_METADIR
#define XFS_SB_FEAT_INCOMPAT_METADIR	(1u << 7)
#endif
/* struct xfs_rtbuf_blkinfo: magic, crc, owner, blkno, lsn, uuid */
#define RTBUF_LSN_OFF		24
#define RTBUF_UUID_OFF		32

#define HEAD_BYTES	512u		/* simulated bytes of each buffer */
#define HEAD_CHUNKS	(HEAD_BYTES >> XFS_BLF_SHIFT)
#define BLF_FIXED	offsetof(struct xfs_buf_log_format, blf_data_map)
#define NULL_LSN	UINT64_MAX	/* NULLCOMMITLSN, (xfs_lsn_t)-1 */
#define NULL_AGINO	0xffffffffu
#define DINODE_READ	sizeof(struct xfs_dinode)

/* ------------------------------------------------------------------ */
/* a small open-addressing map: (a, b) -> u32 */

struct kslot {
	uint64_t	a, b;
	uint32_t	v;
	uint8_t		st;		/* 0 empty, 1 used, 2 deleted */
};

struct kmap {
	struct kslot	*s;
	uint32_t	cap;		/* power of two, or 0 */
	uint32_t	used;
	uint32_t	dead;
};

static uint32_t kmap_hash(uint64_t a, uint64_t b, uint32_t cap)
{
	uint64_t h = a * 0x9e3779b97f4a7c15ull ^ (b + 0x632be59bd9b4e019ull) *
		     0xc2b2ae3d27d4eb4full;

	return (uint32_t)(h >> 29) & (cap - 1);
}

static struct kslot *kmap_find(const struct kmap *m, uint64_t a, uint64_t b)
{
	if (!m->cap)
		return NULL;
	for (uint32_t h = kmap_hash(a, b, m->cap), n = 0; n < m->cap;
	     h = (h + 1) & (m->cap - 1), n++) {
		struct kslot *s = &m->s[h];

		if (s->st == 0)
			return NULL;
		if (s->st == 1 && s->a == a && s->b == b)
			return s;
	}
	return NULL;
}

static int kmap_grow(struct kmap *m)
{
	uint32_t ncap = m->cap ? m->cap : 64;
	struct kslot *old = m->s, *ns;
	uint32_t ocap = m->cap;

	/* only grow when live entries need it; else just drop the dead */
	if ((uint64_t)(m->used + 1) * 2 >= ncap)
		ncap *= 2;
	if (ncap > (1u << 30))
		return -1;
	ns = calloc(ncap, sizeof(*ns));
	if (!ns)
		return -1;
	m->s = ns;
	m->cap = ncap;
	m->used = m->dead = 0;
	for (uint32_t i = 0; i < ocap; i++) {
		uint32_t h;

		if (old[i].st != 1)
			continue;
		for (h = kmap_hash(old[i].a, old[i].b, ncap); ns[h].st;
		     h = (h + 1) & (ncap - 1))
			;
		ns[h] = old[i];
		m->used++;
	}
	free(old);
	return 0;
}

/* Insert (a, b) -> v; the key must not be present.  0 or -1 (memory). */
static int kmap_put(struct kmap *m, uint64_t a, uint64_t b, uint32_t v)
{
	uint32_t h;

	if ((uint64_t)(m->used + m->dead + 1) * 4 >= (uint64_t)m->cap * 3 &&
	    kmap_grow(m))
		return -1;
	for (h = kmap_hash(a, b, m->cap); m->s[h].st == 1;
	     h = (h + 1) & (m->cap - 1))
		;
	if (m->s[h].st == 2)
		m->dead--;
	m->s[h].a = a;
	m->s[h].b = b;
	m->s[h].v = v;
	m->s[h].st = 1;
	m->used++;
	return 0;
}

static void kmap_del(struct kmap *m, struct kslot *s)
{
	s->st = 2;
	m->used--;
	m->dead++;
}

static void kmap_free(struct kmap *m)
{
	free(m->s);
	memset(m, 0, sizeof(*m));
}

/* A growable array; @elem bytes per entry.  Returns the new entry or NULL. */
static void *vec_push(void **base, uint32_t *n, uint32_t *cap, size_t elem)
{
	if (*n == *cap) {
		uint32_t ncap = *cap ? *cap * 2 : 16;
		void *p;

		if (ncap < *cap || (uint64_t)ncap * elem > (1ull << 34))
			return NULL;
		p = realloc(*base, (size_t)ncap * elem);
		if (!p)
			return NULL;
		*base = p;
		*cap = ncap;
	}
	return (uint8_t *)*base + (size_t)(*n)++ * elem;
}

/* Reserve @len bytes in a byte pool; returns the offset or UINT32_MAX. */
static uint32_t pool_add(uint8_t **pool, uint32_t *used, uint32_t *cap,
			 const void *src, uint32_t len)
{
	uint32_t off = *used;

	/* nothing to copy, and the pool may not exist yet */
	if (len == 0)
		return off;
	if ((uint64_t)*used + len > UINT32_MAX / 2)
		return UINT32_MAX;
	if (*used + len > *cap) {
		uint32_t ncap = *cap ? *cap : 65536;
		uint8_t *p;

		while (ncap < *used + len)
			ncap *= 2;
		p = realloc(*pool, ncap);
		if (!p)
			return UINT32_MAX;
		*pool = p;
		*cap = ncap;
	}
	if (src)
		memcpy(*pool + off, src, len);
	else
		memset(*pool + off, 0, len);
	*used += len;
	return off;
}

/* ------------------------------------------------------------------ */
/* what each item of an open transaction needs at its commit */

struct rrec {
	uint16_t	type;
	uint32_t	index;
	bool		unknown_type;	/* no recovery ops: reorder fails */
	/* buffers */
	bool		parsed;
	bool		bad_iovec;	/* xfs_buf_log_check_iovec fails */
	struct xls_buf_format blf;
	uint32_t	rlen_off;	/* region lengths (data regions) */
	uint32_t	nrlen;
	uint32_t	patch_off;	/* HEAD_BYTES of logged bytes, or UINT32_MAX */
	uint8_t		patch_mask;	/* chunks 0..3 the patch covers */
	uint32_t	data_off;	/* kept bytes (history), or UINT32_MAX */
	uint32_t	data_len;
	uint32_t	unl_off;	/* struct xls_runlinked entries */
	uint32_t	nunl;
	bool		unl_zero;	/* a logged di_next_unlinked of 0 */
	/* compound segment, filled at commit */
	uint32_t	compound, seg, nseg;
	uint64_t	seg_offset;
	bool		seg_exact, block_start;
	/* other items */
	bool		has_id;
	uint64_t	id;
	bool		has_ino;
	uint64_t	ino;
	int64_t		iblkno;
	uint32_t	ilen, iboff;
	uint16_t	ldi_flushiter;
	uint32_t	qoff_flags;
	bool		has_icl;
	struct xls_ricreate icl;
	bool		kept_inode;	/* its regions are in the byte pool */
	struct xls_rinode ino_keep;	/* reg[] hold pool offsets until emitted */
	uint32_t	ino_off[4];
	char		what[96];
};

struct tstore {
	bool		used;
	uint32_t	tid;
	uint64_t	lsn;
	struct rrec	*recs;
	uint32_t	nrecs, caprecs;
	uint32_t	*rlens;
	uint32_t	nrlens, caprlens;
	uint8_t		*bytes;
	uint32_t	nbytes, capbytes;
	struct xls_runlinked *unl;
	uint32_t	nunl, capunl;
};

/* The simulated head of one buffer (blkno, len). */
struct rstate {
	int64_t		blkno;
	uint32_t	len;
	uint32_t	head_len;
	bool		readable;
	bool		replayed;	/* head changed by a replay */
	bool		queued;		/* on the delwri list */
	bool		has_ops;	/* a verifier is attached: it stamps */
	bool		icreated;	/* initialised by an icreate replay */
	uint64_t	stamp_lsn;
	uint8_t		head[HEAD_BYTES];
};

struct rintent {
	uint16_t	type;
	bool		done;
	uint64_t	id;
	uint32_t	tid;
	uint64_t	lsn;
};

struct rgeo {
	bool		have_sb;
	bool		data_dev;
	bool		v5;
	bool		meta_uuid;	/* XFS_SB_FEAT_INCOMPAT_META_UUID */
	bool		rtgroups;
	uint32_t	blocksize;
	uint32_t	inodesize;
	uint32_t	inodelog;
	uint32_t	dirblksize;
	uint32_t	agblocks;
	uint32_t	blocklog;
	uint32_t	cluster_blocks;	/* inode cluster, fs blocks */
	uint32_t	agblklog;
	uint32_t	inopblog;
	uint8_t		mp_meta_uuid[16];	/* the mount's sb_meta_uuid */
};

#define MAX_STORES	1024u

struct xls_recover {
	const struct xls_source		*src;
	struct xls_recover_opts		opt;
	struct rgeo			g;
	const struct xls_recover_sink	*sink;
	int				pass;
	/* pass 1 */
	struct kmap			cancel;
	uint32_t			quotaoffs;	/* XFS_DQTYPE_* turned off */
	/* pass 2 */
	struct kmap			bufidx;		/* (blkno, len) -> states */
	struct rstate			*states;
	uint32_t			nstates, capstates;
	uint32_t			*queue;		/* delwri list */
	uint32_t			nqueue, capqueue;
	uint64_t			recovery_lsn;	/* l_recovery_lsn */
	uint64_t			head_lsn;	/* l_curr_cycle, l_curr_block */
	struct kmap			intidx;		/* (type, id) -> intents */
	struct rintent			*intents;
	uint32_t			nintents, capintents;
	struct kmap			inolsn;		/* ino -> inolsns[] */
	uint64_t			*inolsns;	/* LSN of its last replay */
	uint32_t			ninolsns, capinolsns;
	uint32_t			seq;
	/* open transactions */
	struct tstore			*stores[MAX_STORES];
	uint32_t			nstores;
	bool				stores_full;
	/* scratch */
	struct xls_buf_analysis		*ba;
	struct xls_region_result	*res;
	struct xls_region		*regs;
	struct xls_fieldset		*fs;
	struct xls_recover_summary	sum;
	int				err;		/* -ENOMEM seen */
};

/* ------------------------------------------------------------------ */
/* names */

static const char *const decision_keys[XLS_RD_COUNT] = {
	[XLS_RD_NONE]		= "none",
	[XLS_RD_REPLAY]		= "replay",
	[XLS_RD_REPLAY_ALWAYS]	= "replay_always",
	[XLS_RD_SKIP_CANCELLED]	= "skip_cancelled",
	[XLS_RD_SKIP_LSN]	= "skip_lsn",
	[XLS_RD_CANCEL]		= "cancel",
	[XLS_RD_SKIP_QUOTAOFF]	= "skip_quotaoff",
	[XLS_RD_FAIL]		= "fail",
};

const char *xls_rdecision_key(enum xls_rdecision d)
{
	return d < XLS_RD_COUNT ? decision_keys[d] : "?";
}

/* The reasons recovery replays without an LSN check, counted apart. */
static const char *const always_reasons[] = {
	"v4", "inode_buf", "dquot_buf", "attr_rmt", "unknown_magic",
	"foreign_uuid", "rt_no_header", "lsn_null", "unread",
};
#define NALWAYS	(sizeof(always_reasons) / sizeof(always_reasons[0]))

const char *xls_rreason_name(unsigned int i)
{
	return i < NALWAYS ? always_reasons[i] : NULL;
}

static const char *always_text(const char *reason)
{
	static const struct { const char *key, *text; } t[] = {
		{ "v4",			"v4" },
		{ "inode_buf",		"inode buffer" },
		{ "dquot_buf",		"dquot buffer" },
		{ "attr_rmt",		"remote attribute block" },
		{ "unknown_magic",	"unknown magic" },
		{ "foreign_uuid",	"foreign UUID" },
		{ "rt_no_header",	"rt block without header" },
		{ "lsn_null",		"null LSN" },
		{ "unread",		"block not read" },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (strcmp(t[i].key, reason) == 0)
			return t[i].text;
	return reason;
}

void xls_rdecision_text(const struct xls_ritem *ri, char *buf, size_t bufsz)
{
	switch (ri->decision) {
	case XLS_RD_NONE:
		snprintf(buf, bufsz, "-");
		break;
	case XLS_RD_REPLAY:
		snprintf(buf, bufsz, "replay");
		break;
	case XLS_RD_REPLAY_ALWAYS:
		snprintf(buf, bufsz, "replay: always (%s)", always_text(ri->reason));
		break;
	case XLS_RD_SKIP_CANCELLED:
		snprintf(buf, bufsz, "skip: cancelled");
		break;
	case XLS_RD_SKIP_LSN:
		snprintf(buf, bufsz, "skip: on-disk LSN newer");
		break;
	case XLS_RD_CANCEL:
		snprintf(buf, bufsz, "cancel record");
		break;
	case XLS_RD_SKIP_QUOTAOFF:
		snprintf(buf, bufsz, "skip: quota off");
		break;
	case XLS_RD_FAIL:
	default:
		snprintf(buf, bufsz, "FAIL");
		break;
	}
}

const char *xls_rlist_name(enum xls_rlist l)
{
	switch (l) {
	case XLS_RL_BUFFER:	return "buffer";
	case XLS_RL_ITEM:	return "item";
	case XLS_RL_INODE_BUF:	return "inode_buffer";
	case XLS_RL_CANCEL:	return "cancel";
	}
	return "?";
}

/* ------------------------------------------------------------------ */
/* geometry */

#define SB_OFF(f)	offsetof(struct xfs_dsb, f)

/*
 * Inode cluster size in blocks, as xfs_ialloc_setup_geometry() works it
 * out: 8 KiB, scaled by the inode size on v5 when the chunk alignment
 * allows, at least one block.
 */
static uint32_t cluster_blocks(const struct xls_recover *r, const uint8_t *sb)
{
	uint32_t size = 8192;
	uint32_t align = xls_be32(sb + SB_OFF(sb_inoalignmt));

	if (!r->g.blocklog || !r->g.inodesize)
		return 0;
	if (r->g.v5 && align >= (size * (r->g.inodesize / 256)) >> r->g.blocklog)
		size *= r->g.inodesize / 256;
	return size > r->g.blocksize ? size >> r->g.blocklog : 1;
}

static void read_geometry(struct xls_recover *r)
{
	const struct xls_geometry *geo = &r->src->geo;
	uint8_t sb[BBSIZE];
	uint32_t incompat;

	r->g.v5 = geo->crc;
	memcpy(r->g.mp_meta_uuid, geo->meta_uuid, 16);
	if (!geo->has_sb || r->src->data_fd < 0 ||
	    xls_source_read_data(r->src, 0, sb, sizeof(sb)))
		return;
	r->g.have_sb = true;
	r->g.data_dev = true;
	r->g.blocksize = geo->blocksize;
	r->g.inodesize = xls_be16(sb + SB_OFF(sb_inodesize));
	r->g.inodelog = sb[SB_OFF(sb_inodelog)];
	if (r->g.inodelog < 8 || r->g.inodelog > 11 ||
	    r->g.inodesize != 1u << r->g.inodelog)
		r->g.inodesize = r->g.inodelog = 0;	/* not trusted */
	if (sb[SB_OFF(sb_dirblklog)] <= 8)
		r->g.dirblksize = geo->blocksize << sb[SB_OFF(sb_dirblklog)];
	if (r->g.dirblksize > XFS_MAX_BLOCKSIZE)
		r->g.dirblksize = 0;
	r->g.agblocks = xls_be32(sb + SB_OFF(sb_agblocks));
	r->g.blocklog = sb[SB_OFF(sb_blocklog)];
	if (r->g.blocklog < 9 || r->g.blocklog > 16 ||
	    r->g.blocksize != 1u << r->g.blocklog)
		r->g.agblocks = r->g.blocklog = 0;
	r->g.cluster_blocks = cluster_blocks(r, sb);
	r->g.agblklog = sb[SB_OFF(sb_agblklog)];
	r->g.inopblog = sb[SB_OFF(sb_inopblog)];
	if (r->g.v5) {
		incompat = xls_be32(sb + SB_OFF(sb_features_incompat));
		r->g.meta_uuid = incompat & XFS_SB_FEAT_INCOMPAT_META_UUID;
		r->g.rtgroups = incompat & XFS_SB_FEAT_INCOMPAT_METADIR;
	}
}

uint32_t xls_recover_inodesize(const struct xls_recover *r)
{
	return r->g.inodesize;
}

bool xls_recover_v5(const struct xls_recover *r)
{
	return r->g.v5;
}

/* ------------------------------------------------------------------ */
/* what a block is: xlog_recover_get_buf_lsn() */

enum blk_kind {
	BLK_LSN,		/* has an LSN and a UUID at lsn_off, uuid_off */
	BLK_ATTR_RMT,		/* recovered immediately */
	BLK_DQUOT,
	BLK_DINODE,
	BLK_UNKNOWN,
};

struct blk_id {
	enum blk_kind	kind;
	uint32_t	magic;
	const char	*name;
	uint32_t	lsn_off;
	uint32_t	uuid_off;
	uint32_t	crc_off;	/* where the read verifier finds the CRC */
	uint32_t	blkno_off;	/* the block's own daddr, 0 if none */
};

#define BTS(f)	offsetof(struct xfs_btree_block, bb_u.s.f)
#define BTL(f)	offsetof(struct xfs_btree_block, bb_u.l.f)
#define DIR3(f)	offsetof(struct xfs_dir3_blk_hdr, f)
#define DA3(f)	offsetof(struct xfs_da3_blkinfo, f)

static const struct {
	uint32_t	magic;
	const char	*name;
	uint32_t	lsn_off, uuid_off, crc_off, blkno_off;
} magic32_table[] = {
	{ XFS_RTBITMAP_MAGIC,	"rtbitmap",	RTBUF_LSN_OFF, RTBUF_UUID_OFF, 4, 16 },
	{ XFS_RTSUMMARY_MAGIC,	"rtsummary",	RTBUF_LSN_OFF, RTBUF_UUID_OFF, 4, 16 },
	{ XFS_ABTB_CRC_MAGIC,	"AB3B",	BTS(bb_lsn), BTS(bb_uuid), BTS(bb_crc), BTS(bb_blkno) },
	{ XFS_ABTC_CRC_MAGIC,	"AB3C",	BTS(bb_lsn), BTS(bb_uuid), BTS(bb_crc), BTS(bb_blkno) },
	{ XFS_ABTB_MAGIC,	"ABTB",	BTS(bb_lsn), BTS(bb_uuid), BTS(bb_crc), BTS(bb_blkno) },
	{ XFS_ABTC_MAGIC,	"ABTC",	BTS(bb_lsn), BTS(bb_uuid), BTS(bb_crc), BTS(bb_blkno) },
	{ XFS_RMAP_CRC_MAGIC,	"RMB3",	BTS(bb_lsn), BTS(bb_uuid), BTS(bb_crc), BTS(bb_blkno) },
	{ XFS_REFC_CRC_MAGIC,	"R3FC",	BTS(bb_lsn), BTS(bb_uuid), BTS(bb_crc), BTS(bb_blkno) },
	{ XFS_FIBT_CRC_MAGIC,	"FIB3",	BTS(bb_lsn), BTS(bb_uuid), BTS(bb_crc), BTS(bb_blkno) },
	{ XFS_FIBT_MAGIC,	"FIBT",	BTS(bb_lsn), BTS(bb_uuid), BTS(bb_crc), BTS(bb_blkno) },
	{ XFS_IBT_CRC_MAGIC,	"IAB3",	BTS(bb_lsn), BTS(bb_uuid), BTS(bb_crc), BTS(bb_blkno) },
	{ XFS_IBT_MAGIC,	"IABT",	BTS(bb_lsn), BTS(bb_uuid), BTS(bb_crc), BTS(bb_blkno) },
	{ XFS_RTRMAP_CRC_MAGIC,	"MAPR",	BTL(bb_lsn), BTL(bb_uuid), BTL(bb_crc), BTL(bb_blkno) },
	{ XFS_RTREFC_CRC_MAGIC,	"RCNT",	BTL(bb_lsn), BTL(bb_uuid), BTL(bb_crc), BTL(bb_blkno) },
	{ XFS_BMAP_CRC_MAGIC,	"BMA3",	BTL(bb_lsn), BTL(bb_uuid), BTL(bb_crc), BTL(bb_blkno) },
	{ XFS_BMAP_MAGIC,	"BMAP",	BTL(bb_lsn), BTL(bb_uuid), BTL(bb_crc), BTL(bb_blkno) },
	{ XFS_AGF_MAGIC,	"XAGF",	offsetof(struct xfs_agf, agf_lsn),
					offsetof(struct xfs_agf, agf_uuid),
					offsetof(struct xfs_agf, agf_crc), 0 },
	{ XFS_AGFL_MAGIC,	"XAFL",	offsetof(struct xfs_agfl, agfl_lsn),
					offsetof(struct xfs_agfl, agfl_uuid),
					offsetof(struct xfs_agfl, agfl_crc), 0 },
	{ XFS_AGI_MAGIC,	"XAGI",	offsetof(struct xfs_agi, agi_lsn),
					offsetof(struct xfs_agi, agi_uuid),
					offsetof(struct xfs_agi, agi_crc), 0 },
	{ XFS_SYMLINK_MAGIC,	"XSLM",	offsetof(struct xfs_dsymlink_hdr, sl_lsn),
					offsetof(struct xfs_dsymlink_hdr, sl_uuid),
					offsetof(struct xfs_dsymlink_hdr, sl_crc),
					offsetof(struct xfs_dsymlink_hdr, sl_blkno) },
	{ XFS_DIR3_BLOCK_MAGIC,	"XDB3",	DIR3(lsn), DIR3(uuid), DIR3(crc), DIR3(blkno) },
	{ XFS_DIR3_DATA_MAGIC,	"XDD3",	DIR3(lsn), DIR3(uuid), DIR3(crc), DIR3(blkno) },
	{ XFS_DIR3_FREE_MAGIC,	"XDF3",	DIR3(lsn), DIR3(uuid), DIR3(crc), DIR3(blkno) },
};

static const struct {
	uint16_t	magic;
	const char	*name;
} magicda_table[] = {
	{ XFS_DIR3_LEAF1_MAGIC,	"3DF1" },
	{ XFS_DIR3_LEAFN_MAGIC,	"3DFF" },
	{ XFS_ATTR3_LEAF_MAGIC,	"3BEE" },
	{ XFS_DA3_NODE_MAGIC,	"3EBE" },
};

/* Identify the block whose first bytes are @blk[0 .. @len). */
static void blk_identify(const struct rgeo *g, const uint8_t *blk, uint32_t len,
			 struct blk_id *id)
{
	uint32_t m32 = len >= 4 ? xls_be32(blk) : 0;
	uint16_t mda = len >= 10 ? xls_be16(blk + offsetof(struct xfs_da_blkinfo, magic)) : 0;
	uint16_t m16 = len >= 2 ? xls_be16(blk) : 0;

	memset(id, 0, sizeof(*id));
	id->kind = BLK_UNKNOWN;
	id->name = "unknown";
	id->magic = m32;
	for (size_t i = 0; i < sizeof(magic32_table) / sizeof(magic32_table[0]); i++) {
		if (magic32_table[i].magic != m32)
			continue;
		id->kind = BLK_LSN;
		id->name = magic32_table[i].name;
		id->lsn_off = magic32_table[i].lsn_off;
		id->uuid_off = magic32_table[i].uuid_off;
		id->crc_off = magic32_table[i].crc_off;
		id->blkno_off = magic32_table[i].blkno_off;
		goto check;
	}
	if (m32 == XFS_ATTR3_RMT_MAGIC) {
		id->kind = BLK_ATTR_RMT;
		id->name = "XARM";
		return;
	}
	if (m32 == XFS_SB_MAGIC) {
		id->kind = BLK_LSN;
		id->name = "XFSB";
		id->lsn_off = SB_OFF(sb_lsn);
		id->crc_off = SB_OFF(sb_crc);
		/* sb_meta_uuid when the filesystem has one (xfs_has_metauuid) */
		id->uuid_off = g->meta_uuid ? SB_OFF(sb_meta_uuid) : SB_OFF(sb_uuid);
		goto check;
	}
	for (size_t i = 0; i < sizeof(magicda_table) / sizeof(magicda_table[0]); i++) {
		if (magicda_table[i].magic != mda)
			continue;
		id->kind = BLK_LSN;
		id->magic = mda;
		id->name = magicda_table[i].name;
		id->lsn_off = DA3(lsn);
		id->uuid_off = DA3(uuid);
		id->crc_off = DA3(crc);
		id->blkno_off = DA3(blkno);
		goto check;
	}
	if (m16 == XFS_DQUOT_MAGIC || m16 == XFS_DINODE_MAGIC) {
		id->kind = m16 == XFS_DQUOT_MAGIC ? BLK_DQUOT : BLK_DINODE;
		id->magic = m16;
		id->name = m16 == XFS_DQUOT_MAGIC ? "DQ" : "IN";
	}
	return;
check:
	/* a header cut short by the buffer length is no header */
	if (id->lsn_off + 8 > len || id->uuid_off + 16 > len)
		id->kind = BLK_UNKNOWN;
}

/* ------------------------------------------------------------------ */
/* the verifier validate_buf_type attaches, and its warning */

static bool is_m32(uint32_t m, uint32_t a, uint32_t b)
{
	return m == a || m == b;
}

/*
 * xlog_recover_validate_buf_type(): does the magic fit the buffer type
 * (a verifier is attached, which stamps the LSN on write)?  Sets *warn to
 * the kernel's message when it does not.
 */
static bool validate_type(const struct rgeo *g, unsigned int blft,
			  const uint8_t *blk, uint32_t len, const char **warn)
{
	uint32_t m32 = len >= 4 ? xls_be32(blk) : 0;
	uint16_t m16 = len >= 2 ? xls_be16(blk) : 0;
	uint16_t mda = len >= 10 ? xls_be16(blk + offsetof(struct xfs_da_blkinfo, magic)) : 0;
	const char *w = NULL;

	*warn = NULL;
	switch (blft) {
	case XFS_BLFT_BTREE_BUF:
		switch (m32) {
		case XFS_ABTB_CRC_MAGIC: case XFS_ABTB_MAGIC:
		case XFS_ABTC_CRC_MAGIC: case XFS_ABTC_MAGIC:
		case XFS_IBT_CRC_MAGIC: case XFS_IBT_MAGIC:
		case XFS_FIBT_CRC_MAGIC: case XFS_FIBT_MAGIC:
		case XFS_BMAP_CRC_MAGIC: case XFS_BMAP_MAGIC:
		case XFS_RTRMAP_CRC_MAGIC: case XFS_RMAP_CRC_MAGIC:
		case XFS_REFC_CRC_MAGIC: case XFS_RTREFC_CRC_MAGIC:
			break;
		default:
			w = "Bad btree block magic!";
		}
		break;
	case XFS_BLFT_AGF_BUF:
		w = m32 != XFS_AGF_MAGIC ? "Bad AGF block magic!" : NULL;
		break;
	case XFS_BLFT_AGFL_BUF:
		w = m32 != XFS_AGFL_MAGIC ? "Bad AGFL block magic!" : NULL;
		break;
	case XFS_BLFT_AGI_BUF:
		w = m32 != XFS_AGI_MAGIC ? "Bad AGI block magic!" : NULL;
		break;
	case XFS_BLFT_UDQUOT_BUF:
	case XFS_BLFT_PDQUOT_BUF:
	case XFS_BLFT_GDQUOT_BUF:
		w = m16 != XFS_DQUOT_MAGIC ? "Bad DQUOT block magic!" : NULL;
		break;
	case XFS_BLFT_DINO_BUF:
		w = m16 != XFS_DINODE_MAGIC ? "Bad INODE block magic!" : NULL;
		break;
	case XFS_BLFT_SYMLINK_BUF:
		w = m32 != XFS_SYMLINK_MAGIC ? "Bad symlink block magic!" : NULL;
		break;
	case XFS_BLFT_DIR_BLOCK_BUF:
		w = !is_m32(m32, XFS_DIR2_BLOCK_MAGIC, XFS_DIR3_BLOCK_MAGIC) ?
		    "Bad dir block magic!" : NULL;
		break;
	case XFS_BLFT_DIR_DATA_BUF:
		w = !is_m32(m32, XFS_DIR2_DATA_MAGIC, XFS_DIR3_DATA_MAGIC) ?
		    "Bad dir data magic!" : NULL;
		break;
	case XFS_BLFT_DIR_FREE_BUF:
		w = !is_m32(m32, XFS_DIR2_FREE_MAGIC, XFS_DIR3_FREE_MAGIC) ?
		    "Bad dir3 free magic!" : NULL;
		break;
	case XFS_BLFT_DIR_LEAF1_BUF:
		w = !is_m32(mda, XFS_DIR2_LEAF1_MAGIC, XFS_DIR3_LEAF1_MAGIC) ?
		    "Bad dir leaf1 magic!" : NULL;
		break;
	case XFS_BLFT_DIR_LEAFN_BUF:
		w = !is_m32(mda, XFS_DIR2_LEAFN_MAGIC, XFS_DIR3_LEAFN_MAGIC) ?
		    "Bad dir leafn magic!" : NULL;
		break;
	case XFS_BLFT_DA_NODE_BUF:
		w = !is_m32(mda, XFS_DA_NODE_MAGIC, XFS_DA3_NODE_MAGIC) ?
		    "Bad da node magic!" : NULL;
		break;
	case XFS_BLFT_ATTR_LEAF_BUF:
		w = !is_m32(mda, XFS_ATTR_LEAF_MAGIC, XFS_ATTR3_LEAF_MAGIC) ?
		    "Bad attr leaf magic!" : NULL;
		break;
	case XFS_BLFT_ATTR_RMT_BUF:
		w = m32 != XFS_ATTR3_RMT_MAGIC ? "Bad attr remote magic!" : NULL;
		break;
	case XFS_BLFT_SB_BUF:
		w = m32 != XFS_SB_MAGIC ? "Bad SB block magic!" : NULL;
		break;
	case XFS_BLFT_RTBITMAP_BUF:
		w = g->rtgroups && m32 != XFS_RTBITMAP_MAGIC ? "Bad rtbitmap magic!" : NULL;
		break;
	case XFS_BLFT_RTSUMMARY_BUF:
		w = g->rtgroups && m32 != XFS_RTSUMMARY_MAGIC ? "Bad rtsummary magic!" : NULL;
		break;
	default:
		*warn = "Unknown buffer type!";
		return false;
	}
	*warn = w;
	return w == NULL;
}

/* ------------------------------------------------------------------ */
/* simulated buffer heads */

static struct rstate *state_get(struct xls_recover *r, int64_t blkno, uint32_t len)
{
	struct kslot *s = kmap_find(&r->bufidx, (uint64_t)blkno, len);
	struct rstate *st;
	uint64_t bytes = (uint64_t)len * BBSIZE;

	if (s)
		return &r->states[s->v];
	st = vec_push((void **)&r->states, &r->nstates, &r->capstates, sizeof(*st));
	if (!st)
		return NULL;
	if (kmap_put(&r->bufidx, (uint64_t)blkno, len, r->nstates - 1)) {
		r->nstates--;
		return NULL;
	}
	memset(st, 0, offsetof(struct rstate, head));
	st->blkno = blkno;
	st->len = len;
	st->head_len = bytes < HEAD_BYTES ? (uint32_t)bytes : HEAD_BYTES;
	memset(st->head, 0, HEAD_BYTES);
	if (r->g.data_dev && blkno >= 0 && (uint64_t)blkno < (UINT64_MAX >> 10) &&
	    st->head_len > 0)
		st->readable = xls_source_read_data(r->src, (uint64_t)blkno * BBSIZE,
						    st->head, st->head_len) == 0;
	return st;
}

/* The block's LSN as the write verifier leaves it: xfs_buf_delwri_submit. */
static void flush_queue(struct xls_recover *r)
{
	for (uint32_t i = 0; i < r->nqueue; i++) {
		struct rstate *st = &r->states[r->queue[i]];
		struct blk_id id;

		st->queued = false;
		if (!st->has_ops || !st->stamp_lsn)
			continue;
		blk_identify(&r->g, st->head, st->head_len, &id);
		if (id.kind != BLK_LSN)
			continue;
		for (int b = 0; b < 8; b++)
			st->head[id.lsn_off + b] = (uint8_t)(st->stamp_lsn >> (56 - 8 * b));
		st->stamp_lsn = 0;
	}
	r->nqueue = 0;
}

static void queue_state(struct xls_recover *r, struct rstate *st)
{
	uint32_t *q;

	if (st->queued)
		return;
	q = vec_push((void **)&r->queue, &r->nqueue, &r->capqueue, sizeof(*q));
	if (!q) {
		r->err = -ENOMEM;
		return;
	}
	*q = (uint32_t)(st - r->states);
	st->queued = true;
}

/* ------------------------------------------------------------------ */
/* open transactions */

static struct tstore *store_find(struct xls_recover *r, const struct xls_trans *t,
				 bool create)
{
	struct tstore *free_slot = NULL;

	for (uint32_t i = 0; i < r->nstores; i++) {
		struct tstore *ts = r->stores[i];

		if (ts->used && ts->tid == t->tid && ts->lsn == t->lsn)
			return ts;
		if (!ts->used && !free_slot)
			free_slot = ts;
	}
	if (!create)
		return NULL;
	if (!free_slot) {
		if (r->nstores == MAX_STORES)
			return NULL;
		free_slot = calloc(1, sizeof(*free_slot));
		if (!free_slot) {
			r->err = -ENOMEM;
			return NULL;
		}
		r->stores[r->nstores++] = free_slot;
	}
	free_slot->used = true;
	free_slot->tid = t->tid;
	free_slot->lsn = t->lsn;
	free_slot->nrecs = free_slot->nrlens = free_slot->nbytes = free_slot->nunl = 0;
	return free_slot;
}

static void store_release(struct tstore *ts)
{
	ts->used = false;
}

static void stores_free(struct xls_recover *r)
{
	for (uint32_t i = 0; i < r->nstores; i++) {
		free(r->stores[i]->recs);
		free(r->stores[i]->rlens);
		free(r->stores[i]->bytes);
		free(r->stores[i]->unl);
		free(r->stores[i]);
	}
	r->nstores = 0;
}

/* ------------------------------------------------------------------ */
/* capturing items as they stream by */

static bool is_intent(uint16_t type)
{
	switch (type) {
	case XFS_LI_EFI: case XFS_LI_RUI: case XFS_LI_CUI: case XFS_LI_BUI:
	case XFS_LI_ATTRI: case XFS_LI_XMI: case XFS_LI_EFI_RT:
	case XFS_LI_RUI_RT: case XFS_LI_CUI_RT:
		return true;
	}
	return false;
}

/* Every done type is its intent's type + 1 (xfs_log_format.h). */
static bool is_done(uint16_t type)
{
	return type != XFS_LI_EFI && is_intent((uint16_t)(type - 1));
}

/* Item types xlog_recover_item_ops[] knows; others fail the reorder. */
static bool has_recover_ops(uint16_t type)
{
	switch (type) {
	case XFS_LI_BUF: case XFS_LI_INODE: case XFS_LI_DQUOT:
	case XFS_LI_QUOTAOFF: case XFS_LI_ICREATE:
		return true;
	}
	return is_intent(type) || is_done(type);
}

/* The logged bytes of chunks 0..3, which decide magic, LSN and UUID. */
static void capture_patch(struct xls_recover *r, struct tstore *ts,
			  struct rrec *rec, const struct xls_item *it,
			  const struct xls_region_result *res)
{
	uint8_t patch[HEAD_BYTES];
	uint8_t mask = 0;

	memset(patch, 0, sizeof(patch));
	for (uint32_t i = 0; i < res->nplaces && i + 1 < it->nregions; i++) {
		const struct xls_region_place *p = &res->places[i];

		if (p->offset >= HEAD_BYTES || p->nchunks == 0)
			continue;
		for (uint32_t c = 0; c < p->nchunks && p->first_chunk + c < HEAD_CHUNKS; c++) {
			uint32_t off = (p->first_chunk + c) << XFS_BLF_SHIFT;

			memcpy(patch + off, it->regions[i + 1].data +
			       ((uint64_t)c << XFS_BLF_SHIFT), XFS_BLF_CHUNK);
			mask |= (uint8_t)(1u << (p->first_chunk + c));
		}
	}
	rec->patch_mask = mask;
	rec->patch_off = UINT32_MAX;
	if (!mask)
		return;
	rec->patch_off = pool_add(&ts->bytes, &ts->nbytes, &ts->capbytes, patch,
				  HEAD_BYTES);
	if (rec->patch_off == UINT32_MAX) {
		rec->patch_mask = 0;
		r->err = -ENOMEM;
	}
}

/* history: the logged bytes of every place, concatenated. */
static void capture_data(struct xls_recover *r, struct tstore *ts,
			 struct rrec *rec, const struct xls_item *it,
			 const struct xls_region_result *res)
{
	rec->data_off = UINT32_MAX;
	rec->data_len = 0;
	for (uint32_t i = 0; i < res->nplaces && i + 1 < it->nregions; i++) {
		uint32_t off;

		/* a region shorter than a chunk is placed with nothing to copy */
		if (!res->places[i].len)
			continue;
		off = pool_add(&ts->bytes, &ts->nbytes, &ts->capbytes,
			       it->regions[i + 1].data, res->places[i].len);

		if (off == UINT32_MAX) {
			r->err = -ENOMEM;
			return;
		}
		if (rec->data_off == UINT32_MAX)
			rec->data_off = off;
		rec->data_len += res->places[i].len;
	}
}

/*
 * xlog_recover_do_inode_buffer(): for each inode slot, the bitmap run
 * that holds its di_next_unlinked, and the value logged there.  Like the
 * kernel, the region index counts runs, not regions, so a run split over
 * two regions makes it read the wrong region: readable says so.
 */
static void capture_unlinked(struct xls_recover *r, struct tstore *ts,
			     struct rrec *rec, const struct xls_item *it)
{
	const uint32_t *map = rec->blf.blf_data_map;
	unsigned int words = rec->blf.map_words;
	uint32_t inodes, item_index = 0, reg_off = 0, reg_bytes = 0, nbits = 0;
	int bit = 0;

	rec->unl_off = ts->nunl;
	rec->nunl = 0;
	if (!r->g.inodesize)
		return;
	inodes = ((uint32_t)rec->blf.blf_len * BBSIZE) >> r->g.inodelog;
	for (uint32_t i = 0; i < inodes; i++) {
		uint32_t nu = i * r->g.inodesize + offsetof(struct xfs_dinode, di_next_unlinked);
		struct xls_runlinked *u;
		const struct xls_region *reg;
		uint64_t roff;

		while (nu >= reg_off + reg_bytes) {
			bit = xls_next_bit(map, words, (unsigned int)bit + nbits);
			if (bit < 0)
				return;
			nbits = xls_contig_bits(map, words, (unsigned int)bit);
			reg_off = (uint32_t)bit << XFS_BLF_SHIFT;
			reg_bytes = nbits << XFS_BLF_SHIFT;
			item_index++;
		}
		if (nu < reg_off)
			continue;
		u = vec_push((void **)&ts->unl, &ts->nunl, &ts->capunl, sizeof(*u));
		if (!u) {
			r->err = -ENOMEM;
			return;
		}
		rec->nunl++;
		u->slot = i;
		u->offset = nu;
		u->value = 0;
		reg = item_index < it->nregions ? &it->regions[item_index] : NULL;
		roff = (uint64_t)nu - reg_off;
		u->readable = reg && reg->data && roff + 4 <= reg->len;
		if (u->readable) {
			u->value = xls_be32(reg->data + roff);
			if (u->value == 0)
				rec->unl_zero = true;
		}
	}
}

static void capture_buf(struct xls_recover *r, struct tstore *ts,
			struct rrec *rec, const struct xls_item *it)
{
	struct xls_buf_analysis *ba = r->ba;
	uint32_t flen = it->nregions ? it->regions[0].len : 0;

	xls_buf_analyse(it, ba);
	rec->parsed = ba->parsed;
	rec->patch_off = rec->data_off = UINT32_MAX;
	/* xfs_buf_log_check_iovec: the fixed part and blf_map_size words */
	rec->bad_iovec = !ba->parsed || flen < BLF_FIXED ||
			 (uint64_t)BLF_FIXED + 4ull * ba->blf.blf_map_size > flen;
	if (!ba->parsed)
		return;
	rec->blf = ba->blf;
	rec->rlen_off = ts->nrlens;
	rec->nrlen = 0;
	for (uint32_t i = 1; i < it->nregions; i++) {
		uint32_t *l = vec_push((void **)&ts->rlens, &ts->nrlens,
				       &ts->caprlens, sizeof(*l));

		if (!l) {
			r->err = -ENOMEM;
			return;
		}
		*l = it->regions[i].len;
		rec->nrlen++;
	}
	if (ba->blf.blf_flags & XFS_BLF_CANCEL)
		return;
	if (ba->blf.blf_flags & XFS_BLF_INODE_BUF)
		capture_unlinked(r, ts, rec, it);
	else
		capture_patch(r, ts, rec, it, &ba->res);
	if (r->opt.keep && ba->blf.blf_blkno == r->opt.keep_blkno)
		capture_data(r, ts, rec, it, &ba->res);
}

/* Fields of struct xfs_inode_log_format, 64-bit or packed i386 layout. */
static void capture_inode(struct xls_recover *r, struct rrec *rec,
			  const struct xls_item *it)
{
	const struct xls_region *f = &it->regions[0];
	enum xls_endian e = it->endian;
	size_t ino, blkno, len, boff;

	(void)r;
	if (f->len == sizeof(struct xfs_inode_log_format)) {
		ino = offsetof(struct xfs_inode_log_format, ilf_ino);
		blkno = offsetof(struct xfs_inode_log_format, ilf_blkno);
		len = offsetof(struct xfs_inode_log_format, ilf_len);
		boff = offsetof(struct xfs_inode_log_format, ilf_boffset);
	} else if (f->len == sizeof(struct xfs_inode_log_format_32)) {
		ino = offsetof(struct xfs_inode_log_format_32, ilf_ino);
		blkno = offsetof(struct xfs_inode_log_format_32, ilf_blkno);
		len = offsetof(struct xfs_inode_log_format_32, ilf_len);
		boff = offsetof(struct xfs_inode_log_format_32, ilf_boffset);
	} else {
		snprintf(rec->what, sizeof(rec->what),
			 "inode format region of %u bytes", f->len);
		return;
	}
	rec->has_ino = true;
	rec->ino = xls_get64(e, f->data + ino);
	rec->iblkno = (int64_t)xls_get64(e, f->data + blkno);
	rec->ilen = xls_get32(e, f->data + len);
	rec->iboff = xls_get32(e, f->data + boff);
	if (it->nregions > 1 && it->regions[1].len >=
	    offsetof(struct xfs_log_dinode, di_flushiter) + 2)
		rec->ldi_flushiter = xls_get16(e, it->regions[1].data +
					       offsetof(struct xfs_log_dinode, di_flushiter));
	snprintf(rec->what, sizeof(rec->what), "ino 0x%llx in buffer 0x%llx+%u",
		 (unsigned long long)rec->ino, (unsigned long long)rec->iblkno,
		 rec->iboff);
}

/* history: the inode item's regions, when it writes into the kept buffer. */
static void keep_inode(struct xls_recover *r, struct tstore *ts, struct rrec *rec,
		       const struct xls_item *it)
{
	const struct xls_region *f = &it->regions[0];
	struct xls_rinode *k = &rec->ino_keep;
	size_t fields_off = f->len == sizeof(struct xfs_inode_log_format) ?
			    offsetof(struct xfs_inode_log_format, ilf_fields) :
			    offsetof(struct xfs_inode_log_format_32, ilf_fields);
	size_t rdev_off = f->len == sizeof(struct xfs_inode_log_format) ?
			  offsetof(struct xfs_inode_log_format, ilf_u.ilfu_rdev) :
			  offsetof(struct xfs_inode_log_format_32, ilf_u.ilfu_rdev);

	memset(k, 0, sizeof(*k));
	k->endian = it->endian;
	k->fields = xls_get32(it->endian, f->data + fields_off);
	k->rdev = xls_get32(it->endian, f->data + rdev_off);
	k->nregions = it->nregions < 4 ? it->nregions : 4;
	for (uint32_t i = 1; i < k->nregions; i++) {
		rec->ino_off[i] = pool_add(&ts->bytes, &ts->nbytes, &ts->capbytes,
					   it->regions[i].data, it->regions[i].len);
		if (rec->ino_off[i] == UINT32_MAX) {
			r->err = -ENOMEM;
			return;
		}
		k->reg_len[i] = it->regions[i].len;
	}
	rec->kept_inode = true;
}

static void capture_other(struct xls_recover *r, struct tstore *ts, struct rrec *rec,
			  const struct xls_item *it)
{
	const struct xls_region *f = &it->regions[0];
	const char *name = xls_item_type_name(it->type);

	if (it->type == XFS_LI_INODE) {
		capture_inode(r, rec, it);
		if (rec->has_ino && r->pass == 2 && r->opt.keep &&
		    rec->iblkno == r->opt.keep_blkno)
			keep_inode(r, ts, rec, it);
		return;
	}
	if ((is_intent(it->type) || is_done(it->type)) && f->len >= 16) {
		rec->has_id = true;
		rec->id = xls_get64(it->endian, f->data + 8);
		return;
	}
	if (it->type == XFS_LI_QUOTAOFF && f->len >= 8) {
		rec->qoff_flags = xls_get32(it->endian, f->data + 4);
		snprintf(rec->what, sizeof(rec->what), "quota off, flags 0x%x",
			 rec->qoff_flags);
		return;
	}
	if (it->type == XFS_LI_ICREATE && f->len >= sizeof(struct xfs_icreate_log)) {
		rec->has_icl = true;
		rec->icl.ag = xls_be32(f->data + offsetof(struct xfs_icreate_log, icl_ag));
		rec->icl.agbno = xls_be32(f->data + offsetof(struct xfs_icreate_log, icl_agbno));
		rec->icl.count = xls_be32(f->data + offsetof(struct xfs_icreate_log, icl_count));
		rec->icl.length = xls_be32(f->data + offsetof(struct xfs_icreate_log, icl_length));
		rec->icl.isize = xls_be32(f->data + offsetof(struct xfs_icreate_log, icl_isize));
		rec->icl.gen = xls_be32(f->data + offsetof(struct xfs_icreate_log, icl_gen));
		snprintf(rec->what, sizeof(rec->what),
			 "initialise %u inodes at AG %u block 0x%x",
			 xls_be32(f->data + offsetof(struct xfs_icreate_log, icl_count)),
			 xls_be32(f->data + offsetof(struct xfs_icreate_log, icl_ag)),
			 xls_be32(f->data + offsetof(struct xfs_icreate_log, icl_agbno)));
		return;
	}
	if (!name)
		snprintf(rec->what, sizeof(rec->what), "unknown item type 0x%04x",
			 it->type);
}

static int on_item(void *ctx, const struct xls_trans *t, const struct xls_item *it)
{
	struct xls_recover *r = ctx;
	struct tstore *ts = store_find(r, t, true);
	struct rrec *rec;

	if (!ts) {
		r->stores_full = true;
		return 0;
	}
	rec = vec_push((void **)&ts->recs, &ts->nrecs, &ts->caprecs, sizeof(*rec));
	if (!rec) {
		r->err = -ENOMEM;
		return 0;
	}
	memset(rec, 0, sizeof(*rec));
	rec->type = it->type;
	rec->index = t->nitems + 1;
	rec->unknown_type = !has_recover_ops(it->type);
	rec->patch_off = rec->data_off = UINT32_MAX;
	if (!it->nregions || !it->regions[0].data)
		return 0;
	if (it->type == XFS_LI_BUF) {
		if (r->pass == 1) {
			/* pass 1 needs only the format: blkno, len, flags */
			r->ba->parsed = xls_buf_format_parse(it, &rec->blf,
							     &r->ba->why) == 0;
			rec->parsed = r->ba->parsed;
			rec->bad_iovec = !rec->parsed ||
				(uint64_t)BLF_FIXED + 4ull * rec->blf.blf_map_size >
				it->regions[0].len;
			return 0;
		}
		capture_buf(r, ts, rec, it);
		return 0;
	}
	capture_other(r, ts, rec, it);
	return 0;
}

/* ------------------------------------------------------------------ */
/* findings and failure */

static int report(struct xls_recover *r, const struct xls_trans *t,
		  const char *kind, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int report(struct xls_recover *r, const struct xls_trans *t,
		  const char *kind, const char *fmt, ...)
{
	struct xls_finding f = {
		.kind = kind, .lsn = t ? t->lsn : 0, .offset = -1,
		.has_tid = t != NULL, .tid = t ? t->tid : 0,
	};
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(f.msg, sizeof(f.msg), fmt, ap);
	va_end(ap);
	return r->sink->finding ? r->sink->finding(r->sink->ctx, &f) : 0;
}

/* Recovery stops at the first of these; later ones are still shown. */
static void fail(struct xls_recover *r, uint64_t lsn, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void fail(struct xls_recover *r, uint64_t lsn, const char *fmt, ...)
{
	va_list ap;

	if (r->sum.fails)
		return;
	r->sum.fails = true;
	r->sum.fail_lsn = lsn;
	va_start(ap, fmt);
	vsnprintf(r->sum.fail_why, sizeof(r->sum.fail_why), fmt, ap);
	va_end(ap);
}

/* ------------------------------------------------------------------ */
/* pass 1 */

static int pass1_commit(struct xls_recover *r, const struct xls_trans *t,
			struct tstore *ts);

static int pass1_end(struct xls_recover *r, const struct xls_trans *t)
{
	struct tstore *ts = store_find(r, t, false);

	if (t->state == XLS_TRANS_CORRUPT)
		fail(r, t->lsn, "transaction 0x%08x at %u/%u is corrupt (%s): pass 1 stops",
		     t->tid, xls_lsn_cycle(t->lsn), xls_lsn_block(t->lsn),
		     t->why ? t->why : "?");
	/* the header alone is an item with no regions to the kernel */
	if (t->state == XLS_TRANS_COMMITTED && !t->nitems)
		fail(r, t->lsn, "transaction 0x%08x at %u/%u has no items: committed log item has no regions",
		     t->tid, xls_lsn_cycle(t->lsn), xls_lsn_block(t->lsn));
	if (!ts)
		return 0;
	if (t->state != XLS_TRANS_COMMITTED) {
		store_release(ts);
		return 0;
	}
	return pass1_commit(r, t, ts);
}

/* A committed transaction in pass 1: cancel records, quotaoff, checks. */
static int pass1_commit(struct xls_recover *r, const struct xls_trans *t,
			struct tstore *ts)
{
	for (uint32_t i = 0; i < ts->nrecs; i++) {
		struct rrec *rec = &ts->recs[i];
		struct kslot *s;

		if (rec->unknown_type) {
			fail(r, t->lsn, "transaction 0x%08x: unrecognized type of log operation (0x%04x)",
			     t->tid, rec->type);
			continue;
		}
		if (rec->type == XFS_LI_QUOTAOFF && rec->qoff_flags) {
			if (rec->qoff_flags & XFS_UQUOTA_ACCT)
				r->quotaoffs |= XFS_DQTYPE_USER;
			if (rec->qoff_flags & XFS_PQUOTA_ACCT)
				r->quotaoffs |= XFS_DQTYPE_PROJ;
			if (rec->qoff_flags & XFS_GQUOTA_ACCT)
				r->quotaoffs |= XFS_DQTYPE_GROUP;
		}
		if (rec->type != XFS_LI_BUF)
			continue;
		if (rec->bad_iovec) {
			fail(r, t->lsn, "transaction 0x%08x: bad buffer log item size",
			     t->tid);
			continue;
		}
		if (!(rec->blf.blf_flags & XFS_BLF_CANCEL))
			continue;
		s = kmap_find(&r->cancel, (uint64_t)rec->blf.blf_blkno, rec->blf.blf_len);
		if (s)
			s->v++;
		else if (kmap_put(&r->cancel, (uint64_t)rec->blf.blf_blkno,
				  rec->blf.blf_len, 1))
			r->err = -ENOMEM;
	}
	store_release(ts);
	return 0;
}

static int cmp_cancel(const void *a, const void *b)
{
	const struct xls_rcancel *x = a, *y = b;

	if (x->blkno != y->blkno)
		return x->blkno < y->blkno ? -1 : 1;
	return (x->len > y->len) - (x->len < y->len);
}

static int emit_cancel_table(struct xls_recover *r)
{
	struct xls_rcancel *c;
	uint32_t n = 0;
	int rc = 0;

	r->sum.cancel_entries = r->cancel.used;
	if (!r->cancel.used)
		return 0;
	c = malloc(sizeof(*c) * r->cancel.used);
	if (!c)
		return -ENOMEM;
	for (uint32_t i = 0; i < r->cancel.cap; i++) {
		if (r->cancel.s[i].st != 1)
			continue;
		c[n].blkno = (int64_t)r->cancel.s[i].a;
		c[n].len = (uint32_t)r->cancel.s[i].b;
		c[n].refs = r->cancel.s[i].v;
		r->sum.cancel_refs += c[n].refs;
		n++;
	}
	qsort(c, n, sizeof(*c), cmp_cancel);
	for (uint32_t i = 0; i < n && !rc && r->sink->cancel; i++)
		rc = r->sink->cancel(r->sink->ctx, &c[i]);
	free(c);
	return rc;
}

/* ------------------------------------------------------------------ */
/* compound buffers: one format per extent of a multi-extent block */

static bool is_dir_type(unsigned int blft)
{
	switch (blft) {
	case XFS_BLFT_DIR_BLOCK_BUF: case XFS_BLFT_DIR_DATA_BUF:
	case XFS_BLFT_DIR_FREE_BUF: case XFS_BLFT_DIR_LEAF1_BUF:
	case XFS_BLFT_DIR_LEAFN_BUF: case XFS_BLFT_DA_NODE_BUF:
		return true;
	}
	return false;
}

/* The first bytes the item will leave in its buffer: state, then patch. */
static void item_head(struct xls_recover *r, const struct tstore *ts,
		      const struct rrec *rec, struct rstate *st, uint8_t *out)
{
	memcpy(out, st->head, HEAD_BYTES);
	if (rec->patch_off == UINT32_MAX)
		return;
	for (uint32_t c = 0; c < HEAD_CHUNKS; c++)
		if (rec->patch_mask & (1u << c))
			memcpy(out + (c << XFS_BLF_SHIFT),
			       ts->bytes + rec->patch_off + (c << XFS_BLF_SHIFT),
			       XFS_BLF_CHUNK);
	(void)r;
}

/*
 * Does the segment carry the block's header: the magic its type expects
 * and, on v5, the header's own daddr equal to the segment's (dir3 and da3
 * headers record xfs_buf_daddr(), the first extent's daddr)?
 */
static bool seg_is_block_start(struct xls_recover *r, const struct tstore *ts,
			       const struct rrec *rec)
{
	struct rstate *st = state_get(r, rec->blf.blf_blkno, rec->blf.blf_len);
	uint8_t head[HEAD_BYTES];
	unsigned int blft = xls_blft(rec->blf.blf_flags);
	const char *warn;
	uint64_t hblkno;

	if (!st)
		return false;
	item_head(r, ts, rec, st, head);
	if (!validate_type(&r->g, blft, head, st->head_len, &warn))
		return false;
	if (!r->g.v5)
		return true;
	hblkno = blft == XFS_BLFT_DIR_LEAF1_BUF || blft == XFS_BLFT_DIR_LEAFN_BUF ||
		 blft == XFS_BLFT_DA_NODE_BUF ? xls_be64(head + DA3(blkno)) :
		 xls_be64(head + DIR3(blkno));
	return hblkno == (uint64_t)rec->blf.blf_blkno;
}

static void close_group(struct xls_recover *r, struct tstore *ts, uint32_t first,
			uint32_t n, uint32_t *ncompound)
{
	struct rrec *head = &ts->recs[first];
	uint32_t total = 0;
	bool exact;

	if (!n)
		return;
	/* one da_node block start alone may well be a whole attr block */
	if (n == 1 && head->block_start &&
	    xls_blft(head->blf.blf_flags) == XFS_BLFT_DA_NODE_BUF)
		return;
	for (uint32_t i = 0; i < n; i++)
		total += (uint32_t)ts->recs[first + i].blf.blf_len * BBSIZE;
	exact = head->block_start && total == r->g.dirblksize;
	(*ncompound)++;
	r->sum.compound_buffers++;
	r->sum.compound_segments += n;
	total = 0;
	for (uint32_t i = 0; i < n; i++) {
		struct rrec *s = &ts->recs[first + i];

		s->compound = *ncompound;
		s->seg = i + 1;
		s->nseg = n;
		s->seg_offset = total;
		s->seg_exact = exact || (head->block_start && i == 0);
		total += (uint32_t)s->blf.blf_len * BBSIZE;
	}
}

static void find_compounds(struct xls_recover *r, struct tstore *ts)
{
	uint32_t first = 0, n = 0, bytes = 0, ncompound = 0;
	uint16_t flags = 0;

	if (!r->g.dirblksize || r->g.dirblksize <= r->g.blocksize)
		return;
	for (uint32_t i = 0; i < ts->nrecs; i++) {
		struct rrec *rec = &ts->recs[i];
		uint32_t seg_bytes = (uint32_t)rec->blf.blf_len * BBSIZE;
		bool cand = rec->type == XFS_LI_BUF && rec->parsed &&
			    !(rec->blf.blf_flags & XFS_BLF_INODE_BUF) &&
			    is_dir_type(xls_blft(rec->blf.blf_flags)) &&
			    seg_bytes < r->g.dirblksize;

		if (!cand) {
			close_group(r, ts, first, n, &ncompound);
			n = 0;
			continue;
		}
		rec->block_start = !(rec->blf.blf_flags & XFS_BLF_CANCEL) &&
				   seg_is_block_start(r, ts, rec);
		if (n && rec->blf.blf_flags == flags && !rec->block_start &&
		    bytes + seg_bytes <= r->g.dirblksize) {
			n++;
			bytes += seg_bytes;
			continue;
		}
		close_group(r, ts, first, n, &ncompound);
		first = i;
		n = 1;
		bytes = seg_bytes;
		flags = rec->blf.blf_flags;
	}
	close_group(r, ts, first, n, &ncompound);
}

/* ------------------------------------------------------------------ */
/* pass 2: deciding */

struct decide_ctx {
	struct xls_recover	*r;
	const struct xls_trans	*t;
	struct tstore		*ts;
	struct xls_rtrans	*rt;
	struct xls_rbuf		rb;
	struct xls_ritem	ri;
	struct xls_rinode	ino;
};

static void lsn_str(uint64_t lsn, char *buf, size_t bufsz)
{
	if (lsn == NULL_LSN)
		snprintf(buf, bufsz, "-1");
	else
		snprintf(buf, bufsz, "%u/%u", xls_lsn_cycle(lsn), xls_lsn_block(lsn));
}

static void set_always(struct decide_ctx *d, const char *reason, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void set_always(struct decide_ctx *d, const char *reason, const char *fmt, ...)
{
	va_list ap;

	d->ri.decision = XLS_RD_REPLAY_ALWAYS;
	d->ri.reason = reason;
	va_start(ap, fmt);
	vsnprintf(d->ri.detail, sizeof(d->ri.detail), fmt, ap);
	va_end(ap);
	for (unsigned int i = 0; i < NALWAYS; i++)
		if (strcmp(always_reasons[i], reason) == 0)
			d->r->sum.always_by_reason[i]++;
}

/* xlog_recover_get_buf_lsn() on the simulated block, into a decision. */
static void decide_by_block(struct decide_ctx *d, struct rstate *st)
{
	struct xls_recover *r = d->r;
	struct xls_rbuf *rb = &d->rb;
	unsigned int blft = rb->blft;
	struct blk_id id;
	char a[24], b[24], u[40];
	const char *where;

	rb->block_read = st->readable || st->replayed;
	rb->from_replay = st->replayed;
	where = st->replayed ? "as recovery left it" : "on disk";
	blk_identify(&r->g, st->head, st->head_len, &id);
	rb->magic = id.magic;
	rb->magic_name = id.name;
	if (!r->g.data_dev) {
		set_always(d, "unread", "no data device to read the block from: recovery "
			   "replays it unless the block carries a newer LSN");
		return;
	}
	if (!r->g.v5) {
		set_always(d, "v4", "v4 filesystem: no LSN to compare");
		return;
	}
	if (!rb->block_read) {
		set_always(d, "unread", "the block cannot be read: recovery would fail to read it");
		return;
	}
	if (!r->g.rtgroups && (blft == XFS_BLFT_RTBITMAP_BUF ||
			       blft == XFS_BLFT_RTSUMMARY_BUF)) {
		set_always(d, "rt_no_header", "rt bitmap and summary blocks carry no LSN");
		return;
	}
	switch (id.kind) {
	case BLK_ATTR_RMT:
		set_always(d, "attr_rmt", "remote attribute block (%s): written synchronously, no LSN", where);
		return;
	case BLK_DQUOT:
		set_always(d, "dquot_buf", "dquot block (%s): each dquot has its own LSN", where);
		return;
	case BLK_DINODE:
		set_always(d, "inode_buf", "inode block (%s): each inode has its own LSN", where);
		return;
	case BLK_UNKNOWN:
		set_always(d, "unknown_magic", "no known magic at the block start %s (0x%08x)",
			   where, id.magic);
		return;
	case BLK_LSN:
		break;
	}
	if (memcmp(st->head + id.uuid_off, r->g.mp_meta_uuid, 16) != 0) {
		uuid_unparse_lower(st->head + id.uuid_off, u);
		set_always(d, "foreign_uuid", "%s block %s carries UUID %s, not this filesystem's",
			   id.name, where, u);
		return;
	}
	rb->has_lsn = true;
	rb->block_lsn = xls_be64(st->head + id.lsn_off);
	lsn_str(rb->block_lsn, a, sizeof(a));
	lsn_str(d->t->lsn, b, sizeof(b));
	if (rb->block_lsn == NULL_LSN) {
		set_always(d, "lsn_null", "%s block %s has LSN -1", id.name, where);
		return;
	}
	if (rb->block_lsn != 0 && rb->block_lsn >= d->t->lsn) {
		d->ri.decision = XLS_RD_SKIP_LSN;
		d->ri.reason = "lsn_newer";
		snprintf(d->ri.detail, sizeof(d->ri.detail), "%s block LSN %s %s >= %s",
			 id.name, a, where, b);
		return;
	}
	d->ri.decision = XLS_RD_REPLAY;
	d->ri.reason = rb->block_lsn ? "lsn_older" : "lsn_zero";
	snprintf(d->ri.detail, sizeof(d->ri.detail), "%s block LSN %s %s < %s",
		 id.name, a, where, b);
}

/*
 * The write verifier of a replayed v5 buffer checks the header it writes:
 * the UUID is this filesystem's and the recorded daddr the buffer's own
 * (xfs_dir3_data_verify, xfs_btree_sblock_v5hdr_verify, ...).  A replay
 * that leaves a foreign header fails recovery when the buffer is written.
 */
static void check_written(struct decide_ctx *d, struct rstate *st)
{
	struct xls_recover *r = d->r;
	struct blk_id id;

	if (!st->readable && !st->replayed)
		return;
	blk_identify(&r->g, st->head, st->head_len, &id);
	if (id.kind != BLK_LSN)
		return;
	if (memcmp(st->head + id.uuid_off, r->g.mp_meta_uuid, 16) != 0) {
		d->ri.fail_why = "the write verifier finds the header still carrying a foreign "
				 "UUID after replay: metadata corruption, recovery fails";
	} else if (id.blkno_off && id.blkno_off + 8 <= st->head_len &&
		   xls_be64(st->head + id.blkno_off) != (uint64_t)st->blkno) {
		d->ri.fail_why = "the write verifier finds another daddr in the header after "
				 "replay: metadata corruption, recovery fails";
	} else {
		return;
	}
	fail(r, d->t->lsn, "transaction 0x%08x: buffer 0x%llx fails its write verifier",
	     d->t->tid, (unsigned long long)st->blkno);
}

/* Replay into the simulated head; validate and queue as the kernel does. */
static void apply_replay(struct decide_ctx *d, const struct rrec *rec,
			 struct rstate *st)
{
	struct xls_recover *r = d->r;
	struct xls_rbuf *rb = &d->rb;
	const char *warn = NULL;
	bool dquot = rec->blf.blf_flags &
		     (XFS_BLF_UDQUOT_BUF | XFS_BLF_PDQUOT_BUF | XFS_BLF_GDQUOT_BUF);

	if (rec->blf.blf_flags & XFS_BLF_INODE_BUF) {
		/* only di_next_unlinked fields: magic and LSN stay as they are */
		st->has_ops = false;
		queue_state(r, st);
		/* v5 attaches the inode buffer verifier, which wants inodes */
		if (r->g.v5 && (st->head_len < 2 || xls_be16(st->head) != XFS_DINODE_MAGIC)) {
			d->ri.fail_why = "the inode buffer verifier finds no inode where it writes "
					 "the buffer: metadata corruption, recovery fails";
			fail(r, d->t->lsn, "transaction 0x%08x: inode buffer 0x%llx holds no inodes",
			     d->t->tid, (unsigned long long)rec->blf.blf_blkno);
		}
		return;
	}
	item_head(r, d->ts, rec, st, st->head);
	if (rec->patch_mask)
		st->replayed = true;
	if (dquot) {
		/* xlog_recover_do_dquot_buffer: NULLCOMMITLSN, nothing stamped */
		queue_state(r, st);
		return;
	}
	if (r->g.v5) {
		st->has_ops = validate_type(&r->g, rb->blft, st->head, st->head_len, &warn);
		rb->kernel_warning = warn;
		if (warn)
			r->sum.kernel_warnings++;
		if (st->has_ops) {
			st->stamp_lsn = d->t->lsn;
			check_written(d, st);
		}
	}
	queue_state(r, st);
}

static void seg_notes(struct decide_ctx *d, const struct rrec *rec)
{
	struct xls_rbuf *rb = &d->rb;
	bool replayed = d->ri.decision == XLS_RD_REPLAY ||
			d->ri.decision == XLS_RD_REPLAY_ALWAYS;
	unsigned int blft = rb->blft;

	if (!rec->compound)
		return;
	rb->compound = rec->compound;
	rb->seg = rec->seg;
	rb->nseg = rec->nseg;
	rb->block_bytes = d->r->g.dirblksize;
	rb->seg_offset = rec->seg_offset;
	rb->seg_offset_exact = rec->seg_exact;
	rb->block_start = rec->block_start;
	if (rec->blf.blf_flags & XFS_BLF_CANCEL) {
		rb->seg_note = "a cancel of one extent of the block";
		return;
	}
	if (!rec->block_start) {
		rb->seg_note = "starts inside the block: recovery reads it as a buffer of its own, "
			       "where the magic its type expects cannot be";
		return;
	}
	rb->seg_note = "carries the block header: recovery reads it as a buffer of its own, "
		       "shorter than the block";
	if (!replayed || !d->r->g.v5 || rb->kernel_warning)
		return;
	if (blft == XFS_BLFT_DIR_DATA_BUF || blft == XFS_BLFT_DIR_BLOCK_BUF) {
		d->ri.fail_why = "the directory data verifier checks a whole block in this "
				 "shorter buffer and fails when the buffer is written: "
				 "metadata corruption, log recovery fails";
		fail(d->r, d->t->lsn, "transaction 0x%08x: %s segment 0x%llx of a %u-byte block is "
		     "written with a verifier for the whole block", d->t->tid,
		     xls_blft_name(blft), (unsigned long long)rec->blf.blf_blkno,
		     d->r->g.dirblksize);
	} else {
		d->ri.fail_why = "the block's verifier runs on this shorter buffer when it is "
				 "written, and may fail";
	}
}

static void fill_rbuf(struct decide_ctx *d, const struct rrec *rec)
{
	struct xls_recover *r = d->r;
	struct xls_rbuf *rb = &d->rb;
	struct xls_item it;

	memset(rb, 0, sizeof(*rb));
	rb->magic_name = "";
	rb->blkno = rec->blf.blf_blkno;
	rb->len = rec->blf.blf_len;
	rb->blf_flags = rec->blf.blf_flags;
	rb->blft = xls_blft(rec->blf.blf_flags);
	rb->blf = &rec->blf;
	/* the placement again, from the region lengths kept */
	for (uint32_t i = 0; i < rec->nrlen && i + 1 < XLS_MAX_REGIONS_IN_ITEM; i++) {
		r->regs[i + 1].data = NULL;
		r->regs[i + 1].len = d->ts->rlens[rec->rlen_off + i];
	}
	r->regs[0].data = NULL;
	r->regs[0].len = (uint32_t)(BLF_FIXED + 4 * rec->blf.map_words);
	memset(&it, 0, sizeof(it));
	it.type = XFS_LI_BUF;
	it.nregions = rec->nrlen + 1 < XLS_MAX_REGIONS_IN_ITEM ? rec->nrlen + 1 :
		      XLS_MAX_REGIONS_IN_ITEM;
	it.regions = r->regs;
	xls_region_reconstruct(&it, &rec->blf, r->res);
	rb->res = r->res;
	rb->dirty_pct = r->res->buf_bytes ?
			100.0 * (double)r->res->dirty_bytes / (double)r->res->buf_bytes : 0;
	rb->nunlinked = rec->nunl;
	rb->unlinked = rec->nunl ? d->ts->unl + rec->unl_off : NULL;
	rb->data = rec->data_off != UINT32_MAX && d->ts->bytes ?
		   d->ts->bytes + rec->data_off : NULL;
	d->ri.buf = rb;
}

/*
 * A skipped buffer gets its read verifier run instead of the write one
 * (xlog_recover_buf_commit_pass2); what fails it fails recovery.  Two
 * checks every v5 verifier makes are modelled: the CRC over the buffer
 * (xfs_buf_verify_cksum) and the LSN not ahead of the log head
 * (xfs_log_check_lsn).  Only for a block still as it is on disk.
 */
static void verify_skipped(struct decide_ctx *d, struct rstate *st)
{
	struct xls_recover *r = d->r;
	struct xls_rbuf *rb = &d->rb;
	uint64_t bytes = (uint64_t)rb->len * BBSIZE;
	struct blk_id id;
	uint8_t *buf;
	uint32_t crc, stored;

	if (st->replayed || !st->readable)
		return;
	blk_identify(&r->g, st->head, st->head_len, &id);
	if (id.kind != BLK_LSN)
		return;
	if (rb->block_lsn > r->head_lsn && r->head_lsn) {
		d->ri.fail_why = "the read verifier finds the block's LSN ahead of the log head "
				 "(Metadata has LSN ahead of current LSN): recovery fails";
		fail(r, d->t->lsn, "buffer 0x%llx: block LSN %u/%u is ahead of the log head",
		     (unsigned long long)rb->blkno, xls_lsn_cycle(rb->block_lsn),
		     xls_lsn_block(rb->block_lsn));
		return;
	}
	if (!id.crc_off || bytes > XFS_MAX_BLOCKSIZE || id.crc_off + 4 > bytes)
		return;
	buf = malloc(bytes);
	if (!buf) {
		r->err = -ENOMEM;
		return;
	}
	if (xls_source_read_data(r->src, (uint64_t)rb->blkno * BBSIZE, buf, bytes) == 0) {
		stored = xls_le32(buf + id.crc_off);
		memset(buf + id.crc_off, 0, 4);
		crc = xls_crc32c(buf, bytes);
		if (crc != stored) {
			d->ri.fail_why = "the read verifier finds a bad CRC in the block: "
					 "recovery fails (EFSBADCRC)";
			fail(r, d->t->lsn, "buffer 0x%llx: skipped, and its on-disk CRC is bad",
			     (unsigned long long)rb->blkno);
		}
	}
	free(buf);
}

static void decide_buf(struct decide_ctx *d, const struct rrec *rec)
{
	struct xls_recover *r = d->r;
	struct xls_rbuf *rb = &d->rb;
	struct rstate *st;
	struct kslot *s;

	fill_rbuf(d, rec);
	r->sum.buffers++;
	s = kmap_find(&r->cancel, (uint64_t)rb->blkno, rb->len);
	rb->cancel_refs = s ? s->v : 0;
	if (rb->blf_flags & XFS_BLF_CANCEL) {
		if (s) {
			d->ri.decision = XLS_RD_CANCEL;
			d->ri.reason = "cancel_record";
			snprintf(d->ri.detail, sizeof(d->ri.detail),
				 "drops a cancel reference: %u -> %u%s", s->v, s->v - 1,
				 s->v == 1 ? ", entry removed: later uses of the block replay" : "");
			if (--s->v == 0)
				kmap_del(&r->cancel, s);
			return;
		}
		/* xlog_put_buffer_cancelled ASSERTs and goes on to replay */
	} else if (s) {
		d->ri.decision = XLS_RD_SKIP_CANCELLED;
		d->ri.reason = "cancelled";
		snprintf(d->ri.detail, sizeof(d->ri.detail),
			 "(0x%llx, %u) is cancelled later in the log: %u cancel record%s to come",
			 (unsigned long long)rb->blkno, rb->len, s->v, s->v == 1 ? "" : "s");
		return;
	}
	st = state_get(r, rb->blkno, rb->len);
	if (!st) {
		r->err = -ENOMEM;
		return;
	}
	decide_by_block(d, st);
	if (d->ri.decision == XLS_RD_SKIP_LSN) {
		const char *warn;

		/* validate_buf_type(NULLCOMMITLSN) only warns of an unknown type */
		if (!validate_type(&r->g, rb->blft, st->head, st->head_len, &warn)) {
			if (warn && strcmp(warn, "Unknown buffer type!") == 0) {
				rb->kernel_warning = warn;
				r->sum.kernel_warnings++;
			}
		} else {
			verify_skipped(d, st);
		}
		seg_notes(d, rec);
		return;
	}
	if ((rb->blf_flags & XFS_BLF_INODE_BUF) && rec->unl_zero) {
		d->ri.decision = XLS_RD_FAIL;
		d->ri.reason = "bad_unlinked";
		d->ri.fail_why = "Trying to replay bad (0) inode di_next_unlinked field";
		fail(r, d->t->lsn, "transaction 0x%08x: inode buffer 0x%llx logs a di_next_unlinked of 0",
		     d->t->tid, (unsigned long long)rb->blkno);
		return;
	}
	if ((rb->blf_flags & (XFS_BLF_UDQUOT_BUF | XFS_BLF_PDQUOT_BUF | XFS_BLF_GDQUOT_BUF))) {
		uint32_t type = 0;

		if (rb->blf_flags & XFS_BLF_UDQUOT_BUF)
			type |= XFS_DQTYPE_USER;
		if (rb->blf_flags & XFS_BLF_PDQUOT_BUF)
			type |= XFS_DQTYPE_PROJ;
		if (rb->blf_flags & XFS_BLF_GDQUOT_BUF)
			type |= XFS_DQTYPE_GROUP;
		if (r->quotaoffs & type) {
			d->ri.decision = XLS_RD_SKIP_QUOTAOFF;
			d->ri.reason = "quotaoff";
			snprintf(d->ri.detail, sizeof(d->ri.detail),
				 "a QUOTAOFF item turned this quota type off");
			return;
		}
		/* and dropped altogether when mounted without quota accounting */
		strncat(d->ri.detail, "; replayed only when mounted with quotas",
			sizeof(d->ri.detail) - strlen(d->ri.detail) - 1);
	}
	apply_replay(d, rec, st);
	seg_notes(d, rec);
}

/* The LSN the last replay of inode @ino wrote into it, or 0. */
static uint64_t ino_replayed_lsn(const struct xls_recover *r, uint64_t ino)
{
	struct kslot *s = kmap_find(&r->inolsn, ino, 0);

	return s ? r->inolsns[s->v] : 0;
}

static void ino_set_lsn(struct xls_recover *r, uint64_t ino, uint64_t lsn)
{
	struct kslot *s = kmap_find(&r->inolsn, ino, 0);
	uint64_t *l;

	if (s) {
		r->inolsns[s->v] = lsn;
		return;
	}
	l = vec_push((void **)&r->inolsns, &r->ninolsns, &r->capinolsns, sizeof(*l));
	if (!l || kmap_put(&r->inolsn, ino, 0, r->ninolsns - 1)) {
		r->err = -ENOMEM;
		return;
	}
	*l = lsn;
}

static bool icreated(struct xls_recover *r, int64_t blkno, uint32_t len)
{
	struct kslot *s = kmap_find(&r->bufidx, (uint64_t)blkno, len);

	return s && r->states[s->v].icreated;
}

/*
 * xlog_recover_icreate_commit_pass2(): skipped when any of its cluster
 * buffers is cancelled, else xfs_ialloc_inode_init() writes fresh inodes
 * into each: their buffers then carry the inode magic.
 */
static void decide_icreate(struct decide_ctx *d, const struct rrec *rec)
{
	struct xls_recover *r = d->r;
	const struct rgeo *g = &r->g;
	uint32_t nbufs, cancelled = 0, bb;

	snprintf(d->ri.detail, sizeof(d->ri.detail), "%s", rec->what);
	if (!rec->has_icl || !g->cluster_blocks || !g->agblocks)
		return;
	/* xlog_recover_icreate_commit_pass2: one inode chunk at most */
	if (!rec->icl.count || !rec->icl.length || rec->icl.length % g->cluster_blocks ||
	    (uint64_t)rec->icl.length << g->blocklog > 64ull * g->inodesize ||
	    rec->icl.agbno >= g->agblocks) {
		d->ri.decision = XLS_RD_FAIL;
		d->ri.reason = "bad_icreate";
		d->ri.fail_why = "bad icreate parameters: recovery fails";
		fail(r, d->t->lsn, "transaction 0x%08x: bad icreate item", d->t->tid);
		return;
	}
	nbufs = rec->icl.length / g->cluster_blocks;
	bb = g->cluster_blocks << (g->blocklog - 9);
	for (uint32_t i = 0; i < nbufs; i++) {
		uint64_t daddr = ((uint64_t)rec->icl.ag * g->agblocks + rec->icl.agbno +
				  (uint64_t)i * g->cluster_blocks) << (g->blocklog - 9);

		if (kmap_find(&r->cancel, daddr, bb))
			cancelled++;
	}
	if (cancelled) {
		d->ri.decision = XLS_RD_SKIP_CANCELLED;
		d->ri.reason = "cancelled";
		snprintf(d->ri.detail, sizeof(d->ri.detail), "%s: %u of %u cluster buffers cancelled%s",
			 rec->what, cancelled, nbufs,
			 cancelled != nbufs ? " (partial inode chunk cancellation, skipped icreate)" : "");
		return;
	}
	d->ri.decision = XLS_RD_REPLAY;
	d->ri.reason = "icreate";
	for (uint32_t i = 0; i < nbufs; i++) {
		uint64_t daddr = ((uint64_t)rec->icl.ag * g->agblocks + rec->icl.agbno +
				  (uint64_t)i * g->cluster_blocks) << (g->blocklog - 9);
		struct rstate *st = state_get(r, (int64_t)daddr, bb);

		if (!st) {
			r->err = -ENOMEM;
			return;
		}
		memset(st->head, 0, HEAD_BYTES);
		st->head[0] = XFS_DINODE_MAGIC >> 8;
		st->head[1] = XFS_DINODE_MAGIC & 0xff;
		st->head[offsetof(struct xfs_dinode, di_version)] = g->v5 ? 3 : 2;
		st->replayed = st->icreated = true;
		st->has_ops = false;
		queue_state(r, st);
	}
}

/*
 * xlog_recover_inode_commit_pass2, as far as the decision goes: skipped
 * when the cluster buffer is cancelled, or when the v3 inode's LSN is
 * newer than the transaction (strictly: checkpoints can share an LSN), or
 * on v4 when its di_flushiter is.  A replay writes the transaction's LSN
 * into di_lsn (xfs_log_dinode_to_disk).
 */
static void decide_inode(struct decide_ctx *d, const struct rrec *rec)
{
	struct xls_recover *r = d->r;
	uint8_t dino[DINODE_READ];
	uint64_t lsn = 0;
	const char *where = "on disk";
	char a[24], b[24];
	bool v3 = false;

	d->ri.has_ino = rec->has_ino;
	d->ri.ino = rec->ino;
	d->ri.ino_blkno = rec->iblkno;
	d->ri.ino_len = rec->ilen;
	d->ri.ino_boffset = rec->iboff;
	snprintf(d->ri.detail, sizeof(d->ri.detail), "%s", rec->what);
	if (!rec->has_ino)
		return;
	if (kmap_find(&r->cancel, (uint64_t)rec->iblkno, rec->ilen)) {
		d->ri.decision = XLS_RD_SKIP_CANCELLED;
		d->ri.reason = "cancelled";
		snprintf(d->ri.detail, sizeof(d->ri.detail),
			 "%s: its cluster buffer is cancelled", rec->what);
		return;
	}
	d->ri.decision = XLS_RD_REPLAY;
	d->ri.reason = "lsn_older";
	lsn = ino_replayed_lsn(r, rec->ino);
	if (lsn) {
		v3 = r->g.v5;
		where = "as recovery left it";
	} else if (icreated(r, rec->iblkno, rec->ilen)) {
		snprintf(d->ri.detail, sizeof(d->ri.detail),
			 "%s: inode initialised by an icreate replay", rec->what);
	} else if (r->g.data_dev && rec->iblkno >= 0 &&
		   (uint64_t)rec->iblkno < (UINT64_MAX >> 10) &&
		   xls_source_read_data(r->src, (uint64_t)rec->iblkno * BBSIZE + rec->iboff,
					dino, sizeof(dino)) == 0 &&
		   xls_be16(dino) == XFS_DINODE_MAGIC) {
		v3 = dino[offsetof(struct xfs_dinode, di_version)] >= 3;
		lsn = v3 ? xls_be64(dino + offsetof(struct xfs_dinode, di_lsn)) : 0;
		if (!r->g.v5 && rec->ldi_flushiter <
		    xls_be16(dino + offsetof(struct xfs_dinode, di_flushiter))) {
			d->ri.decision = XLS_RD_SKIP_LSN;
			d->ri.reason = "flushiter_newer";
			snprintf(d->ri.detail, sizeof(d->ri.detail),
				 "%s: the on-disk inode was flushed later", rec->what);
			return;
		}
	}
	if (v3 && lsn && lsn != NULL_LSN) {
		lsn_str(lsn, a, sizeof(a));
		lsn_str(d->t->lsn, b, sizeof(b));
		if (lsn > d->t->lsn) {
			d->ri.decision = XLS_RD_SKIP_LSN;
			d->ri.reason = "lsn_newer";
		}
		snprintf(d->ri.detail, sizeof(d->ri.detail), "%s: inode LSN %s %s %s %s",
			 rec->what, a, where, lsn > d->t->lsn ? ">" : "<=", b);
	}
	if (d->ri.decision == XLS_RD_REPLAY && r->g.v5)
		ino_set_lsn(r, rec->ino, d->t->lsn);
}

static const char *intent_name(uint16_t type)
{
	const char *n = xls_item_type_name(type);

	return n ? n : "?";
}

/* Intents enter the AIL; a done item releases its intent. */
static void decide_intent(struct decide_ctx *d, const struct rrec *rec)
{
	struct xls_recover *r = d->r;
	struct rintent *in;
	struct kslot *s;

	if (!rec->has_id)
		return;
	d->ri.has_id = true;
	d->ri.id = rec->id;
	if (is_intent(rec->type)) {
		snprintf(d->ri.detail, sizeof(d->ri.detail),
			 "%s 0x%llx: pending until its %s", intent_name(rec->type),
			 (unsigned long long)rec->id, intent_name((uint16_t)(rec->type + 1)));
		if (kmap_find(&r->intidx, rec->type, rec->id))
			return;
		in = vec_push((void **)&r->intents, &r->nintents, &r->capintents,
			      sizeof(*in));
		if (!in || kmap_put(&r->intidx, rec->type, rec->id, r->nintents - 1)) {
			r->err = -ENOMEM;
			return;
		}
		in->type = rec->type;
		in->id = rec->id;
		in->done = false;
		in->tid = d->t->tid;
		in->lsn = d->t->lsn;
		return;
	}
	s = kmap_find(&r->intidx, (uint16_t)(rec->type - 1), rec->id);
	if (!s) {
		snprintf(d->ri.detail, sizeof(d->ri.detail),
			 "releases %s 0x%llx, which is not in the log (logged before the tail)",
			 intent_name((uint16_t)(rec->type - 1)), (unsigned long long)rec->id);
		return;
	}
	r->intents[s->v].done = true;
	kmap_del(&r->intidx, s);
	snprintf(d->ri.detail, sizeof(d->ri.detail), "releases %s 0x%llx",
		 intent_name((uint16_t)(rec->type - 1)), (unsigned long long)rec->id);
}

static int emit_item(struct decide_ctx *d, const struct rrec *rec, uint32_t order,
		     enum xls_rlist list)
{
	struct xls_recover *r = d->r;

	memset(&d->ri, 0, sizeof(d->ri));
	d->ri.order = order;
	d->ri.index = rec->index;
	d->ri.type = rec->type;
	d->ri.list = list;
	d->ri.reason = "";
	r->sum.items++;
	if (rec->type == XFS_LI_BUF && rec->parsed)
		decide_buf(d, rec);
	else if (rec->type == XFS_LI_BUF)
		snprintf(d->ri.detail, sizeof(d->ri.detail), "unreadable buffer format");
	else if (rec->type == XFS_LI_INODE)
		decide_inode(d, rec);
	else if (is_intent(rec->type) || is_done(rec->type))
		decide_intent(d, rec);
	else if (rec->type == XFS_LI_ICREATE)
		decide_icreate(d, rec);
	else
		snprintf(d->ri.detail, sizeof(d->ri.detail), "%s", rec->what);
	if (rec->kept_inode) {
		d->ino = rec->ino_keep;
		for (uint32_t i = 1; i < d->ino.nregions; i++)
			d->ino.reg[i] = d->ts->bytes && d->ino.reg_len[i] ?
					d->ts->bytes + rec->ino_off[i] : NULL;
		d->ri.inode = &d->ino;
	}
	if (rec->has_icl)
		d->ri.icreate = &rec->icl;
	if (d->ri.decision < XLS_RD_COUNT)
		r->sum.decisions[d->ri.decision]++;
	if (d->ri.buf && d->ri.buf->nunlinked && d->ri.decision != XLS_RD_SKIP_CANCELLED &&
	    d->ri.decision != XLS_RD_SKIP_LSN)
		r->sum.unlinked_fields += d->ri.buf->nunlinked;
	if (r->err)
		return r->err;
	return r->sink->item ? r->sink->item(r->sink->ctx, d->rt, &d->ri) : 0;
}

static enum xls_rlist rec_list(const struct rrec *rec)
{
	if (rec->type != XFS_LI_BUF || !rec->parsed)
		return rec->type == XFS_LI_BUF ? XLS_RL_BUFFER : XLS_RL_ITEM;
	if (rec->blf.blf_flags & XFS_BLF_CANCEL)
		return XLS_RL_CANCEL;
	if (rec->blf.blf_flags & XFS_BLF_INODE_BUF)
		return XLS_RL_INODE_BUF;
	return XLS_RL_BUFFER;
}

/* The items in the order xlog_recover_reorder_trans() leaves them. */
static int replay_trans(struct decide_ctx *d)
{
	struct tstore *ts = d->ts;
	uint32_t order = 0;
	int rc = 0;

	for (uint32_t i = 0; i < ts->nrecs && !rc; i++)
		if (rec_list(&ts->recs[i]) == XLS_RL_BUFFER)
			rc = emit_item(d, &ts->recs[i], ++order, XLS_RL_BUFFER);
	for (uint32_t i = 0; i < ts->nrecs && !rc; i++)
		if (rec_list(&ts->recs[i]) == XLS_RL_ITEM)
			rc = emit_item(d, &ts->recs[i], ++order, XLS_RL_ITEM);
	for (uint32_t i = ts->nrecs; i-- > 0 && !rc;)
		if (rec_list(&ts->recs[i]) == XLS_RL_INODE_BUF)
			rc = emit_item(d, &ts->recs[i], ++order, XLS_RL_INODE_BUF);
	for (uint32_t i = ts->nrecs; i-- > 0 && !rc;)
		if (rec_list(&ts->recs[i]) == XLS_RL_CANCEL)
			rc = emit_item(d, &ts->recs[i], ++order, XLS_RL_CANCEL);
	return rc;
}

/* Buffers of a transaction recovery drops, for the history of a buffer. */
static int discard_trans(struct decide_ctx *d)
{
	struct xls_recover *r = d->r;
	int rc = 0;

	for (uint32_t i = 0; i < d->ts->nrecs && !rc; i++) {
		const struct rrec *rec = &d->ts->recs[i];

		if (rec->type != XFS_LI_BUF || !rec->parsed || !r->sink->discarded_buf)
			continue;
		memset(&d->ri, 0, sizeof(d->ri));
		d->ri.index = rec->index;
		d->ri.type = rec->type;
		d->ri.list = rec_list(rec);
		d->ri.reason = "no_commit";
		fill_rbuf(d, rec);
		snprintf(d->ri.detail, sizeof(d->ri.detail), "%s",
			 d->t->state == XLS_TRANS_CORRUPT ?
			 "transaction is corrupt: recovery stops there" :
			 "transaction has no commit record: recovery drops it");
		rc = r->sink->discarded_buf(r->sink->ctx, d->t, &d->ri);
	}
	return rc;
}

static int pass2_end(struct xls_recover *r, const struct xls_trans *t)
{
	struct tstore *ts = store_find(r, t, false);
	struct tstore empty;
	struct decide_ctx *d;
	struct xls_rtrans rt;
	int rc = 0;

	if (t->state == XLS_TRANS_UNMOUNT || t->state == XLS_TRANS_OPEN) {
		if (ts)
			store_release(ts);
		return 0;
	}
	if (!ts) {
		memset(&empty, 0, sizeof(empty));
		ts = &empty;
	}
	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	memset(&rt, 0, sizeof(rt));
	rt.t = t;
	rt.nitems = ts->nrecs;
	d->r = r;
	d->t = t;
	d->ts = ts;
	d->rt = &rt;
	if (t->state == XLS_TRANS_COMMITTED) {
		rt.replayed = true;
		rt.seq = ++r->seq;
		r->sum.trans_replayed++;
		/* xlog_recover_process_ophdr: write the queue on a new LSN */
		if (t->lsn != r->recovery_lsn) {
			rt.flushed = r->nqueue;
			flush_queue(r);
			r->recovery_lsn = t->lsn;
		}
		find_compounds(r, ts);
		if (r->sink->trans)
			rc = r->sink->trans(r->sink->ctx, &rt);
		if (!rc)
			rc = replay_trans(d);
	} else {
		if (t->state == XLS_TRANS_CORRUPT)
			r->sum.trans_corrupt++;
		else
			r->sum.trans_discarded++;
		if (r->sink->trans)
			rc = r->sink->trans(r->sink->ctx, &rt);
		if (!rc)
			rc = discard_trans(d);
	}
	free(d);
	if (ts != &empty)
		store_release(ts);
	return rc;
}

static int on_end(void *ctx, const struct xls_trans *t)
{
	struct xls_recover *r = ctx;
	int rc;

	rc = r->pass == 1 ? pass1_end(r, t) : pass2_end(r, t);
	if (!rc && r->err)
		rc = r->err;
	return rc;
}

static int on_finding(void *ctx, const struct xls_finding *f)
{
	struct xls_recover *r = ctx;

	if (r->pass != 1)
		return 0;
	/* what stops xlog_do_recovery_pass: a bad CRC on v5, a bad header or op */
	if ((strcmp(f->kind, "crc") == 0 && r->g.v5) ||
	    strcmp(f->kind, "header") == 0 || strcmp(f->kind, "op") == 0)
		fail(r, f->lsn, "%s", f->msg);
	return r->sink->finding ? r->sink->finding(r->sink->ctx, f) : 0;
}

static void on_progress(void *ctx, uint64_t done, uint64_t total)
{
	struct xls_recover *r = ctx;

	/* two scans of the same blocks: the first half, then the second */
	if (r->sink->progress)
		r->sink->progress(r->sink->ctx, r->pass == 1 ? done : total + done,
				  2 * total);
}

/* ------------------------------------------------------------------ */
/* after pass 2 */

static int emit_intents(struct xls_recover *r)
{
	struct xls_rintent in;
	int rc = 0;

	for (uint32_t i = 0; i < r->nintents && !rc; i++) {
		const struct rintent *p = &r->intents[i];

		if (p->done)
			continue;
		memset(&in, 0, sizeof(in));
		in.type = p->type;
		in.kind = intent_name(p->type);
		in.id = p->id;
		in.tid = p->tid;
		in.lsn = p->lsn;
		snprintf(in.what, sizeof(in.what), "%s 0x%llx has no %s: recovery finishes it",
			 intent_name(p->type), (unsigned long long)p->id,
			 intent_name((uint16_t)(p->type + 1)));
		r->sum.intents_pending++;
		if (r->sink->intent)
			rc = r->sink->intent(r->sink->ctx, &in);
	}
	return rc;
}

/*
 * AGIs as recovery leaves them: inodes still on an unlinked bucket are
 * freed by xlog_recover_process_iunlinks() (only AGIs the log touched).
 */
static int emit_unlinked(struct xls_recover *r)
{
	struct xls_rintent in;
	int rc = 0;

	for (uint32_t i = 0; i < r->nstates && !rc; i++) {
		const struct rstate *st = &r->states[i];
		uint32_t off = offsetof(struct xfs_agi, agi_unlinked);

		if (st->head_len < off + 4 * XFS_AGI_UNLINKED_BUCKETS ||
		    xls_be32(st->head) != XFS_AGI_MAGIC)
			continue;
		for (uint32_t b = 0; b < XFS_AGI_UNLINKED_BUCKETS && !rc; b++) {
			uint32_t agino = xls_be32(st->head + off + 4 * b);

			if (agino == NULL_AGINO)
				continue;
			memset(&in, 0, sizeof(in));
			in.type = XFS_LI_IUNLINK;
			in.kind = "unlinked";
			in.id = agino;
			snprintf(in.what, sizeof(in.what),
				 "AG %u unlinked bucket %u starts at agino 0x%x: recovery frees the inodes on it",
				 xls_be32(st->head + offsetof(struct xfs_agi, agi_seqno)), b, agino);
			r->sum.intents_pending++;
			if (r->sink->intent)
				rc = r->sink->intent(r->sink->ctx, &in);
		}
	}
	return rc;
}

/* ------------------------------------------------------------------ */
/* public */

struct xls_recover *xls_recover_new(const struct xls_source *src,
				    const struct xls_recover_opts *o,
				    struct xls_error *err)
{
	struct xls_recover *r = calloc(1, sizeof(*r));

	if (!r)
		goto nomem;
	r->src = src;
	if (o)
		r->opt = *o;
	r->ba = malloc(sizeof(*r->ba));
	r->res = malloc(sizeof(*r->res));
	r->regs = calloc(XLS_MAX_REGIONS_IN_ITEM, sizeof(*r->regs));
	if (!r->ba || !r->res || !r->regs)
		goto nomem;
	read_geometry(r);
	return r;
nomem:
	xls_recover_free(r);
	xls_error_set(err, XLS_EXIT_INTERNAL, "out of memory");
	return NULL;
}

void xls_recover_free(struct xls_recover *r)
{
	if (!r)
		return;
	stores_free(r);
	kmap_free(&r->cancel);
	kmap_free(&r->bufidx);
	kmap_free(&r->intidx);
	kmap_free(&r->inolsn);
	free(r->states);
	free(r->queue);
	free(r->intents);
	free(r->inolsns);
	free(r->ba);
	free(r->res);
	free(r->regs);
	free(r);
}

static int run_pass(struct xls_recover *r, int pass, struct xls_log *log,
		    const struct xls_head_tail *ht, struct xls_error *err)
{
	struct xls_scan_sink sink = {
		.ctx = r, .item = on_item, .end = on_end, .finding = on_finding,
		.progress = on_progress, .want_trans = true,
	};
	struct xls_scan_totals tot;
	int rc;

	r->pass = pass;
	for (uint32_t i = 0; i < r->nstores; i++)
		store_release(r->stores[i]);
	rc = xls_scan(log, ht, XLS_ITER_LSN, &sink, &tot, err);
	if (rc == -ENOMEM || r->err == -ENOMEM)
		return xls_error_set(err, XLS_EXIT_INTERNAL, "out of memory");
	/*
	 * xlog_recover_process: a zero CRC passes the CRC verification pass
	 * (mkfs writes 0) but not the replay pass of a v5 filesystem.
	 */
	if (pass == 1 && tot.crc_zero && r->g.v5)
		fail(r, 0, "%llu record%s with a zero CRC: log record CRC mismatch, found 0x0",
		     (unsigned long long)tot.crc_zero, tot.crc_zero == 1 ? "" : "s");
	if (!rc && r->stores_full)
		rc = report(r, NULL, "trans_table",
			    "more than %u transactions open at once: some items were not examined",
			    MAX_STORES);
	r->stores_full = false;
	return rc;
}

int xls_recover_run(struct xls_recover *r, struct xls_log *log,
		    const struct xls_head_tail *ht,
		    const struct xls_recover_sink *sink, struct xls_error *err)
{
	int rc;

	r->sink = sink;
	r->head_lsn = xls_lsn(ht->head_cycle, ht->head_blk);
	rc = run_pass(r, 1, log, ht, err);
	if (!rc)
		rc = emit_cancel_table(r);
	if (!rc)
		rc = run_pass(r, 2, log, ht, err);
	if (!rc) {
		flush_queue(r);
		r->sum.buffers_touched = r->nstates;
		rc = emit_intents(r);
	}
	if (!rc)
		rc = emit_unlinked(r);
	if (rc == -ENOMEM)
		return xls_error_set(err, XLS_EXIT_INTERNAL, "out of memory");
	return rc;
}

const struct xls_recover_summary *xls_recover_summary(const struct xls_recover *r)
{
	return &r->sum;
}

/* ------------------------------------------------------------------ */
/* applying inode items and icreates to an inode cluster image */

#define LD(f)	offsetof(struct xfs_log_dinode, f)
#define DI(f)	offsetof(struct xfs_dinode, f)

static void put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)(v >> 8); p[1] = (uint8_t)v; }
static void put32(uint8_t *p, uint32_t v) { put16(p, (uint16_t)(v >> 16)); put16(p + 2, (uint16_t)v); }
static void put64(uint8_t *p, uint64_t v) { put32(p, (uint32_t)(v >> 32)); put32(p + 4, (uint32_t)v); }

/* xfs_log_dinode_to_disk_ts(): bigtime is one 64-bit count, else sec, nsec */
static void put_ts(uint8_t *to, const uint8_t *from, enum xls_endian e, bool bigtime)
{
	if (bigtime) {
		put64(to, xls_get64(e, from));
		return;
	}
	put32(to, xls_get32(e, from));
	put32(to + 4, xls_get32(e, from + 4));
}

/* xfs_log_dinode_to_disk(): every field to big-endian, di_lsn = @lsn. */
static void log_dinode_to_disk(const uint8_t *ld, enum xls_endian e, uint8_t *dip,
			       uint64_t lsn)
{
	uint8_t version = ld[LD(di_version)];
	uint64_t flags2 = version >= 3 ? xls_get64(e, ld + LD(di_flags2)) : 0;
	bool bigtime = version >= 3 && (flags2 & XFS_DIFLAG2_BIGTIME);

	put16(dip + DI(di_magic), xls_get16(e, ld + LD(di_magic)));
	put16(dip + DI(di_mode), xls_get16(e, ld + LD(di_mode)));
	dip[DI(di_version)] = version;
	dip[DI(di_format)] = ld[LD(di_format)];
	/* di_onlink, di_metatype since Linux 6.13: zero unless a metadata inode */
	put16(dip + DI(di_onlink), xls_get16(e, ld + LD(di_pad3)));
	put32(dip + DI(di_uid), xls_get32(e, ld + LD(di_uid)));
	put32(dip + DI(di_gid), xls_get32(e, ld + LD(di_gid)));
	put32(dip + DI(di_nlink), xls_get32(e, ld + LD(di_nlink)));
	put16(dip + DI(di_projid_lo), xls_get16(e, ld + LD(di_projid_lo)));
	put16(dip + DI(di_projid_hi), xls_get16(e, ld + LD(di_projid_hi)));
	put_ts(dip + DI(di_atime), ld + LD(di_atime), e, bigtime);
	put_ts(dip + DI(di_mtime), ld + LD(di_mtime), e, bigtime);
	put_ts(dip + DI(di_ctime), ld + LD(di_ctime), e, bigtime);
	put64(dip + DI(di_size), xls_get64(e, ld + LD(di_size)));
	put64(dip + DI(di_nblocks), xls_get64(e, ld + LD(di_nblocks)));
	put32(dip + DI(di_extsize), xls_get32(e, ld + LD(di_extsize)));
	dip[DI(di_forkoff)] = ld[LD(di_forkoff)];
	dip[DI(di_aformat)] = ld[LD(di_aformat)];
	put32(dip + DI(di_dmevmask), xls_get32(e, ld + LD(di_dmevmask)));
	put16(dip + DI(di_dmstate), xls_get16(e, ld + LD(di_dmstate)));
	put16(dip + DI(di_flags), xls_get16(e, ld + LD(di_flags)));
	put32(dip + DI(di_gen), xls_get32(e, ld + LD(di_gen)));
	if (version == 3) {
		put64(dip + DI(di_changecount), xls_get64(e, ld + LD(di_changecount)));
		put_ts(dip + DI(di_crtime), ld + LD(di_crtime), e, bigtime);
		put64(dip + DI(di_flags2), flags2);
		put32(dip + DI(di_cowextsize), xls_get32(e, ld + LD(di_cowextsize)));
		put64(dip + DI(di_ino), xls_get64(e, ld + LD(di_ino)));
		put64(dip + DI(di_lsn), lsn);
		memset(dip + DI(di_pad2), 0, sizeof(((struct xfs_dinode *)0)->di_pad2));
		memcpy(dip + DI(di_uuid), ld + LD(di_uuid), 16);
		put64(dip + DI(di_v3_pad), 0);
	} else {
		put16(dip + DI(di_flushiter), xls_get16(e, ld + LD(di_flushiter)));
		memset(dip + DI(di_v2_pad), 0, 6);
	}
	if (version >= 3 && (flags2 & XFS_DIFLAG2_NREXT64)) {
		put64(dip + DI(di_big_nextents), xls_get64(e, ld + LD(di_big_nextents)));
		put32(dip + DI(di_big_anextents), xls_get32(e, ld + LD(di_big_anextents)));
		put16(dip + DI(di_nrext64_pad), xls_get16(e, ld + LD(di_nrext64_pad)));
	} else {
		put32(dip + DI(di_nextents), xls_get32(e, ld + LD(di_nextents)));
		put16(dip + DI(di_anextents), xls_get16(e, ld + LD(di_anextents)));
	}
}

/*
 * xfs_bmbt_to_bmdr(): an in-memory bmbt root (long btree header, keys,
 * pointers after maxrecs keys) to the on-disk root (level, numrecs, keys,
 * pointers after the fork's maxrecs keys).  Bounded by both sizes.
 */
static void bmbt_to_bmdr(bool crc, const uint8_t *rb, uint32_t rlen, uint8_t *db,
			 uint32_t dlen)
{
	uint32_t hdr = crc ? XFS_BTREE_LBLOCK_CRC_LEN : XFS_BTREE_LBLOCK_LEN;
	uint32_t rmax, dmax, n;

	if (rlen < hdr || dlen < 4)
		return;
	rmax = (rlen - hdr) / 16;
	dmax = (dlen - 4) / 16;
	n = xls_be16(rb + 6);
	memcpy(db, rb + 4, 4);		/* bb_level, bb_numrecs */
	if (n > rmax)
		n = rmax;
	if (n > dmax)
		n = dmax;
	memcpy(db + 4, rb + hdr, (size_t)n * 8);
	memcpy(db + 4 + (size_t)dmax * 8, rb + hdr + (size_t)rmax * 8, (size_t)n * 8);
}

static void copy_fork(const struct xls_rinode *in, uint32_t idx, uint32_t kind_flags,
		      bool crc, uint8_t *dst, uint32_t room)
{
	uint32_t len = in->reg_len[idx];

	if (idx >= in->nregions || !in->reg[idx])
		return;
	if (kind_flags & (XFS_ILOG_DBROOT | XFS_ILOG_ABROOT)) {
		bmbt_to_bmdr(crc, in->reg[idx], len, dst, room);
		return;
	}
	memcpy(dst, in->reg[idx], len < room ? len : room);
}

int xls_recover_apply_inode(const struct xls_recover *r, const struct xls_ritem *ri,
			    uint64_t lsn, uint8_t *buf, uint32_t len, const char **why)
{
	const struct xls_rinode *in = ri->inode;
	uint32_t isize = r->g.inodesize, core, lit, forkoff, dsize, asize, idx;
	uint8_t *dip;

	*why = NULL;
	if (!in || !isize || in->nregions < 2 || !in->reg[1]) {
		*why = "inode item regions not kept";
		return -1;
	}
	if ((uint64_t)ri->ino_boffset + isize > len) {
		*why = "ilf_boffset past the buffer";
		return -1;
	}
	dip = buf + ri->ino_boffset;
	if (xls_be16(dip) != XFS_DINODE_MAGIC) {
		*why = "Bad inode magic number: recovery fails";
		return -1;
	}
	/* a v3 log dinode is the whole struct, an older one ends before di_next_unlinked */
	if (in->reg_len[1] <= LD(di_version) ||
	    in->reg_len[1] < (in->reg[1][LD(di_version)] >= 3 ?
			      sizeof(struct xfs_log_dinode) : LD(di_next_unlinked)) ||
	    xls_get16(in->endian, in->reg[1]) != XFS_DINODE_MAGIC) {
		*why = "Bad inode log record: recovery fails";
		return -1;
	}
	log_dinode_to_disk(in->reg[1], in->endian, dip, lsn);
	core = dip[DI(di_version)] >= 3 ? sizeof(struct xfs_dinode) : DI(di_crc);
	lit = isize > core ? isize - core : 0;
	forkoff = (uint32_t)dip[DI(di_forkoff)] << 3;
	dsize = forkoff && forkoff < lit ? forkoff : lit;
	asize = forkoff && forkoff < lit ? lit - forkoff : 0;
	if (in->fields & XFS_ILOG_DEV && lit >= 4)
		put32(dip + core, in->rdev);
	idx = 2;
	if (in->fields & XFS_ILOG_DFORK)
		copy_fork(in, idx++, in->fields & XFS_ILOG_DFORK, r->g.v5, dip + core, dsize);
	if (in->fields & XFS_ILOG_AFORK)
		copy_fork(in, idx, in->fields & XFS_ILOG_AFORK, r->g.v5,
			  dip + core + dsize, asize);
	if (r->g.v5)
		xls_recover_inode_crc(buf, len, isize, ri->ino_boffset / isize);
	return 0;
}

uint32_t xls_recover_cluster_bb(const struct xls_recover *r)
{
	return r->g.cluster_blocks && r->g.blocklog ?
	       r->g.cluster_blocks << (r->g.blocklog - 9) : 0;
}

bool xls_recover_apply_icreate(const struct xls_recover *r, const struct xls_ritem *ri,
			       int64_t blkno, uint8_t *buf, uint32_t len)
{
	const struct xls_ricreate *ic = ri->icreate;
	const struct rgeo *g = &r->g;
	uint32_t nbufs, bb, per_cluster;

	if (!ic || ri->decision != XLS_RD_REPLAY || !g->cluster_blocks || !g->agblocks ||
	    !g->inodesize)
		return false;
	nbufs = ic->length / g->cluster_blocks;
	bb = g->cluster_blocks << (g->blocklog - 9);
	per_cluster = (g->cluster_blocks << g->blocklog) >> g->inodelog;
	if (len != bb * BBSIZE)
		return false;
	for (uint32_t j = 0; j < nbufs; j++) {
		uint32_t agbno = ic->agbno + j * g->cluster_blocks;
		uint64_t daddr = ((uint64_t)ic->ag * g->agblocks + agbno) << (g->blocklog - 9);
		uint64_t ino = ((uint64_t)ic->ag << (g->agblklog + g->inopblog)) |
			       ((uint64_t)agbno << g->inopblog);

		if (daddr != (uint64_t)blkno)
			continue;
		/* xfs_ialloc_inode_init: zeroed, then each inode's identity */
		memset(buf, 0, len);
		for (uint32_t i = 0; i < per_cluster && (uint64_t)(i + 1) * g->inodesize <= len; i++) {
			uint8_t *dip = buf + (size_t)i * g->inodesize;

			put16(dip + DI(di_magic), XFS_DINODE_MAGIC);
			dip[DI(di_version)] = g->v5 ? 3 : 2;
			put32(dip + DI(di_gen), ic->gen);
			put32(dip + DI(di_next_unlinked), NULL_AGINO);
			if (g->v5) {
				put64(dip + DI(di_ino), ino + i);
				memcpy(dip + DI(di_uuid), g->mp_meta_uuid, 16);
				xls_recover_inode_crc(buf, len, g->inodesize, i);
			}
		}
		return true;
	}
	return false;
}

void xls_recover_inode_crc(uint8_t *buf, uint32_t len, uint32_t inodesize,
			   uint32_t slot)
{
	uint64_t off = (uint64_t)slot * inodesize;
	uint8_t *dip;
	uint32_t crc;

	if (!inodesize || off + inodesize > len || inodesize < sizeof(struct xfs_dinode))
		return;
	dip = buf + off;
	if (xls_be16(dip) != XFS_DINODE_MAGIC ||
	    dip[offsetof(struct xfs_dinode, di_version)] < 3)
		return;
	/* xfs_update_cksum: crc32c with the field zeroed, stored inverted, LE */
	memset(dip + XFS_DINODE_CRC_OFF, 0, 4);
	crc = xls_crc32c(dip, inodesize);
	for (int b = 0; b < 4; b++)
		dip[XFS_DINODE_CRC_OFF + b] = (uint8_t)(crc >> (8 * b));
}
