/*
 * u-item's private header: byte assembly of item regions in either byte
 * order, items whose regions are malloc'ed at their exact length, and the
 * field checks the per-family test files share.
 */
#ifndef XLS_U_ITEM_H
#define XLS_U_ITEM_H

#include <stdbool.h>
#include <stdint.h>
#include "tap.h"
#include "items/item.h"
#include "report/describe_item.h"
#include "report/emit.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define MAX_REGIONS	8

struct bytes {
	enum xls_endian	e;
	size_t		len;
	uint8_t		b[4096];
};

struct titem {
	struct xls_item		it;
	struct xls_region	r[MAX_REGIONS];
	uint8_t			*mem[MAX_REGIONS];
};

/* main.c */
extern struct tap T;

/* helpers.c: bytes, items, field checks */
extern struct xls_fieldset FS;
extern unsigned int dup_keys;
void bytes_init(struct bytes *b, enum xls_endian e);
void grow(struct bytes *b, size_t off, size_t n);
void put8(struct bytes *b, size_t off, uint8_t v);
void put16(struct bytes *b, size_t off, uint16_t v);
void put32(struct bytes *b, size_t off, uint32_t v);
void put64(struct bytes *b, size_t off, uint64_t v);
void putbe16(struct bytes *b, size_t off, uint16_t v);
void putbe32(struct bytes *b, size_t off, uint32_t v);
void putbe64(struct bytes *b, size_t off, uint64_t v);
void put_hdr(struct bytes *b, uint16_t type, uint16_t size);
void titem_init(struct titem *t, enum xls_endian e, uint16_t type,
		uint16_t size);
void titem_add_raw(struct titem *t, const uint8_t *p, size_t len);
void titem_add(struct titem *t, const struct bytes *b);
void titem_free(struct titem *t);
int describe(const struct titem *t);
/* The field whose key is named @name, or NULL. */
const struct xls_field *field_named(const char *name);
bool f_u(const char *key, uint64_t want);
bool f_i(const char *key, int64_t want);
const char *f_string(const char *key);
bool f_s(const char *key, const char *want);
bool f_text(const char *key, const char *want);
bool f_contains(const char *key, const char *sub);
bool f_absent(const char *key);
bool no_finding(int rc);
bool finding(int rc, const char *sub);
const char *en(enum xls_endian e);
void sweep_truncations(struct titem *t, const char *what);

/* buf.c, inode.c, extents.c, other.c: the item families, run by main() */
void test_item__buf(void);
void test_item__inode(void);
void test_item__efi(void);
void test_item__intents(void);
void test_item__xmi(void);
void test_item__attri(void);
void test_item__misc(void);

#endif /* XLS_U_ITEM_H */
