/*
 * Report stage: the columns of every CSV stream, declared before its first
 * row (report/emit.h, struct xls_csv_layout).  Each list names, as
 * XKEY(name) of report/keys.def, the keys that the describe function of
 * its records writes, in the order it writes them, with the keys it
 * writes only sometimes (they stay empty otherwise); a key missing here
 * is reported as an internal error when the stream ends, and the tests
 * check that none is.
 */
#include "report/describe.h"
#include "report/emit.h"

#define LAYOUT(name, long_form, ...)						\
	static const struct xls_key *const name##_keys[] = { __VA_ARGS__ };		\
	const struct xls_csv_layout name = {					\
		name##_keys, sizeof(name##_keys) / sizeof(name##_keys[0]), long_form, \
	}

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

/* recover: xls_describe_ritem_csv, every item; a buffer's columns empty for the others */
LAYOUT(xls_csv_ritem, false, XKEY(tid), XKEY(lsn), XKEY(seq), XKEY(order), XKEY(index),
       XKEY(item), XKEY(list), XKEY(blkno), XKEY(len), XKEY(type), XKEY(flag_names),
       XKEY(ino), XKEY(ino_blkno), XKEY(ino_boffset), XKEY(id), XKEY(decision),
       XKEY(decision_text), XKEY(reason), XKEY(block_magic), XKEY(block_lsn),
       XKEY(cancel_refs), XKEY(compound), XKEY(seg), XKEY(nseg), XKEY(seg_offset),
       XKEY(kernel_warning), XKEY(fail_why), XKEY(write_fails), XKEY(detail),
       XKEY(owner), XKEY(btree), XKEY(agno), XKEY(owner_ino), XKEY(ino_first),
       XKEY(ino_last), XKEY(owner_from));

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

/* compare: xls_describe_compare's buffer type rows */
LAYOUT(xls_csv_compare, false, XKEY(type), XKEY(len), XKEY(a_count), XKEY(b_count),
       XKEY(count_delta), XKEY(count_ratio), XKEY(a_bytes_logged), XKEY(b_bytes_logged),
       XKEY(bytes_logged_delta), XKEY(bytes_logged_ratio), XKEY(a_bytes_per_checkpoint),
       XKEY(b_bytes_per_checkpoint), XKEY(bytes_per_checkpoint_delta),
       XKEY(bytes_per_checkpoint_ratio), XKEY(a_dirty_pct_mean), XKEY(b_dirty_pct_mean),
       XKEY(dirty_pct_mean_delta), XKEY(a_unchanged_pct), XKEY(b_unchanged_pct),
       XKEY(unchanged_pct_delta), XKEY(a_first_pct), XKEY(b_first_pct),
       XKEY(first_pct_delta));
