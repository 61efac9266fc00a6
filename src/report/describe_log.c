/*
 * Report stage: the log itself as fields -- its geometry, head and tail,
 * each record, each transaction, and the findings of any stage.
 */
#include <stdio.h>
#include <uuid/uuid.h>

#include "base/strfmt.h"
#include "report/describe_log.h"

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
		xls_field_str(fs, XK(compression), xls_zformat_name(in->compression));
	if (in->log_compression)
		xls_field_str(fs, XK(log_compression), xls_zformat_name(in->log_compression));
	if (in->compression || in->log_compression)
		xls_field_uint(fs, XK(spool_bytes), in->spool_bytes);
	if (!md->version)
		return;
	xls_field_uint(fs, XK(metadump_version), md->version);
	if (md->flags_known) {
		xls_field_bool(fs, XK(metadump_obfuscated), md->obfuscated);
		xls_field_bool(fs, XK(metadump_full_blocks), md->full_blocks);
		xls_field_bool(fs, XK(metadump_dirty_log), md->dirty_log);
	}
	xls_field_bool(fs, XK(metadump_external_log), md->external_log);
	if (md->version >= 2)
		xls_field_bool(fs, XK(metadump_rt_device), md->rt_device);
	xls_field_bool(fs, XK(metadump_log_cleared), md->log_cleared);
	xls_field_uint(fs, XK(metadump_extents), md->extents);
	xls_field_uint(fs, XK(metadump_bytes), md->bytes);
	xls_field_uint(fs, XK(metadump_overlap_bytes), md->overlap_bytes);
	xls_field_uint(fs, XK(metadump_log_missing), in->log_missing);
}

void xls_describe_geometry(const struct xls_source *src, const struct xls_log *log,
			   const struct xls_head_tail *ht, struct xls_fieldset *fs)
{
	const struct xls_geometry *g = &src->geo;

	xls_field_str(fs, XK(input), src->path);
	describe_input(&src->input, fs);
	xls_field_str(fs, XK(log_location), !g->has_sb ? "bare" :
		      g->external ? "external" : "internal");
	xls_field_uint(fs, XK(log_offset), g->log_offset);
	xls_field_uint(fs, XK(log_bbs), g->log_bbs);
	if (g->has_sb)
		xls_field_uint(fs, XK(log_fsblocks), g->sb_logblocks);
	xls_field_uint(fs, XK(log_bytes), (uint64_t)g->log_bbs * 512);
	xls_field_uint(fs, XK(sector_size), (uint64_t)g->sect_bbs * 512);
	xls_field_uint(fs, XK(log_sunit), g->log_sunit);
	xls_field_uint(fs, XK(log_version), log->logv2 ? 2 : 1);
	xls_field_str(fs, XK(log_byte_order), xls_log_byte_order(ht->last_fmt));
	char uuid[40];

	/* a bare log has no superblock: what its last record says */
	xls_field_bool(fs, XK(crc), g->has_sb ? g->crc : ht->log_has_crc);
	uuid_unparse_lower(g->has_sb ? g->uuid : ht->log_uuid, uuid);
	xls_field_str(fs, XK(uuid), uuid);
	if (g->has_sb) {
		xls_field_uint(fs, XK(sb_version), g->sb_versionnum & XFS_SB_VERSION_NUMBITS);
		xls_field_uint(fs, XK(block_size), g->blocksize);
		xls_field_uint(fs, XK(dblocks), g->dblocks);
		if (g->crc)
			xls_field_lsn(fs, XK(sb_lsn), g->sb_lsn);
	}
	xls_field_str(fs, XK(state), xls_log_state_name(ht->state));
	xls_field_bool(fs, XK(log_zeroed), ht->state == XLS_LOG_ZEROED);
	xls_field_uint(fs, XK(head_blk), ht->head_blk);
	xls_field_uint(fs, XK(tail_blk), ht->tail_blk);
	xls_field_lsn(fs, XK(last_lsn), ht->last_lsn);
	xls_field_lsn(fs, XK(tail_lsn), ht->tail_lsn);
	xls_field_uint(fs, XK(active_bbs),
		       ht->state == XLS_LOG_ZEROED ? 0 :
		       xls_log_distance(log, ht->tail_blk, ht->head_blk));
	xls_field_bool(fs, XK(torn_head), ht->torn);
	if (ht->torn)
		xls_field_uint(fs, XK(torn_from_blk), ht->found_head_blk);
	xls_field_bool(fs, XK(tail_moved), ht->tail_moved);
}

void xls_describe_scan_totals(const struct xls_scan_totals *tot, uint64_t findings,
			      struct xls_fieldset *fs)
{
	xls_field_uint(fs, XK(records), tot->records);
	xls_field_uint(fs, XK(records_wrapped), tot->wrapped);
	xls_field_uint(fs, XK(crc_bad), tot->crc_bad);
	xls_field_uint(fs, XK(crc_zero), tot->crc_zero);
	xls_field_uint(fs, XK(bad_headers), tot->gaps);
	xls_field_uint(fs, XK(bad_cycle_records), tot->bad_stamp_records);
	xls_field_uint(fs, XK(uuid_mismatch), tot->uuid_mismatch);
	xls_field_uint(fs, XK(trans_committed), tot->trans[XLS_TRANS_COMMITTED]);
	xls_field_uint(fs, XK(trans_incomplete), tot->trans[XLS_TRANS_INCOMPLETE]);
	xls_field_uint(fs, XK(trans_corrupt), tot->trans[XLS_TRANS_CORRUPT]);
	xls_field_uint(fs, XK(unmount_records), tot->trans[XLS_TRANS_UNMOUNT]);
	xls_field_uint(fs, XK(items), tot->items);
	xls_field_uint(fs, XK(findings), findings);
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

	xls_field_lsn(fs, XK(lsn), rec->h_lsn);
	xls_field_uint(fs, XK(blk), rec->blk);
	xls_field_uint(fs, XK(cycle), rec->h_cycle);
	xls_field_uint(fs, XK(version), rec->h_version);
	xls_field_uint(fs, XK(h_len), rec->h_len);
	xls_field_uint(fs, XK(h_size), rec->h_size);
	xls_field_uint(fs, XK(hblks), rec->hblks);
	xls_field_uint(fs, XK(data_blks), rec->data_blks);
	xls_field_uint(fs, XK(ops), rec->h_num_logops);
	xls_field_uint(fs, XK(ops_walked), s->ops);
	xls_field_uint(fs, XK(unused), s->unused_bytes);
	xls_field_lsn(fs, XK(tail_lsn), rec->h_tail_lsn);
	xls_field_uint(fs, XK(prev_block), rec->h_prev_block);
	xls_field_hex(fs, XK(h_crc), rec->h_crc);
	xls_field_hex(fs, XK(crc_calc), rec->crc_calc);
	xls_field_str(fs, XK(crc_status), crc_name(rec->crc));
	xls_field_bool(fs, XK(wrapped), rec->wrapped);
	xls_field_uint(fs, XK(bad_cycle_blocks), rec->bad_stamps);
	snprintf(notes, sizeof(notes), "%s%s%s%s",
		 rec->wrapped ? "wrapped " : "",
		 rec->bad_stamps ? "bad-cycle " : "",
		 rec->uuid_mismatch ? "foreign-uuid " : "",
		 s->op_problem ? "bad-op " : "");
	xls_field_str(fs, XK(notes), notes);
}

void xls_print_stale_gap(struct xls_out *o, const struct xls_stale_gap *g, uint32_t nblks)
{
	xls_out_printf(o, "stale: log blocks %u..%u skipped (%u): %s\n", g->blk,
		       (uint32_t)(((uint64_t)g->blk + g->blks - 1) % nblks), g->blks, g->why);
}

void xls_print_part_banner(struct xls_out *o, const struct xls_head_tail *ht, bool stale)
{
	if (stale)
		xls_out_printf(o, "stale: the records before the tail, from the head (block %u) "
			       "to the tail (block %u)\n", ht->head_blk, ht->tail_blk);
	else
		xls_out_printf(o, "active: from the tail (block %u) to the head (block %u)\n",
			       ht->tail_blk, ht->head_blk);
}

void xls_describe_trans(const struct xls_trans *t, struct xls_fieldset *fs)
{
	xls_field_hex(fs, XK(tid), t->tid);
	xls_field_lsn(fs, XK(lsn), t->lsn);
	if (t->commit_lsn)
		xls_field_lsn(fs, XK(commit_lsn), t->commit_lsn);
	xls_field_str(fs, XK(state), xls_trans_state_name(t->state));
	if (t->has_header) {
		xls_field_uint(fs, XK(th_type), t->th_type);
		xls_field_uint(fs, XK(th_num_items), t->th_num_items);
	}
	xls_field_uint(fs, XK(items), t->nitems);
	xls_field_uint(fs, XK(regions), t->nregions);
	xls_field_uint(fs, XK(records), t->nrecords);
	xls_field_uint(fs, XK(op_bytes), t->op_bytes);
	xls_field_uint(fs, XK(region_bytes), t->region_bytes);
	if (t->why)
		xls_field_str(fs, XK(why), t->why);
	if (t->partial) {
		xls_field_bool(fs, XK(partial), true);
		xls_field_uint(fs, XK(skipped_ops), t->skipped_ops);
	}
}

void xls_print_trans_begin(struct xls_out *o, const struct xls_trans *t)
{
	xls_out_printf(o, "trans 0x%08x  lsn %u/%u", t->tid,
		xls_lsn_cycle(t->lsn), xls_lsn_block(t->lsn));
	if (t->has_header)
		xls_out_printf(o, "  th_num_items %u", t->th_num_items);
	if (t->stale)
		xls_out_printf(o, "  stale%s", t->partial ? ", partial: its start is lost" : "");
	xls_out_printf(o, "\n");
}

void xls_print_trans_end(struct xls_out *o, const struct xls_trans *t)
{
	xls_out_printf(o, "  end %s", xls_trans_state_name(t->state));
	if (t->commit_lsn)
		xls_out_printf(o, " at %u/%u", xls_lsn_cycle(t->commit_lsn),
			xls_lsn_block(t->commit_lsn));
	xls_out_printf(o, ": %u item%s, %u region%s, %u record%s%s%s\n",
		t->nitems, xls_plural(t->nitems), t->nregions, xls_plural(t->nregions),
		t->nrecords, xls_plural(t->nrecords),
		t->why ? ": " : "", t->why ? t->why : "");
	if (t->partial)
		xls_out_printf(o, "  the items of its first %u op%s are lost with its start\n",
			t->skipped_ops, xls_plural(t->skipped_ops));
}

void xls_describe_stale_gap(const struct xls_stale_gap *g, struct xls_fieldset *fs)
{
	xls_field_uint(fs, XK(blk), g->blk);
	xls_field_uint(fs, XK(blks), g->blks);
	if (g->lsn)
		xls_field_lsn(fs, XK(lsn), g->lsn);
	xls_field_str(fs, XK(why), g->why);
}

void xls_describe_finding(const struct xls_finding *f, struct xls_fieldset *fs)
{
	xls_field_str(fs, XK(finding), xls_finding_kind_name(f->kind));
	if (f->lsn)
		xls_field_lsn(fs, XK(lsn), f->lsn);
	xls_field_uint(fs, XK(rec_blk), f->rec_blk);
	if (f->offset >= 0)
		xls_field_uint(fs, XK(offset), (uint64_t)f->offset);
	if (f->has_tid)
		xls_field_hex(fs, XK(tid), f->tid);
	xls_field_str(fs, XK(msg), f->msg);
}
