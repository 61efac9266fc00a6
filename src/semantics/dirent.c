/*
 * Semantics stage: directory entries of data, block-form and shortform
 * directories (xfs_da_format.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/ondisk.h"
#include "base/vec.h"
#include <xfs/xfs_da_format.h>
#include "items/item.h"
#include "semantics/dirent.h"

#define DATA_ALIGN	XFS_DIR2_DATA_ALIGN	/* entries are 8-byte aligned */
#define FREE_TAG	XFS_DIR2_DATA_FREE_TAG

static const char *const problem_names[] = {
	"bad_magic", "bad_namelen", "past_end", "bad_tag", "bad_free_len",
	"bad_tail", "sf_count", "sf_header",
};

void xls_dir_problems_str(uint32_t problems, char *buf, size_t bufsz)
{
	size_t n = 0;

	if (bufsz)
		buf[0] = '\0';
	for (unsigned int i = 0; i < sizeof(problem_names) / sizeof(problem_names[0]); i++) {
		if (!(problems & (1u << i)) || n >= bufsz)
			continue;
		n += (size_t)snprintf(buf + n, bufsz - n, "%s%s", n ? "|" : "", problem_names[i]);
	}
}

bool xls_dirent_is_dot(const struct xls_dirent *e)
{
	return (e->namelen == 1 && e->name[0] == '.') ||
	       (e->namelen == 2 && e->name[0] == '.' && e->name[1] == '.');
}

uint32_t xls_dirent_size(const struct xls_geometry *g, uint32_t namelen)
{
	uint32_t n = 8 + 1 + namelen + 2 + (g->has_ftype ? 1 : 0);

	return (n + DATA_ALIGN - 1) & ~(uint32_t)(DATA_ALIGN - 1);
}

int xls_dirent_ignore(void *ctx, const struct xls_dirent *e)
{
	(void)ctx;
	(void)e;
	return 0;
}

bool xls_dir_is_data_block(const uint8_t *blk, uint32_t len)
{
	uint32_t m;

	if (len < 4)
		return false;
	m = xls_be32(blk);
	return m == XFS_DIR2_DATA_MAGIC || m == XFS_DIR3_DATA_MAGIC ||
	       m == XFS_DIR2_BLOCK_MAGIC || m == XFS_DIR3_BLOCK_MAGIC;
}

/* Where the data area of block @blk starts and ends. */
static uint32_t data_area(const uint8_t *blk, uint32_t len, uint32_t *start,
			  uint32_t *end)
{
	uint32_t m = xls_be32(blk);
	bool v3 = m == XFS_DIR3_DATA_MAGIC || m == XFS_DIR3_BLOCK_MAGIC;

	*start = v3 ? sizeof(struct xfs_dir3_data_hdr) : sizeof(struct xfs_dir2_data_hdr);
	*end = len;
	if (*start > len)
		return XLS_DIRP_PAST_END;
	if (m == XFS_DIR2_BLOCK_MAGIC || m == XFS_DIR3_BLOCK_MAGIC) {
		uint64_t count, leaf;

		if (len < *start + sizeof(struct xfs_dir2_block_tail))
			return XLS_DIRP_TAIL;
		count = xls_be32(blk + len - sizeof(struct xfs_dir2_block_tail));
		leaf = count * sizeof(struct xfs_dir2_leaf_entry) +
		       sizeof(struct xfs_dir2_block_tail);
		if (leaf > len - *start)
			return XLS_DIRP_TAIL;
		*end = len - (uint32_t)leaf;
	}
	return 0;
}

/*
 * The entry or free entry at @off of @blk (data area ends at @end): its
 * size, or 0 with *@problem set when it does not fit.  @e gets a real
 * entry (e->namelen 0 for a free one).  @blk is the block from byte @base
 * on: tags and e->offset count from the block's start.
 */
static uint32_t entry_at(const struct xls_geometry *g, const uint8_t *blk, uint32_t base,
			 uint32_t off, uint32_t end, struct xls_dirent *e, uint32_t *problem)
{
	uint32_t size, namelen;

	e->namelen = 0;
	if (off + 4 > end) {
		*problem = XLS_DIRP_PAST_END;
		return 0;
	}
	if (xls_be16(blk + off) == FREE_TAG) {
		size = xls_be16(blk + off + 2);
		if (size < DATA_ALIGN || size % DATA_ALIGN || size > end - off ||
		    xls_be16(blk + off + size - 2) != base + off) {
			*problem = XLS_DIRP_UNUSED_LEN;
			return 0;
		}
		return size;
	}
	if (off + 9 > end) {
		*problem = XLS_DIRP_PAST_END;
		return 0;
	}
	namelen = blk[off + 8];
	if (!namelen) {
		*problem = XLS_DIRP_NAMELEN;
		return 0;
	}
	size = xls_dirent_size(g, namelen);
	if (size > end - off) {
		*problem = XLS_DIRP_PAST_END;
		return 0;
	}
	if (xls_be16(blk + off + size - 2) != base + off) {
		*problem = XLS_DIRP_TAG;
		return 0;
	}
	e->ino = xls_be64(blk + off);
	e->offset = base + off;
	e->namelen = (uint8_t)namelen;
	e->name = blk + off + 9;
	e->ftype = g->has_ftype ? blk[off + 9 + namelen] : 0;
	return size;
}

uint32_t xls_dir_block_walk(const struct xls_geometry *g, const uint8_t *blk,
			    uint32_t len, xls_dirent_fn fn, void *ctx)
{
	uint32_t start, end, problems;

	if (!xls_dir_is_data_block(blk, len))
		return XLS_DIRP_MAGIC;
	problems = data_area(blk, len, &start, &end);
	if (problems)
		return problems;
	for (uint32_t off = start; off < end;) {
		struct xls_dirent e;
		uint32_t p = 0, size = entry_at(g, blk, 0, off, end, &e, &p);

		if (!size)
			return problems | p;
		if (e.namelen && fn(ctx, &e))
			break;
		off += size;
	}
	return problems;
}

uint32_t xls_dir_range_scan(const struct xls_geometry *g, const uint8_t *blk,
			    uint32_t len, uint32_t start, uint32_t end,
			    xls_dirent_fn fn, void *ctx)
{
	uint32_t dstart = 0, dend = len;

	if (end > len)
		end = len;
	if (xls_dir_is_data_block(blk, len) && data_area(blk, len, &dstart, &dend) == 0) {
		if (start < dstart)
			start = dstart;
		if (end > dend)
			end = dend;
	}
	start = (start + DATA_ALIGN - 1) & ~(uint32_t)(DATA_ALIGN - 1);
	for (uint32_t off = start; off < end;) {
		struct xls_dirent e;
		uint32_t p = 0, size = entry_at(g, blk, 0, off, end, &e, &p);

		/* not an entry here: the next aligned offset may start one */
		if (!size) {
			off += DATA_ALIGN;
			continue;
		}
		if (e.namelen && fn(ctx, &e))
			break;
		off += size;
	}
	return 0;
}

uint32_t xls_dir_region_scan(const struct xls_geometry *g, const uint8_t *data,
			     uint32_t len, uint32_t base, xls_dirent_fn fn, void *ctx)
{
	/* the first entry that may start in the region */
	uint32_t off = ((base + DATA_ALIGN - 1) & ~(uint32_t)(DATA_ALIGN - 1)) - base;

	if (base > UINT16_MAX || (uint64_t)base + len > (uint64_t)UINT16_MAX + 1)
		return XLS_DIRP_PAST_END;	/* tags are 16 bits: no such block */
	while (off < len) {
		struct xls_dirent e;
		uint32_t p = 0, size = entry_at(g, data, base, off, len, &e, &p);

		if (!size) {
			off += DATA_ALIGN;
			continue;
		}
		if (e.namelen && !xls_dirent_is_dot(&e) && fn(ctx, &e))
			break;
		off += size;
	}
	return 0;
}

uint32_t xls_dir_sf_walk(const struct xls_geometry *g, const uint8_t *fork,
			 uint32_t len, uint64_t *parent, xls_dirent_fn fn, void *ctx)
{
	uint32_t count, i8, isz, off;

	*parent = 0;
	if (len < 2)
		return XLS_DIRP_SF_HDR;
	count = fork[0];
	i8 = fork[1];
	isz = i8 ? 8 : 4;
	if (2 + isz > len)
		return XLS_DIRP_SF_HDR;
	*parent = i8 ? xls_be64(fork + 2) : xls_be32(fork + 2);
	off = 2 + isz;
	for (uint32_t i = 0; i < count; i++) {
		struct xls_dirent e;
		uint32_t namelen, size;

		if (off + 3 > len)
			return XLS_DIRP_SF_COUNT;
		namelen = fork[off];
		if (!namelen)
			return XLS_DIRP_NAMELEN;
		size = 3 + namelen + (g->has_ftype ? 1 : 0) + isz;
		if (size > len - off)
			return XLS_DIRP_PAST_END;
		e.offset = xls_be16(fork + off + 1);
		e.namelen = (uint8_t)namelen;
		e.name = fork + off + 3;
		e.ftype = g->has_ftype ? fork[off + 3 + namelen] : 0;
		e.ino = i8 ? xls_be64(fork + off + size - 8) : xls_be32(fork + off + size - 4);
		if (fn(ctx, &e))
			break;
		off += size;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* sets of entries */

int xls_dirent_set_add(void *set, const struct xls_dirent *e)
{
	struct xls_dirent_set *s = set;
	struct xls_dirent_rec *x;
	uint32_t name;

	if (xls_dirent_is_dot(e))
		return 0;
	if (!xls_vec_grow((void **)&s->e, s->n, &s->cap, sizeof(*x))) {
		s->nomem = true;
		return 1;
	}
	if (!xls_pool_add(&s->pool, e->name, e->namelen, &name)) {
		s->nomem = true;
		return 1;
	}
	x = &s->e[s->n++];
	x->ino = e->ino;
	x->name = name;
	x->offset = e->offset;
	x->len = e->namelen;
	x->ftype = e->ftype;
	return 0;
}

static bool same_rec(const struct xls_dirent_set *a, const struct xls_dirent_rec *x,
		     const struct xls_dirent_set *b, const struct xls_dirent_rec *y)
{
	return x->offset == y->offset && x->ino == y->ino && x->len == y->len &&
	       !memcmp(a->pool.p + x->name, b->pool.p + y->name, x->len);
}

void xls_dirent_set_drop_same(struct xls_dirent_set *a, struct xls_dirent_set *b)
{
	uint32_t i = 0, j = 0, na = 0, nb = 0;

	while (i < a->n && j < b->n) {
		if (a->e[i].offset < b->e[j].offset) {
			a->e[na++] = a->e[i++];
		} else if (a->e[i].offset > b->e[j].offset) {
			b->e[nb++] = b->e[j++];
		} else if (same_rec(a, &a->e[i], b, &b->e[j])) {
			i++;
			j++;
		} else {
			a->e[na++] = a->e[i++];
			b->e[nb++] = b->e[j++];
		}
	}
	while (i < a->n)
		a->e[na++] = a->e[i++];
	while (j < b->n)
		b->e[nb++] = b->e[j++];
	a->n = na;
	b->n = nb;
}

static int cmp_recs(const uint8_t *pa, const struct xls_dirent_rec *x, const uint8_t *pb,
		    const struct xls_dirent_rec *y, bool by_ino)
{
	int c = memcmp(pa + x->name, pb + y->name, x->len < y->len ? x->len : y->len);

	if (c)
		return c;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return by_ino ? (x->ino > y->ino) - (x->ino < y->ino) : 0;
}

int xls_dirent_set_cmp(const struct xls_dirent_set *a, uint32_t i,
		       const struct xls_dirent_set *b, uint32_t j, bool by_ino)
{
	return cmp_recs(a->pool.p, &a->e[i], b->pool.p, &b->e[j], by_ino);
}

/* qsort may move elements through a buffer of its own: compare contents */
static int cmp_rec(const void *p, const void *q, void *pool)
{
	return cmp_recs(pool, p, pool, q, true);
}

void xls_dirent_set_sort(struct xls_dirent_set *s)
{
	if (s->n)
		qsort_r(s->e, s->n, sizeof(*s->e), cmp_rec, s->pool.p);
}

void xls_dirent_set_reset(struct xls_dirent_set *s)
{
	s->n = 0;
	s->pool.used = 0;
}

void xls_dirent_set_free(struct xls_dirent_set *s)
{
	xls_vec_free(s->e);
	xls_pool_free(&s->pool);
	memset(s, 0, sizeof(*s));
}

/* ------------------------------------------------------------------ */
/* the entries of logged regions */

struct logged {
	struct xls_logged_dirent	*out;
	uint32_t			n, max;
};

static int take_logged(void *ctx, const struct xls_dirent *e)
{
	struct logged *l = ctx;
	struct xls_logged_dirent *d;

	if (l->n == l->max)
		return 1;
	d = &l->out[l->n++];
	d->offset = e->offset;
	d->ino = e->ino;
	memcpy(d->name, e->name, e->namelen);
	d->name[e->namelen] = '\0';
	return 0;
}

uint32_t xls_dir_logged_entries(const struct xls_geometry *g, unsigned int blft,
				uint32_t buf_bytes, const struct xls_region *regions,
				const uint32_t *offsets, uint32_t nregions,
				struct xls_logged_dirent *out, uint32_t max)
{
	struct logged l = { out, 0, max };
	uint32_t hdr = g->crc ? sizeof(struct xfs_dir3_data_hdr) : sizeof(struct xfs_dir2_data_hdr);

	for (uint32_t i = 0; i < nregions && l.n < max; i++) {
		const uint8_t *data = regions[i].data;
		uint32_t base = offsets[i], len = regions[i].len;

		if (!data || base >= buf_bytes)
			continue;
		if (len > buf_bytes - base)
			len = buf_bytes - base;
		if (base < hdr) {		/* the header is no entry */
			if (base + len <= hdr)
				continue;
			data += hdr - base;
			len -= hdr - base;
			base = hdr;
		}
		/* block form: the leaf entries and the tail end the block */
		if (blft == XFS_BLFT_DIR_BLOCK_BUF && base + len == buf_bytes && len >= 8) {
			uint64_t leaf = (uint64_t)xls_be32(data + len - 8) * 8 + 8;

			len = leaf < len ? len - (uint32_t)leaf : 0;
		}
		xls_dir_region_scan(g, data, len, base, take_logged, &l);
	}
	return l.n;
}
