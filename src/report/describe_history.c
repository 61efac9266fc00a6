/*
 * Report stage: history's records and text -- a buffer's appearances in
 * the log (in recovery order, discarded, or before the tail), the write
 * of the buffer that warns or fails, and what --replay, --diff and --svg
 * made of it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/ondisk.h"
#include "base/strfmt.h"
#include "report/describe_history.h"
#include "report/describe_recover.h"

void xls_describe_appearance(const struct xls_trans *t, uint32_t seq,
			     const struct xls_ritem *ri, bool discarded,
			     struct xls_fieldset *fs)
{
	const struct xls_rbuf *b = ri->buf;

	xls_field_uint(fs, XK(seq), seq);
	xls_field_hex(fs, XK(tid), t->tid);
	xls_field_lsn(fs, XK(lsn), t->lsn);
	xls_field_uint(fs, XK(index), ri->index);
	xls_field_uint(fs, XK(len), (uint64_t)b->len * 512);
	xls_field_str(fs, XK(type), xls_blft_name(b->blft));
	xls_describe_blf_flag_names(b->blf_flags, fs);
	xls_field_uint(fs, XK(regions), b->res->nregions);
	xls_field_uint(fs, XK(dirty_bytes), b->res->dirty_bytes);
	xls_field_real(fs, XK(dirty_pct), b->dirty_pct);
	xls_field_uint(fs, XK(cancel_refs), b->cancel_refs);
	xls_field_bool(fs, XK(committed), !discarded);
	xls_field_str(fs, XK(decision), discarded ? "discarded" : xls_rdecision_key(ri->decision));
	if (discarded)
		xls_field_str(fs, XK(decision_text), t->state == XLS_TRANS_CORRUPT ?
			      "corrupt: recovery stops" : "discarded: no commit");
	else
		xls_field_str(fs, XK(decision_text), xls_rdecision_text(ri));
	xls_field_str(fs, XK(reason), xls_ritem_reason(ri));
	if (b->has_lsn)
		xls_field_lsn(fs, XK(block_lsn), b->block_lsn);
	else
		xls_field_lsn_text(fs, XK(block_lsn), "");
	xls_field_str(fs, XK(kernel_warning), b->kernel_warning ? b->kernel_warning : "");
	xls_field_str(fs, XK(detail), ri->detail);
	xls_field_str(fs, XK(write_fails), ri->write_fails ? ri->write_fails : "");
}

void xls_describe_other_appearance(const struct xls_geometry *g,
				   const struct xls_trans *t, uint32_t seq,
				   const struct xls_ritem *ri, struct xls_fieldset *fs)
{
	const char *name = xls_item_type_name(ri->type);
	uint32_t len = ri->has_ino ? ri->ino_len : xls_recover_cluster_bb(g);

	xls_field_uint(fs, XK(seq), seq);
	xls_field_hex(fs, XK(tid), t->tid);
	xls_field_lsn(fs, XK(lsn), t->lsn);
	xls_field_uint(fs, XK(index), ri->index);
	xls_field_uint(fs, XK(len), (uint64_t)len * 512);
	xls_field_str(fs, XK(type), name ? name : "?");
	xls_field_str(fs, XK(flag_names), "");
	xls_field_uint(fs, XK(regions), 0);
	xls_field_uint(fs, XK(dirty_bytes), ri->has_ino ? g->inode_size : (uint64_t)len * 512);
	xls_field_real(fs, XK(dirty_pct), ri->has_ino && len ?
		       100.0 * g->inode_size / (len * 512.0) : 100.0);
	xls_field_uint(fs, XK(cancel_refs), 0);
	xls_field_bool(fs, XK(committed), true);
	xls_field_str(fs, XK(decision), xls_rdecision_key(ri->decision));
	xls_field_str(fs, XK(decision_text), xls_rdecision_text(ri));
	xls_field_str(fs, XK(reason), xls_ritem_reason(ri));
	xls_field_lsn_text(fs, XK(block_lsn), "");
	xls_field_str(fs, XK(kernel_warning), "");
	xls_field_str(fs, XK(detail), ri->detail);
}

void xls_describe_stale_appearance(const struct xls_stale_appearance *a,
				   struct xls_fieldset *fs)
{
	xls_field_bool(fs, XK(stale), true);
	xls_field_hex(fs, XK(tid), a->tid);
	xls_field_lsn(fs, XK(lsn), a->lsn);
	xls_field_uint(fs, XK(index), a->index);
	xls_field_uint(fs, XK(len), (uint64_t)a->len_bb * 512);
	xls_field_str(fs, XK(type), a->type);
	xls_describe_blf_flag_names(a->blf_flags, fs);
	xls_field_uint(fs, XK(regions), a->regions);
	xls_field_uint(fs, XK(dirty_bytes), a->dirty_bytes);
	xls_field_real(fs, XK(dirty_pct), a->dirty_pct);
	xls_field_bool(fs, XK(committed), a->committed);
	xls_field_str(fs, XK(decision), "stale");
	xls_field_str(fs, XK(decision_text), "stale: before the tail");
}

static void range_text(const void *elem, char *buf, size_t bufsz)
{
	const struct xls_image_range *r = elem;

	snprintf(buf, bufsz, "%u-%u", r->first, r->last);
}

static const struct xls_member range_members[] = {
	XLS_MEMBER(first, uint, struct xls_image_range, first),
	XLS_MEMBER(last, uint, struct xls_image_range, last),
	XLS_MEMBER(offset, uint, struct xls_image_range, offset),
	XLS_MEMBER(len, uint, struct xls_image_range, len),
};

static const struct xls_list range_list = {
	range_members, 4, sizeof(struct xls_image_range), range_text, " ", NULL,
};

const struct xls_field *xls_describe_diff(int64_t blkno, uint32_t nchunks, uint32_t changed,
					  const struct xls_image_range *ranges, uint32_t nranges,
					  struct xls_fieldset *fs)
{
	unsigned int before;

	xls_field_hex(fs, XK(blkno), (uint64_t)blkno);
	xls_field_uint(fs, XK(chunks), nchunks);
	xls_field_uint(fs, XK(changed), changed);
	before = fs->n;
	xls_field_list(fs, XK(ranges), &range_list, ranges, nranges);
	return fs->n > before ? &fs->f[fs->n - 1] : NULL;
}

/* ------------------------------------------------------------------ */
/* history's text */

static const struct xls_column appearance_columns[] = {
	XLS_COL(seq, 5),
	XLS_COL(tid, 10),
	XLS_COL(lsn, 10),
	XLS_COL(index, 5),
	XLS_COL(len, 6),
	XLS_COL(type, -10),
	XLS_COL(flag_names, -10),
	XLS_COL(regions, 4),
	XLS_COL(dirty_bytes, 6),
	XLS_COL(dirty_pct, 6),
	XLS_COL(cancel_refs, 6),
	XLS_COL(decision_text, -30),
	XLS_COL(detail, -1),
};
#define NAPPEARANCE_COLS (sizeof(appearance_columns) / sizeof(appearance_columns[0]))

void xls_print_appearances_heading(struct xls_out *o, int64_t blkno, bool stale)
{
	if (stale)
		xls_out_printf(o, "Appearances of daddr 0x%llx before the tail, in log order\n",
			       (unsigned long long)blkno);
	else
		xls_out_printf(o, "Appearances of daddr 0x%llx in recovery order (uncommitted "
			       "ones where they end)\n", (unsigned long long)blkno);
	xls_out_table_heading(o, appearance_columns, NAPPEARANCE_COLS);
}

void xls_print_appearance(struct xls_out *o, const struct xls_fieldset *fs)
{
	xls_out_table_row(o, appearance_columns, NAPPEARANCE_COLS, fs);
}

void xls_print_no_appearance(struct xls_out *o)
{
	xls_out_printf(o, "no log item of this buffer between tail and head\n");
}

void xls_print_appearance_writeback(struct xls_out *o, const struct xls_rwriteback *wb,
				    int64_t blkno, bool noops)
{
	if (noops)
		xls_out_printf(o, "      ! written at LSN %u/%u without a verifier: the kernel warns "
			       "\"no buf ops on daddr 0x%llx\"\n", xls_lsn_cycle(wb->lsn),
			       xls_lsn_block(wb->lsn), (unsigned long long)blkno);
	else
		xls_out_printf(o, "      ! written at LSN %u/%u: the write verifier fails: %s "
			       "(replayed by transaction 0x%08x): metadata corruption, recovery fails\n",
			       xls_lsn_cycle(wb->lsn), xls_lsn_block(wb->lsn), wb->fail_what,
			       wb->fail_tid);
}

/* A block the metadump lacks is zeros on "disk", as xfs_mdrestore leaves it. */
static void print_absent(struct xls_out *o, uint64_t absent)
{
	if (absent)
		xls_out_printf(o, "note: %llu bytes of the block on disk are absent from "
			       "the metadump: they read as zeros, as xfs_mdrestore leaves them\n",
			       (unsigned long long)absent);
}

void xls_print_replayed_buffer(struct xls_out *o, const struct xls_image *im, const char *path,
			       uint32_t bytes)
{
	xls_out_printf(o, "\nreplay: wrote %u bytes to '%s': the block on disk, then %u replayed "
		       "item%s in recovery order (%u not replayed)\n",
		       bytes, path, im->applied, xls_plural(im->applied), im->skipped);
	print_absent(o, im->absent);
	if (im->inode_failed)
		xls_out_printf(o, "replay: %u inode item%s could not be applied: %s\n",
			       im->inode_failed, xls_plural(im->inode_failed),
			       im->inode_why ? im->inode_why : "?");
}

void xls_print_diff(struct xls_out *o, uint32_t nchunks, uint32_t changed,
		    const struct xls_image_range *r, uint32_t n, const struct xls_field *ranges,
		    uint64_t absent)
{
	struct xls_buf_format blf;
	char map[160], txt[2048];

	memset(&blf, 0, sizeof(blf));
	blf.blf_len = (uint16_t)(nchunks / 4);
	blf.map_words = XFS_BLF_DATAMAP_SIZE;
	for (uint32_t i = 0; i < n; i++)
		for (uint32_t k = r[i].first; k <= r[i].last && k < XFS_BLF_DATAMAP_SIZE * 32; k++)
			blf.blf_data_map[k / 32] |= 1u << (k % 32);
	txt[0] = '\0';
	if (ranges)
		xls_field_format(ranges, txt, sizeof(txt));
	xls_region_map_str(&blf, NULL, 128, map, sizeof(map));
	xls_out_printf(o, "\ndiff: %u of %u chunk%s differ%s from the block on disk%s%s\n",
		changed, nchunks, xls_plural(nchunks), changed == 1 ? "s" : "",
		changed ? ": " : "", txt);
	xls_out_printf(o, "      map [%s]\n", map);
	print_absent(o, absent);
}

void xls_print_heat_map_written(struct xls_out *o, bool blank, uint32_t n, const char *what,
				const char *path)
{
	xls_out_printf(o, "%ssvg: wrote the heat map of %u %s%s to '%s'\n", blank ? "\n" : "",
		       n, what, xls_plural(n), path);
}
