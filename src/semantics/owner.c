/*
 * Semantics stage: buffer owners, from the magic and header of the block
 * (xfs_format.h, xfs_da_format.h), an earlier logged header, the disk, or
 * the buffer type and daddr.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/ondisk.h"
#include <xfs/xfs_da_format.h>
#include "items/item.h"
#include "items/buf_analysis.h"
#include "semantics/owner.h"

#define BB	512u
/* every header below fits in the first chunk */
#define OWNER_HEAD	XFS_BLF_CHUNK

static const char *const kind_names[XLS_OWN_COUNT] = {
	[XLS_OWN_UNKNOWN]	= "unknown",
	[XLS_OWN_SB]		= "sb",
	[XLS_OWN_AGF]		= "agf",
	[XLS_OWN_AGI]		= "agi",
	[XLS_OWN_AGFL]		= "agfl",
	[XLS_OWN_BTREE]		= "btree",
	[XLS_OWN_INODES]	= "inodes",
	[XLS_OWN_DIR]		= "dir",
	[XLS_OWN_DA_NODE]	= "da_node",
	[XLS_OWN_ATTR]		= "attr",
	[XLS_OWN_ATTR_RMT]	= "attr_rmt",
	[XLS_OWN_SYMLINK]	= "symlink",
	[XLS_OWN_DQUOT]		= "dquot",
};

const char *xls_owner_kind_name(enum xls_owner_kind k)
{
	return k < XLS_OWN_COUNT ? kind_names[k] : "unknown";
}

const char *xls_owner_from_name(enum xls_owner_from f)
{
	switch (f) {
	case XLS_OWNER_FROM_LOG:	return "log";
	case XLS_OWNER_FROM_EARLIER:	return "earlier";
	case XLS_OWNER_FROM_DISK:	return "disk";
	case XLS_OWNER_FROM_TYPE:	return "type";
	default:			return "none";
	}
}

/* ------------------------------------------------------------------ */
/* positions */

static uint64_t ag_bbs(const struct xls_geometry *g)
{
	return g->block_log ? (uint64_t)g->ag_blocks << (g->block_log - 9) : 0;
}

static bool daddr_agno(const struct xls_geometry *g, int64_t blkno, uint32_t *agno)
{
	uint64_t per = ag_bbs(g);

	if (!per || blkno < 0 || (uint64_t)blkno / per > UINT32_MAX)
		return false;
	*agno = (uint32_t)((uint64_t)blkno / per);
	return true;
}

uint64_t xls_daddr_to_ino(const struct xls_geometry *g, int64_t blkno)
{
	uint64_t per = ag_bbs(g);
	uint64_t agno, agbno;

	if (!per || blkno < 0)
		return 0;
	agno = (uint64_t)blkno / per;
	agbno = ((uint64_t)blkno % per) >> (g->block_log - 9);
	return (agno << (g->ag_block_log + g->inopb_log)) | (agbno << g->inopb_log);
}

int64_t xls_ino_cluster_daddr(const struct xls_geometry *g, uint64_t ino,
			      uint32_t *boffset)
{
	uint32_t cb = g->inode_cluster_blocks;
	uint64_t agno, agino, agbno, cagbno;

	if (!cb || !g->block_log || !g->inode_size || g->ag_block_log + g->inopb_log >= 64 ||
	    (cb & (cb - 1)))
		return -1;
	agno = ino >> (g->ag_block_log + g->inopb_log);
	agino = ino & ((1ull << (g->ag_block_log + g->inopb_log)) - 1);
	agbno = agino >> g->inopb_log;
	if (agbno >= g->ag_blocks)
		return -1;
	/* inode chunks and sparse chunks are aligned to a cluster */
	cagbno = agbno & ~(uint64_t)(cb - 1);
	if (boffset)
		*boffset = (uint32_t)(((agbno - cagbno) << g->block_log) +
				      (agino & ((1u << g->inopb_log) - 1)) * g->inode_size);
	return (int64_t)((agno * g->ag_blocks + cagbno) << (g->block_log - 9));
}

/* ------------------------------------------------------------------ */
/* headers */

struct btree_magic {
	uint32_t	magic;
	const char	*name;
	bool		long_form;
};

static const struct btree_magic btree_magics[] = {
	{ XFS_ABTB_MAGIC, "bnobt", false },	{ XFS_ABTB_CRC_MAGIC, "bnobt", false },
	{ XFS_ABTC_MAGIC, "cntbt", false },	{ XFS_ABTC_CRC_MAGIC, "cntbt", false },
	{ XFS_IBT_MAGIC, "inobt", false },	{ XFS_IBT_CRC_MAGIC, "inobt", false },
	{ XFS_FIBT_MAGIC, "finobt", false },	{ XFS_FIBT_CRC_MAGIC, "finobt", false },
	{ XFS_RMAP_CRC_MAGIC, "rmapbt", false },
	{ XFS_REFC_CRC_MAGIC, "refcountbt", false },
	{ XFS_BMAP_MAGIC, "bmbt", true },	{ XFS_BMAP_CRC_MAGIC, "bmbt", true },
};

static bool is_crc_magic(uint32_t m)
{
	switch (m) {
	case XFS_ABTB_MAGIC: case XFS_ABTC_MAGIC: case XFS_IBT_MAGIC:
	case XFS_FIBT_MAGIC: case XFS_BMAP_MAGIC:
		return false;
	}
	return true;
}

static bool btree_header(const uint8_t *h, uint32_t len, struct xls_owner *o)
{
	uint32_t m = xls_be32(h);

	for (size_t i = 0; i < sizeof(btree_magics) / sizeof(btree_magics[0]); i++) {
		const struct btree_magic *b = &btree_magics[i];
		size_t off;

		if (b->magic != m)
			continue;
		o->kind = XLS_OWN_BTREE;
		o->btree = b->name;
		if (!is_crc_magic(m))
			return true;
		if (b->long_form) {
			off = offsetof(struct xfs_btree_block, bb_u.l.bb_owner);
			if (off + 8 <= len) {
				o->has_ino = true;
				o->ino = xls_be64(h + off);
			}
		} else {
			off = offsetof(struct xfs_btree_block, bb_u.s.bb_owner);
			if (off + 4 <= len) {
				o->has_agno = true;
				o->agno = xls_be32(h + off);
			}
		}
		return true;
	}
	return false;
}

/* An owner inode at @off of the header, when @len reaches it. */
static void owner_ino(const uint8_t *h, uint32_t len, size_t off, struct xls_owner *o)
{
	if (off + 8 <= len) {
		o->has_ino = true;
		o->ino = xls_be64(h + off);
	}
}

static bool da_header(const uint8_t *h, uint32_t len, struct xls_owner *o)
{
	size_t off = offsetof(struct xfs_da3_blkinfo, owner);
	uint16_t m;

	if (len < offsetof(struct xfs_da_blkinfo, pad))
		return false;
	m = xls_be16(h + offsetof(struct xfs_da_blkinfo, magic));
	switch (m) {
	case XFS_DA_NODE_MAGIC:		o->kind = XLS_OWN_DA_NODE; return true;
	case XFS_DIR2_LEAF1_MAGIC:
	case XFS_DIR2_LEAFN_MAGIC:	o->kind = XLS_OWN_DIR; return true;
	case XFS_ATTR_LEAF_MAGIC:	o->kind = XLS_OWN_ATTR; return true;
	case XFS_DA3_NODE_MAGIC:	o->kind = XLS_OWN_DA_NODE; break;
	case XFS_DIR3_LEAF1_MAGIC:
	case XFS_DIR3_LEAFN_MAGIC:	o->kind = XLS_OWN_DIR; break;
	case XFS_ATTR3_LEAF_MAGIC:	o->kind = XLS_OWN_ATTR; break;
	default:			return false;
	}
	o->magic = m;
	owner_ino(h, len, off, o);
	return true;
}

bool xls_owner_from_header(const struct xls_geometry *g, int64_t blkno,
			   uint32_t len_bb, const uint8_t *h, uint32_t len,
			   struct xls_owner *o)
{
	uint32_t m;

	memset(o, 0, sizeof(*o));
	if (!h || len < 4)
		return false;
	m = xls_be32(h);
	o->magic = m;
	o->has_agno = daddr_agno(g, blkno, &o->agno);
	switch (m) {
	case XFS_SB_MAGIC:	o->kind = XLS_OWN_SB; return true;
	case XFS_AGF_MAGIC:	o->kind = XLS_OWN_AGF; return true;
	case XFS_AGI_MAGIC:	o->kind = XLS_OWN_AGI; return true;
	case XFS_AGFL_MAGIC:	o->kind = XLS_OWN_AGFL; return true;
	case XFS_DIR2_BLOCK_MAGIC: case XFS_DIR2_DATA_MAGIC: case XFS_DIR2_FREE_MAGIC:
		o->kind = XLS_OWN_DIR;
		return true;
	case XFS_DIR3_BLOCK_MAGIC: case XFS_DIR3_DATA_MAGIC: case XFS_DIR3_FREE_MAGIC:
		o->kind = XLS_OWN_DIR;
		owner_ino(h, len, offsetof(struct xfs_dir3_blk_hdr, owner), o);
		return true;
	case XFS_SYMLINK_MAGIC:
		o->kind = XLS_OWN_SYMLINK;
		owner_ino(h, len, offsetof(struct xfs_dsymlink_hdr, sl_owner), o);
		return true;
	case XFS_ATTR3_RMT_MAGIC:
		o->kind = XLS_OWN_ATTR_RMT;
		owner_ino(h, len, offsetof(struct xfs_attr3_rmt_hdr, rm_owner), o);
		return true;
	}
	if (btree_header(h, len, o))
		return true;
	if (da_header(h, len, o))
		return true;
	o->magic = xls_be16(h);
	if (o->magic == XFS_DINODE_MAGIC && g->inode_size) {
		uint32_t n = (uint32_t)(((uint64_t)len_bb * BB) >> g->inode_log);

		o->kind = XLS_OWN_INODES;
		o->ino_first = xls_daddr_to_ino(g, blkno);
		o->ino_last = o->ino_first + (n ? n - 1 : 0);
		return true;
	}
	if (o->magic == XFS_DQUOT_MAGIC) {
		o->kind = XLS_OWN_DQUOT;
		return true;
	}
	o->magic = 0;
	return false;
}

/* What the buffer type and the daddr alone say. */
static void owner_by_type(const struct xls_geometry *g, int64_t blkno, uint32_t len_bb,
			  unsigned int blft, struct xls_owner *o)
{
	memset(o, 0, sizeof(*o));
	o->from = XLS_OWNER_FROM_TYPE;
	o->has_agno = daddr_agno(g, blkno, &o->agno);
	switch (blft) {
	case XFS_BLFT_SB_BUF:		o->kind = XLS_OWN_SB; return;
	case XFS_BLFT_AGF_BUF:		o->kind = XLS_OWN_AGF; return;
	case XFS_BLFT_AGI_BUF:		o->kind = XLS_OWN_AGI; return;
	case XFS_BLFT_AGFL_BUF:		o->kind = XLS_OWN_AGFL; return;
	case XFS_BLFT_BTREE_BUF:	o->kind = XLS_OWN_BTREE; return;
	case XFS_BLFT_SYMLINK_BUF:	o->kind = XLS_OWN_SYMLINK; return;
	case XFS_BLFT_ATTR_LEAF_BUF:	o->kind = XLS_OWN_ATTR; return;
	case XFS_BLFT_ATTR_RMT_BUF:	o->kind = XLS_OWN_ATTR_RMT; return;
	case XFS_BLFT_DA_NODE_BUF:	o->kind = XLS_OWN_DA_NODE; return;
	case XFS_BLFT_UDQUOT_BUF: case XFS_BLFT_PDQUOT_BUF: case XFS_BLFT_GDQUOT_BUF:
		o->kind = XLS_OWN_DQUOT;
		return;
	case XFS_BLFT_DIR_BLOCK_BUF: case XFS_BLFT_DIR_DATA_BUF: case XFS_BLFT_DIR_FREE_BUF:
	case XFS_BLFT_DIR_LEAF1_BUF: case XFS_BLFT_DIR_LEAFN_BUF:
		o->kind = XLS_OWN_DIR;
		return;
	case XFS_BLFT_DINO_BUF:
		if (g->inode_size) {
			uint32_t n = (uint32_t)(((uint64_t)len_bb * BB) >> g->inode_log);

			o->kind = XLS_OWN_INODES;
			o->ino_first = xls_daddr_to_ino(g, blkno);
			o->ino_last = o->ino_first + (n ? n - 1 : 0);
		}
		return;
	}
	o->from = XLS_OWNER_FROM_NONE;
}

/* ------------------------------------------------------------------ */
/* the map */

void xls_owner_map_init(struct xls_owner_map *m, const struct xls_source *src)
{
	memset(m, 0, sizeof(*m));
	if (src && src->geo.has_sb && src->data_fd >= 0)
		m->src = src;
}

void xls_owner_map_release(struct xls_owner_map *m)
{
	xls_hashmap_free(&m->idx);
	free(m->owners);
	m->owners = NULL;
	m->n = m->cap = 0;
}

static void remember(struct xls_owner_map *m, int64_t blkno, uint32_t len_bb,
		     const struct xls_owner *o)
{
	uint32_t *idx = xls_hashmap_find(&m->idx, (uint64_t)blkno, len_bb);

	if (idx) {
		m->owners[*idx] = *o;
		return;
	}
	if (m->n == XLS_OWNER_CACHE_MAX)
		return;
	if (m->n == m->cap) {
		uint32_t cap = m->cap ? m->cap * 2 : 1024;
		struct xls_owner *p = realloc(m->owners, sizeof(*p) * cap);

		if (!p)
			return;
		m->owners = p;
		m->cap = cap;
	}
	if (xls_hashmap_put(&m->idx, (uint64_t)blkno, len_bb, m->n))
		return;
	m->owners[m->n++] = *o;
}

static bool read_disk(struct xls_owner_map *m, int64_t blkno, uint32_t len_bb,
		      struct xls_owner *o)
{
	uint8_t h[OWNER_HEAD];

	if (!m->src || blkno < 0 || (uint64_t)blkno > (UINT64_MAX >> 10) || !len_bb)
		return false;
	m->disk_reads++;
	if (xls_source_read_data(m->src, (uint64_t)blkno * BB, h, sizeof(h)))
		return false;
	return xls_owner_from_header(&m->src->geo, blkno, len_bb, h, sizeof(h), o);
}

void xls_owner_of(struct xls_owner_map *m, int64_t blkno, uint32_t len_bb,
		  unsigned int blft, const uint8_t *head, uint32_t head_len,
		  struct xls_owner *out)
{
	const struct xls_geometry *g = m->src ? &m->src->geo : NULL;
	static const struct xls_geometry none;
	uint32_t *idx;

	if (!g)
		g = &none;
	if (head && xls_owner_from_header(g, blkno, len_bb, head, head_len, out)) {
		out->from = XLS_OWNER_FROM_LOG;
		remember(m, blkno, len_bb, out);
		return;
	}
	idx = xls_hashmap_find(&m->idx, (uint64_t)blkno, len_bb);
	if (idx) {
		*out = m->owners[*idx];
		if (out->from == XLS_OWNER_FROM_LOG)
			out->from = XLS_OWNER_FROM_EARLIER;
		return;
	}
	if (read_disk(m, blkno, len_bb, out)) {
		out->from = XLS_OWNER_FROM_DISK;
		remember(m, blkno, len_bb, out);
		return;
	}
	owner_by_type(g, blkno, len_bb, blft, out);
	remember(m, blkno, len_bb, out);
}

/* The logged region placed at offset 0 of the buffer, or NULL. */
static const uint8_t *logged_head(const struct xls_item *it,
				  const struct xls_buf_analysis *ba, uint32_t *len)
{
	const struct xls_region_result *r = &ba->res;

	for (uint32_t i = 0; i < r->nplaces && i + 1 < it->nregions; i++) {
		if (r->places[i].offset == 0 && r->places[i].len) {
			*len = r->places[i].len;
			return it->regions[i + 1].data;
		}
	}
	*len = 0;
	return NULL;
}

void xls_owner_of_item(struct xls_owner_map *m, const struct xls_item *it,
		       const struct xls_buf_analysis *ba, struct xls_owner *out)
{
	uint32_t len;
	const uint8_t *head = logged_head(it, ba, &len);

	xls_owner_of(m, ba->blf.blf_blkno, ba->blf.blf_len, ba->blft, head, len, out);
}

void xls_owner_note_item(struct xls_owner_map *m, const struct xls_item *it,
			 const struct xls_buf_analysis *ba)
{
	const struct xls_geometry *g = m->src ? &m->src->geo : NULL;
	static const struct xls_geometry none;
	struct xls_owner o;
	uint32_t len;
	const uint8_t *head = logged_head(it, ba, &len);

	if (head && xls_owner_from_header(g ? g : &none, ba->blf.blf_blkno, ba->blf.blf_len,
					  head, len, &o)) {
		o.from = XLS_OWNER_FROM_LOG;
		remember(m, ba->blf.blf_blkno, ba->blf.blf_len, &o);
	}
}

/* ------------------------------------------------------------------ */

bool xls_owner_has_ino(const struct xls_owner *o, uint64_t ino)
{
	if (o->kind == XLS_OWN_INODES)
		return ino >= o->ino_first && ino <= o->ino_last;
	return o->has_ino && o->ino == ino;
}

void xls_owner_str(const struct xls_owner *o, char *buf, size_t bufsz)
{
	const char *k = o->kind == XLS_OWN_BTREE && o->btree ? o->btree :
			xls_owner_kind_name(o->kind);

	if (o->kind == XLS_OWN_INODES)
		snprintf(buf, bufsz, "inodes 0x%llx-0x%llx", (unsigned long long)o->ino_first,
			 (unsigned long long)o->ino_last);
	else if (o->has_ino)
		snprintf(buf, bufsz, "%s 0x%llx", k, (unsigned long long)o->ino);
	else if (o->has_agno && o->kind != XLS_OWN_UNKNOWN && o->kind != XLS_OWN_DIR &&
		 o->kind != XLS_OWN_ATTR && o->kind != XLS_OWN_DA_NODE)
		snprintf(buf, bufsz, "%s AG %u", k, o->agno);
	else
		snprintf(buf, bufsz, "%s", k);
}

/*
 * Does an item of each family concern inode @ino (--ino)?  The families,
 * listed once; NULL: none does.
 */
struct concerns_arg {
	struct xls_owner_map		*m;
	const struct xls_item		*it;
	const struct xls_item_decoded	*d;
	struct xls_buf_analysis		*ba;
	uint64_t			ino;
};

static bool buf_concerns(const struct concerns_arg *a)
{
	struct xls_owner o;

	xls_buf_analyse(a->it, a->ba);
	if (!a->ba->parsed)
		return false;
	xls_owner_of_item(a->m, a->it, a->ba, &o);
	return xls_owner_has_ino(&o, a->ino);
}

static bool inode_concerns(const struct concerns_arg *a)
{
	const struct xls_inode_item *i = &a->d->u.inode;

	return i->has_format && i->ilf_ino == a->ino;
}

static bool attri_concerns(const struct concerns_arg *a)
{
	const struct xls_attri_item *x = &a->d->u.attri;

	return x->has_format &&
	       (x->ino == a->ino || (x->has_parent && x->parent_ino == a->ino) ||
		(x->has_new_parent && x->new_parent_ino == a->ino));
}

static bool xmi_concerns(const struct concerns_arg *a)
{
	const struct xls_xmi_item *x = &a->d->u.xmi;

	return x->has_format && (x->inode1 == a->ino || x->inode2 == a->ino);
}

static bool map_concerns(const struct concerns_arg *a)
{
	for (uint32_t i = 0; i < a->d->u.ext.count; i++) {
		struct xls_map_extent e;

		xls_extent_item_map(&a->d->u.ext, i, &e);
		if (e.owner == a->ino)
			return true;
	}
	return false;
}

static bool icreate_concerns(const struct concerns_arg *a)
{
	const struct xls_geometry *g = a->m->src ? &a->m->src->geo : NULL;
	const struct xls_icreate_item *ic = &a->d->u.icreate;
	uint64_t first;

	if (!g || !ic->has_format || !g->block_log)
		return false;
	first = ((uint64_t)ic->icl_ag << (g->ag_block_log + g->inopb_log)) |
		((uint64_t)ic->icl_agbno << g->inopb_log);
	return a->ino >= first && a->ino < first + ic->icl_count;
}

static bool (*const family_concerns[XLS_FAMILY_COUNT])(const struct concerns_arg *) = {
	[XLS_FAMILY_BUF]		= buf_concerns,
	[XLS_FAMILY_INODE]		= inode_concerns,
	[XLS_FAMILY_ATTRI]		= attri_concerns,
	[XLS_FAMILY_XMI]		= xmi_concerns,
	[XLS_FAMILY_MAP_EXTENTS]	= map_concerns,
	[XLS_FAMILY_ICREATE]		= icreate_concerns,
};

bool xls_item_concerns_ino(struct xls_owner_map *m, const struct xls_item *it,
			   const struct xls_item_decoded *d,
			   struct xls_buf_analysis *ba, uint64_t ino)
{
	const struct concerns_arg a = { m, it, d, ba, ino };

	if (!d->type || !family_concerns[d->type->family])
		return false;
	return family_concerns[d->type->family](&a);
}
