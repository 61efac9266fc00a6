#include <stdarg.h>
#include <stdio.h>
#include "base/err.h"

int xls_error_set(struct xls_error *e, enum xls_exit status, const char *fmt, ...)
{
	va_list ap;

	if (!e || e->status != XLS_EXIT_OK)
		return -1;
	e->status = status;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return -1;
}
