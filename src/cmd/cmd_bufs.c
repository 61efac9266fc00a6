/* bufs: per transaction, per buffer item, what was dirty and what it cost. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/ondisk.h"
#include "analysis/analysis.h"
#include "cmd/cmd.h"

static const struct xls_column buf_columns[] = {
	{ "tid",	"TID",		10 },
	{ "lsn",	"LSN",		10 },
	{ "blkno",	"BLKNO",	12 },
	{ "len",	"LEN",		6 },
	{ "type",	"TYPE",		-10 },
	{ "flags",	"FLAGS",	-10 },
	{ "regions",	"REGS",		4 },
	{ "runs",	"RUNS",		4 },
	{ "split_runs",	"SPLIT",	5 },
	{ "dirty_bytes", "DIRTY",	6 },
	{ "dirty_pct",	"DIRTY%",	6 },
	{ "log_cost",	"COST",		6 },
	{ "problems",	"PROBLEMS",	-1 },
};
#define NCOLS (sizeof(buf_columns) / sizeof(buf_columns[0]))

struct bufs_ctx {
	struct xls_cmd		*c;
	struct xls_buf_analysis	*ba;
	uint32_t		segment;	/* buffer formats seen in this trans */
};

static bool wanted(const struct xls_options *o, const struct xls_trans *t,
		   const struct xls_buf_analysis *ba)
{
	if (o->has_tid && t->tid != o->tid)
		return false;
	if (o->has_blkno && (!ba->parsed || ba->blf.blf_blkno != o->blkno))
		return false;
	if (o->type_filter && (!ba->parsed ||
			       strcmp(o->type_filter, xls_blft_name(ba->blft)) != 0))
		return false;
	return true;
}

static void print_regions(FILE *f, const struct xls_buf_analysis *ba)
{
	const struct xls_region_result *r = &ba->res;
	char map[160];

	xls_region_map_str(&ba->blf, r, 128, map, sizeof(map));
	fprintf(f, "      map [%s]\n", map);
	for (uint32_t i = 0; i < r->nplaces; i++)
		fprintf(f, "      region %3u  offset %6u  len %6u  chunks %u-%u\n",
			i + 1, r->places[i].offset, r->places[i].len,
			r->places[i].first_chunk,
			r->places[i].first_chunk + r->places[i].nchunks - 1);
	for (uint32_t i = 0; i < r->nsplits_stored; i++)
		fprintf(f, "      split at chunk %u (offset %u)%s\n",
			r->splits[i].chunk, r->splits[i].offset,
			r->splits[i].page_boundary ? " on a 4 KiB page boundary" : "");
}

/*
 * The raw inputs of the reconstruction -- bitmap words and logged region
 * lengths -- so that its result can be checked by an independent
 * implementation (tests/lib/recovery-ref.pl).
 */
static void raw_fields(struct xls_fieldset *fs, const struct xls_item *it,
		       const struct xls_buf_analysis *ba)
{
	char json[4096], words[200];
	size_t pos = 0, wpos = 0;

	for (uint32_t i = 0; i < ba->blf.map_words; i++)
		wpos += (size_t)snprintf(words + wpos, sizeof(words) - wpos, "%s%08x",
					 i ? " " : "", ba->blf.blf_data_map[i]);
	xls_field_str(fs, "data_map", words);
	pos += (size_t)snprintf(json, sizeof(json), "[");
	for (uint32_t i = 1; i < it->nregions && pos < sizeof(json) - 16; i++)
		pos += (size_t)snprintf(json + pos, sizeof(json) - pos, "%s%u",
					i > 1 ? "," : "", it->regions[i].len);
	snprintf(json + pos, sizeof(json) - pos, "]");
	xls_field_json(fs, "region_lens", json, "-");
}

static void json_regions(struct xls_fieldset *fs, const struct xls_item *it,
			 const struct xls_buf_analysis *ba)
{
	const struct xls_region_result *r = &ba->res;
	char json[12288], text[8];
	size_t pos = 0;

	pos += (size_t)snprintf(json, sizeof(json), "[");
	for (uint32_t i = 0; i < r->nplaces && pos < sizeof(json) - 64; i++)
		pos += (size_t)snprintf(json + pos, sizeof(json) - pos,
					"%s{\"offset\":%u,\"len\":%u}", i ? "," : "",
					r->places[i].offset, r->places[i].len);
	snprintf(json + pos, sizeof(json) - pos, "]");
	snprintf(text, sizeof(text), "-");
	xls_field_json(fs, "region_list", json, text);
	pos = (size_t)snprintf(json, sizeof(json), "[");
	for (uint32_t i = 0; i < r->nsplits_stored && pos < sizeof(json) - 80; i++)
		pos += (size_t)snprintf(json + pos, sizeof(json) - pos,
					"%s{\"chunk\":%u,\"offset\":%u,\"page_boundary\":%s}",
					i ? "," : "", r->splits[i].chunk, r->splits[i].offset,
					r->splits[i].page_boundary ? "true" : "false");
	snprintf(json + pos, sizeof(json) - pos, "]");
	xls_field_json(fs, "split_list", json, text);
	raw_fields(fs, it, ba);
}

static int on_item(void *ctx, const struct xls_trans *t, const struct xls_item *it)
{
	struct bufs_ctx *bc = ctx;
	struct xls_cmd *c = bc->c;
	struct xls_fieldset fs;

	if (it->type != XFS_LI_BUF)
		return 0;
	xls_buf_analyse(it, bc->ba);
	bc->segment++;
	if (!wanted(c->opt, t, bc->ba))
		return 0;
	xls_fields_reset(&fs);
	xls_field_hex(&fs, "tid", t->tid);
	xls_field_lsn(&fs, "lsn", t->lsn);
	xls_field_uint(&fs, "item", t->nitems);
	xls_buf_fields(bc->ba, &fs);
	if (c->opt->verbose && c->out.fmt == XLS_FMT_JSON && bc->ba->parsed)
		json_regions(&fs, it, bc->ba);
	if (c->out.fmt == XLS_FMT_TEXT) {
		xls_out_table_row(c->out.f, buf_columns, NCOLS, &fs);
		if (c->opt->verbose && bc->ba->parsed)
			print_regions(c->out.f, bc->ba);
	} else {
		xls_out_record(&c->out, "buf", &fs);
	}
	if (bc->ba->parsed && bc->ba->res.problems)
		c->findings++;
	return 0;
}

static int on_finding(void *ctx, const struct xls_finding *f)
{
	struct bufs_ctx *bc = ctx;

	return xls_cmd_finding(bc->c, f);
}

static void on_progress(void *ctx, uint64_t done, uint64_t total)
{
	struct bufs_ctx *bc = ctx;

	xls_cmd_progress(bc->c, done, total);
}

int xls_cmd_bufs(const struct xls_options *opt, struct xls_error *err)
{
	struct xls_scan_totals tot;
	struct bufs_ctx bc;
	struct xls_scan_sink sink = {
		.ctx = &bc, .item = on_item, .finding = on_finding,
		.progress = on_progress,
		.want_trans = true,
	};
	struct xls_cmd c;
	int rc;

	if (opt->svg_path)	/* a heat map of the hottest buffers instead */
		return xls_cmd_bufs_svg(opt, err);
	memset(&bc, 0, sizeof(bc));
	bc.ba = malloc(sizeof(*bc.ba));
	if (!bc.ba)
		return xls_error_set(err, XLS_EXIT_INTERNAL, "out of memory"), err->status;
	if (xls_cmd_open(&c, opt, err)) {
		free(bc.ba);
		return err->status;
	}
	bc.c = &c;
	if (opt->fmt == XLS_FMT_TEXT)
		xls_out_table_heading(c.out.f, buf_columns, NCOLS);
	rc = xls_scan(&c.log, &c.ht, XLS_ITER_LSN, &sink, &tot, err);
	rc = xls_cmd_status(&c, rc, err);
	xls_cmd_close(&c);
	free(bc.ba);
	return rc;
}
