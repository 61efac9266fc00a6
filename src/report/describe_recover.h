/*
 * Report stage: recovery: items, decisions, the summary, write-backs, replay's outcome (describe_recover.c), as field tables
 * and text: the one place that decides what their fields are called.
 */
#ifndef XLS_DESCRIBE_RECOVER_H
#define XLS_DESCRIBE_RECOVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "source/source.h"
#include "trans/trans.h"
#include "recover/recover.h"
#include "pass3/pass3.h"
#include "replay/write.h"
#include "report/emit.h"
#include "report/fields.h"

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
	/* ... its checkpoints logged before its blocks were written (log blocks), or why not */
	bool				pass3_logged;
	uint64_t			pass3_log_bbs;
	const char			*pass3_not_logged;
	const char			*next;		/* what the user must do next, or NULL */
};
void xls_describe_replay(const struct xls_replay_outcome *r, struct xls_fieldset *fs);
/* replay's text after the verdict; @mount_fails_after: the verdict's. */
void xls_print_replay(struct xls_out *o, const struct xls_replay_outcome *r,
		      bool mount_fails_after);

#endif /* XLS_DESCRIBE_RECOVER_H */
