/*
 * Report stage: what recovery does (recover/recover.h) as fields -- the
 * cancel table, transactions, items with their decisions, the work left
 * after replay, the summary, what replay wrote; recover's and replay's text
 * lines besides their table rows.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/strfmt.h"
#include "report/describe_recover.h"
#include "report/verdict.h"

void xls_describe_rcancel(const struct xls_rcancel *cn, struct xls_fieldset *fs)
{
	xls_field_hex(fs, XK(blkno), (uint64_t)cn->blkno);
	xls_field_uint(fs, XK(len), (uint64_t)cn->len * 512);
	xls_field_uint(fs, XK(refs), cn->refs);
}

void xls_describe_rtrans(const struct xls_rtrans *rt, struct xls_fieldset *fs)
{
	const struct xls_trans *t = rt->t;

	xls_field_hex(fs, XK(tid), t->tid);
	xls_field_lsn(fs, XK(lsn), t->lsn);
	if (t->commit_lsn)
		xls_field_lsn(fs, XK(commit_lsn), t->commit_lsn);
	xls_field_str(fs, XK(state), xls_trans_state_name(t->state));
	xls_field_str(fs, XK(outcome), rt->replayed ? "replayed" :
		      t->state == XLS_TRANS_CORRUPT ? "corrupt" : "discarded");
	xls_field_uint(fs, XK(seq), rt->seq);
	xls_field_uint(fs, XK(items), rt->nitems);
	xls_field_uint(fs, XK(buffers_written_first), rt->flushed);
	if (t->why)
		xls_field_str(fs, XK(why), t->why);
}

void xls_describe_blf_flag_names(uint16_t flags, struct xls_fieldset *fs)
{
	char buf[96];

	xls_blf_flags_str(flags, buf, sizeof(buf));
	xls_field_str(fs, XK(flag_names), strcmp(buf, "0") == 0 ? "" : buf);
}

static void decision_text_field(const struct xls_ritem *ri, struct xls_fieldset *fs)
{
	xls_field_str(fs, XK(decision_text), xls_rdecision_text(ri));
}

static void unlinked_text(const void *elem, char *buf, size_t bufsz)
{
	const struct xls_runlinked *u = elem;

	snprintf(buf, bufsz, "%u:0x%x", u->slot, u->value);
}

static const struct xls_member unlinked_members[] = {
	XLS_MEMBER(slot, uint, struct xls_runlinked, slot),
	XLS_MEMBER(offset, uint, struct xls_runlinked, offset),
	XLS_MEMBER(value, hex, struct xls_runlinked, value),
	XLS_MEMBER(readable, bool, struct xls_runlinked, readable),
};

static const struct xls_list unlinked_list = {
	unlinked_members, 4, sizeof(struct xls_runlinked), unlinked_text, " ", NULL,
};

static void rbuf_fields(const struct xls_rbuf *b, struct xls_fieldset *fs)
{
	xls_field_hex(fs, XK(blkno), (uint64_t)b->blkno);
	xls_field_uint(fs, XK(len), (uint64_t)b->len * 512);
	xls_field_str(fs, XK(type), xls_blft_name(b->blft));
	xls_describe_blf_flag_names(b->blf_flags, fs);
	xls_field_uint(fs, XK(regions), b->res->nregions);
	xls_field_real(fs, XK(dirty_pct), b->dirty_pct);
	xls_field_str(fs, XK(block_state), !b->block_read ? "unread" :
		      b->from_replay ? "replayed" : b->block_absent ? "absent" : "disk");
	if (b->magic_name && b->magic_name[0])
		xls_field_str(fs, XK(block_magic), b->magic_name);
	if (b->has_lsn)
		xls_field_lsn(fs, XK(block_lsn), b->block_lsn);
	xls_field_uint(fs, XK(cancel_refs), b->cancel_refs);
	if (b->kernel_warning)
		xls_field_str(fs, XK(kernel_warning), b->kernel_warning);
	if (b->compound) {
		xls_field_uint(fs, XK(compound), b->compound);
		xls_field_uint(fs, XK(seg), b->seg);
		xls_field_uint(fs, XK(nseg), b->nseg);
		xls_field_uint(fs, XK(block_bytes), b->block_bytes);
		xls_field_uint(fs, XK(seg_offset), b->seg_offset);
		xls_field_bool(fs, XK(seg_offset_exact), b->seg_offset_exact);
		xls_field_bool(fs, XK(block_start), b->block_start);
		if (b->seg_note)
			xls_field_str(fs, XK(seg_note), b->seg_note);
	}
	if (b->nunlinked)
		xls_field_list(fs, XK(unlinked), &unlinked_list, b->unlinked, b->nunlinked);
}

static const char *item_name(uint16_t type)
{
	const char *name = xls_item_type_name(type);

	return name ? name : "unknown";
}

/* The inode an inode item names, with where it lies, or a dquot item's id. */
static void ritem_target_fields(const struct xls_ritem *ri, struct xls_fieldset *fs)
{
	if (ri->has_ino) {
		xls_field_hex(fs, XK(ino), ri->ino);
		xls_field_hex(fs, XK(ino_blkno), (uint64_t)ri->ino_blkno);
		xls_field_uint(fs, XK(ino_boffset), ri->ino_boffset);
	}
	if (ri->has_id)
		xls_field_hex(fs, XK(id), ri->id);
}

void xls_describe_ritem(const struct xls_trans *t, const struct xls_ritem *ri,
			struct xls_fieldset *fs)
{
	xls_field_hex(fs, XK(tid), t->tid);
	xls_field_lsn(fs, XK(lsn), t->lsn);
	xls_field_uint(fs, XK(order), ri->order);
	xls_field_uint(fs, XK(index), ri->index);
	xls_field_str(fs, XK(item), item_name(ri->type));
	xls_field_str(fs, XK(list), xls_rlist_name(ri->list));
	xls_field_str(fs, XK(decision), xls_rdecision_key(ri->decision));
	decision_text_field(ri, fs);
	xls_field_str(fs, XK(reason), xls_ritem_reason(ri));
	if (ri->buf)
		rbuf_fields(ri->buf, fs);
	ritem_target_fields(ri, fs);
	xls_field_str(fs, XK(detail), ri->detail);
	if (ri->fail_why)
		xls_field_str(fs, XK(fail_why), ri->fail_why);
	if (ri->write_fails)
		xls_field_str(fs, XK(write_fails), ri->write_fails);
}

void xls_describe_ritem_csv(const struct xls_rtrans *rt, const struct xls_ritem *ri,
			    struct xls_fieldset *fs)
{
	const struct xls_rbuf *b = ri->buf;

	xls_field_hex(fs, XK(tid), rt->t->tid);
	xls_field_lsn(fs, XK(lsn), rt->t->lsn);
	xls_field_uint(fs, XK(seq), rt->seq);
	xls_field_uint(fs, XK(order), ri->order);
	xls_field_uint(fs, XK(index), ri->index);
	xls_field_str(fs, XK(item), item_name(ri->type));
	xls_field_str(fs, XK(list), xls_rlist_name(ri->list));
	/* the columns of buffers, empty for the other items */
	if (b) {
		xls_field_hex(fs, XK(blkno), (uint64_t)b->blkno);
		xls_field_uint(fs, XK(len), (uint64_t)b->len * 512);
		xls_field_str(fs, XK(type), xls_blft_name(b->blft));
		xls_describe_blf_flag_names(b->blf_flags, fs);
	}
	ritem_target_fields(ri, fs);
	xls_field_str(fs, XK(decision), xls_rdecision_key(ri->decision));
	decision_text_field(ri, fs);
	xls_field_str(fs, XK(reason), xls_ritem_reason(ri));
	if (b) {
		xls_field_str(fs, XK(block_magic), b->magic_name ? b->magic_name : "");
		if (b->has_lsn)
			xls_field_lsn(fs, XK(block_lsn), b->block_lsn);
		xls_field_uint(fs, XK(cancel_refs), b->cancel_refs);
		xls_field_uint(fs, XK(compound), b->compound);
		xls_field_uint(fs, XK(seg), b->seg);
		xls_field_uint(fs, XK(nseg), b->nseg);
		xls_field_uint(fs, XK(seg_offset), b->seg_offset);
		xls_field_str(fs, XK(kernel_warning), b->kernel_warning ? b->kernel_warning : "");
	}
	xls_field_str(fs, XK(fail_why), ri->fail_why ? ri->fail_why : "");
	xls_field_str(fs, XK(write_fails), ri->write_fails ? ri->write_fails : "");
	xls_field_str(fs, XK(detail), ri->detail);
}

/* The short list names of the text table. */
static const char *list_short(enum xls_rlist l)
{
	switch (l) {
	case XLS_RL_BUFFER:	return "buf";
	case XLS_RL_ITEM:	return "item";
	case XLS_RL_INODE_BUF:	return "ibuf";
	case XLS_RL_CANCEL:	return "cancel";
	}
	return "?";
}

void xls_describe_ritem_row(const struct xls_ritem *ri, struct xls_fieldset *fs)
{
	xls_field_uint(fs, XK(order), ri->order);
	xls_field_uint(fs, XK(index), ri->index);
	xls_field_str(fs, XK(list), list_short(ri->list));
	xls_field_str(fs, XK(item), item_name(ri->type));
	if (ri->buf) {
		xls_field_hex(fs, XK(blkno), (uint64_t)ri->buf->blkno);
		xls_field_uint(fs, XK(len), (uint64_t)ri->buf->len * 512);
		xls_field_str(fs, XK(type), xls_blft_name(ri->buf->blft));
		decision_text_field(ri, fs);
	} else if (ri->decision != XLS_RD_NONE) {
		decision_text_field(ri, fs);
	}
	xls_field_str(fs, XK(detail), ri->detail);
}

void xls_describe_rintent(const struct xls_rintent *in, struct xls_fieldset *fs)
{
	xls_field_str(fs, XK(intent), in->kind);
	xls_field_hex(fs, XK(id), in->id);
	if (in->type != XFS_LI_IUNLINK) {
		xls_field_hex(fs, XK(tid), in->tid);
		xls_field_lsn(fs, XK(lsn), in->lsn);
	}
	xls_field_str(fs, XK(what), in->what);
}

void xls_describe_rsummary(const struct xls_recover_summary *s, struct xls_fieldset *fs)
{
	static const struct xls_key_uint *const always_keys[XLS_RR_COUNT] = {
		[XLS_RR_V4]		= XK(always_v4),
		[XLS_RR_INODE_BUF]	= XK(always_inode_buf),
		[XLS_RR_DQUOT_BUF]	= XK(always_dquot_buf),
		[XLS_RR_ATTR_RMT]	= XK(always_attr_rmt),
		[XLS_RR_UNKNOWN_MAGIC]	= XK(always_unknown_magic),
		[XLS_RR_FOREIGN_UUID]	= XK(always_foreign_uuid),
		[XLS_RR_RT_NO_HEADER]	= XK(always_rt_no_header),
		[XLS_RR_LSN_NULL]	= XK(always_lsn_null),
		[XLS_RR_UNREAD]		= XK(always_unread),
	};

	xls_describe_verdict(s, XLS_VERDICT_WHOLE, false, fs);
	xls_field_uint(fs, XK(items), s->items);
	xls_field_uint(fs, XK(buffers), s->buffers);
	xls_field_uint(fs, XK(replay), s->decisions[XLS_RD_REPLAY]);
	xls_field_uint(fs, XK(replay_always), s->decisions[XLS_RD_REPLAY_ALWAYS]);
	for (unsigned int i = 0; i < XLS_RR_COUNT; i++)
		xls_field_uint(fs, always_keys[i], s->always_by_reason[i]);
	xls_field_uint(fs, XK(skip_cancelled), s->decisions[XLS_RD_SKIP_CANCELLED]);
	xls_field_uint(fs, XK(skip_lsn), s->decisions[XLS_RD_SKIP_LSN]);
	xls_field_uint(fs, XK(cancel), s->decisions[XLS_RD_CANCEL]);
	xls_field_uint(fs, XK(skip_quotaoff), s->decisions[XLS_RD_SKIP_QUOTAOFF]);
	xls_field_uint(fs, XK(fail), s->decisions[XLS_RD_FAIL]);
	xls_field_uint(fs, XK(cancel_table_entries), s->cancel_entries);
	xls_field_uint(fs, XK(cancel_table_refs), s->cancel_refs);
	xls_field_uint(fs, XK(compound_buffers), s->compound_buffers);
	xls_field_uint(fs, XK(compound_segments), s->compound_segments);
	xls_field_uint(fs, XK(unlinked_fields), s->unlinked_fields);
	xls_field_uint(fs, XK(buffers_touched), s->buffers_touched);
	if (s->fails) {
		xls_field_uint(fs, XK(dry_run_trans_replayed), s->dry_run.trans_replayed);
		xls_field_uint(fs, XK(dry_run_items), s->dry_run.items);
		xls_field_uint(fs, XK(dry_run_buffers), s->dry_run.buffers);
		xls_field_uint(fs, XK(dry_run_kernel_warnings), s->dry_run.kernel_warnings);
	}
}

static void bufid_text(const void *elem, char *buf, size_t bufsz)
{
	const struct xls_rbufid *b = elem;

	snprintf(buf, bufsz, "0x%llx/%u", (unsigned long long)b->blkno, b->len);
}

static const struct xls_member bufid_members[] = {
	XLS_MEMBER(blkno, hex, struct xls_rbufid, blkno),
	XLS_MEMBER(len_bb, uint, struct xls_rbufid, len),
};

static const struct xls_list bufid_list = {
	bufid_members, 2, sizeof(struct xls_rbufid), bufid_text, " ", NULL,
};

void xls_describe_rwriteback(const struct xls_rwriteback *wb, struct xls_fieldset *fs)
{
	xls_field_lsn(fs, XK(lsn), wb->lsn);
	if (wb->next_lsn)
		xls_field_lsn(fs, XK(next_lsn), wb->next_lsn);
	else
		xls_field_lsn_text(fs, XK(next_lsn), "end");
	xls_field_uint(fs, XK(buffers), wb->buffers);
	xls_field_uint(fs, XK(no_ops), wb->nnoops);
	xls_field_list(fs, XK(no_ops_list), &bufid_list, wb->noops, wb->nnoops);
	xls_field_bool(fs, XK(fails), wb->fails);
	if (wb->fails) {
		xls_field_hex(fs, XK(fail_blkno), (uint64_t)wb->fail.blkno);
		xls_field_uint(fs, XK(fail_len_bb), wb->fail.len);
		xls_field_hex(fs, XK(fail_tid), wb->fail_tid);
		xls_field_str(fs, XK(fail_what), wb->fail_what);
		xls_field_uint(fs, XK(not_written), wb->not_written);
	}
}

/* ------------------------------------------------------------------ */
/* recover's text, line by line */

void xls_print_rtrans(struct xls_out *o, const struct xls_rtrans *rt)
{
	const struct xls_trans *t = rt->t;

	if (!rt->replayed) {
		xls_out_printf(o, "\ntrans 0x%08x  lsn %u/%u  %s: %s, %u items\n", t->tid,
			       xls_lsn_cycle(t->lsn), xls_lsn_block(t->lsn),
			       t->state == XLS_TRANS_CORRUPT ? "corrupt" : "discarded",
			       t->state == XLS_TRANS_CORRUPT ? (t->why ? t->why : "recovery stops") :
			       "no commit record, recovery drops it", rt->nitems);
		return;
	}
	xls_out_printf(o, "\ntrans 0x%08x  lsn %u/%u", t->tid, xls_lsn_cycle(t->lsn),
		       xls_lsn_block(t->lsn));
	if (t->commit_lsn)
		xls_out_printf(o, "  commit %u/%u", xls_lsn_cycle(t->commit_lsn),
			       xls_lsn_block(t->commit_lsn));
	xls_out_printf(o, "  #%u  %u items", rt->seq, rt->nitems);
	if (rt->flushed)
		xls_out_printf(o, "  (new LSN: the %u buffer%s replayed so far %s written first)",
			       rt->flushed, rt->flushed == 1 ? "" : "s", rt->flushed == 1 ? "is" : "are");
	xls_out_printf(o, "\n");
}

/* A compound buffer's segment: which, of what, where. */
static void print_segment(struct xls_out *o, const struct xls_rbuf *b)
{
	xls_out_printf(o, "%48s segment %u of %u of a %u-byte %s block, ", "",
		       b->seg, b->nseg, b->block_bytes, xls_blft_name(b->blft));
	if (b->block_start)
		xls_out_printf(o, "offset 0");
	else if (b->seg_offset_exact)
		xls_out_printf(o, "offset %" PRIu64, b->seg_offset);
	else
		xls_out_printf(o, "offset unknown (at least %" PRIu64 ")", b->seg_offset);
	xls_out_printf(o, ": %s\n", b->seg_note ? b->seg_note : "");
}

static void print_unlinked(struct xls_out *o, const struct xls_rbuf *b)
{
	xls_out_printf(o, "%48s di_next_unlinked to replay:", "");
	for (uint32_t i = 0; i < b->nunlinked; i++) {
		const struct xls_runlinked *u = &b->unlinked[i];

		if (u->value == 0xffffffffu)
			xls_out_printf(o, " inode %u -> end", u->slot);
		else
			xls_out_printf(o, " inode %u -> 0x%x", u->slot, u->value);
		if (!u->readable)
			xls_out_printf(o, " (past its region)");
	}
	xls_out_printf(o, "\n");
}

void xls_print_ritem_warnings(struct xls_out *o, const struct xls_ritem *ri, int indent)
{
	const struct xls_rbuf *b = ri->buf;

	if (b && b->kernel_warning)
		xls_out_printf(o, "%*s ! kernel warns: %s\n", indent, "", b->kernel_warning);
	if (ri->fail_why)
		xls_out_printf(o, "%*s ! %s\n", indent, "", ri->fail_why);
	if (ri->write_fails)
		xls_out_printf(o, "%*s ! when written, its verifier fails: %s\n", indent, "",
			       ri->write_fails);
}

void xls_print_ritem_notes(struct xls_out *o, const struct xls_ritem *ri, bool verbose)
{
	const struct xls_rbuf *b = ri->buf;

	if (b && b->compound)
		print_segment(o, b);
	xls_print_ritem_warnings(o, ri, 48);
	if (b && b->nunlinked)
		print_unlinked(o, b);
	if (b && verbose && b->blf) {
		char map[160];

		xls_region_map_str(b->blf, b->res, 128, map, sizeof(map));
		xls_out_printf(o, "%48s map [%s]\n", "", map);
	}
}

void xls_print_rwriteback(struct xls_out *o, const struct xls_rwriteback *wb)
{
	xls_out_printf(o, "\nwrite-back of the %u buffer%s queued at LSN %u/%u, in daddr order",
		       wb->buffers, xls_plural(wb->buffers), xls_lsn_cycle(wb->lsn),
		       xls_lsn_block(wb->lsn));
	if (wb->next_lsn)
		xls_out_printf(o, " (a transaction at LSN %u/%u commits)\n",
			       xls_lsn_cycle(wb->next_lsn), xls_lsn_block(wb->next_lsn));
	else
		xls_out_printf(o, " (end of pass 2)\n");
	for (uint32_t i = 0; i < wb->nnoops; i++)
		xls_out_printf(o, "  ! kernel warns: xfs_buf_verify_write: no buf ops on daddr 0x%llx len %u\n",
			       (unsigned long long)wb->noops[i].blkno, wb->noops[i].len);
	if (wb->fails)
		xls_out_printf(o, "  ! daddr 0x%llx: the write verifier fails: %s "
			       "(replayed by transaction 0x%08x): metadata corruption, recovery "
			       "fails; %u buffer%s after it not written\n",
			       (unsigned long long)wb->fail.blkno, wb->fail_what, wb->fail_tid,
			       wb->not_written, wb->not_written == 1 ? "" : "s");
}

void xls_print_rintent(struct xls_out *o, const struct xls_rintent *in, bool first)
{
	if (first)
		xls_out_printf(o, "\nWork recovery would finish after replay\n");
	if (in->type == XFS_LI_IUNLINK)
		xls_out_printf(o, "  %s\n", in->what);
	else
		xls_out_printf(o, "  %s  (trans 0x%08x, lsn %u/%u)\n", in->what, in->tid,
			       xls_lsn_cycle(in->lsn), xls_lsn_block(in->lsn));
}

/* ------------------------------------------------------------------ */
/* replay */

/* The kernel's pass-3 checkpoints: those of an LSN of their own (one may log nothing). */
static uint32_t pass3_checkpoints(const struct xls_pass3_result *p)
{
	uint32_t n = 1;

	for (uint32_t k = 1; k < p->nckpts && k < XLS_PASS3_CKPTS; k++)
		n += p->ckpt_lsn[k] != p->ckpt_lsn[k - 1];
	return n;
}

void xls_describe_replay(const struct xls_replay_outcome *r, struct xls_fieldset *fs)
{
	const struct xls_replay_counts *n = r->count;

	xls_field_str(fs, XK(out), r->out);
	xls_field_bool(fs, XK(in_place), r->in_place);
	if (r->log_out)
		xls_field_str(fs, XK(log_out), r->log_out);
	xls_field_uint(fs, XK(buffers_replayed), n->buffers);
	xls_field_uint(fs, XK(inodes_replayed), n->inodes);
	xls_field_uint(fs, XK(clusters_initialised), n->clusters);
	xls_field_uint(fs, XK(buffers_stamped), n->stamped);
	xls_field_uint(fs, XK(buffers_failed), n->failed);
	xls_field_uint(fs, XK(blocks_assembled), n->assembled);
	xls_field_uint(fs, XK(inode_errors), n->inode_errors);
	xls_field_uint(fs, XK(bytes_written), n->bytes);
	xls_field_bool(fs, XK(counters_recomputed), r->counters);
	xls_field_bool(fs, XK(log_cleaned), r->log_cleaned);
	xls_field_bool(fs, XK(pass3_done), r->pass3_done);
	if (r->pass3_done) {
		xls_field_uint(fs, XK(pass3_cow_extents), r->pass3->n.cow_extents);
		xls_field_uint(fs, XK(pass3_cow_fsblocks), r->pass3->n.cow_blocks);
		xls_field_uint(fs, XK(pass3_inodes_freed), r->pass3->n.inodes_freed);
		xls_field_uint(fs, XK(pass3_inode_chunks_freed), r->pass3->n.chunks_freed);
		xls_field_uint(fs, XK(pass3_data_fsblocks), r->pass3->n.data_blocks);
		xls_field_uint(fs, XK(pass3_intents), r->pass3->n.intents);
		xls_field_uint(fs, XK(pass3_intent_extents), r->pass3->n.intent_extents);
		xls_field_uint(fs, XK(pass3_freed_extents), r->pass3->n.freed_extents);
		xls_field_uint(fs, XK(pass3_freed_fsblocks), r->pass3->n.freed_blocks);
		xls_field_uint(fs, XK(pass3_exchanges), r->pass3->n.exchanges);
		xls_field_uint(fs, XK(pass3_parent_pointers), r->pass3->n.parent_pointers);
		xls_field_uint(fs, XK(pass3_checkpoints), pass3_checkpoints(r->pass3));
		xls_field_uint(fs, XK(pass3_checkpoint1_bbs), r->pass3->ckpt_blocks);
		xls_field_uint(fs, XK(pass3_buffers_written), r->pass3->blocks_written);
		xls_field_uint(fs, XK(pass3_inodes_stamped), r->pass3->inodes_stamped);
		xls_field_bool(fs, XK(pass3_logged), r->pass3_logged);
		if (r->pass3_logged)
			xls_field_uint(fs, XK(pass3_log_bbs), r->pass3_log_bbs);
		else if (r->pass3_not_logged)
			xls_field_str(fs, XK(pass3_not_logged), r->pass3_not_logged);
	} else if (r->pass3_not) {
		xls_field_str(fs, XK(pass3_not), r->pass3_not);
	}
	if (r->next)
		xls_field_str(fs, XK(next_step), r->next);
}

/* What pass 3 did: only the kinds of work it found are named. */
static void print_pass3(struct xls_out *o, const struct xls_replay_outcome *r)
{
	const struct xls_pass3_result *p = r->pass3;

	xls_out_printf(o, "  pass 3, as the kernel's mount finishes recovery (xfsprogs' libxfs):");
	if (p->n.intents) {
		const char *sep = " (";

		xls_out_printf(o, " %llu intent%s finished", (unsigned long long)p->n.intents,
			       xls_plural(p->n.intents));
		if (p->n.intent_extents) {
			xls_out_printf(o, "%s%llu extent%s named", sep,
				       (unsigned long long)p->n.intent_extents,
				       xls_plural(p->n.intent_extents));
			sep = ", ";
		}
		if (p->n.exchanges) {
			xls_out_printf(o, "%s%llu file mapping exchange%s", sep,
				       (unsigned long long)p->n.exchanges, xls_plural(p->n.exchanges));
			sep = ", ";
		}
		if (p->n.parent_pointers) {
			xls_out_printf(o, "%s%llu parent pointer update%s", sep,
				       (unsigned long long)p->n.parent_pointers,
				       xls_plural(p->n.parent_pointers));
			sep = ", ";
		}
		xls_out_printf(o, "%s with the work they defer;", sep[0] == ',' ? ")," : "");
	}
	if (p->n.inodes_freed)
		xls_out_printf(o, " %llu unlinked inode%s inactivated and freed (%llu inode chunk%s "
			       "and %llu filesystem block%s of data freed with them);",
			       (unsigned long long)p->n.inodes_freed, xls_plural(p->n.inodes_freed),
			       (unsigned long long)p->n.chunks_freed, xls_plural(p->n.chunks_freed),
			       (unsigned long long)p->n.data_blocks, xls_plural(p->n.data_blocks));
	if (p->n.cow_extents)
		xls_out_printf(o, " %llu CoW staging extent%s freed (%llu filesystem block%s);",
			       (unsigned long long)p->n.cow_extents, xls_plural(p->n.cow_extents),
			       (unsigned long long)p->n.cow_blocks, xls_plural(p->n.cow_blocks));
	xls_out_printf(o, " %llu extent%s freed in all (%llu filesystem block%s); %llu buffer%s "
		       "written, stamped with the LSN", (unsigned long long)p->n.freed_extents,
		       xls_plural(p->n.freed_extents), (unsigned long long)p->n.freed_blocks,
		       xls_plural(p->n.freed_blocks), (unsigned long long)p->blocks_written,
		       xls_plural(p->blocks_written));
	if (pass3_checkpoints(p) == 2 && p->n.intents)
		xls_out_printf(o, "s of the kernel's two pass-3 checkpoints (the first %llu log "
			       "block%s long, the intents')", (unsigned long long)p->ckpt_blocks,
			       xls_plural(p->ckpt_blocks));
	else if (pass3_checkpoints(p) > 1)
		xls_out_printf(o, "s of the kernel's %u pass-3 checkpoints (the first %llu log "
			       "block%s long; the log forced as its allocator and buffers force it)",
			       pass3_checkpoints(p), (unsigned long long)p->ckpt_blocks,
			       xls_plural(p->ckpt_blocks));
	else
		xls_out_printf(o, " of the kernel's pass-3 checkpoint");
	if (r->pass3_logged)
		xls_out_printf(o, "; logged first, as those checkpoints (%llu log block%s), "
			       "the unmount record after them\n",
			       (unsigned long long)r->pass3_log_bbs, xls_plural(r->pass3_log_bbs));
	else
		xls_out_printf(o, "; the unmount record where the kernel's last checkpoint starts "
			       "(not logged first: %s)\n",
			       r->pass3_not_logged ? r->pass3_not_logged : "nothing to log");
}

void xls_print_replay(struct xls_out *o, const struct xls_replay_outcome *r,
		      bool mount_fails_after)
{
	const struct xls_replay_counts *n = r->count;

	xls_out_printf(o, "\n%s '%s'%s%s%s: %llu buffer%s and %llu inode%s replayed, %llu "
		       "inode cluster%s initialised, %llu buffer%s stamped by their write "
		       "verifiers\n", r->in_place ? "Recovered in place" : "Wrote", r->out,
		       r->log_out ? " and '" : "", r->log_out ? r->log_out : "",
		       r->log_out ? "'" : "",
		       (unsigned long long)n->buffers, xls_plural(n->buffers),
		       (unsigned long long)n->inodes, xls_plural(n->inodes),
		       (unsigned long long)n->clusters, xls_plural(n->clusters),
		       (unsigned long long)n->stamped, xls_plural(n->stamped));
	if (r->pass3_done)
		print_pass3(o, r);
	else if (r->pass3_not)
		xls_out_printf(o, "  pass 3 not done here: %s\n", r->pass3_not);
	if (r->counters)
		xls_out_printf(o, "  superblock counters summed from the AG headers, as a mount "
			       "after recovery sums them\n");
	if (r->log_cleaned && mount_fails_after)
		xls_out_printf(o, "  log clean, as the kernel's failed mount leaves it\n");
	else if (r->log_cleaned)
		xls_out_printf(o, "  log clean, as an unmount leaves it: the kernel mounts the "
			       "copy without recovery\n");
	if (n->assembled)
		xls_out_printf(o, "  %llu directory block%s on discontiguous extents written whole, "
			       "though the kernel's verifier refuses %s first segment (a limit of its "
			       "recovery): each block's CRC over all its segments\n",
			       (unsigned long long)n->assembled, xls_plural(n->assembled),
			       n->assembled == 1 ? "its" : "their");
	for (uint64_t i = 0; i < n->failed && i < XLS_REPLAY_FAILED_KEPT; i++)
		xls_out_printf(o, "  left as on disk: buffer 0x%llx (%u bytes), its write "
			       "verifier fails\n", (unsigned long long)r->failed[i].blkno,
			       r->failed[i].len * 512);
	if (r->next)
		xls_out_printf(o, "  next: %s\n", r->next);
}
