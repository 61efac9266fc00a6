/*
 * libFuzzer harness: the input is a bare log, as `xfs_logscope -f` reads a
 * log file.  It is written to a memfd and opened through the source stage
 * as "/proc/self/fd/N"; then the whole pipeline runs as the commands run
 * it: head and tail; an LSN-order scan from tail to head with the trans
 * stage, every item described into a field set and every buffer item
 * analysed as bufs does; a physical-order scan of every record header as
 * records --all does; and one of three costlier consumers, chosen by the
 * input's length modulo 3 (each costs about as much as all the rest):
 *   0  stats: the statistics tables and their report, and the SVG heat map
 *      writer (svg.h) drawing every buffer seen;
 *   1  recover: both recovery passes (recover.h; no data device), then
 *      files (files/files.h) over the same log;
 *   2  history: the recovery passes keeping the logged bytes of the last
 *      buffer seen, as history --blkno does.
 * Every item's regions are also read as hostile directory blocks, ranges
 * of them, shortform directories and block headers (semantics/).
 * Field sets go to the JSON writer on /dev/null, so the report stage is
 * exercised too.  Nothing is printed.  The recovery and SVG parts are
 * compiled in when their headers exist.
 *
 * Size rule: the source stage refuses logs under 64 blocks (32 KiB), which
 * would leave the fuzzer nothing but that refusal to explore.  The input is
 * therefore zero-padded up to 64 KiB (128 blocks) and otherwise rounded up
 * to a whole block, as a log is always a whole number of blocks.  Zeroed
 * blocks after the records are also what a log that was never wrapped looks
 * like, so a small input is a small log followed by its unwritten part.
 *
 * Build: see tests/fuzz/fuzz.mk (make fuzz).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/ondisk.h"
#include "items/buf_analysis.h"
#include "analysis/stats.h"
#include "report/describe_buf.h"
#include "report/describe_history.h"
#include "report/describe_item.h"
#include "report/describe_log.h"
#include "report/describe_recover.h"
#include "report/describe_semantics.h"
#include "report/describe_stats.h"
#include "report/emit.h"
#include "items/item.h"
#include "log/log.h"
#include "items/region.h"
#include "trans/scan.h"
#include "source/source.h"
#include "fuzz-memfd.h"
#if __has_include("recover/recover.h")
#include "recover/recover.h"
#include "replay/replay.h"
#define FUZZ_RECOVER 1
#endif
#if __has_include("semantics/dirent.h")
#include "semantics/dirent.h"
#include "files/files.h"
#include "semantics/owner.h"
#define FUZZ_SEMANTICS 1
#endif
#if __has_include("report/svg.h")
#include "report/svg.h"

/* this harness's own kind of record */
XLS_RECORD_LOCAL(fuzz_rintent, "rintent");
#define FUZZ_SVG 1
#define FUZZ_SVG_ROWS 256
#endif

#define FUZZ_MIN_BYTES	(64u * 1024)
#define FUZZ_BB		512u

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

static int memfd = -1;
static FILE *devnull;
static struct xls_buf_analysis *ba;

struct fuzz_ctx {
	struct xls_out		out;
	struct xls_out		text;		/* trans's text lines */
	struct xls_stats	*st;
	uint64_t		items;
	int64_t			last_blkno;	/* of a buffer item: history's --blkno */
	bool			has_blkno;
#ifdef FUZZ_RECOVER
	struct xls_image	*img;		/* history: the buffer at last_blkno */
#endif
#ifdef FUZZ_SVG
	struct xls_heat_row	*rows;		/* stats mode: every buffer, drawn */
	uint32_t		nrows;
#endif
};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	memfd = memfd_create("xls-fuzz-log", MFD_CLOEXEC);
	devnull = fopen("/dev/null", "w");
	ba = malloc(sizeof(*ba));
	if (memfd < 0 || !devnull || !ba) {
		perror("fuzz-log: setup");
		abort();
	}
	return 0;
}

static int on_record(void *vctx, const struct xls_rec *rec,
		     const struct xls_rec_summary *s)
{
	struct fuzz_ctx *c = vctx;
	struct xls_fieldset fs;

	if (c->st)
		xls_stats_record(c->st, rec, s);
	xls_fields_reset(&fs);
	xls_describe_record(rec, s, &fs);
	xls_out_record(&c->out, XR(record), &fs);
	return 0;
}

static int on_begin(void *vctx, const struct xls_trans *t)
{
	(void)vctx;
	(void)t;
	return 0;
}

#ifdef FUZZ_SEMANTICS
static int count_dirent(void *ctx, const struct xls_dirent *e)
{
	size_t *n = ctx;

	*n += e->namelen + xls_dirent_is_dot(e);
	return 0;
}

/*
 * Hostile directory blocks and shortform forks: every region of an item
 * read as a whole directory block, as a range of one, as a shortform
 * directory, and as a block header naming an owner.
 */
static void semantics(const struct xls_item *it)
{
	static const struct xls_geometry g = {
		.has_ftype = true, .crc = true, .block_log = 12, .blocksize = 4096,
		.ag_blocks = 4096, .ag_block_log = 12, .inode_size = 512, .inode_log = 9,
		.inopb_log = 3, .inode_cluster_blocks = 4,
	};
	struct xls_owner o;
	size_t n = 0;
	uint64_t parent;
	char buf[128];

	for (uint32_t i = 1; i < it->nregions; i++) {
		const struct xls_region *r = &it->regions[i];

		if (!r->data)
			continue;
		xls_dir_problems_str(xls_dir_block_walk(&g, r->data, r->len, count_dirent, &n),
				     buf, sizeof(buf));
		xls_dir_range_scan(&g, r->data, r->len, i * 8, r->len, count_dirent, &n);
		xls_dir_sf_walk(&g, r->data, r->len, &parent, count_dirent, &n);
		xls_owner_from_header(&g, (int64_t)i * 8, 8, r->data, r->len, &o);
		xls_owner_str(&o, buf, sizeof(buf));
	}
}
#endif

static int on_item(void *vctx, const struct xls_trans *t, const struct xls_item *it)
{
	struct fuzz_ctx *c = vctx;
	struct xls_fieldset fs;
	char buf[256];

	c->items++;
#ifdef FUZZ_SEMANTICS
	semantics(it);
#endif
	/* trans: every item described */
	xls_fields_reset(&fs);
	xls_field_hex(&fs, XK(tid), t->tid);
	xls_field_lsn(&fs, XK(lsn), t->lsn);
	xls_describe_raw_item(it, &fs);
	xls_out_record(&c->out, XR(item), &fs);
	xls_out_text_pairs(&c->text, &fs, 4);
	xls_out_text_end(&c->text);

	if (it->type != XFS_LI_BUF) {
		if (c->st)
			xls_stats_item(c->st, it, NULL);
		return 0;
	}
	/* bufs -v and stats: analysis, its fields, the dirty map */
	xls_buf_analyse(it, ba);
	if (ba->parsed) {
		c->last_blkno = ba->blf.blf_blkno;
		c->has_blkno = true;
	}
	xls_fields_reset(&fs);
	xls_describe_buf(ba, &fs);
	if (ba->parsed)
		xls_describe_buf_regions(ba, it, &fs);
	xls_out_record(&c->out, XR(buf), &fs);
	xls_out_text_pairs(&c->text, &fs, 0);
	xls_out_text_end(&c->text);
	if (ba->parsed) {
		xls_region_map_str(&ba->blf, &ba->res, 128, buf, sizeof(buf));
		xls_region_map_str(&ba->blf, &ba->res, 0, buf, sizeof(buf));
		xls_region_problems_str(ba->res.problems, buf, sizeof(buf));
	}
	if (c->st)
		xls_stats_item(c->st, it, ba);
#ifdef FUZZ_SVG
	if (c->rows && ba->parsed && c->nrows < FUZZ_SVG_ROWS) {
		struct xls_heat_row *row = &c->rows[c->nrows++];

		memset(row, 0, sizeof(*row));
		row->lsn = t->lsn;
		row->tid = t->tid;
		row->seq = c->nrows;
		row->kind = (uint8_t)(c->items % XLS_HEAT_NKINDS);
		row->nchunks = (uint32_t)ba->blf.blf_len * 4;
		memcpy(row->map, ba->blf.blf_data_map, sizeof(row->map));
	}
#endif
	return 0;
}

static int on_end(void *vctx, const struct xls_trans *t)
{
	struct fuzz_ctx *c = vctx;

	if (c->st)
		xls_stats_trans(c->st, t);
	return 0;
}

static int on_finding(void *vctx, const struct xls_finding *f)
{
	struct fuzz_ctx *c = vctx;
	struct xls_fieldset fs;

	xls_fields_reset(&fs);
	xls_describe_finding(f, &fs);
	xls_out_record(&c->out, XR(finding), &fs);
	return 0;
}

static void on_stats_row(void *vctx, enum xls_row_kind kind, struct xls_fieldset *fs)
{
	struct fuzz_ctx *c = vctx;

	xls_out_record(&c->out, xls_row_kind_record(kind), fs);
}

#ifdef FUZZ_RECOVER
static int on_rtrans(void *vctx, const struct xls_rtrans *rt)
{
	(void)vctx;
	(void)rt;
	return 0;
}

static int on_ritem(void *vctx, const struct xls_rtrans *rt,
		    const struct xls_ritem *ri)
{
	struct fuzz_ctx *c = vctx;
	struct xls_fieldset fs;

	xls_fields_reset(&fs);
	xls_describe_ritem(rt->t, ri, &fs);
	xls_out_record(&c->out, XR(ritem), &fs);
	xls_fields_reset(&fs);
	xls_describe_ritem_row(ri, &fs);
	xls_out_record(&c->text, XR(ritem), &fs);
	if (ri->buf) {
		xls_fields_reset(&fs);
		xls_describe_ritem_csv(rt, ri, &fs);
		xls_out_record(&c->out, XR(ritem), &fs);
	}
	if (c->img)
		xls_image_take(c->img, rt, ri);
	return 0;
}

static int on_rintent(void *vctx, const struct xls_rintent *in)
{
	struct fuzz_ctx *c = vctx;
	struct xls_fieldset fs;

	xls_fields_reset(&fs);
	xls_describe_rintent(in, &fs);
	xls_out_record(&c->out, XR(fuzz_rintent), &fs);
	return 0;
}

static int on_rdiscarded(void *vctx, const struct xls_trans *t,
			 const struct xls_ritem *ri)
{
	struct fuzz_ctx *c = vctx;
	struct xls_fieldset fs;

	xls_fields_reset(&fs);
	xls_describe_ritem(t, ri, &fs);
	xls_out_record(&c->out, XR(ritem), &fs);
	return 0;
}

#ifdef FUZZ_SEMANTICS
static int on_fevent(void *vctx, const struct xls_file_event *e)
{
	struct fuzz_ctx *c = vctx;
	struct xls_fieldset fs;

	xls_fields_reset(&fs);
	xls_describe_file_event(e, NULL, false, &fs);
	xls_out_record(&c->out, XR(event), &fs);
	xls_fields_reset(&fs);
	xls_describe_file_event(e, NULL, true, &fs);
	xls_out_record(&c->text, XR(event), &fs);
	return 0;
}

/*
 * The files command: every item in recovery order, its events described;
 * then (files --stale) the records before the tail.
 */
static void files(struct fuzz_ctx *c, const struct xls_source *src, struct xls_log *log,
		  const struct xls_head_tail *ht)
{
	for (int stale = 0; stale <= 1; stale++) {
		struct xls_error err = { XLS_EXIT_OK, "" };
		struct xls_report_sink report = { .ctx = c, .finding = on_finding };
		struct xls_files_sink sink = { .ctx = c, .event = on_fevent, .report = &report };
		/* 64 KiB of images in memory: hostile logs through the spill too */
		struct xls_files *f = xls_files_new(src, 64u << 10, 64u << 20, &err);
		char path[256];

		if (!f)
			return;
		/* and the events waiting for a path after the first 4 KiB */
		xls_files_set_hold_mem(f, 4096);
		xls_files_run(f, log, ht, stale, &sink, &err);
		xls_files_path(f, 128, path, sizeof(path), NULL);
		xls_files_free(f);
	}
}
#endif

/*
 * The recover command (both passes, every callback), and when a buffer was
 * seen, the history command's run that keeps one buffer's logged bytes.
 */
static void recover(struct fuzz_ctx *c, const struct xls_source *src,
		    struct xls_log *log, const struct xls_head_tail *ht,
		    bool keep)
{
	struct xls_error err = { XLS_EXIT_OK, "" };
	struct xls_report_sink report = { .ctx = c, .finding = on_finding };
	struct xls_recover_sink rs = {
		.ctx = c, .trans = on_rtrans, .item = on_ritem,
		.discarded_buf = on_rdiscarded, .intent = on_rintent,
		.report = &report,
	};
	struct xls_recover_opts o = { .keep = keep, .keep_blkno = c->last_blkno };
	struct xls_recover *r = xls_recover_new(src, &o, &err);
	struct xls_image img;
	struct xls_image_range *ranges;
	struct xls_fieldset fs;
	uint32_t changed, nchunks, bytes;
	int n;

	if (!r)
		return;
	/* history: the image of the kept buffer, and its diff */
	xls_image_init(&img, src, c->last_blkno);
	c->img = keep ? &img : NULL;
	xls_recover_run(r, log, ht, &rs, &err);
	xls_fields_reset(&fs);
	xls_describe_rsummary(xls_recover_summary(r), &fs);
	xls_out_record(&c->out, XR(summary), &fs);
	xls_recover_free(r);
	if (keep && xls_image_final(&img, &bytes, NULL)) {
		n = xls_image_diff(&img, &ranges, &changed, &nchunks);
		if (n >= 0) {
			xls_fields_reset(&fs);
			xls_describe_diff(c->last_blkno, nchunks, changed, ranges,
					  (uint32_t)n, &fs);
			xls_out_record(&c->out, XR(diff), &fs);
			xls_out_record(&c->text, XR(diff), &fs);
			free(ranges);
		}
	}
	xls_image_release(&img);
#ifdef FUZZ_SEMANTICS
	if (!keep)
		files(c, src, log, ht);
#endif
	c->img = NULL;
}
#endif

#ifdef FUZZ_SVG
/* bufs --svg and history --svg: the heat map writer, on every buffer seen. */
static void svg(struct fuzz_ctx *c)
{
	struct xls_heat_panel p[2];

	if (!c->nrows)
		return;
	memset(p, 0, sizeof(p));
	snprintf(p[0].title, sizeof(p[0].title), "all %u buffers", c->nrows);
	for (uint32_t i = 0; i < c->nrows; i++)
		if (c->rows[i].nchunks > p[0].nchunks)
			p[0].nchunks = c->rows[i].nchunks;
	p[0].nrows = c->nrows;
	p[0].rows = c->rows;
	p[1] = p[0];
	p[1].nchunks = c->rows[0].nchunks;	/* rows wider than the panel */
	p[1].nrows = 1;
	xls_svg_heatmap(devnull, "fuzz", p, 2, c->nrows % 2);
}
#endif

static void load(const uint8_t *data, size_t size)
{
	size_t len = size < FUZZ_MIN_BYTES ? FUZZ_MIN_BYTES :
		     (size + FUZZ_BB - 1) / FUZZ_BB * FUZZ_BB;

	fuzz_memfd_load(memfd, data, size, len);
}

/* The stale walk's boundaries, described as the commands describe them. */
static int on_stale_gap(void *ctx, const struct xls_stale_gap *g)
{
	struct fuzz_ctx *c = ctx;
	struct xls_fieldset fs;

	xls_fields_reset(&fs);
	xls_describe_stale_gap(g, &fs);
	xls_out_record(&c->out, XR(stale_gap), &fs);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct xls_error err = { XLS_EXIT_OK, "" };
	struct xls_source_opts o = { 0 };
	struct xls_source src;
	struct xls_log log;
	struct xls_head_tail ht;
	struct xls_scan_totals tot;
	struct fuzz_ctx c = { 0 };
	struct xls_report_sink report = { .ctx = &c, .finding = on_finding };
	struct xls_scan_sink sink = {
		.ctx = &c, .record = on_record, .begin = on_begin, .item = on_item,
		.end = on_end, .report = &report, .want_trans = true,
	};
	struct xls_scan_sink phys = {
		.ctx = &c, .record = on_record, .report = &report,
	};
	/* --stale: the records before the tail, through the trans stage */
	struct xls_scan_sink stale = {
		.ctx = &c, .record = on_record, .begin = on_begin, .item = on_item,
		.end = on_end, .report = &report, .want_trans = true,
		.stale_gap = on_stale_gap, .gap_ctx = &c,
	};
	char path[64];

	if (size > 8u << 20)		/* a log, not a disk */
		return -1;
	load(data, size);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", memfd);
	o.path = path;
	o.bare_log = true;
	o.force = true;		/* a memfd is never mounted: skip the /sys walk */
	if (xls_source_open(&src, &o, &err))
		return 0;
	if (xls_log_init(&log, &src, &err)) {
		xls_source_close(&src);
		return 0;
	}
	xls_out_init(&c.out, devnull, XLS_FMT_JSON);
	xls_out_init(&c.text, devnull, XLS_FMT_TEXT);
	/* Every other input is scanned with the read-ahead thread. */
	log.read_ahead = size & 1 ? XLS_READ_AHEAD_ON : XLS_READ_AHEAD_OFF;
	if (xls_log_find_head_tail(&log, &ht, &err) == 0) {
		/*
		 * The stats tables and the recovery passes each cost more than
		 * the rest of the pipeline (fixed-size tables, two scans), so
		 * each input runs one of them, chosen by its length.
		 */
		unsigned int mode = (unsigned int)(size % 3);

		if (mode == 0)
			c.st = xls_stats_new();
#ifdef FUZZ_SVG
		if (c.st)
			c.rows = calloc(FUZZ_SVG_ROWS, sizeof(*c.rows));
#endif
		/* The report walks fixed-size tables: only worth it with records. */
		if (xls_scan(&log, &ht, XLS_ITER_LSN, &sink, &tot, &err) == 0 &&
		    c.st && tot.records)
			xls_describe_stats(c.st, 10, on_stats_row, &c);
#ifdef FUZZ_SVG
		if (c.rows)
			svg(&c);
		free(c.rows);
		c.rows = NULL;
#endif
		xls_stats_free(c.st);
		c.st = NULL;
		xls_scan(&log, &ht, XLS_ITER_PHYSICAL, &phys, &tot, &err);
		xls_scan(&log, &ht, XLS_ITER_STALE, &stale, &tot, &err);
#ifdef FUZZ_RECOVER
		if (mode == 1)
			recover(&c, &src, &log, &ht, false);
		if (mode == 2 && c.has_blkno)
			recover(&c, &src, &log, &ht, true);
#endif
	}
	fflush(devnull);
	xls_log_release(&log);
	xls_source_close(&src);
	return 0;
}
