/*
 * history: one buffer through the log.  Every appearance of the buffer at
 * --blkno (committed or not) with what recovery does with it; --replay
 * writes the buffer as recovery would leave it (the on-disk block, then
 * each replayed item in recovery order) to a new file; --diff shows the
 * 128-byte chunks that differ from the on-disk block; --svg draws the
 * appearances as a heat map.
 *
 * Also bufs --svg: the same heat map for the hottest buffers of the log.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/ondisk.h"
#include "analysis/analysis.h"
#include "cmd/cmd.h"
#include "items/item.h"
#include "recover/recover.h"
#include "report/svg.h"

static const struct xls_column hist_columns[] = {
	{ "seq",	"SEQ",		5 },
	{ "tid",	"TID",		10 },
	{ "lsn",	"LSN",		10 },
	{ "index",	"ITEM",		5 },
	{ "len",	"LEN",		6 },
	{ "type",	"TYPE",		-10 },
	{ "flags",	"FLAGS",	-10 },
	{ "regions",	"REGS",		4 },
	{ "dirty_bytes", "DIRTY",	6 },
	{ "dirty_pct",	"DIRTY%",	6 },
	{ "cancel_refs", "CANCEL",	6 },
	{ "decision_text", "DECISION",	-30 },
	{ "detail",	"DETAIL",	-1 },
};
#define NHISTCOLS (sizeof(hist_columns) / sizeof(hist_columns[0]))

/*
 * The blocks at the daddr as recovery leaves them.  Every write lands in
 * one image, whatever the length of the buffer it came through (a daddr
 * can be logged as a 4 KiB extent of a directory block and later as an
 * inode cluster): recovery writes them all to the same sectors.  The image
 * grows to the longest length seen, the new part read from the device.
 */
struct image {
	uint32_t	len;		/* basic blocks read so far */
	bool		read_ok;
	uint8_t		*disk;
	uint8_t		*img;
	uint32_t	applied;
	uint32_t	skipped;
};

struct hist_ctx {
	struct xls_cmd		*c;
	struct xls_recover	*r;
	uint32_t		appearances;
	uint32_t		inode_failed;	/* inode items that cannot be applied */
	const char		*inode_why;
	uint32_t		last_len;	/* length of the last replayable appearance */
	const char		*type_name;	/* of the last buffer appearance */
	struct image		img;
	struct xls_heat_row	*rows;
	uint32_t		nrows, caprows;
	struct xls_fieldset	fs;
};

/* ------------------------------------------------------------------ */
/* the replayed image */

static struct image *image_for(struct hist_ctx *h, uint32_t len)
{
	struct image *im = &h->img;
	uint64_t old = (uint64_t)im->len * 512, bytes = (uint64_t)len * 512;
	uint8_t *disk, *img;
	int rc;

	if (!len || bytes > XFS_MAX_BLOCKSIZE)
		return NULL;
	if (len <= im->len)
		return im;
	disk = realloc(im->disk, bytes);
	if (disk)
		im->disk = disk;
	img = disk ? realloc(im->img, bytes) : NULL;
	if (img)
		im->img = img;
	if (!disk || !img)
		return NULL;
	rc = xls_source_read_data(&h->c->src, (uint64_t)h->c->opt->blkno * 512 + old,
				  im->disk + old, bytes - old);
	if (rc)
		memset(im->disk + old, 0, bytes - old);
	im->read_ok = (old == 0 || im->read_ok) && rc == 0;
	memcpy(im->img + old, im->disk + old, bytes - old);
	im->len = len;
	return im;
}

static bool replays(enum xls_rdecision d)
{
	return d == XLS_RD_REPLAY || d == XLS_RD_REPLAY_ALWAYS;
}

/*
 * Apply one replayed item: xlog_recover_do_reg_buffer() copies each placed
 * region; xlog_recover_do_inode_buffer() only di_next_unlinked, then
 * recomputes that inode's CRC.
 */
static void apply(struct hist_ctx *h, const struct xls_ritem *ri)
{
	const struct xls_rbuf *b = ri->buf;
	struct image *im = image_for(h, b->len);
	uint64_t bytes = (uint64_t)b->len * 512;
	const uint8_t *src = b->data;

	if (!im)
		return;
	if (!replays(ri->decision)) {
		im->skipped++;
		return;
	}
	im->applied++;
	if (b->blf_flags & XFS_BLF_INODE_BUF) {
		for (uint32_t i = 0; i < b->nunlinked; i++) {
			const struct xls_runlinked *u = &b->unlinked[i];

			if (!u->readable || (uint64_t)u->offset + 4 > bytes)
				continue;
			for (int k = 0; k < 4; k++)
				im->img[u->offset + k] = (uint8_t)(u->value >> (24 - 8 * k));
			if (xls_recover_v5(h->r))
				xls_recover_inode_crc(im->img, (uint32_t)bytes,
						      xls_recover_inodesize(h->r), u->slot);
		}
		return;
	}
	if (!src)
		return;
	for (uint32_t i = 0; i < b->res->nplaces; i++) {
		const struct xls_region_place *p = &b->res->places[i];

		if ((uint64_t)p->offset + p->len <= bytes)
			memcpy(im->img + p->offset, src, p->len);
		src += p->len;
	}
}

/* An inode item replayed into this buffer: xlog_recover_inode_commit_pass2. */
static void apply_inode(struct hist_ctx *h, const struct xls_rtrans *rt,
			const struct xls_ritem *ri)
{
	struct image *im = image_for(h, ri->ino_len);
	const char *why;

	if (!im)
		return;
	if (ri->decision != XLS_RD_REPLAY) {
		im->skipped++;
		return;
	}
	if (xls_recover_apply_inode(h->r, ri, rt->t->lsn, im->img, im->len * 512, &why)) {
		h->inode_failed++;
		h->inode_why = why;
		return;
	}
	im->applied++;
}

/* An icreate that initialises this buffer: xfs_ialloc_inode_init. */
static bool apply_icreate(struct hist_ctx *h, const struct xls_ritem *ri)
{
	uint32_t bb = xls_recover_cluster_bb(h->r);
	struct image *im;
	uint8_t *fresh;
	bool hit;

	if (!bb || ri->decision != XLS_RD_REPLAY)
		return false;
	/* into a scratch cluster first: most icreates are for other daddrs */
	fresh = malloc((size_t)bb * 512);
	if (!fresh)
		return false;
	hit = xls_recover_apply_icreate(h->r, ri, h->c->opt->blkno, fresh, bb * 512);
	im = hit ? image_for(h, bb) : NULL;
	if (im) {
		memcpy(im->img, fresh, (size_t)bb * 512);
		im->applied++;
	}
	free(fresh);
	return hit;
}

/* ------------------------------------------------------------------ */
/* appearances */

static uint8_t heat_kind(const struct xls_ritem *ri, bool discarded)
{
	if (discarded)
		return XLS_HEAT_DISCARDED;
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
	struct xls_heat_row *row;
	uint32_t isize = xls_recover_inodesize(h->r);

	if (h->nrows == h->caprows) {
		uint32_t cap = h->caprows ? h->caprows * 2 : 64;
		struct xls_heat_row *n = realloc(h->rows, sizeof(*n) * cap);

		if (!n)
			return;
		h->rows = n;
		h->caprows = cap;
	}
	row = &h->rows[h->nrows++];
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
	row->nchunks = (ri->has_ino ? ri->ino_len : xls_recover_cluster_bb(h->r)) * 4;
	for (uint32_t c = 0; c < row->nchunks && c < XFS_BLF_DATAMAP_SIZE * 32; c++) {
		uint32_t off = c * 128;

		if (!ri->has_ino || (off + 128 > ri->ino_boffset &&
				     off < ri->ino_boffset + (isize ? isize : 128)))
			row->map[c / 32] |= 1u << (c % 32);
	}
}

static void print_regions(FILE *f, const struct xls_rbuf *b)
{
	char map[160];

	xls_region_map_str(b->blf, b->res, 128, map, sizeof(map));
	fprintf(f, "      map [%s]\n", map);
	for (uint32_t i = 0; i < b->res->nplaces; i++)
		fprintf(f, "      region %3u  offset %6u  len %6u  chunks %u-%u\n",
			i + 1, b->res->places[i].offset, b->res->places[i].len,
			b->res->places[i].first_chunk,
			b->res->places[i].first_chunk + b->res->places[i].nchunks - 1);
}

static void appearance(struct hist_ctx *h, const struct xls_trans *t, uint32_t seq,
		       const struct xls_ritem *ri, bool discarded)
{
	const struct xls_rbuf *b = ri->buf;
	struct xls_cmd *c = h->c;
	struct xls_fieldset *fs = &h->fs;
	char flags[96], dec[64];

	h->appearances++;
	h->type_name = xls_blft_name(b->blft);
	add_row(h, t, seq, ri, discarded);
	xls_fields_reset(fs);
	xls_field_uint(fs, "seq", seq);
	xls_field_hex(fs, "tid", t->tid);
	xls_field_lsn(fs, "lsn", t->lsn);
	xls_field_uint(fs, "index", ri->index);
	xls_field_uint(fs, "len", (uint64_t)b->len * 512);
	xls_field_str(fs, "type", xls_blft_name(b->blft));
	xls_blf_flags_str(b->blf_flags, flags, sizeof(flags));
	xls_field_str(fs, "flags", strcmp(flags, "0") == 0 ? "" : flags);
	xls_field_uint(fs, "regions", b->res->nregions);
	xls_field_uint(fs, "dirty_bytes", b->res->dirty_bytes);
	xls_field_real(fs, "dirty_pct", b->dirty_pct);
	xls_field_uint(fs, "cancel_refs", b->cancel_refs);
	xls_field_str(fs, "committed", discarded ? "no" : "yes");
	xls_field_str(fs, "decision", discarded ? "discarded" : xls_rdecision_key(ri->decision));
	if (discarded)
		snprintf(dec, sizeof(dec), "%s", t->state == XLS_TRANS_CORRUPT ?
			 "corrupt: recovery stops" : "discarded: no commit");
	else
		xls_rdecision_text(ri, dec, sizeof(dec));
	xls_field_str(fs, "decision_text", dec);
	xls_field_str(fs, "reason", ri->reason ? ri->reason : "");
	if (b->has_lsn)
		xls_field_lsn(fs, "block_lsn", b->block_lsn);
	else
		xls_field_str(fs, "block_lsn", "");
	xls_field_str(fs, "kernel_warning", b->kernel_warning ? b->kernel_warning : "");
	xls_field_str(fs, "detail", ri->detail);
	if (c->out.fmt == XLS_FMT_TEXT) {
		xls_out_table_row(c->out.f, hist_columns, NHISTCOLS, fs);
		if (b->kernel_warning)
			fprintf(c->out.f, "      ! kernel warns: %s\n", b->kernel_warning);
		if (ri->fail_why)
			fprintf(c->out.f, "      ! %s\n", ri->fail_why);
		if (c->opt->verbose)
			print_regions(c->out.f, b);
	} else {
		xls_out_record(&c->out, "appearance", fs);
	}
}

/* An inode or icreate item that writes into the buffer. */
static void other_appearance(struct hist_ctx *h, const struct xls_trans *t, uint32_t seq,
			     const struct xls_ritem *ri)
{
	struct xls_cmd *c = h->c;
	struct xls_fieldset *fs = &h->fs;
	const char *name = xls_item_type_name(ri->type);
	uint32_t len = ri->has_ino ? ri->ino_len : xls_recover_cluster_bb(h->r);
	char dec[64];

	h->appearances++;
	add_row(h, t, seq, ri, false);
	xls_fields_reset(fs);
	xls_field_uint(fs, "seq", seq);
	xls_field_hex(fs, "tid", t->tid);
	xls_field_lsn(fs, "lsn", t->lsn);
	xls_field_uint(fs, "index", ri->index);
	xls_field_uint(fs, "len", (uint64_t)len * 512);
	xls_field_str(fs, "type", name ? name : "?");
	xls_field_str(fs, "flags", "");
	xls_field_uint(fs, "regions", 0);
	xls_field_uint(fs, "dirty_bytes", ri->has_ino ? xls_recover_inodesize(h->r) :
		       (uint64_t)len * 512);
	xls_field_real(fs, "dirty_pct", ri->has_ino && len ?
		       100.0 * xls_recover_inodesize(h->r) / (len * 512.0) : 100.0);
	xls_field_uint(fs, "cancel_refs", 0);
	xls_field_str(fs, "committed", "yes");
	xls_field_str(fs, "decision", xls_rdecision_key(ri->decision));
	xls_rdecision_text(ri, dec, sizeof(dec));
	xls_field_str(fs, "decision_text", dec);
	xls_field_str(fs, "reason", ri->reason ? ri->reason : "");
	xls_field_str(fs, "block_lsn", "");
	xls_field_str(fs, "kernel_warning", "");
	xls_field_str(fs, "detail", ri->detail);
	if (c->out.fmt == XLS_FMT_TEXT)
		xls_out_table_row(c->out.f, hist_columns, NHISTCOLS, fs);
	else
		xls_out_record(&c->out, "appearance", fs);
}

static int on_item(void *ctx, const struct xls_rtrans *rt, const struct xls_ritem *ri)
{
	struct hist_ctx *h = ctx;

	if (ri->has_ino && ri->ino_blkno == h->c->opt->blkno) {
		if (!h->last_len || ri->decision == XLS_RD_REPLAY)
			h->last_len = ri->ino_len;
		apply_inode(h, rt, ri);
		other_appearance(h, rt->t, rt->seq, ri);
		return 0;
	}
	if (ri->icreate && apply_icreate(h, ri)) {
		h->last_len = xls_recover_cluster_bb(h->r);
		other_appearance(h, rt->t, rt->seq, ri);
		return 0;
	}
	if (!ri->buf || ri->buf->blkno != h->c->opt->blkno)
		return 0;
	if (ri->fail_why)
		h->c->findings++;
	/* the buffer left in the end: the last one recovery writes */
	if (!h->last_len || replays(ri->decision))
		h->last_len = ri->buf->len;
	apply(h, ri);
	appearance(h, rt->t, rt->seq, ri, false);
	return 0;
}

static int on_discarded(void *ctx, const struct xls_trans *t, const struct xls_ritem *ri)
{
	struct hist_ctx *h = ctx;

	if (ri->buf && ri->buf->blkno == h->c->opt->blkno)
		appearance(h, t, 0, ri, true);
	return 0;
}

static int on_finding(void *ctx, const struct xls_finding *f)
{
	struct hist_ctx *h = ctx;

	return xls_cmd_finding(h->c, f);
}

static void on_progress(void *ctx, uint64_t done, uint64_t total)
{
	struct hist_ctx *h = ctx;

	xls_cmd_progress(h->c, done, total);
}

/* ------------------------------------------------------------------ */
/* after the scan: --replay, --diff, --svg */

static int write_new_file(const char *path, const uint8_t *buf, size_t len,
			  struct xls_error *err)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	size_t done = 0;

	if (fd < 0)
		return xls_error_set(err, XLS_EXIT_USAGE, "cannot create '%s': %s",
				     path, strerror(errno));
	while (done < len) {
		ssize_t n = write(fd, buf + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			close(fd);
			return xls_error_set(err, XLS_EXIT_INTERNAL, "cannot write '%s': %s",
					     path, strerror(n < 0 ? errno : EIO));
		}
		done += (size_t)n;
	}
	if (close(fd) < 0)
		return xls_error_set(err, XLS_EXIT_INTERNAL, "cannot write '%s': %s",
				     path, strerror(errno));
	return 0;
}

/* The image, cut to the length of the buffer recovery writes last. */
static struct image *final_image(struct hist_ctx *h, uint32_t *len)
{
	if (!h->img.len)
		return NULL;
	*len = h->last_len && h->last_len <= h->img.len ? h->last_len : h->img.len;
	return &h->img;
}

static int do_replay(struct hist_ctx *h, struct xls_error *err)
{
	uint32_t len = 0;
	struct image *im = final_image(h, &len);
	struct xls_cmd *c = h->c;
	struct xls_fieldset *fs = &h->fs;
	size_t bytes;

	if (!im)
		return xls_error_set(err, XLS_EXIT_USAGE,
				     "no buffer item logs daddr 0x%llx: nothing to replay",
				     (unsigned long long)c->opt->blkno);
	if (!im->read_ok)
		return xls_error_set(err, XLS_EXIT_INPUT,
				     "cannot read daddr 0x%llx (%u bytes) from '%s'",
				     (unsigned long long)c->opt->blkno, len * 512,
				     c->src.data_path ? c->src.data_path : c->src.path);
	bytes = (size_t)len * 512;
	if (write_new_file(c->opt->replay_path, im->img, bytes, err))
		return -1;
	xls_fields_reset(fs);
	xls_field_str(fs, "file", c->opt->replay_path);
	xls_field_hex(fs, "blkno", (uint64_t)c->opt->blkno);
	xls_field_uint(fs, "bytes", bytes);
	xls_field_uint(fs, "applied", im->applied);
	xls_field_uint(fs, "skipped", im->skipped);
	xls_field_uint(fs, "inode_items_failed", h->inode_failed);
	if (c->out.fmt == XLS_FMT_JSON) {
		xls_out_record(&c->out, "replay", fs);
	} else if (c->out.fmt == XLS_FMT_TEXT) {
		fprintf(c->out.f, "\nreplay: wrote %zu bytes to '%s': the block on disk, then %u replayed item%s in recovery order (%u not replayed)\n",
			bytes, c->opt->replay_path, im->applied, im->applied == 1 ? "" : "s",
			im->skipped);
		if (h->inode_failed)
			fprintf(c->out.f, "replay: %u inode item%s could not be applied: %s\n",
				h->inode_failed, h->inode_failed == 1 ? "" : "s",
				h->inode_why ? h->inode_why : "?");
	}
	return 0;
}

static int do_diff(struct hist_ctx *h, struct xls_error *err)
{
	uint32_t len = 0;
	struct image *im = final_image(h, &len);
	struct xls_cmd *c = h->c;
	struct xls_fieldset *fs = &h->fs;
	uint32_t nchunks, changed = 0, nranges = 0;
	char json[8192], txt[2048], map[160];
	size_t jp = 0, tp = 0;
	struct xls_buf_format blf;

	if (!im)
		return xls_error_set(err, XLS_EXIT_USAGE,
				     "no buffer item logs daddr 0x%llx: nothing to compare",
				     (unsigned long long)c->opt->blkno);
	nchunks = len * 4;
	memset(&blf, 0, sizeof(blf));
	blf.blf_len = (uint16_t)len;
	blf.map_words = XFS_BLF_DATAMAP_SIZE;
	jp += (size_t)snprintf(json, sizeof(json), "[");
	txt[0] = '\0';
	for (uint32_t ch = 0; ch < nchunks; ) {
		uint32_t end = ch;

		if (!memcmp(im->img + (size_t)ch * 128, im->disk + (size_t)ch * 128, 128)) {
			ch++;
			continue;
		}
		while (end < nchunks &&
		       memcmp(im->img + (size_t)end * 128, im->disk + (size_t)end * 128, 128))
			end++;
		changed += end - ch;
		for (uint32_t k = ch; k < end && k < XFS_BLF_DATAMAP_SIZE * 32; k++)
			blf.blf_data_map[k / 32] |= 1u << (k % 32);
		if (jp < sizeof(json) - 80)
			jp += (size_t)snprintf(json + jp, sizeof(json) - jp,
					       "%s{\"first\":%u,\"last\":%u,\"offset\":%u,\"len\":%u}",
					       nranges ? "," : "", ch, end - 1, ch * 128,
					       (end - ch) * 128);
		if (tp < sizeof(txt) - 32)
			tp += (size_t)snprintf(txt + tp, sizeof(txt) - tp, "%s%u-%u",
					       nranges ? " " : "", ch, end - 1);
		nranges++;
		ch = end;
	}
	snprintf(json + jp, sizeof(json) - jp, "]");
	xls_fields_reset(fs);
	xls_field_hex(fs, "blkno", (uint64_t)c->opt->blkno);
	xls_field_uint(fs, "chunks", nchunks);
	xls_field_uint(fs, "changed", changed);
	xls_field_json(fs, "ranges", json, txt);
	if (c->out.fmt == XLS_FMT_JSON) {
		xls_out_record(&c->out, "diff", fs);
	} else if (c->out.fmt == XLS_FMT_TEXT) {
		xls_region_map_str(&blf, NULL, 128, map, sizeof(map));
		fprintf(c->out.f, "\ndiff: %u of %u chunks differ from the block on disk%s%s\n",
			changed, nchunks, changed ? ": " : "", txt);
		fprintf(c->out.f, "      map [%s]\n", map);
	}
	return 0;
}

static int do_svg(struct hist_ctx *h, struct xls_error *err)
{
	struct xls_cmd *c = h->c;
	struct xls_heat_panel p;
	char title[200];
	FILE *f;
	int fd, rc;
	uint32_t len = h->last_len ? h->last_len : (h->nrows ? h->rows[0].nchunks / 4 : 0);

	for (uint32_t i = 0; i < h->nrows; i++)
		if (h->rows[i].nchunks / 4 > len)
			len = h->rows[i].nchunks / 4;
	if (!h->nrows)
		return xls_error_set(err, XLS_EXIT_USAGE,
				     "no buffer item logs daddr 0x%llx: nothing to draw",
				     (unsigned long long)c->opt->blkno);
	memset(&p, 0, sizeof(p));
	snprintf(p.title, sizeof(p.title), "daddr 0x%llx, %s, %u bytes: %u appearances",
		 (unsigned long long)c->opt->blkno, h->type_name ? h->type_name : "?",
		 len * 512, h->nrows);
	p.nchunks = len * 4;
	p.nrows = h->nrows;
	p.rows = h->rows;
	snprintf(title, sizeof(title), "xfs_logscope history: buffer 0x%llx of %s",
		 (unsigned long long)c->opt->blkno, c->src.data_path ? c->src.data_path : c->src.path);
	fd = open(c->opt->svg_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		if (fd >= 0)
			close(fd);
		return xls_error_set(err, XLS_EXIT_USAGE, "cannot create '%s': %s",
				     c->opt->svg_path, strerror(errno));
	}
	rc = xls_svg_heatmap(f, title, &p, 1, true);
	if (fclose(f) != 0 || rc)
		return xls_error_set(err, XLS_EXIT_INTERNAL, "cannot write '%s'", c->opt->svg_path);
	if (c->out.fmt == XLS_FMT_TEXT)
		fprintf(c->out.f, "\nsvg: wrote the heat map of %u appearances to '%s'\n",
			h->nrows, c->opt->svg_path);
	return 0;
}

static void hist_free(struct hist_ctx *h)
{
	free(h->img.disk);
	free(h->img.img);
	free(h->rows);
	free(h);
}

int xls_cmd_history(const struct xls_options *opt, struct xls_error *err)
{
	struct hist_ctx *h;
	struct xls_recover_opts ro = { .keep = true };
	struct xls_recover_sink sink = {
		.item = on_item, .discarded_buf = on_discarded,
		.finding = on_finding, .progress = on_progress,
	};
	struct xls_cmd c;
	int rc;

	if (!opt->has_blkno)
		return xls_error_set(err, XLS_EXIT_USAGE, "history needs --blkno=DADDR"),
		       err->status;
	h = calloc(1, sizeof(*h));
	if (!h)
		return xls_error_set(err, XLS_EXIT_INTERNAL, "out of memory"), err->status;
	if (xls_cmd_open(&c, opt, err)) {
		free(h);
		return err->status;
	}
	if ((opt->replay_path || opt->diff) && c.src.data_fd < 0) {
		xls_error_set(err, XLS_EXIT_USAGE,
			      "--replay and --diff need the data device, not a bare log");
		xls_cmd_close(&c);
		free(h);
		return err->status;
	}
	h->c = &c;
	sink.ctx = h;
	ro.keep_blkno = opt->blkno;
	h->r = xls_recover_new(&c.src, &ro, err);
	if (c.out.fmt == XLS_FMT_TEXT)
		fprintf(c.out.f, "Appearances of daddr 0x%llx in recovery order (uncommitted ones where they end)\n",
			(unsigned long long)opt->blkno);
	if (c.out.fmt == XLS_FMT_TEXT)
		xls_out_table_heading(c.out.f, hist_columns, NHISTCOLS);
	rc = h->r ? xls_recover_run(h->r, &c.log, &c.ht, &sink, err) : -1;
	if (!rc && c.out.fmt == XLS_FMT_TEXT && !h->appearances)
		fprintf(c.out.f, "no log item of this buffer between tail and head\n");
	if (!rc && opt->replay_path)
		rc = do_replay(h, err);
	if (!rc && opt->diff)
		rc = do_diff(h, err);
	if (!rc && opt->svg_path)
		rc = do_svg(h, err);
	rc = xls_cmd_status(&c, rc, err);
	xls_recover_free(h->r);
	xls_cmd_close(&c);
	hist_free(h);
	return rc;
}

/* ------------------------------------------------------------------ */
/* bufs --svg */

struct hot_buf {
	int64_t			blkno;
	uint32_t		len;
	char			type[24];
	uint64_t		appearances;
	struct xls_heat_row	*rows;
	uint32_t		nrows, caprows;
};

struct bsvg_ctx {
	struct xls_cmd		*c;
	struct xls_stats	*st;
	struct xls_buf_analysis	*ba;
	struct hot_buf		*hot;
	uint32_t		nhot;
	uint32_t		pass;
};

static bool bsvg_wanted(const struct xls_options *o, const struct xls_trans *t,
			const struct xls_buf_analysis *ba)
{
	if (!ba->parsed)
		return false;
	if (o->has_tid && t->tid != o->tid)
		return false;
	if (o->has_blkno && ba->blf.blf_blkno != o->blkno)
		return false;
	if (o->type_filter && strcmp(o->type_filter, xls_blft_name(ba->blft)) != 0)
		return false;
	return true;
}

static int bsvg_item(void *ctx, const struct xls_trans *t, const struct xls_item *it)
{
	struct bsvg_ctx *b = ctx;

	if (it->type != XFS_LI_BUF)
		return 0;
	xls_buf_analyse(it, b->ba);
	if (!bsvg_wanted(b->c->opt, t, b->ba))
		return 0;
	if (b->pass == 1) {
		xls_stats_item(b->st, it, b->ba);
		return 0;
	}
	for (uint32_t i = 0; i < b->nhot; i++) {
		struct hot_buf *hb = &b->hot[i];
		struct xls_heat_row *row;

		if (hb->blkno != b->ba->blf.blf_blkno || hb->len != b->ba->blf.blf_len)
			continue;
		if (hb->nrows == hb->caprows) {
			uint32_t cap = hb->caprows ? hb->caprows * 2 : 64;
			struct xls_heat_row *n = realloc(hb->rows, sizeof(*n) * cap);

			if (!n)
				return -ENOMEM;
			hb->rows = n;
			hb->caprows = cap;
		}
		row = &hb->rows[hb->nrows++];
		memset(row, 0, sizeof(*row));
		row->lsn = t->lsn;
		row->tid = t->tid;
		row->kind = XLS_HEAT_DIRTY;
		row->nchunks = b->ba->blf.blf_len * 4u;
		memcpy(row->map, b->ba->blf.blf_data_map, sizeof(row->map));
	}
	return 0;
}

static int bsvg_finding(void *ctx, const struct xls_finding *f)
{
	struct bsvg_ctx *b = ctx;

	(void)f;
	if (b->pass == 1)
		b->c->findings++;
	return 0;
}

/* Take the "hot" rows of the statistics: the most often logged buffers. */
static void bsvg_hot(void *ctx, const char *kind, const struct xls_fieldset *fs)
{
	struct bsvg_ctx *b = ctx;
	const struct xls_field *blkno, *len, *type, *n;
	struct hot_buf *hb;

	if (strcmp(kind, "hot") != 0)
		return;
	blkno = xls_fields_get(fs, "blkno");
	len = xls_fields_get(fs, "len");
	type = xls_fields_get(fs, "type");
	n = xls_fields_get(fs, "appearances");
	if (!blkno || !len || !type || !n)
		return;
	hb = &b->hot[b->nhot++];
	memset(hb, 0, sizeof(*hb));
	hb->blkno = (int64_t)blkno->v.u;
	hb->len = (uint32_t)(len->v.u / 512);
	snprintf(hb->type, sizeof(hb->type), "%s", type->v.s);
	hb->appearances = n->v.u;
}

static int bsvg_write(struct bsvg_ctx *b, struct xls_error *err)
{
	struct xls_cmd *c = b->c;
	struct xls_heat_panel *p = calloc(b->nhot ? b->nhot : 1, sizeof(*p));
	char title[200];
	FILE *f;
	int fd, rc;

	if (!p)
		return xls_error_set(err, XLS_EXIT_INTERNAL, "out of memory");
	for (uint32_t i = 0; i < b->nhot; i++) {
		snprintf(p[i].title, sizeof(p[i].title), "%u. daddr 0x%llx, %s, %u bytes: %u appearances",
			 i + 1, (unsigned long long)b->hot[i].blkno, b->hot[i].type,
			 b->hot[i].len * 512, b->hot[i].nrows);
		p[i].nchunks = b->hot[i].len * 4;
		p[i].nrows = b->hot[i].nrows;
		p[i].rows = b->hot[i].rows;
	}
	snprintf(title, sizeof(title), "xfs_logscope bufs: the %u most often logged buffers of %s",
		 b->nhot, c->src.data_path ? c->src.data_path : c->src.path);
	fd = open(c->opt->svg_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		if (fd >= 0)
			close(fd);
		free(p);
		return xls_error_set(err, XLS_EXIT_USAGE, "cannot create '%s': %s",
				     c->opt->svg_path, strerror(errno));
	}
	rc = xls_svg_heatmap(f, title, p, b->nhot, false);
	free(p);
	if (fclose(f) != 0 || rc)
		return xls_error_set(err, XLS_EXIT_INTERNAL, "cannot write '%s'", c->opt->svg_path);
	return 0;
}

static void bsvg_report(struct bsvg_ctx *b)
{
	struct xls_cmd *c = b->c;
	struct xls_fieldset fs;

	for (uint32_t i = 0; i < b->nhot; i++) {
		xls_fields_reset(&fs);
		xls_field_uint(&fs, "panel", i + 1);
		xls_field_hex(&fs, "blkno", (uint64_t)b->hot[i].blkno);
		xls_field_uint(&fs, "len", (uint64_t)b->hot[i].len * 512);
		xls_field_str(&fs, "type", b->hot[i].type);
		xls_field_uint(&fs, "appearances", b->hot[i].nrows);
		if (c->out.fmt == XLS_FMT_TEXT)
			fprintf(c->out.f, "%3u  daddr 0x%-10llx %6u bytes  %-10s %u appearances\n",
				i + 1, (unsigned long long)b->hot[i].blkno, b->hot[i].len * 512,
				b->hot[i].type, b->hot[i].nrows);
		else
			xls_out_record(&c->out, "svg_panel", &fs);
	}
	if (c->out.fmt == XLS_FMT_TEXT)
		fprintf(c->out.f, "svg: wrote the heat map of %u buffer%s to '%s'\n", b->nhot,
			b->nhot == 1 ? "" : "s", c->opt->svg_path);
}

int xls_cmd_bufs_svg(const struct xls_options *opt, struct xls_error *err)
{
	struct bsvg_ctx b;
	struct xls_scan_sink sink = {
		.ctx = &b, .item = bsvg_item, .finding = bsvg_finding,
		.progress = xls_cmd_progress, .want_trans = true,
	};
	struct xls_scan_totals tot;
	unsigned int top = opt->top ? opt->top : 10;
	struct xls_cmd c;
	int rc;

	memset(&b, 0, sizeof(b));
	if (top > 64)
		top = 64;
	b.st = xls_stats_new();
	b.ba = malloc(sizeof(*b.ba));
	b.hot = calloc(top, sizeof(*b.hot));
	if (!b.st || !b.ba || !b.hot) {
		rc = xls_error_set(err, XLS_EXIT_INTERNAL, "out of memory");
		goto out;
	}
	if (xls_cmd_open(&c, opt, err)) {
		rc = -1;
		goto out;
	}
	b.c = &c;
	sink.ctx = &b;
	/* the progress callback wants the command */
	sink.progress = NULL;
	b.pass = 1;
	rc = xls_scan(&c.log, &c.ht, XLS_ITER_LSN, &sink, &tot, err);
	if (!rc) {
		xls_stats_report(b.st, top, bsvg_hot, &b);
		b.pass = 2;
		rc = xls_scan(&c.log, &c.ht, XLS_ITER_LSN, &sink, &tot, err);
	}
	if (rc == -ENOMEM)
		rc = xls_error_set(err, XLS_EXIT_INTERNAL, "out of memory");
	if (!rc && !b.nhot)
		rc = xls_error_set(err, XLS_EXIT_USAGE, "no buffer item matches: nothing to draw");
	if (!rc)
		rc = bsvg_write(&b, err);
	if (!rc)
		bsvg_report(&b);
	rc = xls_cmd_status(&c, rc, err);
	xls_cmd_close(&c);
out:
	for (uint32_t i = 0; b.hot && i < b.nhot; i++)
		free(b.hot[i].rows);
	free(b.hot);
	free(b.ba);
	xls_stats_free(b.st);
	return rc < 0 ? (int)err->status : rc;
}
