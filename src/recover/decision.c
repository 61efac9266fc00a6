/*
 * Recovery stage: what every decision shares -- the names of decisions,
 * of the reasons a buffer is replayed without an LSN check and of
 * reorder's lists (stable keys for JSON and CSV, short phrases for text),
 * and the first cause that makes recovery fail.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/strfmt.h"
#include "recover/recover_priv.h"

static const char *const decision_keys[XLS_RD_COUNT] = {
	[XLS_RD_NONE]		= "none",
	[XLS_RD_REPLAY]		= "replay",
	[XLS_RD_REPLAY_ALWAYS]	= "replay_always",
	[XLS_RD_SKIP_CANCELLED]	= "skip_cancelled",
	[XLS_RD_SKIP_LSN]	= "skip_lsn",
	[XLS_RD_CANCEL]		= "cancel",
	[XLS_RD_SKIP_QUOTAOFF]	= "skip_quotaoff",
	[XLS_RD_FAIL]		= "fail",
};

const char *xls_rdecision_key(enum xls_rdecision d)
{
	return d < XLS_RD_COUNT ? decision_keys[d] : "?";
}

static const struct {
	const char	*key;
} reasons[XLS_RR_COUNT] = {
	[XLS_RR_V4]		= { "v4" },
	[XLS_RR_INODE_BUF]	= { "inode_buf" },
	[XLS_RR_DQUOT_BUF]	= { "dquot_buf" },
	[XLS_RR_ATTR_RMT]	= { "attr_rmt" },
	[XLS_RR_UNKNOWN_MAGIC]	= { "unknown_magic" },
	[XLS_RR_FOREIGN_UUID]	= { "foreign_uuid" },
	[XLS_RR_RT_NO_HEADER]	= { "rt_no_header" },
	[XLS_RR_LSN_NULL]	= { "lsn_null" },
	[XLS_RR_UNREAD]		= { "unread" },
};

const char *xls_rreason_name(enum xls_rreason r)
{
	return r < XLS_RR_COUNT ? reasons[r].key : NULL;
}

void xls_rdetail(struct decide_ctx *d, const char *fmt, ...)
{
	va_list ap;

	if (d->quiet)
		return;
	va_start(ap, fmt);
	xls_vsnprintf(d->ri.detail, sizeof(d->ri.detail), fmt, ap);
	va_end(ap);
}

void xls_rdetail_append(struct decide_ctx *d, const char *s)
{
	xls_rdetail_appendf(d, "%s", s);
}

void xls_rdetail_appendf(struct decide_ctx *d, const char *fmt, ...)
{
	size_t len;
	va_list ap;

	if (d->quiet)
		return;
	len = strlen(d->ri.detail);
	va_start(ap, fmt);
	xls_vsnprintf(d->ri.detail + len, sizeof(d->ri.detail) - len, fmt, ap);
	va_end(ap);
}

void xls_decide_always(struct decide_ctx *d, enum xls_rreason reason,
		       const char *fmt, ...)
{
	va_list ap;

	d->ri.decision = XLS_RD_REPLAY_ALWAYS;
	d->ri.always = reason;
	d->ri.reason = reasons[reason].key;
	d->r->sum.always_by_reason[reason]++;
	if (d->quiet)
		return;
	va_start(ap, fmt);
	xls_vsnprintf(d->ri.detail, sizeof(d->ri.detail), fmt, ap);
	va_end(ap);
}

const char *xls_rdecision_text(const struct xls_ritem *ri)
{
	static const char *const always[XLS_RR_COUNT] = {
		[XLS_RR_V4]		= "replay: always (v4)",
		[XLS_RR_INODE_BUF]	= "replay: always (inode buffer)",
		[XLS_RR_DQUOT_BUF]	= "replay: always (dquot buffer)",
		[XLS_RR_ATTR_RMT]	= "replay: always (remote attribute block)",
		[XLS_RR_UNKNOWN_MAGIC]	= "replay: always (unknown magic)",
		[XLS_RR_FOREIGN_UUID]	= "replay: always (foreign UUID)",
		[XLS_RR_RT_NO_HEADER]	= "replay: always (rt block without header)",
		[XLS_RR_LSN_NULL]	= "replay: always (null LSN)",
		[XLS_RR_UNREAD]		= "replay: always (block not read)",
	};

	switch (ri->decision) {
	case XLS_RD_NONE:		return "-";
	case XLS_RD_REPLAY:		return "replay";
	case XLS_RD_REPLAY_ALWAYS:
		return ri->always < XLS_RR_COUNT ? always[ri->always] : "replay: always (?)";
	case XLS_RD_SKIP_CANCELLED:	return "skip: cancelled";
	case XLS_RD_SKIP_LSN:		return "skip: on-disk LSN newer";
	case XLS_RD_CANCEL:		return "cancel record";
	case XLS_RD_SKIP_QUOTAOFF:	return "skip: quota off";
	default:			return "FAIL";
	}
}

const char *xls_rlist_name(enum xls_rlist l)
{
	switch (l) {
	case XLS_RL_BUFFER:	return "buffer";
	case XLS_RL_ITEM:	return "item";
	case XLS_RL_INODE_BUF:	return "inode_buffer";
	case XLS_RL_CANCEL:	return "cancel";
	}
	return "?";
}

void xls_recover_fail(struct xls_recover *r, uint64_t lsn, const char *fmt, ...)
{
	va_list ap;

	if (r->sum.fails)
		return;
	r->sum.fails = true;
	r->sum.fail_lsn = lsn;
	va_start(ap, fmt);
	vsnprintf(r->sum.fail_why, sizeof(r->sum.fail_why), fmt, ap);
	va_end(ap);
}
