/*
 * A decoded object as an ordered list of named, typed fields.  Decoders fill
 * one; the text, JSON and CSV writers read it.  This is the one table that
 * drives every output format, so keys are stable and documented in the man
 * page: never rename one.
 */
#ifndef XLS_FIELDS_H
#define XLS_FIELDS_H

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#define XLS_FIELDS_MAX		64
#define XLS_FIELDS_STRBUF	16384

enum xls_field_kind {
	XLS_FIELD_UINT,		/* decimal unsigned */
	XLS_FIELD_INT,		/* decimal signed */
	XLS_FIELD_HEX,		/* 0x-prefixed hex; a JSON string */
	XLS_FIELD_STR,		/* text; a JSON string */
	XLS_FIELD_BOOL,
	XLS_FIELD_REAL,		/* decimal with 2 places in text, full in JSON */
	XLS_FIELD_LSN,		/* cycle/block in text; JSON "cycle/block" string */
	XLS_FIELD_JSON,		/* preformatted JSON value (array); text form beside it */
};

struct xls_field {
	const char		*key;	/* static string */
	enum xls_field_kind	kind;
	union {
		uint64_t	u;
		int64_t		i;
		double		d;
		bool		b;
		const char	*s;	/* points into the set's strbuf or static */
	} v;
	const char		*text;	/* XLS_FIELD_JSON: its text form */
};

struct xls_fieldset {
	unsigned int		n;
	bool			overflow;	/* a field or string did not fit */
	bool			discard;	/* keeps nothing (xls_fields_discard) */
	struct xls_field	f[XLS_FIELDS_MAX];
	size_t			strused;
	char			strbuf[XLS_FIELDS_STRBUF];
};

/* Empty @fs for reuse; no allocation is ever made. */
void xls_fields_reset(struct xls_fieldset *fs);

/*
 * Make @fs a set that keeps nothing and formats nothing, for a caller that
 * wants only what a describer returns (its findings), not its fields.
 * xls_fields_reset() makes it an ordinary set again.
 */
void xls_fields_discard(struct xls_fieldset *fs);

void xls_field_uint(struct xls_fieldset *fs, const char *key, uint64_t v);
void xls_field_int(struct xls_fieldset *fs, const char *key, int64_t v);
void xls_field_hex(struct xls_fieldset *fs, const char *key, uint64_t v);
void xls_field_bool(struct xls_fieldset *fs, const char *key, bool v);
void xls_field_real(struct xls_fieldset *fs, const char *key, double v);
void xls_field_lsn(struct xls_fieldset *fs, const char *key, uint64_t lsn);
/* @s is copied into the set's string buffer. */
void xls_field_str(struct xls_fieldset *fs, const char *key, const char *s);
/* printf-style string field, copied into the set's string buffer. */
void xls_field_strf(struct xls_fieldset *fs, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A JSON array/object value with its text rendering; both are copied. */
void xls_field_json(struct xls_fieldset *fs, const char *key,
		    const char *json, const char *text);

/* The field named @key, or NULL. */
const struct xls_field *xls_fields_get(const struct xls_fieldset *fs,
				       const char *key);

/*
 * Flag names from a table; bits without a name print as UNKNOWN(0x..).
 * Writes "A|B|UNKNOWN(0x40)" (or "" when no bit is set) into @buf.
 */
struct xls_flag_name {
	uint64_t	bit;
	const char	*name;
};
void xls_flags_to_str(uint64_t flags, const struct xls_flag_name *table,
		      size_t ntable, char *buf, size_t bufsz);

/* A field of the names of @flags in @table (xls_flags_to_str), up to 255 bytes. */
void xls_field_flags(struct xls_fieldset *fs, const char *key, uint64_t flags,
		     const struct xls_flag_name *table, size_t ntable);

#endif /* XLS_FIELDS_H */
