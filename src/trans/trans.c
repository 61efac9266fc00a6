/*
 * Trans stage.  The rules are those of xlog_recover_process_ophdr(),
 * xlog_recovery_process_trans(), xlog_recover_add_to_trans() and
 * xlog_recover_add_to_cont_trans(): a transaction starts with a START op
 * and is keyed by tid; its first region is the transaction header; an
 * item's first region gives its region count; WAS_CONT ops extend the
 * previous region; COMMIT ends it.  Where recovery would fail with
 * -EFSCORRUPTED, the transaction is marked corrupt and its later ops are
 * dropped, and decoding goes on.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/hashmap.h"
#include "base/ondisk.h"
#include "trans/trans.h"

#define ARENA_MAX	(16u << 20)	/* one item's bytes */
/* All arenas together: 1024 hostile open items must not take 16 GiB. */
#define ARENA_BUDGET	(256ull << 20)
#define OPHDR_SIZE	((uint32_t)sizeof(xlog_op_header_t))
#define THDR_SIZE	((uint32_t)sizeof(struct xfs_trans_header))
#define ARENA_FULL	"item larger than 16 MiB, or items of open transactions over 256 MiB"

/*
 * A stale transaction whose start op is gone cannot be split into items as
 * its ops arrive: which op begins an item is known only once its commit
 * shows where the last item ends.  Its ops wait here until then.
 */
#define PARTIAL_MAX	(64u << 20)

struct partial_op {
	uint32_t	off;		/* in bytes */
	uint32_t	len;
	bool		cont;		/* XLOG_WAS_CONT_TRANS */
};

struct partial {
	uint8_t			*bytes;
	size_t			nbytes;
	size_t			bytes_cap;
	struct partial_op	*ops;
	uint32_t		nops;
	uint32_t		ops_cap;
	uint32_t		nseen;		/* ops seen, kept or not */
	bool			overflow;	/* over PARTIAL_MAX: none kept */
};

struct open_trans {
	struct xls_trans	t;
	struct partial		*partial;	/* stale, start op gone, not yet committed */
	uint32_t		id;		/* index in tt->byid */
	bool			begun;
	bool			header_done;	/* recovery's "itemq not empty" */
	uint8_t			hdr[sizeof(struct xfs_trans_header)];
	uint32_t		hdr_len;
	uint64_t		last_lsn;	/* to count records */
	/* the item being assembled */
	uint32_t		ri_total;
	uint32_t		ri_cnt;
	bool			ri_cont;	/* its last region goes on in a later op */
	uint16_t		item_type;
	enum xls_endian		item_endian;
	uint64_t		item_op_bytes;
	/*
	 * Regions [0, ri_copied) are in the arena; the later ones are still
	 * where the current record holds them (reg_src): most items end in
	 * the record they start in, and are handed out without a copy.  The
	 * arena has room reserved for them at reg_off all the same, so that
	 * memory use and its limits do not depend on when they are copied.
	 */
	uint32_t		ri_copied;
	uint32_t		reg_off[XLS_MAX_REGIONS_IN_ITEM];
	uint32_t		reg_len[XLS_MAX_REGIONS_IN_ITEM];
	const uint8_t		*reg_src[XLS_MAX_REGIONS_IN_ITEM];
	struct xls_region	regions[XLS_MAX_REGIONS_IN_ITEM];
	uint8_t			*arena;
	size_t			arena_used;	/* reserved, copied or not */
	size_t			arena_cap;
	bool			borrowing;	/* listed in tt->borrowers */
};

struct xls_trans_table {
	struct open_trans	*slot[XLS_MAX_OPEN_TRANS];
	uint32_t		nslots;		/* allocated, open or free */
	uint32_t		nopen;		/* slot[0 .. nopen) are open */
	struct open_trans	*last;		/* found last; NULL when closed */
	uint64_t		arena_bytes;	/* allocated by all arenas */
	/* open transactions by tid: a hostile log can keep 1024 open */
	struct xls_hashmap	tids;		/* tid -> id */
	struct open_trans	*byid[XLS_MAX_OPEN_TRANS];
	/* slots with regions still in the current record (no duplicates) */
	struct open_trans	*borrowers[XLS_MAX_OPEN_TRANS];
	uint32_t		nborrowers;
	bool			full_reported;
	bool			stale;		/* xls_trans_table_set_stale() */
};

/* Where an op was found, for findings. */
struct op_ctx {
	struct xls_trans_table		*tt;
	const struct xls_rec		*rec;
	const struct xls_op		*op;
	const struct xls_trans_sink	*sink;
};

const char *xls_trans_state_name(enum xls_trans_state s)
{
	switch (s) {
	case XLS_TRANS_OPEN:		return "open";
	case XLS_TRANS_COMMITTED:	return "committed";
	case XLS_TRANS_UNMOUNT:		return "unmount";
	case XLS_TRANS_INCOMPLETE:	return "incomplete";
	case XLS_TRANS_CORRUPT:		return "corrupt";
	}
	return "?";
}

struct xls_trans_table *xls_trans_table_new(void)
{
	return calloc(1, sizeof(struct xls_trans_table));
}

void xls_trans_table_set_stale(struct xls_trans_table *tt)
{
	tt->stale = true;
}

static void partial_free(struct open_trans *ot)
{
	if (!ot->partial)
		return;
	free(ot->partial->bytes);
	free(ot->partial->ops);
	free(ot->partial);
	ot->partial = NULL;
}

void xls_trans_table_free(struct xls_trans_table *tt)
{
	if (!tt)
		return;
	for (uint32_t i = 0; i < tt->nslots; i++) {
		partial_free(tt->slot[i]);
		free(tt->slot[i]->arena);
		free(tt->slot[i]);
	}
	xls_hashmap_free(&tt->tids);
	free(tt);
}

static int report(const struct op_ctx *c, enum xls_finding_kind kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int report(const struct op_ctx *c, enum xls_finding_kind kind, const char *fmt, ...)
{
	const struct xls_finding_at at = {
		.lsn = c->rec ? c->rec->h_lsn : 0,
		.rec_blk = c->rec ? c->rec->blk : 0,
		.has_offset = c->op != NULL,
		.offset = c->op ? c->op->offset : 0,
		.has_tid = c->op != NULL,
		.tid = c->op ? c->op->oh_tid : 0,
	};
	struct xls_finding f;
	va_list ap;

	if (!c->sink->finding)
		return 0;
	va_start(ap, fmt);
	xls_finding_vmake(&f, kind, &at, fmt, ap);
	va_end(ap);
	return c->sink->finding(c->sink->ctx, &f);
}

static __attribute__((noinline)) struct open_trans *
find_open_by_tid(struct xls_trans_table *tt, uint32_t tid)
{
	const uint32_t *id = xls_hashmap_find(&tt->tids, tid, 0);

	return id ? (tt->last = tt->byid[*id]) : NULL;
}

static inline struct open_trans *find_open(struct xls_trans_table *tt, uint32_t tid)
{
	/* Ops mostly come in runs of one transaction: try the last one first. */
	if (tt->last && tt->last->t.tid == tid)
		return tt->last;
	return find_open_by_tid(tt, tid);
}

/* Take a free slot, reusing its arena; NULL when the table is full. */
static struct open_trans *open_new(struct xls_trans_table *tt)
{
	struct open_trans *ot;
	uint8_t *arena;
	uint32_t id;
	size_t cap;

	if (tt->nopen == tt->nslots) {
		if (tt->nslots == XLS_MAX_OPEN_TRANS)
			return NULL;
		tt->slot[tt->nslots] = calloc(1, sizeof(struct open_trans));
		if (!tt->slot[tt->nslots])
			return NULL;
		tt->slot[tt->nslots]->id = tt->nslots;
		tt->byid[tt->nslots] = tt->slot[tt->nslots];
		tt->nslots++;
	}
	ot = tt->slot[tt->nopen++];
	arena = ot->arena;
	cap = ot->arena_cap;
	id = ot->id;
	memset(ot, 0, offsetof(struct open_trans, reg_off));
	ot->id = id;
	ot->arena = arena;
	ot->arena_cap = cap;
	ot->arena_used = 0;
	return ot;
}

static void close_slot(struct xls_trans_table *tt, struct open_trans *ot)
{
	partial_free(ot);
	if (tt->last == ot)
		tt->last = NULL;
	xls_hashmap_del(&tt->tids, ot->t.tid, 0);
	for (uint32_t i = 0; i < tt->nopen; i++) {
		if (tt->slot[i] != ot)
			continue;
		tt->slot[i] = tt->slot[tt->nopen - 1];
		tt->slot[tt->nopen - 1] = ot;
		tt->nopen--;
		return;
	}
}

static int begin_once(struct open_trans *ot, const struct xls_trans_sink *sink)
{
	if (ot->begun)
		return 0;
	ot->begun = true;
	return sink->begin ? sink->begin(sink->ctx, &ot->t) : 0;
}

static int item_emit(struct open_trans *ot, const struct xls_trans_sink *sink)
{
	struct xls_item it;
	int rc;

	if (ot->ri_cnt == 0)
		return 0;
	for (uint32_t i = 0; i < ot->ri_cnt; i++) {
		ot->regions[i].data = i < ot->ri_copied ?
				      ot->arena + ot->reg_off[i] : ot->reg_src[i];
		ot->regions[i].len = ot->reg_len[i];
	}
	it.type = ot->item_type;
	it.size = (uint16_t)ot->ri_total;
	it.endian = ot->item_endian;
	it.nregions = ot->ri_cnt;
	it.regions = ot->regions;
	it.op_bytes = ot->item_op_bytes;
	rc = begin_once(ot, sink);
	if (!rc && sink->item)
		rc = sink->item(sink->ctx, &ot->t, &it);
	ot->t.nitems++;
	ot->ri_total = ot->ri_cnt = ot->ri_copied = 0;
	ot->item_op_bytes = 0;
	ot->arena_used = 0;
	return rc;
}

static int trans_end(struct xls_trans_table *tt, struct open_trans *ot,
		     enum xls_trans_state state, const struct xls_trans_sink *sink)
{
	int rc;

	/*
	 * A stale transaction cut by a boundary lists its whole items only:
	 * an item whose regions the boundary cut is lost, not shown short.
	 */
	if (tt->stale && state == XLS_TRANS_INCOMPLETE &&
	    (ot->ri_cnt < ot->ri_total || ot->ri_cont))
		ot->ri_total = ot->ri_cnt = ot->ri_copied = 0;
	rc = item_emit(ot, sink);
	/* ended before its commit: none of its items can be placed */
	if (ot->partial)
		ot->t.skipped_ops = ot->partial->nseen;
	if (ot->t.state != XLS_TRANS_CORRUPT)
		ot->t.state = state;
	if (!rc)
		rc = begin_once(ot, sink);
	if (!rc && sink->end)
		rc = sink->end(sink->ctx, &ot->t);
	close_slot(tt, ot);
	return rc;
}

static int mark_corrupt(const struct op_ctx *c, struct open_trans *ot,
			const char *why)
{
	ot->t.state = XLS_TRANS_CORRUPT;
	ot->t.why = why;
	return report(c, XLS_FIND_TRANS_CORRUPT, "transaction 0x%08x: %s; recovery would stop here",
		      ot->t.tid, why);
}

/* Room for @len more bytes in the arena; -1 past the limits. */
static int arena_reserve(struct xls_trans_table *tt, struct open_trans *ot,
			 uint32_t len)
{
	if (ot->arena_used + len > ot->arena_cap) {
		size_t cap = ot->arena_cap ? ot->arena_cap : 65536;
		uint8_t *n;

		while (cap < ot->arena_used + len)
			cap *= 2;
		if (cap > ARENA_MAX ||
		    tt->arena_bytes - ot->arena_cap + cap > ARENA_BUDGET)
			return -1;
		n = realloc(ot->arena, cap);
		if (!n)
			return -1;
		tt->arena_bytes += cap - ot->arena_cap;
		ot->arena = n;
		ot->arena_cap = cap;
	}
	return 0;
}

/* Copy the regions still in the record into the room kept for them. */
static void arena_copy_borrowed(struct open_trans *ot)
{
	for (uint32_t i = ot->ri_copied; i < ot->ri_cnt; i++)
		memcpy(ot->arena + ot->reg_off[i], ot->reg_src[i], ot->reg_len[i]);
	ot->ri_copied = ot->ri_cnt;
}

/* The record is done with: what its open items borrowed moves to arenas. */
static void copy_all_borrowed(struct xls_trans_table *tt)
{
	for (uint32_t i = 0; i < tt->nborrowers; i++) {
		arena_copy_borrowed(tt->borrowers[i]);
		tt->borrowers[i]->borrowing = false;
	}
	tt->nborrowers = 0;
}

static void header_parse(struct open_trans *ot)
{
	enum xls_endian e = ot->t.header_endian;
	const uint8_t *h = ot->hdr;

	ot->t.th_magic = xls_get32(e, h + offsetof(struct xfs_trans_header, th_magic));
	ot->t.th_type = xls_get32(e, h + offsetof(struct xfs_trans_header, th_type));
	ot->t.th_tid = xls_get32(e, h + offsetof(struct xfs_trans_header, th_tid));
	ot->t.th_num_items = xls_get32(e, h + offsetof(struct xfs_trans_header, th_num_items));
	ot->t.has_header = true;
	ot->header_done = true;
}

/* The first region(s) of a transaction: its header, maybe split. */
static int add_header(const struct op_ctx *c, struct open_trans *ot,
		      const uint8_t *dp, uint32_t len)
{
	if (len < 4)
		return mark_corrupt(c, ot, "transaction header region shorter than its magic");
	if (xls_le32(dp) == XFS_TRANS_HEADER_MAGIC)
		ot->t.header_endian = XLS_LITTLE_ENDIAN;
	else if (xls_be32(dp) == XFS_TRANS_HEADER_MAGIC)
		ot->t.header_endian = XLS_BIG_ENDIAN;
	else
		return mark_corrupt(c, ot, "bad transaction header magic");
	if (len > THDR_SIZE)
		return mark_corrupt(c, ot, "transaction header region longer than 16 bytes");
	memcpy(ot->hdr, dp, len);
	ot->hdr_len = len;
	ot->t.header_bytes += len;
	ot->t.op_bytes += OPHDR_SIZE;
	if (len == THDR_SIZE) {
		header_parse(ot);
		return begin_once(ot, c->sink);
	}
	return 0;
}

/* A new region: the start of an item, or its next region. */
static int add_region(const struct op_ctx *c, struct open_trans *ot,
		      const uint8_t *dp, uint32_t len)
{
	if (len == 0)
		return 0;
	if (!ot->header_done) {
		if (ot->hdr_len)
			return mark_corrupt(c, ot, "transaction header split without a continuation");
		return add_header(c, ot, dp, len);
	}
	if (ot->ri_total != 0 && ot->ri_cnt == ot->ri_total) {
		int rc = item_emit(ot, c->sink);

		if (rc)
			return rc;
	}
	if (ot->ri_total == 0) {
		uint16_t type, size;

		if (len < 4)
			return mark_corrupt(c, ot, "item format region shorter than 4 bytes");
		if (xls_item_detect(dp, len, &type, &ot->item_endian) < 0) {
			/* Neither order knows it: the writer's is the header's. */
			ot->item_endian = ot->t.header_endian;
			type = xls_get16(ot->item_endian, dp);
			report(c, XLS_FIND_ITEM_TYPE, "transaction 0x%08x: unknown item type 0x%04x",
			       ot->t.tid, type);
		}
		size = xls_get16(ot->item_endian, dp + 2);
		if (size == 0 || size > XLS_MAX_REGIONS_IN_ITEM)
			return mark_corrupt(c, ot, "bad number of regions in an item format");
		ot->item_type = type;
		ot->ri_total = size;
	}
	if (arena_reserve(c->tt, ot, len))
		return mark_corrupt(c, ot, ARENA_FULL);
	if (!ot->borrowing) {
		ot->borrowing = true;
		c->tt->borrowers[c->tt->nborrowers++] = ot;
	}
	ot->reg_off[ot->ri_cnt] = (uint32_t)ot->arena_used;
	ot->reg_len[ot->ri_cnt] = len;
	ot->reg_src[ot->ri_cnt] = dp;
	ot->arena_used += len;
	ot->ri_cnt++;
	ot->item_op_bytes += OPHDR_SIZE;
	ot->t.op_bytes += OPHDR_SIZE;
	ot->t.nregions++;
	ot->t.region_bytes += len;
	return 0;
}

/* The rest of a region split across records (XLOG_WAS_CONT_TRANS). */
static int add_continuation(const struct op_ctx *c, struct open_trans *ot,
			    const uint8_t *dp, uint32_t len)
{
	if (!ot->header_done) {
		if (len > THDR_SIZE || ot->hdr_len + len != THDR_SIZE)
			return mark_corrupt(c, ot, "continued transaction header does not add up to 16 bytes");
		memcpy(ot->hdr + ot->hdr_len, dp, len);
		ot->hdr_len += len;
		ot->t.header_bytes += len;
		ot->t.op_bytes += OPHDR_SIZE;
		header_parse(ot);
		return begin_once(ot, c->sink);
	}
	if (ot->ri_cnt == 0)
		return mark_corrupt(c, ot, "continuation with no region to continue");
	/* The region grows in the arena, after what it holds so far. */
	if (arena_reserve(c->tt, ot, len))
		return mark_corrupt(c, ot, ARENA_FULL);
	arena_copy_borrowed(ot);
	memcpy(ot->arena + ot->arena_used, dp, len);
	ot->arena_used += len;
	ot->reg_len[ot->ri_cnt - 1] += len;
	ot->item_op_bytes += OPHDR_SIZE;
	ot->t.op_bytes += OPHDR_SIZE;
	ot->t.region_bytes += len;
	return 0;
}

/* An unmount record has no start op: show it as a transaction of its own. */
static int unmount_record(const struct op_ctx *c)
{
	struct xls_trans t = {
		.tid = c->op->oh_tid,
		.lsn = c->rec->h_lsn,
		.commit_lsn = c->rec->h_lsn,
		.state = XLS_TRANS_UNMOUNT,
		.stale = c->tt->stale,
		.nrecords = 1,
		.op_bytes = OPHDR_SIZE,
		.region_bytes = c->op->oh_len,
	};
	int rc = 0;

	if (c->sink->begin)
		rc = c->sink->begin(c->sink->ctx, &t);
	if (!rc && c->sink->end)
		rc = c->sink->end(c->sink->ctx, &t);
	return rc;
}

/* A new open transaction for the op of @c; NULL (*@rc set) when none can be. */
static struct open_trans *start_trans(const struct op_ctx *c, int *rc)
{
	struct open_trans *ot = open_new(c->tt);

	*rc = 0;
	if (!ot) {
		if (c->tt->full_reported)
			return NULL;
		c->tt->full_reported = true;
		*rc = report(c, XLS_FIND_TRANS_TABLE, "more than %u transactions open at once; later ones are ignored",
			     XLS_MAX_OPEN_TRANS);
		return NULL;
	}
	ot->t.tid = c->op->oh_tid;
	if (xls_hashmap_put(&c->tt->tids, ot->t.tid, 0, ot->id)) {
		close_slot(c->tt, ot);
		*rc = report(c, XLS_FIND_TRANS_TABLE, "out of memory for the table of open transactions");
		return NULL;
	}
	ot->t.lsn = c->rec->h_lsn;
	ot->t.state = XLS_TRANS_OPEN;
	ot->t.stale = c->tt->stale;
	ot->t.op_bytes = OPHDR_SIZE;
	ot->t.nrecords = 1;
	ot->last_lsn = c->rec->h_lsn;
	return ot;
}

/* ------------------------------------------------------------------ */
/* stale transactions whose start is overwritten */

/* The ops of a partial transaction from the first one of its records seen. */
static struct open_trans *partial_start(const struct op_ctx *c, int *rc)
{
	struct open_trans *ot = start_trans(c, rc);

	if (!ot)
		return NULL;
	ot->partial = calloc(1, sizeof(*ot->partial));
	if (!ot->partial) {
		close_slot(c->tt, ot);
		*rc = report(c, XLS_FIND_TRANS_TABLE, "out of memory for a partial transaction");
		return NULL;
	}
	ot->t.partial = true;
	ot->t.op_bytes = 0;
	/* no header to wait for: what is decoded at all is items */
	ot->header_done = true;
	return ot;
}

static bool grow(void **p, size_t *cap, size_t need, size_t elem)
{
	size_t n = *cap ? *cap : 64;
	void *q;

	if (need <= *cap)
		return true;
	while (n < need)
		n *= 2;
	q = realloc(*p, n * elem);
	if (!q)
		return false;
	*p = q;
	*cap = n;
	return true;
}

/* Keep one op until the commit (or PARTIAL_MAX has been kept). */
static void partial_keep(struct partial *p, const struct xls_op *op, bool cont)
{
	size_t ops_cap = p->ops_cap;

	p->nseen++;
	if (p->overflow)
		return;
	if (p->nbytes + op->oh_len > PARTIAL_MAX ||
	    !grow((void **)&p->bytes, &p->bytes_cap, p->nbytes + op->oh_len, 1) ||
	    !grow((void **)&p->ops, &ops_cap, (size_t)p->nops + 1, sizeof(*p->ops))) {
		p->overflow = true;
		return;
	}
	p->ops_cap = (uint32_t)ops_cap;
	/* an op of no bytes (a lone START or COMMIT) may find no buffer yet */
	if (op->oh_len)
		memcpy(p->bytes + p->nbytes, op->data, op->oh_len);
	p->ops[p->nops++] = (struct partial_op){
		.off = (uint32_t)p->nbytes, .len = op->oh_len, .cont = cont,
	};
	p->nbytes += op->oh_len;
}

/* The region count of the item format op @i opens, or 0 when it opens none. */
static uint32_t partial_format_regions(const struct partial *p, uint32_t i)
{
	const uint8_t *dp = p->bytes + p->ops[i].off;
	enum xls_endian e;
	uint16_t type, size;

	if (p->ops[i].len < 4 || xls_item_detect(dp, p->ops[i].len, &type, &e) < 0)
		return 0;
	size = xls_get16(e, dp + 2);
	return size <= XLS_MAX_REGIONS_IN_ITEM ? size : 0;
}

/*
 * The first op from which items follow one another up to the commit: each
 * item's format names its region count, each region an op and the ops
 * that continue it.  Computed from the last op back, in one pass.  The
 * number of ops when none is.
 */
static uint32_t partial_first_item(const struct partial *p)
{
	uint32_t m = 0, r, first = p->nops;
	uint32_t *at;
	bool *ok;

	for (uint32_t i = 0; i < p->nops; i++)
		m += !p->ops[i].cont;
	at = malloc((size_t)m * sizeof(*at) + 1);
	ok = malloc((size_t)m + 1);
	if (!at || !ok || !m)
		goto out;
	for (uint32_t i = 0, j = 0; i < p->nops; i++)
		if (!p->ops[i].cont)
			at[j++] = i;
	for (r = m; r-- > 0;) {
		uint32_t n = partial_format_regions(p, at[r]);

		ok[r] = n && n <= m - r && (n == m - r || ok[r + n]);
	}
	for (r = 0; r < m; r++) {
		if (ok[r]) {
			first = at[r];
			break;
		}
	}
out:
	free(at);
	free(ok);
	return first;
}

/* The commit is seen: split the kept ops into items, from the first that adds up. */
static int partial_commit(const struct op_ctx *c, struct open_trans *ot)
{
	struct partial *p = ot->partial;
	uint32_t first = p->overflow ? p->nops : partial_first_item(p);
	uint64_t op_bytes = ot->t.op_bytes, region_bytes = ot->t.region_bytes;
	int rc = 0;

	ot->t.skipped_ops = p->overflow ? p->nseen : first;
	for (uint32_t i = first; i < p->nops && !rc && ot->t.state != XLS_TRANS_CORRUPT; i++) {
		const uint8_t *dp = p->bytes + p->ops[i].off;

		rc = p->ops[i].cont ? add_continuation(c, ot, dp, p->ops[i].len) :
				      add_region(c, ot, dp, p->ops[i].len);
	}
	/* every op was counted as it came */
	ot->t.op_bytes = op_bytes;
	ot->t.region_bytes = region_bytes;
	/* the regions are in the kept bytes, which go with the slot */
	arena_copy_borrowed(ot);
	return rc;
}

static int partial_op(const struct op_ctx *c, struct open_trans *ot, uint8_t flags)
{
	int rc;

	ot->t.op_bytes += OPHDR_SIZE;
	switch (flags) {
	case XLOG_COMMIT_TRANS:
		ot->t.commit_lsn = c->rec->h_lsn;
		rc = partial_commit(c, ot);
		partial_free(ot);
		return rc ? rc : trans_end(c->tt, ot, XLS_TRANS_COMMITTED, c->sink);
	case XLOG_UNMOUNT_TRANS:
		return trans_end(c->tt, ot, XLS_TRANS_UNMOUNT, c->sink);
	case 0:
	case XLOG_CONTINUE_TRANS:
	case XLOG_WAS_CONT_TRANS:
		ot->t.region_bytes += c->op->oh_len;
		partial_keep(ot->partial, c->op, flags == XLOG_WAS_CONT_TRANS);
		return 0;
	default:
		ot->partial->nseen++;
		return mark_corrupt(c, ot, "bad op flags");
	}
}

static int process_op(const struct op_ctx *c)
{
	struct open_trans *ot = find_open(c->tt, c->op->oh_tid);
	uint8_t flags = c->op->oh_flags;

	int rc;

	/*
	 * Stale: a tid started again while open is another transaction, the
	 * first one's commit never written (a crash the kernel recovered).
	 */
	if (ot && c->tt->stale && (flags & XLOG_START_TRANS)) {
		rc = trans_end(c->tt, ot, XLS_TRANS_INCOMPLETE, c->sink);
		if (rc)
			return rc;
		ot = NULL;
	}
	if (!ot) {
		if (flags & XLOG_UNMOUNT_TRANS)
			return unmount_record(c);
		if (flags & XLOG_START_TRANS)
			return start_trans(c, &rc), rc;
		/* Slack, or the end of a transaction that began before the tail. */
		if (!c->tt->stale)
			return 0;
		ot = partial_start(c, &rc);
		if (!ot)
			return rc;
	}
	if (ot->last_lsn != c->rec->h_lsn) {
		ot->last_lsn = c->rec->h_lsn;
		ot->t.nrecords++;
	}
	flags &= (uint8_t)~XLOG_END_TRANS;
	if (flags & XLOG_WAS_CONT_TRANS)
		flags &= (uint8_t)~XLOG_CONTINUE_TRANS;
	ot->ri_cont = (flags & XLOG_CONTINUE_TRANS) != 0;
	if (ot->partial && ot->t.state != XLS_TRANS_CORRUPT)
		return partial_op(c, ot, flags);
	if (flags == XLOG_COMMIT_TRANS) {
		ot->t.commit_lsn = c->rec->h_lsn;
		ot->t.op_bytes += OPHDR_SIZE;
		return trans_end(c->tt, ot, XLS_TRANS_COMMITTED, c->sink);
	}
	if (ot->t.state == XLS_TRANS_CORRUPT)
		return 0;
	switch (flags) {
	case 0:
	case XLOG_CONTINUE_TRANS:
		return add_region(c, ot, c->op->data, c->op->oh_len);
	case XLOG_WAS_CONT_TRANS:
		return add_continuation(c, ot, c->op->data, c->op->oh_len);
	case XLOG_UNMOUNT_TRANS:
		ot->t.op_bytes += OPHDR_SIZE;
		return trans_end(c->tt, ot, XLS_TRANS_UNMOUNT, c->sink);
	default:
		return mark_corrupt(c, ot, "bad op flags");
	}
}

/*
 * The op walk of a record stopped at a malformed op.  Recovery fails there
 * ("bad length", "bad clientid"): when the op header itself is readable and
 * names an open transaction, that transaction is corrupt.
 */
static int bad_op(const struct op_ctx *c, const struct xls_op_iter *it)
{
	const struct xls_rec *rec = c->rec;
	struct xls_op where = { .offset = it->why_offset };
	struct op_ctx at = *c;
	struct open_trans *ot = NULL;
	int rc;

	if (rec->h_len - it->why_offset >= sizeof(xlog_op_header_t)) {
		where.oh_tid = xls_be32(rec->data + it->why_offset +
					offsetof(xlog_op_header_t, oh_tid));
		ot = find_open(c->tt, where.oh_tid);
	}
	at.op = &where;
	rc = report(&at, XLS_FIND_OP, "%s (op %u of %u); the rest of the record is skipped",
		    it->why, it->index, rec->h_num_logops);
	if (!rc && ot && ot->t.state != XLS_TRANS_CORRUPT)
		rc = mark_corrupt(&at, ot, it->why);
	return rc;
}

int xls_trans_feed(struct xls_trans_table *tt, const struct xls_rec *rec,
		   const struct xls_trans_sink *sink, struct xls_rec_summary *sum)
{
	struct op_ctx c = { .tt = tt, .rec = rec, .sink = sink };
	struct xls_rec_summary local;
	struct xls_op_iter it;
	struct xls_op op;
	int r, rc = 0;

	if (!sum)
		sum = &local;
	memset(sum, 0, sizeof(*sum));
	xls_op_iter_init(&it, rec);
	while ((r = xls_op_iter_next(&it, &op)) > 0) {
		sum->ops++;
		sum->op_header_bytes += OPHDR_SIZE;
		sum->op_data_bytes += op.oh_len;
		c.op = &op;
		rc = process_op(&c);
		if (rc)
			break;
	}
	if (!rc) {
		sum->unused_bytes = xls_op_iter_unused(&it);
		sum->op_problem = r < 0 ? it.why : NULL;
		if (r < 0)
			rc = bad_op(&c, &it);
	}
	copy_all_borrowed(tt);
	return rc;
}

int xls_trans_finish(struct xls_trans_table *tt, const struct xls_trans_sink *sink)
{
	int rc = 0;

	while (tt->nopen && !rc)
		rc = trans_end(tt, tt->slot[0], XLS_TRANS_INCOMPLETE, sink);
	return rc;
}
