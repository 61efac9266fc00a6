/*
 * Checkpoints (checkpoint.h): per open transaction, its figures so far and
 * a pending arena of what its buffer and inode items leave for the commit
 * -- a small record per item with its facts, the chunks it placed and one
 * hash a chunk -- replayed through the relog table and the shadow model at
 * the commit record, in commit order.  Records are kept small: they are
 * written and read back once for every item of the log.
 */
#include <stdlib.h>
#include <string.h>

#include "base/chunkhash.h"
#include "base/hashmap.h"
#include "base/ondisk.h"
#include "analysis/checkpoint.h"

#define PENDING_BUDGET		(32u << 20)	/* all open transactions */
#define RELOG_TABLE_MAX		(32u << 20)
#define SHADOW_BUFFERS		(256u << 10)
#define SPARE_BUDGET		(4u << 20)	/* arenas kept for reuse */
#define ARENA_MIN		4096u
#define PREFETCH_AHEAD		16		/* records whose slots are fetched ahead */

enum pend_kind { PEND_BUF, PEND_INODE };

/* Every record begins so. */
struct pend_head {
	uint32_t	size;		/* of the record, a multiple of 8 */
	uint16_t	kind;
	uint16_t	nparts;		/* buf: placed runs; inode: 3 */
	uint64_t	cookie;
};

/*
 * A buffer item: its facts, then nparts struct pend_place, then a hash a
 * chunk.  The cost model's counts fit 16 bits: a map has 544 bits at most.
 */
struct pend_buf {
	struct pend_head h;
	int64_t		blkno;
	uint32_t	nbytes;		/* xfs_buf_item_size(): format + chunks */
	uint32_t	log_cost;
	uint16_t	len_bb;
	uint16_t	blft;
	uint16_t	blf_flags;
	uint16_t	niovecs;
	uint16_t	dirty_chunks;
	uint16_t	bit_steps, bit_offset_calls, run_steps, run_offset_calls;
	uint16_t	plain_steps;
	uint8_t		slow;
};

/* A buffer's placed run of chunks. */
struct pend_place {
	uint16_t	first;
	uint16_t	nchunks;
};

/* An inode item: its number and the length of each part, then the hashes. */
struct pend_inode {
	struct pend_head h;
	uint64_t	ino;
	uint32_t	len[3];		/* enum xls_inode_part */
};

struct open_ckpt {
	const struct xls_trans	*t;
	uint64_t		seen;		/* op bytes shared out so far */
	uint64_t		delta;		/* ended: its op bytes in the last record */
	bool			committed;	/* ended with a commit record */
	bool			dropped;
	struct xls_ckpt		ck;
	uint8_t			*arena;
	size_t			used, cap;
	uint64_t		chunk_bytes;	/* of every item, pended or not */
};

struct xls_ckpt_tracker {
	struct xls_ckpt_sink	sink;
	struct xls_relog	*relog;
	struct xls_shadow	*shadow;
	struct xls_hashmap	tids;		/* tid -> index in open[] */
	struct open_ckpt	*open[XLS_MAX_OPEN_TRANS];
	uint32_t		nopen;
	/* ended in the record being read, handed out after it */
	struct open_ckpt	*ended[XLS_MAX_OPEN_TRANS];
	uint32_t		nended;
	struct open_ckpt	*spare[XLS_MAX_OPEN_TRANS];	/* free slots, arenas kept */
	uint32_t		nspare;
	struct open_ckpt	*last;		/* the one the last item went to */
	/* the record's share-out: whose bytes, and their op bytes in it */
	uint64_t		*share_to[2 * XLS_MAX_OPEN_TRANS];
	uint64_t		share_delta[2 * XLS_MAX_OPEN_TRANS];
	uint64_t		seq;
	size_t			pending, pending_peak;	/* arenas of open ones */
	size_t			spare_bytes;		/* arenas of spare slots */
	uint64_t		dropped_trans, dropped_bytes;
};

unsigned int xls_item_slot(uint16_t type)
{
	unsigned int slot = (unsigned int)type - XLS_ITEM_TYPE_BASE;

	if (type < XLS_ITEM_TYPE_BASE || slot >= XLS_ITEM_SLOT_UNKNOWN ||
	    !xls_item_type_name(type))
		return XLS_ITEM_SLOT_UNKNOWN;
	return slot;
}

const char *xls_item_slot_name(unsigned int slot)
{
	if (slot == XLS_ITEM_SLOT_UNKNOWN)
		return "unknown";
	if (slot > XLS_ITEM_SLOT_UNKNOWN)
		return NULL;
	return xls_item_type_name((uint16_t)(XLS_ITEM_TYPE_BASE + slot));
}

struct xls_ckpt_tracker *xls_ckpt_tracker_new(const struct xls_ckpt_sink *sink)
{
	struct xls_ckpt_tracker *tr = calloc(1, sizeof(*tr));

	if (!tr)
		return NULL;
	tr->sink = *sink;
	tr->relog = xls_relog_new(RELOG_TABLE_MAX);
	tr->shadow = xls_shadow_new(SHADOW_BUFFERS);
	if (!tr->relog || !tr->shadow) {
		xls_ckpt_tracker_free(tr);
		return NULL;
	}
	return tr;
}

static void slot_free(struct open_ckpt *oc)
{
	free(oc->arena);
	free(oc);
}

void xls_ckpt_tracker_free(struct xls_ckpt_tracker *tr)
{
	if (!tr)
		return;
	for (uint32_t i = 0; i < tr->nopen; i++)
		slot_free(tr->open[i]);
	for (uint32_t i = 0; i < tr->nended; i++)
		slot_free(tr->ended[i]);
	for (uint32_t i = 0; i < tr->nspare; i++)
		slot_free(tr->spare[i]);
	xls_relog_free(tr->relog);
	xls_shadow_free(tr->shadow);
	xls_hashmap_free(&tr->tids);
	free(tr);
}

/* Op bytes of @t so far: op headers, its header and every region. */
static inline uint64_t trans_bytes(const struct xls_trans *t)
{
	return t->op_bytes + t->header_bytes + t->region_bytes;
}

static struct open_ckpt *find_open(struct xls_ckpt_tracker *tr, const struct xls_trans *t,
				   uint32_t *index)
{
	uint32_t *i = xls_hashmap_find(&tr->tids, t->tid, 0);

	if (!i || tr->open[*i]->t != t)
		return NULL;
	*index = *i;
	return tr->open[*i];
}

void xls_ckpt_begin(struct xls_ckpt_tracker *tr, const struct xls_trans *t)
{
	struct open_ckpt *oc;

	/* the ended wait for the end of their record: room for both */
	if (tr->nopen + tr->nended >= XLS_MAX_OPEN_TRANS || xls_hashmap_find(&tr->tids, t->tid, 0))
		return;
	if (tr->nspare) {
		oc = tr->spare[--tr->nspare];
		tr->spare_bytes -= oc->cap;
	} else if (!(oc = calloc(1, sizeof(*oc)))) {
		return;
	}
	if (xls_hashmap_put(&tr->tids, t->tid, 0, tr->nopen)) {
		tr->spare_bytes += oc->cap;
		tr->spare[tr->nspare++] = oc;
		return;
	}
	tr->pending += oc->cap;
	oc->t = t;
	oc->seen = 0;
	oc->committed = oc->dropped = false;
	memset(&oc->ck, 0, sizeof(oc->ck));
	oc->ck.tid = t->tid;
	oc->used = 0;
	oc->chunk_bytes = 0;
	tr->open[tr->nopen++] = oc;
}

/* Give up the pending records of @oc: the bound would be passed. */
static void pend_drop(struct xls_ckpt_tracker *tr, struct open_ckpt *oc)
{
	tr->pending -= oc->cap;
	free(oc->arena);
	oc->arena = NULL;
	oc->cap = oc->used = 0;
	oc->dropped = true;
	tr->dropped_trans++;
}

/* @bytes (a multiple of 8) at the end of @oc's arena, or NULL when dropped. */
static void *pend_alloc(struct xls_ckpt_tracker *tr, struct open_ckpt *oc, size_t bytes)
{
	void *p;

	if (oc->dropped)
		return NULL;
	if (oc->used + bytes > oc->cap) {
		size_t cap = oc->cap ? oc->cap : ARENA_MIN;
		uint8_t *n;

		while (cap < oc->used + bytes)
			cap *= 2;
		if (tr->pending - oc->cap + cap > PENDING_BUDGET ||
		    !(n = realloc(oc->arena, cap))) {
			pend_drop(tr, oc);
			return NULL;
		}
		tr->pending += cap - oc->cap;
		if (tr->pending > tr->pending_peak)
			tr->pending_peak = tr->pending;
		oc->arena = n;
		oc->cap = cap;
	}
	p = oc->arena + oc->used;
	oc->used += bytes;
	return p;
}

static inline size_t align8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

static inline uint16_t u16(uint64_t v)
{
	return v > UINT16_MAX ? UINT16_MAX : (uint16_t)v;
}

static void pend_buf(struct xls_ckpt_tracker *tr, struct open_ckpt *oc,
		     const struct xls_item *it, const struct xls_buf_analysis *ba,
		     uint64_t cookie)
{
	const struct xls_region_result *r = &ba->res;
	bool cancel = ba->blf.blf_flags & XFS_BLF_CANCEL;
	uint32_t nplaces = 0, nchunks = 0, niovecs;
	struct pend_place *pl;
	struct xls_cost cost;
	struct pend_buf *b;
	uint64_t *hash;
	size_t places_bytes, size;

	for (uint32_t i = 0; !cancel && i < r->nplaces; i++) {
		nplaces += r->places[i].nchunks > 0;
		nchunks += r->places[i].nchunks;
	}
	oc->chunk_bytes += (uint64_t)nchunks * XLS_CHUNK_BYTES;
	places_bytes = align8(nplaces * sizeof(*pl));
	size = sizeof(*b) + places_bytes + nchunks * sizeof(*hash);
	b = pend_alloc(tr, oc, size);
	if (!b) {
		tr->dropped_bytes += (uint64_t)nchunks * XLS_CHUNK_BYTES;
		return;
	}
	b->h.size = (uint32_t)size;
	b->h.kind = PEND_BUF;
	b->h.nparts = (uint16_t)nplaces;
	b->h.cookie = cookie;
	b->blkno = ba->blf.blf_blkno;
	b->log_cost = (uint32_t)ba->log_cost;
	b->len_bb = ba->blf.blf_len;
	b->blft = (uint16_t)ba->blft;
	b->blf_flags = ba->blf.blf_flags;
	b->dirty_chunks = u16(r->dirty_chunks);
	xls_cost_item_size(ba, &b->nbytes, &niovecs);
	b->niovecs = u16(niovecs);
	xls_cost_buf(ba, &cost);
	b->bit_steps = u16(cost.bit_steps);
	b->bit_offset_calls = u16(cost.bit_offset_calls);
	b->run_steps = u16(cost.run_steps);
	b->run_offset_calls = u16(cost.run_offset_calls);
	b->plain_steps = u16(cost.plain_steps);
	b->slow = (uint8_t)cost.slow_items;
	pl = (struct pend_place *)(b + 1);
	hash = (uint64_t *)((uint8_t *)pl + places_bytes);
	for (uint32_t i = 0; !cancel && i < r->nplaces; i++) {
		const struct xls_region_place *p = &r->places[i];

		if (!p->nchunks)
			continue;
		pl->first = (uint16_t)p->first_chunk;
		pl->nchunks = (uint16_t)p->nchunks;
		pl++;
		xls_chunk_hash_run(it->regions[i + 1].data, p->nchunks, hash);
		hash += p->nchunks;
	}
}

static uint32_t part_chunks(const struct xls_region *r)
{
	return r ? (r->len + XLS_CHUNK_BYTES - 1) / XLS_CHUNK_BYTES : 0;
}

static void hash_part(const struct xls_region *r, uint64_t *hash)
{
	uint32_t full;

	if (!r)
		return;
	full = r->len / XLS_CHUNK_BYTES;
	xls_chunk_hash_run(r->data, full, hash);
	if (r->len % XLS_CHUNK_BYTES)
		hash[full] = xls_chunk_hash_bytes(r->data + (size_t)full * XLS_CHUNK_BYTES,
						  r->len % XLS_CHUNK_BYTES);
}

static void pend_inode(struct xls_ckpt_tracker *tr, struct open_ckpt *oc,
		       const struct xls_item *it, uint64_t cookie)
{
	struct xls_inode_parts ip;
	const struct xls_region *part[3];
	struct pend_inode *in;
	uint32_t nchunks = 0;
	uint64_t *hash, bytes = 0;
	size_t size;

	if (xls_inode_item_parts(it, &ip))
		return;
	part[XLS_INODE_CORE] = ip.core;
	part[XLS_INODE_DATA_FORK] = ip.data_fork;
	part[XLS_INODE_ATTR_FORK] = ip.attr_fork;
	for (unsigned int p = 0; p < 3; p++) {
		nchunks += part_chunks(part[p]);
		bytes += part[p] ? part[p]->len : 0;
	}
	oc->chunk_bytes += bytes;
	size = sizeof(*in) + (size_t)nchunks * sizeof(*hash);
	in = pend_alloc(tr, oc, size);
	if (!in) {
		tr->dropped_bytes += bytes;
		return;
	}
	in->h.size = (uint32_t)size;
	in->h.kind = PEND_INODE;
	in->h.nparts = 3;
	in->h.cookie = cookie;
	in->ino = ip.ilf_ino;
	hash = (uint64_t *)(in + 1);
	for (unsigned int p = 0; p < 3; p++) {
		in->len[p] = part[p] ? part[p]->len : 0;
		hash_part(part[p], hash);
		hash += part_chunks(part[p]);
	}
}

void xls_ckpt_item(struct xls_ckpt_tracker *tr, const struct xls_trans *t,
		   const struct xls_item *it, const struct xls_buf_analysis *ba,
		   uint64_t cookie)
{
	struct open_ckpt *oc = tr->last;
	uint64_t data = 0;
	uint32_t index;

	if (!oc || oc->t != t) {
		oc = find_open(tr, t, &index);
		if (!oc)
			return;
		tr->last = oc;
	}
	oc->ck.items_by_type[xls_item_slot(it->type)]++;
	if (it->nregions)
		oc->ck.bytes[XLS_BYTES_ITEM_FORMATS] += it->regions[0].len;
	for (uint32_t i = 1; i < it->nregions; i++)
		data += it->regions[i].len;
	if (it->type != XFS_LI_BUF) {
		oc->ck.bytes[XLS_BYTES_OTHER_ITEM_DATA] += data;
		if (it->type == XFS_LI_INODE) {
			oc->ck.inodes++;
			pend_inode(tr, oc, it, cookie);
		}
		return;
	}
	oc->ck.bytes[XLS_BYTES_BUFFER_DATA] += data;
	oc->ck.buffers++;
	if (!ba || !ba->parsed)
		return;
	oc->ck.buffer_bytes += ba->res.buf_bytes;
	oc->ck.dirty_bytes += ba->res.dirty_bytes;
	oc->ck.cancels += !!(ba->blf.blf_flags & XFS_BLF_CANCEL);
	pend_buf(tr, oc, it, ba, cookie);
}

/* Replay a pending buffer record: the shadow model, then the table. */
static void apply_buf(struct xls_ckpt_tracker *tr, const struct pend_buf *b,
		      struct xls_committed_item *ci, struct xls_relog_split *total)
{
	const struct pend_place *pl = (const struct pend_place *)(b + 1);
	const uint64_t *hash = (const uint64_t *)((const uint8_t *)pl +
						  align8(b->h.nparts * sizeof(*pl)));
	uint64_t buf_bytes = (uint64_t)b->len_bb * BBSIZE;
	uint64_t dirty = (uint64_t)b->dirty_chunks * XLS_RELOG_CHUNK;

	ci->type = XFS_LI_BUF;
	ci->blkno = b->blkno;
	ci->len_bb = b->len_bb;
	ci->blft = b->blft;
	ci->blf_flags = b->blf_flags;
	ci->parsed = true;
	ci->buf_bytes = (uint32_t)buf_bytes;
	ci->dirty_bytes = (uint32_t)(dirty < buf_bytes ? dirty : buf_bytes);
	ci->log_cost = b->log_cost;
	ci->cost.bit_steps = b->bit_steps;
	ci->cost.bit_offset_calls = b->bit_offset_calls;
	ci->cost.run_steps = b->run_steps;
	ci->cost.run_offset_calls = b->run_offset_calls;
	ci->cost.plain_steps = b->plain_steps;
	ci->cost.slow_items = b->slow;
	ci->shadow = (struct xls_shadow_count){ 0 };
	ci->ino = 0;
	xls_shadow_item(tr->shadow, b->blkno, b->len_bb, b->blf_flags & XFS_BLF_CANCEL,
			b->nbytes, b->niovecs, b->dirty_chunks, &ci->shadow);
	for (uint32_t i = 0; i < b->h.nparts; i++, pl++) {
		xls_relog_run(tr->relog, xls_relog_buf_key(b->blkno, pl->first), pl->nchunks,
			      hash, XLS_RELOG_CHUNK, &ci->split, total);
		hash += pl->nchunks;
	}
}

static void apply_inode(struct xls_ckpt_tracker *tr, const struct pend_inode *in,
			struct xls_committed_item *ci, struct xls_relog_split *total)
{
	const uint64_t *hash = (const uint64_t *)(in + 1);

	/* field by field, as in apply(): a compound literal is a rep stos */
	ci->type = XFS_LI_INODE;
	ci->ino = in->ino;
	ci->blkno = 0;
	ci->len_bb = ci->blft = ci->blf_flags = 0;
	ci->parsed = false;
	ci->buf_bytes = ci->dirty_bytes = ci->log_cost = 0;
	ci->cost = (struct xls_cost){ 0 };
	ci->shadow = (struct xls_shadow_count){ 0 };
	for (unsigned int p = 0; p < 3; p++) {
		uint32_t n = (in->len[p] + XLS_RELOG_CHUNK - 1) / XLS_RELOG_CHUNK;
		uint32_t last = in->len[p] - (n ? n - 1 : 0) * XLS_RELOG_CHUNK;
		uint32_t c = 0;

		/*
		 * Runs of consecutive addresses: the chunks in the inode's
		 * group, then pieces of 256 (an address keeps 8 bits of chunk).
		 */
		while (c < n) {
			uint32_t end = c < (p == XLS_INODE_CORE ? 2 : XLS_RELOG_INODE_FIRST) ?
				       (p == XLS_INODE_CORE ? 2 : XLS_RELOG_INODE_FIRST) :
				       (c | 0xff) + 1;
			uint32_t k = (end < n ? end : n) - c;

			xls_relog_run(tr->relog, xls_relog_inode_key(in->ino, p, c), k, hash,
				      c + k == n ? last : XLS_RELOG_CHUNK, &ci->split, total);
			hash += k;
			c += k;
		}
	}
}

/* Fetch the table slots record @h will need while the ones before it run. */
static void prefetch(const struct xls_ckpt_tracker *tr, const struct pend_head *h)
{
	if (h->kind == PEND_BUF) {
		const struct pend_buf *b = (const struct pend_buf *)h;
		const struct pend_place *pl = (const struct pend_place *)(b + 1);

		for (uint32_t i = 0; i < h->nparts; i++)
			xls_relog_prefetch(tr->relog, xls_relog_buf_key(b->blkno, pl[i].first));
	} else {
		xls_relog_prefetch(tr->relog, xls_relog_inode_key(
			((const struct pend_inode *)h)->ino, XLS_INODE_CORE, 0));
	}
}

/* The commit: every pending record, in order, into @ck and to the sink. */
static void apply(struct xls_ckpt_tracker *tr, struct open_ckpt *oc, struct xls_ckpt *ck)
{
	size_t ahead = 0;

	for (unsigned int i = 0; i < PREFETCH_AHEAD && ahead < oc->used; i++) {
		prefetch(tr, (const struct pend_head *)(oc->arena + ahead));
		ahead += ((const struct pend_head *)(oc->arena + ahead))->size;
	}
	for (size_t at = 0; at < oc->used;) {
		const struct pend_head *h = (const struct pend_head *)(oc->arena + at);
		struct xls_committed_item ci;

		if (ahead < oc->used) {
			prefetch(tr, (const struct pend_head *)(oc->arena + ahead));
			ahead += ((const struct pend_head *)(oc->arena + ahead))->size;
		}
		/*
		 * Not memset(): gcc makes that a rep stos, dearer than the few
		 * stores apply_buf() and apply_inode() make (10 ms of stats on real1g).
		 */
		ci.split = (struct xls_relog_split){ 0 };
		ci.unknown = 0;
		ci.cookie = h->cookie;
		/* the split is added where the table computes it */
		if (h->kind == PEND_BUF) {
			const struct pend_buf *b = (const struct pend_buf *)h;

			apply_buf(tr, b, &ci, &ck->buf);
			ck->cost.bit_steps += b->bit_steps;
			ck->cost.bit_offset_calls += b->bit_offset_calls;
			ck->cost.run_steps += b->run_steps;
			ck->cost.run_offset_calls += b->run_offset_calls;
			ck->cost.plain_steps += b->plain_steps;
			ck->cost.slow_items += b->slow;
			ck->shadow.exact += ci.shadow.exact;
			ck->shadow.rounded += ci.shadow.rounded;
		} else {
			apply_inode(tr, (const struct pend_inode *)h, &ci, &ck->inode);
		}
		if (tr->sink.item)
			tr->sink.item(tr->sink.ctx, &ci);
		at += h->size;
	}
	if (oc->dropped)
		ck->unknown = oc->chunk_bytes;
}

/* Move open[@index] to the ended, to be handed out after its record. */
static void close_open(struct xls_ckpt_tracker *tr, uint32_t index)
{
	struct open_ckpt *oc = tr->open[index];

	xls_hashmap_del(&tr->tids, oc->t->tid, 0);
	if (tr->last == oc)
		tr->last = NULL;
	tr->open[index] = tr->open[--tr->nopen];
	if (index < tr->nopen)
		xls_hashmap_find(&tr->tids, tr->open[index]->t->tid, 0)[0] = index;
	tr->ended[tr->nended++] = oc;
}

/* An ended slot is free again; keep its arena while spares stay small. */
static void release(struct xls_ckpt_tracker *tr, struct open_ckpt *oc)
{
	tr->pending -= oc->cap;
	if (tr->spare_bytes + oc->cap > SPARE_BUDGET) {
		free(oc->arena);
		oc->arena = NULL;
		oc->cap = 0;
	}
	tr->spare_bytes += oc->cap;
	oc->used = 0;
	tr->spare[tr->nspare++] = oc;
}

void xls_ckpt_end(struct xls_ckpt_tracker *tr, const struct xls_trans *t)
{
	uint32_t index;
	struct open_ckpt *oc = find_open(tr, t, &index);

	if (!oc)
		return;
	oc->delta = trans_bytes(t) - oc->seen;
	oc->committed = t->state == XLS_TRANS_COMMITTED;
	if (oc->committed) {
		struct xls_ckpt *ck = &oc->ck;

		ck->seq = ++tr->seq;
		ck->lsn = t->lsn;
		ck->commit_lsn = t->commit_lsn;
		ck->th_type = t->th_type;
		ck->records = t->nrecords;
		ck->items = t->nitems;
		ck->regions = t->nregions;
		ck->bytes[XLS_BYTES_OP_HEADERS] = t->op_bytes;
		ck->bytes[XLS_BYTES_TRANS_HEADERS] = t->header_bytes;
		apply(tr, oc, ck);
	}
	close_open(tr, index);
}

/* Share @total of one category among the record's transactions. */
static void share(uint64_t total, uint64_t op_bytes, bool exact, unsigned int cat,
		  uint64_t *const *to, const uint64_t *delta, uint32_t n)
{
	uint64_t given = 0, most = 0;
	uint32_t largest = 0;

	if (!total || !op_bytes || !n)
		return;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t s = total * delta[i] / op_bytes;

		to[i][cat] += s;
		given += s;
		if (delta[i] > most) {
			most = delta[i];
			largest = i;
		}
	}
	if (exact && given < total)
		to[largest][cat] += total - given;
}

void xls_ckpt_record(struct xls_ckpt_tracker *tr, const struct xls_rec *rec,
		     const struct xls_rec_summary *s)
{
	static const unsigned int cat[4] = {
		XLS_BYTES_RECORD_HEADERS, XLS_BYTES_EXT_HEADERS, XLS_BYTES_UNUSED,
		XLS_BYTES_PADDING,
	};
	uint64_t op_bytes = (uint64_t)s->op_header_bytes + s->op_data_bytes, tracked = 0;
	uint64_t over[4] = {
		BBSIZE, (uint64_t)(rec->hblks ? rec->hblks - 1 : 0) * BBSIZE, s->unused_bytes,
		(uint64_t)rec->data_blks * BBSIZE - rec->h_len,
	};
	uint32_t n = 0;

	for (uint32_t i = 0; i < tr->nopen; i++) {
		struct open_ckpt *oc = tr->open[i];
		uint64_t now = trans_bytes(oc->t);

		if (now > oc->seen) {
			tr->share_delta[n] = now - oc->seen;
			tr->share_to[n++] = oc->ck.bytes;
			oc->seen = now;
		}
	}
	for (uint32_t i = 0; i < tr->nended; i++) {
		if (tr->ended[i]->delta) {
			tr->share_delta[n] = tr->ended[i]->delta;
			tr->share_to[n++] = tr->ended[i]->ck.bytes;
		}
	}
	for (uint32_t i = 0; i < n; i++)
		tracked += tr->share_delta[i];
	for (unsigned int c = 0; c < 4; c++)
		share(over[c], op_bytes, tracked >= op_bytes, cat[c], tr->share_to,
		      tr->share_delta, n);
	xls_ckpt_finish(tr);
}

void xls_ckpt_finish(struct xls_ckpt_tracker *tr)
{
	for (uint32_t i = 0; i < tr->nended; i++) {
		struct open_ckpt *oc = tr->ended[i];
		struct xls_ckpt *ck = &oc->ck;

		if (oc->committed) {
			ck->log_bytes = 0;
			for (unsigned int c = 0; c < XLS_BYTES_NCATEGORIES; c++)
				ck->log_bytes += ck->bytes[c];
			if (tr->sink.checkpoint)
				tr->sink.checkpoint(tr->sink.ctx, ck);
		}
		release(tr, oc);
	}
	tr->nended = 0;
}

void xls_ckpt_status(const struct xls_ckpt_tracker *tr, struct xls_ckpt_status *st)
{
	xls_relog_status(tr->relog, &st->relog);
	st->dropped_trans = tr->dropped_trans;
	st->dropped_bytes = tr->dropped_bytes;
	st->shadow_untracked = xls_shadow_untracked(tr->shadow);
	st->pending_peak = tr->pending_peak;
}
