/* trans: each transaction with its items decoded. */
#include <stdio.h>
#include <stdlib.h>

#include "base/ondisk.h"
#include "base/strfmt.h"
#include "cmd/cmd.h"
#include "semantics/owner.h"

struct trans_ctx {
	struct xls_cmd		*c;
	struct xls_item_decoded	d;
	struct xls_fieldset	fs;
	/* --ino: the transaction's first item of the inode opens it */
	struct xls_owner_map	owners;
	struct xls_buf_analysis	ba;
	bool			shown;
};

static void print_begin(struct trans_ctx *tc, const struct xls_trans *t)
{
	struct xls_out *o = &tc->c->out;

	xls_out_printf(o, "trans 0x%08x  lsn %u/%u", t->tid,
		xls_lsn_cycle(t->lsn), xls_lsn_block(t->lsn));
	if (t->has_header)
		xls_out_printf(o, "  th_num_items %u", t->th_num_items);
	if (t->stale)
		xls_out_printf(o, "  stale%s", t->partial ? ", partial: its start is lost" : "");
	xls_out_printf(o, "\n");
}

static int on_begin(void *ctx, const struct xls_trans *t)
{
	struct trans_ctx *tc = ctx;

	tc->shown = false;
	if (tc->c->out.fmt == XLS_FMT_TEXT && !tc->c->opt->filter.has_ino)
		print_begin(tc, t);
	return 0;
}

/*
 * "  12 buf      blkno=0x..." -- the common fields (item, type_code, size,
 * regions) are folded into the name, and the region count is shown only
 * when it disagrees with what the format declares.
 */
static void print_item_text(struct xls_out *o, uint32_t index,
			    const struct xls_item_decoded *d,
			    const struct xls_fieldset *fs)
{
	const struct xls_item *it = d->item;

	xls_out_text_str(o, "  ", 0);
	xls_out_text_uint(o, index, 4);
	xls_out_text_str(o, " ", 0);
	xls_out_text_str(o, d->type ? d->type->name : "unknown", -9);
	if (it->nregions != it->size)
		xls_out_textf(o, " regions=%u/%u", it->nregions, it->size);
	if (!d->type)
		xls_out_textf(o, " type=0x%04x", it->type);
	xls_out_text_str(o, " ", 0);
	xls_out_text_pairs(o, fs, 4);
	xls_out_text_end(o);
}

static int on_item(void *ctx, const struct xls_trans *t, const struct xls_item *it)
{
	struct trans_ctx *tc = ctx;
	struct xls_cmd *c = tc->c;
	struct xls_fieldset *fs = &tc->fs;

	xls_fields_reset(fs);
	xls_item_decode(it, &tc->d);
	if (c->opt->filter.has_ino) {
		if (!xls_item_concerns_ino(&tc->owners, it, &tc->d, &tc->ba, c->opt->filter.ino))
			return 0;
		if (!tc->shown && c->out.fmt == XLS_FMT_TEXT)
			print_begin(tc, t);
		tc->shown = true;
	}
	c->shown++;
	if (c->out.fmt != XLS_FMT_TEXT) {
		xls_field_hex(fs, XK(tid), t->tid);
		xls_field_lsn(fs, XK(lsn), t->lsn);
		xls_field_uint(fs, XK(index), t->nitems);
		if (c->opt->stale)
			xls_field_bool(fs, XK(stale), t->stale);
	}
	if (xls_describe_item(&tc->d, fs))
		c->findings++;
	if (c->out.fmt == XLS_FMT_TEXT)
		print_item_text(&c->out, t->nitems, &tc->d, fs);
	else
		xls_cmd_record(c, XR(item), fs);
	return 0;
}

static int on_end(void *ctx, const struct xls_trans *t)
{
	struct trans_ctx *tc = ctx;
	struct xls_out *o = &tc->c->out;

	if (tc->c->opt->filter.has_ino && !tc->shown)
		return 0;
	if (tc->c->out.fmt == XLS_FMT_TEXT) {
		xls_out_printf(o, "  end %s", xls_trans_state_name(t->state));
		if (t->commit_lsn)
			xls_out_printf(o, " at %u/%u", xls_lsn_cycle(t->commit_lsn),
				xls_lsn_block(t->commit_lsn));
		xls_out_printf(o, ": %u item%s, %u region%s, %u record%s%s%s\n",
			t->nitems, xls_plural(t->nitems), t->nregions, xls_plural(t->nregions),
			t->nrecords, xls_plural(t->nrecords),
			t->why ? ": " : "", t->why ? t->why : "");
		if (t->partial)
			xls_out_printf(o, "  the items of its first %u op%s are lost with its start\n",
				t->skipped_ops, xls_plural(t->skipped_ops));
		return 0;
	}
	xls_fields_reset(&tc->fs);
	xls_describe_trans(t, &tc->fs);
	if (tc->c->opt->stale)
		xls_field_bool(&tc->fs, XK(stale), t->stale);
	xls_cmd_record(tc->c, XR(trans), &tc->fs);
	return 0;
}

static int run(struct xls_cmd *c, void *ctx, struct xls_error *err)
{
	struct trans_ctx *tc = ctx;
	struct xls_scan_totals tot;
	struct xls_scan_sink sink = {
		.ctx = tc, .begin = on_begin, .item = on_item, .end = on_end,
		.want_trans = true, .report = &c->report,
	};

	xls_out_csv_layout(&c->out, &xls_csv_trans);
	xls_cmd_filters(c, "item");
	tc->c = c;
	xls_owner_map_init(&tc->owners, &c->src);
	return xls_cmd_scan(c, &sink, &tot, err);
}

static void release(void *ctx)
{
	struct trans_ctx *tc = ctx;

	xls_owner_map_release(&tc->owners);
}

int xls_cmd_trans(const struct xls_options *opt, struct xls_error *err)
{
	return xls_cmd_run(opt, &(struct xls_cmd_body){ .ctx_size = sizeof(struct trans_ctx),
			   .run = run, .release = release }, err);
}
