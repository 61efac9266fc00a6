/*
 * Findings: the one way one is made (finding.h).
 */
#include <stdarg.h>
#include <stdio.h>

#include "base/finding.h"

void xls_finding_vmake(struct xls_finding *f, enum xls_finding_kind kind,
		       const struct xls_finding_at *at, const char *fmt, va_list ap)
{
	static const struct xls_finding_at nowhere;

	if (!at)
		at = &nowhere;
	f->kind = kind;
	f->lsn = at->lsn;
	f->rec_blk = at->rec_blk;
	f->offset = at->has_offset ? (int64_t)at->offset : -1;
	f->has_tid = at->has_tid;
	f->tid = at->has_tid ? at->tid : 0;
	vsnprintf(f->msg, sizeof(f->msg), fmt, ap);
}

void xls_finding_make(struct xls_finding *f, enum xls_finding_kind kind,
		      const struct xls_finding_at *at, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	xls_finding_vmake(f, kind, at, fmt, ap);
	va_end(ap);
}
