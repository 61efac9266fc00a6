/*
 * Report stage: the verdict of recovery -- what the kernel does with the
 * log at mount -- as keys and as sentences, one form for recover and lost.
 */
#ifndef XLS_VERDICT_H
#define XLS_VERDICT_H

#include <stdbool.h>

#include "log/log.h"
#include "recover/recover.h"
#include "report/emit.h"
#include "report/fields.h"

/*
 * What the run behind a verdict decided: every item (recover), or only
 * the buffers of the kinds it compares (lost), which leaves its counts of
 * items, buffers and kernel warnings partial and may miss a failure in a
 * block of another kind.
 */
enum xls_verdict_scope {
	XLS_VERDICT_WHOLE,
	XLS_VERDICT_COMPARED,
};

/* What to do next when recovery fails (NULL when it does not). */
const char *xls_verdict_next_step(const struct xls_recover_summary *s,
				  enum xls_verdict_scope scope);

/* The verdict rests on blocks that could not be read (metadump, bare log). */
bool xls_verdict_approximate(const struct xls_recover_summary *s);

/*
 * recovery_fails and, when it does, where, why and what next; the counts
 * as far as the kernel gets; a torn head; what could not be read.
 * @approximate: the caller's own figures are approximate too.
 */
void xls_describe_verdict(const struct xls_recover_summary *s, enum xls_verdict_scope scope,
			  bool approximate, struct xls_fieldset *fs);

/* The verdict as text: a first line, the counts, then what it leaves out. */
void xls_print_verdict(struct xls_out *o, const struct xls_recover_summary *s,
		       enum xls_log_state state, enum xls_verdict_scope scope);

#endif
