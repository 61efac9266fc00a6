/* trans: each transaction with its items decoded. */
#include <stdio.h>
#include <string.h>

#include "base/ondisk.h"
#include "cmd/cmd.h"

static void trans_fields(const struct xls_trans *t, struct xls_fieldset *fs)
{
	xls_field_hex(fs, "tid", t->tid);
	xls_field_lsn(fs, "lsn", t->lsn);
	if (t->commit_lsn)
		xls_field_lsn(fs, "commit_lsn", t->commit_lsn);
	xls_field_str(fs, "state", xls_trans_state_name(t->state));
	if (t->has_header) {
		xls_field_uint(fs, "th_type", t->th_type);
		xls_field_uint(fs, "th_num_items", t->th_num_items);
	}
	xls_field_uint(fs, "items", t->nitems);
	xls_field_uint(fs, "regions", t->nregions);
	xls_field_uint(fs, "records", t->nrecords);
	xls_field_uint(fs, "op_bytes", t->op_bytes);
	xls_field_uint(fs, "region_bytes", t->region_bytes);
	if (t->why)
		xls_field_str(fs, "why", t->why);
}

static int on_begin(void *ctx, const struct xls_trans *t)
{
	struct xls_cmd *c = ctx;

	if (c->out.fmt != XLS_FMT_TEXT)
		return 0;
	fprintf(c->out.f, "trans 0x%08x  lsn %u/%u", t->tid,
		xls_lsn_cycle(t->lsn), xls_lsn_block(t->lsn));
	if (t->has_header)
		fprintf(c->out.f, "  th_num_items %u", t->th_num_items);
	fputc('\n', c->out.f);
	return 0;
}

/*
 * "  12 buf      blkno=0x..." -- the common fields (item, type_code, size,
 * regions) are folded into the name, and the region count is shown only
 * when it disagrees with what the format declares.
 */
static void print_item_text(struct xls_out *o, uint32_t index,
			    const struct xls_item *it, const struct xls_fieldset *fs)
{
	const struct xls_field *name = xls_fields_get(fs, "item");

	xls_out_textf(o, "  %4u %-9s", index, name ? name->v.s : "?");
	if (it->nregions != it->size)
		xls_out_textf(o, " regions=%u/%u", it->nregions, it->size);
	if (!xls_item_type_name(it->type))
		xls_out_textf(o, " type=0x%04x", it->type);
	xls_out_textf(o, " ");
	xls_out_text_pairs(o, fs, 4);
	xls_out_text_end(o);
}

static int on_item(void *ctx, const struct xls_trans *t, const struct xls_item *it)
{
	struct xls_cmd *c = ctx;
	struct xls_fieldset fs;

	xls_fields_reset(&fs);
	if (c->out.fmt != XLS_FMT_TEXT) {
		xls_field_hex(&fs, "tid", t->tid);
		xls_field_lsn(&fs, "lsn", t->lsn);
		xls_field_uint(&fs, "index", t->nitems);
	}
	if (xls_item_describe(it, &fs))
		c->findings++;
	if (c->out.fmt == XLS_FMT_TEXT) {
		print_item_text(&c->out, t->nitems, it, &fs);
	} else {
		xls_out_record(&c->out, "item", &fs);
	}
	return 0;
}

static int on_end(void *ctx, const struct xls_trans *t)
{
	struct xls_cmd *c = ctx;
	struct xls_fieldset fs;

	if (c->out.fmt == XLS_FMT_TEXT) {
		fprintf(c->out.f, "  end %s", xls_trans_state_name(t->state));
		if (t->commit_lsn)
			fprintf(c->out.f, " at %u/%u", xls_lsn_cycle(t->commit_lsn),
				xls_lsn_block(t->commit_lsn));
		fprintf(c->out.f, ": %u items, %u regions, %u records%s%s\n",
			t->nitems, t->nregions, t->nrecords,
			t->why ? ": " : "", t->why ? t->why : "");
		return 0;
	}
	xls_fields_reset(&fs);
	trans_fields(t, &fs);
	xls_out_record(&c->out, "trans", &fs);
	return 0;
}

static int on_finding(void *ctx, const struct xls_finding *f)
{
	return xls_cmd_finding(ctx, f);
}

int xls_cmd_trans(const struct xls_options *opt, struct xls_error *err)
{
	struct xls_scan_totals tot;
	struct xls_cmd c;
	struct xls_scan_sink sink = {
		.ctx = &c, .begin = on_begin, .item = on_item, .end = on_end,
		.finding = on_finding, .want_trans = true,
		.progress = xls_cmd_progress,
	};
	int rc;

	if (xls_cmd_open(&c, opt, err))
		return err->status;
	rc = xls_scan(&c.log, &c.ht, XLS_ITER_LSN, &sink, &tot, err);
	rc = xls_cmd_status(&c, rc, err);
	xls_cmd_close(&c);
	return rc;
}
