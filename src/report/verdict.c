/*
 * Report stage: the verdict -- what the kernel does with the log when it
 * mounts the filesystem -- the same keys and the same sentences in
 * recover's and lost's output.
 */
#include <stdio.h>
#include <string.h>

#include "report/verdict.h"

/* Where the mount stops, as the end of "the kernel's mount returns ... ". */
static const char *stop_where(enum xls_rstop st)
{
	switch (st) {
	case XLS_RSTOP_MOUNT:
		return "before recovery begins";
	case XLS_RSTOP_TAIL:
		return "while it looks for the tail of the log, before it replays anything";
	case XLS_RSTOP_PASS1:
		return "in pass 1, before it replays anything";
	case XLS_RSTOP_PASS2:
		return "in pass 2, replaying an item";
	case XLS_RSTOP_WRITEBACK:
		return "writing back the buffers it replayed";
	case XLS_RSTOP_NONE:
		break;
	}
	return "";
}

/* The failure turns on a block the metadump lacks: that, before any damage. */
static const char *cause_key(const struct xls_recover_summary *s)
{
	return s->fail_absent ? "metadump_absent" : xls_rcause_key(s->cause);
}

static const char *cause_text(const struct xls_recover_summary *s)
{
	if (s->fail_absent)
		return "not known: the block it turns on is not in the metadump (xfs_metadump "
		       "copies the metadata the disk says is in use, not blocks the log "
		       "allocates), so it reads as zeros";
	switch (s->cause) {
	case XLS_RCAUSE_LOG:
		return "damage in the log itself, not in the filesystem's metadata";
	case XLS_RCAUSE_METADATA:
		return "damage: metadata on disk, or as the log leaves it, fails the kernel's "
		       "verifiers";
	case XLS_RCAUSE_LIMIT:
		return "a limit of the kernel's recovery, not damage: the log and the blocks it "
		       "writes are sound, but the kernel cannot write them this way";
	case XLS_RCAUSE_FOREIGN:
		return "the log is not this filesystem's: its records carry another "
		       "filesystem's UUID";
	case XLS_RCAUSE_DEVICE:
		return "the device or image is shorter than its superblock says: it was cut short";
	case XLS_RCAUSE_NONE:
		break;
	}
	return "";
}

const char *xls_verdict_next_step(const struct xls_recover_summary *s,
				  enum xls_verdict_scope scope)
{
	if (!s->fails)
		return NULL;
	if (s->fail_absent)
		return "run 'xfs_logscope recover' on the filesystem itself: on the metadump the "
		       "verdict says only what the image xfs_mdrestore makes of it would do";
	switch (s->cause) {
	case XLS_RCAUSE_DEVICE:
		return "find or copy the whole device: nothing can be recovered or repaired "
		       "from a filesystem cut short";
	case XLS_RCAUSE_FOREIGN:
		return "check that -l names this filesystem's own log device; zeroing a log "
		       "that is not its own (xfs_repair -L) loses this filesystem's";
	case XLS_RCAUSE_METADATA:
		if (scope == XLS_VERDICT_COMPARED)
			return "'xfs_repair -n' shows the damage; what zeroing the log "
			       "(xfs_repair -L) throws away is listed here";
		return "'xfs_repair -n' shows the damage; 'xfs_logscope lost' lists what "
		       "zeroing the log (xfs_repair -L) throws away, and the inodes it would "
		       "move to lost+found";
	default:
		break;
	}
	if (scope == XLS_VERDICT_COMPARED)
		return "what zeroing the log (xfs_repair -L, the one way past a log the kernel "
		       "cannot recover) throws away is listed here, and the inodes it would move "
		       "to lost+found";
	return "'xfs_logscope lost' lists what zeroing the log (xfs_repair -L, the one way "
	       "past a log the kernel cannot recover) throws away, and the inodes it would "
	       "move to lost+found";
}

/* ---- field tables ------------------------------------------------- */

static void tid_text(const void *elem, char *buf, size_t bufsz)
{
	snprintf(buf, bufsz, "0x%08x", *(const uint32_t *)elem);
}

static const struct xls_member tid_members[] = {
	{ NULL, XLS_FIELD_HEX, 0, sizeof(uint32_t) },
};

static const struct xls_list tid_list = {
	tid_members, 1, sizeof(uint32_t), tid_text, " ", NULL,
};

/* The work left for pass 3, by kind: the same keys in recover, lost and replay. */
static void describe_pending(struct xls_fieldset *fs, const struct xls_recover_summary *s)
{
	const struct xls_pending *p = &s->pending;

	xls_field_uint(fs, XK(pending_work), s->pending_work);
	xls_field_uint(fs, XK(pending_efi), p->intents[XLS_PEND_EFI]);
	xls_field_uint(fs, XK(pending_rui), p->intents[XLS_PEND_RUI]);
	xls_field_uint(fs, XK(pending_cui), p->intents[XLS_PEND_CUI]);
	xls_field_uint(fs, XK(pending_bui), p->intents[XLS_PEND_BUI]);
	xls_field_uint(fs, XK(pending_xmi), p->intents[XLS_PEND_XMI]);
	xls_field_uint(fs, XK(pending_attri), p->intents[XLS_PEND_ATTRI]);
	xls_field_uint(fs, XK(pending_other_intents), p->intents[XLS_PEND_OTHER]);
	xls_field_uint(fs, XK(pending_unlinked_buckets), p->unlinked_buckets);
	/* without the device, a bucket's chain is not known */
	if (!p->log_only) {
		xls_field_uint(fs, XK(pending_unlinked_inodes), p->unlinked_inodes);
		xls_field_uint(fs, XK(pending_unlinked_broken), p->unlinked_broken);
		xls_field_uint(fs, XK(pending_cow_extents), p->cow_extents);
		xls_field_uint(fs, XK(cow_staged_ags), p->cow_ags);
	}
}

bool xls_verdict_approximate(const struct xls_recover_summary *s)
{
	return s->absent_reads || s->no_data_device;
}

void xls_describe_verdict(const struct xls_recover_summary *s, enum xls_verdict_scope scope,
			  bool approximate, struct xls_fieldset *fs)
{
	xls_field_bool(fs, XK(recovery_fails), s->fails);
	if (s->fails) {
		if (s->fail_lsn)	/* 0: refused before any record is read */
			xls_field_lsn(fs, XK(fail_lsn), s->fail_lsn);
		xls_field_str(fs, XK(fail_stage), xls_rstop_key(s->stop));
		xls_field_str(fs, XK(fail_cause), cause_key(s));
		xls_field_int(fs, XK(kernel_error), s->kernel_error);
		xls_field_str(fs, XK(kernel_error_name), xls_kernel_error_name(s->kernel_error));
		xls_field_str(fs, XK(kernel_says), s->kernel_says);
		xls_field_str(fs, XK(fail_why), s->fail_why);
		xls_field_str(fs, XK(next_step), xls_verdict_next_step(s, scope));
		if (s->metadump)
			xls_field_bool(fs, XK(fail_block_absent), s->fail_absent);
	}
	xls_field_uint(fs, XK(trans_replayed), s->trans_replayed);
	xls_field_uint(fs, XK(trans_discarded), s->trans_discarded);
	xls_field_uint(fs, XK(trans_corrupt), s->trans_corrupt);
	if (scope == XLS_VERDICT_WHOLE)
		xls_field_uint(fs, XK(kernel_warnings), s->kernel_warnings);
	describe_pending(fs, s);
	if (s->quota_flags || s->quota_reset) {
		char words[64];

		xls_quota_words(s->quota_flags, words, sizeof(words));
		xls_field_str(fs, XK(quota_mount), words);
		xls_field_bool(fs, XK(quota_reset), s->quota_reset);
	}
	xls_field_uint(fs, XK(torn_records), s->torn_records);
	if (s->torn_records) {
		xls_field_lsn(fs, XK(torn_lsn), s->torn_lsn);
		xls_field_uint(fs, XK(torn_commits), s->torn_commits);
		xls_field_list(fs, XK(torn_tids), &tid_list, s->torn_tids,
			       s->torn_commits < XLS_TORN_TIDS ? s->torn_commits : XLS_TORN_TIDS);
	}
	xls_field_str(fs, XK(log_byte_order), xls_log_byte_order(s->log_fmt));
	xls_field_bool(fs, XK(no_data_device), s->no_data_device);
	if (s->metadump)
		xls_field_uint(fs, XK(absent_reads), s->absent_reads);
	xls_field_bool(fs, XK(approximate), approximate || xls_verdict_approximate(s));
	xls_field_bool(fs, XK(mount_fails_after), s->mount_fails_after);
}

/* ---- text --------------------------------------------------------- */

static const char *plural(uint64_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

static void print_failure(struct xls_out *o, const struct xls_recover_summary *s,
			  enum xls_verdict_scope scope)
{
	xls_out_printf(o, "Verdict: recovery fails");
	if (s->fail_lsn)
		xls_out_printf(o, " at LSN %u/%u", xls_lsn_cycle(s->fail_lsn),
			       xls_lsn_block(s->fail_lsn));
	xls_out_printf(o, ": the kernel's mount returns error %d (%s) %s\n", s->kernel_error,
		       xls_kernel_error_name(s->kernel_error), stop_where(s->stop));
	if (s->fail_absent)
		xls_out_printf(o, "  approximate: the failure turns on a block this metadump does "
			       "not carry (read as zeros, as xfs_mdrestore leaves it): the image "
			       "restored from it fails so, the filesystem itself may not\n");
	xls_out_printf(o, "  the kernel says: %s\n", s->kernel_says);
	xls_out_printf(o, "  why: %s\n", s->fail_why);
	xls_out_printf(o, "  cause: %s\n", cause_text(s));
	xls_out_printf(o, "  next: %s\n", xls_verdict_next_step(s, scope));
}

/*
 * "N pieces of work left to finish after replay: 2 EFIs, 37 unlinked inodes
 * (on 12 buckets), ...", each kind the kernel's pass 3 finishes.
 */
static void print_pending(struct xls_out *o, const struct xls_recover_summary *s)
{
	static const char *const name[XLS_PEND_KINDS] = {
		[XLS_PEND_EFI] = "EFI", [XLS_PEND_RUI] = "RUI", [XLS_PEND_CUI] = "CUI",
		[XLS_PEND_BUI] = "BUI", [XLS_PEND_XMI] = "XMI", [XLS_PEND_ATTRI] = "ATTRI",
		[XLS_PEND_OTHER] = "intent of a newer type",
	};
	const struct xls_pending *p = &s->pending;
	const char *sep = ": ";

	xls_out_printf(o, "  %llu piece%s of work left to finish after replay",
		       (unsigned long long)s->pending_work, plural(s->pending_work, "", "s"));
	for (int k = 0; k < XLS_PEND_KINDS; k++) {
		if (!p->intents[k])
			continue;
		xls_out_printf(o, "%s%llu %s%s", sep, (unsigned long long)p->intents[k], name[k],
			       plural(p->intents[k], "", "s"));
		sep = ", ";
	}
	if (p->unlinked_buckets && p->log_only) {
		xls_out_printf(o, "%s%llu unlinked bucket%s (the inodes on %s unknown without "
			       "the data device)", sep, (unsigned long long)p->unlinked_buckets,
			       plural(p->unlinked_buckets, "", "s"),
			       plural(p->unlinked_buckets, "it", "them"));
		sep = ", ";
	} else if (p->unlinked_buckets) {
		xls_out_printf(o, "%s%llu unlinked inode%s (on %llu bucket%s)", sep,
			       (unsigned long long)p->unlinked_inodes,
			       plural(p->unlinked_inodes, "", "s"),
			       (unsigned long long)p->unlinked_buckets,
			       plural(p->unlinked_buckets, "", "s"));
		if (p->unlinked_broken)
			xls_out_printf(o, " of which %llu end%s on no inode or loop%s",
				       (unsigned long long)p->unlinked_broken,
				       plural(p->unlinked_broken, "s", ""),
				       plural(p->unlinked_broken, "s", ""));
		sep = ", ";
	}
	if (p->cow_extents)
		xls_out_printf(o, "%s%llu CoW staging extent%s (in %u AG%s)", sep,
			       (unsigned long long)p->cow_extents, plural(p->cow_extents, "", "s"),
			       p->cow_ags, plural(p->cow_ags, "", "s"));
	xls_out_printf(o, "\n");
}

static void print_counts(struct xls_out *o, const struct xls_recover_summary *s)
{
	xls_out_printf(o, "  %llu transaction%s replayed%s, %llu discarded, %llu corrupt; "
		       "%llu item%s (%llu buffer%s): %llu replayed, %llu replayed without an LSN "
		       "check, %llu skipped (newer on disk), %llu skipped (cancelled)\n",
		       (unsigned long long)s->trans_replayed, plural(s->trans_replayed, "", "s"),
		       s->fails ? " before the kernel stops" : "",
		       (unsigned long long)s->trans_discarded,
		       (unsigned long long)s->trans_corrupt, (unsigned long long)s->items,
		       plural(s->items, "", "s"), (unsigned long long)s->buffers,
		       plural(s->buffers, "", "s"),
		       (unsigned long long)s->decisions[XLS_RD_REPLAY],
		       (unsigned long long)s->decisions[XLS_RD_REPLAY_ALWAYS],
		       (unsigned long long)s->decisions[XLS_RD_SKIP_LSN],
		       (unsigned long long)s->decisions[XLS_RD_SKIP_CANCELLED]);
	if (s->fails && s->dry_run.items != s->items)
		xls_out_printf(o, "  the dry run goes on past the failure, as the kernel does not: "
			       "%llu transaction%s, %llu item%s (%llu buffer%s), %llu kernel "
			       "warning%s in all\n",
			       (unsigned long long)s->dry_run.trans_replayed,
			       plural(s->dry_run.trans_replayed, "", "s"),
			       (unsigned long long)s->dry_run.items,
			       plural(s->dry_run.items, "", "s"),
			       (unsigned long long)s->dry_run.buffers,
			       plural(s->dry_run.buffers, "", "s"),
			       (unsigned long long)s->dry_run.kernel_warnings,
			       plural(s->dry_run.kernel_warnings, "", "s"));
	if (s->pending_work)
		print_pending(o, s);
	if (s->kernel_warnings)
		xls_out_printf(o, "  %llu kernel warning%s\n",
			       (unsigned long long)s->kernel_warnings,
			       plural(s->kernel_warnings, "", "s"));
}

/*
 * A dirty log of the other byte order: the verdict is that of a kernel of
 * the writer's order; one of this machine's refuses it
 * (xlog_header_check_recover).
 */
static void print_byte_order(struct xls_out *o, const struct xls_recover_summary *s,
			     enum xls_log_state state)
{
	bool host_be = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
	uint32_t host = host_be ? XLOG_FMT_LINUX_BE : XLOG_FMT_LINUX_LE;

	/* the kernel recovers only its own h_fmt, XLOG_FMT (xlog_header_check_recover) */
	bool known = s->log_fmt == XLOG_FMT_LINUX_LE || s->log_fmt == XLOG_FMT_LINUX_BE ||
		     s->log_fmt == XLOG_FMT_IRIX_BE;

	if (state != XLS_LOG_DIRTY || s->log_fmt == host || !known)
		return;
	xls_out_printf(o, "  written by a %s kernel: that is whose recovery this is; a %s one, as "
		       "this machine's, refuses the log (\"dirty log written in incompatible "
		       "format - can't recover\"); 'xfs_logscope replay' recovers it here\n",
		       xls_log_byte_order(s->log_fmt), host_be ? "big-endian" : "little-endian");
}

/* Which mount's recovery this is, when quota makes a difference. */
static void print_quota(struct xls_out *o, const struct xls_recover_summary *s)
{
	char words[64];

	if (s->quota_reset) {
		xls_out_printf(o, "  quota: as a mount without quota options recovers it: dquot "
			       "items and buffers not replayed, the superblock's quota flags reset "
			       "(\"resetting quota flags\"); --quota says otherwise\n");
		return;
	}
	if (!s->quota_flags)
		return;
	xls_quota_words(s->quota_flags, words, sizeof(words));
	xls_out_printf(o, "  quota: as a mount with %s recovers it: dquot items and buffers "
		       "replayed; --quota=noquota for a kernel without quota\n", words);
}

/* What the verdict leaves out or could not know. */
static void print_caveats(struct xls_out *o, const struct xls_recover_summary *s)
{
	if (s->torn_records) {
		if (s->torn_records == 1)
			xls_out_printf(o, "  torn head: the last record (LSN %u/%u) did not reach the "
				       "disk whole; the kernel drops it", xls_lsn_cycle(s->torn_lsn),
				       xls_lsn_block(s->torn_lsn));
		else
			xls_out_printf(o, "  torn head: the last %u records (from LSN %u/%u) did not "
				       "reach the disk whole; the kernel drops them", s->torn_records,
				       xls_lsn_cycle(s->torn_lsn), xls_lsn_block(s->torn_lsn));
		xls_out_printf(o, ", and with %s the %u transaction%s that committed there",
			       plural(s->torn_records, "it", "them"), s->torn_commits,
			       plural(s->torn_commits, "", "s"));
		for (uint32_t i = 0; i < s->torn_commits && i < XLS_TORN_TIDS; i++)
			xls_out_printf(o, "%s0x%08x", i ? ", " : ": ", s->torn_tids[i]);
		xls_out_printf(o, "%s\n", s->torn_commits > XLS_TORN_TIDS ? ", ..." : "");
	}
	if (s->mount_fails_after)
		xls_out_printf(o, "  then the mount fails: the superblock recovery leaves says %llu "
			       "bytes, more than the device holds, and the mount reads AG %u's "
			       "headers past its end (EIO); on its way out the kernel cleans the "
			       "log%s, leaving the filesystem as recovered\n",
			       (unsigned long long)s->mount_fail_sb_bytes, s->mount_fail_ag,
			       s->pending_work ? " and drops the work left" : "");
	if (s->no_data_device)
		xls_out_printf(o, "  approximate: no data device (a bare log), so no block was read: "
			       "%llu item%s taken as replayed, without the LSN check and the "
			       "verifiers the kernel runs on the block on disk, which may skip or "
			       "fail %s\n", (unsigned long long)s->always_by_reason[XLS_RR_UNREAD],
			       plural(s->always_by_reason[XLS_RR_UNREAD], "", "s"),
			       plural(s->always_by_reason[XLS_RR_UNREAD], "it", "them"));
	if (s->absent_reads)
		xls_out_printf(o, "  approximate: %llu item%s decided on blocks the metadump does "
			       "not carry (read as zeros, as xfs_mdrestore leaves them)%s\n",
			       (unsigned long long)s->absent_reads, plural(s->absent_reads, "", "s"),
			       s->fails ? ": on the filesystem itself the verdict may differ" : "");
}

/* lost's: the transactions and the work left; what its run could not see. */
static void print_compared_counts(struct xls_out *o, const struct xls_recover_summary *s)
{
	xls_out_printf(o, "  %llu transaction%s replayed%s, %llu discarded, %llu corrupt\n",
		       (unsigned long long)s->trans_replayed,
		       plural(s->trans_replayed, "", "s"),
		       s->fails ? " before the kernel stops" : "",
		       (unsigned long long)s->trans_discarded,
		       (unsigned long long)s->trans_corrupt);
	if (s->pending_work)
		print_pending(o, s);
	if (!s->fails)
		xls_out_printf(o, "  only the blocks compared were decided: 'xfs_logscope recover "
			       "--summary' checks every other block too\n");
}

void xls_print_verdict(struct xls_out *o, const struct xls_recover_summary *s,
		       enum xls_log_state state, enum xls_verdict_scope scope)
{
	if (s->fails)
		print_failure(o, s, scope);
	else if (state != XLS_LOG_DIRTY)
		xls_out_printf(o, "Verdict: nothing to recover: the log is clean%s\n",
			       state == XLS_LOG_ZEROED ? " (totally zeroed)" : "");
	else if (s->no_data_device)
		xls_out_printf(o, "Verdict: recovery succeeds, as far as the log alone tells: no "
			       "data device was read\n");
	else if (s->mount_fails_after)
		xls_out_printf(o, "Verdict: recovery succeeds, then the mount fails (EIO): the "
			       "filesystem recovery leaves is larger than its device\n");
	else
		xls_out_printf(o, "Verdict: recovery succeeds\n");
	if (scope == XLS_VERDICT_WHOLE)
		print_counts(o, s);
	else
		print_compared_counts(o, s);
	if (state == XLS_LOG_DIRTY && !s->fails)
		print_quota(o, s);
	print_byte_order(o, s, state);
	print_caveats(o, s);
}
