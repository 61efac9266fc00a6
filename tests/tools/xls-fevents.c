/*
 * xls-fevents: the files stage's events and summaries, one line each,
 * with the memory of the events waiting for a path set, so that the tests
 * can compare a run whose waiting events go through the temporary file
 * with one whose stay in memory (xls_files_set_hold_mem).
 *
 *   xls-fevents [-s] HOLD_BYTES INPUT
 *
 * -s: the records before the tail (files --stale's first part).  Prints
 * "event SEQ TID LSN INO EV PATH DIR NAME NEW_DIR NEW_NAME OLD NEW" per
 * event ("-" for what is absent) and "file INO EVENTS FINAL_PATH" per
 * summary.  Exit 0, or 1 with the error on standard error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log/log.h"
#include "files/files.h"
#include "source/source.h"

static void put_bytes(const void *p, uint32_t len)
{
	if (!p || !len)
		fputs(" -", stdout);
	else
		printf(" %.*s", (int)len, (const char *)p);
}

static int on_event(void *ctx, const struct xls_file_event *e)
{
	(void)ctx;
	printf("event %u 0x%08x %llu 0x%llx %s", e->seq, e->tid, (unsigned long long)e->lsn,
	       (unsigned long long)e->ino, xls_fev_name(e->ev));
	put_bytes(e->path, e->path_len);
	printf(" 0x%llx", (unsigned long long)e->dir);
	put_bytes(e->name, e->name_len);
	printf(" 0x%llx", (unsigned long long)e->new_dir);
	put_bytes(e->new_name, e->new_name_len);
	printf(" %llu %llu\n", (unsigned long long)e->old_value, (unsigned long long)e->new_value);
	return 0;
}

static int on_file(void *ctx, const struct xls_file_summary *s)
{
	(void)ctx;
	printf("file 0x%llx %u", (unsigned long long)s->ino, s->events);
	put_bytes(s->final_path, s->final_path_len);
	putchar('\n');
	return 0;
}

int main(int argc, char **argv)
{
	struct xls_error err = { XLS_EXIT_OK, "" };
	struct xls_files_sink sink = { .event = on_event, .file = on_file };
	struct xls_source_opts so = { 0 };
	struct xls_source src;
	struct xls_head_tail ht;
	struct xls_files *f;
	struct xls_log log;
	bool stale = argc > 1 && strcmp(argv[1], "-s") == 0;
	int rc;

	if (argc != 3 + stale) {
		fprintf(stderr, "usage: xls-fevents [-s] HOLD_BYTES INPUT\n");
		return 2;
	}
	so.path = argv[2 + stale];
	if (xls_source_open(&src, &so, &err))
		goto fail;
	if (xls_log_init(&log, &src, &err)) {
		xls_source_close(&src);
		goto fail;
	}
	rc = xls_log_find_head_tail(&log, &ht, &err);
	f = rc ? NULL : xls_files_new(&src, 64u << 20, 4ull << 30, &err);
	if (f) {
		xls_files_set_hold_mem(f, strtoull(argv[1 + stale], NULL, 0));
		rc = xls_files_run(f, &log, &ht, stale, &sink, &err);
		xls_files_free(f);
	} else {
		rc = -1;
	}
	xls_log_release(&log);
	xls_source_close(&src);
	if (!rc)
		return fflush(stdout) ? 1 : 0;
fail:
	fprintf(stderr, "xls-fevents: %s\n", err.msg);
	return 1;
}
