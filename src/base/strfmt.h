/*
 * snprintf, fast for the conversions the tool's sentences use (strfmt.c);
 * the same result as the C library's in every case.
 */
#ifndef XLS_STRFMT_H
#define XLS_STRFMT_H

#include <stdarg.h>
#include <stddef.h>

int xls_snprintf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int xls_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

#endif /* XLS_STRFMT_H */
