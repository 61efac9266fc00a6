/*
 * Report stage: a decoded object as an ordered list of named, typed
 * fields.  The describers (report/describe*.c) fill one from the typed
 * results of the stages; the text, JSON and CSV writers read it.  This is
 * the one table that drives every output format.  Its keys are those of
 * report/keys.def, each of one kind: the adders take XK(name) of their
 * kind only.  They are documented in the man page, and a rename is a
 * NEWS entry.
 *
 * A field may be a list: an array of scalars or of objects, described by a
 * struct xls_list (what members each element has, where in the element
 * they are) and read from the elements when the set is written -- the
 * rowspec of btrfs-progs' format-output.  JSON writes the array; text and
 * CSV write the list's text form.
 */
#ifndef XLS_FIELDS_H
#define XLS_FIELDS_H

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include "base/flags.h"
#include "report/keys.h"

#define XLS_FIELDS_MAX		64
#define XLS_FIELDS_STRBUF	16384
#define XLS_FIELDS_ELEMBUF	8192

enum xls_field_kind {
	XLS_FIELD_UINT,		/* decimal unsigned */
	XLS_FIELD_INT,		/* decimal signed */
	XLS_FIELD_HEX,		/* 0x-prefixed hex; a JSON string */
	XLS_FIELD_OCT,		/* 0-prefixed octal, as printf's %#o; a JSON string */
	XLS_FIELD_STR,		/* text; a JSON string */
	XLS_FIELD_BOOL,
	XLS_FIELD_REAL,		/* decimal with 2 places in text, 4 in JSON */
	XLS_FIELD_LSN,		/* cycle/block in text; JSON "cycle/block" string */
	XLS_FIELD_LIST,		/* a JSON array; its text form elsewhere */
	XLS_FIELD_VALUE,	/* list members only: a struct xls_value, its own kind */
};

/*
 * A list member whose kind each element says (UINT, INT, OCT, HEX or
 * STR): lost's changes, where a mode is octal, a time nanoseconds and a
 * fork format a name.  A STR with a NULL string leaves the member out.
 */
struct xls_value {
	enum xls_field_kind	kind;
	union {
		uint64_t	u;
		int64_t		i;
		const char	*s;
	} v;
};

/* One member of the elements of a list. */
struct xls_member {
	const struct xls_key	*key;	/* NULL: the element is this one value */
	enum xls_field_kind	kind;	/* UINT, INT, HEX, OCT, BOOL, REAL, LSN, STR or VALUE */
	uint16_t		offset;	/* of the member in the element */
	uint8_t			size;	/* integers: 1, 2, 4 or 8 bytes */
	/* STR: a const char * member; NULL leaves the member out */
};

/* The field kind of each key kind (report/keys.h). */
#define XLS_KIND_uint	XLS_FIELD_UINT
#define XLS_KIND_int	XLS_FIELD_INT
#define XLS_KIND_hex	XLS_FIELD_HEX
#define XLS_KIND_oct	XLS_FIELD_OCT
#define XLS_KIND_str	XLS_FIELD_STR
#define XLS_KIND_bool	XLS_FIELD_BOOL
#define XLS_KIND_lsn	XLS_FIELD_LSN
#define XLS_KIND_real	XLS_FIELD_REAL
#define XLS_KIND_value	XLS_FIELD_VALUE

/* Member @field of @type, under key @name, which keys.def says is of @kind. */
#define XLS_MEMBER(name, kind, type, field) \
	{ &XK_##name.k + 0 * sizeof(XK_##name.is_##kind), XLS_KIND_##kind, \
	  offsetof(type, field), sizeof(((type *)0)->field) }
/* The element is this one value (@field of @type), of field kind @kind. */
#define XLS_MEMBER_SELF(kind, type, field) \
	{ NULL, XLS_KIND_##kind, offsetof(type, field), sizeof(((type *)0)->field) }

struct xls_list {
	const struct xls_member	*members;
	unsigned int		nmembers;
	size_t			stride;		/* bytes per element */
	/*
	 * The text form: each element as text() writes it, joined by sep; or
	 * fixed_text whatever the elements.
	 */
	void			(*text)(const void *elem, char *buf, size_t bufsz);
	const char		*sep;
	const char		*fixed_text;
};

struct xls_field {
	const struct xls_key	*key;	/* NULL: a list element's one value */
	enum xls_field_kind	kind;
	uint32_t		n;	/* LIST: elements */
	union {
		uint64_t	u;
		int64_t		i;
		double		d;
		bool		b;
		const char	*s;	/* points into the set's strbuf or static */
		const void	*p;	/* LIST: the elements */
	} v;
	const struct xls_list	*list;	/* LIST: what the elements are */
};

struct xls_fieldset {
	unsigned int		n;
	bool			overflow;	/* a field or string did not fit */
	bool			discard;	/* keeps nothing (xls_fields_discard) */
	struct xls_field	f[XLS_FIELDS_MAX];
	size_t			strused;
	size_t			elemused;
	char			strbuf[XLS_FIELDS_STRBUF];
	_Alignas(8) unsigned char elembuf[XLS_FIELDS_ELEMBUF];
};

/* Empty @fs for reuse; no allocation is ever made. */
void xls_fields_reset(struct xls_fieldset *fs);

/*
 * Make @fs a set that keeps nothing and formats nothing, for a caller that
 * wants only what a describer returns (its findings), not its fields.
 * xls_fields_reset() makes it an ordinary set again.
 */
void xls_fields_discard(struct xls_fieldset *fs);

/*
 * The scalar adders, inline: the describers call them for every field of
 * every item, millions of times a log.  A field that does not fit sets
 * overflow; a discarding set keeps nothing.
 */
static inline struct xls_field *xls_field_add(struct xls_fieldset *fs, const struct xls_key *key,
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
	f->n = 0;
	f->list = NULL;
	return f;
}

#define XLS_FIELD_SCALAR(name, kind, type, member)				\
	static inline void xls_field_##name(struct xls_fieldset *fs,		\
					    const struct xls_key_##name *key, type v) \
	{									\
		struct xls_field *f = xls_field_add(fs, &key->k, kind);		\
										\
		if (f)								\
			f->v.member = v;					\
	}

XLS_FIELD_SCALAR(uint, XLS_FIELD_UINT, uint64_t, u)
XLS_FIELD_SCALAR(int, XLS_FIELD_INT, int64_t, i)
XLS_FIELD_SCALAR(hex, XLS_FIELD_HEX, uint64_t, u)
XLS_FIELD_SCALAR(oct, XLS_FIELD_OCT, uint64_t, u)
XLS_FIELD_SCALAR(bool, XLS_FIELD_BOOL, bool, b)
XLS_FIELD_SCALAR(real, XLS_FIELD_REAL, double, d)
XLS_FIELD_SCALAR(lsn, XLS_FIELD_LSN, uint64_t, u)
/* @s is copied into the set's string buffer. */
void xls_field_str(struct xls_fieldset *fs, const struct xls_key_str *key, const char *s);
/*
 * Each member of @obj that @m lists (@n of them), in order, a field of its
 * key: the fields of a struct declared as data.  A NULL string member is
 * left out; a string is copied into the set's buffer.
 */
void xls_field_members(struct xls_fieldset *fs, const struct xls_member *m, unsigned int n,
		       const void *obj);
#define XLS_FIELD_MEMBERS(fs, members, obj) \
	xls_field_members((fs), (members), sizeof(members) / sizeof((members)[0]), (obj))
/* Member @m of @elem as a field, as a list writes it; false: a NULL string, left out. */
bool xls_member_field(const struct xls_member *m, const void *elem, struct xls_field *f);
/* printf-style string field, copied into the set's string buffer. */
void xls_field_strf(struct xls_fieldset *fs, const struct xls_key_str *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A field of the names of @flags in @t (xls_flags_to_str), up to 255 bytes. */
void xls_field_flags(struct xls_fieldset *fs, const struct xls_key_str *key, uint64_t flags,
		     const struct xls_flag_table *t);
/* An LSN key with no LSN to give: @text ("end", "") instead, as a string. */
void xls_field_lsn_text(struct xls_fieldset *fs, const struct xls_key_lsn *key,
			const char *text);

/*
 * A list of @n elements at @elems, read when the set is written: @elems
 * must live until then -- the caller's own array, or memory from
 * xls_fields_alloc().
 */
void xls_field_list(struct xls_fieldset *fs, const struct xls_key_list *key,
		    const struct xls_list *list, const void *elems, uint32_t n);

/*
 * @bytes of the set's own memory (8-byte aligned, zeroed), for the elements
 * of a list or the strings they point to; NULL when the set is full.
 */
void *xls_fields_alloc(struct xls_fieldset *fs, size_t bytes);

/* @s copied into the set's string buffer ("" when full). */
const char *xls_fields_strdup(struct xls_fieldset *fs, const char *s);

/* The field of @key (each key is one object, keys.def's), or NULL. */
const struct xls_field *xls_fields_get(const struct xls_fieldset *fs,
				       const struct xls_key *key);

/* Element @i of list field @fld. */
static inline const void *xls_field_list_elem(const struct xls_field *fld, uint32_t i)
{
	return (const unsigned char *)fld->v.p + (size_t)i * fld->list->stride;
}

/* The longest text of one list element. */
#define XLS_ELEM_TEXT_MAX	256

/* The text form of list field @fld into @buf, cut to @bufsz - 1 characters. */
void xls_field_list_text(const struct xls_field *fld, char *buf, size_t bufsz);

/*
 * A set as bytes that need nothing else, for a writer on another thread
 * (cmd/cmd_writer.c): its fields, then the strings they point to.  Sets
 * of scalars and strings only: one with a list packs to nothing (0).
 */
size_t xls_fields_packed_size(const struct xls_fieldset *fs);
/* @fs into @dst: xls_fields_packed_size() bytes, 8-byte aligned. */
void xls_fields_pack(const struct xls_fieldset *fs, void *dst);
/* @fs made of the @n fields packed at @src, whose strings it points to. */
void xls_fields_unpack(struct xls_fieldset *fs, unsigned int n, const void *src);

/* A field's value as text into @buf (the same form text output uses). */
void xls_field_format(const struct xls_field *fld, char *buf, size_t bufsz);

#endif /* XLS_FIELDS_H */
