/* records: one line per log record. */
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"

static const struct xls_column record_columns[] = {
	{ "lsn",	"LSN",		12 },
	{ "blk",	"BLOCK",	8 },
	{ "h_len",	"LEN",		7 },
	{ "hblks",	"HDRS",		4 },
	{ "ops",	"OPS",		5 },
	{ "unused",	"UNUSED",	6 },
	{ "tail_lsn",	"TAIL",		12 },
	{ "crc",	"CRC",		5 },
	{ "notes",	"NOTES",	-20 },
};
#define NCOLS (sizeof(record_columns) / sizeof(record_columns[0]))

static const char *crc_name(enum xls_crc_state s)
{
	switch (s) {
	case XLS_CRC_OK:	return "ok";
	case XLS_CRC_OK_I386:	return "i386";
	case XLS_CRC_ZERO:	return "zero";
	case XLS_CRC_BAD:	return "BAD";
	}
	return "?";
}

static int on_record(void *ctx, const struct xls_rec *rec,
		     const struct xls_rec_summary *s)
{
	struct xls_cmd *c = ctx;
	struct xls_fieldset fs;
	char notes[128] = "";

	xls_fields_reset(&fs);
	xls_field_lsn(&fs, "lsn", rec->h_lsn);
	xls_field_uint(&fs, "blk", rec->blk);
	xls_field_uint(&fs, "cycle", rec->h_cycle);
	xls_field_uint(&fs, "version", rec->h_version);
	xls_field_uint(&fs, "h_len", rec->h_len);
	xls_field_uint(&fs, "h_size", rec->h_size);
	xls_field_uint(&fs, "hblks", rec->hblks);
	xls_field_uint(&fs, "data_blks", rec->data_blks);
	xls_field_uint(&fs, "ops", rec->h_num_logops);
	xls_field_uint(&fs, "ops_walked", s->ops);
	xls_field_uint(&fs, "unused", s->unused_bytes);
	xls_field_lsn(&fs, "tail_lsn", rec->h_tail_lsn);
	xls_field_uint(&fs, "prev_block", rec->h_prev_block);
	xls_field_hex(&fs, "h_crc", rec->h_crc);
	xls_field_hex(&fs, "crc_calc", rec->crc_calc);
	xls_field_str(&fs, "crc", crc_name(rec->crc));
	xls_field_bool(&fs, "wrapped", rec->wrapped);
	xls_field_uint(&fs, "bad_cycle_blocks", rec->bad_stamps);
	snprintf(notes, sizeof(notes), "%s%s%s%s",
		 rec->wrapped ? "wrapped " : "",
		 rec->bad_stamps ? "bad-cycle " : "",
		 rec->uuid_mismatch ? "foreign-uuid " : "",
		 s->op_problem ? "bad-op " : "");
	xls_field_str(&fs, "notes", notes);
	if (c->out.fmt == XLS_FMT_TEXT)
		xls_out_table_row(c->out.f, record_columns, NCOLS, &fs);
	else
		xls_out_record(&c->out, "record", &fs);
	return 0;
}

static int on_finding(void *ctx, const struct xls_finding *f)
{
	return xls_cmd_finding(ctx, f);
}

int xls_cmd_records(const struct xls_options *opt, struct xls_error *err)
{
	struct xls_scan_totals tot;
	struct xls_cmd c;
	struct xls_scan_sink sink = {
		.ctx = &c, .record = on_record, .finding = on_finding,
		.progress = xls_cmd_progress,
	};
	int rc;

	if (xls_cmd_open(&c, opt, err))
		return err->status;
	if (opt->fmt == XLS_FMT_TEXT)
		xls_out_table_heading(c.out.f, record_columns, NCOLS);
	rc = xls_scan(&c.log, &c.ht, opt->all ? XLS_ITER_PHYSICAL : XLS_ITER_LSN,
		      &sink, &tot, err);
	rc = xls_cmd_status(&c, rc, err);
	xls_cmd_close(&c);
	return rc;
}
