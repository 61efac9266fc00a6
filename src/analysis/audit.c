/* One scan, two consumers: the statistics and the checkpoints (audit.h). */
#include <stdlib.h>

#include "base/ondisk.h"
#include "analysis/audit.h"

struct xls_audit {
	struct xls_stats	*st;
	struct xls_ckpt_tracker	*tr;
	void			(*on_ckpt)(void *ctx, const struct xls_ckpt *ck);
	void			*ctx;
	struct xls_buf_analysis	ba;
};

static void on_committed(void *ctx, const struct xls_committed_item *ci)
{
	struct xls_audit *a = ctx;

	xls_stats_committed(a->st, ci);
}

static void on_checkpoint(void *ctx, const struct xls_ckpt *ck)
{
	struct xls_audit *a = ctx;

	xls_stats_checkpoint(a->st, ck);
	if (a->on_ckpt)
		a->on_ckpt(a->ctx, ck);
}

struct xls_audit *xls_audit_new(void (*on_ckpt)(void *ctx, const struct xls_ckpt *ck),
				void *ctx)
{
	struct xls_audit *a = calloc(1, sizeof(*a));
	struct xls_ckpt_sink sink = {
		.ctx = a, .item = on_committed, .checkpoint = on_checkpoint,
	};

	if (!a)
		return NULL;
	a->on_ckpt = on_ckpt;
	a->ctx = ctx;
	a->st = xls_stats_new();
	a->tr = xls_ckpt_tracker_new(&sink);
	if (!a->st || !a->tr) {
		xls_audit_free(a);
		return NULL;
	}
	return a;
}

void xls_audit_free(struct xls_audit *a)
{
	if (!a)
		return;
	xls_stats_free(a->st);
	xls_ckpt_tracker_free(a->tr);
	free(a);
}

void xls_audit_record(struct xls_audit *a, const struct xls_rec *rec,
		      const struct xls_rec_summary *s)
{
	xls_stats_record(a->st, rec, s);
	xls_ckpt_record(a->tr, rec, s);
}

void xls_audit_begin(struct xls_audit *a, const struct xls_trans *t)
{
	xls_ckpt_begin(a->tr, t);
}

void xls_audit_item(struct xls_audit *a, const struct xls_trans *t,
		    const struct xls_item *it)
{
	const struct xls_buf_analysis *ba = NULL;

	if (it->type == XFS_LI_BUF) {
		xls_buf_analyse(it, &a->ba);
		ba = &a->ba;
	}
	xls_ckpt_item(a->tr, t, it, ba, xls_stats_item(a->st, it, ba));
}

void xls_audit_end(struct xls_audit *a, const struct xls_trans *t)
{
	xls_stats_trans(a->st, t);
	xls_ckpt_end(a->tr, t);
}

void xls_audit_finish(struct xls_audit *a)
{
	struct xls_ckpt_status b;

	xls_ckpt_finish(a->tr);
	xls_ckpt_status(a->tr, &b);
	xls_stats_set_bounds(a->st, &b);
}

const struct xls_stats *xls_audit_stats(const struct xls_audit *a)
{
	return a->st;
}
