/*
 * snprintf, fast for the conversions the tool's sentences use (strfmt.c);
 * the same result as the C library's in every case.
 */
#ifndef XLS_STRFMT_H
#define XLS_STRFMT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

int xls_snprintf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int xls_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

/* Room for xls_time_iso(): "-292277022657-01-27T08:29:52.000000000Z". */
#define XLS_TIME_ISO_MAX	40

/*
 * @ns nanoseconds since 1970-01-01 UTC (signed: bigtime reaches back to
 * 1901) as ISO 8601 UTC with nanoseconds, "2026-11-29T21:27:40.525086000Z",
 * into @buf of at least XLS_TIME_ISO_MAX bytes; its length.
 */
size_t xls_time_iso(int64_t ns, char *buf);

/* "s" after a count other than one: "1 item", "2 items". */
static inline const char *xls_plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}

#endif /* XLS_STRFMT_H */
