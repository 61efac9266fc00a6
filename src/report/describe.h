/*
 * Report stage: the typed results of every stage as field tables -- the
 * one place that decides what a field is called and in which order fields
 * come.  Commands pick the describers they need and hand the sets to a
 * writer (report/emit.h).
 */
#ifndef XLS_DESCRIBE_H
#define XLS_DESCRIBE_H

#include "base/finding.h"
#include "source/source.h"
#include "log/log.h"
#include "ops/ops.h"
#include "trans/trans.h"
#include "trans/scan.h"
#include "items/item.h"
#include "analysis/analysis.h"
#include "analysis/checkpoint.h"
#include "analysis/ckptstats.h"
#include "analysis/stats.h"
#include "pass3/pass3.h"
#include "recover/recover.h"
#include "replay/replay.h"
#include "replay/write.h"
#include "semantics/owner.h"
#include "semantics/lost.h"
#include "semantics/dirent.h"
#include "semantics/files.h"
#include "report/fields.h"
#include "report/emit.h"
#include "report/svgchart.h"

/* ---- the log (describe_log.c) -------------------------------------- */

/* "clean" (a totally zeroed log too, as the kernel mounts it) or "dirty". */
const char *xls_log_state_name(enum xls_log_state s);

/* Input, log geometry, head and tail: what info and stats begin with. */
void xls_describe_geometry(const struct xls_source *src, const struct xls_log *log,
			   const struct xls_head_tail *ht, struct xls_fieldset *fs);

/* What a scan of tail..head counted (info), and the findings reported. */
void xls_describe_scan_totals(const struct xls_scan_totals *tot, uint64_t findings,
			      struct xls_fieldset *fs);

/* One log record and what its op walk found. */
void xls_describe_record(const struct xls_rec *rec, const struct xls_rec_summary *s,
			 struct xls_fieldset *fs);

/* A stale boundary, as a text line (@nblks: the log's length in blocks). */
void xls_print_stale_gap(struct xls_out *o, const struct xls_stale_gap *g, uint32_t nblks);
/* With --stale: the line that says which part of the log follows. */
void xls_print_part_banner(struct xls_out *o, const struct xls_head_tail *ht, bool stale);

/* One transaction as it ended. */
void xls_describe_trans(const struct xls_trans *t, struct xls_fieldset *fs);
/* trans's text: "trans 0x...  lsn c/b", and the line that ends it. */
void xls_print_trans_begin(struct xls_out *o, const struct xls_trans *t);
void xls_print_trans_end(struct xls_out *o, const struct xls_trans *t);

/*
 * Text, -v: a buffer's dirty map as a line of characters, its regions
 * (offset, length, chunks) and, with @splits, its split points.
 */
void xls_print_regions(struct xls_out *o, const struct xls_buf_format *blf,
		       const struct xls_region_result *r, bool splits);

/* Where a stale walk stopped trusting the log (kind "stale_gap"). */
void xls_describe_stale_gap(const struct xls_stale_gap *g, struct xls_fieldset *fs);

/* A finding of any stage: kind, lsn, rec_blk, offset, tid, msg. */
void xls_describe_finding(const struct xls_finding *f, struct xls_fieldset *fs);

/* ---- items (describe_item.c) -------------------------------------- */

/*
 * "item" (type name or "unknown"), "type_code", "size", "regions", the
 * family's fields, and "finding" when a check failed (then returns 1).
 */
int xls_describe_item(const struct xls_item_decoded *d, struct xls_fieldset *fs);
/* trans's text line of item @d, the @index'th of its transaction, @fs described. */
void xls_print_item(struct xls_out *o, uint32_t index, const struct xls_item_decoded *d,
		    const struct xls_fieldset *fs);

/* xls_item_decode(), then xls_describe_item(). */
int xls_describe_raw_item(const struct xls_item *it, struct xls_fieldset *fs);

/* ---- buffers (describe_buf.c) ------------------------------------- */

/* The fields of bufs: blkno, len, type, ..., log_cost, problems. */
void xls_describe_buf(const struct xls_buf_analysis *ba, struct xls_fieldset *fs);

/*
 * bufs -v: region_list, split_list, data_map and region_lens of @ba,
 * analysed from @it; both must live until @fs is written.
 */
void xls_describe_buf_regions(const struct xls_buf_analysis *ba,
			      const struct xls_item *it, struct xls_fieldset *fs);

/*
 * Who owns a buffer: JSON and CSV owner (kind), btree, agno, owner_ino,
 * ino_first, ino_last, owner_from; text one owner field ("dir 0x83").
 */
void xls_describe_owner(const struct xls_owner *o, bool text, struct xls_fieldset *fs);

/* An entry of a logged region, for a list field. */
struct xls_dirent_field {
	uint32_t	offset;
	uint64_t	ino;
	const char	*name;
};

/*
 * bufs -v: "dirents", the directory entries whole inside logged regions:
 * all of them, as a 64 KiB directory block holds at most 4096 (16 bytes is
 * the smallest entry, xfs_dir2_data_entsize).
 */
#define XLS_DIRENTS_LIST_MAX	4096
void xls_describe_dirents(const struct xls_dirent_field *e, uint32_t n,
			  struct xls_fieldset *fs);
/* bufs --svg: a buffer drawn, the @panel'th. */
struct xls_svg_panel {
	uint32_t	panel;
	int64_t		blkno;
	uint32_t	len;		/* bytes */
	const char	*type;
	uint32_t	appearances;
};
void xls_describe_svg_panel(const struct xls_svg_panel *p, struct xls_fieldset *fs);
void xls_print_svg_panel(struct xls_out *o, const struct xls_svg_panel *p);
/* bufs -v: the directory entries logged in a buffer, a line each, under its regions. */
void xls_print_dirents(struct xls_out *o, const struct xls_dirent_field *d, uint32_t n);

/* ---- statistics (describe_stats.c) -------------------------------- */

/*
 * The kinds of the rows of stats and compare: a value the emitter tests,
 * never a name matched back; xls_row_kind_record() gives the kind of its
 * record.
 */
enum xls_row_kind {
	XLS_ROW_TOTAL, XLS_ROW_BYTES, XLS_ROW_ITEMS, XLS_ROW_BUFTYPE, XLS_ROW_HISTOGRAM,
	XLS_ROW_RELOG, XLS_ROW_CHECKPOINT_DIST, XLS_ROW_COST_MODEL, XLS_ROW_COST_BUFTYPE,
	XLS_ROW_HOT, XLS_ROW_HOT_BYTES,
	XLS_ROW_COMPARE_TOTAL, XLS_ROW_COMPARE_BYTES, XLS_ROW_COMPARE_TYPE,
	XLS_ROW_COMPARE_BUFTYPE, XLS_ROW_COMPARE_ITEMS,
	XLS_ROW_KINDS
};

const struct xls_record_kind *xls_row_kind_record(enum xls_row_kind kind);

/* A titled text table of the rows of one kind (stats, compare). */
struct xls_section {
	enum xls_row_kind		kind;
	const char			*title;
	const struct xls_column		*cols;
	unsigned int			ncols;
};

#define XLS_SECTION(k, t, c) { k, t, c, sizeof(c) / sizeof(c[0]) }
/* A titled block of "key value" lines, one row's fields (a total). */
#define XLS_SECTION_PAIRS(k, t) { k, t, NULL, 0 }

/*
 * Print @fs, a row of @kind, in its section of @secs: the title (after a
 * blank line but for the first section) and the heading first when the
 * section changes (*@current, which starts NULL).  Returns false when no
 * section has that kind.
 */
bool xls_print_section_row(struct xls_out *o, const struct xls_section *secs, size_t nsecs,
			   const struct xls_section **current, enum xls_row_kind kind,
			   const struct xls_fieldset *fs);

/* Called for each row of a report, with the row's kind. */
/* @fs is the emitter's to add to (a command's own keys) before it writes it. */
typedef void (*xls_describe_emit_fn)(void *ctx, enum xls_row_kind kind,
				     struct xls_fieldset *fs);

/*
 * The statistics as rows: "total", then "bytes", "items", "buftype",
 * "histogram", and the @top hottest buffers as "hot" and "hot_bytes".
 */
void xls_describe_stats(const struct xls_stats *st, unsigned int top,
			xls_describe_emit_fn emit, void *ctx);

/* ---- the audit (describe_audit.c) -------------------------------- */

/*
 * One checkpoint: seq, tid, lsn, commit_lsn, ..., its relog split and cost.
 * Returns its items_by_type field, for a text that lists it apart; NULL
 * when it did not fit.
 */
const struct xls_field *xls_describe_ckpt(const struct xls_ckpt *ck, struct xls_fieldset *fs);
/* checkpoints -v: where the bytes went, the items by type (@types), the relog split. */
void xls_print_ckpt_detail(struct xls_out *o, const struct xls_ckpt *ck,
			   const struct xls_field *types);

/* first_bytes, changed_bytes, unchanged_bytes, unchanged_pct. */
void xls_describe_relog_split(const struct xls_relog_split *sp, struct xls_fieldset *fs);

/* The relog split of a log, inode items too, and what the bounds made of it. */
void xls_describe_relog(const struct xls_stats_relog *r, struct xls_fieldset *fs);
/* checkpoints' text: that split (@fs) of @nckpts checkpoints of the @scope. */
void xls_print_relog(struct xls_out *o, uint64_t nckpts, const char *scope,
		     const struct xls_fieldset *fs);

/* The cost model's figures over @items buffer items. */
void xls_describe_cost(uint64_t items, const struct xls_cost *c,
		       const struct xls_shadow_count *sh, struct xls_fieldset *fs);

/*
 * What the charts of @st are drawn from, named @name (which, and @st,
 * must live as long as @out); 0, or -1 when out of memory.  Release it.
 */
int xls_describe_chart_log(const struct xls_stats *st, const char *name,
			   struct xls_chart_log *out);
void xls_describe_chart_log_release(struct xls_chart_log *l);

/* "record_headers_bytes", ...: a checkpoint's key for a byte category. */
const char *xls_byte_category_key(enum xls_byte_category c);

/*
 * Two logs' statistics side by side (describe_compare.c): "compare_total",
 * then "compare_bytes", "compare_buftype" and "compare_items" rows.
 */
void xls_describe_compare(const struct xls_stats *a, const struct xls_stats *b,
			  const char *name_a, const char *name_b,
			  xls_describe_emit_fn emit, void *ctx);

/* ---- recovery (describe_recover.c) ------------------------------- */

/* An entry of the cancel table after pass 1. */
void xls_describe_rcancel(const struct xls_rcancel *cn, struct xls_fieldset *fs);

/* A transaction as recovery treats it (JSON "rtrans"). */
void xls_describe_rtrans(const struct xls_rtrans *rt, struct xls_fieldset *fs);

/* An item in recovery order with its decision (JSON "ritem"). */
void xls_describe_ritem(const struct xls_trans *t, const struct xls_ritem *ri,
			struct xls_fieldset *fs);

/* The one CSV layout of recover: buffer items only. */
void xls_describe_ritem_csv(const struct xls_rtrans *rt, const struct xls_ritem *ri,
			    struct xls_fieldset *fs);

/* The columns of recover's text table. */
void xls_describe_ritem_row(const struct xls_ritem *ri, struct xls_fieldset *fs);

/* Work recovery would finish: an intent without its done item, an AGI bucket. */
void xls_describe_rintent(const struct xls_rintent *in, struct xls_fieldset *fs);

void xls_describe_rsummary(const struct xls_recover_summary *s, struct xls_fieldset *fs);
/* A write-back of the delwri list with kernel warnings or a failure. */
void xls_describe_rwriteback(const struct xls_rwriteback *wb, struct xls_fieldset *fs);

/*
 * recover's text.  A transaction's line (replayed: its LSNs, order, items
 * and the write-back its new LSN starts; else why recovery drops it); the
 * lines under an item's row (a compound's segment, kernel warnings,
 * failures, di_next_unlinked, with @verbose its dirty map); a write-back
 * that warns or fails; an intent left to finish, under its heading when
 * @first.
 */
void xls_print_rtrans(struct xls_out *o, const struct xls_rtrans *rt);
void xls_print_ritem_notes(struct xls_out *o, const struct xls_ritem *ri, bool verbose);
/* Of those, the kernel's warning and the failures, @indent spaces in (history). */
void xls_print_ritem_warnings(struct xls_out *o, const struct xls_ritem *ri, int indent);
void xls_print_rwriteback(struct xls_out *o, const struct xls_rwriteback *wb);
void xls_print_rintent(struct xls_out *o, const struct xls_rintent *in, bool first);
/* flag_names of a buffer's blf_flags: "inode_buf|cancel", "" for none. */
void xls_describe_blf_flag_names(uint16_t flags, struct xls_fieldset *fs);

/* replay: what was written, where, and what was done after recovery. */
struct xls_replay_outcome {
	const char			*out;		/* the copy, or DEV in place */
	bool				in_place;
	const char			*log_out;	/* the external log's copy, or NULL */
	const struct xls_replay_counts	*count;
	const struct xls_rbufid		*failed;	/* the first XLS_REPLAY_FAILED_KEPT */
	bool				counters;	/* superblock counters summed */
	bool				log_cleaned;
	/* pass 3: done here (what it did), or why not when work is left */
	bool				pass3_done;
	const char			*pass3_not;
	const struct xls_pass3_result	*pass3;
	const char			*next;		/* what the user must do next, or NULL */
};
void xls_describe_replay(const struct xls_replay_outcome *r, struct xls_fieldset *fs);
/* replay's text after the verdict; @mount_fails_after: the verdict's. */
void xls_print_replay(struct xls_out *o, const struct xls_replay_outcome *r,
		      bool mount_fails_after);

/* ---- history (describe_history.c) --------------------------------- */

/* history: a buffer item of the buffer, in recovery order or discarded. */
void xls_describe_appearance(const struct xls_trans *t, uint32_t seq,
			     const struct xls_ritem *ri, bool discarded,
			     struct xls_fieldset *fs);

/*
 * history --stale: an item of the buffer before the tail, which recovery
 * never reads: what it logged, and whether its transaction committed.
 */
struct xls_stale_appearance {
	uint32_t	tid;
	uint64_t	lsn;
	uint32_t	index;
	uint32_t	len_bb;
	const char	*type;		/* buffer type, or "inode" */
	uint16_t	blf_flags;
	uint32_t	regions;
	uint64_t	dirty_bytes;
	double		dirty_pct;
	bool		committed;
};

void xls_describe_stale_appearance(const struct xls_stale_appearance *a,
				   struct xls_fieldset *fs);

/* history: an inode or icreate item that writes into the buffer. */
void xls_describe_other_appearance(const struct xls_geometry *g,
				   const struct xls_trans *t, uint32_t seq,
				   const struct xls_ritem *ri, struct xls_fieldset *fs);

/* history --diff: the chunks replay changes (@ranges live until written). */
const struct xls_field *xls_describe_diff(int64_t blkno, uint32_t nchunks, uint32_t changed,
					  const struct xls_image_range *ranges, uint32_t nranges,
					  struct xls_fieldset *fs);

/*
 * history's text: the heading of the appearances of @blkno (@stale: those
 * before the tail) and its table; a row (an appearance's fields); the
 * line when there is none.
 */
void xls_print_appearances_heading(struct xls_out *o, int64_t blkno, bool stale);
void xls_print_appearance(struct xls_out *o, const struct xls_fieldset *fs);
void xls_print_no_appearance(struct xls_out *o);
/*
 * Under an appearance's row: the buffer's write at @wb->lsn warns for
 * want of a verifier (@noops) or fails the write verifier.
 */
void xls_print_appearance_writeback(struct xls_out *o, const struct xls_rwriteback *wb,
				    int64_t blkno, bool noops);
/* --replay wrote @bytes of @im to @path. */
void xls_print_replayed_buffer(struct xls_out *o, const struct xls_image *im, const char *path,
			       uint32_t bytes);
/*
 * --diff: @changed of @nchunks differ, in @n ranges @r, listed as field
 * @ranges (xls_describe_diff()); @absent bytes of the block on disk are
 * absent from the metadump.
 */
void xls_print_diff(struct xls_out *o, uint32_t nchunks, uint32_t changed,
		    const struct xls_image_range *r, uint32_t n, const struct xls_field *ranges,
		    uint64_t absent);
/* --svg (history, bufs) wrote the heat map of @n @what(s) to @path, after a blank line if @blank. */
void xls_print_heat_map_written(struct xls_out *o, bool blank, uint32_t n, const char *what,
				const char *path);

/* ---- semantics (describe_semantics.c) ----------------------------- */

/* lost: the summary, each entry, inode and what is listed apart. */
void xls_describe_lost_summary(const struct xls_lost_summary *s, struct xls_fieldset *fs);
/* lost's text: the summary's sentences, then the verdict of a log in @state. */
void xls_print_lost_summary(struct xls_out *o, const struct xls_lost_summary *s,
			    enum xls_log_state state);
/* The parts of lost's text after the summary, each a table under its title. */
enum xls_lost_part {
	XLS_LOST_DIRENTS,
	XLS_LOST_INODES,
	XLS_LOST_FOUND,
	XLS_LOST_XATTRS,
	XLS_LOST_NPARTS
};
void xls_print_lost_heading(struct xls_out *o, enum xls_lost_part part);
void xls_print_lost_row(struct xls_out *o, enum xls_lost_part part, const struct xls_fieldset *fs);
/* The last part: what is listed apart, under its title when @first. */
void xls_print_lost_apart(struct xls_out *o, const struct xls_lost_apart *a, bool first);
void xls_describe_lost_dirent(const struct xls_lost_dirent *d, struct xls_fieldset *fs);
void xls_describe_lost_inode(const struct xls_lost_inode *in, struct xls_fieldset *fs);
void xls_describe_lost_xattr(const struct xls_lost_xattr *x, struct xls_fieldset *fs);
void xls_describe_lost_found(const struct xls_lost_found *f, struct xls_fieldset *fs);
void xls_describe_lost_apart(const struct xls_lost_apart *a, struct xls_fieldset *fs);

/*
 * files: one event of an inode; @path when known.  Text: a detail
 * sentence instead of the separate values.
 */
void xls_describe_file_event(const struct xls_file_event *e, const char *path, bool text,
			     struct xls_fieldset *fs);

/* files: an inode that had events, where recovery leaves it. */
void xls_describe_file_summary(const struct xls_file_summary *s, struct xls_fieldset *fs);

/* The columns of each CSV stream (report/csv_layouts.c). */
extern const struct xls_csv_layout xls_csv_info, xls_csv_info_md, xls_csv_records,
	xls_csv_trans, xls_csv_bufs, xls_csv_bufs_stale, xls_csv_stats_types,
	xls_csv_stats_types_stale, xls_csv_ritem, xls_csv_rsummary, xls_csv_rsummary_md,
	xls_csv_appearance, xls_csv_appearance_stale, xls_csv_lost, xls_csv_files,
	xls_csv_files_stale, xls_csv_checkpoints, xls_csv_checkpoints_stale, xls_csv_compare;

#endif /* XLS_DESCRIBE_H */
