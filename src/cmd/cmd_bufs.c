/*
 * bufs: per transaction, per buffer item, what was dirty and what it cost;
 * with --svg, a heat map of the --top most often logged buffers instead.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/ondisk.h"
#include "base/vec.h"
#include "items/buf_analysis.h"
#include "analysis/stats.h"
#include "cmd/cmd.h"
#include "report/describe_buf.h"
#include "report/describe_history.h"
#include "report/describe_log.h"
#include "cmd/options.h"
#include "semantics/dirent.h"
#include "semantics/owner.h"

/* the columns of the text table, and with --stale whether the item is stale first */

/* The most buffers --svg draws, and how many by default. */
#define SVG_TOP_DEFAULT	10
#define SVG_TOP_MAX	64u

/* bufs' own options */
struct bufs_opts {
	bool		verbose;	/* -v: each buffer's dirty map and regions */
	const char	*svg_path;	/* --svg: the hottest buffers' heat map */
	unsigned int	top;		/* --top: how many of them */
};

static const struct bufs_opts *own(const struct xls_cmd *c)
{
	return c->opt->own;
}

/* -v: the directory entries whole inside a directory buffer's regions */
#define DIRENTS_MAX	XLS_DIRENTS_LIST_MAX

struct bufs_ctx {
	struct xls_cmd		*c;
	struct xls_buf_analysis	ba;
	struct xls_owner_map	owners;
	struct xls_owner	owner;
	struct xls_logged_dirent ents[DIRENTS_MAX];
	struct xls_dirent_field	fents[DIRENTS_MAX];
	uint32_t		offsets[XLS_MAX_REGIONS_IN_ITEM];
	uint32_t		nents;
	struct xls_fieldset	fs;
};

/* -v on a directory data or block-form buffer: the entries it logs. */
static void logged_dirents(struct bufs_ctx *bc, const struct xls_item *it)
{
	const struct xls_buf_analysis *ba = &bc->ba;
	uint32_t n = 0;

	bc->nents = 0;
	if (ba->blft != XFS_BLFT_DIR_DATA_BUF && ba->blft != XFS_BLFT_DIR_BLOCK_BUF)
		return;
	for (uint32_t i = 0; i < ba->res.nplaces && i + 1 < it->nregions; i++, n++)
		bc->offsets[i] = ba->res.places[i].offset;
	bc->nents = xls_dir_logged_entries(&bc->c->src.geo, ba->blft, ba->res.buf_bytes,
					   it->regions + 1, bc->offsets, n, bc->ents, DIRENTS_MAX);
	for (uint32_t i = 0; i < bc->nents; i++) {
		bc->fents[i].offset = bc->ents[i].offset;
		bc->fents[i].ino = bc->ents[i].ino;
		bc->fents[i].name = bc->ents[i].name;
	}
}

static bool wanted(const struct xls_options *o, const struct xls_trans *t,
		   const struct xls_buf_analysis *ba)
{
	if (o->filter.has_tid && t->tid != o->filter.tid)
		return false;
	if (o->filter.has_blkno && (!ba->parsed || ba->blf.blf_blkno != o->filter.blkno))
		return false;
	if ((o->filter.type_mask || o->filter.has_size) &&
	    (!ba->parsed || !xls_cmd_buf_wanted(o, ba->blft, ba->res.buf_bytes)))
		return false;
	return true;
}

static int on_item(void *ctx, const struct xls_trans *t, const struct xls_item *it)
{
	struct bufs_ctx *bc = ctx;
	struct xls_cmd *c = bc->c;
	struct xls_fieldset *fs = &bc->fs;

	if (it->type != XFS_LI_BUF)
		return 0;
	xls_buf_analyse(it, &bc->ba);
	if (!wanted(c->opt, t, &bc->ba)) {
		/* the headers it logs name the owner of later items */
		if (bc->ba.parsed)
			xls_owner_note_item(&bc->owners, it, &bc->ba);
		return 0;
	}
	if (bc->ba.parsed)
		xls_owner_of_item(&bc->owners, it, &bc->ba, &bc->owner);
	if (c->opt->filter.has_ino &&
	    (!bc->ba.parsed || !xls_owner_has_ino(&bc->owner, c->opt->filter.ino)))
		return 0;
	c->shown++;
	xls_fields_reset(fs);
	xls_field_hex(fs, XK(tid), t->tid);
	xls_field_lsn(fs, XK(lsn), t->lsn);
	xls_field_uint(fs, XK(index), t->nitems);
	if (c->opt->stale)
		xls_field_bool(fs, XK(stale), t->stale);
	xls_describe_buf(&bc->ba, fs);
	if (bc->ba.parsed)
		xls_describe_owner(&bc->owner, c->out.fmt == XLS_FMT_TEXT, fs);
	if (own(c)->verbose && bc->ba.parsed)
		logged_dirents(bc, it);
	if (own(c)->verbose && c->out.fmt == XLS_FMT_JSON && bc->ba.parsed) {
		xls_describe_buf_regions(&bc->ba, it, fs);
		if (bc->nents)
			xls_describe_dirents(bc->fents, bc->nents, fs);
	}
	if (c->out.fmt == XLS_FMT_TEXT) {
		if (c->opt->stale)
			xls_out_row(&c->out, &xls_text_bufs_stale, fs);
		else
			xls_out_row(&c->out, &xls_text_bufs, fs);
		if (own(c)->verbose && bc->ba.parsed) {
			xls_print_regions(&c->out, &bc->ba.blf, &bc->ba.res, true);
			xls_print_dirents(&c->out, bc->fents, bc->nents);
		}
	} else {
		xls_cmd_record(c, XR(buf), fs);
	}
	if (bc->ba.parsed && bc->ba.res.problems)
		c->findings++;
	return 0;
}

/* ------------------------------------------------------------------ */
/* --svg */

struct hot_buf {
	struct xls_stats_hot	h;
	struct xls_heat_row	*rows;
	uint32_t		nrows, caprows;
};

struct svg_ctx {
	struct xls_cmd		*c;
	struct xls_stats	*st;
	struct xls_buf_analysis	ba;
	struct hot_buf		*hot;
	uint32_t		nhot;
};

/* Pass 1: the statistics of the buffers that pass the filters. */
static int svg_count(void *ctx, const struct xls_trans *t, const struct xls_item *it)
{
	struct svg_ctx *sc = ctx;

	if (it->type != XFS_LI_BUF)
		return 0;
	xls_buf_analyse(it, &sc->ba);
	if (sc->ba.parsed && wanted(sc->c->opt, t, &sc->ba))
		xls_stats_item(sc->st, it, &sc->ba);
	return 0;
}

static struct xls_heat_row *add_row(struct hot_buf *hb)
{
	return xls_vec_push((void **)&hb->rows, &hb->nrows, &hb->caprows, sizeof(*hb->rows));
}

/* Pass 2: a row for every appearance of a hot buffer. */
static int svg_draw(void *ctx, const struct xls_trans *t, const struct xls_item *it)
{
	struct svg_ctx *sc = ctx;
	const struct xls_buf_format *blf = &sc->ba.blf;

	if (it->type != XFS_LI_BUF)
		return 0;
	xls_buf_analyse(it, &sc->ba);
	if (!sc->ba.parsed || !wanted(sc->c->opt, t, &sc->ba))
		return 0;
	for (uint32_t i = 0; i < sc->nhot; i++) {
		struct hot_buf *hb = &sc->hot[i];
		struct xls_heat_row *row;

		if (hb->h.blkno != blf->blf_blkno || hb->h.len != blf->blf_len)
			continue;
		row = add_row(hb);
		if (!row)
			return -ENOMEM;
		memset(row, 0, sizeof(*row));
		row->lsn = t->lsn;
		row->tid = t->tid;
		row->kind = XLS_HEAT_DIRTY;
		row->nchunks = blf->blf_len * 4u;
		memcpy(row->map, blf->blf_data_map, sizeof(row->map));
	}
	return 0;
}

static const char *hot_type(const struct hot_buf *hb)
{
	return hb->h.mixed ? "mixed" : xls_blft_name(hb->h.blft);
}

static int svg_write(struct svg_ctx *sc, struct xls_error *err)
{
	struct xls_cmd *c = sc->c;
	struct xls_heat_panel *p = calloc(sc->nhot ? sc->nhot : 1, sizeof(*p));
	char title[200];
	int rc;

	if (!p)
		return xls_error_set(err, XLS_EXIT_INTERNAL,
				     "out of memory for the panels of the heat map");
	for (uint32_t i = 0; i < sc->nhot; i++) {
		const struct hot_buf *hb = &sc->hot[i];

		snprintf(p[i].title, sizeof(p[i].title),
			 "%u. daddr 0x%llx, %s, %u bytes: %u appearance%s", i + 1,
			 (unsigned long long)hb->h.blkno, hot_type(hb), hb->h.len * 512,
			 hb->nrows, hb->nrows == 1 ? "" : "s");
		p[i].nchunks = hb->h.len * 4;
		p[i].nrows = hb->nrows;
		p[i].rows = hb->rows;
	}
	snprintf(title, sizeof(title), "xfs_logscope bufs: the %u most often logged buffers of %s",
		 sc->nhot, c->src.data_path ? c->src.data_path : c->src.path);
	rc = xls_cmd_write_svg(own(c)->svg_path, title, p, sc->nhot, false, err);
	free(p);
	return rc;
}

static void svg_report(struct svg_ctx *sc)
{
	struct xls_cmd *c = sc->c;
	struct xls_fieldset fs;

	for (uint32_t i = 0; i < sc->nhot; i++) {
		const struct hot_buf *hb = &sc->hot[i];
		const struct xls_svg_panel p = {
			.panel = i + 1, .blkno = hb->h.blkno, .len = hb->h.len * 512,
			.type = hot_type(hb), .appearances = hb->nrows,
		};

		if (c->out.fmt == XLS_FMT_TEXT) {
			xls_print_svg_panel(&c->out, &p);
			continue;
		}
		xls_fields_reset(&fs);
		xls_describe_svg_panel(&p, &fs);
		xls_cmd_record(c, XR(svg_panel), &fs);
	}
	if (c->out.fmt == XLS_FMT_TEXT)
		xls_print_heat_map_written(&c->out, false, sc->nhot, "buffer", own(c)->svg_path);
}

/* The hottest buffers of pass 1, to draw in pass 2. */
static int svg_pick(struct svg_ctx *sc, unsigned int top)
{
	struct xls_stats_hot *h = calloc(top, sizeof(*h));
	bool exact;

	if (!h)
		return -ENOMEM;
	sc->nhot = xls_stats_hot(sc->st, XLS_HOT_BY_APPEARANCES, top, h, &exact);
	for (uint32_t i = 0; i < sc->nhot; i++)
		sc->hot[i].h = h[i];
	free(h);
	return 0;
}

static int bufs_svg(struct svg_ctx *sc, struct xls_error *err)
{
	struct xls_cmd *c = sc->c;
	struct xls_scan_sink sink = {
		.ctx = sc, .item = svg_count, .report = &c->report, .want_trans = true,
	};
	unsigned int top = own(c)->top;
	struct xls_scan_totals tot;
	int rc;

	sc->st = xls_stats_new();
	sc->hot = calloc(top, sizeof(*sc->hot));
	if (!sc->st || !sc->hot)
		return xls_error_set(err, XLS_EXIT_INTERNAL,
				     "out of memory for the counts of the buffers to draw");
	rc = xls_cmd_scan(c, &sink, &tot, err);
	if (!rc)
		rc = svg_pick(sc, top);
	if (!rc) {
		/* the same log again: its findings are counted already */
		c->findings_mode = XLS_FINDINGS_IGNORE;
		sink.item = svg_draw;
		rc = xls_cmd_scan(c, &sink, &tot, err);
	}
	if (rc == -ENOMEM)
		return xls_error_set(err, XLS_EXIT_INTERNAL,
				     "out of memory for the heat map of the hottest buffers");
	if (!rc && !sc->nhot)
		rc = xls_error_set(err, XLS_EXIT_USAGE, "no buffer item matches: nothing to draw");
	if (!rc)
		rc = svg_write(sc, err);
	if (!rc)
		svg_report(sc);
	return rc;
}

static int run_svg(struct xls_cmd *c, struct xls_error *err)
{
	struct svg_ctx *sc = calloc(1, sizeof(*sc));
	int rc;

	if (!sc)
		return xls_error_set(err, XLS_EXIT_INTERNAL,
				     "out of memory for the state of the heat map");
	sc->c = c;
	/* findings are counted for the exit status; the output is the picture */
	c->findings_mode = XLS_FINDINGS_COUNT;
	rc = bufs_svg(sc, err);
	for (uint32_t i = 0; sc->hot && i < sc->nhot; i++)
		xls_vec_free(sc->hot[i].rows);
	free(sc->hot);
	xls_stats_free(sc->st);
	free(sc);
	return rc;
}

/* ------------------------------------------------------------------ */

static int run_table(struct xls_cmd *c, struct xls_error *err)
{
	struct bufs_ctx *bc = malloc(sizeof(*bc));
	struct xls_scan_sink sink = {
		.ctx = bc, .item = on_item, .report = &c->report, .want_trans = true,
	};
	struct xls_scan_totals tot;
	int rc;

	if (!bc)
		return xls_error_set(err, XLS_EXIT_INTERNAL,
				     "out of memory for the state of the buffer table");
	bc->c = c;
	xls_owner_map_init(&bc->owners, &c->src);
	xls_out_csv_layout(&c->out, c->opt->stale ? &xls_csv_bufs_stale : &xls_csv_bufs);
	if (c->out.fmt == XLS_FMT_TEXT && c->opt->stale)
		xls_out_heading(&c->out, &xls_text_bufs_stale);
	else if (c->out.fmt == XLS_FMT_TEXT)
		xls_out_heading(&c->out, &xls_text_bufs);
	rc = xls_cmd_scan(c, &sink, &tot, err);
	xls_owner_map_release(&bc->owners);
	free(bc);
	return rc;
}

static int run(struct xls_cmd *c, void *ctx, struct xls_error *err)
{
	(void)ctx;
	if (own(c)->svg_path)
		return run_svg(c, err);
	xls_cmd_filters(c, "buffer item");
	return run_table(c, err);
}

static int check(const struct xls_options *opt, struct xls_error *err)
{
	return xls_cmd_check_new(((const struct bufs_opts *)opt->own)->svg_path, err);
}

static int bufs_main(const struct xls_options *opt, struct xls_error *err)
{
	return xls_cmd_run(opt, &(struct xls_cmd_body){ .check = check, .run = run }, err);
}

static const struct argp_option bufs_options[] = {
	{ "verbose", 'v', NULL, 0, "each buffer's dirty map and regions", 3 },
	XLS_OPTION_TYPE,
	XLS_OPTION_SIZE,
	XLS_OPTION_BLKNO,
	XLS_OPTION_TID,
	{ "ino", XLS_OPT_INO, "INO", 0, "only buffers of this inode: its directory, attr, bmbt or symlink blocks, its inode cluster", 3 },
	{ "svg", XLS_OPT_OWN, "FILE", 0, "draw the --top hottest buffers' dirty chunks to FILE (SVG)", 3 },
	{ "top", XLS_OPT_OWN + 1, "N", 0, "with --svg: buffers to draw (default 10, at most 64)", 3 },
	{ 0 }
};

static error_t bufs_parse(int key, char *arg, struct argp_state *state)
{
	struct bufs_opts *bo = xls_cmdline(state)->own;

	switch (key) {
	case ARGP_KEY_INIT:	bo->top = SVG_TOP_DEFAULT; return 0;
	case 'v':		bo->verbose = true; return 0;
	case XLS_OPT_OWN:	bo->svg_path = arg; return 0;
	case XLS_OPT_OWN + 1:	bo->top = xls_opt_count(state, arg, SVG_TOP_MAX); return 0;
	default:		return xls_opt_parse_shared(key, arg, state);
	}
}

const struct xls_command xls_command_bufs = {
	.name = "bufs", .args_doc = "DEV", .nargs = 1,
	.doc = "Per transaction, per buffer item: dirty regions, runs, splits, dirty bytes and log cost.",
	.summary = "buffer items: dirty regions, runs, splits, cost",
	.takes = XLS_TAKES_LOGDEV | XLS_TAKES_OUTPUT | XLS_TAKES_MOUNTED | XLS_TAKES_STALE,
	.options = bufs_options, .parse = bufs_parse,
	.own_size = sizeof(struct bufs_opts), .run = bufs_main,
};
