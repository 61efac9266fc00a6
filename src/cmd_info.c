/* info: geometry, head and tail, and what a full scan of tail..head finds. */
#include <stdio.h>
#include <string.h>

#include "cmd.h"

struct info_ctx {
	struct xls_cmd	*c;
};

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
		.ctx = &ic, .finding = info_finding, .progress = on_progress,
		.want_trans = true,
	};
	struct xls_fieldset fs;
	struct xls_cmd c;
	int rc;

	if (xls_cmd_open(&c, opt, err))
		return err->status;
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
	xls_field_uint(&fs, "findings", tot.findings);
	if (opt->fmt == XLS_FMT_TEXT)
		print_text(c.out.f, &fs);
	else
		xls_out_record(&c.out, "info", &fs);
	rc = xls_cmd_status(&c, rc, err);
	xls_cmd_close(&c);
	return rc;
}
