/* records: one line per log record. */
#include "cmd/cmd.h"

static const struct xls_column record_columns[] = {
	XLS_COL(lsn, 12),
	XLS_COL(blk, 8),
	XLS_COL(h_len, 7),
	XLS_COL(hblks, 4),
	XLS_COL(ops, 5),
	XLS_COL(unused, 6),
	XLS_COL(tail_lsn, 12),
	XLS_COL(crc_status, 5),
	XLS_COL(notes, -20),
};
#define NCOLS (sizeof(record_columns) / sizeof(record_columns[0]))

static int on_record(void *ctx, const struct xls_rec *rec,
		     const struct xls_rec_summary *s)
{
	struct xls_cmd *c = ctx;
	struct xls_fieldset fs;

	xls_fields_reset(&fs);
	xls_describe_record(rec, s, &fs);
	if (c->out.fmt == XLS_FMT_TEXT)
		xls_out_table_row(&c->out, record_columns, NCOLS, &fs);
	else
		xls_cmd_record(c, XR(record), &fs);
	return 0;
}

static int run(struct xls_cmd *c, void *ctx, struct xls_error *err)
{
	struct xls_scan_totals tot;
	struct xls_scan_sink sink = {
		.ctx = c, .record = on_record, .report = &c->report,
	};

	(void)ctx;
	xls_out_csv_layout(&c->out, &xls_csv_records);
	if (c->opt->fmt == XLS_FMT_TEXT)
		xls_out_table_heading(&c->out, record_columns, NCOLS);
	return xls_scan(&c->log, &c->ht, c->opt->records.all ? XLS_ITER_PHYSICAL : XLS_ITER_LSN,
			&sink, &tot, err);
}

int xls_cmd_records(const struct xls_options *opt, struct xls_error *err)
{
	return xls_cmd_run(opt, &(struct xls_cmd_body){ .run = run }, err);
}
