/* info: geometry, head and tail, and what a full scan of tail..head finds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/ondisk.h"
#include "analysis/analysis.h"
#include "cmd/cmd.h"

struct info_ctx {
	struct xls_cmd		*c;
	struct xls_buf_analysis	*ba;
	struct xls_fieldset	fs;
};

/* Count what trans and bufs would report for an item, without printing. */
static int info_item(void *ctx, const struct xls_trans *t, const struct xls_item *it)
{
	struct info_ctx *ic = ctx;

	(void)t;
	/* only the findings are wanted: no field is kept or formatted */
	xls_fields_discard(&ic->fs);
	if (xls_item_describe(it, &ic->fs))
		ic->c->findings++;
	if (it->type == XFS_LI_BUF) {
		xls_buf_analyse(it, ic->ba);
		if (ic->ba->parsed && ic->ba->res.problems)
			ic->c->findings++;
	}
	return 0;
}

static int info_finding(void *ctx, const struct xls_finding *f)
{
	struct info_ctx *ic = ctx;

	/* info prints totals, not each finding: count them. */
	ic->c->findings++;
	(void)f;
	return 0;
}

static void print_text(FILE *f, const struct xls_fieldset *fs)
{
	char buf[XLS_FIELDS_STRBUF];

	for (unsigned int i = 0; i < fs->n; i++) {
		xls_field_format(&fs->f[i], buf, sizeof(buf));
		fprintf(f, "%-22s %s\n", fs->f[i].key, buf);
	}
}

static void on_progress(void *ctx, uint64_t done, uint64_t total)
{
	struct info_ctx *ic = ctx;

	xls_cmd_progress(ic->c, done, total);
}

int xls_cmd_info(const struct xls_options *opt, struct xls_error *err)
{
	struct xls_scan_totals tot;
	struct info_ctx ic;
	struct xls_scan_sink sink = {
		.ctx = &ic, .item = info_item, .finding = info_finding,
		.progress = on_progress,
		.want_trans = true,
	};
	struct xls_fieldset fs;
	struct xls_cmd c;
	int rc;

	ic.ba = malloc(sizeof(*ic.ba));
	if (!ic.ba)
		return xls_error_set(err, XLS_EXIT_INTERNAL, "out of memory"), err->status;
	if (xls_cmd_open(&c, opt, err)) {
		free(ic.ba);
		return err->status;
	}
	ic.c = &c;
	rc = xls_scan(&c.log, &c.ht, XLS_ITER_LSN, &sink, &tot, err);
	xls_fields_reset(&fs);
	xls_cmd_geometry_fields(&c, &fs);
	xls_field_uint(&fs, "records", tot.records);
	xls_field_uint(&fs, "records_wrapped", tot.wrapped);
	xls_field_uint(&fs, "crc_bad", tot.crc_bad);
	xls_field_uint(&fs, "crc_zero", tot.crc_zero);
	xls_field_uint(&fs, "bad_headers", tot.gaps);
	xls_field_uint(&fs, "bad_cycle_records", tot.bad_stamp_records);
	xls_field_uint(&fs, "uuid_mismatch", tot.uuid_mismatch);
	xls_field_uint(&fs, "trans_committed", tot.trans[XLS_TRANS_COMMITTED]);
	xls_field_uint(&fs, "trans_incomplete", tot.trans[XLS_TRANS_INCOMPLETE]);
	xls_field_uint(&fs, "trans_corrupt", tot.trans[XLS_TRANS_CORRUPT]);
	xls_field_uint(&fs, "unmount_records", tot.trans[XLS_TRANS_UNMOUNT]);
	xls_field_uint(&fs, "items", tot.items);
	xls_field_uint(&fs, "findings", c.findings);
	if (opt->fmt == XLS_FMT_TEXT)
		print_text(c.out.f, &fs);
	else
		xls_out_record(&c.out, "info", &fs);
	rc = xls_cmd_status(&c, rc, err);
	xls_cmd_close(&c);
	free(ic.ba);
	return rc;
}
