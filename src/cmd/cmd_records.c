/* records: one line per log record. */
#include "cmd/cmd.h"
#include "report/describe_log.h"
#include "cmd/options.h"

/* records' own options */
struct records_opts {
	bool	all;	/* -a: every record in physical order */
};

static int on_record(void *ctx, const struct xls_rec *rec,
		     const struct xls_rec_summary *s)
{
	struct xls_cmd *c = ctx;
	struct xls_fieldset fs;

	xls_fields_reset(&fs);
	xls_describe_record(rec, s, &fs);
	if (c->out.fmt == XLS_FMT_TEXT)
		xls_out_row(&c->out, &xls_text_records, &fs);
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
		xls_out_heading(&c->out, &xls_text_records);
	return xls_scan(&c->log, &c->ht, ((const struct records_opts *)c->opt->own)->all ? XLS_ITER_PHYSICAL : XLS_ITER_LSN,
			&sink, &tot, err);
}

static int records_main(const struct xls_options *opt, struct xls_error *err)
{
	return xls_cmd_run(opt, &(struct xls_cmd_body){ .run = run }, err);
}

static const struct argp_option records_options[] = {
	{ "all", 'a', NULL, 0, "every record in physical order, not only tail to head", 3 },
	{ 0 }
};

static error_t records_parse(int key, char *arg, struct argp_state *state)
{
	struct records_opts *ro = xls_cmdline(state)->own;

	if (key != 'a')
		return xls_opt_parse_shared(key, arg, state);
	ro->all = true;
	return 0;
}

const struct xls_command xls_command_records = {
	.name = "records", .args_doc = "DEV", .nargs = 1,
	.doc = "One line per log record: LSN, length, ops, CRC.",
	.summary = "one line per log record",
	.takes = XLS_TAKES_LOGDEV | XLS_TAKES_OUTPUT | XLS_TAKES_MOUNTED,
	.options = records_options, .parse = records_parse,
	.own_size = sizeof(struct records_opts), .run = records_main,
};
