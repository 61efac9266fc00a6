/*
 * Writers for text, JSON Lines and CSV.  JSON strings are escaped per RFC
 * 8259; CSV fields per RFC 4180.  LSNs print as "cycle/block" everywhere,
 * as xfs_logprint users read them.
 */
#include <inttypes.h>
#include <string.h>

#include "ondisk.h"
#include "emit.h"

void xls_out_init(struct xls_out *o, FILE *f, enum xls_format fmt)
{
	o->f = f;
	o->fmt = fmt;
	o->csv_header_done = false;
}

void xls_field_format(const struct xls_field *fld, char *buf, size_t bufsz)
{
	switch (fld->kind) {
	case XLS_FIELD_UINT:
		snprintf(buf, bufsz, "%" PRIu64, fld->v.u);
		break;
	case XLS_FIELD_INT:
		snprintf(buf, bufsz, "%" PRId64, fld->v.i);
		break;
	case XLS_FIELD_HEX:
		snprintf(buf, bufsz, "0x%" PRIx64, fld->v.u);
		break;
	case XLS_FIELD_BOOL:
		snprintf(buf, bufsz, "%s", fld->v.b ? "yes" : "no");
		break;
	case XLS_FIELD_REAL:
		snprintf(buf, bufsz, "%.2f", fld->v.d);
		break;
	case XLS_FIELD_LSN:
		snprintf(buf, bufsz, "%u/%u", xls_lsn_cycle(fld->v.u),
			 xls_lsn_block(fld->v.u));
		break;
	case XLS_FIELD_STR:
		snprintf(buf, bufsz, "%s", fld->v.s);
		break;
	case XLS_FIELD_JSON:
		snprintf(buf, bufsz, "%s", fld->text ? fld->text : fld->v.s);
		break;
	}
}

static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch == '\n')
			fputs("\\n", f);
		else if (ch == '\t')
			fputs("\\t", f);
		else if (ch < 0x20 || ch == 0x7f)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}

static void json_value(FILE *f, const struct xls_field *fld)
{
	char buf[64];

	switch (fld->kind) {
	case XLS_FIELD_UINT:
		fprintf(f, "%" PRIu64, fld->v.u);
		break;
	case XLS_FIELD_INT:
		fprintf(f, "%" PRId64, fld->v.i);
		break;
	case XLS_FIELD_BOOL:
		fputs(fld->v.b ? "true" : "false", f);
		break;
	case XLS_FIELD_REAL:
		fprintf(f, "%.4f", fld->v.d);
		break;
	case XLS_FIELD_JSON:
		fputs(fld->v.s, f);
		break;
	case XLS_FIELD_STR:
		json_string(f, fld->v.s);
		break;
	case XLS_FIELD_HEX:
	case XLS_FIELD_LSN:
		xls_field_format(fld, buf, sizeof(buf));
		json_string(f, buf);
		break;
	}
}

static void out_json(FILE *f, const char *kind, const struct xls_fieldset *fs)
{
	fputs("{\"kind\":", f);
	json_string(f, kind);
	for (unsigned int i = 0; i < fs->n; i++) {
		fputc(',', f);
		json_string(f, fs->f[i].key);
		fputc(':', f);
		json_value(f, &fs->f[i]);
	}
	fputs("}\n", f);
}

static void csv_cell(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void out_csv(struct xls_out *o, const struct xls_fieldset *fs)
{
	char buf[XLS_FIELDS_STRBUF];

	if (!o->csv_header_done) {
		for (unsigned int i = 0; i < fs->n; i++) {
			if (i)
				fputc(',', o->f);
			csv_cell(o->f, fs->f[i].key);
		}
		fputc('\n', o->f);
		o->csv_header_done = true;
	}
	for (unsigned int i = 0; i < fs->n; i++) {
		if (i)
			fputc(',', o->f);
		xls_field_format(&fs->f[i], buf, sizeof(buf));
		csv_cell(o->f, buf);
	}
	fputc('\n', o->f);
}

void xls_out_text_pairs(FILE *f, const struct xls_fieldset *fs, unsigned int nskip)
{
	char buf[XLS_FIELDS_STRBUF];

	for (unsigned int i = nskip; i < fs->n; i++) {
		xls_field_format(&fs->f[i], buf, sizeof(buf));
		fprintf(f, "%s%s=%s", i > nskip ? " " : "", fs->f[i].key, buf);
	}
}

void xls_out_record(struct xls_out *o, const char *kind,
		    const struct xls_fieldset *fs)
{
	switch (o->fmt) {
	case XLS_FMT_JSON:
		out_json(o->f, kind, fs);
		break;
	case XLS_FMT_CSV:
		out_csv(o, fs);
		break;
	case XLS_FMT_TEXT:
		fprintf(o->f, "%s ", kind);
		xls_out_text_pairs(o->f, fs, 0);
		fputc('\n', o->f);
		break;
	}
}

void xls_out_table_heading(FILE *f, const struct xls_column *cols, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		fprintf(f, "%s%*s", i ? " " : "", cols[i].width, cols[i].heading);
	fputc('\n', f);
}

void xls_out_table_row(FILE *f, const struct xls_column *cols, unsigned int n,
		       const struct xls_fieldset *fs)
{
	char buf[XLS_FIELDS_STRBUF];

	for (unsigned int i = 0; i < n; i++) {
		const struct xls_field *fld = xls_fields_get(fs, cols[i].key);

		if (fld)
			xls_field_format(fld, buf, sizeof(buf));
		else
			snprintf(buf, sizeof(buf), "-");
		fprintf(f, "%s%*s", i ? " " : "", cols[i].width, buf);
	}
	fputc('\n', f);
}

int xls_out_finish(struct xls_out *o)
{
	if (fflush(o->f) != 0 || ferror(o->f))
		return -1;
	return 0;
}
