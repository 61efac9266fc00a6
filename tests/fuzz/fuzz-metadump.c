/*
 * libFuzzer harness for the metadump reader: the input is a whole file
 * given as the filesystem -- an xfs_metadump (v1, v2), or any of them
 * gzip-, xz- or zstd-compressed (seeds: tests/fuzz/mkseeds-md.sh).  It is
 * written to a memfd and opened by the source stage as "/proc/self/fd/N",
 * which indexes it (and decompresses a compressed one into the spool);
 * then:
 *   - the index is read back: every extent of the data map (the first 4 KiB
 *     of it, its first and last sectors, and the sectors either side),
 *     with xls_source_data_missing() around each;
 *   - the log: head and tail, and the tail..head scan with the trans stage
 *     (every item decoded), as info runs it;
 *   - replay: the data device restored into a second memfd, recovery's two
 *     passes writing every replayed block into it, the superblock and a
 *     clean log after; nothing may be written past the size of the image
 *     (the memfd's size is checked: larger is a crash).
 * Compressed inputs may decompress to at most 64 MiB (a bomb is refused,
 * as the real tool would take its time over it).  Nothing is printed.
 *
 * Build: tests/fuzz/fuzz.mk (make fuzz-metadump).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/ondisk.h"
#include "items/item.h"
#include "log/log.h"
#include "trans/scan.h"
#include "recover/recover.h"
#if __has_include("replay/write.h")
#include "replay/copy.h"
#include "replay/write.h"
#define FUZZ_REPLAY 1
#endif
#include "source/source.h"
#include "fuzz-memfd.h"

#define FUZZ_MAX_EXPAND		(64ull << 20)
#define FUZZ_MAX_EXTENTS	4096

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

static int memfd = -1;
static uint8_t *buf;
#ifdef FUZZ_REPLAY
static int outfd = -1;		/* replay's output */
#endif

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	memfd = memfd_create("xls-fuzz-metadump", MFD_CLOEXEC);
	buf = malloc(4096);
#ifdef FUZZ_REPLAY
	outfd = memfd_create("xls-fuzz-replay", MFD_CLOEXEC);
	if (outfd < 0)
		buf = NULL;
#endif
	if (memfd < 0 || !buf) {
		perror("fuzz-metadump: setup");
		abort();
	}
	return 0;
}


/* @len bytes at @off of the device @m stands for: the data device or the log. */
static void rd(const struct xls_source *src, bool log, uint64_t off, size_t len)
{
	if (log)
		xls_source_read(src, off, buf, len);	/* an external log: log_offset 0 */
	else
		xls_source_read_data(src, off, buf, len);
}

/* Every extent of @m read back, and the bytes either side of it. */
static void read_index(const struct xls_source *src, const struct xls_extmap *m, bool log)
{
	size_t n = m->n < FUZZ_MAX_EXTENTS ? m->n : FUZZ_MAX_EXTENTS;
	volatile uint64_t sink = 0;

	for (size_t i = 0; i < n; i++) {
		const struct xls_extent *x = &m->e[i];
		size_t len = x->len < 4096 ? (size_t)x->len : 4096;
		size_t tail = x->len < 512 ? (size_t)x->len : 512;
		uint64_t around = x->off >= 512 ? x->off - 512 : 0;

		rd(src, log, x->off, len);
		rd(src, log, around, 1024);
		rd(src, log, x->off + x->len - tail, tail);
		if (!log)
			sink += xls_source_data_missing(src, around, x->len + 8192);
	}
	(void)sink;
}

static int on_item(void *vctx, const struct xls_trans *t, const struct xls_item *it)
{
	struct xls_item_decoded d;

	(void)vctx;
	(void)t;
	xls_item_decode(it, &d);
	return 0;
}

static int on_finding(void *vctx, const struct xls_finding *f)
{
	(void)vctx;
	(void)f;
	return 0;
}

#ifdef FUZZ_REPLAY
/*
 * replay -o into a memfd, as the command runs it (an external log in the
 * metadump: its copy into the same memfd past the image, as a second file
 * would hold it); the memfd must end no longer than the image and its log.
 */
static void recover(const struct xls_source *src, struct xls_log *log,
		    const struct xls_head_tail *ht, struct xls_report_sink *report)
{
	struct xls_error err = { XLS_EXIT_OK, "" };
	struct xls_recover_opts ro = { .keep_types = ~0u, .keep_inodes = true, .quiet = true };
	const struct xls_geometry *g = &src->geo;
	uint64_t size = xls_geo_device_bytes(g);
	uint64_t log_base = g->external ? size : g->log_offset, end;
	struct xls_replay_write w;
	struct xls_recover *r;
	struct stat st;

	if (!src->data_map || !size || size > (1ull << 40) || ftruncate(outfd, 0) ||
	    xls_replay_copy_data(src, outfd, "out", NULL, &err))
		return;
	end = g->external ? size + g->log_offset + (uint64_t)g->log_bbs * 512 : size;
	if (xls_replay_write_init(&w, src, outfd, "out", outfd, "out", log_base, &err))
		return;
	w.force = size & 1;
	r = xls_recover_new(src, &ro, &err);
	if (r) {
		struct xls_recover_sink rs = {
			.ctx = &w, .item = xls_replay_write_item, .write = xls_replay_write_back,
			.flushed = xls_replay_write_flushed, .report = report,
		};

		if (xls_recover_run(r, log, ht, &rs, &err) == 0 &&
		    (!xls_recover_summary(r)->fails || w.force) &&
		    xls_replay_write_check_sb(&w) == 0 &&
		    xls_replay_write_superblock(&w) == 0)
			xls_replay_write_clean_log(&w, log, ht, 0);
		xls_recover_free(r);
	}
	xls_replay_write_release(&w);
	if (fstat(outfd, &st) == 0 && (uint64_t)st.st_size > end) {
		fprintf(stderr, "fuzz-metadump: replay wrote %llu bytes past the image's %llu\n",
			(unsigned long long)st.st_size, (unsigned long long)end);
		abort();
	}
}
#else
static void recover(const struct xls_source *src, struct xls_log *log,
		    const struct xls_head_tail *ht, struct xls_report_sink *report)
{
	struct xls_error err = { XLS_EXIT_OK, "" };
	struct xls_recover_sink rs = { .report = report };
	struct xls_recover *r = xls_recover_new(src, NULL, &err);

	if (!r)
		return;
	xls_recover_run(r, log, ht, &rs, &err);
	xls_recover_free(r);
}
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct xls_error err = { XLS_EXIT_OK, "" };
	struct xls_source_opts o = { 0 };
	struct xls_report_sink report = { .finding = on_finding };
	struct xls_scan_sink sink = {
		.item = on_item, .report = &report, .want_trans = true,
	};
	struct xls_scan_totals tot;
	struct xls_source src;
	struct xls_log log;
	struct xls_head_tail ht;
	char path[64];

	if (size > 8u << 20)
		return -1;
	fuzz_memfd_load(memfd, data, size, size);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", memfd);
	o.path = path;
	o.force = true;		/* a memfd is never mounted: skip the /sys walk */
	o.max_expand = FUZZ_MAX_EXPAND;
	if (xls_source_open(&src, &o, &err))
		return 0;
	if (src.data_map)
		read_index(&src, src.data_map, false);
	if (src.log_map && src.log_map != src.data_map)
		read_index(&src, src.log_map, true);
	if (xls_log_init(&log, &src, &err) == 0) {
		log.read_ahead = size & 1 ? XLS_READ_AHEAD_ON : XLS_READ_AHEAD_OFF;
		if (xls_log_find_head_tail(&log, &ht, &err) == 0 &&
		    xls_scan(&log, &ht, XLS_ITER_LSN, &sink, &tot, &err) == 0)
			recover(&src, &log, &ht, &report);
		xls_log_release(&log);
	}
	xls_source_close(&src);
	return 0;
}
