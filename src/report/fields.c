/*
 * Field sets: fixed-size, allocation-free records of decoded values.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdarg.h>
#include <string.h>
#include "base/ondisk.h"
#include "base/strfmt.h"
#include "report/fields.h"

void xls_fields_reset(struct xls_fieldset *fs)
{
	fs->n = 0;
	fs->overflow = false;
	fs->discard = false;
	fs->strused = 0;
	fs->elemused = 0;
}

void xls_fields_discard(struct xls_fieldset *fs)
{
	xls_fields_reset(fs);
	fs->discard = true;
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

/* A string field under @key, whatever its kind: @s copied. */
static void add_str(struct xls_fieldset *fs, const struct xls_key *key, const char *s)
{
	struct xls_field *f = xls_field_add(fs, key, XLS_FIELD_STR);

	if (f)
		f->v.s = strbuf_copy(fs, s);
}

void xls_field_str(struct xls_fieldset *fs, const struct xls_key_str *key, const char *s)
{
	add_str(fs, &key->k, s);
}

void xls_field_lsn_text(struct xls_fieldset *fs, const struct xls_key_lsn *key,
			const char *text)
{
	add_str(fs, &key->k, text);
}

void xls_field_strf(struct xls_fieldset *fs, const struct xls_key_str *key, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	if (fs->discard)
		return;
	va_start(ap, fmt);
	xls_vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	xls_field_str(fs, key, buf);
}

void xls_field_list(struct xls_fieldset *fs, const struct xls_key_list *key,
		    const struct xls_list *list, const void *elems, uint32_t n)
{
	struct xls_field *f = xls_field_add(fs, &key->k, XLS_FIELD_LIST);

	if (!f)
		return;
	f->list = list;
	f->v.p = elems;
	f->n = elems ? n : 0;
}

void *xls_fields_alloc(struct xls_fieldset *fs, size_t bytes)
{
	size_t at = (fs->elemused + 7) & ~(size_t)7;
	void *p;

	if (fs->discard || bytes > sizeof(fs->elembuf) ||
	    at > sizeof(fs->elembuf) - bytes) {
		fs->overflow = true;
		return NULL;
	}
	p = fs->elembuf + at;
	memset(p, 0, bytes);
	fs->elemused = at + bytes;
	return p;
}

const char *xls_fields_strdup(struct xls_fieldset *fs, const char *s)
{
	return fs->discard ? "" : strbuf_copy(fs, s);
}

const struct xls_field *xls_fields_get(const struct xls_fieldset *fs,
				       const struct xls_key *key)
{
	for (unsigned int i = 0; i < fs->n; i++)
		if (fs->f[i].key == key)
			return &fs->f[i];
	return NULL;
}

void xls_field_flags(struct xls_fieldset *fs, const struct xls_key_str *key, uint64_t flags,
		     const struct xls_flag_table *t)
{
	char names[256];
	struct xls_field *f;
	char *dst;

	if (fs->discard)
		return;
	/* straight into the string buffer when 256 bytes are left there */
	if (sizeof(fs->strbuf) - fs->strused < sizeof(names)) {
		xls_flags_to_str(flags, t, names, sizeof(names));
		xls_field_str(fs, key, names);
		return;
	}
	f = xls_field_add(fs, &key->k, XLS_FIELD_STR);
	if (!f)
		return;
	dst = fs->strbuf + fs->strused;
	fs->strused += xls_flags_to_str(flags, t, dst, sizeof(names)) + 1;
	f->v.s = dst;
}

/* ------------------------------------------------------------------ */
/* a field's text into a buffer */

void xls_field_list_text(const struct xls_field *fld, char *buf, size_t bufsz)
{
	const struct xls_list *l = fld->list;
	char elem[XLS_ELEM_TEXT_MAX];
	size_t pos = 0;

	if (!bufsz)
		return;
	buf[0] = '\0';
	if (l->fixed_text || !l->text) {
		snprintf(buf, bufsz, "%s", l->fixed_text ? l->fixed_text : "");
		return;
	}
	for (uint32_t i = 0; i < fld->n && pos < bufsz - 1; i++) {
		int w;

		l->text(xls_field_list_elem(fld, i), elem, sizeof(elem));
		w = snprintf(buf + pos, bufsz - pos, "%s%s", i ? l->sep : "", elem);
		if (w < 0)
			break;
		pos += (size_t)w;
	}
}

void xls_field_format(const struct xls_field *fld, char *buf, size_t bufsz)
{
	switch (fld->kind) {
	case XLS_FIELD_UINT:
	case XLS_FIELD_HEX:
	case XLS_FIELD_OCT:
		snprintf(buf, bufsz, fld->kind == XLS_FIELD_HEX ? "0x%" PRIx64 :
			 fld->kind == XLS_FIELD_OCT ? "%#" PRIo64 : "%" PRIu64, fld->v.u);
		break;
	case XLS_FIELD_INT:
		snprintf(buf, bufsz, "%" PRId64, fld->v.i);
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
	case XLS_FIELD_LIST:
		xls_field_list_text(fld, buf, bufsz);
		break;
	case XLS_FIELD_VALUE:	/* list members only: made a field of its own kind */
		buf[0] = '\0';
		break;
	}
}

/*
 * Whether the strings of @fs are all in its string buffer, as the adders
 * leave them (not a string cut for want of room: ""): then the buffer is
 * packed whole, and no string is measured.
 */
static bool strings_in_strbuf(const struct xls_fieldset *fs)
{
	uintptr_t from = (uintptr_t)fs->strbuf, to = from + fs->strused;

	for (unsigned int i = 0; i < fs->n; i++) {
		uintptr_t p = (uintptr_t)fs->f[i].v.s;

		if (fs->f[i].kind == XLS_FIELD_STR && !(p >= from && p < to))
			return false;
	}
	return true;
}

size_t xls_fields_packed_size(const struct xls_fieldset *fs)
{
	bool whole = strings_in_strbuf(fs);
	size_t bytes = (size_t)fs->n * sizeof(fs->f[0]) + (whole ? fs->strused : 0);

	for (unsigned int i = 0; i < fs->n; i++) {
		if (fs->f[i].kind == XLS_FIELD_LIST || fs->f[i].kind == XLS_FIELD_VALUE)
			return 0;
		if (fs->f[i].kind == XLS_FIELD_STR && !whole)
			bytes += strlen(fs->f[i].v.s) + 1;
	}
	return bytes;
}

/* A string field's offset from the strings stands in for its pointer. */
void xls_fields_pack(const struct xls_fieldset *fs, void *dst)
{
	struct xls_field *f = dst;
	char *strings = (char *)(f + fs->n);
	bool whole = strings_in_strbuf(fs);
	size_t used = 0;

	memcpy(f, fs->f, (size_t)fs->n * sizeof(*f));
	if (whole)
		memcpy(strings, fs->strbuf, fs->strused);
	for (unsigned int i = 0; i < fs->n; i++) {
		size_t len;

		if (f[i].kind != XLS_FIELD_STR)
			continue;
		if (whole) {
			f[i].v.u = (uint64_t)(fs->f[i].v.s - fs->strbuf);
			continue;
		}
		len = strlen(fs->f[i].v.s) + 1;
		memcpy(strings + used, fs->f[i].v.s, len);
		f[i].v.u = used;
		used += len;
	}
}

void xls_fields_unpack(struct xls_fieldset *fs, unsigned int n, const void *src)
{
	const struct xls_field *f = src;
	const char *strings = (const char *)(f + n);

	xls_fields_reset(fs);
	if (n > XLS_FIELDS_MAX)
		n = XLS_FIELDS_MAX;
	memcpy(fs->f, f, (size_t)n * sizeof(*f));
	fs->n = n;
	for (unsigned int i = 0; i < n; i++)
		if (fs->f[i].kind == XLS_FIELD_STR)
			fs->f[i].v.s = strings + f[i].v.u;
}

/* An integer member of @size bytes at @p, zero- or sign-extended. */
static uint64_t member_uint(const unsigned char *p, unsigned int size)
{
	uint8_t v8;
	uint16_t v16;
	uint32_t v32;
	uint64_t v64;

	switch (size) {
	case 1:
		memcpy(&v8, p, 1);
		return v8;
	case 2:
		memcpy(&v16, p, 2);
		return v16;
	case 4:
		memcpy(&v32, p, 4);
		return v32;
	default:
		memcpy(&v64, p, 8);
		return v64;
	}
}

static int64_t member_int(const unsigned char *p, unsigned int size)
{
	uint64_t v = member_uint(p, size);
	unsigned int shift = 64 - 8 * (size ? size : 8);

	return (int64_t)(v << shift) >> shift;
}

bool xls_member_field(const struct xls_member *m, const void *elem, struct xls_field *f)
{
	const unsigned char *p = (const unsigned char *)elem + m->offset;

	f->key = m->key;
	f->kind = m->kind;
	switch (m->kind) {
	case XLS_FIELD_STR:
		memcpy(&f->v.s, p, sizeof(f->v.s));
		return f->v.s != NULL;
	case XLS_FIELD_VALUE: {
		struct xls_value val;

		memcpy(&val, p, sizeof(val));
		f->kind = val.kind;
		if (val.kind == XLS_FIELD_STR)
			f->v.s = val.v.s;
		else if (val.kind == XLS_FIELD_INT)
			f->v.i = val.v.i;
		else
			f->v.u = val.v.u;
		return val.kind != XLS_FIELD_STR || val.v.s != NULL;
	}
	case XLS_FIELD_INT:
		f->v.i = member_int(p, m->size);
		return true;
	case XLS_FIELD_BOOL:
		f->v.b = member_uint(p, m->size) != 0;
		return true;
	case XLS_FIELD_REAL:
		memcpy(&f->v.d, p, sizeof(f->v.d));
		return true;
	default:
		f->v.u = member_uint(p, m->size);
		return true;
	}
}

void xls_field_members(struct xls_fieldset *fs, const struct xls_member *m, unsigned int n,
		       const void *obj)
{
	for (unsigned int i = 0; i < n; i++) {
		struct xls_field v, *dst;

		if (!xls_member_field(&m[i], obj, &v))
			continue;
		if (v.kind == XLS_FIELD_STR) {
			add_str(fs, v.key, v.v.s);
			continue;
		}
		dst = xls_field_add(fs, v.key, v.kind);
		if (dst)
			dst->v = v.v;
	}
}
