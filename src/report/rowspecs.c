/*
 * Report stage: the rows of every record kind, declared here and only
 * here: the columns of every CSV stream, declared before its first row
 * (report/emit.h, struct xls_csv_layout), and beside each the columns of
 * its text table, headings and widths (struct xls_table), and the sections
 * of the reports made of several tables (stats, compare).  Each list names, as
 * XKEY(name) of report/keys.def, the keys that the describe function of
 * its records writes, in the order it writes them, with the keys it
 * writes only sometimes (they stay empty otherwise); a key missing here
 * is reported as an internal error when the stream ends, and the tests
 * check that none is.
 */
#include "report/describe_stats.h"
#include "report/emit.h"
#include "report/rowspecs.h"

#define LAYOUT(name, long_form, ...)						\
	static const struct xls_key *const name##_keys[] = { __VA_ARGS__ };		\
	const struct xls_csv_layout name = {					\
		name##_keys, sizeof(name##_keys) / sizeof(name##_keys[0]), long_form, \
	}

#define TABLE(name, ...)							\
	static const struct xls_column name##_cols[] = { __VA_ARGS__ };		\
	const struct xls_table name = {						\
		name##_cols, sizeof(name##_cols) / sizeof(name##_cols[0]),		\
	}
#define NSECS(s)	(sizeof(s) / sizeof(s[0]))
#define SEC		XLS_SECTION

/* xls_describe_geometry + xls_describe_scan_totals */
#define INFO_KEYS \
	XKEY(input), XKEY(log_location), XKEY(log_offset), XKEY(log_bbs), \
	XKEY(log_fsblocks), XKEY(log_bytes), XKEY(sector_size), XKEY(log_sunit), \
	XKEY(log_version), XKEY(log_byte_order), XKEY(crc), XKEY(uuid), \
	XKEY(sb_version), XKEY(block_size), XKEY(dblocks), XKEY(sb_lsn), XKEY(state), \
	XKEY(log_zeroed), XKEY(head_blk), XKEY(tail_blk), XKEY(last_lsn), \
	XKEY(tail_lsn), XKEY(active_bbs), XKEY(torn_head), XKEY(torn_from_blk), \
	XKEY(tail_moved), XKEY(records), XKEY(records_wrapped), XKEY(crc_bad), \
	XKEY(crc_zero), XKEY(bad_headers), XKEY(bad_cycle_records), \
	XKEY(uuid_mismatch), XKEY(trans_committed), XKEY(trans_incomplete), \
	XKEY(trans_corrupt), XKEY(unmount_records), XKEY(items), XKEY(findings)
LAYOUT(xls_csv_info, false, INFO_KEYS);

/* the same of a compressed input or a metadump: what it is, at the end */
LAYOUT(xls_csv_info_md, false, INFO_KEYS, XKEY(compression), XKEY(log_compression),
       XKEY(spool_bytes), XKEY(metadump_version), XKEY(metadump_obfuscated),
       XKEY(metadump_full_blocks), XKEY(metadump_dirty_log),
       XKEY(metadump_external_log), XKEY(metadump_rt_device),
       XKEY(metadump_log_cleared), XKEY(metadump_extents), XKEY(metadump_bytes),
       XKEY(metadump_overlap_bytes), XKEY(metadump_log_missing));

/* xls_describe_record */
LAYOUT(xls_csv_records, false, XKEY(lsn), XKEY(blk), XKEY(cycle), XKEY(version),
       XKEY(h_len), XKEY(h_size), XKEY(hblks), XKEY(data_blks), XKEY(ops),
       XKEY(ops_walked), XKEY(unused), XKEY(tail_lsn), XKEY(prev_block), XKEY(h_crc),
       XKEY(crc_calc), XKEY(crc_status), XKEY(wrapped), XKEY(bad_cycle_blocks),
       XKEY(notes));
/* records: the text table */
TABLE(xls_text_records, XLS_COL(lsn, 12), XLS_COL(blk, 8), XLS_COL(h_len, 7),
      XLS_COL(hblks, 4), XLS_COL(ops, 5), XLS_COL(unused, 6), XLS_COL(tail_lsn, 12),
      XLS_COL(crc_status, 5), XLS_COL(notes, -20));

/* trans: items of every type and transactions, one row per field */
LAYOUT(xls_csv_trans, true, XKEY(tid), XKEY(lsn), XKEY(index), XKEY(item));

/* bufs: the item's place, then xls_describe_buf */
#define BUF_KEYS \
	XKEY(blkno), XKEY(len), XKEY(type), XKEY(flag_names), XKEY(map_size), \
	XKEY(regions), XKEY(runs), XKEY(split_runs), XKEY(dirty_bytes), \
	XKEY(dirty_pct), XKEY(data_bytes), XKEY(log_cost), XKEY(problems), \
	XKEY(finding), XKEY(owner), XKEY(btree), XKEY(agno), XKEY(owner_ino), \
	XKEY(ino_first), XKEY(ino_last), XKEY(owner_from)
LAYOUT(xls_csv_bufs, false, XKEY(tid), XKEY(lsn), XKEY(index), BUF_KEYS);
/* bufs --stale: whether the item lies before the tail */
LAYOUT(xls_csv_bufs_stale, false, XKEY(tid), XKEY(lsn), XKEY(index), XKEY(stale),
       BUF_KEYS);
/* bufs: the text tables */
#define BUF_COLUMNS_TEXT \
	XLS_COL(tid, 10), \
	XLS_COL(lsn, 10), \
	XLS_COL(blkno, 12), \
	XLS_COL(len, 6), \
	XLS_COL(type, -10), \
	XLS_COL(flag_names, -10), \
	XLS_COL(regions, 4), \
	XLS_COL(runs, 4), \
	XLS_COL(split_runs, 5), \
	XLS_COL(dirty_bytes, 6), \
	XLS_COL(dirty_pct, 6), \
	XLS_COL(log_cost, 6), \
	XLS_COL(owner, -24), \
	XLS_COL(problems, -1)
TABLE(xls_text_bufs, BUF_COLUMNS_TEXT);
TABLE(xls_text_bufs_stale, XLS_COL(stale, -5), BUF_COLUMNS_TEXT);

/* stats: the buffer type table (xls_describe_type_row) */
#define STATS_TYPE_KEYS \
	XKEY(type), XKEY(len), XKEY(count), XKEY(dirty_pct_mean), \
	XKEY(dirty_pct_median), XKEY(dirty_pct_p90), XKEY(regions_mean), \
	XKEY(runs_mean), XKEY(split_runs), XKEY(dirty_bytes), XKEY(bytes_logged), \
	XKEY(committed_items), XKEY(first_bytes), XKEY(changed_bytes), \
	XKEY(unchanged_bytes), XKEY(unchanged_pct)
LAYOUT(xls_csv_stats_types, false, STATS_TYPE_KEYS);
/* stats --stale: the table of each part, whether it is the stale one last */
LAYOUT(xls_csv_stats_types_stale, false, STATS_TYPE_KEYS, XKEY(stale));
/* stats: the text tables, 100 columns at most, and their sections */
static const struct xls_column stats_byte_cols[] = {
	XLS_COL(category, -24), XLS_COL(bytes, 14), XLS_COL(pct, 7),
};
static const struct xls_column stats_item_cols[] = {
	XLS_COL(item, -10), XLS_COL(count, 12),
};
static const struct xls_column stats_type_cols[] = {
	XLS_COL(type, -10), XLS_COL_AS(len, "SIZE", 6), XLS_COL(count, 9),
	XLS_COL(dirty_pct_mean, 6), XLS_COL(dirty_pct_median, 5),
	XLS_COL(dirty_pct_p90, 5), XLS_COL(unchanged_pct, 6),
	XLS_COL(regions_mean, 6),
	XLS_COL(runs_mean, 6), XLS_COL(split_runs, 6),
	XLS_COL(bytes_logged, 13),
};
static const struct xls_column stats_hist_cols[] = {
	XLS_COL(dirty_pct_bin, -7), XLS_COL(buffers, 10), XLS_COL(pct, 7),
};
static const struct xls_column stats_hot_cols[] = {
	XLS_COL(blkno, 14), XLS_COL(len, 6), XLS_COL(type, -10),
	XLS_COL(appearances, 8), XLS_COL(bytes_logged, 12),
	XLS_COL(unchanged_pct, 6),
};
static const struct xls_column stats_dist_cols[] = {
	XLS_COL(measure, -14), XLS_COL(checkpoints, 8), XLS_COL(min, 9),
	XLS_COL(p50, 9), XLS_COL(p90, 9), XLS_COL(p99, 9), XLS_COL(max, 10),
	XLS_COL(mean, 12),
};
static const struct xls_column stats_cost_cols[] = {
	XLS_COL(type, -10), XLS_COL_AS(len, "SIZE", 6), XLS_COL(items, 8),
	XLS_COL(bit_steps, 11), XLS_COL(run_steps, 10),
	XLS_COL(steps_ratio, 6), XLS_COL(bit_offset_calls, 11),
	XLS_COL(run_offset_calls, 10), XLS_COL(shadow_allocs_exact, 8),
	XLS_COL(shadow_allocs_rounded, 8),
};

static const struct xls_section stats_sections[] = {
	XLS_SECTION_PAIRS(XLS_ROW_TOTAL, "Totals"),
	XLS_SECTION_PAIRS(XLS_ROW_RELOG, "Relogged bytes: each 128-byte chunk of a committed item "
			  "against the bytes\nlast logged at its address (buffers; inode_*: inode "
			  "cores and forks)"),
	XLS_SECTION_PAIRS(XLS_ROW_COST_MODEL, "Formatting cost model, all committed buffer items"),
	SEC(XLS_ROW_BYTES, "Log bytes by category", stats_byte_cols),
	SEC(XLS_ROW_ITEMS, "Log items by type", stats_item_cols),
	SEC(XLS_ROW_BUFTYPE, "Buffers by type and size (dirty % to 1 % resolution)", stats_type_cols),
	SEC(XLS_ROW_HISTOGRAM, "Dirty % of buffers", stats_hist_cols),
	SEC(XLS_ROW_CHECKPOINT_DIST, "Distributions over checkpoints (quantiles to 1/16 of a power of two, unchanged_pct to 1 %)", stats_dist_cols),
	SEC(XLS_ROW_COST_BUFTYPE, "Formatting cost model by buffer type and size: xfs_buf_item_size+format steps\n"
	    "bit by bit (Linux <= 5.11) and run by run (5.12+); xfs_buf_offset() calls; shadow\n"
	    "log vector allocations over each buffer's checkpoints, exact and rounded up to 512", stats_cost_cols),
	SEC(XLS_ROW_HOT, "Hottest buffers, by appearances", stats_hot_cols),
	SEC(XLS_ROW_HOT_BYTES, "Hottest buffers, by bytes logged", stats_hot_cols),
};
const struct xls_sections xls_text_stats = { stats_sections, NSECS(stats_sections) };

/* recover: xls_describe_ritem_csv, every item; a buffer's columns empty for the others */
LAYOUT(xls_csv_ritem, false, XKEY(tid), XKEY(lsn), XKEY(seq), XKEY(order), XKEY(index),
       XKEY(item), XKEY(list), XKEY(blkno), XKEY(len), XKEY(type), XKEY(flag_names),
       XKEY(ino), XKEY(ino_blkno), XKEY(ino_boffset), XKEY(id), XKEY(decision),
       XKEY(decision_text), XKEY(reason), XKEY(block_magic), XKEY(block_lsn),
       XKEY(cancel_refs), XKEY(compound), XKEY(seg), XKEY(nseg), XKEY(seg_offset),
       XKEY(kernel_warning), XKEY(fail_why), XKEY(write_fails), XKEY(detail),
       XKEY(owner), XKEY(btree), XKEY(agno), XKEY(owner_ino), XKEY(ino_first),
       XKEY(ino_last), XKEY(owner_from));
/* recover: the text table of items */
TABLE(xls_text_ritem, XLS_COL(order, 5), XLS_COL(index, 5), XLS_COL(list, -6),
      XLS_COL_AS(item, "TYPE", -7), XLS_COL(blkno, 12), XLS_COL(len, 6),
      XLS_COL_AS(type, "BUFTYPE", -10), XLS_COL(decision_text, -30), XLS_COL(detail, -1));
/* recover: the cancel table (xls_describe_cancel) */
TABLE(xls_text_cancel, XLS_COL(blkno, 14), XLS_COL(len, 8), XLS_COL(refs, 6));

/* recover --summary: xls_describe_rsummary (its verdict: xls_describe_verdict) */
#define RSUMMARY_KEYS \
	XKEY(recovery_fails), XKEY(fail_lsn), XKEY(fail_stage), XKEY(fail_cause), \
	XKEY(kernel_error), XKEY(kernel_error_name), XKEY(kernel_says), \
	XKEY(fail_why), XKEY(next_step), XKEY(trans_replayed), XKEY(trans_discarded), \
	XKEY(trans_corrupt), XKEY(kernel_warnings), XKEY(pending_work), XKEY(pending_efi), \
	XKEY(pending_rui), XKEY(pending_cui), XKEY(pending_bui), XKEY(pending_xmi), \
	XKEY(pending_attri), XKEY(pending_other_intents), XKEY(pending_unlinked_buckets), \
	XKEY(pending_unlinked_inodes), XKEY(pending_unlinked_broken), \
	XKEY(pending_cow_extents), XKEY(cow_staged_ags), XKEY(quota_mount), XKEY(quota_reset), \
	XKEY(torn_records), XKEY(torn_lsn), XKEY(torn_commits), XKEY(torn_tids), \
	XKEY(log_byte_order), XKEY(no_data_device), XKEY(approximate), \
	XKEY(mount_fails_after), XKEY(items), XKEY(buffers), XKEY(replay), \
	XKEY(replay_always), XKEY(always_v4), XKEY(always_inode_buf), \
	XKEY(always_dquot_buf), XKEY(always_attr_rmt), XKEY(always_unknown_magic), \
	XKEY(always_foreign_uuid), XKEY(always_rt_no_header), XKEY(always_lsn_null), \
	XKEY(always_unread), XKEY(skip_cancelled), XKEY(skip_lsn), XKEY(cancel), \
	XKEY(skip_quotaoff), XKEY(fail), XKEY(cancel_table_entries), \
	XKEY(cancel_table_refs), XKEY(compound_buffers), XKEY(compound_segments), \
	XKEY(unlinked_fields), XKEY(buffers_touched), XKEY(dry_run_trans_replayed), \
	XKEY(dry_run_items), XKEY(dry_run_buffers), XKEY(dry_run_kernel_warnings)
LAYOUT(xls_csv_rsummary, false, RSUMMARY_KEYS);
/* of a metadump: what was decided on blocks it lacks, at the end */
LAYOUT(xls_csv_rsummary_md, false, RSUMMARY_KEYS, XKEY(fail_block_absent),
       XKEY(absent_reads));

/* history: xls_describe_appearance, xls_describe_other_appearance */
#define APPEARANCE_KEYS \
	XKEY(seq), XKEY(tid), XKEY(lsn), XKEY(index), XKEY(len), XKEY(type), \
	XKEY(flag_names), XKEY(regions), XKEY(dirty_bytes), XKEY(dirty_pct), \
	XKEY(cancel_refs), XKEY(committed), XKEY(decision), XKEY(decision_text), \
	XKEY(reason), XKEY(block_lsn), XKEY(kernel_warning), XKEY(detail), \
	XKEY(write_fails), XKEY(owner), XKEY(btree), XKEY(agno), XKEY(owner_ino), \
	XKEY(ino_first), XKEY(ino_last), XKEY(owner_from)
LAYOUT(xls_csv_appearance, false, APPEARANCE_KEYS);
/* history --stale: xls_describe_stale_appearance first, whether stale before each */
LAYOUT(xls_csv_appearance_stale, false, XKEY(stale), APPEARANCE_KEYS);

/*
 * lost: every record, its kind in the first column: lost_dirent (path: of
 * the directory), lost_inode, lost_found, lost_xattr (path: of the inode),
 * apart
 */
LAYOUT(xls_csv_lost, false, XKEY(record), XKEY(dir), XKEY(path), XKEY(name), XKEY(ino),
       XKEY(op), XKEY(what), XKEY(mode), XKEY(changes), XKEY(parent), XKEY(apart),
       XKEY(tid), XKEY(lsn), XKEY(id));

/* files: xls_describe_file_event */
#define FILES_KEYS \
	XKEY(seq), XKEY(tid), XKEY(lsn), XKEY(ino), XKEY(event), XKEY(path), \
	XKEY(replayed), XKEY(old), XKEY(new), XKEY(old_mode), XKEY(new_mode), \
	XKEY(backwards), XKEY(before_crtime), XKEY(mode), XKEY(gen), XKEY(size), XKEY(nlink), \
	XKEY(uid), XKEY(gid), XKEY(nextents), XKEY(atime), XKEY(mtime), XKEY(ctime), XKEY(dir), \
	XKEY(name), XKEY(new_dir), XKEY(new_name), XKEY(startoff), XKEY(startblock), \
	XKEY(len_fsb)
LAYOUT(xls_csv_files, false, FILES_KEYS);
/* files --stale: whether the event is of the records before the tail, last */
LAYOUT(xls_csv_files_stale, false, FILES_KEYS, XKEY(stale));
/* files: the text table of events */
TABLE(xls_text_files_events, XLS_COL(seq, 6), XLS_COL(lsn, 10), XLS_COL(ino, 12),
      XLS_COL(event, -14), XLS_COL(path, -28), XLS_COL(detail, -1));
/* files: xls_describe_file_summary, the inodes where recovery leaves them */
TABLE(xls_text_files_files, XLS_COL(ino, 12), XLS_COL(mode, 8), XLS_COL(size, 12),
      XLS_COL(nlink, 6), XLS_COL(events, 7), XLS_COL(first_seq, 7), XLS_COL(last_seq, 7),
      XLS_COL(final_path, -1));

/* checkpoints: xls_describe_ckpt */
#define CKPT_KEYS \
	XKEY(seq), XKEY(tid), XKEY(lsn), XKEY(commit_lsn), XKEY(th_type), \
	XKEY(records), XKEY(log_bytes), XKEY(record_headers_bytes), \
	XKEY(extended_headers_bytes), XKEY(op_headers_bytes), \
	XKEY(trans_headers_bytes), XKEY(item_formats_bytes), XKEY(buffer_data_bytes), \
	XKEY(other_item_data_bytes), XKEY(unmount_and_untracked_bytes), \
	XKEY(unused_record_space_bytes), XKEY(padding_bytes), XKEY(items), \
	XKEY(regions), XKEY(items_by_type), XKEY(buffers), XKEY(cancels), \
	XKEY(buffer_bytes), XKEY(dirty_bytes), XKEY(first_bytes), XKEY(changed_bytes), \
	XKEY(unchanged_bytes), XKEY(unchanged_pct), XKEY(inodes), \
	XKEY(inode_first_bytes), XKEY(inode_changed_bytes), \
	XKEY(inode_unchanged_bytes), XKEY(inode_unchanged_pct), XKEY(unknown_bytes), \
	XKEY(bit_steps), XKEY(run_steps), XKEY(bit_offset_calls), \
	XKEY(run_offset_calls), XKEY(shadow_allocs_exact), XKEY(shadow_allocs_rounded)
LAYOUT(xls_csv_checkpoints, false, CKPT_KEYS);
/* checkpoints --stale: whether the checkpoint lies before the tail, first */
LAYOUT(xls_csv_checkpoints_stale, false, XKEY(stale), CKPT_KEYS);
/* checkpoints: the text tables */
#define CKPT_COLUMNS_TEXT \
	XLS_COL(seq, 7), XLS_COL(tid, 10), XLS_COL_AS(lsn, "START", 11), \
	XLS_COL(commit_lsn, 11), XLS_COL(records, 4), \
	XLS_COL(log_bytes, 9), XLS_COL(items, 5), XLS_COL_AS(buffers, "BUFS", 5), \
	XLS_COL(buffer_bytes, 10), XLS_COL(dirty_bytes, 8), \
	XLS_COL(unchanged_pct, 6), XLS_COL(inode_unchanged_pct, 6)
TABLE(xls_text_checkpoints, CKPT_COLUMNS_TEXT);
TABLE(xls_text_checkpoints_stale, XLS_COL(stale, -5), CKPT_COLUMNS_TEXT);

/* compare: xls_describe_compare's buffer type rows */
LAYOUT(xls_csv_compare, false, XKEY(type), XKEY(len), XKEY(a_count), XKEY(b_count),
       XKEY(count_delta), XKEY(count_ratio), XKEY(a_bytes_logged), XKEY(b_bytes_logged),
       XKEY(bytes_logged_delta), XKEY(bytes_logged_ratio), XKEY(a_bytes_per_checkpoint),
       XKEY(b_bytes_per_checkpoint), XKEY(bytes_per_checkpoint_delta),
       XKEY(bytes_per_checkpoint_ratio), XKEY(a_dirty_pct_mean), XKEY(b_dirty_pct_mean),
       XKEY(dirty_pct_mean_delta), XKEY(a_unchanged_pct), XKEY(b_unchanged_pct),
       XKEY(unchanged_pct_delta), XKEY(a_first_pct), XKEY(b_first_pct),
       XKEY(first_pct_delta));
/* compare: the text tables and their sections */
static const struct xls_column compare_bytes_cols[] = {
	XLS_COL_AS(category, "CATEGORY / CHECKPOINT", -24),
	XLS_COL_AS(a_bytes_per_checkpoint, "A", 12), XLS_COL_AS(b_bytes_per_checkpoint, "B", 12),
	XLS_COL(bytes_per_checkpoint_delta, 12), XLS_COL(bytes_per_checkpoint_ratio, 7),
};
static const struct xls_column compare_type_cols[] = {
	XLS_COL(type, -10), XLS_COL_AS(len, "SIZE", 6), XLS_COL(a_count, 8),
	XLS_COL(b_count, 8), XLS_COL(a_bytes_per_checkpoint, 10),
	XLS_COL(b_bytes_per_checkpoint, 10), XLS_COL(bytes_per_checkpoint_ratio, 7),
	XLS_COL(a_dirty_pct_mean, 7), XLS_COL(b_dirty_pct_mean, 7),
	XLS_COL(a_unchanged_pct, 6), XLS_COL(b_unchanged_pct, 6),
};
static const struct xls_column compare_type_total_cols[] = {
	XLS_COL(type, -10), XLS_COL(a_count, 8),
	XLS_COL(b_count, 8), XLS_COL(a_bytes_per_checkpoint, 10),
	XLS_COL(b_bytes_per_checkpoint, 10), XLS_COL(bytes_per_checkpoint_ratio, 7),
	XLS_COL(a_dirty_pct_mean, 7), XLS_COL(b_dirty_pct_mean, 7),
	XLS_COL(a_unchanged_pct, 6), XLS_COL(b_unchanged_pct, 6),
};
static const struct xls_column compare_item_cols[] = {
	XLS_COL(item, -10), XLS_COL_AS(a_count, "A", 10), XLS_COL_AS(b_count, "B", 10),
	XLS_COL(count_delta, 10), XLS_COL(a_per_checkpoint, 8),
	XLS_COL(b_per_checkpoint, 8), XLS_COL(per_checkpoint_ratio, 7),
};

static const struct xls_section compare_sections[] = {
	XLS_SECTION_PAIRS(XLS_ROW_COMPARE_TOTAL, "Journals (a_: A, b_: B; ratios are B over A)"),
	SEC(XLS_ROW_COMPARE_BYTES, "Log bytes per checkpoint by category", compare_bytes_cols),
	SEC(XLS_ROW_COMPARE_BUFTYPE, "Buffers by type and size: count, log bytes per checkpoint, "
	    "dirty %, unchanged %", compare_type_cols),
	SEC(XLS_ROW_COMPARE_TYPE, "Buffers by type, every size together", compare_type_total_cols),
	SEC(XLS_ROW_COMPARE_ITEMS, "Log items by type, and per checkpoint", compare_item_cols),
};
const struct xls_sections xls_text_compare = { compare_sections, NSECS(compare_sections) };
