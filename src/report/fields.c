/*
 * Field sets: fixed-size, allocation-free records of decoded values.
 */
#include <stdio.h>
#include <stdarg.h>
#include <string.h>
#include "report/fields.h"

void xls_fields_reset(struct xls_fieldset *fs)
{
	fs->n = 0;
	fs->overflow = false;
	fs->discard = false;
	fs->strused = 0;
}

void xls_fields_discard(struct xls_fieldset *fs)
{
	xls_fields_reset(fs);
	fs->discard = true;
}

static struct xls_field *field_add(struct xls_fieldset *fs, const char *key,
				   enum xls_field_kind kind)
{
	struct xls_field *f;

	if (fs->discard)
		return NULL;
	if (fs->n >= XLS_FIELDS_MAX) {
		fs->overflow = true;
		return NULL;
	}
	f = &fs->f[fs->n++];
	f->key = key;
	f->kind = kind;
	f->text = NULL;
	return f;
}

/* Copy @s into the set's string buffer; a string that does not fit is cut. */
static const char *strbuf_copy(struct xls_fieldset *fs, const char *s)
{
	size_t room = sizeof(fs->strbuf) - fs->strused;
	size_t len = strlen(s);
	char *dst = fs->strbuf + fs->strused;

	if (room == 0) {
		fs->overflow = true;
		return "";
	}
	if (len >= room) {
		fs->overflow = true;
		len = room - 1;
	}
	memcpy(dst, s, len);
	dst[len] = '\0';
	fs->strused += len + 1;
	return dst;
}

void xls_field_uint(struct xls_fieldset *fs, const char *key, uint64_t v)
{
	struct xls_field *f = field_add(fs, key, XLS_FIELD_UINT);

	if (f)
		f->v.u = v;
}

void xls_field_int(struct xls_fieldset *fs, const char *key, int64_t v)
{
	struct xls_field *f = field_add(fs, key, XLS_FIELD_INT);

	if (f)
		f->v.i = v;
}

void xls_field_hex(struct xls_fieldset *fs, const char *key, uint64_t v)
{
	struct xls_field *f = field_add(fs, key, XLS_FIELD_HEX);

	if (f)
		f->v.u = v;
}

void xls_field_bool(struct xls_fieldset *fs, const char *key, bool v)
{
	struct xls_field *f = field_add(fs, key, XLS_FIELD_BOOL);

	if (f)
		f->v.b = v;
}

void xls_field_real(struct xls_fieldset *fs, const char *key, double v)
{
	struct xls_field *f = field_add(fs, key, XLS_FIELD_REAL);

	if (f)
		f->v.d = v;
}

void xls_field_lsn(struct xls_fieldset *fs, const char *key, uint64_t lsn)
{
	struct xls_field *f = field_add(fs, key, XLS_FIELD_LSN);

	if (f)
		f->v.u = lsn;
}

void xls_field_str(struct xls_fieldset *fs, const char *key, const char *s)
{
	struct xls_field *f = field_add(fs, key, XLS_FIELD_STR);

	if (f)
		f->v.s = strbuf_copy(fs, s);
}

void xls_field_strf(struct xls_fieldset *fs, const char *key, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	if (fs->discard)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	xls_field_str(fs, key, buf);
}

void xls_field_json(struct xls_fieldset *fs, const char *key,
		    const char *json, const char *text)
{
	struct xls_field *f = field_add(fs, key, XLS_FIELD_JSON);

	if (!f)
		return;
	f->v.s = strbuf_copy(fs, json);
	f->text = strbuf_copy(fs, text);
}

const struct xls_field *xls_fields_get(const struct xls_fieldset *fs,
				       const char *key)
{
	for (unsigned int i = 0; i < fs->n; i++)
		if (strcmp(fs->f[i].key, key) == 0)
			return &fs->f[i];
	return NULL;
}

/* Append to @buf at *@pos, never past @bufsz, always NUL-terminated. */
/*
 * Append @s, cut to what fits; *@pos grows by its whole length either way,
 * as with snprintf, so that a full buffer stays full.  Called once per flag
 * name of every item described: no format parsing.
 */
static void buf_append(char *buf, size_t bufsz, size_t *pos, const char *s)
{
	size_t len = strlen(s), n = len;

	if (*pos >= bufsz)
		return;
	if (n > bufsz - *pos - 1)
		n = bufsz - *pos - 1;
	memcpy(buf + *pos, s, n);
	buf[*pos + n] = '\0';
	*pos += len;
}

void xls_flags_to_str(uint64_t flags, const struct xls_flag_name *table,
		      size_t ntable, char *buf, size_t bufsz)
{
	uint64_t rest = flags;
	size_t pos = 0;
	char tmp[40];

	if (bufsz == 0)
		return;
	buf[0] = '\0';
	if (flags == 0)
		return;
	for (size_t i = 0; i < ntable; i++) {
		if ((flags & table[i].bit) != table[i].bit || !table[i].bit)
			continue;
		if (pos)
			buf_append(buf, bufsz, &pos, "|");
		buf_append(buf, bufsz, &pos, table[i].name);
		rest &= ~table[i].bit;
	}
	if (rest) {
		snprintf(tmp, sizeof(tmp), "%sUNKNOWN(0x%llx)", pos ? "|" : "",
			 (unsigned long long)rest);
		buf_append(buf, bufsz, &pos, tmp);
	}
}

void xls_field_flags(struct xls_fieldset *fs, const char *key, uint64_t flags,
		     const struct xls_flag_name *table, size_t ntable)
{
	char names[256];

	if (fs->discard)
		return;
	xls_flags_to_str(flags, table, ntable, names, sizeof(names));
	xls_field_str(fs, key, names);
}
