/*
 * Report stage: the keys of every record, each declared once in
 * report/keys.def with its kind and unit.  A describer names a key as
 * XK(name): a key of another kind than the adder's is a compile error, so
 * a key has one type whatever writes it.  The CSV layouts name keys as XKEY(name),
 * of any kind; the text tables as XLS_COL(name, width) (report/emit.h),
 * under the heading keys.def gives the key.
 */
#ifndef XLS_KEYS_H
#define XLS_KEYS_H

#include <stdint.h>

/* What a number counts in (keys.def): the man page's JSON KEYS says each. */
enum xls_unit {
	XLS_UNIT_none,		/* a count, an id, flags, a name, a ratio */
	XLS_UNIT_bytes,
	XLS_UNIT_bb,		/* 512-byte basic blocks: daddrs, log blocks */
	XLS_UNIT_fsb,		/* filesystem blocks */
	XLS_UNIT_chunk,		/* 128-byte chunks of a buffer (XFS_BLF_CHUNK) */
	XLS_UNIT_words32,	/* 32-bit words, as the field is logged */
	XLS_UNIT_words64,	/* 64-bit words, as the field is logged */
	XLS_UNIT_pct,		/* percent */
	XLS_UNIT_measure,	/* the unit of the row's measure */
};

/* Room for a key as the writers put it: ,"key": -- keys up to 28 bytes. */
#define XLS_KEY_TEXT	32u

struct xls_key {
	const char	*name;
	enum xls_unit	unit;
	const char	*heading;	/* of its text table column; NULL: none */
	/*
	 * The key as JSON (,"key":) and text (key=) put it before a value,
	 * made by the compiler: the writers copy it whole, a fixed size.
	 */
	uint8_t		json_len, text_len;
	char		json[XLS_KEY_TEXT];
	char		text[XLS_KEY_TEXT];
};

/* The struct xls_key of string literal @text (keys.c asserts that it fits). */
#define XLS_KEY_INIT(text, unit, heading) \
	{ text, unit, heading, sizeof(text) + 3, sizeof(text), ",\"" text "\":", text "=" }

/* One type per kind; is_<kind> only tells the kinds apart. */
#define XLS_KEY_KIND(kind) \
	struct xls_key_##kind { struct xls_key k; char is_##kind; };
XLS_KEY_KIND(uint)
XLS_KEY_KIND(int)
XLS_KEY_KIND(hex)
XLS_KEY_KIND(oct)
XLS_KEY_KIND(str)
XLS_KEY_KIND(bool)
XLS_KEY_KIND(real)
XLS_KEY_KIND(lsn)
XLS_KEY_KIND(list)
XLS_KEY_KIND(value)
#undef XLS_KEY_KIND

/* A kind of record (keys.def, XLS_RECORD), as XR(name). */
struct xls_record_kind {
	const char	*name;
};

#define XLS_KEY(name, kind, unit, heading) extern const struct xls_key_##kind XK_##name;
#define XLS_RECORD(name)		extern const struct xls_record_kind XR_##name;
#include "report/keys.def"
#undef XLS_KEY
#undef XLS_RECORD

/*
 * A key outside keys.def, @id in XK(@id) and XKEY(@id), @text when
 * written: the unit tests' own.
 */
#define XLS_KEY_LOCAL(id, kind, text) \
	static const struct xls_key_##kind XK_##id = \
		{ XLS_KEY_INIT(text, XLS_UNIT_none, NULL), 0 }
/* A kind of record outside keys.def, XR(@id), @text when written. */
#define XLS_RECORD_LOCAL(id, text) \
	static const struct xls_record_kind XR_##id = { text }

/* Key @name, typed by its kind: for the field adders. */
#define XK(name)	(&XK_##name)
/* Key @name whatever its kind: for the CSV layouts and the text tables. */
#define XKEY(name)	(&XK_##name.k)
/* The kind of record @name. */
#define XR(name)	(&XR_##name)

#endif /* XLS_KEYS_H */
