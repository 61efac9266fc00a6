/*
 * Pass 3 stage: the child process libxfs runs in (pass3.c) ends here: its
 * report to the parent through the pipe, whole, then _exit.  Apart from
 * pass3.c so that libxfs's side, which pass3.c calls, can end the child
 * too (xls_pass3_child_stop) without a loop of calls.
 */
#ifndef XLS_PASS3_CHILD_H
#define XLS_PASS3_CHILD_H

#include "pass3/pass3.h"

/* The child's report: its result, and why it failed ("" when it did not). */
struct pass3_report {
	struct xls_pass3_result	res;
	int			status;
	char			why[256];
};

/* From here on xls_pass3_child_stop() reports @rep through @out. */
void xls_pass3_child_begin(struct pass3_report *rep, int out);

/* @rep to the parent through @out, then the child's end (exit status 1 when it failed). */
void xls_pass3_child_send(int out, const struct pass3_report *rep) __attribute__((noreturn));

#endif /* XLS_PASS3_CHILD_H */
