/*
 * Semantics stage: extended attributes of shortform forks and leaf blocks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/chunkhash.h"
#include "base/ondisk.h"
#include "base/vec.h"
#include <xfs/xfs_da_format.h>
#include "semantics/dirent.h"
#include "semantics/xattr.h"

#define NS_MASK	(XFS_ATTR_ROOT | XFS_ATTR_SECURE | XFS_ATTR_PARENT)

const char *xls_xattr_ns(uint32_t flags)
{
	if (flags & XFS_ATTR_PARENT)
		return "parent";
	if (flags & XFS_ATTR_ROOT)
		return "trusted";
	if (flags & XFS_ATTR_SECURE)
		return "secure";
	return "user";
}

bool xls_xattr_parent(const struct xls_xattr *a, uint64_t *ino, uint32_t *gen)
{
	if (!(a->flags & XFS_ATTR_PARENT) || !a->value || a->valuelen < 12)
		return false;
	*ino = xls_be64(a->value);
	*gen = xls_be32(a->value + 8);
	return true;
}

uint32_t xls_attr_sf_walk(const uint8_t *fork, uint32_t len, xls_xattr_fn fn, void *ctx)
{
	uint32_t count, off = sizeof(struct xfs_attr_sf_hdr), total;

	if (len < off)
		return XLS_DIRP_SF_HDR;
	total = xls_be16(fork);
	count = fork[2];
	if (total < off || total > len)
		return XLS_DIRP_SF_HDR;
	for (uint32_t i = 0; i < count; i++) {
		struct xls_xattr a;
		uint32_t namelen, valuelen;

		if (off + 3 > total)
			return XLS_DIRP_SF_COUNT;
		namelen = fork[off];
		valuelen = fork[off + 1];
		if (!namelen)
			return XLS_DIRP_NAMELEN;
		if (3 + namelen + valuelen > total - off)
			return XLS_DIRP_PAST_END;
		a.flags = fork[off + 2] & NS_MASK;
		a.name = fork + off + 3;
		a.namelen = namelen;
		a.value = fork + off + 3 + namelen;
		a.valuelen = valuelen;
		a.remote = false;
		if (fn(ctx, &a))
			break;
		off += 3 + namelen + valuelen;
	}
	return 0;
}

bool xls_attr_is_leaf(const uint8_t *blk, uint32_t len)
{
	uint16_t m;

	if (len < offsetof(struct xfs_da_blkinfo, pad))
		return false;
	m = xls_be16(blk + offsetof(struct xfs_da_blkinfo, magic));
	return m == XFS_ATTR_LEAF_MAGIC || m == XFS_ATTR3_LEAF_MAGIC;
}

/* The attr whose name entry is at @idx of @blk; 0 or a problem. */
static uint32_t leaf_name(const uint8_t *blk, uint32_t len, uint32_t idx, uint8_t flags,
			  struct xls_xattr *a)
{
	a->flags = flags & NS_MASK;
	if (flags & XFS_ATTR_LOCAL) {
		if (idx + 3 > len)
			return XLS_DIRP_PAST_END;
		a->valuelen = xls_be16(blk + idx);
		a->namelen = blk[idx + 2];
		a->name = blk + idx + 3;
		a->value = a->name + a->namelen;
		a->remote = false;
		if ((uint64_t)idx + 3 + a->namelen + a->valuelen > len)
			return XLS_DIRP_PAST_END;
	} else {
		if (idx + 9 > len)
			return XLS_DIRP_PAST_END;
		a->valuelen = xls_be32(blk + idx + 4);
		a->namelen = blk[idx + 8];
		a->name = blk + idx + 9;
		a->value = NULL;
		a->remote = true;
		if ((uint64_t)idx + 9 + a->namelen > len)
			return XLS_DIRP_PAST_END;
	}
	return a->namelen ? 0 : XLS_DIRP_NAMELEN;
}

uint32_t xls_attr_leaf_walk(const uint8_t *blk, uint32_t len, xls_xattr_fn fn, void *ctx)
{
	bool v3;
	uint32_t hdr, count, problems = 0;

	if (!xls_attr_is_leaf(blk, len))
		return XLS_DIRP_MAGIC;
	v3 = xls_be16(blk + offsetof(struct xfs_da_blkinfo, magic)) == XFS_ATTR3_LEAF_MAGIC;
	hdr = v3 ? sizeof(struct xfs_attr3_leaf_hdr) : sizeof(struct xfs_attr_leaf_hdr);
	if (hdr > len)
		return XLS_DIRP_PAST_END;
	count = xls_be16(blk + (v3 ? offsetof(struct xfs_attr3_leaf_hdr, count) :
				offsetof(struct xfs_attr_leaf_hdr, count)));
	if ((uint64_t)count * sizeof(struct xfs_attr_leaf_entry) > len - hdr)
		return XLS_DIRP_SF_COUNT;
	for (uint32_t i = 0; i < count; i++) {
		const uint8_t *e = blk + hdr + (size_t)i * sizeof(struct xfs_attr_leaf_entry);
		uint8_t flags = e[offsetof(struct xfs_attr_leaf_entry, flags)];
		struct xls_xattr a;
		uint32_t p;

		if (flags & XFS_ATTR_INCOMPLETE)
			continue;
		p = leaf_name(blk, len, xls_be16(e + offsetof(struct xfs_attr_leaf_entry, nameidx)),
			      flags, &a);
		if (p) {
			problems |= p;
			continue;
		}
		if (fn(ctx, &a))
			break;
	}
	return problems;
}

/* ------------------------------------------------------------------ */
/* sets of attrs */

/*
 * Values are compared by hash only; a byte at a time, hashing cost files
 * 6 % of its time on an xattr workload, so 128-byte pieces go through the
 * chunk hash and are chained.
 */
static uint64_t value_hash(const struct xls_xattr *a)
{
	uint64_t h = 0xcbf29ce484222325ull ^ a->valuelen;

	for (uint32_t off = 0; a->value && off < a->valuelen; off += XLS_CHUNK_BYTES) {
		uint32_t n = a->valuelen - off < XLS_CHUNK_BYTES ? a->valuelen - off :
			     XLS_CHUNK_BYTES;

		h = ((h << 29 | h >> 35) ^ xls_chunk_hash_bytes(a->value + off, n)) *
		    0x9e3779b97f4a7c15ull;
	}
	return h;
}

int xls_xattr_set_add(void *set, const struct xls_xattr *a)
{
	struct xls_xattr_set *s = set;
	struct xls_xattr_rec *x;
	uint32_t gen, name;

	if (a->namelen > 255)
		return 0;
	if (!xls_vec_grow((void **)&s->e, s->n, &s->cap, sizeof(*x))) {
		s->nomem = true;
		return 1;
	}
	if (!xls_pool_add(&s->pool, a->name, a->namelen, &name)) {
		s->nomem = true;
		return 1;
	}
	x = &s->e[s->n++];
	x->flags = a->flags;
	if (!xls_xattr_parent(a, &x->parent, &gen))
		x->parent = 0;
	x->name = name;
	x->len = (uint8_t)a->namelen;
	x->vhash = x->parent ? 0 : value_hash(a);
	return 0;
}

static int cmp_recs(const uint8_t *pa, const struct xls_xattr_rec *x, const uint8_t *pb,
		    const struct xls_xattr_rec *y)
{
	int c;

	if (x->flags != y->flags)
		return x->flags < y->flags ? -1 : 1;
	if (x->parent != y->parent)
		return x->parent < y->parent ? -1 : 1;
	c = memcmp(pa + x->name, pb + y->name, x->len < y->len ? x->len : y->len);
	return c ? c : (x->len > y->len) - (x->len < y->len);
}

int xls_xattr_set_cmp(const struct xls_xattr_set *a, uint32_t i,
		      const struct xls_xattr_set *b, uint32_t j)
{
	return cmp_recs(a->pool.p, &a->e[i], b->pool.p, &b->e[j]);
}

static int cmp_rec(const void *p, const void *q, void *pool)
{
	return cmp_recs(pool, p, pool, q);
}

void xls_xattr_set_sort(struct xls_xattr_set *s)
{
	if (s->n)
		qsort_r(s->e, s->n, sizeof(*s->e), cmp_rec, s->pool.p);
}

void xls_xattr_set_reset(struct xls_xattr_set *s)
{
	s->n = 0;
	s->pool.used = 0;
}

void xls_xattr_set_free(struct xls_xattr_set *s)
{
	xls_vec_free(s->e);
	xls_pool_free(&s->pool);
	memset(s, 0, sizeof(*s));
}

uint32_t xls_xattr_set_name(const struct xls_xattr_set *s, uint32_t i, char *buf,
			    size_t bufsz)
{
	const struct xls_xattr_rec *x = &s->e[i];
	int n;

	if (x->flags & XFS_ATTR_PARENT)
		n = snprintf(buf, bufsz, "%.*s", (int)x->len, (const char *)s->pool.p + x->name);
	else
		n = snprintf(buf, bufsz, "%s.%.*s", xls_xattr_ns(x->flags), (int)x->len,
			     (const char *)s->pool.p + x->name);
	if (n < 0)
		return 0;
	return (size_t)n < bufsz ? (uint32_t)n : (uint32_t)bufsz - 1;
}
