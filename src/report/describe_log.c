/*
 * Report stage: the log itself as fields -- its geometry, head and tail,
 * each record, each transaction, and the findings of any stage.
 */
#include <stdio.h>
#include <uuid/uuid.h>

#include "report/describe.h"

const char *xls_log_state_name(enum xls_log_state s)
{
	switch (s) {
	/* the kernel mounts a totally zeroed log as clean */
	case XLS_LOG_CLEAN:
	case XLS_LOG_ZEROED:	return "clean";
	case XLS_LOG_DIRTY:	return "dirty";
	}
	return "?";
}

/* A compressed input, a metadump: what it is and what it holds. */
static void describe_input(const struct xls_input *in, struct xls_fieldset *fs)
{
	const struct xls_metadump_info *md = &in->md;

	if (in->compression)
		xls_field_str(fs, "compression", xls_zformat_name(in->compression));
	if (in->log_compression)
		xls_field_str(fs, "log_compression", xls_zformat_name(in->log_compression));
	if (in->compression || in->log_compression)
		xls_field_uint(fs, "spool_bytes", in->spool_bytes);
	if (!md->version)
		return;
	xls_field_uint(fs, "metadump_version", md->version);
	if (md->flags_known) {
		xls_field_bool(fs, "metadump_obfuscated", md->obfuscated);
		xls_field_bool(fs, "metadump_full_blocks", md->full_blocks);
		xls_field_bool(fs, "metadump_dirty_log", md->dirty_log);
	}
	xls_field_bool(fs, "metadump_external_log", md->external_log);
	if (md->version >= 2)
		xls_field_bool(fs, "metadump_rt_device", md->rt_device);
	xls_field_bool(fs, "metadump_log_cleared", md->log_cleared);
	xls_field_uint(fs, "metadump_extents", md->extents);
	xls_field_uint(fs, "metadump_bytes", md->bytes);
	xls_field_uint(fs, "metadump_overlap_bytes", md->overlap_bytes);
	xls_field_uint(fs, "metadump_log_missing", in->log_missing);
}

void xls_describe_geometry(const struct xls_source *src, const struct xls_log *log,
			   const struct xls_head_tail *ht, struct xls_fieldset *fs)
{
	const struct xls_geometry *g = &src->geo;

	xls_field_str(fs, "input", src->path);
	describe_input(&src->input, fs);
	xls_field_str(fs, "log_location", !g->has_sb ? "bare" :
		      g->external ? "external" : "internal");
	xls_field_uint(fs, "log_offset", g->log_offset);
	xls_field_uint(fs, "log_bbs", g->log_bbs);
	if (g->has_sb)
		xls_field_uint(fs, "log_fsblocks", g->sb_logblocks);
	xls_field_uint(fs, "log_bytes", (uint64_t)g->log_bbs * 512);
	xls_field_uint(fs, "sector_size", (uint64_t)g->sect_bbs * 512);
	xls_field_uint(fs, "log_sunit", g->log_sunit);
	xls_field_uint(fs, "log_version", log->logv2 ? 2 : 1);
	xls_field_str(fs, "log_byte_order", xls_log_byte_order(ht->last_fmt));
	char uuid[40];

	/* a bare log has no superblock: what its last record says */
	xls_field_bool(fs, "crc", g->has_sb ? g->crc : ht->log_has_crc);
	uuid_unparse_lower(g->has_sb ? g->uuid : ht->log_uuid, uuid);
	xls_field_str(fs, "uuid", uuid);
	if (g->has_sb) {
		xls_field_uint(fs, "sb_version", g->sb_versionnum & XFS_SB_VERSION_NUMBITS);
		xls_field_uint(fs, "block_size", g->blocksize);
		xls_field_uint(fs, "dblocks", g->dblocks);
		if (g->crc)
			xls_field_lsn(fs, "sb_lsn", g->sb_lsn);
	}
	xls_field_str(fs, "state", xls_log_state_name(ht->state));
	xls_field_bool(fs, "log_zeroed", ht->state == XLS_LOG_ZEROED);
	xls_field_uint(fs, "head_blk", ht->head_blk);
	xls_field_uint(fs, "tail_blk", ht->tail_blk);
	xls_field_lsn(fs, "last_lsn", ht->last_lsn);
	xls_field_lsn(fs, "tail_lsn", ht->tail_lsn);
	xls_field_uint(fs, "active_bbs",
		       ht->state == XLS_LOG_ZEROED ? 0 :
		       xls_log_distance(log, ht->tail_blk, ht->head_blk));
	xls_field_bool(fs, "torn_head", ht->torn);
	if (ht->torn)
		xls_field_uint(fs, "torn_from_blk", ht->found_head_blk);
	xls_field_bool(fs, "tail_moved", ht->tail_moved);
}

void xls_describe_scan_totals(const struct xls_scan_totals *tot, uint64_t findings,
			      struct xls_fieldset *fs)
{
	xls_field_uint(fs, "records", tot->records);
	xls_field_uint(fs, "records_wrapped", tot->wrapped);
	xls_field_uint(fs, "crc_bad", tot->crc_bad);
	xls_field_uint(fs, "crc_zero", tot->crc_zero);
	xls_field_uint(fs, "bad_headers", tot->gaps);
	xls_field_uint(fs, "bad_cycle_records", tot->bad_stamp_records);
	xls_field_uint(fs, "uuid_mismatch", tot->uuid_mismatch);
	xls_field_uint(fs, "trans_committed", tot->trans[XLS_TRANS_COMMITTED]);
	xls_field_uint(fs, "trans_incomplete", tot->trans[XLS_TRANS_INCOMPLETE]);
	xls_field_uint(fs, "trans_corrupt", tot->trans[XLS_TRANS_CORRUPT]);
	xls_field_uint(fs, "unmount_records", tot->trans[XLS_TRANS_UNMOUNT]);
	xls_field_uint(fs, "items", tot->items);
	xls_field_uint(fs, "findings", findings);
}

static const char *crc_name(enum xls_crc_state s)
{
	switch (s) {
	case XLS_CRC_OK:	return "ok";
	case XLS_CRC_OK_I386:	return "i386";
	case XLS_CRC_ZERO:	return "zero";
	case XLS_CRC_BAD:	return "BAD";
	}
	return "?";
}

void xls_describe_record(const struct xls_rec *rec, const struct xls_rec_summary *s,
			 struct xls_fieldset *fs)
{
	char notes[128];

	xls_field_lsn(fs, "lsn", rec->h_lsn);
	xls_field_uint(fs, "blk", rec->blk);
	xls_field_uint(fs, "cycle", rec->h_cycle);
	xls_field_uint(fs, "version", rec->h_version);
	xls_field_uint(fs, "h_len", rec->h_len);
	xls_field_uint(fs, "h_size", rec->h_size);
	xls_field_uint(fs, "hblks", rec->hblks);
	xls_field_uint(fs, "data_blks", rec->data_blks);
	xls_field_uint(fs, "ops", rec->h_num_logops);
	xls_field_uint(fs, "ops_walked", s->ops);
	xls_field_uint(fs, "unused", s->unused_bytes);
	xls_field_lsn(fs, "tail_lsn", rec->h_tail_lsn);
	xls_field_uint(fs, "prev_block", rec->h_prev_block);
	xls_field_hex(fs, "h_crc", rec->h_crc);
	xls_field_hex(fs, "crc_calc", rec->crc_calc);
	xls_field_str(fs, "crc_status", crc_name(rec->crc));
	xls_field_bool(fs, "wrapped", rec->wrapped);
	xls_field_uint(fs, "bad_cycle_blocks", rec->bad_stamps);
	snprintf(notes, sizeof(notes), "%s%s%s%s",
		 rec->wrapped ? "wrapped " : "",
		 rec->bad_stamps ? "bad-cycle " : "",
		 rec->uuid_mismatch ? "foreign-uuid " : "",
		 s->op_problem ? "bad-op " : "");
	xls_field_str(fs, "notes", notes);
}

void xls_describe_trans(const struct xls_trans *t, struct xls_fieldset *fs)
{
	xls_field_hex(fs, "tid", t->tid);
	xls_field_lsn(fs, "lsn", t->lsn);
	if (t->commit_lsn)
		xls_field_lsn(fs, "commit_lsn", t->commit_lsn);
	xls_field_str(fs, "state", xls_trans_state_name(t->state));
	if (t->has_header) {
		xls_field_uint(fs, "th_type", t->th_type);
		xls_field_uint(fs, "th_num_items", t->th_num_items);
	}
	xls_field_uint(fs, "items", t->nitems);
	xls_field_uint(fs, "regions", t->nregions);
	xls_field_uint(fs, "records", t->nrecords);
	xls_field_uint(fs, "op_bytes", t->op_bytes);
	xls_field_uint(fs, "region_bytes", t->region_bytes);
	if (t->why)
		xls_field_str(fs, "why", t->why);
	if (t->partial) {
		xls_field_bool(fs, "partial", true);
		xls_field_uint(fs, "skipped_ops", t->skipped_ops);
	}
}

void xls_describe_stale_gap(const struct xls_stale_gap *g, struct xls_fieldset *fs)
{
	xls_field_uint(fs, "blk", g->blk);
	xls_field_uint(fs, "blks", g->blks);
	if (g->lsn)
		xls_field_lsn(fs, "lsn", g->lsn);
	xls_field_str(fs, "why", g->why);
}

void xls_describe_finding(const struct xls_finding *f, struct xls_fieldset *fs)
{
	xls_field_str(fs, "finding", xls_finding_kind_name(f->kind));
	if (f->lsn)
		xls_field_lsn(fs, "lsn", f->lsn);
	xls_field_uint(fs, "rec_blk", f->rec_blk);
	if (f->offset >= 0)
		xls_field_uint(fs, "offset", (uint64_t)f->offset);
	if (f->has_tid)
		xls_field_hex(fs, "tid", f->tid);
	xls_field_str(fs, "msg", f->msg);
}
