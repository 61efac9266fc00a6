/*
 * history: one buffer through the log.  Every appearance of the buffer at
 * --blkno (committed or not) with what recovery does with it; --replay
 * writes the buffer as recovery would leave it (replay/replay.h) to a new
 * file; --diff shows the 128-byte chunks that differ from the on-disk
 * block; --svg draws the appearances as a heat map.  --stale lists first
 * the appearances before the tail, which recovery never reads: what they
 * logged and whether they committed (the rest covers tail..head only).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/vec.h"
#include "cmd/cmd.h"
#include "report/describe_buf.h"
#include "report/describe_history.h"
#include "report/describe_log.h"
#include "report/describe_recover.h"
#include "cmd/options.h"
#include "recover/recover.h"
#include "replay/replay.h"
#include "semantics/owner.h"

/* history's own options */
struct history_opts {
	bool		verbose;	/* -v: each appearance's dirty map and regions */
	const char	*replay_path;	/* --replay: the buffer as recovery leaves it */
	bool		diff;		/* --diff: the chunks replay changes */
	const char	*svg_path;	/* --svg: its dirty chunks over transactions */
};

static const struct history_opts *own(const struct xls_options *o)
{
	return o->own;
}

struct hist_ctx {
	struct xls_cmd		*c;
	struct xls_options	opt;		/* --ino resolved to its cluster */
	uint32_t		appearances;
	const char		*type_name;	/* of the last buffer appearance */
	struct xls_image	img;
	struct xls_heat_row	*rows;
	uint32_t		nrows, caprows;
	struct xls_owner_map	owners;
	struct xls_fieldset	fs;
	/* --stale: the block's appearances before the tail */
	struct xls_stale_watch	stale;
};

/* ------------------------------------------------------------------ */
/* appearances */

static uint8_t heat_kind(const struct xls_ritem *ri, bool discarded)
{
	if (discarded)
		return XLS_HEAT_DISCARDED;
	if (ri->fail_why)
		return XLS_HEAT_FAIL;
	switch (ri->decision) {
	case XLS_RD_REPLAY:		return XLS_HEAT_REPLAY;
	case XLS_RD_REPLAY_ALWAYS:	return XLS_HEAT_ALWAYS;
	case XLS_RD_SKIP_LSN:		return XLS_HEAT_SKIP_LSN;
	case XLS_RD_SKIP_CANCELLED:	return XLS_HEAT_CANCELLED;
	case XLS_RD_SKIP_QUOTAOFF:	return XLS_HEAT_CANCELLED;
	case XLS_RD_CANCEL:		return XLS_HEAT_CANCEL;
	case XLS_RD_FAIL:		return XLS_HEAT_FAIL;
	default:			return XLS_HEAT_DIRTY;
	}
}

static void add_row(struct hist_ctx *h, const struct xls_trans *t, uint32_t seq,
		    const struct xls_ritem *ri, bool discarded)
{
	const struct xls_geometry *g = &h->c->src.geo;
	uint32_t isize = g->inode_size;
	struct xls_heat_row *row;

	row = xls_vec_push((void **)&h->rows, &h->nrows, &h->caprows, sizeof(*row));
	if (!row)
		return;
	memset(row, 0, sizeof(*row));
	row->lsn = t->lsn;
	row->tid = t->tid;
	row->seq = seq;
	row->kind = heat_kind(ri, discarded);
	if (ri->buf) {
		row->nchunks = ri->buf->len * 4;
		memcpy(row->map, ri->buf->blf->blf_data_map, sizeof(row->map));
		return;
	}
	/* an inode item: the chunks of its inode; an icreate: all of them */
	row->nchunks = (ri->has_ino ? ri->ino_len : xls_recover_cluster_bb(g)) * 4;
	for (uint32_t c = 0; c < row->nchunks && c < XFS_BLF_DATAMAP_SIZE * 32; c++) {
		uint32_t off = c * 128;

		if (!ri->has_ino || (off + 128 > ri->ino_boffset &&
				     off < ri->ino_boffset + (isize ? isize : 128)))
			row->map[c / 32] |= 1u << (c % 32);
	}
}

static void appearance(struct hist_ctx *h, const struct xls_trans *t, uint32_t seq,
		       const struct xls_ritem *ri, bool discarded)
{
	const struct xls_rbuf *b = ri->buf;
	struct xls_cmd *c = h->c;

	h->appearances++;
	h->type_name = xls_blft_name(b->blft);
	add_row(h, t, seq, ri, discarded);
	xls_fields_reset(&h->fs);
	if (c->opt->stale)
		xls_field_bool(&h->fs, XK(stale), false);
	xls_describe_appearance(t, seq, ri, discarded, &h->fs);
	if (c->out.fmt != XLS_FMT_TEXT) {
		struct xls_owner o;

		xls_owner_of(&h->owners, b->blkno, b->len, b->blft, b->head, b->head_len, &o);
		xls_describe_owner(&o, false, &h->fs);
		xls_cmd_record(c, XR(appearance), &h->fs);
		return;
	}
	xls_print_appearance(&c->out, &h->fs);
	/* under the row, six columns in */
	xls_print_ritem_warnings(&c->out, ri, 5);
	if (own(c->opt)->verbose)
		xls_print_regions(&c->out, b->blf, b->res, false);
}

/* An inode or icreate item that writes into the buffer. */
static void other_appearance(struct hist_ctx *h, const struct xls_trans *t, uint32_t seq,
			     const struct xls_ritem *ri)
{
	struct xls_cmd *c = h->c;

	h->appearances++;
	add_row(h, t, seq, ri, false);
	xls_fields_reset(&h->fs);
	if (c->opt->stale)
		xls_field_bool(&h->fs, XK(stale), false);
	xls_describe_other_appearance(&c->src.geo, t, seq, ri, &h->fs);
	if (c->out.fmt == XLS_FMT_TEXT)
		xls_print_appearance(&c->out, &h->fs);
	else
		xls_cmd_record(c, XR(appearance), &h->fs);
}

static int on_item(void *ctx, const struct xls_rtrans *rt, const struct xls_ritem *ri)
{
	struct hist_ctx *h = ctx;

	if (!xls_image_take(&h->img, rt, ri))
		return 0;
	if (!ri->buf) {
		/* --ino: of the cluster's inode items, those of the inode */
		if (!h->c->opt->filter.has_ino || !ri->has_ino || ri->ino == h->c->opt->filter.ino)
			other_appearance(h, rt->t, rt->seq, ri);
		return 0;
	}
	if (ri->fail_why)
		h->c->findings++;
	appearance(h, rt->t, rt->seq, ri, false);
	return 0;
}

/*
 * A write-back that warns of this buffer or fails on it.  The failure is
 * the last replay's doing: its row takes the failing colour.
 */
static int on_writeback(void *ctx, const struct xls_rwriteback *wb)
{
	struct hist_ctx *h = ctx;
	struct xls_cmd *c = h->c;
	int64_t blkno = c->opt->filter.blkno;
	bool noops = false;

	for (uint32_t i = 0; i < wb->nnoops; i++)
		noops |= wb->noops[i].blkno == blkno;
	if (!noops && !(wb->fails && wb->fail.blkno == blkno))
		return 0;
	if (!noops) {
		c->findings++;
		for (uint32_t i = h->nrows; i-- > 0;) {
			if (h->rows[i].tid == wb->fail_tid) {
				h->rows[i].kind = XLS_HEAT_FAIL;
				break;
			}
		}
	}
	if (c->out.fmt == XLS_FMT_JSON) {
		xls_fields_reset(&h->fs);
		xls_describe_rwriteback(wb, &h->fs);
		xls_cmd_record(c, XR(writeback), &h->fs);
	} else if (c->out.fmt == XLS_FMT_CSV) {
		return 0;	/* one layout: the appearances */
	} else {
		xls_print_appearance_writeback(&c->out, wb, blkno, noops);
	}
	return 0;
}

static int on_discarded(void *ctx, const struct xls_trans *t, const struct xls_ritem *ri)
{
	struct hist_ctx *h = ctx;

	if (ri->buf && ri->buf->blkno == h->c->opt->filter.blkno)
		appearance(h, t, 0, ri, true);
	return 0;
}

/* ------------------------------------------------------------------ */
/* --stale: the appearances before the tail */

static int stale_item(void *ctx, const struct xls_trans *t, const struct xls_item *it)
{
	struct hist_ctx *h = ctx;

	return xls_stale_watch_item(&h->stale, t, it);
}

static void stale_shown(void *ctx, const struct xls_stale_appearance *a)
{
	struct hist_ctx *h = ctx;
	struct xls_cmd *c = h->c;

	h->appearances++;
	xls_fields_reset(&h->fs);
	xls_describe_stale_appearance(a, &h->fs);
	if (c->out.fmt == XLS_FMT_TEXT)
		xls_print_appearance(&c->out, &h->fs);
	else
		xls_cmd_record(c, XR(appearance), &h->fs);
}

/* The transaction ended: its appearances are shown, committed or not. */
static int stale_end(void *ctx, const struct xls_trans *t)
{
	struct hist_ctx *h = ctx;

	xls_stale_watch_end(&h->stale, t, stale_shown, h);
	return 0;
}

static int run_stale(struct hist_ctx *h, struct xls_error *err)
{
	struct xls_cmd *c = h->c;
	struct xls_scan_sink sink = {
		.ctx = h, .item = stale_item, .end = stale_end, .report = &c->report,
		.want_trans = true,
	};
	struct xls_scan_totals tot;
	int rc;

	xls_cmd_part_banner(c, true);
	if (c->out.fmt == XLS_FMT_TEXT)
		xls_print_appearances_heading(&c->out, c->opt->filter.blkno, true);
	xls_stale_watch_init(&h->stale, c->opt->filter.blkno, c->opt->filter.has_ino,
			     c->opt->filter.ino, c->src.geo.inode_size);
	rc = xls_cmd_walk(c, &sink, true, &tot, err);
	if (rc == -ENOMEM)
		return xls_error_set(err, XLS_EXIT_INTERNAL, "out of memory holding the "
				     "appearances before the tail of one transaction");
	xls_cmd_part_banner(c, false);
	return rc;
}

/* ------------------------------------------------------------------ */
/* after the scan: --replay, --diff, --svg */

static int write_new_file(const char *path, const uint8_t *buf, size_t len,
			  struct xls_error *err)
{
	struct xls_newfile nf;

	if (xls_newfile_open(&nf, path, err))
		return -1;
	if (fwrite(buf, 1, len, nf.f) != len) {
		xls_newfile_abort(&nf);
		return xls_error_set(err, XLS_EXIT_INTERNAL, "cannot write '%s': %s",
				     path, strerror(errno ? errno : EIO));
	}
	return xls_newfile_commit(&nf, err);
}

static int nothing_logged(const struct xls_cmd *c, const char *what,
			  struct xls_error *err)
{
	return xls_error_set(err, XLS_EXIT_USAGE,
			     "no buffer item logs daddr 0x%llx: nothing to %s",
			     (unsigned long long)c->opt->filter.blkno, what);
}

static int do_replay(struct hist_ctx *h, struct xls_error *err)
{
	const struct xls_image *im = &h->img;
	struct xls_cmd *c = h->c;
	struct xls_fieldset *fs = &h->fs;
	const uint8_t *img;
	uint32_t bytes = 0;

	img = xls_image_final(im, &bytes, NULL);
	if (!img)
		return nothing_logged(c, "replay", err);
	if (!im->read_ok)
		return xls_error_set(err, XLS_EXIT_INPUT,
				     "cannot read daddr 0x%llx (%u bytes) from '%s'",
				     (unsigned long long)c->opt->filter.blkno, bytes,
				     c->src.data_path ? c->src.data_path : c->src.path);
	if (write_new_file(own(c->opt)->replay_path, img, bytes, err))
		return -1;
	xls_fields_reset(fs);
	xls_field_str(fs, XK(file), own(c->opt)->replay_path);
	xls_field_hex(fs, XK(blkno), (uint64_t)c->opt->filter.blkno);
	xls_field_uint(fs, XK(bytes), bytes);
	xls_field_uint(fs, XK(applied), im->applied);
	xls_field_uint(fs, XK(skipped), im->skipped);
	xls_field_uint(fs, XK(inode_items_failed), im->inode_failed);
	if (c->src.input.md.version)
		xls_field_uint(fs, XK(disk_absent_bytes), im->absent);
	if (c->out.fmt == XLS_FMT_JSON) {
		xls_cmd_record(c, XR(replayed_buffer), fs);
	} else if (c->out.fmt == XLS_FMT_TEXT) {
		xls_print_replayed_buffer(&c->out, im, own(c->opt)->replay_path, bytes);
	}
	return 0;
}

static int do_diff(struct hist_ctx *h, struct xls_error *err)
{
	struct xls_cmd *c = h->c;
	struct xls_image_range *ranges;
	const struct xls_field *listed;
	uint32_t changed, nchunks;
	int n;

	if (!h->img.len)
		return nothing_logged(c, "compare", err);
	n = xls_image_diff(&h->img, &ranges, &changed, &nchunks);
	if (n < 0)
		return xls_error_set(err, XLS_EXIT_INTERNAL, "out of memory for the ranges of the "
				     "image that differ from the device");
	xls_fields_reset(&h->fs);
	listed = xls_describe_diff(c->opt->filter.blkno, nchunks, changed, ranges, (uint32_t)n,
				   &h->fs);
	if (c->src.input.md.version)
		xls_field_uint(&h->fs, XK(disk_absent_bytes), h->img.absent);
	if (c->out.fmt == XLS_FMT_JSON)
		xls_cmd_record(c, XR(diff), &h->fs);
	else if (c->out.fmt == XLS_FMT_TEXT)
		xls_print_diff(&c->out, nchunks, changed, ranges, (uint32_t)n, listed, h->img.absent);
	free(ranges);
	return 0;
}

static int do_svg(struct hist_ctx *h, struct xls_error *err)
{
	struct xls_cmd *c = h->c;
	struct xls_heat_panel p;
	char title[200];
	uint32_t len = h->img.last_len ? h->img.last_len :
		       (h->nrows ? h->rows[0].nchunks / 4 : 0);

	for (uint32_t i = 0; i < h->nrows; i++)
		if (h->rows[i].nchunks / 4 > len)
			len = h->rows[i].nchunks / 4;
	if (!h->nrows)
		return nothing_logged(c, "draw", err);
	memset(&p, 0, sizeof(p));
	snprintf(p.title, sizeof(p.title), "daddr 0x%llx, %s, %u bytes: %u appearance%s",
		 (unsigned long long)c->opt->filter.blkno, h->type_name ? h->type_name : "?",
		 len * 512, h->nrows, h->nrows == 1 ? "" : "s");
	p.nchunks = len * 4;
	p.nrows = h->nrows;
	p.rows = h->rows;
	snprintf(title, sizeof(title), "xfs_logscope history: buffer 0x%llx of %s",
		 (unsigned long long)c->opt->filter.blkno,
		 c->src.data_path ? c->src.data_path : c->src.path);
	if (xls_cmd_write_svg(own(c->opt)->svg_path, title, &p, 1, true, err))
		return -1;
	if (c->out.fmt == XLS_FMT_TEXT)
		xls_print_heat_map_written(&c->out, true, h->nrows, "appearance",
					   own(c->opt)->svg_path);
	return 0;
}

static int run(struct hist_ctx *h, struct xls_error *err)
{
	struct xls_cmd *c = h->c;
	const struct xls_options *opt = c->opt;
	struct xls_recover_opts ro = { .keep = true, .keep_blkno = opt->filter.blkno };
	struct xls_recover_sink sink = {
		.ctx = h, .item = on_item, .discarded_buf = on_discarded,
		.writeback = on_writeback,
		.report = &c->report,
	};
	struct xls_recover *r;
	int rc;

	if ((own(opt)->replay_path || own(opt)->diff) && !xls_source_has_data(&c->src))
		return xls_error_set(err, XLS_EXIT_USAGE,
				     "--replay and --diff need the data device, not a bare log");
	/* a file that cannot be made fails now, not after the table */
	if (xls_cmd_check_new(own(opt)->replay_path, err) ||
	    xls_cmd_check_new(own(opt)->svg_path, err))
		return -1;
	if (opt->stale && run_stale(h, err))
		return -1;
	r = xls_recover_new(&c->src, &ro, err);
	if (!r)
		return -1;
	if (c->out.fmt == XLS_FMT_TEXT)
		xls_print_appearances_heading(&c->out, opt->filter.blkno, false);
	rc = xls_recover_run(r, &c->log, &c->ht, &sink, err);
	xls_recover_free(r);
	if (!rc && h->img.out_of_memory)
		rc = xls_error_set(err, XLS_EXIT_INTERNAL, "out of memory for the image of the "
				   "buffer as recovery leaves it");
	if (!rc && c->out.fmt == XLS_FMT_TEXT && !h->appearances)
		xls_print_no_appearance(&c->out);
	c->shown += h->appearances;
	if (!rc && own(opt)->replay_path)
		rc = do_replay(h, err);
	if (!rc && own(opt)->diff)
		rc = do_diff(h, err);
	if (!rc && own(opt)->svg_path)
		rc = do_svg(h, err);
	return rc;
}

static int check(const struct xls_options *opt, struct xls_error *err)
{
	if (!opt->filter.has_blkno && !opt->filter.has_ino)
		return xls_error_set(err, XLS_EXIT_USAGE, "history needs --blkno=DADDR or --ino=INO");
	return 0;
}

static int run_cmd(struct xls_cmd *c, void *ctx, struct xls_error *err)
{
	struct hist_ctx *h = ctx;

	xls_out_csv_layout(&c->out, c->opt->stale ? &xls_csv_appearance_stale :
			   &xls_csv_appearance);
	xls_cmd_filters(c, "appearance");
	/* --ino: the options from here on name its cluster buffer, which its inode items write */
	h->opt = *c->opt;
	if (!h->opt.filter.has_blkno) {
		int64_t daddr = xls_ino_cluster_daddr(&c->src.geo, h->opt.filter.ino, NULL);

		if (daddr < 0)
			return xls_error_set(err, XLS_EXIT_USAGE, "inode 0x%llx is not in the "
					     "filesystem of '%s' (or its geometry is unknown)",
					     (unsigned long long)h->opt.filter.ino, c->src.path);
		h->opt.filter.has_blkno = true;
		h->opt.filter.blkno = daddr;
	}
	c->opt = &h->opt;
	h->c = c;
	xls_owner_map_init(&h->owners, &c->src);
	xls_image_init(&h->img, &c->src, h->opt.filter.blkno);
	return run(h, err);
}

static void release(void *ctx)
{
	struct hist_ctx *h = ctx;

	xls_image_release(&h->img);
	xls_owner_map_release(&h->owners);
	xls_vec_free(h->rows);
	xls_stale_watch_release(&h->stale);
}

static int history_main(const struct xls_options *opt, struct xls_error *err)
{
	return xls_cmd_run(opt, &(struct xls_cmd_body){ .check = check,
			   .ctx_size = sizeof(struct hist_ctx), .run = run_cmd,
			   .release = release }, err);
}

static const struct argp_option history_options[] = {
	{ "verbose", 'v', NULL, 0, "each appearance's dirty map and regions", 3 },
	{ "blkno", XLS_OPT_BLKNO, "DADDR", 0, "the buffer (this or --ino is required)", 3 },
	{ "ino", XLS_OPT_INO, "INO", 0, "the inode cluster buffer of this inode, and of its inode items only those of this inode", 3 },
	{ "replay", XLS_OPT_OWN, "FILE", 0, "write the buffer as recovery leaves it to FILE (must not exist)", 3 },
	{ "diff", XLS_OPT_OWN + 1, NULL, 0, "show the 128-byte chunks replay changes", 3 },
	{ "svg", XLS_OPT_OWN + 2, "FILE", 0, "draw its dirty chunks over transactions to FILE (SVG)", 3 },
	{ 0 }
};

static error_t history_parse(int key, char *arg, struct argp_state *state)
{
	struct history_opts *ho = xls_cmdline(state)->own;

	switch (key) {
	case 'v':		ho->verbose = true; return 0;
	case XLS_OPT_OWN:	ho->replay_path = arg; return 0;
	case XLS_OPT_OWN + 1:	ho->diff = true; return 0;
	case XLS_OPT_OWN + 2:	ho->svg_path = arg; return 0;
	default:		return xls_opt_parse_shared(key, arg, state);
	}
}

const struct xls_command xls_command_history = {
	.name = "history", .args_doc = "DEV", .nargs = 1,
	.doc = "Every appearance of one buffer (--blkno) and what recovery does with it.",
	.summary = "one buffer (--blkno) and its fate; --replay, --svg",
	.takes = XLS_TAKES_LOGDEV | XLS_TAKES_OUTPUT | XLS_TAKES_MOUNTED | XLS_TAKES_STALE,
	.options = history_options, .parse = history_parse,
	.own_size = sizeof(struct history_opts), .run = history_main,
};
