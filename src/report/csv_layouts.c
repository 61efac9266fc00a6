/*
 * Report stage: the columns of every CSV stream, declared before its first
 * row (report/emit.h, struct xls_csv_layout).  Each list names the keys
 * that the describe function of its records writes, in the order it writes
 * them, with the keys it writes only sometimes (they stay empty
 * otherwise); a key missing here is reported as an internal error when
 * the stream ends, and the tests check that none is.
 */
#include "report/describe.h"
#include "report/emit.h"

#define LAYOUT(name, long_form, ...)						\
	static const char *const name##_keys[] = { __VA_ARGS__ };		\
	const struct xls_csv_layout name = {					\
		name##_keys, sizeof(name##_keys) / sizeof(name##_keys[0]), long_form, \
	}

/* xls_describe_geometry + xls_describe_scan_totals */
#define INFO_KEYS \
	"input", "log_location", "log_offset", "log_bbs", "log_fsblocks", "log_bytes", "sector_size", \
	"log_sunit", "log_version", "log_byte_order", "crc", "uuid", "sb_version", "block_size", "dblocks", \
	"sb_lsn", \
	"state", "log_zeroed", "head_blk", "tail_blk", "last_lsn", "tail_lsn", \
	"active_bbs", "torn_head", "torn_from_blk", "tail_moved", "records", \
	"records_wrapped", "crc_bad", "crc_zero", "bad_headers", "bad_cycle_records", \
	"uuid_mismatch", "trans_committed", "trans_incomplete", "trans_corrupt", \
	"unmount_records", "items", "findings"
LAYOUT(xls_csv_info, false, INFO_KEYS);

/* the same of a compressed input or a metadump: what it is, at the end */
LAYOUT(xls_csv_info_md, false, INFO_KEYS,
       "compression", "log_compression", "spool_bytes", "metadump_version",
       "metadump_obfuscated", "metadump_full_blocks", "metadump_dirty_log",
       "metadump_external_log", "metadump_rt_device", "metadump_log_cleared",
       "metadump_extents", "metadump_bytes", "metadump_overlap_bytes", "metadump_log_missing");

/* xls_describe_record */
LAYOUT(xls_csv_records, false,
       "lsn", "blk", "cycle", "version", "h_len", "h_size", "hblks", "data_blks", "ops",
       "ops_walked", "unused", "tail_lsn", "prev_block", "h_crc", "crc_calc", "crc_status",
       "wrapped", "bad_cycle_blocks", "notes");

/* trans: items of every type and transactions, one row per field */
LAYOUT(xls_csv_trans, true, "tid", "lsn", "index", "item");

/* bufs: the item's place, then xls_describe_buf */
#define BUF_KEYS \
	"blkno", "len", "type", "flag_names", "map_size", "regions", \
	"runs", "split_runs", "dirty_bytes", "dirty_pct", "data_bytes", "log_cost", \
	"problems", "finding", "owner", "btree", "agno", "owner_ino", "ino_first", \
	"ino_last", "owner_from"
LAYOUT(xls_csv_bufs, false, "tid", "lsn", "index", BUF_KEYS);
/* bufs --stale: whether the item lies before the tail */
LAYOUT(xls_csv_bufs_stale, false, "tid", "lsn", "index", "stale", BUF_KEYS);

/* stats: the buffer type table (xls_describe_type_row) */
#define STATS_TYPE_KEYS \
       "type", "len", "count", "dirty_pct_mean", "dirty_pct_median", "dirty_pct_p90", \
       "regions_mean", "runs_mean", "split_runs", "dirty_bytes", "bytes_logged", "committed_items", \
       "first_bytes", "changed_bytes", "unchanged_bytes", "unchanged_pct"
LAYOUT(xls_csv_stats_types, false, STATS_TYPE_KEYS);
/* stats --stale: the table of each part, whether it is the stale one last */
LAYOUT(xls_csv_stats_types_stale, false, STATS_TYPE_KEYS, "stale");

/* recover: xls_describe_ritem_csv, every item; a buffer's columns empty for the others */
LAYOUT(xls_csv_ritem, false,
       "tid", "lsn", "seq", "order", "index", "item", "list", "blkno", "len", "type", "flag_names",
       "ino", "ino_blkno", "ino_boffset", "id", "decision", "decision_text", "reason", "block_magic", "block_lsn", "cancel_refs",
       "compound", "seg", "nseg", "seg_offset", "kernel_warning", "fail_why", "write_fails",
       "detail", "owner", "btree", "agno", "owner_ino", "ino_first", "ino_last",
       "owner_from");

/* recover --summary: xls_describe_rsummary (its verdict: xls_describe_verdict) */
#define RSUMMARY_KEYS \
	"recovery_fails", "fail_lsn", "fail_stage", "fail_cause", "kernel_error", \
	"kernel_error_name", "kernel_says", "fail_why", "next_step", "trans_replayed", \
	"trans_discarded", "trans_corrupt", "kernel_warnings", "pending_work", "torn_records", \
	"torn_lsn", "torn_commits", "torn_tids", "log_byte_order", "no_data_device", "approximate", \
	"mount_fails_after", \
	"items", \
	"buffers", "replay", "replay_always", "always_v4", "always_inode_buf", \
	"always_dquot_buf", "always_attr_rmt", "always_unknown_magic", "always_foreign_uuid", \
	"always_rt_no_header", "always_lsn_null", "always_unread", "skip_cancelled", \
	"skip_lsn", "cancel", "skip_quotaoff", "fail", "cancel_table_entries", \
	"cancel_table_refs", "compound_buffers", "compound_segments", "unlinked_fields", \
	"buffers_touched", "dry_run_trans_replayed", "dry_run_items", "dry_run_buffers", \
	"dry_run_kernel_warnings"
LAYOUT(xls_csv_rsummary, false, RSUMMARY_KEYS);
/* of a metadump: what was decided on blocks it lacks, at the end */
LAYOUT(xls_csv_rsummary_md, false, RSUMMARY_KEYS, "fail_block_absent", "absent_reads");

/* history: xls_describe_appearance, xls_describe_other_appearance */
#define APPEARANCE_KEYS \
	"seq", "tid", "lsn", "index", "len", "type", "flag_names", "regions", "dirty_bytes", \
	"dirty_pct", "cancel_refs", "committed", "decision", "decision_text", "reason", \
	"block_lsn", "kernel_warning", "detail", "write_fails", "owner", "btree", "agno", \
	"owner_ino", "ino_first", "ino_last", "owner_from"
LAYOUT(xls_csv_appearance, false, APPEARANCE_KEYS);
/* history --stale: xls_describe_stale_appearance first, whether stale before each */
LAYOUT(xls_csv_appearance_stale, false, "stale", APPEARANCE_KEYS);

/*
 * lost: every record, its kind in the first column: lost_dirent (path: of
 * the directory), lost_inode, lost_found, lost_xattr (path: of the inode),
 * apart
 */
LAYOUT(xls_csv_lost, false, "record", "dir", "path", "name", "ino", "op", "what", "mode",
       "changes", "parent", "apart", "tid", "lsn", "id");

/* files: xls_describe_file_event */
#define FILES_KEYS "seq", "tid", "lsn", "ino", "event", "path", "replayed", "old", "new", \
	"old_mode", "new_mode", \
	"backwards", "before_crtime", "mode", "gen", "dir", "name", "new_dir", "new_name", "startoff", \
	"startblock", "len_fsb"
LAYOUT(xls_csv_files, false, FILES_KEYS);
/* files --stale: whether the event is of the records before the tail, last */
LAYOUT(xls_csv_files_stale, false, FILES_KEYS, "stale");

/* checkpoints: xls_describe_ckpt */
#define CKPT_KEYS \
	"seq", "tid", "lsn", "commit_lsn", "th_type", "records", "log_bytes", \
	"record_headers_bytes", "extended_headers_bytes", "op_headers_bytes", \
	"trans_headers_bytes", "item_formats_bytes", "buffer_data_bytes", \
	"other_item_data_bytes", "unmount_and_untracked_bytes", "unused_record_space_bytes", \
	"padding_bytes", "items", "regions", "items_by_type", "buffers", "cancels", \
	"buffer_bytes", "dirty_bytes", "first_bytes", "changed_bytes", "unchanged_bytes", \
	"unchanged_pct", "inodes", "inode_first_bytes", "inode_changed_bytes", \
	"inode_unchanged_bytes", "inode_unchanged_pct", "unknown_bytes", "bit_steps", \
	"run_steps", "bit_offset_calls", "run_offset_calls", "shadow_allocs_exact", \
	"shadow_allocs_rounded"
LAYOUT(xls_csv_checkpoints, false, CKPT_KEYS);
/* checkpoints --stale: whether the checkpoint lies before the tail, first */
LAYOUT(xls_csv_checkpoints_stale, false, "stale", CKPT_KEYS);

/* compare: xls_describe_compare's buffer type rows */
LAYOUT(xls_csv_compare, false,
       "type", "len", "a_count", "b_count", "count_delta", "count_ratio", "a_bytes_logged",
       "b_bytes_logged", "bytes_logged_delta", "bytes_logged_ratio", "a_bytes_per_checkpoint",
       "b_bytes_per_checkpoint", "bytes_per_checkpoint_delta", "bytes_per_checkpoint_ratio",
       "a_dirty_pct_mean", "b_dirty_pct_mean", "dirty_pct_mean_delta", "a_unchanged_pct",
       "b_unchanged_pct", "unchanged_pct_delta", "a_first_pct", "b_first_pct",
       "first_pct_delta");
