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

const char *xls_ritem_reason(const struct xls_ritem *ri)
{
	static const char *const why[XLS_RWHY_COUNT] = {
		[XLS_RWHY_NONE]			= "",
		[XLS_RWHY_LSN_OLDER]		= "lsn_older",
		[XLS_RWHY_LSN_ZERO]		= "lsn_zero",
		[XLS_RWHY_LSN_NEWER]		= "lsn_newer",
		[XLS_RWHY_FLUSHITER_NEWER]	= "flushiter_newer",
		[XLS_RWHY_CANCEL_RECORD]	= "cancel_record",
		[XLS_RWHY_CANCELLED]		= "cancelled",
		[XLS_RWHY_QUOTAOFF]		= "quotaoff",
		[XLS_RWHY_NOQUOTA]		= "noquota",
		[XLS_RWHY_BAD_DQUOT]		= "bad_dquot",
		[XLS_RWHY_ICREATE]		= "icreate",
		[XLS_RWHY_NO_COMMIT]		= "no_commit",
		[XLS_RWHY_BAD_ICREATE]		= "bad_icreate",
		[XLS_RWHY_BAD_INODE_BUF]	= "bad_inode_buf",
		[XLS_RWHY_BAD_UNLINKED]		= "bad_unlinked",
		[XLS_RWHY_AGCOUNT_SHRINK]	= "agcount_shrink",
		[XLS_RWHY_DADDR_RANGE]		= "daddr_range",
		[XLS_RWHY_BAD_INTENT]		= "bad_intent",
	};

	if (ri->reason == XLS_RWHY_ALWAYS)
		return xls_rreason_name(ri->always) ? xls_rreason_name(ri->always) : "";
	return ri->reason < XLS_RWHY_COUNT && why[ri->reason] ? why[ri->reason] : "";
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
	d->ri.reason = XLS_RWHY_ALWAYS;
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

static void count_now(const struct xls_recover_summary *s, struct xls_rcounts *c)
{
	c->trans_replayed = s->trans_replayed;
	c->items = s->items;
	c->buffers = s->buffers;
	memcpy(c->decisions, s->decisions, sizeof(c->decisions));
	c->kernel_warnings = s->kernel_warnings;
}

bool xls_recover_fail(struct xls_recover *r, uint64_t lsn, struct xls_rfail how,
		      const char *says, const char *fmt, ...)
{
	struct xls_recover_summary *s = &r->sum;
	va_list ap;

	if (s->fails)
		return false;
	s->fails = true;
	s->fail_lsn = lsn;
	s->stop = how.stop;
	s->cause = how.cause;
	s->kernel_error = how.error;
	va_start(ap, fmt);
	vsnprintf(s->fail_why, sizeof(s->fail_why), fmt, ap);
	va_end(ap);
	snprintf(s->kernel_says, sizeof(s->kernel_says), "%s%s%s\"log mount/recovery "
		 "failed: error %d\"", says ? "\"" : "", says ? says : "",
		 says ? "\", then " : "", how.error);
	/*
	 * The kernel's counts stop here.  A transaction being replayed, or
	 * whose commit writes the queue, is not one it replays.
	 */
	count_now(s, &r->at_stop);
	if (how.stop == XLS_RSTOP_PASS2 || (how.stop == XLS_RSTOP_WRITEBACK && r->flush_before_trans)) {
		if (r->at_stop.trans_replayed)
			r->at_stop.trans_replayed--;
	}
	if (how.stop != XLS_RSTOP_PASS2 && how.stop != XLS_RSTOP_WRITEBACK)
		memset(&r->at_stop, 0, sizeof(r->at_stop));
	return true;
}

void xls_recover_stop_counts(struct xls_recover *r)
{
	struct xls_recover_summary *s = &r->sum;

	count_now(s, &s->dry_run);
	if (!s->fails)
		return;
	s->trans_replayed = r->at_stop.trans_replayed;
	s->items = r->at_stop.items;
	s->buffers = r->at_stop.buffers;
	memcpy(s->decisions, r->at_stop.decisions, sizeof(s->decisions));
	s->kernel_warnings = r->at_stop.kernel_warnings;
	/* nothing after the failure finishes: no intents, no unlinked inodes */
	s->pending_work = 0;
	memset(&s->pending, 0, sizeof(s->pending));
}

const char *xls_rstop_key(enum xls_rstop st)
{
	static const char *const k[] = { "", "mount", "tail", "pass1", "pass2", "writeback" };

	return (unsigned int)st < sizeof(k) / sizeof(k[0]) ? k[st] : "?";
}

const char *xls_rcause_key(enum xls_rcause c)
{
	static const char *const k[] = { "", "log", "metadata", "recovery_limit", "foreign_log",
					 "device" };

	return (unsigned int)c < sizeof(k) / sizeof(k[0]) ? k[c] : "?";
}

const char *xls_kernel_error_name(int error)
{
	switch (error) {
	case XLS_EFSCORRUPTED:	return "EFSCORRUPTED";
	case XLS_EFSBADCRC:	return "EFSBADCRC";
	case XLS_EINVAL:	return "EINVAL";
	case -5:		return "EIO";
	}
	return "";
}

bool xls_recover_daddr_out_of_range(struct decide_ctx *d, int64_t daddr, uint32_t len,
				    const char *what)
{
	const struct xls_geometry *g = d->r->g;
	uint64_t eofs = 0, dev_bbs = g->data_bytes / 512;
	struct xls_rfail how = { XLS_RSTOP_PASS2, XLS_RCAUSE_LOG, XLS_EFSCORRUPTED };
	char says[128];

	if (g->dblocks && g->block_log && g->dblocks <= (UINT64_MAX >> 16))
		eofs = g->dblocks << (g->block_log - 9);
	if (daddr >= 0 && (!eofs || (uint64_t)daddr < eofs) &&
	    (!dev_bbs || ((uint64_t)daddr < dev_bbs && len <= dev_bbs - (uint64_t)daddr)))
		return false;
	d->ri.decision = XLS_RD_FAIL;
	d->ri.reason = XLS_RWHY_DADDR_RANGE;
	if (daddr < 0 || (eofs && (uint64_t)daddr >= eofs)) {
		d->ri.fail_why = "the block lies outside the filesystem (xfs_buf_map_verify): "
				 "recovery fails";
		snprintf(says, sizeof(says), "xfs_buf_map_verify: daddr 0x%llx out of range, "
			 "EOFS 0x%llx", (unsigned long long)daddr, (unsigned long long)eofs);
	} else {
		d->ri.fail_why = "the block runs past the end of the device: its read fails (EIO), "
				 "recovery fails";
		snprintf(says, sizeof(says), "metadata I/O error at daddr 0x%llx len %u error 5",
			 (unsigned long long)daddr, len);
		how.error = XLS_EIO;
	}
	xls_recover_fail(d->r, d->t->lsn, how, says,
			 "transaction 0x%08x: %s 0x%llx (%u sectors) lies past the end of the "
			 "%s (0x%llx sectors)", d->t->tid, what, (unsigned long long)daddr, len,
			 how.error == XLS_EIO ? "device" : "filesystem",
			 (unsigned long long)(how.error == XLS_EIO ? dev_bbs : eofs));
	return true;
}
