/*
 * compare A B: the statistics of two journals side by side -- per byte
 * category, buffer type and size, and item type -- with deltas and ratios;
 * --svg draws them.  Each journal is scanned as stats scans it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "report/describe_audit.h"
#include "report/describe_stats.h"
#include "cmd/options.h"

/* compare's own options and its second word */
struct compare_opts {
	const char	*path_b;	/* B: the second journal */
	const char	*svg_path;	/* --svg: the two side by side */
};


struct compare_ctx {
	struct xls_cmd		*c;
	const struct xls_section *section;
};

static void emit_row(void *ctx, enum xls_row_kind kind, struct xls_fieldset *fs)
{
	struct compare_ctx *cc = ctx;

	switch (cc->c->out.fmt) {
	case XLS_FMT_TEXT:
		xls_print_section_row(&cc->c->out, xls_text_compare.secs, xls_text_compare.n,
				      &cc->section, kind, fs);
		break;
	case XLS_FMT_JSON:
		xls_cmd_record(cc->c, xls_row_kind_record(kind), fs);
		break;
	case XLS_FMT_CSV:
		if (kind == XLS_ROW_COMPARE_BUFTYPE)
			xls_cmd_record(cc->c, xls_row_kind_record(kind), fs);
		break;
	}
}

static int compare_main(const struct xls_options *opt, struct xls_error *err)
{
	const struct compare_opts *co = opt->own;
	struct xls_options ob = *opt;
	struct xls_audit *a = xls_audit_new(NULL, NULL), *b = xls_audit_new(NULL, NULL);
	struct compare_ctx cc = { 0 };
	struct xls_cmd c, cb;
	int rc;

	if (!a || !b) {
		xls_audit_free(a);
		xls_audit_free(b);
		return xls_error_set(err, XLS_EXIT_INTERNAL,
				     "out of memory for the audits of the two logs"), err->status;
	}
	ob.src.path = co->path_b;
	/* no -l (the command line takes none): one external log cannot serve two journals */
	rc = xls_cmd_check_new(co->svg_path, err);
	if (!rc)
		rc = xls_cmd_open(&c, opt, err);
	if (rc) {
		xls_audit_free(a);
		xls_audit_free(b);
		return err->status;
	}
	xls_out_csv_layout(&c.out, &xls_csv_compare);
	c.findings_mode = XLS_FINDINGS_COUNT;
	cc.c = &c;
	rc = xls_cmd_audit_scan(&c, a, false, err);
	if (!rc && !(rc = xls_cmd_open(&cb, &ob, err))) {
		/* B's findings count for the status with A's */
		cb.findings_mode = XLS_FINDINGS_COUNT;
		rc = xls_cmd_audit_scan(&cb, b, false, err);
		c.findings += cb.findings;
		if (xls_out_finish(&cb.out) && !rc)
			rc = xls_error_set(err, XLS_EXIT_INTERNAL, "cannot write to standard output");
		xls_cmd_close(&cb);
	}
	if (!rc) {
		xls_describe_compare(xls_audit_stats(a), xls_audit_stats(b), opt->src.path,
				     co->path_b, emit_row, &cc);
		if (co->svg_path)
			rc = xls_cmd_write_audit_svg(co->svg_path, XLS_CHART_COMPARE,
						     opt->src.path, xls_audit_stats(a),
						     co->path_b, xls_audit_stats(b), err);
	}
	rc = xls_cmd_status(&c, rc, err);
	xls_cmd_close(&c);
	xls_audit_free(a);
	xls_audit_free(b);
	return rc;
}

static const struct argp_option compare_options[] = {
	{ "svg", XLS_OPT_OWN, "FILE", 0, "draw the two journals side by side to FILE (SVG)", 3 },
	{ 0 }
};

static error_t compare_parse(int key, char *arg, struct argp_state *state)
{
	struct compare_opts *co = xls_cmdline(state)->own;

	switch (key) {
	case XLS_OPT_OWN:	co->svg_path = arg; return 0;
	case ARGP_KEY_ARG:	co->path_b = arg; return 0;
	default:		return ARGP_ERR_UNKNOWN;
	}
}

const struct xls_command xls_command_compare = {
	.name = "compare", .args_doc = "A B", .nargs = 2,
	.doc = "Two journals side by side: by buffer type and size and by item type, with deltas and ratios.",
	.summary = "two journals side by side, with deltas and ratios",
	.takes = XLS_TAKES_OUTPUT | XLS_TAKES_MOUNTED,
	.options = compare_options, .parse = compare_parse,
	.own_size = sizeof(struct compare_opts), .run = compare_main,
};
