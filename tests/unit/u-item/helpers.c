/*
 * u-item's helpers: byte assembly (host-order and __be stores at the
 * kernel layouts' offsets), items with exactly-sized regions, field checks
 * on what xls_describe_raw_item() gives, and the truncation sweep.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "u-item.h"

/* ---- byte assembly -------------------------------------------------- */

void bytes_init(struct bytes *b, enum xls_endian e)
{
	memset(b, 0, sizeof(*b));
	b->e = e;
}

void grow(struct bytes *b, size_t off, size_t n)
{
	if (off + n > b->len)
		b->len = off + n;
}

void put8(struct bytes *b, size_t off, uint8_t v)
{
	b->b[off] = v;
	grow(b, off, 1);
}

/* Store @n bytes of @v at @off, big-endian when @big. */
static void put_n(struct bytes *b, size_t off, uint64_t v, int n, bool big)
{
	for (int i = 0; i < n; i++) {
		int shift = big ? 8 * (n - 1 - i) : 8 * i;

		b->b[off + i] = (uint8_t)(v >> shift);
	}
	grow(b, off, n);
}

/* Host-order (writer's CPU) stores. */
void put16(struct bytes *b, size_t off, uint16_t v)
{
	put_n(b, off, v, 2, b->e == XLS_BIG_ENDIAN);
}
void put32(struct bytes *b, size_t off, uint32_t v)
{
	put_n(b, off, v, 4, b->e == XLS_BIG_ENDIAN);
}
void put64(struct bytes *b, size_t off, uint64_t v)
{
	put_n(b, off, v, 8, b->e == XLS_BIG_ENDIAN);
}
/* Big-endian (__be) stores. */
void putbe16(struct bytes *b, size_t off, uint16_t v)
{
	put_n(b, off, v, 2, true);
}
void putbe32(struct bytes *b, size_t off, uint32_t v)
{
	put_n(b, off, v, 4, true);
}
void putbe64(struct bytes *b, size_t off, uint64_t v)
{
	put_n(b, off, v, 8, true);
}

/* Format region header: u16 type, u16 size, host order. */
void put_hdr(struct bytes *b, uint16_t type, uint16_t size)
{
	put16(b, 0, type);
	put16(b, 2, size);
}

/* ---- items with exactly-sized regions -------------------------------- */

void titem_init(struct titem *t, enum xls_endian e, uint16_t type,
		       uint16_t size)
{
	memset(t, 0, sizeof(*t));
	t->it.type = type;
	t->it.size = size;
	t->it.endian = e;
	t->it.regions = t->r;
}

void titem_add_raw(struct titem *t, const uint8_t *p, size_t len)
{
	uint32_t i = t->it.nregions++;

	t->mem[i] = malloc(len ? len : 1);
	if (len)
		memcpy(t->mem[i], p, len);
	t->r[i].data = t->mem[i];
	t->r[i].len = (uint32_t)len;
}

void titem_add(struct titem *t, const struct bytes *b)
{
	titem_add_raw(t, b->b, b->len);
}

/* Replace region @i by its first @len bytes, reallocated at exact size. */
static void titem_cut(struct titem *t, uint32_t i, size_t len)
{
	uint8_t *p = malloc(len ? len : 1);

	memcpy(p, t->mem[i], len);
	free(t->mem[i]);
	t->mem[i] = p;
	t->r[i].data = p;
	t->r[i].len = (uint32_t)len;
}

void titem_free(struct titem *t)
{
	for (uint32_t i = 0; i < t->it.nregions; i++)
		free(t->mem[i]);
	t->it.nregions = 0;
}

/* ---- field checks ---------------------------------------------------- */

struct xls_fieldset FS;
unsigned int dup_keys;

/* Describe @t into FS; count any key that appears twice (keys are API). */
int describe(const struct titem *t)
{
	int rc;

	xls_fields_reset(&FS);
	rc = xls_describe_raw_item(&t->it, &FS);
	for (unsigned int i = 0; i < FS.n; i++)
		for (unsigned int j = i + 1; j < FS.n; j++)
			if (strcmp(FS.f[i].key->name, FS.f[j].key->name) == 0) {
				if (!dup_keys++)
					tap_diag("duplicate key %s in %s item",
						 FS.f[i].key->name, FS.f[0].v.s);
			}
	return rc;
}

/* The field whose key is named @name: found by its name, as a script would. */
const struct xls_field *field_named(const char *name)
{
	for (unsigned int i = 0; i < FS.n; i++)
		if (strcmp(FS.f[i].key->name, name) == 0)
			return &FS.f[i];
	return NULL;
}

bool f_u(const char *key, uint64_t want)
{
	const struct xls_field *f = field_named(key);

	if (!f || (f->kind != XLS_FIELD_UINT && f->kind != XLS_FIELD_HEX)) {
		tap_diag("field %s missing or not unsigned", key);
		return false;
	}
	if (f->v.u != want)
		tap_diag("field %s is 0x%llx, want 0x%llx", key,
			 (unsigned long long)f->v.u, (unsigned long long)want);
	return f->v.u == want;
}

bool f_i(const char *key, int64_t want)
{
	const struct xls_field *f = field_named(key);

	if (!f || f->kind != XLS_FIELD_INT) {
		tap_diag("field %s missing or not signed", key);
		return false;
	}
	if (f->v.i != want)
		tap_diag("field %s is %lld, want %lld", key, (long long)f->v.i,
			 (long long)want);
	return f->v.i == want;
}

/* A string field as it is, octal as text, a list as its JSON array. */
const char *f_string(const char *key)
{
	static char json[16384];
	const struct xls_field *f = field_named(key);

	if (!f || (f->kind != XLS_FIELD_STR && f->kind != XLS_FIELD_LIST &&
		   f->kind != XLS_FIELD_OCT))
		return NULL;
	if (f->kind == XLS_FIELD_STR)
		return f->v.s;
	if (f->kind == XLS_FIELD_OCT)
		xls_field_format(f, json, sizeof(json));
	else
		xls_field_format_json(f, json, sizeof(json));
	return json;
}

bool f_s(const char *key, const char *want)
{
	const char *s = f_string(key);

	if (!s) {
		tap_diag("field %s missing or not a string", key);
		return false;
	}
	if (strcmp(s, want) != 0)
		tap_diag("field %s is '%s', want '%s'", key, s, want);
	return strcmp(s, want) == 0;
}

/* The text form of a list field. */
bool f_text(const char *key, const char *want)
{
	const struct xls_field *f = field_named(key);
	char text[4096];

	if (!f || f->kind != XLS_FIELD_LIST) {
		tap_diag("field %s missing or not a list", key);
		return false;
	}
	xls_field_format(f, text, sizeof(text));
	if (strcmp(text, want) != 0)
		tap_diag("field %s text is '%s', want '%s'", key, text, want);
	return strcmp(text, want) == 0;
}

bool f_contains(const char *key, const char *sub)
{
	const char *s = f_string(key);

	if (!s) {
		tap_diag("field %s missing", key);
		return false;
	}
	if (!strstr(s, sub))
		tap_diag("field %s is '%s', lacks '%s'", key, s, sub);
	return strstr(s, sub) != NULL;
}

bool f_absent(const char *key)
{
	const struct xls_field *f = field_named(key);

	if (f)
		tap_diag("field %s unexpectedly present", key);
	return f == NULL;
}

bool no_finding(int rc)
{
	const struct xls_field *f = field_named("finding");

	if (f)
		tap_diag("unexpected finding: %s", f->v.s);
	return rc == 0 && !f && !FS.overflow;
}

bool finding(int rc, const char *sub)
{
	return rc == 1 && f_contains("finding", sub);
}

const char *en(enum xls_endian e)
{
	return e == XLS_BIG_ENDIAN ? "be" : "le";
}

/*
 * Describe @t with each region in turn cut to every shorter length; any
 * read past a region is caught by ASan.  The result must always carry the
 * common fields, and a cut format region never passes silently unless the
 * type has no payload to check.
 */
void sweep_truncations(struct titem *t, const char *what)
{
	bool ok = true;

	for (uint32_t i = 0; i < t->it.nregions; i++) {
		uint32_t full = t->r[i].len;
		uint8_t *save = malloc(full ? full : 1);

		memcpy(save, t->mem[i], full);
		for (uint32_t len = 0; len < full; len++) {
			titem_cut(t, i, len);
			describe(t);
			if (!field_named("item") ||
			    !field_named("regions"))
				ok = false;
			/* restore the full region for the next cut */
			free(t->mem[i]);
			t->mem[i] = malloc(full ? full : 1);
			memcpy(t->mem[i], save, full);
			t->r[i].data = t->mem[i];
			t->r[i].len = full;
		}
		free(save);
	}
	tap_ok(&T, ok, "%s: every truncation decodes without overrun", what);
}
