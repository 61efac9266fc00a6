/*
 * Recovery stage: what every decision shares -- the names of decisions,
 * of the reasons a buffer is replayed without an LSN check and of
 * reorder's lists (stable keys for JSON and CSV, short phrases for text),
 * and the first cause that makes recovery fail.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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
	const char	*text;
} reasons[XLS_RR_COUNT] = {
	[XLS_RR_V4]		= { "v4",		"v4" },
	[XLS_RR_INODE_BUF]	= { "inode_buf",	"inode buffer" },
	[XLS_RR_DQUOT_BUF]	= { "dquot_buf",	"dquot buffer" },
	[XLS_RR_ATTR_RMT]	= { "attr_rmt",		"remote attribute block" },
	[XLS_RR_UNKNOWN_MAGIC]	= { "unknown_magic",	"unknown magic" },
	[XLS_RR_FOREIGN_UUID]	= { "foreign_uuid",	"foreign UUID" },
	[XLS_RR_RT_NO_HEADER]	= { "rt_no_header",	"rt block without header" },
	[XLS_RR_LSN_NULL]	= { "lsn_null",		"null LSN" },
	[XLS_RR_UNREAD]		= { "unread",		"block not read" },
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
	vsnprintf(d->ri.detail, sizeof(d->ri.detail), fmt, ap);
	va_end(ap);
}

void xls_rdetail_append(struct decide_ctx *d, const char *s)
{
	size_t len = strlen(d->ri.detail);

	if (!d->quiet)
		snprintf(d->ri.detail + len, sizeof(d->ri.detail) - len, "%s", s);
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
	vsnprintf(d->ri.detail, sizeof(d->ri.detail), fmt, ap);
	va_end(ap);
}

void xls_rdecision_text(const struct xls_ritem *ri, char *buf, size_t bufsz)
{
	switch (ri->decision) {
	case XLS_RD_NONE:
		snprintf(buf, bufsz, "-");
		break;
	case XLS_RD_REPLAY:
		snprintf(buf, bufsz, "replay");
		break;
	case XLS_RD_REPLAY_ALWAYS:
		snprintf(buf, bufsz, "replay: always (%s)",
			 ri->always < XLS_RR_COUNT ? reasons[ri->always].text : "?");
		break;
	case XLS_RD_SKIP_CANCELLED:
		snprintf(buf, bufsz, "skip: cancelled");
		break;
	case XLS_RD_SKIP_LSN:
		snprintf(buf, bufsz, "skip: on-disk LSN newer");
		break;
	case XLS_RD_CANCEL:
		snprintf(buf, bufsz, "cancel record");
		break;
	case XLS_RD_SKIP_QUOTAOFF:
		snprintf(buf, bufsz, "skip: quota off");
		break;
	case XLS_RD_FAIL:
	default:
		snprintf(buf, bufsz, "FAIL");
		break;
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

void xls_lsn_str(uint64_t lsn, char *buf, size_t bufsz)
{
	if (lsn == NULL_LSN)
		snprintf(buf, bufsz, "-1");
	else
		snprintf(buf, bufsz, "%u/%u", xls_lsn_cycle(lsn), xls_lsn_block(lsn));
}
