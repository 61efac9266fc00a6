/*
 * Report stage: the audit of a log's efficiency as fields -- one
 * checkpoint (analysis/checkpoint.h), the relog split and what the memory
 * bounds made of it (analysis/relog.h), the formatting cost model
 * (analysis/costmodel.h).  What checkpoints, stats and compare share.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/describe_audit.h"

static double pct_of(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

void xls_describe_relog_split(const struct xls_relog_split *sp, struct xls_fieldset *fs)
{
	xls_field_uint(fs, XK(first_bytes), sp->first);
	xls_field_uint(fs, XK(changed_bytes), sp->changed);
	xls_field_uint(fs, XK(unchanged_bytes), sp->unchanged);
	xls_field_real(fs, XK(unchanged_pct), pct_of(sp->unchanged, xls_relog_split_total(sp)));
}

static void inode_split(const struct xls_relog_split *sp, struct xls_fieldset *fs)
{
	xls_field_uint(fs, XK(inode_first_bytes), sp->first);
	xls_field_uint(fs, XK(inode_changed_bytes), sp->changed);
	xls_field_uint(fs, XK(inode_unchanged_bytes), sp->unchanged);
	xls_field_real(fs, XK(inode_unchanged_pct),
		       pct_of(sp->unchanged, xls_relog_split_total(sp)));
}

void xls_describe_relog(const struct xls_stats_relog *r, struct xls_fieldset *fs)
{
	const struct xls_ckpt_status *b = &r->bounds;

	xls_describe_relog_split(&r->buf, fs);
	xls_field_real(fs, XK(changed_pct), pct_of(r->buf.changed, xls_relog_split_total(&r->buf)));
	xls_field_real(fs, XK(first_pct), pct_of(r->buf.first, xls_relog_split_total(&r->buf)));
	inode_split(&r->inode, fs);
	xls_field_bool(fs, XK(approximate), b->relog.evicted || b->dropped_trans);
	xls_field_uint(fs, XK(first_bytes_max_error), b->relog.first_unsure);
	xls_field_uint(fs, XK(unknown_bytes), r->unknown);
	xls_field_uint(fs, XK(chunks_tracked), b->relog.tracked);
	xls_field_uint(fs, XK(chunks_capacity), b->relog.capacity);
	xls_field_uint(fs, XK(chunks_evicted), b->relog.evicted);
	xls_field_uint(fs, XK(trans_dropped), b->dropped_trans);
}

void xls_describe_cost(uint64_t items, const struct xls_cost *c,
		       const struct xls_shadow_count *sh, struct xls_fieldset *fs)
{
	xls_field_uint(fs, XK(items), items);
	xls_field_uint(fs, XK(bit_steps), c->bit_steps);
	xls_field_uint(fs, XK(run_steps), c->run_steps);
	xls_field_real(fs, XK(steps_ratio), c->run_steps ?
		       (double)c->bit_steps / (double)c->run_steps : 0.0);
	xls_field_uint(fs, XK(bit_offset_calls), c->bit_offset_calls);
	xls_field_uint(fs, XK(run_offset_calls), c->run_offset_calls);
	xls_field_uint(fs, XK(slow_items), c->slow_items);
	xls_field_uint(fs, XK(shadow_allocs_exact), sh->exact);
	xls_field_uint(fs, XK(shadow_allocs_rounded), sh->rounded);
}

/* The keys of the byte categories in a checkpoint: "<category>_bytes". */
static const struct xls_key_uint *const category_key[XLS_BYTES_NCATEGORIES] = {
	[XLS_BYTES_RECORD_HEADERS]	= XK(record_headers_bytes),
	[XLS_BYTES_EXT_HEADERS]		= XK(extended_headers_bytes),
	[XLS_BYTES_OP_HEADERS]		= XK(op_headers_bytes),
	[XLS_BYTES_TRANS_HEADERS]	= XK(trans_headers_bytes),
	[XLS_BYTES_ITEM_FORMATS]	= XK(item_formats_bytes),
	[XLS_BYTES_BUFFER_DATA]		= XK(buffer_data_bytes),
	[XLS_BYTES_OTHER_ITEM_DATA]	= XK(other_item_data_bytes),
	[XLS_BYTES_UNMOUNT_UNTRACKED]	= XK(unmount_and_untracked_bytes),
	[XLS_BYTES_UNUSED]		= XK(unused_record_space_bytes),
	[XLS_BYTES_PADDING]		= XK(padding_bytes),
};

const char *xls_byte_category_key(enum xls_byte_category c)
{
	return c < XLS_BYTES_NCATEGORIES ? category_key[c]->k.name : "?";
}

/* One element of items_by_type. */
struct type_count {
	const char	*item;
	uint32_t	count;
};

static void type_count_text(const void *elem, char *buf, size_t bufsz)
{
	const struct type_count *e = elem;

	snprintf(buf, bufsz, "%s:%u", e->item, e->count);
}

static const struct xls_member type_count_members[] = {
	XLS_MEMBER(item, str, struct type_count, item),
	XLS_MEMBER(count, uint, struct type_count, count),
};

static const struct xls_list type_count_list = {
	type_count_members, 2, sizeof(struct type_count), type_count_text, " ", NULL,
};

static const struct xls_field *items_by_type(const struct xls_ckpt *ck,
					     struct xls_fieldset *fs)
{
	unsigned int before = fs->n;
	struct type_count *e;
	uint32_t n = 0;

	for (unsigned int s = 0; s < XLS_ITEM_SLOTS; s++)
		n += ck->items_by_type[s] && xls_item_slot_name(s);
	e = xls_fields_alloc(fs, sizeof(*e) * (n ? n : 1));
	if (!e)
		return NULL;
	n = 0;
	for (unsigned int s = 0; s < XLS_ITEM_SLOTS; s++) {
		if (!ck->items_by_type[s] || !xls_item_slot_name(s))
			continue;
		e[n].item = xls_item_slot_name(s);
		e[n++].count = ck->items_by_type[s];
	}
	xls_field_list(fs, XK(items_by_type), &type_count_list, e, n);
	return fs->n > before ? &fs->f[fs->n - 1] : NULL;
}

const struct xls_field *xls_describe_ckpt(const struct xls_ckpt *ck, struct xls_fieldset *fs)
{
	const struct xls_field *types;

	xls_field_uint(fs, XK(seq), ck->seq);
	xls_field_hex(fs, XK(tid), ck->tid);
	xls_field_lsn(fs, XK(lsn), ck->lsn);
	xls_field_lsn(fs, XK(commit_lsn), ck->commit_lsn);
	xls_field_uint(fs, XK(th_type), ck->th_type);
	xls_field_uint(fs, XK(records), ck->records);
	xls_field_uint(fs, XK(log_bytes), ck->log_bytes);
	for (unsigned int c = 0; c < XLS_BYTES_NCATEGORIES; c++)
		xls_field_uint(fs, category_key[c], ck->bytes[c]);
	xls_field_uint(fs, XK(items), ck->items);
	xls_field_uint(fs, XK(regions), ck->regions);
	types = items_by_type(ck, fs);
	xls_field_uint(fs, XK(buffers), ck->buffers);
	xls_field_uint(fs, XK(cancels), ck->cancels);
	xls_field_uint(fs, XK(buffer_bytes), ck->buffer_bytes);
	xls_field_uint(fs, XK(dirty_bytes), ck->dirty_bytes);
	xls_describe_relog_split(&ck->buf, fs);
	xls_field_uint(fs, XK(inodes), ck->inodes);
	inode_split(&ck->inode, fs);
	xls_field_uint(fs, XK(unknown_bytes), ck->unknown);
	xls_field_uint(fs, XK(bit_steps), ck->cost.bit_steps);
	xls_field_uint(fs, XK(run_steps), ck->cost.run_steps);
	xls_field_uint(fs, XK(bit_offset_calls), ck->cost.bit_offset_calls);
	xls_field_uint(fs, XK(run_offset_calls), ck->cost.run_offset_calls);
	xls_field_uint(fs, XK(shadow_allocs_exact), ck->shadow.exact);
	xls_field_uint(fs, XK(shadow_allocs_rounded), ck->shadow.rounded);
	return types;
}

int xls_describe_chart_log(const struct xls_stats *st, const char *name,
			   struct xls_chart_log *out)
{
	const struct xls_ckpt_stats *cs = xls_stats_checkpoints(st);
	struct xls_stats_type_row *rows;
	struct xls_chart_type *types;
	struct xls_stats_relog r;
	int n = xls_stats_type_rows(st, &rows);

	memset(out, 0, sizeof(*out));
	if (n < 0)
		return -1;
	types = calloc(n ? (size_t)n : 1, sizeof(*types));
	if (!types) {
		free(rows);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		types[i].type = rows[i].type;
		types[i].size = rows[i].size;
		types[i].count = rows[i].count;
		types[i].bytes_logged = rows[i].bytes_logged;
		memcpy(types[i].hist, rows[i].hist, sizeof(types[i].hist));
		types[i].relog = rows[i].relog;
	}
	free(rows);
	out->name = name;
	out->checkpoints = xls_ckpt_stats_count(cs);
	out->nbins = xls_ckpt_stats_series(cs, &out->bins);
	for (uint32_t b = 0; b < out->nbins; b++)
		for (unsigned int c = 0; c < XLS_BYTES_NCATEGORIES; c++)
			out->bytes[c] += out->bins[b].bytes[c];
	out->types = types;
	out->ntypes = (uint32_t)n;
	xls_stats_relog(st, &r);
	out->relog = r.buf;
	return 0;
}

void xls_describe_chart_log_release(struct xls_chart_log *l)
{
	free((void *)l->types);
	l->types = NULL;
}

void xls_print_ckpt_detail(struct xls_out *o, const struct xls_ckpt *ck,
			   const struct xls_field *types)
{
	xls_out_textf(o, "        bytes ");
	for (unsigned int c = 0; c < XLS_BYTES_NCATEGORIES; c++)
		if (ck->bytes[c])
			xls_out_textf(o, " %s=%llu", xls_byte_category_name(c),
				      (unsigned long long)ck->bytes[c]);
	xls_out_text_end(o);
	if (types) {
		char buf[1024];

		xls_field_format(types, buf, sizeof(buf));
		xls_out_textf(o, "        items  %s", buf);
		xls_out_text_end(o);
	}
	xls_out_textf(o, "        relog  first=%llu changed=%llu unchanged=%llu"
		      "  inode first=%llu changed=%llu unchanged=%llu",
		      (unsigned long long)ck->buf.first, (unsigned long long)ck->buf.changed,
		      (unsigned long long)ck->buf.unchanged, (unsigned long long)ck->inode.first,
		      (unsigned long long)ck->inode.changed,
		      (unsigned long long)ck->inode.unchanged);
	xls_out_text_end(o);
}

void xls_print_relog(struct xls_out *o, uint64_t nckpts, const char *scope,
		     const struct xls_fieldset *fs)
{
	xls_out_printf(o, "\n%llu checkpoints; relogged bytes of the %s:\n",
		       (unsigned long long)nckpts, scope);
	xls_out_pairs(o, fs, 28, "  ");
}
