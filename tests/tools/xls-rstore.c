/*
 * xls-rstore: recovery's decisions, one line each, with the memory of an
 * open transaction's records set (xls_recover_opts.store_mem), so that
 * the tests can compare a run whose records go through the temporary
 * file with one whose stay in memory, and meet that file's failure.
 *
 *   xls-rstore STORE_BYTES INPUT
 *
 * Prints "trans SEQ TID LSN REPLAYED NITEMS" per transaction, "item ORDER
 * TYPE LIST DECISION REASON BLKNO LEN INO DETAIL" per item, "write BLKNO
 * LEN STAMP_LSN STATE" per buffer written back and "intent KIND ID WHAT"
 * per intent left.  Exit 0, or 1 with the error on standard error.
 */
#include <stdio.h>
#include <stdlib.h>

#include "log/log.h"
#include "recover/recover.h"
#include "source/source.h"

static int on_trans(void *ctx, const struct xls_rtrans *rt)
{
	(void)ctx;
	printf("trans %u 0x%08x %llu %d %u\n", rt->seq, rt->t->tid,
	       (unsigned long long)rt->t->lsn, rt->replayed, rt->nitems);
	return 0;
}

static int on_item(void *ctx, const struct xls_rtrans *rt, const struct xls_ritem *ri)
{
	(void)ctx;
	(void)rt;
	printf("item %u 0x%x %s %s %s %lld %u 0x%llx %s\n", ri->order, ri->type,
	       xls_rlist_name(ri->list), xls_rdecision_key(ri->decision), xls_ritem_reason(ri),
	       ri->buf ? (long long)ri->buf->blkno : -1LL, ri->buf ? ri->buf->len : 0,
	       ri->has_ino ? (unsigned long long)ri->ino : 0ULL, ri->detail);
	return 0;
}

static int on_write(void *ctx, const struct xls_rwrite *w)
{
	(void)ctx;
	printf("write %lld %u %llu %d\n", (long long)w->blkno, w->len,
	       (unsigned long long)w->stamp_lsn, (int)w->state);
	return 0;
}

static int on_intent(void *ctx, const struct xls_rintent *in)
{
	(void)ctx;
	printf("intent %s 0x%llx %s\n", in->kind, (unsigned long long)in->id, in->what);
	return 0;
}

int main(int argc, char **argv)
{
	struct xls_error err = { XLS_EXIT_OK, "" };
	struct xls_recover_sink sink = { .trans = on_trans, .item = on_item, .write = on_write,
					 .intent = on_intent };
	struct xls_recover_opts ro = { .keep_inodes = true, .keep_intents = true };
	struct xls_source_opts so = { 0 };
	struct xls_source src;
	struct xls_head_tail ht;
	struct xls_recover *r;
	struct xls_log log;
	int rc;

	if (argc != 3) {
		fprintf(stderr, "usage: xls-rstore STORE_BYTES INPUT\n");
		return 2;
	}
	ro.store_mem = strtoull(argv[1], NULL, 0);
	so.path = argv[2];
	if (xls_source_open(&src, &so, &err))
		goto fail;
	if (xls_log_init(&log, &src, &err)) {
		xls_source_close(&src);
		goto fail;
	}
	rc = xls_log_find_head_tail(&log, &ht, &err);
	r = rc ? NULL : xls_recover_new(&src, &ro, &err);
	if (r) {
		rc = xls_recover_run(r, &log, &ht, &sink, &err);
		xls_recover_free(r);
	} else {
		rc = -1;
	}
	xls_log_release(&log);
	xls_source_close(&src);
	if (!rc)
		return fflush(stdout) ? 1 : 0;
fail:
	fprintf(stderr, "xls-rstore: %s\n", err.msg);
	return 1;
}
